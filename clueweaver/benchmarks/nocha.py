"""NoCha: true/false claim pairs about whole classic novels."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from clueweaver.benchmarks.loading import (
    _Builder,
    _cached,
    _check_split,
    _claim_label,
    _file_key,
    _integer,
    _jsonl_or_dir,
    _object,
    _raw_fields,
    _read_json,
    _records,
    _text,
)
from clueweaver.benchmarks.schema import Benchmark, BenchmarkError, BenchmarkItem
from clueweaver.books.narrative import Narrative, from_text
from clueweaver.protocol.question import Question


def _nocha_book(books_file: Path, key: str, text: str) -> Narrative:
    def build() -> Narrative:
        header = re.match(r"\s*title:\s*(.+)\n", text)
        return from_text(text, title=header.group(1).strip() if header else key, source=f"{books_file}#{key}")

    return _cached(("nocha", *_file_key(books_file), key), build)


def load_nocha(path: Path, *, split: str | None = None, limit: int | None = None, skip_bad: bool = False) -> Benchmark:
    """NoCha sample: ``data_sample.json`` (claims with ``book_title``, ``type`` true/false and the
    pair ``index``) beside ``classic_books.json`` ({book_title: text}); whole books."""
    _check_split("nocha", split, (None,))
    if (path / "data_sample").is_dir():  # the repository root
        path = path / "data_sample"
    claims_file = _jsonl_or_dir(path, "data_sample.json")
    books_file = claims_file.parent / "classic_books.json"
    if not books_file.is_file():
        raise BenchmarkError(f"{claims_file}: the books file {books_file} is missing")
    books = _read_json(books_file)
    if not isinstance(books, dict):
        raise BenchmarkError(f"{books_file}: expected a JSON object {{book title: text}}")
    builder = _Builder("nocha", limit=limit, skip_bad=skip_bad)

    def claim(where: str, record: Any) -> None:
        row = _object(record)
        title, text = _text(row, "book_title"), _text(row, "claim")
        label, index = _claim_label(row.get("type")), _integer(row, "index")
        if not isinstance(books.get(title), str):
            raise BenchmarkError(f"book {title!r} is not in {books_file.name}")
        item = BenchmarkItem(
            item_id=f"nocha:{index}:{label}",
            benchmark="nocha",
            book_id=title,
            question=Question.claim(text),
            answer=label,
            pair_id=f"nocha:{index}",
            metadata=_raw_fields(row, ("book_title", "claim", "type", "index"), ("response-",)),
        )
        builder.add(item, _nocha_book(books_file, title, books[title]))

    builder.each(claims_file, _records(claims_file), claim)
    return builder.build()
