"""Reading a book: ``index`` and ``segment`` (the retrieval stack alone), ``ask`` (the whole
pipeline on the user's book) and ``demo`` (the pipeline on the bundled mystery)."""

from __future__ import annotations

import sys
import time

from clueweaver.books.chapter_labels import chapters_text
from clueweaver.books.chapters import NO_CHAPTERS_HINT
from clueweaver.books.front_sections import front_sections
from clueweaver.books.language import detect_language, language_name
from clueweaver.books.narrative import MAX_PARAGRAPH_CHARS, reading_limit
from clueweaver.cli.common import (
    BOOK_FILES,
    SMOKE_NOTE,
    add_encoder_argument,
    add_encoding_argument,
    add_language_argument,
    add_max_chapter_argument,
    add_model_arguments,
    add_pipeline_arguments,
    add_question_arguments,
    add_segment_source_arguments,
    announce,
    book_from_args,
    chrono_config_from_args,
    load_agents_from_args,
    model_from_args,
    pipeline_config_from_args,
    print_json,
    print_progress,
    question_from_args,
    segment_source_settings,
    smoke_config,
)
from clueweaver.cli.segment_view import format_segments
from clueweaver.core.errors import UsageError
from clueweaver.core.terminal import column
from clueweaver.pipeline import format_result
from clueweaver.retrieval import build_index, get_index
from clueweaver.segments.segmenter import get_preset
from clueweaver.sources import SourceRequest, candidate_segments, check_source_ready, names_read_text


def add_index(sub) -> None:
    p = sub.add_parser("index", help="load a book and build (or reuse) its retrieval index")
    p.add_argument("book", help=BOOK_FILES)
    add_encoding_argument(p)
    add_encoder_argument(p)
    add_language_argument(p)
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.set_defaults(run=run_index)


def run_index(args) -> int:
    narrative = book_from_args(args)
    started = time.perf_counter()
    index = build_index(narrative, args.encoder, cache_dir=args.cache_dir, language=args.language, announce=announce)
    summary = {
        "book": args.book,
        "title": narrative.title,
        "book_id": narrative.book_id,
        "content_hash": narrative.content_hash,
        "paragraphs": len(narrative),
        "chapters": len(narrative.chapters),
        "characters": narrative.num_chars,
        "language": index.language,
        "encoder": index.encoder.name if index.encoder else None,
        "seconds": round(time.perf_counter() - started, 3),
    }
    if args.json:
        print_json(summary)
    else:
        for key, value in summary.items():
            print(f"{key:>13}: {value}")
    return 0


def add_chapters(sub) -> None:
    p = sub.add_parser(
        "chapters", help="a book's chapters as the book numbers them: the numbers --max-chapter and --as-of take"
    )
    p.add_argument("book", help=BOOK_FILES)
    add_encoding_argument(p)
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=run_chapters)


def run_chapters(args) -> int:
    narrative = book_from_args(args)
    rows = [
        {
            "label": c.label,
            "number": c.number,
            "title": c.title,
            "part": c.part,
            "volume": c.volume,
            "first_paragraph": c.first_paragraph,
            "last_paragraph": c.last_paragraph,
        }
        for c in narrative.chapters
    ]
    front = narrative.chapters[0].first_paragraph if narrative.chapters else len(narrative)
    sections = front_sections(narrative)  # the prologue and preface a question may name
    spans = {kind: [section.first_paragraph, section.last_paragraph] for kind, section in sections.items()}
    front_matter = {"label": "0", "number": 0, "title": "(front matter)", "part": None, "volume": None,
                    "first_paragraph": 0, "last_paragraph": front - 1, "sections": spans}  # fmt: skip
    language = detect_language(narrative.text)
    if args.json:
        listed = [front_matter, *rows] if front else rows
        print_json({"book": args.book, "title": narrative.title, "language": language, "paragraphs": len(narrative),
                    "split_paragraphs": narrative.split_paragraphs, "chapters": listed})  # fmt: skip
        return 0
    split = narrative.split_paragraphs
    cut = f" ({split} longer than {MAX_PARAGRAPH_CHARS} characters cut at sentence ends)" if split else ""
    print(f"{narrative.title}: {len(narrative.chapters)} chapters, {len(narrative)} paragraphs{cut}")
    if front:
        print(f"{'0':>6}  {column('(front matter)', 64)} paragraphs 0-{front - 1}")
    for kind, section in sections.items():
        named = column(f"its {kind}: {section.title}", 64)
        print(f"{'':>6}  {named} paragraphs {section.first_paragraph}-{section.last_paragraph}")
    for chapter in narrative.chapters:
        title = column(chapter.full_title, 64)
        print(f"{chapter.label:>6}  {title} paragraphs {chapter.first_paragraph}-{chapter.last_paragraph}")
    print(f"language: {language_name(language)} ({language}), detected; retrieval reads the book in it (--language)")
    if not narrative.chapters:
        print(f"note: {NO_CHAPTERS_HINT}", file=sys.stderr)
    return 0


def add_segment(sub) -> None:
    p = sub.add_parser(
        "segment",
        help="the passages the Finder would read for a question, with their chapters, and the evidence packet",
    )
    p.add_argument("book", help=f"{BOOK_FILES} (e.g. the bundled clueweaver/data/demo_mystery.md)")
    add_encoding_argument(p)
    add_question_arguments(p)
    p.add_argument("--preset", default="detectiveqa", help="segmentation preset (see clueweaver/presets.yaml)")
    add_max_chapter_argument(p)
    p.add_argument("--exhaustive", action="store_true", help="tile the whole book instead of retrieving")
    add_segment_source_arguments(p, default="plain")
    add_encoder_argument(p)
    add_language_argument(p)
    p.add_argument("--json", action="store_true", help="print the segments as JSON")
    p.set_defaults(run=run_segment)


def run_segment(args) -> int:
    question = question_from_args(args)
    try:
        preset = get_preset(args.preset)
    except ValueError as exc:  # a plain ValueError: main would not print it
        raise UsageError(str(exc)) from None
    chrono = chrono_config_from_args(args)
    narrative = book_from_args(args)
    max_chapter = narrative.chapter_limit(args.max_chapter)
    last = reading_limit(narrative, max_chapter, None)
    encoder = None if args.encoder == "none" else args.encoder
    index = get_index(narrative, encoder, cache_dir=args.cache_dir, language=args.language, announce=announce)
    settings = segment_source_settings(args)
    request = SourceRequest(
        narrative, question, preset, index, max_chapter, last, args.exhaustive, encoder, settings.get("nwm_dir"),
        chrono, args.cache_dir,
    )  # fmt: skip
    candidates = candidate_segments(request, args.segment_source, fallback=args.segment_fallback)
    for warning in candidates.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    if candidates.read_first:
        print(f"note: the question names {chapters_text(candidates.read_first)}: read first", file=sys.stderr)
    if candidates.names_read:
        read = names_read_text(candidates.names_read)
        print(f"note: the question's names read as the book writes them: {read}", file=sys.stderr)
    if args.json:
        print_json(
            {
                "book_id": narrative.book_id,
                "language": index.language,
                "question": question.text,
                "kind": question.kind,
                "preset": preset.name,
                "segment_source": candidates.to_dict(),
                "segments": [s.to_dict(narrative) for s in candidates.segments],
            }
        )
        return 0
    print(format_segments(narrative, question, preset, candidates.segments, max_paragraph=last))
    return 0


def add_ask(sub) -> None:
    p = sub.add_parser(
        "ask", help="answer a question (multiple-choice or open) or check a claim about a book, with cited evidence"
    )
    p.add_argument("book", help=BOOK_FILES)
    add_encoding_argument(p)
    add_question_arguments(p)
    add_model_arguments(p)
    add_pipeline_arguments(p)
    p.add_argument("--json", action="store_true", help="print the result and its full trace as JSON")
    p.set_defaults(run=run_ask)


def run_ask(args) -> int:
    question = question_from_args(args)
    model, overrides = model_from_args(args)
    config = pipeline_config_from_args(args, **overrides)
    narrative = book_from_args(args)
    max_chapter = narrative.chapter_limit(args.max_chapter)  # a bad limit fails before models load
    if not config.segment_fallback:
        check_source_ready(narrative, config)  # the segment source's index and encoder, before models load
    agents = load_agents_from_args(args, model=model)
    if agents.smoke:  # it reads less, as in the demo, and says so
        config = smoke_config(args, overrides)
        print(f"note: {SMOKE_NOTE}", file=sys.stderr)
    try:
        pipeline = agents.pipeline(config)  # refuses what the models cannot do (a query writer on a stand-in) first
        index = get_index(
            narrative, config.encoder, cache_dir=config.cache_dir, language=config.language, announce=announce
        )
        result = pipeline.answer(
            narrative, question, max_chapter=max_chapter, index=index, progress_callback=print_progress
        )
    finally:
        agents.close()
    if args.json:
        print_json(result.to_dict())
    else:
        print(format_result(result, narrative))
    return 0
