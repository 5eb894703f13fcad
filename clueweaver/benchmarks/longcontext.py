"""Long-context suites whose rows carry the whole book inline as ``context``: InfiniteBench's
English multiple choice and its English and Chinese open questions over novels, and LongBench v2
(its detective and literary domains among others)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from clueweaver.benchmarks.loading import (
    _Builder,
    _check_split,
    _inline_text,
    _jsonl_or_dir,
    _object,
    _option_letter,
    _options_from_list,
    _raw_fields,
    _records,
    _text,
)
from clueweaver.benchmarks.openqa import _reference_answers
from clueweaver.benchmarks.schema import Benchmark, BenchmarkError, BenchmarkItem
from clueweaver.protocol.question import OPTION_LABELS, Question


def _load_infinitebench_file(
    path: Path,
    filename: str,
    name: str,
    answer_fields: Callable[[dict], dict],
    *,
    split: str | None,
    limit: int | None,
    skip_bad: bool,
) -> Benchmark:
    """The rows of one InfiniteBench task file (``context`` the whole book, repeated on every row
    of it, so rows of one book share one narrative; ``input`` the question; ``id``), each an item
    whose question, answer and metadata ``answer_fields(row)`` reads from the task's own fields."""
    _check_split(name, split, (None,))
    file = _jsonl_or_dir(path, filename)
    builder = _Builder(name, limit=limit, skip_bad=skip_bad)

    def question(where: str, record: Any) -> None:
        row = _object(record)
        fields = answer_fields(row)
        narrative = _inline_text(_text(row, "context"), f"{file}#{where}")
        item = BenchmarkItem(
            item_id=f"{name}:{row.get('id', where)}", benchmark=name, book_id=narrative.book_id, **fields
        )
        builder.add(item, narrative)

    builder.each(file, _records(file), question)
    return builder.build()


def _multiple_choice_fields(row: dict) -> dict:
    """En.MC: ``options`` (texts) and ``answer`` (a list holding the correct option's text)."""
    options = _options_from_list(row.get("options"))
    answers = row.get("answer")
    if isinstance(answers, str):
        answers = [answers]
    if not isinstance(answers, list) or len(answers) != 1 or not isinstance(answers[0], str):
        raise BenchmarkError(f"answer must be a list holding one option text, got {answers!r:.120}")
    return {
        "question": Question(_text(row, "input"), options),
        "answer": _option_letter(answers[0], options),
        "metadata": {"answer_text": answers[0], **_raw_fields(row, ("context", "input", "options", "answer"))},
    }


def _open_question_fields(row: dict) -> dict:
    """En.QA / Zh.QA: ``answer`` the list of reference answers, ``options`` empty."""
    return {
        "question": Question.open(_text(row, "input")),
        "references": _reference_answers(row, "answer"),
        "metadata": _raw_fields(row, ("context", "input", "options", "answer")),
    }


def load_infinitebench(
    path: Path, *, split: str | None = None, limit: int | None = None, skip_bad: bool = False
) -> Benchmark:
    """InfiniteBench ``longbook_choice_eng.jsonl`` (En.MC): ``context`` (the book), ``input`` (the
    question), ``options`` (texts) and ``answer`` (a list holding the correct option's text)."""
    return _load_infinitebench_file(
        path,
        "longbook_choice_eng.jsonl",
        "infinitebench",
        _multiple_choice_fields,
        split=split,
        limit=limit,
        skip_bad=skip_bad,
    )


_QA_FILES = {"en": "longbook_qa_eng.jsonl", "zh": "longbook_qa_chn.jsonl"}


def load_infinitebench_qa(
    path: Path, *, split: str | None = None, limit: int | None = None, skip_bad: bool = False, language: str = "en"
) -> Benchmark:
    """InfiniteBench's open questions over novels, ``longbook_qa_eng.jsonl`` (En.QA, ``language``
    "en", benchmark "infinitebench_qa") or ``longbook_qa_chn.jsonl`` (Zh.QA, "zh",
    "infinitebench_qa_zh"): ``context`` (the book), ``input`` (the question) and ``answer`` (the
    reference answers, scored by token F1, by character for Chinese)."""
    if language not in _QA_FILES:
        raise BenchmarkError(
            f"infinitebench_qa: unknown language {language!r}; use {' or '.join(map(repr, _QA_FILES))}"
        )
    name = "infinitebench_qa" if language == "en" else f"infinitebench_qa_{language}"
    return _load_infinitebench_file(
        path, _QA_FILES[language], name, _open_question_fields, split=split, limit=limit, skip_bad=skip_bad
    )


def load_longbench_v2(
    path: Path, *, split: str | None = None, limit: int | None = None, skip_bad: bool = False
) -> Benchmark:
    """LongBench v2 ``data.json`` (a JSON array; JSONL also read): ``context``, ``question``,
    ``choice_A``-``choice_D``, ``answer`` letter, ``difficulty``, ``length``, ``domain``,
    ``sub_domain``, ``_id``. ``split`` keeps rows whose domain or sub_domain is one of its
    comma-separated names (case-insensitive), e.g. "Detective,Literary"."""
    file = _jsonl_or_dir(path, "data.json")
    wanted = {name.strip().casefold() for name in split.split(",") if name.strip()} if split else set()
    builder = _Builder("longbench_v2", limit=limit, skip_bad=skip_bad)
    domains: set[str] = set()

    def question(where: str, record: Any) -> None:
        row = _object(record)
        domains.update(str(row[key]) for key in ("domain", "sub_domain") if row.get(key))
        if wanted and not {str(row.get("domain", "")).casefold(), str(row.get("sub_domain", "")).casefold()} & wanted:
            return
        options = {label: _text(row, f"choice_{label}") for label in OPTION_LABELS}
        narrative = _inline_text(_text(row, "context"), f"{file}#{where}")
        item = BenchmarkItem(
            item_id=f"longbench_v2:{_text(row, '_id')}",
            benchmark="longbench_v2",
            book_id=narrative.book_id,
            question=Question(_text(row, "question"), options),
            answer=_option_letter(_text(row, "answer"), options),
            hard=str(row.get("difficulty", "")).lower() == "hard",
            metadata=_raw_fields(
                row, ("_id", "context", "question", "answer", *(f"choice_{x}" for x in OPTION_LABELS))
            ),
        )
        builder.add(item, narrative)

    builder.each(file, _records(file), question)
    return builder.build(split=split, splits=domains)
