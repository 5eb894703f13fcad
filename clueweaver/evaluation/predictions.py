"""A run folder's files: the per-item predictions file (one JSON object per line, the single
source of every number in an evaluation summary), ``run.json`` and the traces file.

A scored record (one per item with a gold answer)::

    {"item_id": "nocha:148:TRUE", "benchmark": "nocha", "book_id": "...", "system": "clueweaver",
     "kind": "claim", "pair_id": "nocha:148", "answer": "TRUE", "skipped": null,
     "prediction": "TRUE" | null, "correct": true, "format_valid": true, "answer_legal": true,
     "rationale": "...", "cited_ids": [12, 14], "invalid_ids": [], "packet_ids": [11, 12, ...],
     "timings": {"segment": 0.1, "finder": 2.3, ..., "total": 4.1},
     "outputs": {"interpreter": "<reason>...", ...}, "details": {...}}

An open question's record has the free-text answer as ``prediction``, ``correct`` null, and its
reference answers and scores (``OPEN_RECORD_FIELDS``, see :mod:`clueweaver.evaluation.open_answers`).

Over an OpenAI-compatible server a record also has ``servers``: ``{url: completions}``, which
server answered the item's calls (``--base-url`` given several times spreads them).

``cited_ids`` are the rationale's paragraph IDs inside the packet, ``invalid_ids`` those outside
it (the protocol parser's split against ``packet_ids``). ``timings.total`` is the wall time the
runner measured around the whole item. An item without a gold answer (open question, unlabelled
claim) is not asked; it is written as a skipped record so that the count survives in the file::

    {"item_id": ..., "benchmark": ..., "book_id": ..., "system": ..., "kind": "open",
     "pair_id": null, "answer": null, "skipped": "no gold answer"}

The file is appended to and flushed item by item (by one thread, whatever the item concurrency),
so an interrupted run loses at most the line being written; :class:`PredictionLog` drops such a
torn last line and resumes after the others.
"""

from __future__ import annotations

import json
import os
import warnings
from pathlib import Path

from clueweaver.core.errors import ClueWeaverError, EvalError
from clueweaver.core.jsonl import complete_lines, split_torn_tail

PREDICTIONS_FILE = "predictions.jsonl"
RUN_FILE = "run.json"  # the run's configuration and label, written by the runner
TRACES_FILE = "traces.jsonl"  # every item's full trace, with --save-traces
SKIPPED_UNLABELLED = "no gold answer"

IDENTITY_FIELDS = ("item_id", "benchmark", "book_id", "system", "kind", "pair_id", "answer", "skipped")
_TEXT_FIELDS = ("item_id", "benchmark", "book_id", "system", "kind")
SCORED_FIELDS = (
    "prediction",
    "correct",
    "format_valid",
    "answer_legal",
    "rationale",
    "cited_ids",
    "invalid_ids",
    "packet_ids",
    "timings",
    "outputs",
    "details",
)
OPEN_RECORD_FIELDS = ("references", "gold_evidence", "temporal", "scores", "not_scored")


RUN_FORMAT = "clueweaver-eval/1"


class RecordError(ClueWeaverError, ValueError):
    """A predictions file that cannot be read as evaluation records; names the file and line."""


def is_scored(record: dict) -> bool:
    return record.get("skipped") is None


def record_key(record: dict) -> tuple[str, str]:
    """Items are identified by benchmark and item ID (IDs need only be unique per benchmark)."""
    return record["benchmark"], record["item_id"]


def check_record(record: object) -> dict:
    """The record itself when it has every field its kind needs, else a RecordError (without the
    location, which the caller adds)."""
    if not isinstance(record, dict):
        raise RecordError(f"a record must be a JSON object, got {type(record).__name__}")
    missing = [name for name in IDENTITY_FIELDS if name not in record]
    if is_scored(record) and record.get("kind") == "open":
        missing += [name for name in (*SCORED_FIELDS, *OPEN_RECORD_FIELDS) if name not in record]
        if not missing and record["correct"] is not None:
            raise RecordError(f"item {record['item_id']}: an open question's 'correct' must be null (it has scores)")
    elif is_scored(record):
        missing += [name for name in SCORED_FIELDS if name not in record]
        if not missing and record["correct"] != (
            record["prediction"] is not None and record["prediction"] == record["answer"]
        ):
            raise RecordError(f"item {record['item_id']}: 'correct' disagrees with prediction and answer")
    if missing:
        raise RecordError(f"record {record.get('item_id', '?')!r} lacks field(s) {', '.join(missing)}")
    not_text = [name for name in _TEXT_FIELDS if not isinstance(record[name], str)]
    if not_text:  # they key, group and sort the records
        raise RecordError(f"record {record['item_id']!r}: field(s) {', '.join(not_text)} must be text")
    return record


def _parse_lines(path: Path, lines: list[str]) -> list[dict]:
    records, seen = [], set()
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            record = check_record(json.loads(line))
        except json.JSONDecodeError as exc:
            raise RecordError(f"{path}, line {number}: not JSON ({exc.msg})") from None
        except RecordError as exc:
            raise RecordError(f"{path}, line {number}: {exc}") from None
        key = record_key(record)
        if key in seen:
            raise RecordError(f"{path}, line {number}: item {key[1]} of {key[0]} appears twice")
        seen.add(key)
        records.append(record)
    return records


def read_predictions(path: str | Path) -> list[dict]:
    """All records of a predictions file (or of ``predictions.jsonl`` in a run folder). A torn
    last line, left by an interrupted run, is skipped with a warning."""
    path = Path(path)
    if path.is_dir():
        path = path / PREDICTIONS_FILE
    if not path.is_file():
        raise FileNotFoundError(f"no predictions file at {path}")
    lines, torn = split_torn_tail(path)
    if torn:
        warnings.warn(f"{path}: ignoring an incomplete last line (an interrupted run)")
    return _parse_lines(path, lines)


class PredictionLog:
    """Append-only predictions file of one run: remembers what is done, writes one record per
    item and makes it durable before the next item starts."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.records: list[dict] = []
        if self.path.exists():
            self.records = _parse_lines(self.path, complete_lines(self.path))
        self.done = {record_key(r) for r in self.records}

    def __contains__(self, key: tuple[str, str]) -> bool:
        return key in self.done

    def append(self, record: dict) -> None:
        check_record(record)
        key = record_key(record)
        if key in self.done:
            raise RecordError(f"{self.path}: item {key[1]} of {key[0]} is already recorded")
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with open(self.path, "a", encoding="utf-8") as f:
            f.write(json.dumps(record, ensure_ascii=False) + "\n")
            f.flush()
            os.fsync(f.fileno())
        self.records.append(record)
        self.done.add(key)


class TraceLog:
    """Append-only traces file of one run (``{"item_id": ..., "trace": {...}}`` per line). A last
    line torn by an interrupted run is cut when the log is opened, so a resumed run's first trace
    starts a line of its own instead of gluing onto the fragment."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        if self.path.exists():
            complete_lines(self.path)

    def append(self, item_id: str, trace: dict) -> None:
        with open(self.path, "a", encoding="utf-8") as f:
            f.write(json.dumps({"item_id": item_id, "trace": trace}, ensure_ascii=False) + "\n")


def check_run_folder(output: Path, identity: dict) -> None:
    """A run folder a run with this ``identity`` (the settings that change what a record means)
    may write to: new, or holding an earlier run with the same identity."""
    if (output / RUN_FILE).exists():
        old = read_run_file(output)["config"]
        differing = [name for name in identity if old.get(name) != identity[name]]
        if differing:
            details = "; ".join(f"{name}: {old.get(name)!r} there, {identity[name]!r} now" for name in differing)
            raise EvalError(f"{output} holds a run with other settings ({details}); choose another --output")
    elif (output / PREDICTIONS_FILE).exists():
        raise EvalError(f"{output} has {PREDICTIONS_FILE} but no {RUN_FILE}: not a run folder this command can resume")


def read_run_file(output: Path) -> dict:
    """A run folder's ``run.json``; one that is damaged (not JSON, no ``config`` object) is an EvalError
    saying what to do, never a traceback."""
    run_file = output / RUN_FILE
    try:
        payload = json.loads(run_file.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise EvalError(f"{run_file} is not valid JSON ({exc}): restore it, or choose another --output") from exc
    if not isinstance(payload, dict) or not isinstance(payload.get("config"), dict):
        raise EvalError(f"{run_file} holds no run's settings ('config'): restore it, or choose another --output")
    return payload


def write_run_file(
    output: Path, label: str, config: dict, languages: dict[str, str], readings: dict[str, dict]
) -> None:
    """``run.json``, written once the reader is ready, so a run whose models fail to load leaves a
    folder that any later run may take; ``languages``: the language each book is read in, by book ID;
    ``readings``: how the books whose files were not plain UTF-8 were read (``runner.book_readings``)."""
    output.mkdir(parents=True, exist_ok=True)
    payload = {"format": RUN_FORMAT, "label": label, "config": config, "languages": languages, "readings": readings}
    (output / RUN_FILE).write_text(json.dumps(payload, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
