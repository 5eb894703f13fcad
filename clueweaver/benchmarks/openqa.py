"""Open questions with reference answers over whole stories: SQuALITY, and the answer readers
NarrativeQA's loader (:mod:`clueweaver.benchmarks.narrativeqa`) shares.

Both sets give each question several reference answers written by people; the items are
``Question.open`` with those answers in ``references`` (evaluation scores a free-text answer
against every reference and keeps the best). Neither marks paragraph-level gold evidence.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from clueweaver.benchmarks.loading import (
    _Builder,
    _check_split,
    _inline_text,
    _object,
    _records,
    _text,
)
from clueweaver.benchmarks.schema import Benchmark, BenchmarkError, BenchmarkItem
from clueweaver.protocol.question import Question

SQUALITY_SPLITS = ("train", "dev", "test")


def _text_of(value: Any, field: str) -> str:
    """A text given as a string or as an object with a ``text`` field (NarrativeQA's own layout)."""
    if isinstance(value, dict):
        value = value.get("text")
    if not isinstance(value, str) or not value.strip():
        raise BenchmarkError(f"field {field!r} is missing or empty (a text, or an object with a 'text')")
    return value.strip()


def _reference_answers(row: dict, field: str) -> tuple[str, ...]:
    answers = row.get(field)
    if not isinstance(answers, list) or not answers:
        raise BenchmarkError(f"no reference answers: field {field!r} must be a non-empty list of answer texts")
    return tuple(_text_of(answer, f"{field}[{n}]") for n, answer in enumerate(answers))


def _squality_files(path: Path, split: str | None) -> list[Path]:
    """One SQuALITY ``{split}.jsonl`` file, or in its folder the file of ``split`` (all three without)."""
    if not path.is_dir():
        return [path]
    files = [path / f"{name}.jsonl" for name in ([split] if split else SQUALITY_SPLITS)]
    missing = [f.name for f in files if not f.is_file()]
    if missing:
        raise BenchmarkError(f"{path}: no {', '.join(missing)} in this SQuALITY folder")
    return files


def load_squality(
    path: Path, *, split: str | None = None, limit: int | None = None, skip_bad: bool = False
) -> Benchmark:
    """SQuALITY (``data/v1-3/txt/{train,dev,test}.jsonl``): a story (``document``) per line with
    five ``questions``, each answered by four writers (``responses[].response_text``), the
    references. ``split`` picks one file of the folder (default: all three)."""
    _check_split("squality", split, (None, *SQUALITY_SPLITS))
    builder = _Builder("squality", limit=limit, skip_bad=skip_bad)
    for file in _squality_files(path, split):

        def questions_of(where: str, record: Any) -> list[tuple[str, Any]]:
            row = _object(record)
            questions = row.get("questions")
            if not isinstance(questions, list) or not questions:
                raise BenchmarkError("field 'questions' must be a non-empty list")
            return [(f"{where}, question {n}", (row, raw)) for n, raw in enumerate(questions, start=1)]

        def question(where: str, payload: tuple, file: Path = file) -> None:
            row, raw = payload
            raw = _object(raw)
            metadata = row.get("metadata") if isinstance(row.get("metadata"), dict) else {}
            narrative = _inline_text(_text(row, "document"), f"{file}#{metadata.get('passage_id', where)}")
            book_id = str(metadata.get("passage_id") or narrative.book_id)
            responses = [r.get("response_text") if isinstance(r, dict) else r for r in raw.get("responses") or []]
            item = BenchmarkItem(
                item_id=f"squality:{book_id}:{raw.get('question_number', where)}",
                benchmark="squality",
                book_id=book_id,
                question=Question.open(_text(raw, "question_text")),
                references=_reference_answers({"responses": responses}, "responses"),
                metadata={"split": file.stem, "question_number": raw.get("question_number")},
            )
            builder.add(item, narrative)

        builder.each(file, builder.nested(file, _records(file), questions_of), question)
    return builder.build()
