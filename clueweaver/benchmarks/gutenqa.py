"""GutenQA: open questions over Project Gutenberg books, gold paragraphs found by a must-contain string.

Two layouts: the published table (``GutenQA.parquet`` on Hugging Face, or a JSONL/JSON export of
it), one row per LumberChunker chunk of all 100 books, the question columns filled on the chunk
that answers (the repository now also ships it as ``gutenqa_chunks.parquet`` with the questions
in ``questions.parquet``, joined here on Book ID and Chunk ID); and books converted to
``{book}_paragraphs.jsonl`` + ``{book}_questions.jsonl``.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any

from clueweaver.benchmarks.loading import (
    _book_file,
    _Builder,
    _cached,
    _check_split,
    _file_key,
    _integer,
    _object,
    _paragraphs_containing,
    _raw_fields,
    _records,
    _text,
)
from clueweaver.benchmarks.schema import Benchmark, BenchmarkError, BenchmarkItem
from clueweaver.books.narrative import MAX_PARAGRAPH_CHARS, Narrative, from_paragraphs, normalize_text
from clueweaver.protocol.question import Question

_TABLE_COLUMNS = ("Book Name", "Chunk ID", "Chunk")
_TABLE_SUFFIXES = (".parquet", ".jsonl", ".json")


def _gutenqa_item(book: str, local_id: Any, row: dict, matches: list[int], used: tuple[str, ...]) -> BenchmarkItem:
    """An open question with its Answer as reference; gold is the one paragraph in ``matches``
    (those holding the must-contain string), none when there are none or several."""
    must_contain = _text(row, "Chunk Must Contain")
    gold_match = "unique" if len(matches) == 1 else "none" if not matches else "ambiguous"
    metadata = {
        "reference_answer": row.get("Answer"),
        "must_contain": must_contain,
        "gold_match": gold_match,
        **_raw_fields(row, ("id", "Question", "Answer", "Chunk Must Contain", *used)),
    }
    if gold_match == "ambiguous":
        metadata["matching_paragraphs"] = matches
    return BenchmarkItem(
        item_id=f"gutenqa:{book}:{local_id}",
        benchmark="gutenqa",
        book_id=book,
        question=Question.open(_text(row, "Question")),
        gold_evidence=tuple(matches) if gold_match == "unique" else (),
        metadata=metadata,
        references=(row["Answer"].strip(),) if isinstance(row.get("Answer"), str) and row["Answer"].strip() else (),
    )


def _table_file(path: Path) -> Path | None:
    """The published table given directly or as the folder holding it (``GutenQA.parquet``, or
    the newer ``gutenqa_chunks.parquet`` beside ``questions.parquet``; or an export of either);
    None for a folder of converted books."""
    if path.is_file():
        return None if path.name.endswith(("_paragraphs.jsonl", "_questions.jsonl")) else path
    tables = [f for f in path.iterdir() if f.suffix in _TABLE_SUFFIXES and f.stem.lower().startswith("gutenqa")]
    return min(tables, key=lambda f: (_TABLE_SUFFIXES.index(f.suffix), f.name), default=None)


def _questions_by_chunk(file: Path) -> dict[tuple[int, int], dict]:
    """The question rows of ``questions.parquet`` (beside ``gutenqa_chunks.parquet``) by (Book ID,
    Chunk ID), the chunk each question is about."""
    questions = file.parent / f"questions{file.suffix}"
    if not file.stem.lower().endswith("_chunks"):
        return {}
    if not questions.is_file():
        raise BenchmarkError(f"{file}: the chunks need {questions.name} beside them (the questions of GutenQA)")
    by_chunk = {}
    for where, record in _records(questions):
        row = _object(record)
        try:
            by_chunk[(_integer(row, "Book ID"), _integer(row, "Chunk ID"))] = row
        except BenchmarkError as exc:
            raise BenchmarkError(f"{questions}, {where}: {exc}") from exc
    return by_chunk


def _table_books(file: Path) -> dict[str, list[tuple[str, dict]]]:
    """The table's (where, row) pairs by Book Name, in Chunk ID order, each chunk with the
    question about it when there is one."""
    questions = _questions_by_chunk(file)
    books: dict[str, list[tuple[str, dict]]] = defaultdict(list)
    for where, record in _records(file):
        row = _object(record)
        missing = [column for column in _TABLE_COLUMNS if column not in row]
        if missing:
            raise BenchmarkError(f"{file}, {where}: no column(s) {', '.join(missing)}; is this GutenQA's table?")
        question = questions.get((row.get("Book ID"), row.get("Chunk ID")), {})
        books[_text(row, "Book Name")].append((where, {**row, **question}))
    for rows in books.values():
        rows.sort(key=lambda pair: _integer(pair[1], "Chunk ID"))
    return books


def _table_narrative(file: Path, book: str, rows: list[tuple[str, dict]]) -> Narrative:
    """A book of the table: its chunks in order, each a paragraph (cut at sentence ends when
    longer than ``MAX_PARAGRAPH_CHARS``), chapters from the Chapter column."""

    def build() -> Narrative:
        return from_paragraphs(
            [_text(row, "Chunk") for _, row in rows],
            title=book.split("_-_")[0].replace("_", " "),
            source=f"{file}#{book}",
            chapter_titles=[row.get("Chapter") or None for _, row in rows],
            detect_headings=False,
            max_paragraph_chars=MAX_PARAGRAPH_CHARS,
        )

    return _cached(("gutenqa", *_file_key(file), book), build)


def _load_table(file: Path, split: str | None, builder: _Builder) -> list[str]:
    """The questions of every book of the table (of book ``split`` only when given); gold is the
    paragraph holding the must-contain string, looked for first within the question's own chunk."""
    books = _table_books(file)
    chosen = [name for name in books if split is None or name.casefold() == split.casefold()]
    for book in chosen:
        narrative = _table_narrative(file, book, books[book])

        def question(where: str, row: dict, book: str = book, narrative: Narrative = narrative) -> None:
            if not (row.get("Question") or "").strip():
                return  # a chunk without a question
            matches = _paragraphs_containing(narrative, _text(row, "Chunk Must Contain"))
            chunk = normalize_text(_text(row, "Chunk"))
            in_chunk = [i for i in matches if narrative[i].text in chunk]
            item = _gutenqa_item(book, row["Chunk ID"], row, in_chunk or matches, ("Book Name", "Chunk"))
            builder.add(item, narrative)

        builder.each(file, iter(books[book]), question)
    return list(books)


def load_gutenqa(
    path: Path, *, split: str | None = None, limit: int | None = None, skip_bad: bool = False
) -> Benchmark:
    """GutenQA's published table (``GutenQA.parquet``: Book Name, Book ID, Chunk ID, Chapter,
    Chunk, Question, Answer, "Chunk Must Contain"; all books), or books converted to
    ``{book}_paragraphs.jsonl`` (paragraph, chapter, text) and ``{book}_questions.jsonl``
    (Question, Answer, "Chunk Must Contain").

    The questions are open (free-text answers), so items are ``Question.open`` with the row's
    ``Answer`` as their reference answer (also kept in metadata). Gold evidence is the paragraph containing the
    must-contain string verbatim (after whitespace normalization); when no paragraph or several
    do, gold stays empty and ``metadata["gold_match"]`` says "none" or "ambiguous".
    ``split`` names one book (a Book Name of the table, e.g. "Emma_-_Jane_Austen", or "emma").
    """
    table = _table_file(path)
    if table is not None:
        builder = _Builder("gutenqa", limit=limit, skip_bad=skip_bad)
        books = _load_table(table, split, builder)
        return builder.build(split=split, splits=books)
    folder = path if path.is_dir() else path.parent
    books = sorted(f.name[: -len("_paragraphs.jsonl")] for f in folder.glob("*_paragraphs.jsonl"))
    if not books:
        raise BenchmarkError(f"{folder}: no *_paragraphs.jsonl book files")
    _check_split("gutenqa", split, (None, *books))
    builder = _Builder("gutenqa", limit=limit, skip_bad=skip_bad)
    for book in [split] if split else books:
        questions_file = folder / f"{book}_questions.jsonl"
        if not questions_file.is_file():
            raise BenchmarkError(f"{folder}: {book}_paragraphs.jsonl has no {questions_file.name} beside it")
        narrative = _book_file(folder / f"{book}_paragraphs.jsonl")

        def question(where: str, record: Any) -> None:
            row = _object(record)
            matches = _paragraphs_containing(narrative, _text(row, "Chunk Must Contain"))
            builder.add(_gutenqa_item(book, row.get("id", where), row, matches, ()), narrative)

        builder.each(questions_file, _records(questions_file), question)
    return builder.build()
