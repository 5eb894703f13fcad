"""What every loader shares: the per-process book cache, the row-by-row builder that names the
file and row of a bad row (or skips it) and refuses to return nothing, the readers of JSON, JSONL,
CSV and Parquet rows, and the parsers of the fields the public formats have in common (texts,
integers, option letters, claim labels).

The names keep their leading underscore: they are the loader modules' toolkit, not the package's API.
"""

from __future__ import annotations

import csv
import dataclasses
import hashlib
import io
import json
import logging
import re
from collections import OrderedDict
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from clueweaver.benchmarks.schema import Benchmark, BenchmarkError, BenchmarkItem, SkippedRow
from clueweaver.books.encoding import decode_text
from clueweaver.books.narrative import Narrative, NarrativeError, from_text, load_narrative, normalize_text
from clueweaver.core.utf8 import utf8_failure
from clueweaver.protocol.question import CLAIM_LABELS, OPTION_LABELS, QuestionError

logger = logging.getLogger(__name__)

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


class _NotShipped(BenchmarkError):
    """A row whose text the release itself does not ship (BMDS names story files it lacks): passed
    over and reported in ``skipped`` even without ``skip_bad``, since no fix on the user's side
    brings it back and the rest of the data is good."""


class _Builder:
    """Collects items row by row: a bad row raises a BenchmarkError naming file and row, or with
    ``skip_bad`` is recorded in ``skipped`` (a row whose text the release lacks always is); stops
    taking items at ``limit``."""

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
            if not self.skip_bad and not isinstance(exc, (_ExactDuplicate, _NotShipped)):
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

    def build(self, *, split: str | None = None, splits: Iterable[str] = ()) -> Benchmark:
        """The loaded benchmark. Nothing loaded is an error saying why (a split the data does not
        have, naming the ``splits`` it has; no rows; every row passed over), never an empty
        benchmark that a run would report as done, except under ``skip_bad``, whose caller
        asked for the bad rows to be listed in ``skipped`` instead; those are named in one warning."""
        if not self.items and not (self.skip_bad and self.skipped):
            raise BenchmarkError(self._why_empty(split, sorted(set(splits))))
        for narrative in self.narratives.values():  # how a book file was read, where it was not plain UTF-8
            if narrative.encoding_note:
                logger.warning("%s: %s", self.name, narrative.encoding_note)
            if narrative.encoding_warning:  # characters of the book's text that were replaced
                logger.warning("%s: %s", self.name, narrative.encoding_warning)
        if self.skipped:
            first = self.skipped[0]
            logger.warning(
                "%s: %d row(s) passed over, listed in Benchmark.skipped (first: %s, %s: %s)",
                self.name,
                len(self.skipped),
                first.file,
                first.row,
                first.reason,
            )
        return Benchmark(self.name, self.narratives, self.items, self.skipped)

    def _why_empty(self, split: str | None, splits: list[str]) -> str:
        if self.skipped:
            first = self.skipped[0]
            return (
                f"{self.name}: no items: all {len(self.skipped)} row(s) were passed over "
                f"(first: {first.file}, {first.row}: {first.reason})"
            )
        if split is not None and not splits:
            return f"{self.name}: no items for split {split!r}; the rows name no split: load them without one"
        if split is not None:
            known = ", ".join(map(repr, splits))
            return f"{self.name}: no items for split {split!r}; the data has {known}: give one of those, or no split"
        return f"{self.name}: no items: the data holds no question rows"


def _check_split(name: str, split: str | None, allowed: tuple[str | None, ...]) -> None:
    if split not in allowed:
        shown = ", ".join("none" if s is None else repr(s) for s in allowed)
        raise BenchmarkError(f"{name}: unknown split {split!r}; use {shown}")


def _decoded(file: Path) -> tuple[str, dict]:
    """A release's text file, read as every book is read (``decode_text``: UTF-8 with a few stray bytes
    replaced and named in a warning, else an encoding that decodes it cleanly, else an error), and how it
    was read, for ``_as_read``."""
    text, codec, detected, warning = decode_text(file.read_bytes(), str(file))
    return text, {"encoding": codec, "encoding_detected": detected, "encoding_warning": warning}


def _as_read(narrative: Narrative, reading: dict) -> Narrative:
    """``narrative`` with how its file was read (``_decoded``), which the built benchmark names."""
    return dataclasses.replace(narrative, **reading)


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
    """(where, record) for each row: the rows of a ``.parquet`` table (Hugging Face's layout), the
    entries of a ``.json`` array, else one JSON value per line (JSONL; QuALITY's release files have
    no suffix). A line that is not JSON comes back as a BenchmarkError for the row to raise, so it
    can be skipped like any bad row."""
    if not path.is_file():
        raise BenchmarkError(f"{path}: no such file")
    if path.suffix == ".parquet":
        yield from _parquet_rows(path)
        return
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


def _parquet_rows(path: Path) -> Iterator[tuple[str, dict]]:
    """(where, row) for each row of a Parquet table, nested structs as dicts, nulls as None."""
    try:
        import pyarrow.parquet as parquet
    except ImportError as exc:
        raise BenchmarkError(f"{path}: reading .parquet needs pyarrow (pip install pyarrow)") from exc
    try:
        table = parquet.ParquetFile(path)
    except Exception as exc:  # pyarrow raises its own error types for a file that is not Parquet
        raise BenchmarkError(f"{path}: not a readable Parquet file ({exc})") from exc
    number = 0
    for batch in table.iter_batches(batch_size=64):  # rows may carry a whole book each (NarrativeQA)
        for row in batch.to_pylist():
            number += 1
            yield f"row {number}", row


def _csv_rows(path: Path) -> Iterator[tuple[str, dict]]:
    """(where, row) for each data row of a CSV file with a header line."""
    if not path.is_file():
        raise BenchmarkError(f"{path}: no such file")
    data = path.read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:  # a row can span lines, so the file is decoded whole, not row by row
        raise BenchmarkError(f"{path}, {utf8_failure(data, exc)}") from exc
    reader = csv.DictReader(io.StringIO(text, newline=""))
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
