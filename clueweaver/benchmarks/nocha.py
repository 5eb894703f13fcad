"""NoCha: true/false claim pairs about whole classic novels.

A clone of NoCha's repository keeps the books as ``data_sample/classic_books.pkl``, a pickled dict
{book title: text}. A pickle can name any function for the reader to call, so it is read by
:class:`_PlainDataUnpickler`, which refuses every such name before anything is looked up: a pickle
from the internet is read as data or refused, never run.
"""

from __future__ import annotations

import io
import pickle
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


class _PlainDataUnpickler(pickle.Unpickler):
    """Builds only what pickle's own opcodes make (dicts, lists, strings, numbers): any class or
    function the pickle names (how a pickle runs code) is refused instead of imported."""

    def find_class(self, module: str, name: str) -> Any:
        raise pickle.UnpicklingError(f"the pickle names {module}.{name}; only plain dicts, lists and strings are read")


_TRUSTED_CONVERSION = (
    "python -c \"import json, pickle; json.dump(pickle.load(open('classic_books.pkl', 'rb')), "
    "open('classic_books.json', 'w'))\""
)


def _read_books_pickle(path: Path) -> Any:
    try:
        return _PlainDataUnpickler(io.BytesIO(path.read_bytes())).load()
    except Exception as exc:  # a hostile or broken pickle raises any error type; each is a refusal
        raise BenchmarkError(
            f"{path}: refused ({type(exc).__name__}: {exc}); it must hold a plain dict {{book title: text}}. "
            f"Only if you trust where the file came from, convert it in its folder with: {_TRUSTED_CONVERSION}"
        ) from exc


def _books(claims_file: Path) -> tuple[Path, dict[str, str]]:
    """The books beside the claims: ``classic_books.json``, else the repository's
    ``classic_books.pkl`` read as plain data only."""
    folder = claims_file.parent
    books_file = next((f for f in (folder / "classic_books.json", folder / "classic_books.pkl") if f.is_file()), None)
    if books_file is None:
        raise BenchmarkError(f"{claims_file}: no classic_books.json or classic_books.pkl beside it")
    books = _read_json(books_file) if books_file.suffix == ".json" else _read_books_pickle(books_file)
    if not isinstance(books, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in books.items()):
        raise BenchmarkError(f"{books_file}: expected {{book title: text}}, every title and text a string")
    return books_file, books


def _nocha_book(books_file: Path, key: str, text: str) -> Narrative:
    def build() -> Narrative:
        header = re.match(r"\s*title:\s*(.+)\n", text)
        return from_text(text, title=header.group(1).strip() if header else key, source=f"{books_file}#{key}")

    return _cached(("nocha", *_file_key(books_file), key), build)


def load_nocha(path: Path, *, split: str | None = None, limit: int | None = None, skip_bad: bool = False) -> Benchmark:
    """NoCha sample: ``data_sample.json`` (claims with ``book_title``, ``type`` true/false and the
    pair ``index``) beside ``classic_books.pkl`` as the repository ships it, or a
    ``classic_books.json`` conversion ({book_title: text}); whole books."""
    _check_split("nocha", split, (None,))
    if (path / "data_sample").is_dir():  # the repository root
        path = path / "data_sample"
    claims_file = _jsonl_or_dir(path, "data_sample.json")
    books_file, books = _books(claims_file)
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
