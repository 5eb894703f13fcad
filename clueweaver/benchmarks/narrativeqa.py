"""NarrativeQA: open questions with two reference answers over whole books and movie scripts.

Two layouts are read. The official release (github.com/deepmind/narrativeqa) is a folder with
``qaps.csv`` (document_id, set, question, answer1, answer2, ...), ``documents.csv`` (document_id,
set, kind, story_url, ..., wiki_title, ..., story_start, story_end) and the stories its
``download_stories.sh`` fetches into ``tmp/{document_id}.content``. The Hugging Face export
(``deepmind/narrativeqa``) has one row per question with ``document`` {id, kind, start, end,
summary, text}, ``question`` {text} and ``answers`` [{text}], in files named by split
(``data/test-00000-of-00008.parquet``, or a ``test.jsonl`` written from it). In both, a story is
cut at the release's own ``start``/``end`` markers (which drop the web page or licence around it)
and a movie script's HTML page becomes plain text.
"""

from __future__ import annotations

import hashlib
import logging
import re
from pathlib import Path
from typing import Any, Iterator

from bs4 import BeautifulSoup

from clueweaver.benchmarks.loading import (
    _as_read,
    _Builder,
    _cached,
    _csv_rows,
    _decoded,
    _file_key,
    _inline_text,
    _object,
    _raw_fields,
    _records,
    _text,
    _title_of,
)
from clueweaver.benchmarks.openqa import _reference_answers, _text_of
from clueweaver.benchmarks.schema import Benchmark, BenchmarkError, BenchmarkItem
from clueweaver.books.narrative import Narrative, from_text
from clueweaver.protocol.question import Question

logger = logging.getLogger(__name__)

# The release calls its development split "valid", the Hugging Face export "validation".
_SPLIT_ALIASES = {"validation": "valid", "dev": "valid"}
_SPLIT_IN_FILE_NAME = re.compile(r"(?:^|[-_.])(train|valid(?:ation)?|test)(?=$|[-_.])", re.IGNORECASE)
_HTML_PAGE = re.compile(r"<(?:html|head|body|pre|title|script)\b", re.IGNORECASE)
_DATA_SUFFIXES = (".jsonl", ".json", ".parquet")


def _same_split(name: str) -> str:
    return _SPLIT_ALIASES.get(name.strip().lower(), name.strip().lower())


def _marker_pattern(marker: str) -> re.Pattern | None:
    """A marker matched word for word across any run of whitespace (the release's markers were
    taken from the text with its line breaks evened out)."""
    words = marker.split()
    return re.compile(r"\s+".join(map(re.escape, words))) if words else None


def _between(text: str, start: str, end: str) -> tuple[str, list[str]]:
    """The text from the start marker through the last end marker after it, and the markers that
    were not found (that side is then kept whole)."""
    missing = []
    start_pattern, end_pattern = _marker_pattern(start), _marker_pattern(end)
    found = start_pattern.search(text) if start_pattern else None
    begin = found.start() if found else 0
    if start_pattern and not found:
        missing.append("story_start")
    ends = list(end_pattern.finditer(text, begin)) if end_pattern else []
    stop = ends[-1].end() if ends else len(text)
    if end_pattern and not ends:
        missing.append("story_end")
    return text[begin:stop], missing


def _script_text(html: str) -> str:
    """A script's HTML page (IMSDb and similar) as the text a reader sees: the script itself when
    the page holds it in ``<pre>`` blocks, else the page's visible text; scripts, styles and the
    head dropped, ``<br>`` as line breaks, entities decoded."""
    soup = BeautifulSoup(html, "html.parser")
    for hidden in soup(["script", "style", "head"]):
        hidden.decompose()
    for line_break in soup.find_all("br"):
        line_break.replace_with("\n")
    blocks = [pre.get_text() for pre in soup.find_all("pre") if not pre.find_parent("pre")]
    return "\n\n".join(blocks) if blocks else soup.get_text()


def _story(text: str, start: str, end: str) -> tuple[str, dict]:
    """The story cut at its markers, as plain text; how it was cut goes into the item's metadata.
    In a script's page the markers are looked for in its text (tags may split a marker's words),
    and in the page as downloaded when that finds more of them (a marker holding markup)."""
    if not _HTML_PAGE.search(text[:20_000]):
        story, missing = _between(text, start, end)
        return story, {"html_stripped": False, "story_markers_missing": missing}
    story, missing = _between(_script_text(text), start, end)
    if missing:
        raw_story, raw_missing = _between(text, start, end)
        if len(raw_missing) < len(missing):
            story, missing = _script_text(raw_story), raw_missing
    return story, {"html_stripped": True, "story_markers_missing": missing}


def _story_narrative(text: str, start: str, end: str, *, title: str, source: str) -> tuple[Narrative, dict]:
    story, notes = _story(text, start, end)
    return from_text(story, title=title, source=source), notes


# --- the official release ------------------------------------------------------------------------


def _release_story(folder: Path, document: dict) -> tuple[Narrative, dict]:
    """The story of a documents.csv row, read, cut and stripped once per process however many
    questions ask about it."""
    document_id = _text(document, "document_id")
    story_file = folder / "tmp" / f"{document_id}.content"
    if not story_file.is_file():
        raise BenchmarkError(
            f"story file {story_file} is missing: run the release's download_stories.sh, which fills tmp/"
        )

    def read() -> tuple[Narrative, dict]:
        text, reading = _decoded(story_file)
        start, end = document.get("story_start") or "", document.get("story_end") or ""
        title = (document.get("wiki_title") or document_id).strip()
        narrative, notes = _story_narrative(text, start, end, title=title, source=str(story_file))
        return _as_read(narrative, reading), notes

    return _cached(("narrativeqa-release", *_file_key(story_file)), read)


def _load_release(folder: Path, split: str | None, builder: _Builder) -> set[str]:
    """Questions of ``qaps.csv`` over the stories of ``documents.csv``; returns the splits seen."""
    documents = {row.get("document_id"): row for _, row in _csv_rows(folder / "documents.csv")}
    qaps = folder / "qaps.csv"
    splits: set[str] = set()
    numbers: dict[str, int] = {}

    def question(where: str, row: dict) -> None:
        document_id, row_split = _text(row, "document_id"), (row.get("set") or "").strip()
        splits.add(row_split)
        numbers[document_id] = numbers.get(document_id, 0) + 1
        if split is not None and _same_split(row_split) != _same_split(split):
            return
        if document_id not in documents:
            raise BenchmarkError(f"document {document_id} is not in documents.csv")
        references = tuple(row[key].strip() for key in ("answer1", "answer2") if (row.get(key) or "").strip())
        if not references:
            raise BenchmarkError("no reference answers: answer1 and answer2 are empty")
        document = documents[document_id]
        narrative, notes = _release_story(folder, document)
        item = BenchmarkItem(
            item_id=f"narrativeqa:{document_id}:{numbers[document_id]}",
            benchmark="narrativeqa",
            book_id=document_id,
            question=Question.open(_text(row, "question")),
            references=references,
            metadata={"set": row_split, **{key: document.get(key) for key in ("kind", "wiki_title")}, **notes},
        )
        builder.add(item, narrative)

    builder.each(qaps, _csv_rows(qaps), question)
    return splits


# --- rows carrying their document (the Hugging Face export, NarrativeQA-format JSONL) -----------


def _row_narrative(row: dict, where: str, source: Path) -> tuple[Narrative, dict]:
    """The story of a row: a document object as Hugging Face exports it (cut at its start/end
    markers, HTML stripped), or a plain string."""
    document = row.get("document")
    story = _text_of(document, "document")
    if not isinstance(document, dict):
        return _inline_text(story, f"{source}#{where}"), {}
    summary = document.get("summary") if isinstance(document.get("summary"), dict) else {}
    title = str(summary.get("title") or _title_of(story))
    start, end = str(document.get("start") or ""), str(document.get("end") or "")
    digest = hashlib.sha1(story.encode("utf-8", "surrogatepass")).hexdigest()
    return _cached(
        ("narrativeqa", digest, start, end, title),
        lambda: _story_narrative(story, start, end, title=title, source=f"{source}#{document.get('id', where)}"),
    )


def _row_item(where: str, row: dict, builder: _Builder, source: Path, row_split: str | None) -> None:
    question = _text_of(row.get("question"), "question")
    references = _reference_answers(row, "answers")
    narrative, notes = _row_narrative(row, where, source)
    document = row.get("document")
    document_id = document.get("id") if isinstance(document, dict) else row.get("document_id")
    book_id = str(document_id or narrative.book_id)
    item_id = row.get("question_id") or row.get("id") or f"{book_id}:{where.replace(' ', '')}"
    used = ("question", "answers", "document", "document_id", "question_id", "id")
    item = BenchmarkItem(
        item_id=f"narrativeqa:{item_id}",
        benchmark="narrativeqa",
        book_id=book_id,
        question=Question.open(question),
        references=references,
        metadata={**_raw_fields(row, used), **({"set": row_split} if row_split else {}), **notes},
    )
    builder.add(item, narrative)


def _split_files(path: Path) -> Iterator[tuple[Path, str | None]]:
    """(file, the split its name gives) for a data file, or for the files of a folder of the
    export whose names give a split (``test-00000-of-00008.parquet``, ``narrativeqa_validation.jsonl``)."""
    if not path.is_dir():
        named = _SPLIT_IN_FILE_NAME.search(path.name)
        yield path, named.group(1).lower() if named else None
        return
    files = sorted(f for f in path.rglob("*") if f.suffix in _DATA_SUFFIXES and _SPLIT_IN_FILE_NAME.search(f.name))
    if not files:
        raise BenchmarkError(
            f"{path}: neither the official release (qaps.csv, documents.csv, tmp/) nor files named by split "
            f"(train, validation, test; {', '.join(_DATA_SUFFIXES)}); give one of those, or the data file itself"
        )
    for file in files:
        yield file, _SPLIT_IN_FILE_NAME.search(file.name).group(1).lower()


def _load_rows(path: Path, split: str | None, builder: _Builder) -> set[str]:
    """Rows carrying their document; a row's split is its ``set`` field, else its file's name."""
    splits: set[str] = set()
    for file, file_split in _split_files(path):

        def question(where: str, record: Any, file: Path = file, file_split: str | None = file_split) -> None:
            row = _object(record)
            row_split = str(row.get("set") or file_split or "") or None
            if row_split:
                splits.add(row_split)
            if split is None or (row_split is not None and _same_split(row_split) == _same_split(split)):
                _row_item(where, row, builder, file, row_split)

        builder.each(file, _records(file), question)
    return splits


def load_narrativeqa(
    path: Path, *, split: str | None = None, limit: int | None = None, skip_bad: bool = False
) -> Benchmark:
    """NarrativeQA as released (a folder with qaps.csv, documents.csv and tmp/), as Hugging Face
    exports it (Parquet or JSONL files named by split, or one such file), or NarrativeQA-format
    JSONL (``question``, ``answers``, ``document`` as strings). ``split`` is train, valid
    (also "validation") or test; a split the data does not have is an error naming those it has."""
    builder = _Builder("narrativeqa", limit=limit, skip_bad=skip_bad)
    if (path / "qaps.csv").is_file():
        splits = _load_release(path, split, builder)
    else:
        splits = _load_rows(path, split, builder)
    return builder.build(split=split, splits=splits)
