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


def add_benchmark(subparsers) -> None:
    parser = subparsers.add_parser(
        "benchmark",
        help="load a benchmark into the common schema; print its counts (and skipped rows), optionally export it",
    )
    parser.add_argument("name", help="nocha, quality, quality_leval, leval_scifi, gutenqa, kdsh, bmds, detectiveqa, "
                        "infinitebench, longbench_v2 or jsonl (the common schema)")
    parser.add_argument("--path", help="the benchmark's file or folder (default: under the shared data folder)")
    parser.add_argument("--split", help="a split or subset, where the benchmark has them")
    parser.add_argument("--limit", type=int, help="keep only the first N items")
    parser.add_argument("--skip-bad", action="store_true", help="skip and count bad rows instead of stopping")
    parser.add_argument("--export", metavar="JSONL", help="write the benchmark in the common JSONL schema")
    parser.set_defaults(run=_run_benchmark)


def _run_benchmark(args) -> int:
    from clueweaver.benchmarks import load_benchmark

    benchmark = load_benchmark(args.name, args.path, split=args.split, limit=args.limit, skip_bad=args.skip_bad)
    summary = benchmark.summary()
    summary["skipped_rows"] = [row._asdict() for row in benchmark.skipped]
    if args.export:
        summary["exported"] = str(benchmark.to_jsonl(args.export))
    _print_json(summary)
    return 0


COMMANDS.append(add_benchmark)


def main(argv: list[str] | None = None) -> int:
    from clueweaver.benchmarks import BenchmarkError
    from clueweaver.narrative import NarrativeError
    from clueweaver.protocol.question import QuestionError

    args = build_parser().parse_args(argv)
    try:
        return args.run(args) or 0
    except (UsageError, NarrativeError, QuestionError, BenchmarkError, FileNotFoundError) as exc:
        print(f"clueweaver {args.command}: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
