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


QUALITY_SPLITS = ("train", "dev", "test")
# The release's files: QuALITY.v1.0.1.dev (raw HTML articles), QuALITY.v1.0.1.htmlstripped.dev
_RELEASE_FILE = re.compile(r"QuALITY\.v[\d.]+?\.(htmlstripped\.)?(train|dev|test)(?:\.jsonl)?", re.IGNORECASE)


def _release_files(folder: Path) -> dict[str, Path]:
    """The release file of each split in the folder, the raw-HTML one where both are there (its
    paragraphs are the article's own block elements)."""
    found: dict[str, Path] = {}
    for file in sorted(folder.iterdir()):
        match = _RELEASE_FILE.fullmatch(file.name)
        if match and (match.group(2).lower() not in found or not match.group(1)):
            found[match.group(2).lower()] = file
    return found


def _quality_files(path: Path, split: str | None) -> list[tuple[Path, str | None]]:
    """(file, split) to read: the file given, or in a folder of the release the file of ``split``
    (every split without one); else the folder's only .jsonl file."""
    if not path.is_dir():
        match = _RELEASE_FILE.fullmatch(path.name)
        named = match.group(2).lower() if match else split
        if split and named != split:
            raise BenchmarkError(f"{path} is the {named!r} split, not {split!r}; give its folder to choose a split")
        return [(path, named)]
    release = _release_files(path)
    if release:
        if split and split not in release:
            raise BenchmarkError(
                f"{path}: no QuALITY file for split {split!r}; this folder has {', '.join(map(repr, release))}"
            )
        return [(release[name], name) for name in QUALITY_SPLITS if name in release and split in (None, name)]
    found = sorted(path.glob("*.jsonl"))
    if len(found) != 1:
        raise BenchmarkError(
            f"{path}: expected the release's QuALITY.v1.0.1.{{train,dev,test}} files or one .jsonl file, found "
            f"{len(found)} .jsonl files"
        )
    return [(found[0], split)]


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
    are unlabelled): a file, or the release folder (``QuALITY.v1.0.1.{train,dev,test}``, or the
    ``.htmlstripped.*`` files), all its splits or the one ``split`` names."""
    _check_split("quality", split, (None, *QUALITY_SPLITS))
    builder = _Builder("quality", limit=limit, skip_bad=skip_bad)
    for file, file_split in _quality_files(path, split):
        _load_quality_file(file, file_split, builder)
    return builder.build()


def _load_quality_file(file: Path, split: str | None, builder: _Builder) -> None:
    """The questions of one QuALITY file, each row an article with its list of questions."""

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
        split_field = {"split": split} if split else {}
        item = BenchmarkItem(
            item_id=f"quality:{raw.get('question_unique_id') or f'{set_id}:q{number}'}",
            benchmark="quality",
            book_id=str(row.get("article_id") or narrative.book_id),
            question=Question(_text(raw, "question"), options),
            answer=None if gold is None else OPTION_LABELS[gold - 1],
            hard=bool(raw.get("difficult")),
            metadata={
                **split_field,
                **_raw_fields(raw, ("question", "options", "validation", "speed_validation")),
                **_raw_fields(row, ("article", "questions"), ("question",)),
            },
        )
        builder.add(item, narrative)

    builder.each(file, builder.nested(file, _records(file), questions_of), question)
