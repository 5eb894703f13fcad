"""GutenQA: open questions over Project Gutenberg books, gold paragraphs found by a must-contain string."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from clueweaver.benchmarks.loading import (
    _book_file,
    _Builder,
    _check_split,
    _object,
    _paragraphs_containing,
    _raw_fields,
    _records,
    _text,
)
from clueweaver.benchmarks.schema import Benchmark, BenchmarkError, BenchmarkItem
from clueweaver.books.narrative import Narrative
from clueweaver.protocol.question import Question


def _gutenqa_item(book: str, where: str, record: Any, narrative: Narrative) -> BenchmarkItem:
    row = _object(record)
    must_contain = _text(row, "Chunk Must Contain")
    matches = _paragraphs_containing(narrative, must_contain)
    gold_match = "unique" if len(matches) == 1 else "none" if not matches else "ambiguous"
    metadata = {
        "reference_answer": row.get("Answer"),
        "must_contain": must_contain,
        "gold_match": gold_match,
        **_raw_fields(row, ("id", "Question", "Answer", "Chunk Must Contain")),
    }
    if gold_match == "ambiguous":
        metadata["matching_paragraphs"] = matches
    return BenchmarkItem(
        item_id=f"gutenqa:{book}:{row.get('id', where)}",
        benchmark="gutenqa",
        book_id=book,
        question=Question.open(_text(row, "Question")),
        gold_evidence=tuple(matches) if gold_match == "unique" else (),
        metadata=metadata,
        references=(row["Answer"].strip(),) if isinstance(row.get("Answer"), str) and row["Answer"].strip() else (),
    )


def load_gutenqa(
    path: Path, *, split: str | None = None, limit: int | None = None, skip_bad: bool = False
) -> Benchmark:
    """GutenQA books converted to ``{book}_paragraphs.jsonl`` (paragraph, chapter, text) and
    ``{book}_questions.jsonl`` (Question, Answer, "Chunk Must Contain").

    The questions are open (free-text answers), so items are ``Question.open`` with the row's
    ``Answer`` as their reference answer (also kept in metadata). Gold evidence is the paragraph containing the
    must-contain string verbatim (after whitespace normalization); when no paragraph or several
    do, gold stays empty and ``metadata["gold_match"]`` says "none" or "ambiguous".
    ``split`` names one book (e.g. "emma").
    """
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
            builder.add(_gutenqa_item(book, where, record, narrative), narrative)

        builder.each(questions_file, _records(questions_file), question)
    return builder.build()
