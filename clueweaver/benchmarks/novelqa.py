"""NovelQA as released: multiple-choice questions over whole novels, each labelled with the aspect
it asks about and its complexity, the gold answers withheld from the public copy."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

from clueweaver.benchmarks.loading import (
    _book_file,
    _Builder,
    _check_split,
    _object,
    _option_letter,
    _raw_fields,
    _read_json,
    _text,
)
from clueweaver.benchmarks.schema import Benchmark, BenchmarkError, BenchmarkItem
from clueweaver.protocol.question import Question

# The release's two folders under Books/ and Data/: Project Gutenberg novels and bought ones.
NOVELQA_COLLECTIONS = ("PublicDomain", "CopyrightProtected")
# The gold answer's field in the copies that have one: "Answer" in some, "Gold" in others.
_ANSWER_FIELDS = ("Answer", "Gold")
# "Complexity" as the release README documents it; its own example, the demonstration file, says "Complex".
_COMPLEXITY_FIELDS = ("Complexity", "Complex")
_USED = ("QID", "Aspect", "Question", "Options", *_ANSWER_FIELDS, *_COMPLEXITY_FIELDS)


def _book_titles(path: Path) -> dict[str, str]:
    """Book id -> title from ``bookmeta.json`` ({"B00": {"title": ..., "author": ..., "copyright":
    ..., "tokenlen": ...}, ...}) when the folder has one; a book it leaves out, or without a
    title, is called by its id."""
    meta_file = path / "bookmeta.json"
    if not meta_file.exists():
        return {}
    meta = _read_json(meta_file)
    if not isinstance(meta, dict):
        raise BenchmarkError(f"{meta_file}: expected an object keyed by book id, got {type(meta).__name__}")
    titles = {}
    for book_id, entry in meta.items():
        if not isinstance(entry, dict):
            raise BenchmarkError(f"{meta_file}: book {book_id!r} must be an object {{title: ..., ...}}")
        if isinstance(entry.get("title"), str) and entry["title"].strip():
            titles[book_id] = entry["title"].strip()
    return titles


def _question_rows(data_file: Path) -> Iterator[tuple[str, tuple[str | None, Any]]]:
    """(where, (QID key or None, question)) for each question of a book's Data file: the release
    writes a JSON list of question objects, other copies an object keyed by QID; both are read."""
    data = _read_json(data_file)
    if isinstance(data, list):
        for number, record in enumerate(data, start=1):
            yield f"entry {number}", (None, record)
    elif isinstance(data, dict):
        for key, record in data.items():
            yield f"question {key}", (key, record)
    else:
        raise BenchmarkError(
            f"{data_file}: expected a list of questions or an object keyed by QID, got {type(data).__name__}"
        )


def _qid(key: str | None, raw: dict) -> str:
    """The question's QID: its own field, else the key it is filed under; the two must agree."""
    if key is None or "QID" in raw:
        qid = _text(raw, "QID")
        if key is not None and qid != key:
            raise BenchmarkError(f"QID {qid!r} differs from the key {key!r} it is filed under")
        return qid
    return key


def _options(raw: dict) -> dict[str, str]:
    """``Options`` {"A": ..., "B": ...}: four, or two for a yes/no question."""
    options = raw.get("Options")
    if not isinstance(options, dict):
        raise BenchmarkError("field 'Options' must be an object {A: ..., B: ...}")
    if not all(isinstance(v, (str, int, float)) and not isinstance(v, bool) for v in options.values()):
        raise BenchmarkError(f"every option must be a text, got {options!r:.120}")
    return {label: str(text).strip() for label, text in options.items()}


def _answer(raw: dict, options: dict[str, str]) -> str | None:
    """The gold letter from "Answer" or "Gold" (they must agree when both are there); None when
    the copy withholds it, as the public release does: the item is then unlabelled."""
    letters = set()
    for key in _ANSWER_FIELDS:
        value = raw.get(key)
        if value is None or value == "":
            continue
        if not isinstance(value, str):
            raise BenchmarkError(f"field {key!r} must be an option letter, got {value!r}")
        letters.add(_option_letter(value, options))
    if len(letters) > 1:
        raise BenchmarkError(f"fields 'Answer' and 'Gold' disagree ({raw['Answer']!r}, {raw['Gold']!r})")
    return next(iter(letters), None)


def _complexity(raw: dict) -> str:
    """The question's complexity (mh multi-hop, sh single-hop, dtl detail) from "Complexity", or
    from "Complex" as the release README's own example spells it."""
    value = next((raw[key] for key in _COMPLEXITY_FIELDS if key in raw), None)
    if not isinstance(value, str) or not value.strip():
        raise BenchmarkError("field 'Complexity' is missing or empty")
    return value.strip()


def load_novelqa(
    path: Path, *, split: str | None = None, limit: int | None = None, skip_bad: bool = False
) -> Benchmark:
    """NovelQA's release folder (Hugging Face ``NovelQA/NovelQA``): ``Books/{collection}/{book}.txt``
    (the novel), ``Data/{collection}/{book}.json`` (its questions: QID, Aspect, Complexity,
    Question, Options {A-D}) and ``bookmeta.json`` (titles), the collection ``PublicDomain`` or
    ``CopyrightProtected`` (``split`` keeps one). The ``Demonstration/`` example is not read.

    The public copy withholds the gold answers (the leaderboard scores predictions), so a question
    without "Answer" or "Gold" is loaded unlabelled, as QuALITY's test split and KDSH's test.csv
    are: ``eval`` then counts it as skipped, never as wrong. Item ids are
    ``novelqa:{book}:{QID}``; the metadata keeps QID, Aspect, Complexity and the collection."""
    _check_split("novelqa", split, (None, *NOVELQA_COLLECTIONS))
    if not (path / "Data").is_dir():
        raise BenchmarkError(f"{path}: expected NovelQA's folders Books/ and Data/ (and bookmeta.json)")
    titles = _book_titles(path)
    builder = _Builder("novelqa", limit=limit, skip_bad=skip_bad)
    collections = [c for c in NOVELQA_COLLECTIONS if any((path / "Data" / c).glob("*.json"))]
    for collection in collections:
        if split in (None, collection):
            for data_file in sorted((path / "Data" / collection).glob("*.json")):
                _load_book(builder, path, collection, data_file.stem, titles)
    return builder.build(split=split, splits=collections)


def _load_book(builder: _Builder, path: Path, collection: str, book_id: str, titles: dict[str, str]) -> None:
    """The questions of one book's Data file, over its text in the same collection under Books/."""
    data_file = path / "Data" / collection / f"{book_id}.json"
    book_file = path / "Books" / collection / f"{book_id}.txt"

    def question(where: str, payload: tuple[str | None, Any]) -> None:
        key, record = payload
        raw = _object(record)
        options = _options(raw)
        if not book_file.is_file():
            raise BenchmarkError(f"no text for book {book_id}: expected {book_file}")
        qid = _qid(key, raw)
        item = BenchmarkItem(
            item_id=f"novelqa:{book_id}:{qid}",
            benchmark="novelqa",
            book_id=book_id,
            question=Question(_text(raw, "Question"), options),
            answer=_answer(raw, options),
            metadata={
                "QID": qid,
                "Aspect": _text(raw, "Aspect"),
                "Complexity": _complexity(raw),
                "collection": collection,
                **_raw_fields(raw, _USED),
            },
        )
        builder.add(item, _book_file(book_file, title=titles.get(book_id, book_id)))

    builder.each(data_file, _question_rows(data_file), question)
