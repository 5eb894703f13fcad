"""The ``clueweaver`` command: one entry point, one subcommand per task.

``COMMANDS`` below is the whole command table. Each ``add_*`` function registers one subcommand
and sets the function that runs it, which sits right beside it in its module: ``reading`` (index,
chapters, segment, ask), ``demo``, ``bench``, ``evaluation`` (benchmark, eval, eval-report, eval-compare,
eval-retrieval), ``nwm``, ``chrono``, ``serve`` and ``export``; ``common`` holds the arguments several
commands share. Every error ClueWeaver raises on purpose is a ``ClueWeaverError``: ``main``
prints it once, without a traceback, and exits with status 2.
"""

from __future__ import annotations

import argparse
import os
import sys

from clueweaver import __version__
from clueweaver.cli import bench, chrono, demo, evaluation, export, nwm, reading, serve
from clueweaver.core.errors import ClueWeaverError

# In the order `clueweaver --help` lists them.
COMMANDS = (
    reading.add_index,
    reading.add_chapters,
    reading.add_segment,
    bench.add_bench,
    evaluation.add_benchmark,
    nwm.add_nwm,
    chrono.add_chrono,
    reading.add_ask,
    demo.add_demo,
    evaluation.add_eval,
    evaluation.add_eval_report,
    evaluation.add_eval_compare,
    evaluation.add_eval_retrieval,
    serve.add_serve,
    export.add_export,
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="clueweaver", description=__doc__.splitlines()[0])
    parser.add_argument("--version", action="version", version=f"clueweaver {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for add in COMMANDS:
        add(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.run(args) or 0
    except (ClueWeaverError, FileNotFoundError) as exc:
        print(f"clueweaver {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # the reader of stdout left (e.g. `clueweaver chapters BOOK | head`)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second error as Python exits
        return 0
