"""L-Eval's story tasks: QuALITY as L-Eval ships it (inline "(A)..(D)" options) and the sci-fi
in-story claims. Both carry one story per row with parallel ``instructions``/``outputs`` lists."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Callable

from clueweaver.benchmarks.loading import (
    _Builder,
    _check_split,
    _claim_label,
    _inline_text,
    _object,
    _option_letter,
    _raw_fields,
    _records,
    _text,
)
from clueweaver.benchmarks.schema import Benchmark, BenchmarkError, BenchmarkItem
from clueweaver.books.narrative import Narrative, normalize_text
from clueweaver.protocol.question import OPTION_LABELS, Question

_INLINE_OPTION = re.compile(r"(?:^|\n)[ \t]*\(([A-D])\)[ \t]*")


def _inline_mcq(instruction: str) -> Question:
    """L-Eval's "question\\n\\n (A) ...\\n (B) ..." -> a Question with options A-D."""
    parts = _INLINE_OPTION.split(instruction)
    labels = parts[1::2]
    if len(labels) < 2 or labels != list(OPTION_LABELS[: len(labels)]):
        raise BenchmarkError(f"expected inline options (A), (B), ... at line starts, found {labels or 'none'}")
    return Question(parts[0].strip(), dict(zip(labels, (p.strip() for p in parts[2::2]))))


def _leval_questions(path: Path) -> Callable[[str, Any], list[tuple[str, Any]]]:
    """Expands an L-Eval row (one ``input`` story, parallel ``instructions``/``outputs`` lists)
    into (where, (narrative, row, instruction, output)) per question."""

    def expand(where: str, record: Any) -> list[tuple[str, Any]]:
        row = _object(record)
        story, instructions, outputs = _text(row, "input"), row.get("instructions"), row.get("outputs")
        if not isinstance(instructions, list) or not isinstance(outputs, list) or len(instructions) != len(outputs):
            raise BenchmarkError("'instructions' and 'outputs' must be lists of the same length")
        narrative = _inline_text(story, f"{path}#{where}")
        pairs = enumerate(zip(instructions, outputs), start=1)
        return [
            (f"{where}, question {n}", (narrative, row, instruction, output)) for n, (instruction, output) in pairs
        ]

    return expand


def _leval_question(where: str, payload: tuple) -> tuple[Narrative, dict, str, str, str]:
    """(narrative, row, instruction, output, local item id) of one L-Eval question."""
    narrative, row, instruction, output = payload
    if not isinstance(instruction, str) or not isinstance(output, str):
        raise BenchmarkError("instruction and output must be texts")
    row_number, question_number = re.findall(r"\d+", where)
    return narrative, row, instruction, output, f"{row_number}:{question_number}"


def load_quality_leval(
    path: Path, *, split: str | None = None, limit: int | None = None, skip_bad: bool = False
) -> Benchmark:
    """L-Eval's ``quality.jsonl``: ``input`` story, ``instructions`` with inline "(A)..(D)"
    options, ``outputs`` "(B) option text" (checked against option B)."""
    _check_split("quality_leval", split, (None,))
    builder = _Builder("quality_leval", limit=limit, skip_bad=skip_bad)

    def question(where: str, payload: tuple) -> None:
        narrative, row, instruction, output, local_id = _leval_question(where, payload)
        mcq = _inline_mcq(instruction)
        match = re.match(r"\s*\(([A-D])\)\s*(.*)", output, re.DOTALL)
        if not match:
            raise BenchmarkError(f"output {output[:60]!r} does not start with an option letter like (B)")
        letter = _option_letter(match.group(1), mcq.options)
        if normalize_text(match.group(2)) != normalize_text(mcq.options[letter]):
            raise BenchmarkError(f"output text does not match option {letter}: {output[:60]!r}")
        item = BenchmarkItem(
            item_id=f"quality_leval:{local_id}",
            benchmark="quality_leval",
            book_id=narrative.book_id,
            question=mcq,
            answer=letter,
            metadata=_raw_fields(row, ("input", "instructions", "outputs")),
        )
        builder.add(item, narrative)

    builder.each(path, builder.nested(path, _records(path), _leval_questions(path)), question)
    return builder.build()


_SCIFI_NUMBERING = re.compile(r"^\s*(?:question\s*\d+\s*[:.]|\d+\s*[.):])\s*", re.IGNORECASE)
_SCIFI_SUFFIX = re.compile(r",?\s*true or false\?.*$", re.IGNORECASE | re.DOTALL)
_SCIFI_OUTPUT = re.compile(r"\s*(true|false)\s*\[\s*fact\s*:\s*(true|false)\s*\]\s*", re.IGNORECASE)


def load_leval_scifi(
    path: Path, *, split: str | None = None, limit: int | None = None, skip_bad: bool = False
) -> Benchmark:
    """L-Eval ``sci_fi.jsonl``: claims about the story's world; ``outputs`` like "True [fact:
    False]", where the label before the brackets is the in-story truth (the answer) and the
    bracketed one the real-world fact (kept in metadata)."""
    _check_split("leval_scifi", split, (None,))
    builder = _Builder("leval_scifi", limit=limit, skip_bad=skip_bad)

    def claim(where: str, payload: tuple) -> None:
        narrative, row, instruction, output, local_id = _leval_question(where, payload)
        match = _SCIFI_OUTPUT.fullmatch(output)
        if not match:
            raise BenchmarkError(f"output {output!r} is not like 'True [fact: False]'")
        item = BenchmarkItem(
            item_id=f"leval_scifi:{local_id}",
            benchmark="leval_scifi",
            book_id=narrative.book_id,
            question=Question.claim(_SCIFI_SUFFIX.sub("", _SCIFI_NUMBERING.sub("", instruction)).strip()),
            answer=_claim_label(match.group(1)),
            metadata={
                "real_world_fact": _claim_label(match.group(2)),
                "instruction": instruction,
                **_raw_fields(row, ("input", "instructions", "outputs")),
            },
        )
        builder.add(item, narrative)

    builder.each(path, builder.nested(path, _records(path), _leval_questions(path)), claim)
    return builder.build()
