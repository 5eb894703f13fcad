"""Hard Interpreter cases the paper's way: the base model answers candidate items through the
evaluation harness, and the items it fails are flagged hard until their share is reached.

The harness's Interpreter stage (``clueweaver.systems.base.interpreter_stage``: the protocol's
prompt over the item's own evidence packet, the protocol's parser, any backend: hf, vllm, openai)
answers each candidate; its records are the harness's (``scored_record``) in the harness's
append-only log (``PredictionLog``), ``<output_dir>/hard_cases/<model key>/predictions.jsonl``, so an
interrupted build resumes without asking anything twice and the file can be read like any
evaluation run. Self-calibration is off by default: the Interpreter is trained on its first answer.

Candidates are asked in a seeded random order, source by source and kind by kind, only as many as it
takes to find the hard examples the mixture needs there (``hard_share`` of the source's quota), so a
build asks the model about a fraction of the candidates. The one builder flag is
``--hard-cases.model MODEL`` (``--hard-cases.backend`` and ``--hard-cases.options`` to change how
it is served).

Predictions files (``predictions`` in the builder's config: JSONL, one prediction per line, as the
evaluation harness writes them) flag hard cases too: the fields read are ``item_id`` (the
benchmark item's ID, a string) and ``correct`` (true/false, or 1/0); everything else on the line is
ignored, and so are the harness's records of items it did not score (``skipped`` set). An item
predicted several times is hard when it is wrong in at least half of its predictions.
"""

from __future__ import annotations

import hashlib
import json
import random
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable

from clueweaver.benchmarks import BenchmarkItem, SkippedRow
from clueweaver.core.errors import ClueWeaverError
from clueweaver.evaluation.predictions import PREDICTIONS_FILE, PredictionLog, is_scored
from clueweaver.evaluation.runner import scored_record
from clueweaver.pipeline import PipelineConfig
from clueweaver.pipeline.models import load_agents
from clueweaver.systems.base import ReaderOutput, interpreter_stage

SYSTEM = "interpreter"  # the records' system: the Interpreter stage alone, over the item's packet


class PredictionsError(ClueWeaverError, ValueError):
    """A predictions file or line that cannot be read; names the file and line."""


def read_hard_items(paths: list[str | Path], *, skip_bad: bool = False) -> tuple[dict[str, bool], list[SkippedRow]]:
    """Item ID -> hard (failed by the model), from predictions files (see the module docstring)."""
    outcomes: dict[str, list[bool]] = {}
    skipped: list[SkippedRow] = []
    for path in map(Path, paths):
        if not path.is_file():
            raise PredictionsError(f"predictions file {path} does not exist")
        with open(path, encoding="utf-8") as f:
            for number, line in enumerate(f, start=1):
                if not line.strip():
                    continue
                try:
                    record = json.loads(line)
                    if not isinstance(record, dict):
                        raise PredictionsError("expected a JSON object")
                    if not is_scored(record):
                        continue  # the harness's record of an item it could not score (no gold answer)
                    item_id, correct = record.get("item_id"), record.get("correct")
                    if not isinstance(item_id, str) or not item_id:
                        raise PredictionsError("field 'item_id' must be a non-empty string")
                    if correct not in (True, False, 0, 1):  # bools, and 0/1 (which equal False/True)
                        raise PredictionsError(f"field 'correct' must be true/false or 1/0, got {correct!r}")
                except (json.JSONDecodeError, PredictionsError) as exc:
                    reason = f"not valid JSON ({exc.msg})" if isinstance(exc, json.JSONDecodeError) else str(exc)
                    if not skip_bad:
                        raise PredictionsError(f"{path}, line {number}: {reason}") from None
                    skipped.append(SkippedRow(str(path), f"line {number}", reason))
                    continue
                outcomes.setdefault(item_id, []).append(bool(correct))
    return {item: sum(not c for c in results) * 2 >= len(results) for item, results in outcomes.items()}, skipped


@dataclass
class HardCaseConfig:
    """The base model that marks hard cases; none when ``model`` is null."""

    model: str | None = None  # e.g. Qwen/Qwen3-4B-Instruct-2507, the model the Interpreter is trained from
    backend: str = "hf"  # hf | vllm | openai (any backend of clueweaver.backends)
    options: dict[str, Any] = field(default_factory=dict)  # passed to the backend (base_url, device, ...)
    self_calibration: bool = False

    def key(self) -> str:
        """Names the records of this model and setting (another model gets another file)."""
        payload = json.dumps(asdict(self), sort_keys=True, default=str)
        name = Path(self.model or "none").name.replace("/", "_")
        return f"{name}-{hashlib.sha256(payload.encode()).hexdigest()[:8]}"


Interpret = Callable[..., ReaderOutput]


class HardCaseMiner:
    """Asks the base model about candidates until enough of them are failed (see the module doc);
    ``asked`` counts the items it answered in this build (resumed records not included)."""

    def __init__(self, interpret: Interpret, log_path: str | Path, *, seed: int = 0, close=None):
        self.interpret, self.seed, self._close = interpret, seed, close
        self.log = PredictionLog(log_path)
        self.outcomes = {r["item_id"]: r["correct"] for r in self.log.records}
        self.asked = 0

    @classmethod
    def from_config(cls, config: HardCaseConfig, output_dir: str | Path, seed: int = 0) -> "HardCaseMiner | None":
        if config.model is None:
            return None
        agents = load_agents(config.model, config.model, backend=config.backend, options=config.options)
        pipeline = agents.pipeline(PipelineConfig(self_calibration=config.self_calibration, encoder=None))
        path = Path(output_dir) / "hard_cases" / config.key() / PREDICTIONS_FILE
        return cls(interpreter_stage(pipeline, SYSTEM), path, seed=seed, close=agents.close)

    def mark(self, examples: list, needed: int) -> int:
        """Ask about the candidates of ``examples`` in a seeded random order, flagging each failed one
        hard, until ``needed`` of them are hard (or all were asked); returns how many are."""
        order = sorted(examples, key=lambda e: e.item_id)
        random.Random(f"{self.seed}:hard-cases").shuffle(order)
        hard = sum(e.hard for e in order)
        for example in order:
            if hard >= needed:
                break
            if example.hard:
                continue
            correct = self.outcomes.get(example.item_id)
            if not (self._ask(example) if correct is None else correct):
                example.hard = True
                hard += 1
        return hard

    def _ask(self, example) -> bool:
        case = example.case
        item = BenchmarkItem(
            item_id=example.item_id,
            benchmark=case.benchmark,
            book_id=case.item.book_id,
            question=example.question,
            answer=example.answer,
        )
        started = time.perf_counter()
        output = self.interpret(case.narrative, example.question, example.packet)
        record = scored_record(item, SYSTEM, output, time.perf_counter() - started)
        self.log.append(record)
        self.outcomes[example.item_id] = record["correct"]
        self.asked += 1
        return record["correct"]

    def summary(self) -> dict:
        return {
            "log": str(self.log.path),
            "asked": self.asked,
            "answered": len(self.outcomes),
            "failed": sum(not c for c in self.outcomes.values()),
        }

    def close(self) -> None:
        if self._close is not None:
            self._close()
