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


def add_question_arguments(parser: argparse.ArgumentParser) -> None:
    """--question/--option/--claim, shared by every command that asks something of a book."""
    parser.add_argument("--question", help="a multiple-choice question (give its options with --option)")
    parser.add_argument("--option", action="append", default=[], metavar='A="text"', help="an answer option, repeatable")
    parser.add_argument(
        "--claim", nargs="?", const=True, default=None, metavar="TEXT",
        help="a TRUE/FALSE claim: --claim \"text\", or a bare --claim to read --question as a claim",
    )


def question_from_args(args):
    from clueweaver.protocol.question import Question

    options = {}
    for raw in args.option:
        label, sep, text = raw.partition("=")
        if not sep:
            raise UsageError(f'--option must look like A="text", got {raw!r}')
        options[label.strip().upper()] = text.strip()
    if isinstance(args.claim, str):
        if args.question or options:
            raise UsageError("give either --claim TEXT or --question with --option, not both")
        return Question.claim(args.claim)
    if not args.question:
        raise UsageError("give --question (with --option A=... for each option) or --claim")
    if args.claim:
        if options:
            raise UsageError("a claim takes no --option")
        return Question.claim(args.question)
    return Question(args.question, options)


def add_encoder_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--encoder", default="auto",
        help="dense encoder: auto (offline MiniLM if installed), none (BM25 alone), bge-m3[:PATH], "
        "minilm, or a sentence-transformers name/path",
    )
    parser.add_argument("--cache-dir", default=None, help="index cache folder (default ~/.cache/clueweaver or $CLUEWEAVER_CACHE)")


def add_index(sub) -> None:
    p = sub.add_parser("index", help="load a book and build (or reuse) its retrieval index")
    p.add_argument("book", help=".txt, .md, .epub or .jsonl of paragraphs")
    add_encoder_argument(p)
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.set_defaults(run=run_index)


def run_index(args) -> int:
    import time

    from clueweaver.narrative import load_narrative
    from clueweaver.retrieval import build_index

    narrative = load_narrative(args.book)
    started = time.perf_counter()
    index = build_index(narrative, args.encoder, cache_dir=args.cache_dir)
    summary = {
        "book": args.book,
        "title": narrative.title,
        "book_id": narrative.book_id,
        "content_hash": narrative.content_hash,
        "paragraphs": len(narrative),
        "chapters": len(narrative.chapters),
        "characters": narrative.num_chars,
        "encoder": index.encoder.name if index.encoder else None,
        "seconds": round(time.perf_counter() - started, 3),
    }
    if args.json:
        _print_json(summary)
    else:
        for key, value in summary.items():
            print(f"{key:>13}: {value}")
    return 0


def add_segment(sub) -> None:
    p = sub.add_parser("segment", help="the candidate segments the Finder would read for a question")
    p.add_argument("book")
    add_question_arguments(p)
    p.add_argument("--preset", default="detectiveqa", help="segmentation preset (see clueweaver/presets.yaml)")
    p.add_argument("--max-chapter", type=int, default=None, help="read only chapters 1..N (spoiler-free)")
    p.add_argument("--exhaustive", action="store_true", help="tile the whole book instead of retrieving")
    add_encoder_argument(p)
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=run_segment)


def run_segment(args) -> int:
    from clueweaver.narrative import load_narrative
    from clueweaver.retrieval import get_index
    from clueweaver.segment import get_preset, segment_narrative

    question = question_from_args(args)
    try:
        preset = get_preset(args.preset)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    narrative = load_narrative(args.book)
    index = get_index(narrative, args.encoder, cache_dir=args.cache_dir)
    segments = segment_narrative(narrative, question, preset, index=index, max_chapter=args.max_chapter, exhaustive=args.exhaustive)
    if args.json:
        _print_json({
            "book_id": narrative.book_id,
            "question": question.text,
            "kind": question.kind,
            "preset": preset.name,
            "segments": [s.to_dict(narrative) for s in segments],
        })
        return 0
    for n, s in enumerate(segments, start=1):
        print(f"#{n} {s.kind:<10} paragraphs {s.start}-{s.end}  score {s.score:.4f}  anchors {list(s.anchor_ids)}")
        print("   " + narrative[s.start].text[:100].replace("\n", " "))
    return 0


COMMANDS: list = [add_index, add_segment]


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
