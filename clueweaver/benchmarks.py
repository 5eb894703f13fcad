"""Public benchmark formats loaded into one schema: narratives with paragraph IDs, and items.

Every loader returns a :class:`Benchmark`: ``narratives`` (``book_id`` -> :class:`Narrative`),
``items`` (:class:`BenchmarkItem`) and ``skipped`` (bad rows passed over with ``skip_bad=True``).
An item's gold evidence, ``position`` and ``chapter`` are paragraph IDs / chapter numbers of *its*
narrative, checked against it when loading: an index outside the book is an error naming the file
and row, never a silently wrong label.

``load_benchmark(name, path=None, split=..., limit=..., skip_bad=...)`` picks a loader from
:data:`BENCHMARKS`; without ``path`` it reads the default file under the shared data folder
(``$CLUEWEAVER_SHARED_DATA``, else ``../shared/data`` next to the project root).

The common schema on disk ("clueweaver-benchmark/1", loader name ``jsonl``) is one JSONL file whose
lines are records told apart by ``"record"``:

* ``{"record": "benchmark", "name": ..., "format": "clueweaver-benchmark/1"}``: optional header;
* ``{"record": "narrative", "book_id": ..., "path": ...}``: a book file read with
  :func:`~clueweaver.narrative.load_narrative` (.txt, .md, .epub, .jsonl); a relative path is
  relative to the JSONL file's folder;
* ``{"record": "narrative", "book_id": ..., "title": ..., "paragraphs": [text, ...],
  "chapter_titles": [title or null per paragraph] (optional)}``: a book given inline, paragraph
  ``i`` of the list being paragraph ID ``i``;
* ``{"record": "item", ...}``: :meth:`BenchmarkItem.to_dict`.

A narrative record may carry ``content_hash`` (:attr:`Narrative.content_hash`); when it does, the
loaded book must match it, because gold paragraph IDs only mean something for the exact paragraphs
they were written against. :meth:`Benchmark.to_jsonl` writes this format (inline books with their
hash by default), so any benchmark converts to it.
"""

from __future__ import annotations

import csv
import hashlib
import itertools
import json
import os
import re
from collections import Counter, OrderedDict
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator, NamedTuple

from clueweaver.errors import ClueWeaverError
from clueweaver.narrative import (
    Narrative,
    NarrativeError,
    from_html,
    from_paragraphs,
    from_text,
    load_narrative,
    normalize_text,
)
from clueweaver.protocol.question import CLAIM_LABELS, OPTION_LABELS, Question, QuestionError

COMMON_FORMAT = "clueweaver-benchmark/1"
SHARED_DATA_ENV = "CLUEWEAVER_SHARED_DATA"


class BenchmarkError(ClueWeaverError, ValueError):
    """A benchmark file or row that cannot be used; the message names the file, the row and why."""


def shared_data_dir() -> Path:
    """The shared benchmark data folder: ``$CLUEWEAVER_SHARED_DATA`` or ``../shared/data`` beside
    the project root."""
    override = os.environ.get(SHARED_DATA_ENV)
    return Path(override) if override else Path(__file__).resolve().parents[1].parent / "shared" / "data"


class SkippedRow(NamedTuple):
    file: str
    row: str
    reason: str


# --- the schema --------------------------------------------------------------------------------


def _paragraph_index(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise BenchmarkError(f"{what} must be a paragraph ID (an integer >= 0), got {value!r}")
    return value


@dataclass
class BenchmarkItem:
    """One question or claim about one narrative.

    ``answer`` is an option letter for a multiple-choice question, TRUE/FALSE for a claim, and None
    when the benchmark gives no label (KDSH test rows, open questions). ``gold_evidence`` lists the
    paragraph IDs that hold the evidence when the benchmark marks them. ``position`` is the
    paragraph ID where the answer is revealed (DetectiveQA ``answer_position``, the BMDS reveal): a
    reader answering as the detective reads only paragraphs before it. ``chapter`` is the last
    chapter a reader may read, when a benchmark sets one. ``pair_id`` joins NoCha's minimal pairs.
    ``hard`` is the benchmark's own hard-subset flag (QuALITY ``difficult``, LongBench v2
    ``difficulty == "hard"``); data builders may re-flag it. ``metadata`` keeps raw fields.
    """

    item_id: str
    benchmark: str
    book_id: str
    question: Question
    answer: str | None = None
    gold_evidence: tuple[int, ...] = ()
    position: int | None = None
    chapter: int | None = None
    pair_id: str | None = None
    hard: bool = False
    metadata: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        for name in ("item_id", "benchmark", "book_id"):
            if not isinstance(getattr(self, name), str) or not getattr(self, name):
                raise BenchmarkError(f"item {self.item_id!r}: {name} must be a non-empty string")
        if self.answer is not None and self.answer not in self.question.labels:
            legal = ", ".join(self.question.labels) or "none: it is an open question"
            raise BenchmarkError(f"item {self.item_id}: answer {self.answer!r} is not a legal answer ({legal})")
        self.gold_evidence = tuple(
            sorted({_paragraph_index(i, "a gold evidence paragraph") for i in self.gold_evidence})
        )
        if self.position is not None:
            _paragraph_index(self.position, "position")
        if self.chapter is not None and (
            isinstance(self.chapter, bool) or not isinstance(self.chapter, int) or self.chapter < 0
        ):
            raise BenchmarkError(f"item {self.item_id}: chapter must be an integer >= 0, got {self.chapter!r}")

    def check(self, narrative: Narrative) -> None:
        """Every paragraph ID and chapter of the item exists in its narrative."""
        last = len(narrative) - 1
        outside = [i for i in self.gold_evidence if i > last]
        if outside:
            raise BenchmarkError(
                f"gold evidence paragraph(s) {outside} outside the narrative {narrative.title!r} (paragraphs 0-{last})"
            )
        if self.position is not None and self.position > last:
            raise BenchmarkError(
                f"position {self.position} outside the narrative {narrative.title!r} (paragraphs 0-{last})"
            )
        if self.chapter is not None and self.chapter > len(narrative.chapters):
            raise BenchmarkError(
                f"chapter {self.chapter} beyond the {len(narrative.chapters)} chapters of {narrative.title!r}"
            )

    def reading_limit(self, narrative: Narrative) -> int | None:
        """The last paragraph ID a reader may use (before ``position``, within ``chapter``); None
        when the whole book may be read."""
        limits = []
        if self.position is not None:
            limits.append(self.position - 1)
        if self.chapter is not None:
            limits.append(narrative.last_paragraph_of_chapter(self.chapter))
        return min(limits) if limits else None

    def to_dict(self) -> dict:
        return {
            "item_id": self.item_id,
            "benchmark": self.benchmark,
            "book_id": self.book_id,
            "question": {
                "text": self.question.text,
                "kind": self.question.kind,
                "options": dict(self.question.options),
            },
            "answer": self.answer,
            "gold_evidence": list(self.gold_evidence),
            "position": self.position,
            "chapter": self.chapter,
            "pair_id": self.pair_id,
            "hard": self.hard,
            "metadata": self.metadata,
        }

    @classmethod
    def from_dict(cls, data: Any) -> "BenchmarkItem":
        """The inverse of :meth:`to_dict`; a missing or mistyped field is a BenchmarkError."""
        if not isinstance(data, dict):
            raise BenchmarkError(f"an item must be a JSON object, got {type(data).__name__}")
        missing = [key for key in ("item_id", "benchmark", "book_id", "question") if key not in data]
        if missing:
            raise BenchmarkError(f"item is missing field(s) {', '.join(missing)}")
        question = data["question"]
        if not isinstance(question, dict) or not isinstance(question.get("text"), str):
            raise BenchmarkError("item field 'question' must be an object with a string 'text'")
        options = question.get("options") or {}
        gold = data.get("gold_evidence") or []
        metadata = data.get("metadata") or {}
        if not isinstance(options, dict) or not isinstance(gold, list) or not isinstance(metadata, dict):
            raise BenchmarkError(
                "item fields 'question.options' and 'metadata' must be objects, 'gold_evidence' a list"
            )
        return cls(
            item_id=data["item_id"],
            benchmark=data["benchmark"],
            book_id=data["book_id"],
            question=Question(text=question["text"], options=options, kind=question.get("kind", "mcq")),
            answer=data.get("answer"),
            gold_evidence=tuple(gold),
            position=data.get("position"),
            chapter=data.get("chapter"),
            pair_id=data.get("pair_id"),
            hard=bool(data.get("hard", False)),
            metadata=metadata,
        )


@dataclass
class Benchmark:
    """Items with the narratives they refer to; ``skipped`` holds (file, row, reason) of bad rows
    passed over with ``skip_bad=True``."""

    name: str
    narratives: dict[str, Narrative]
    items: list[BenchmarkItem]
    skipped: list[SkippedRow] = field(default_factory=list)

    def __post_init__(self) -> None:
        seen: set[str] = set()
        for item in self.items:
            if item.item_id in seen:
                raise BenchmarkError(f"{self.name}: duplicate item id {item.item_id!r}")
            seen.add(item.item_id)
            if item.book_id not in self.narratives:
                raise BenchmarkError(f"{self.name}: item {item.item_id} refers to unknown book {item.book_id!r}")
            item.check(self.narratives[item.book_id])

    def __len__(self) -> int:
        return len(self.items)

    def __iter__(self) -> Iterator[BenchmarkItem]:
        return iter(self.items)

    def narrative(self, item: BenchmarkItem) -> Narrative:
        return self.narratives[item.book_id]

    def summary(self) -> dict:
        """Counts for a quick look and for dataset cards."""
        return {
            "benchmark": self.name,
            "items": len(self.items),
            "narratives": len(self.narratives),
            "kinds": dict(Counter(item.question.kind for item in self.items)),
            "answers": dict(Counter(item.answer or "unlabelled" for item in self.items)),
            "with_gold_evidence": sum(bool(item.gold_evidence) for item in self.items),
            "with_position": sum(item.position is not None for item in self.items),
            "pairs": len({item.pair_id for item in self.items if item.pair_id is not None}),
            "hard": sum(item.hard for item in self.items),
            "skipped": len(self.skipped),
        }

    def to_jsonl(self, path: str | Path, *, narrative_paths: dict[str, str | Path] | None = None) -> Path:
        """Write the common schema: a header, one narrative record per book (a path from
        ``narrative_paths`` when given, else the paragraphs inline) and one record per item."""
        path = Path(path)
        narrative_paths = narrative_paths or {}
        with open(path, "w", encoding="utf-8") as f:

            def write(record: dict) -> None:
                f.write(json.dumps(record, ensure_ascii=False) + "\n")

            write({"record": "benchmark", "name": self.name, "format": COMMON_FORMAT})
            for book_id, narrative in self.narratives.items():
                record = {"record": "narrative", "book_id": book_id, "content_hash": narrative.content_hash}
                if book_id in narrative_paths:
                    record["path"] = str(narrative_paths[book_id])
                else:
                    record.update(title=narrative.title, paragraphs=[p.text for p in narrative.paragraphs])
                    if narrative.chapters:
                        record["chapter_titles"] = [
                            narrative.chapters[p.chapter - 1].title if p.chapter else None
                            for p in narrative.paragraphs
                        ]
                write(record)
            for item in self.items:
                write({"record": "item", **item.to_dict()})
        return path


# --- loading machinery -------------------------------------------------------------------------

_NARRATIVE_CACHE: OrderedDict[tuple, tuple[Any, int]] = OrderedDict()
_NARRATIVE_CACHE_CHARS = 100_000_000  # about the text of a hundred novels


def _cached(key: tuple, build: Callable[[], Any]) -> Any:
    """Parsed books are kept per process, least recently used first out once they hold more than
    ``_NARRATIVE_CACHE_CHARS`` characters, so loading a benchmark twice, or many questions over
    one book, parses each book once."""
    if key in _NARRATIVE_CACHE:
        _NARRATIVE_CACHE.move_to_end(key)
        return _NARRATIVE_CACHE[key][0]
    value = build()
    narrative = value[0] if isinstance(value, tuple) else value
    _NARRATIVE_CACHE[key] = (value, narrative.num_chars)
    while len(_NARRATIVE_CACHE) > 1 and sum(size for _, size in _NARRATIVE_CACHE.values()) > _NARRATIVE_CACHE_CHARS:
        _NARRATIVE_CACHE.popitem(last=False)
    return value


def _file_key(path: Path) -> tuple:
    stat = path.stat()
    return (str(path.resolve()), stat.st_mtime_ns, stat.st_size)


def _book_file(path: Path, title: str | None = None) -> Narrative:
    return _cached(("file", *_file_key(path), title), lambda: load_narrative(path, title=title))


def _title_of(text: str) -> str:
    first_line = next((line.strip() for line in text.splitlines() if line.strip()), "untitled")
    return first_line[:80]


def _inline_text(text: str, source: str) -> Narrative:
    """A book given as a string inside a row; rows repeating the same book share one narrative."""
    digest = hashlib.sha1(text.encode("utf-8", "surrogatepass")).hexdigest()
    return _cached(("text", digest), lambda: from_text(text, title=_title_of(text), source=source))


class _ExactDuplicate(BenchmarkError):
    """A row repeating an earlier one field for field: dropping it loses nothing."""


class _Builder:
    """Collects items row by row: a bad row raises a BenchmarkError naming file and row, or with
    ``skip_bad`` is recorded in ``skipped``; stops taking items at ``limit``."""

    def __init__(self, name: str, *, limit: int | None, skip_bad: bool) -> None:
        self.name, self.limit, self.skip_bad = name, limit, skip_bad
        self.items: list[BenchmarkItem] = []
        self.narratives: dict[str, Narrative] = {}
        self.skipped: list[SkippedRow] = []
        self._by_id: dict[str, BenchmarkItem] = {}

    @property
    def full(self) -> bool:
        return self.limit is not None and len(self.items) >= self.limit

    @contextmanager
    def row(self, file: Path | str, where: str) -> Iterator[None]:
        try:
            yield
        except (BenchmarkError, QuestionError, NarrativeError) as exc:
            if not self.skip_bad and not isinstance(exc, _ExactDuplicate):
                raise BenchmarkError(f"{file}, {where}: {exc}") from exc
            self.skipped.append(SkippedRow(str(file), where, str(exc)))

    def add(self, item: BenchmarkItem, narrative: Narrative) -> None:
        earlier = self._by_id.get(item.item_id)
        if earlier is not None:
            if earlier.to_dict() == item.to_dict() and self.narratives[item.book_id] is narrative:
                raise _ExactDuplicate(f"exact duplicate of item {item.item_id}, dropped")
            raise BenchmarkError(f"duplicate item id {item.item_id!r} with different content")
        known = self.narratives.get(item.book_id)
        if known is not None and known is not narrative and known.content_hash != narrative.content_hash:
            raise BenchmarkError(f"book id {item.book_id!r} already names a different text")
        item.check(narrative)
        self.narratives.setdefault(item.book_id, narrative)
        self._by_id[item.item_id] = item
        self.items.append(item)

    def nested(
        self, file: Path, rows: Iterator[tuple[str, Any]], expand: Callable[[str, Any], list[tuple[str, Any]]]
    ) -> Iterator[tuple[str, Any]]:
        """The (where, question) pairs that ``expand(where, row)`` finds in each row holding
        several questions; a row that cannot be expanded is one bad row."""
        for where, record in rows:
            if self.full:
                return
            questions: list[tuple[str, Any]] = []
            with self.row(file, where):
                questions = expand(where, record)
            yield from questions

    def each(self, file: Path, rows: Iterator[tuple[str, Any]], handle: Callable[[str, Any], None]) -> None:
        """``handle(where, row)`` for each row until ``limit``, each as one row (see ``row``)."""
        for where, row in rows:
            if self.full:
                break
            with self.row(file, where):
                handle(where, row)

    def build(self) -> Benchmark:
        return Benchmark(self.name, self.narratives, self.items, self.skipped)


def _check_split(name: str, split: str | None, allowed: tuple[str | None, ...]) -> None:
    if split not in allowed:
        shown = ", ".join("none" if s is None else repr(s) for s in allowed)
        raise BenchmarkError(f"{name}: unknown split {split!r}; use {shown}")


def _read_json(path: Path) -> Any:
    if not path.is_file():
        raise BenchmarkError(f"{path}: no such file")
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except json.JSONDecodeError as exc:
        raise BenchmarkError(f"{path}: not valid JSON ({exc.msg}, line {exc.lineno})") from exc
    except UnicodeDecodeError as exc:
        raise BenchmarkError(f"{path}: not UTF-8 text") from exc


def _records(path: Path) -> Iterator[tuple[str, Any]]:
    """(where, record) for each row: the entries of a ``.json`` array, else one JSON value per
    line (JSONL; QuALITY's release files have no suffix). A line that is not JSON comes back as a
    BenchmarkError for the row to raise, so it can be skipped like any bad row."""
    if not path.is_file():
        raise BenchmarkError(f"{path}: no such file")
    if path.suffix == ".json":
        data = _read_json(path)
        if not isinstance(data, list):
            raise BenchmarkError(f"{path}: expected a JSON array of rows, got {type(data).__name__}")
        for number, record in enumerate(data, start=1):
            yield f"entry {number}", record
        return
    with open(path, "rb") as f:
        for number, raw in enumerate(f, start=1):
            try:
                line = raw.decode("utf-8")
                if line.strip():
                    yield f"line {number}", json.loads(line)
            except UnicodeDecodeError:
                yield f"line {number}", BenchmarkError("not UTF-8 text")
            except json.JSONDecodeError as exc:
                yield f"line {number}", BenchmarkError(f"not valid JSON ({exc.msg})")


def _csv_rows(path: Path) -> Iterator[tuple[str, dict]]:
    """(where, row) for each data row of a CSV file with a header line."""
    if not path.is_file():
        raise BenchmarkError(f"{path}: no such file")
    with open(path, encoding="utf-8", newline="") as f:
        reader = csv.DictReader(f)
        for row in reader:
            yield f"line {reader.line_num}", row


def _object(record: Any) -> dict:
    if isinstance(record, BenchmarkError):
        raise record
    if not isinstance(record, dict):
        raise BenchmarkError(f"expected a JSON object, got {type(record).__name__}")
    return record


def _text(row: dict, key: str) -> str:
    value = row.get(key)
    if not isinstance(value, str) or not value.strip():
        raise BenchmarkError(f"field {key!r} is missing or empty")
    return value.strip()


def _integer(row: dict, key: str) -> int:
    value = row.get(key)
    if isinstance(value, bool) or not isinstance(value, (int, str)) or not str(value).strip().lstrip("-").isdigit():
        raise BenchmarkError(f"field {key!r} must be an integer, got {value!r}")
    return int(value)


def _raw_fields(row: dict, used: tuple[str, ...], drop_prefixes: tuple[str, ...] = ()) -> dict:
    """The row's other fields, kept in the item's metadata."""
    return {k: v for k, v in row.items() if k not in used and not k.startswith(drop_prefixes) and v not in ("", None)}


def _option_letter(answer: str, options: dict[str, str]) -> str:
    """An answer given as a letter ("B", "(B)", "B.") or as the text of exactly one option."""
    answer = answer.strip()
    match = re.fullmatch(r"\(?([A-D])\)?[.:]?", answer)
    letter = match.group(1) if match else None
    if letter is None:
        wanted = normalize_text(answer).casefold()
        hits = [k for k, v in options.items() if normalize_text(v).casefold() == wanted]
        if len(hits) != 1:
            raise BenchmarkError(f"answer {answer[:80]!r} is {'not' if not hits else 'more than one'} of the options")
        letter = hits[0]
    if letter not in options:
        raise BenchmarkError(f"answer {letter} names no option (options {', '.join(options)})")
    return letter


def _options_from_list(options: Any) -> dict[str, str]:
    if not isinstance(options, list) or not 2 <= len(options) <= len(OPTION_LABELS):
        raise BenchmarkError(f"options must be a list of 2-{len(OPTION_LABELS)} texts, got {options!r:.120}")
    if not all(isinstance(o, str) for o in options):
        raise BenchmarkError("every option must be a text")
    return {label: option.strip() for label, option in zip(OPTION_LABELS, options)}


def _claim_label(value: Any) -> str:
    """True/False, "true"/"false", "TRUE"/"FALSE" -> TRUE/FALSE."""
    text = str(value).strip().upper() if isinstance(value, (bool, str)) else ""
    if text not in CLAIM_LABELS:
        raise BenchmarkError(f"claim label must be true or false, got {value!r}")
    return text


def _words(text: str) -> list[str]:
    """Words only, lower case: file names and annotators spell punctuation and quotes their own
    way ("monte_cristo", " for “, ' for ’)."""
    return re.findall(r"[^\W_]+", text.casefold())


def _paragraphs_containing(narrative: Narrative, needle: str) -> list[int]:
    """IDs of the paragraphs that contain ``needle`` verbatim after whitespace normalization."""
    needle = normalize_text(needle)
    return [p.id for p in narrative.paragraphs if needle and needle in p.text]


def _jsonl_or_dir(path: Path, filename: str) -> Path:
    """A data file given directly or as the folder that holds it under its usual name."""
    if path.is_dir():
        candidate = path / filename
        if not candidate.is_file():
            raise BenchmarkError(f"{path}: no {filename} in this folder")
        return candidate
    return path


# --- NoCha -------------------------------------------------------------------------------------


def _nocha_book(books_file: Path, key: str, text: str) -> Narrative:
    def build() -> Narrative:
        header = re.match(r"\s*title:\s*(.+)\n", text)
        return from_text(text, title=header.group(1).strip() if header else key, source=f"{books_file}#{key}")

    return _cached(("nocha", *_file_key(books_file), key), build)


def load_nocha(path: Path, *, split: str | None = None, limit: int | None = None, skip_bad: bool = False) -> Benchmark:
    """NoCha sample: ``data_sample.json`` (claims with ``book_title``, ``type`` true/false and the
    pair ``index``) beside ``classic_books.json`` ({book_title: text}); whole books."""
    _check_split("nocha", split, (None,))
    if (path / "data_sample").is_dir():  # the repository root
        path = path / "data_sample"
    claims_file = _jsonl_or_dir(path, "data_sample.json")
    books_file = claims_file.parent / "classic_books.json"
    if not books_file.is_file():
        raise BenchmarkError(f"{claims_file}: the books file {books_file} is missing")
    books = _read_json(books_file)
    if not isinstance(books, dict):
        raise BenchmarkError(f"{books_file}: expected a JSON object {{book title: text}}")
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


# --- QuALITY -----------------------------------------------------------------------------------


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


# --- L-Eval sci-fi -----------------------------------------------------------------------------

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


# --- GutenQA -----------------------------------------------------------------------------------


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
    )


def load_gutenqa(
    path: Path, *, split: str | None = None, limit: int | None = None, skip_bad: bool = False
) -> Benchmark:
    """GutenQA books converted to ``{book}_paragraphs.jsonl`` (paragraph, chapter, text) and
    ``{book}_questions.jsonl`` (Question, Answer, "Chunk Must Contain").

    The questions are open (free-text answers), so items are ``Question.open`` with no answer;
    the reference answer is in metadata. Gold evidence is the paragraph containing the
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


# --- KDSH backstories --------------------------------------------------------------------------

_KDSH_LABELS = {"consistent": "TRUE", "contradict": "FALSE"}


def _kdsh_book_file(folder: Path, book_name: str) -> Path:
    """The novel whose file name's words all occur in the book name ("monte_cristo.txt" for
    "The Count of Monte Cristo")."""
    name_words = set(_words(book_name))
    found = [f for f in sorted(folder.glob("*.txt")) if set(_words(f.stem)) <= name_words]
    if len(found) != 1:
        raise BenchmarkError(
            f"no single novel file in {folder} matches book {book_name!r} (found {[f.name for f in found]})"
        )
    return found[0]


def load_kdsh(path: Path, *, split: str | None = None, limit: int | None = None, skip_bad: bool = False) -> Benchmark:
    """KDSH backstory claims: ``train.csv`` (labelled) or ``test.csv`` (``split="test"``, no
    labels: answer None) with id, book_name, char, caption, content[, label]; the novels are the
    folder's .txt files. The claim reads "Backstory of {char} ({caption}): {content}";
    "consistent" (not contradicted by the novel) is TRUE and "contradict" FALSE."""
    split = split or "train"
    _check_split("kdsh", split, ("train", "test"))
    folder = path if path.is_dir() else path.parent
    table = folder / f"{split}.csv"
    builder = _Builder("kdsh", limit=limit, skip_bad=skip_bad)

    def backstory(where: str, row: dict) -> None:
        char, content, caption = _text(row, "char"), _text(row, "content"), (row.get("caption") or "").strip()
        answer = None
        if split == "train":
            label = (row.get("label") or "").strip().lower()
            if label not in _KDSH_LABELS:
                raise BenchmarkError(f"label {row.get('label')!r} is not consistent or contradict")
            answer = _KDSH_LABELS[label]
        book_name = _text(row, "book_name")
        book = _kdsh_book_file(folder, book_name)
        item = BenchmarkItem(
            item_id=f"kdsh:{split}:{_text(row, 'id')}",
            benchmark="kdsh",
            book_id=book.stem,
            question=Question.claim(f"Backstory of {char}{f' ({caption})' if caption else ''}: {content}"),
            answer=answer,
            metadata={"split": split, **_raw_fields(row, ("id",))},
        )
        builder.add(item, _book_file(book, title=book_name))

    builder.each(table, _csv_rows(table), backstory)
    return builder.build()


# --- BMDS detective stories --------------------------------------------------------------------

_BMDS_FIELDS = {
    "essential_clue": "Essential clue",
    "essential_clue_type": "Type of essential clue",
    "most_salient_clue": "Most salient clue",
    "most_salient_clue_type": "Type of most salient clue",
    "red_herring": "Red herring description",
    "reveal_border_sentence": "Reveal border sentence",
    "sufficient_clues_to_solve": "Sufficient clues to solve?",
}


def _reveal_paragraph(narrative: Narrative, sentence: str) -> tuple[int | None, str]:
    """The paragraph holding the reveal's first sentence: verbatim, else compared by words only,
    the whole sentence and then its first eight words (annotators often shortened or retyped it)."""
    words = _words(sentence)
    if not words:
        return None, "not annotated"
    verbatim = _paragraphs_containing(narrative, sentence)
    if len(verbatim) == 1:
        return verbatim[0], "found"
    paragraphs = [f" {' '.join(_words(p.text))} " for p in narrative.paragraphs]
    for needle in (words, words[:8]):
        matches = [i for i, text in enumerate(paragraphs) if f" {' '.join(needle)} " in text]
        if len(matches) == 1:
            return matches[0], "found"
        if len(matches) > 1:
            return None, "ambiguous"
    return None, "not found"


def load_bmds(path: Path, *, split: str | None = None, limit: int | None = None, skip_bad: bool = False) -> Benchmark:
    """BMDS detective stories (``texts/{Story Code}.txt`` and ``BMDS_story_annotations.csv``):
    one open-question item per story with an "Essential clue", carrying the clue annotations in
    metadata for weak evidence labels, and ``position`` at the paragraph of the "Reveal border
    sentence" when it is found (``metadata["reveal"]`` says whether it was)."""
    _check_split("bmds", split, (None,))
    folder = path if path.is_dir() else path.parent
    table = folder / "BMDS_story_annotations.csv"
    builder = _Builder("bmds", limit=limit, skip_bad=skip_bad)

    def story(where: str, row: dict) -> None:
        code, title = _text(row, "Story Code"), _text(row, "Story Title")
        annotations = {key: (row.get(column) or "").strip() for key, column in _BMDS_FIELDS.items()}
        if not annotations["essential_clue"]:
            return
        text_file = folder / "texts" / f"{code}.txt"
        if not text_file.is_file():
            raise BenchmarkError(f"story text {text_file} is missing")
        narrative = _book_file(text_file, title=title)
        position, reveal = _reveal_paragraph(narrative, annotations["reveal_border_sentence"])
        item = BenchmarkItem(
            item_id=f"bmds:{code}",
            benchmark="bmds",
            book_id=code,
            question=Question.open(f'What is the essential clue to solving the mystery in "{title}"?'),
            position=position,
            metadata={**annotations, "reveal": reveal, "annotations": _raw_fields(row, ())},
        )
        builder.add(item, narrative)

    builder.each(table, _csv_rows(table), story)
    return builder.build()


# --- DetectiveQA -------------------------------------------------------------------------------

_NUMBERED_PARAGRAPH = re.compile(r"^\[(\d+)\][ \t]?(.*)$")


def _detectiveqa_novel(novel_file: Path) -> tuple[Narrative, dict[int, int]]:
    """A DetectiveQA novel (lines "[n] text" start paragraph n; other lines continue it) and the
    map from its paragraph numbers to paragraph IDs, which annotation positions refer to."""

    def build() -> tuple[Narrative, dict[int, int]]:
        numbers: list[int | None] = []
        texts: list[str] = []
        with open(novel_file, encoding="utf-8-sig") as f:
            for line in f:
                match = _NUMBERED_PARAGRAPH.match(line.rstrip("\n"))
                if match:
                    numbers.append(int(match.group(1)))
                    texts.append(match.group(2))
                elif texts:
                    texts[-1] += "\n" + line
                elif line.strip():  # text before the first numbered paragraph
                    numbers.append(None)
                    texts.append(line)
        if not any(n is not None for n in numbers):
            raise NarrativeError(f"{novel_file}: no numbered paragraphs ('[0] text' lines)")
        kept = [(n, t) for n, t in zip(numbers, texts) if normalize_text(t)]
        seen = [n for n, _ in kept if n is not None]
        if len(seen) != len(set(seen)):
            raise NarrativeError(f"{novel_file}: a paragraph number occurs twice")
        title = novel_file.stem.split("-", 1)[-1]
        narrative = from_paragraphs([t for _, t in kept], title=title, source=str(novel_file))
        return narrative, {n: i for i, (n, _) in enumerate(kept) if n is not None}

    return _cached(("detectiveqa", *_file_key(novel_file)), build)


def _detectiveqa_position(value: Any, numbers: dict[int, int], what: str) -> int | None:
    """A paragraph number of the novel -> paragraph ID; a negative number or null means "not given"."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise BenchmarkError(f"{what} must be a paragraph number, got {value!r}")
    if value < 0:
        return None
    if value not in numbers:
        raise BenchmarkError(f"{what} {value} is not a paragraph of the novel (numbers {min(numbers)}-{max(numbers)})")
    return numbers[value]


_DETECTIVEQA_SOURCES = {"human_anno": "human", "AIsup_anno": "ai"}


def load_detectiveqa(
    path: Path, *, split: str | None = None, limit: int | None = None, skip_bad: bool = False
) -> Benchmark:
    """DetectiveQA (English) as released: ``novel_data_en/{novel_id}-{title}.txt`` with numbered
    paragraphs, and ``anno_data_en/human_anno/{novel_id}.json`` / ``anno_data_en/AIsup_anno/...``
    each a list of samples {novel_id, num_paragraphs, time_cost, questions: [{question, options
    {A-D}, answer, reasoning, clue_position [numbers], answer_position, distraction}]}.

    ``clue_position`` becomes gold evidence and ``answer_position`` the item's ``position`` (both
    mapped from the novel's paragraph numbers to IDs); ``split`` is "human" or "ai" annotations.
    """
    _check_split("detectiveqa", split, (None, *_DETECTIVEQA_SOURCES.values()))
    novels_dir, annotations_dir = path / "novel_data_en", path / "anno_data_en"
    if not novels_dir.is_dir() or not annotations_dir.is_dir():
        raise BenchmarkError(f"{path}: expected the folders novel_data_en/ and anno_data_en/ of DetectiveQA")
    builder = _Builder("detectiveqa", limit=limit, skip_bad=skip_bad)
    for folder_name, source in _DETECTIVEQA_SOURCES.items():
        if split not in (None, source):
            continue
        for anno_file in sorted((annotations_dir / folder_name).glob("*.json"), key=lambda f: (len(f.stem), f.stem)):
            samples = _read_json(anno_file)
            samples = samples if isinstance(samples, list) else [samples]
            numbered = ((f"sample {n}", sample) for n, sample in enumerate(samples, start=1))
            counter = itertools.count(1)  # question numbers run on across the samples of a file

            def questions_of(where: str, record: Any) -> list[tuple[str, Any]]:
                sample = _object(record)
                novel_id = _integer(sample, "novel_id")
                if not isinstance(sample.get("questions"), list):
                    raise BenchmarkError("field 'questions' must be a list")
                found = sorted(novels_dir.glob(f"{novel_id}-*.txt")) or sorted(novels_dir.glob(f"{novel_id}.txt"))
                if len(found) != 1:
                    raise BenchmarkError(
                        f"expected one novel file {novel_id}-*.txt in {novels_dir}, found {len(found)}"
                    )
                novel = _detectiveqa_novel(found[0])
                return [
                    (f"{where}, question {number}", (sample, novel, number, raw))
                    for number, raw in zip(counter, sample["questions"])
                ]

            def question(where: str, payload: tuple) -> None:
                sample, (narrative, numbers), number, raw = payload
                raw = _object(raw)
                options = raw.get("options")
                if not isinstance(options, dict):
                    raise BenchmarkError("field 'options' must be an object {A: ..., B: ...}")
                mcq = Question(_text(raw, "question"), {k: str(v).strip() for k, v in options.items()})
                clues = raw.get("clue_position", [])
                clues = clues if isinstance(clues, list) else [clues]
                gold = [_detectiveqa_position(c, numbers, "clue_position") for c in clues]
                item = BenchmarkItem(
                    item_id=f"detectiveqa:{sample['novel_id']}:{source}:{number}",
                    benchmark="detectiveqa",
                    book_id=str(sample["novel_id"]),
                    question=mcq,
                    answer=_option_letter(_text(raw, "answer"), mcq.options),
                    gold_evidence=tuple(g for g in gold if g is not None),
                    position=_detectiveqa_position(raw.get("answer_position"), numbers, "answer_position"),
                    metadata={
                        "novel_id": sample["novel_id"],
                        "annotation": source,
                        "clue_position": clues,
                        "answer_position": raw.get("answer_position"),
                        "clues_without_position": sum(g is None for g in gold),
                        **_raw_fields(raw, ("question", "options", "answer", "clue_position", "answer_position")),
                        **_raw_fields(sample, ("novel_id", "questions")),
                    },
                )
                builder.add(item, narrative)

            builder.each(anno_file, builder.nested(anno_file, numbered, questions_of), question)
    return builder.build()


# --- InfiniteBench and LongBench v2 ------------------------------------------------------------


def load_infinitebench(
    path: Path, *, split: str | None = None, limit: int | None = None, skip_bad: bool = False
) -> Benchmark:
    """InfiniteBench ``longbook_choice_eng.jsonl``: ``context`` (the book), ``input`` (the
    question), ``options`` (texts) and ``answer`` (a list holding the correct option's text)."""
    _check_split("infinitebench", split, (None,))
    file = _jsonl_or_dir(path, "longbook_choice_eng.jsonl")
    builder = _Builder("infinitebench", limit=limit, skip_bad=skip_bad)

    def question(where: str, record: Any) -> None:
        row = _object(record)
        options = _options_from_list(row.get("options"))
        answers = row.get("answer")
        if isinstance(answers, str):
            answers = [answers]
        if not isinstance(answers, list) or len(answers) != 1 or not isinstance(answers[0], str):
            raise BenchmarkError(f"answer must be a list holding one option text, got {answers!r:.120}")
        narrative = _inline_text(_text(row, "context"), f"{file}#{where}")
        item = BenchmarkItem(
            item_id=f"infinitebench:{row.get('id', where)}",
            benchmark="infinitebench",
            book_id=narrative.book_id,
            question=Question(_text(row, "input"), options),
            answer=_option_letter(answers[0], options),
            metadata={"answer_text": answers[0], **_raw_fields(row, ("context", "input", "options", "answer"))},
        )
        builder.add(item, narrative)

    builder.each(file, _records(file), question)
    return builder.build()


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

    def question(where: str, record: Any) -> None:
        row = _object(record)
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
    return builder.build()


# --- the common schema -------------------------------------------------------------------------


def _common_narrative(record: dict, folder: Path) -> Narrative:
    book_id = _text(record, "book_id")
    if "path" in record:
        book_path = Path(_text(record, "path"))
        narrative = _book_file(book_path if book_path.is_absolute() else folder / book_path, title=record.get("title"))
    else:
        paragraphs, chapter_titles = record.get("paragraphs"), record.get("chapter_titles")
        if (
            not isinstance(paragraphs, list)
            or not paragraphs
            or not all(isinstance(p, str) and p.strip() for p in paragraphs)
        ):
            raise BenchmarkError(
                f"narrative {book_id!r}: 'paragraphs' must be a list of non-empty texts (or give 'path')"
            )
        if chapter_titles is not None and (
            not isinstance(chapter_titles, list) or len(chapter_titles) != len(paragraphs)
        ):
            raise BenchmarkError(
                f"narrative {book_id!r}: 'chapter_titles' must give one title (or null) per paragraph"
            )
        narrative = from_paragraphs(
            paragraphs,
            title=str(record.get("title") or book_id),
            source=f"{folder}#{book_id}",
            chapter_titles=chapter_titles,
            detect_headings=chapter_titles is None,
        )
    expected = record.get("content_hash")
    if expected and expected != narrative.content_hash:
        raise BenchmarkError(
            f"narrative {book_id!r}: the text differs from the one the items were labelled on "
            f"(content hash {narrative.content_hash[:12]}..., expected {str(expected)[:12]}...)"
        )
    return narrative


def load_jsonl(path: Path, *, split: str | None = None, limit: int | None = None, skip_bad: bool = False) -> Benchmark:
    """A benchmark in the common schema (see the module docstring). ``split`` keeps the items of
    one source benchmark (their ``benchmark`` field)."""
    if path.is_dir():
        raise BenchmarkError(f"{path}: give the benchmark's .jsonl file, not a folder")
    name, narrative_records, item_records = path.stem, {}, []
    for where, record in _records(path):
        kind = record.get("record") if isinstance(record, dict) else None
        if kind == "benchmark":
            name = str(record.get("name") or name)
        elif kind == "narrative" and isinstance(record.get("book_id"), str):
            if record["book_id"] in narrative_records:
                raise BenchmarkError(f"{path}, {where}: book id {record['book_id']!r} is defined twice")
            narrative_records[record["book_id"]] = (where, record)
        else:
            item_records.append((where, record))
    builder = _Builder(name, limit=limit, skip_bad=skip_bad)
    built: dict[str, Narrative] = {}

    def item_record(where: str, record: Any) -> None:
        record = _object(record)
        if record.get("record") == "narrative":
            raise BenchmarkError("a narrative record needs a string 'book_id'")
        if record.get("record") != "item":
            raise BenchmarkError(f"unknown record {record.get('record')!r}; use benchmark, narrative or item")
        item = BenchmarkItem.from_dict({k: v for k, v in record.items() if k != "record"})
        if split and item.benchmark != split:
            return
        if item.book_id not in narrative_records:
            raise BenchmarkError(
                f"item {item.item_id} refers to book {item.book_id!r}, which no narrative record defines"
            )
        if item.book_id not in built:
            narrative_where, narrative_record = narrative_records[item.book_id]
            try:
                built[item.book_id] = _cached(
                    ("jsonl", *_file_key(path), item.book_id), lambda: _common_narrative(narrative_record, path.parent)
                )
            except (BenchmarkError, NarrativeError) as exc:
                raise BenchmarkError(f"its narrative record ({narrative_where}) is bad: {exc}") from exc
        builder.add(item, built[item.book_id])

    builder.each(path, iter(item_records), item_record)
    return builder.build()


# --- registry ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class BenchmarkSpec:
    loader: Callable[..., Benchmark]
    default_path: str | None  # under the shared data folder; None: a path must be given
    description: str


BENCHMARKS: dict[str, BenchmarkSpec] = {
    "nocha": BenchmarkSpec(load_nocha, "nocha/data_sample", "NoCha claim pairs over whole novels"),
    "quality": BenchmarkSpec(
        load_quality, "quality_nyu_example/quality_example.jsonl", "QuALITY official JSONL (HTML articles)"
    ),
    "quality_leval": BenchmarkSpec(load_quality_leval, "quality_leval/quality.jsonl", "QuALITY as in L-Eval"),
    "leval_scifi": BenchmarkSpec(load_leval_scifi, "leval_scifi/sci_fi.jsonl", "L-Eval sci-fi in-story claims"),
    "gutenqa": BenchmarkSpec(load_gutenqa, "gutenqa_emma", "GutenQA open questions with gold paragraphs"),
    "kdsh": BenchmarkSpec(load_kdsh, "kdsh_backstory", "KDSH character backstory claims"),
    "bmds": BenchmarkSpec(load_bmds, "bmds", "BMDS detective stories with clue annotations"),
    "detectiveqa": BenchmarkSpec(load_detectiveqa, "detectiveqa", "DetectiveQA (English) with clue positions"),
    "infinitebench": BenchmarkSpec(
        load_infinitebench, "infinitebench/longbook_choice_eng.jsonl", "InfiniteBench En.MC"
    ),
    "longbench_v2": BenchmarkSpec(load_longbench_v2, "longbench_v2/data.json", "LongBench v2 multiple choice"),
    "jsonl": BenchmarkSpec(load_jsonl, None, "a benchmark in the common schema"),
}


def load_benchmark(
    name: str,
    path: str | Path | None = None,
    *,
    split: str | None = None,
    limit: int | None = None,
    skip_bad: bool = False,
) -> Benchmark:
    """Load benchmark ``name`` from ``path`` (default: its file under the shared data folder).

    ``limit`` keeps the first items (in file order); ``skip_bad`` passes over bad rows, recording
    them in ``Benchmark.skipped``, instead of raising a BenchmarkError that names file and row.
    """
    spec = BENCHMARKS.get(name)
    if spec is None:
        raise BenchmarkError(f"unknown benchmark {name!r}; choose from {', '.join(BENCHMARKS)}")
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 1):
        raise BenchmarkError(f"limit must be a positive integer, got {limit!r}")
    if path is None:
        if spec.default_path is None:
            raise BenchmarkError(f"{name}: give the path of the benchmark file")
        path = shared_data_dir() / spec.default_path
    path = Path(path)
    if not path.exists():
        raise BenchmarkError(f"{name}: {path} does not exist; pass the path of the benchmark's data")
    return spec.loader(path, split=split, limit=limit, skip_bad=skip_bad)
