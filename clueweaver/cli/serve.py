"""``clueweaver serve``: the local reading room, a web page and an API over the user's books
(the app itself is ``serve.app``, in the serve extra)."""

from __future__ import annotations

from clueweaver.core.config import add_config_arguments, config_from_args
from clueweaver.core.errors import UsageError
from clueweaver.serving.config import ServeConfig


def add_serve(sub) -> None:
    p = sub.add_parser(
        "serve", help="the local reading room: a web page and an API over your books",
        description="Serve the reading room (page at /, API under /api, docs at /docs). Listens on 127.0.0.1 by "
        "default; any other address needs a bearer token (set CLUEWEAVER_TOKEN). See docs/serving.md.",
    )  # fmt: skip
    add_config_arguments(p, ServeConfig)
    p.set_defaults(run=run_serve)


def run_serve(args) -> int:
    try:  # fastapi and uvicorn come with the serve extra
        from serve.app import check_bind, run
    except ImportError as exc:
        raise UsageError(f"the server needs the serve extra ({exc}): pip install 'clueweaver[serve]'") from None
    config = config_from_args(ServeConfig, args)
    check_bind(config.host, config.resolved_token())
    run(config)
    return 0
