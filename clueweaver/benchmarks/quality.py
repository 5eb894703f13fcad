"""QuALITY in its official release format: multiple-choice questions over HTML articles."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any

from clueweaver.benchmarks.loading import (
    _Builder,
    _cached,
    _check_split,
    _object,
    _options_from_list,
    _raw_fields,
    _records,
    _text,
    _title_of,
)
from clueweaver.benchmarks.schema import Benchmark, BenchmarkError, BenchmarkItem
from clueweaver.books.narrative import Narrative, from_html, from_text
from clueweaver.protocol.question import OPTION_LABELS, Question


def _quality_questions(row: dict) -> list[dict]:
    """The questions of one QuALITY row as dicts with question, options (list), gold_label
    (1-based or None) and the raw fields: the release format has a ``questions`` list; the older
    example file flattens them into ``question1``, ``question1option1``, ``question1_gold_label``."""
    if "questions" in row:
        if not isinstance(row["questions"], list):
            raise BenchmarkError("field 'questions' must be a list")
        return row["questions"]
    questions, number = [], 1
    while f"question{number}" in row:
        prefix = f"question{number}"
        options, option = [], 1
        while f"{prefix}option{option}" in row:
            options.append(row[f"{prefix}option{option}"])
            option += 1
        extra = {
            k[len(prefix) + 1 :]: v
            for k, v in row.items()
            if k.startswith(prefix + "_") and k != prefix + "_gold_label"
        }
        questions.append(
            {"question": row[prefix], "options": options, "gold_label": row.get(prefix + "_gold_label"), **extra}
        )
        number += 1
    if not questions:
        raise BenchmarkError("no 'questions' list and no question1, question2, ... fields")
    return questions


def _quality_file(path: Path, split: str | None) -> Path:
    """A QuALITY file, or in a folder of the release the raw-HTML file of ``split``
    (``QuALITY.v1.0.1.dev``) or the folder's only .jsonl file."""
    if not path.is_dir():
        return path
    if split:
        found = sorted(f for f in path.iterdir() if f.name.endswith("." + split) and "htmlstripped" not in f.name)
    else:
        found = sorted(path.glob("*.jsonl"))
    if len(found) != 1:
        raise BenchmarkError(
            f"{path}: expected one QuALITY file{f' for split {split!r}' if split else ' (*.jsonl)'}, found "
            f"{len(found)}"
        )
    return found[0]


def _quality_article(row: dict, source: str) -> Narrative:
    article = row.get("article")
    if isinstance(article, list):  # the example file stores the HTML as a list of lines
        article = "".join(str(line) for line in article)
    if not isinstance(article, str) or not article.strip():
        raise BenchmarkError("field 'article' is missing or empty")
    title = str(row.get("title") or _title_of(article))
    digest = hashlib.sha1(article.encode("utf-8", "surrogatepass")).hexdigest()
    if re.search(r"<(?:p|html|body|h\d)\b", article[:5000], re.IGNORECASE):
        return _cached(("html", digest), lambda: from_html(article, title=title, source=source))
    return _cached(("text", digest), lambda: from_text(article, title=title, source=source))


def load_quality(
    path: Path, *, split: str | None = None, limit: int | None = None, skip_bad: bool = False
) -> Benchmark:
    """Official QuALITY JSONL (raw HTML ``article``, 1-based ``gold_label``; test rows without it
    are unlabelled). ``split`` picks train/dev/test in a folder of the release."""
    _check_split("quality", split, (None, "train", "dev", "test"))
    file = _quality_file(path, split)
    builder = _Builder("quality", limit=limit, skip_bad=skip_bad)

    def questions_of(where: str, record: Any) -> list[tuple[str, Any]]:
        row = _object(record)
        set_id = str(row.get("set_unique_id") or row.get("unique_id") or _text(row, "article_id"))
        return [
            (f"{where}, question {n}", (row, set_id, n, raw)) for n, raw in enumerate(_quality_questions(row), start=1)
        ]

    def question(where: str, payload: tuple) -> None:
        row, set_id, number, raw = payload
        if not isinstance(raw, dict):
            raise BenchmarkError("a question must be a JSON object")
        options = _options_from_list(raw.get("options"))
        gold = raw.get("gold_label")
        if gold is not None and (isinstance(gold, bool) or not isinstance(gold, int) or not 1 <= gold <= len(options)):
            raise BenchmarkError(f"gold_label {gold!r} is not an option number 1-{len(options)}")
        narrative = _quality_article(row, f"{file}#{row.get('article_id', set_id)}")
        item = BenchmarkItem(
            item_id=f"quality:{raw.get('question_unique_id') or f'{set_id}:q{number}'}",
            benchmark="quality",
            book_id=str(row.get("article_id") or narrative.book_id),
            question=Question(_text(raw, "question"), options),
            answer=None if gold is None else OPTION_LABELS[gold - 1],
            hard=bool(raw.get("difficult")),
            metadata={
                **_raw_fields(raw, ("question", "options", "validation", "speed_validation")),
                **_raw_fields(row, ("article", "questions"), ("question",)),
            },
        )
        builder.add(item, narrative)

    builder.each(file, builder.nested(file, _records(file), questions_of), question)
    return builder.build()
