"""The ``clueweaver`` command: one entry point, one subcommand per task.

Each ``add_*`` function registers one subcommand and the function that runs it; heavy imports
happen inside the runners so ``clueweaver --help`` stays fast.
"""

from __future__ import annotations

import argparse
import json
import sys

from clueweaver import __version__


class UsageError(Exception):
    """A command-line mistake the user can fix; printed without a traceback."""


def _print_json(payload) -> None:
    json.dump(payload, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="clueweaver", description=__doc__.splitlines()[0])
    parser.add_argument("--version", action="version", version=f"clueweaver {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for add in COMMANDS:
        add(sub)
    return parser


COMMANDS: list = []


def add_nwm(subparsers) -> None:
    """``clueweaver nwm publish|import|export|status|state|query`` (Narrative World Model)."""
    from clueweaver.nwm.commands import add_nwm_parser

    add_nwm_parser(subparsers)


COMMANDS.append(add_nwm)


def main(argv: list[str] | None = None) -> int:
    from clueweaver.narrative import NarrativeError
    from clueweaver.protocol.question import QuestionError

    args = build_parser().parse_args(argv)
    try:
        return args.run(args) or 0
    except (UsageError, NarrativeError, QuestionError, FileNotFoundError) as exc:
        print(f"clueweaver {args.command}: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
