"""The reader of the common schema (loader ``jsonl``; the format is described in
:mod:`clueweaver.benchmarks.schema`, and :meth:`Benchmark.to_jsonl` writes it)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from clueweaver.benchmarks.loading import _book_file, _Builder, _cached, _file_key, _object, _records, _text
from clueweaver.benchmarks.schema import Benchmark, BenchmarkError, BenchmarkItem
from clueweaver.books.narrative import Narrative, NarrativeError, from_paragraphs


def _common_narrative(record: dict, folder: Path) -> Narrative:
    book_id = _text(record, "book_id")
    if "path" in record:
        book_path = Path(_text(record, "path"))
        narrative = _book_file(book_path if book_path.is_absolute() else folder / book_path, title=record.get("title"))
    else:
        paragraphs, chapter_titles = record.get("paragraphs"), record.get("chapter_titles")
        if (
            not isinstance(paragraphs, list)
            or not paragraphs
            or not all(isinstance(p, str) and p.strip() for p in paragraphs)
        ):
            raise BenchmarkError(
                f"narrative {book_id!r}: 'paragraphs' must be a list of non-empty texts (or give 'path')"
            )
        if chapter_titles is not None and (
            not isinstance(chapter_titles, list) or len(chapter_titles) != len(paragraphs)
        ):
            raise BenchmarkError(
                f"narrative {book_id!r}: 'chapter_titles' must give one title (or null) per paragraph"
            )
        narrative = from_paragraphs(
            paragraphs,
            title=str(record.get("title") or book_id),
            source=f"{folder}#{book_id}",
            chapter_titles=chapter_titles,
            detect_headings=chapter_titles is None,
        )
    expected = record.get("content_hash")
    if expected and expected != narrative.content_hash:
        raise BenchmarkError(
            f"narrative {book_id!r}: the text differs from the one the items were labelled on "
            f"(content hash {narrative.content_hash[:12]}..., expected {str(expected)[:12]}...)"
        )
    return narrative


def _narrative_of(record: dict, path: Path, book_id: str) -> Narrative:
    """A narrative record's book: one given as a file is cached by that file's own stat (``_book_file``),
    so an edited book is read again; one given inline, by the benchmark file's."""
    if "path" in record:
        return _common_narrative(record, path.parent)
    return _cached(("jsonl", *_file_key(path), book_id), lambda: _common_narrative(record, path.parent))


def load_jsonl(path: Path, *, split: str | None = None, limit: int | None = None, skip_bad: bool = False) -> Benchmark:
    """A benchmark in the common schema (see :mod:`clueweaver.benchmarks.schema`). ``split`` keeps
    the items of one source benchmark (their ``benchmark`` field)."""
    if path.is_dir():
        raise BenchmarkError(f"{path}: give the benchmark's .jsonl file, not a folder")
    name, narrative_records, item_records = path.stem, {}, []
    for where, record in _records(path):
        kind = record.get("record") if isinstance(record, dict) else None
        if kind == "benchmark":
            name = str(record.get("name") or name)
        elif kind == "narrative" and isinstance(record.get("book_id"), str):
            if record["book_id"] in narrative_records:
                raise BenchmarkError(f"{path}, {where}: book id {record['book_id']!r} is defined twice")
            narrative_records[record["book_id"]] = (where, record)
        else:
            item_records.append((where, record))
    builder = _Builder(name, limit=limit, skip_bad=skip_bad)
    built: dict[str, Narrative] = {}
    sources: set[str] = set()

    def item_record(where: str, record: Any) -> None:
        record = _object(record)
        if record.get("record") == "narrative":
            raise BenchmarkError("a narrative record needs a string 'book_id'")
        if record.get("record") != "item":
            raise BenchmarkError(f"unknown record {record.get('record')!r}; use benchmark, narrative or item")
        item = BenchmarkItem.from_dict({k: v for k, v in record.items() if k != "record"})
        sources.add(item.benchmark)
        if split and item.benchmark != split:
            return
        if item.book_id not in narrative_records:
            raise BenchmarkError(
                f"item {item.item_id} refers to book {item.book_id!r}, which no narrative record defines"
            )
        if item.book_id not in built:
            narrative_where, narrative_record = narrative_records[item.book_id]
            try:
                built[item.book_id] = _narrative_of(narrative_record, path, item.book_id)
            except (BenchmarkError, NarrativeError) as exc:
                raise BenchmarkError(f"its narrative record ({narrative_where}) is bad: {exc}") from exc
        builder.add(item, built[item.book_id])

    builder.each(path, iter(item_records), item_record)
    return builder.build(split=split, splits=sources)
