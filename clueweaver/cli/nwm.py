"""``clueweaver nwm publish|import|export|status|state|query``: publish, import, export, inspect
and query a book's Narrative World Model (one SQLite store per book in the data dir).

Store, extraction and lookup failures are the user's to fix: they are ``ClueWeaverError``s, which
``clueweaver.cli.main`` prints without a traceback.
"""

from __future__ import annotations

import argparse
import sys

from clueweaver.backends.registry import command_line_backends
from clueweaver.books.narrative import NarrativeError
from clueweaver.cli.common import (
    BOOK_FILES,
    ENCODER_CHOICES,
    add_backend_flags,
    add_command_group,
    add_encoding_argument,
    backend_options_from_args,
    book_from_args,
    load_backend_from,
    print_json,
)
from clueweaver.core.errors import UsageError
from clueweaver.nwm.publish import ExtractionConfig, Extractor, publish_chapters
from clueweaver.nwm.retrieval import query, state_view
from clueweaver.nwm.store import NarrativeStore
from clueweaver.pipeline.models import DEFAULT_MODEL


def add_nwm(sub) -> None:
    add_command_group(
        sub, "nwm", help="Narrative World Model: typed, chapter-safe records of a book",
        description="Build and read a book's Narrative World Model (one SQLite store per book in the data dir).",
        actions=(add_publish, add_import, add_export, add_status, add_state, add_query),
    )  # fmt: skip


def _book_arguments() -> argparse.ArgumentParser:
    """The book and its store, shared by every action."""
    book = argparse.ArgumentParser(add_help=False)
    book.add_argument("book", help=f"the book ({BOOK_FILES})")
    add_encoding_argument(book)
    book.add_argument(
        "--data-dir", help="where stores live (default: $CLUEWEAVER_CACHE/nwm or ~/.cache/clueweaver/nwm)"
    )
    return book


def _as_of_arguments() -> argparse.ArgumentParser:
    """The reader's chapter and the printing options of the actions that read as of it."""
    as_of = argparse.ArgumentParser(add_help=False)
    as_of.add_argument(
        "--as-of",
        required=True,
        metavar="N",
        help="the chapter the reader has reached (inclusive), as the book numbers it ('clueweaver chapters BOOK')",
    )
    as_of.add_argument("--json", action="store_true", help="print JSON")
    as_of.add_argument("--max-chars", type=int, default=None, help="character budget of the printed state or packet")
    return as_of


def _open(args):
    narrative = book_from_args(args)
    store = NarrativeStore.for_narrative(narrative, args.data_dir)
    if store.invalidated:
        stale = ", ".join(map(narrative.chapter_label, store.invalidated))
        print(
            f"the book changed since its store was built: chapters {stale} are stale; republish them", file=sys.stderr
        )
    return narrative, store


def add_publish(actions) -> None:
    p = actions.add_parser(
        "publish", parents=[_book_arguments()], help="extract records from chapters with a language model"
    )
    p.add_argument(
        "--chapters",
        default=None,
        help="e.g. '2-4,7' or 'all', numbered as the book numbers them (default: chapters not yet published, or "
        "stale)",
    )
    p.add_argument(
        "--backend", default="hf", help=f"generation backend: {', '.join(command_line_backends())} (default: hf)"
    )
    p.add_argument("--model", default=DEFAULT_MODEL, help=f"model name or path (default: {DEFAULT_MODEL})")
    add_backend_flags(p)
    p.add_argument(
        "--max-attempts", type=int, default=3, help="tries per chapter window before giving up (default: 3)"
    )
    p.add_argument(
        "--window-chars", type=int, default=12000, help="longest chapter window given at once (default: 12000)"
    )
    p.set_defaults(run=run_publish)


def run_publish(args) -> int:
    narrative, store = _open(args)
    with store:
        done = {c.chapter for c in store.chapters() if c.status == "published"}
        available = store.book_chapter_numbers()
        chapters = parse_chapters(args.chapters, narrative, available, [c for c in available if c not in done])
        if not chapters:
            print("every chapter is already published; pass --chapters to republish")
            return 0
        backend = load_backend_from(args.backend, args.model, backend_options_from_args(args))
        config = ExtractionConfig(max_attempts=args.max_attempts, window_chars=args.window_chars)
        extractor = Extractor(backend, config=config)
        counts = publish_chapters(store, narrative, chapters, extractor)
    return _print_counts(counts, narrative)


def parse_chapters(spec: str | None, narrative, available: list[int], pending: list[int]) -> list[int]:
    """'2-4,7' or 'all' (chapters as the book numbers them; a part or story stands for its
    chapters) -> the store's chapter numbers, each checked against the book."""
    if spec is None:
        return pending
    if spec.strip() == "all":
        return list(available)
    chosen = []
    for part in spec.split(","):
        low, _, high = part.strip().partition("-")
        if not low.strip():
            raise UsageError(f"--chapters: cannot read {part!r}; use chapters and ranges like '2-4,7' or 'all'")
        try:
            chosen += range(narrative.chapter_span(low)[0], narrative.chapter_span(high or low)[1] + 1)
        except NarrativeError as exc:
            raise UsageError(f"--chapters {part.strip()}: {exc}") from None
    missing = sorted(set(chosen) - set(available))
    if missing:
        raise UsageError(f"--chapters: the book has no chapter {', '.join(map(narrative.chapter_label, missing))}")
    return sorted(set(chosen))


def _print_counts(counts: dict[int, int], narrative) -> int:
    for chapter, count in sorted(counts.items()):
        print(f"chapter {narrative.chapter_label(chapter)}: {count} records")
    return 0


def add_import(actions) -> None:
    p = actions.add_parser(
        "import", parents=[_book_arguments()], help="load records from JSONL (replaces the chapters it covers)"
    )
    p.add_argument("records", help="JSONL file, one record per line")
    p.set_defaults(run=run_import)


def run_import(args) -> int:
    narrative, store = _open(args)
    with store:
        counts = store.import_jsonl(narrative, args.records)
    return _print_counts(counts, narrative)


def add_export(actions) -> None:
    p = actions.add_parser("export", parents=[_book_arguments()], help="write every record as JSONL")
    p.add_argument("output", help="JSONL file to write")
    p.set_defaults(run=run_export)


def run_export(args) -> int:
    _, store = _open(args)
    with store:
        count = store.export_jsonl(args.output)
    print(f"{count} records written to {args.output}")
    return 0


def add_status(actions) -> None:
    p = actions.add_parser(
        "status", parents=[_book_arguments()], help="which chapters are published, stale or missing"
    )
    p.set_defaults(run=run_status)


def run_status(args) -> int:
    narrative, store = _open(args)
    with store:
        statuses = {c.chapter: c for c in store.chapters()}
        for chapter in store.book_chapter_numbers():
            c = statuses.get(chapter)
            print(
                f"chapter {narrative.chapter_label(chapter)}: "
                + (f"{c.status}, {c.records} records, {c.origin}, {c.updated_at}" if c else "not published")
            )
    return 0


def add_state(actions) -> None:
    p = actions.add_parser(
        "state", parents=[_book_arguments(), _as_of_arguments()], help="the world model as of a chapter"
    )
    p.add_argument("--entity", default=None, help="only what concerns this character, object, place or thread")
    p.set_defaults(run=run_state)


def run_state(args) -> int:
    narrative, store = _open(args)
    with store:
        view = state_view(
            store, narrative.chapter_limit(args.as_of), entity=args.entity, label=narrative.chapter_label
        )
    return _emit(args, view.to_dict(), view.render(args.max_chars))


def add_query(actions) -> None:
    p = actions.add_parser(
        "query",
        parents=[_book_arguments(), _as_of_arguments()],
        help="records relevant to a question, as of a chapter",
    )
    p.add_argument("question", help="the question or claim")
    p.add_argument("--top-k", type=int, default=8, help="records ranked by the question (default: 8)")
    p.add_argument(
        "--neighbours", type=int, default=3, help="records added per node by one-hop expansion (default: 3)"
    )
    p.add_argument("--max-records", type=int, default=24, help="records in the packet at most (default: 24)")
    p.add_argument("--encoder", default="auto", help=f"dense encoder for ranking records: {ENCODER_CHOICES}")
    p.add_argument("--state-memory", action="store_true", help="serialize all state up to N instead (no query step)")
    p.set_defaults(run=run_query)


def run_query(args) -> int:
    narrative, store = _open(args)
    with store:
        packet = query(
            store,
            [args.question],
            narrative.chapter_limit(args.as_of),
            top_k=args.top_k,
            neighbour_limit=args.neighbours,
            max_records=args.max_records,
            max_chars=args.max_chars or 6000,
            encoder=args.encoder,
            state_memory=args.state_memory,
            label=narrative.chapter_label,
        )
    return _emit(args, packet.to_dict(), packet.text)


def _emit(args, payload: dict, text: str) -> int:
    if args.json:
        print_json(payload)
    else:
        print(text)
    return 0
