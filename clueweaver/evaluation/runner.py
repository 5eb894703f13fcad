"""``clueweaver eval``: run one system over a benchmark, one durable record per item, resumable.

A *reader* answers one question about one narrative and says what it did
(:class:`ReaderOutput`: the normalized answer, the parse flags, the rationale's citations split
against the evidence it was shown, that evidence's paragraph IDs, per-stage seconds, the raw
outputs). The runner knows nothing of models: it loads the benchmark, skips what the run folder
already holds, asks the reader about every remaining labelled item, appends each record to
``predictions.jsonl`` before the next item starts, and writes the summary.

The systems and their readers are in :mod:`clueweaver.evaluation.systems` and
:mod:`clueweaver.systems.base`. Open questions are scored against references
(:mod:`clueweaver.evaluation.open_answers`).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Sequence

from tqdm import tqdm

from clueweaver.backends import SamplingConfig
from clueweaver.benchmarks import load_benchmark
from clueweaver.books.language import detect_language
from clueweaver.evaluation.judge import JudgeConfig
from clueweaver.evaluation.open_answers import OpenScorer, score_open_record
from clueweaver.evaluation.records import (
    PREDICTIONS_FILE,
    SKIPPED_UNLABELLED,
    TRACES_FILE,
    EvalError,
    PredictionLog,
    TraceLog,
    check_run_folder,
    read_predictions,
    write_run_file,
)
from clueweaver.evaluation.report import summarize, write_report
from clueweaver.evaluation.systems import SYSTEMS, build_reader
from clueweaver.pipeline import DIRECT_OUTPUT_TOKENS, PipelineConfig
from clueweaver.retrieval.dense import resolve_auto
from clueweaver.sources.registry import check_source_ready
from clueweaver.systems.agentic import check_agentic_run
from clueweaver.systems.base import Reader, ReaderOutput

# The paper's per-benchmark presets; other sets use the general "broader" one.
DEFAULT_PRESETS = {
    "nocha": "nocha",
    "detectiveqa": "detectiveqa",
    "infinitebench": "infinitebench",
    "longbench_v2": "longbench_v2",
}
FALLBACK_PRESET = "broader"
# Pipeline settings left out of run labels as they are: where files live, not what a record means.
UNLABELLED_PIPELINE_SETTINGS = ("nwm_dir", "chrono")  # chrono: named field by field below
DIRECT_BUDGETS = ("32k", "128k")  # the direct reader's named input budgets (see clueweaver.pipeline)


@dataclass
class EvalConfig:
    """One evaluation run. Models: ``model`` serves both agents unless ``finder`` /
    ``interpreter`` name their own; ``direct`` and ``rag-*`` load the Interpreter only."""

    benchmark: str
    system: str
    path: str | None = None
    split: str | None = None
    limit: int | None = None
    item_ids: tuple[str, ...] = ()
    skip_bad: bool = False
    backend: str = "hf"
    model: str | None = None
    finder: str | None = None
    interpreter: str | None = None
    finder_adapter: str | None = None
    interpreter_adapter: str | None = None
    base_url: str | None = None  # openai backend
    tokenizer: str | None = None  # openai/vllm: the served model's tokenizer, for counting tokens locally
    device: str | None = None  # hf backend; not part of the run's identity
    use_finder: bool = True
    self_calibration: bool = True
    preset: str | dict | None = None  # a name, or {base: NAME, field: value, ...}; default: the benchmark's own
    direct_budget: str = "32k"  # the direct reader's input budget: 32k, 128k or a token count
    pipeline: dict = field(default_factory=dict)  # more PipelineConfig settings (sampling, triggers, ...)
    encoder: str | None = "auto"
    cache_dir: str | None = None
    output: str | None = None
    label: str | None = None
    save_traces: bool = False
    judge: dict = field(default_factory=dict)  # LLM judge of open answers {base_url, model, cache}; off if empty
    agent: dict | None = (
        None  # agentic systems' limits over their defaults {max_steps: 4, ...}; None: older runs match
    )

    # settings that change what a record means: a run folder only resumes with the same ones
    IDENTITY = (
        "benchmark",
        "system",
        "path",
        "split",
        "skip_bad",
        "backend",
        "model",
        "finder",
        "interpreter",
        "finder_adapter",
        "interpreter_adapter",
        "base_url",
        "tokenizer",
        "use_finder",
        "self_calibration",
        "preset",
        "direct_budget",
        "pipeline",
        "encoder",
        "judge",
        "agent",
    )
    # PipelineConfig settings that have their own field here
    OWN_FIELDS = ("preset", "use_finder", "self_calibration", "encoder", "cache_dir")

    def __post_init__(self) -> None:
        if self.system not in SYSTEMS:
            raise EvalError(f"unknown system {self.system!r}; choose one of {', '.join(SYSTEMS)}")
        if not SYSTEMS[self.system].uses_finder and not self.use_finder:
            raise EvalError(f"--no-finder applies to the clueweaver system only (system {self.system} has no Finder)")
        if self.preset is None:
            self.preset = DEFAULT_PRESETS.get(self.benchmark, FALLBACK_PRESET)
        clash = sorted(set(self.pipeline) & set(self.OWN_FIELDS))
        if clash:
            raise EvalError(
                f"pipeline settings {', '.join(clash)} have their own options (--preset, --no-finder, ...); set them "
                "there"
            )
        check_agentic_run(self.system, self.agent, self.pipeline_config())  # also rejects a bad preset or setting
        JudgeConfig.from_dict(self.judge)
        self.direct_budget = str(self.direct_budget)
        if self.direct_budget not in DIRECT_BUDGETS and not self.direct_budget.isdigit():
            raise EvalError(
                f"direct budget {self.direct_budget!r}: use {' or '.join(DIRECT_BUDGETS)} or a number of tokens"
            )
        if self.path is not None:
            self.path = str(Path(self.path).resolve())
        # "auto" is recorded as what it picks here: a run folder made with BM25 alone on a CPU is
        # not resumed with BGE-M3 on a GPU (their records would mix two rankings)
        self.encoder = resolve_auto(self.encoder, self.device)
        self.item_ids = tuple(self.item_ids)

    def pipeline_config(self):
        """The engine's PipelineConfig: ``pipeline`` settings plus this run's own fields."""
        values = {
            **self.pipeline,
            "preset": self.preset,
            "use_finder": self.use_finder,
            "self_calibration": self.self_calibration,
            "encoder": self.encoder,
            "cache_dir": self.cache_dir,
        }
        try:
            return PipelineConfig.from_dict(values)
        except (TypeError, ValueError) as exc:
            raise EvalError(f"pipeline settings: {exc}") from None

    def direct_sampling(self):
        """The Interpreter's sampling settings for the direct reader, whose output length stays
        the paper's 128 tokens unless ``pipeline.interpreter_sampling`` sets one."""
        return SamplingConfig.from_dict(
            {"max_new_tokens": DIRECT_OUTPUT_TOKENS, **self.pipeline.get("interpreter_sampling", {})}
        )

    def identity(self) -> dict:
        return {name: getattr(self, name) for name in self.IDENTITY}

    def default_label(self) -> str:
        """The system plus whatever sets this run apart from the default configuration."""
        parts = [self.system]
        if not self.use_finder:
            parts.append("no-finder")
        if not self.self_calibration:
            parts.append("no-self-cal")
        if self.preset != DEFAULT_PRESETS.get(self.benchmark, FALLBACK_PRESET):
            shown = self.preset if isinstance(self.preset, str) else json.dumps(self.preset, sort_keys=True)
            parts.append(f"preset={shown}")
        parts += [f"{name}={value}" for name, value in sorted((self.agent or {}).items())]
        parts += [
            f"{name}={value if isinstance(value, (str, int, float, bool)) else json.dumps(value, sort_keys=True)}"
            for name, value in sorted(self.pipeline.items())
            if name not in UNLABELLED_PIPELINE_SETTINGS
        ]
        chrono = self.pipeline_config().chrono.label()  # ChronoRAG's ablations, for its system and source
        parts += [chrono] if chrono else []
        for role in ("model", "finder", "interpreter", "finder_adapter", "interpreter_adapter"):
            if getattr(self, role):
                parts.append(f"{role}={Path(getattr(self, role)).name}")
        return " ".join(parts)

    def default_output(self) -> Path:
        """``eval_runs/BENCHMARK-SYSTEM-HASH``: the same command finds (and resumes) its own run."""
        digest = hashlib.sha1(json.dumps(self.identity(), sort_keys=True).encode()).hexdigest()[:8]
        return Path("eval_runs") / f"{self.benchmark}-{self.system}-{digest}"


def _identity_fields(item, system: str) -> dict:
    return {
        "item_id": item.item_id,
        "benchmark": item.benchmark,
        "book_id": item.book_id,
        "system": system,
        "kind": item.question.kind,
        "pair_id": item.pair_id,
        "answer": item.answer,
    }


def skipped_record(item, system: str) -> dict:
    return {**_identity_fields(item, system), "skipped": SKIPPED_UNLABELLED}


def scored_record(item, system: str, output: ReaderOutput, total_seconds: float) -> dict:
    return {
        **_identity_fields(item, system),
        "skipped": None,
        "prediction": output.prediction,
        "correct": output.prediction is not None and output.prediction == item.answer,
        "format_valid": bool(output.format_valid),
        "answer_legal": bool(output.answer_legal),
        "rationale": output.rationale,
        "cited_ids": sorted(output.cited_ids),
        "invalid_ids": sorted(output.invalid_ids),
        "packet_ids": list(output.packet_ids),
        "timings": {**{k: float(v) for k, v in output.timings.items() if k != "total"}, "total": total_seconds},
        "outputs": dict(output.outputs),
        "details": dict(output.details),
    }


def _select(benchmark, item_ids: Sequence[str]) -> list:
    if not item_ids:
        return list(benchmark.items)
    by_id = {item.item_id: item for item in benchmark.items}
    unknown = [i for i in item_ids if i not in by_id]
    if unknown:
        raise EvalError(f"{benchmark.name}: no item(s) {', '.join(unknown[:5])} (check --items and --limit)")
    return [by_id[i] for i in dict.fromkeys(item_ids)]


@dataclass
class RunResult:
    output: Path
    label: str
    summary: dict
    new_records: int
    resumed_records: int


def run_evaluation(
    config: EvalConfig,
    reader: Reader | None = None,
    *,
    reader_factory: Callable[[EvalConfig], Reader] | None = None,
    progress: bool = True,
) -> RunResult:
    """Evaluate ``config.system`` on the benchmark, resuming the run folder when it has records.

    The reader is built (by ``reader_factory``, default :func:`build_reader`) only when some
    labelled item is still to be answered, so a finished run re-summarizes without loading models.
    """
    output = Path(config.output) if config.output else config.default_output()
    benchmark = load_benchmark(
        config.benchmark, config.path, split=config.split, limit=config.limit, skip_bad=config.skip_bad
    )
    items = _select(benchmark, config.item_ids)
    check_run_folder(output, config.identity())
    log = PredictionLog(output / PREDICTIONS_FILE)
    resumed = len(log.records)
    pending = [item for item in items if (item.benchmark, item.item_id) not in log]
    _check_segment_sources(config, benchmark, pending)

    built = scorer = None
    if reader is None and any(item.labelled for item in pending):
        reader = built = (reader_factory or build_reader)(config)
    if any(item.labelled and item.question.is_open for item in pending):
        scorer = OpenScorer.for_run(config.encoder, config.judge, output)
    try:
        languages = book_languages(config, benchmark, items)
        write_run_file(output, config.label or config.default_label(), dataclasses.asdict(config), languages)
        traces = TraceLog(output / TRACES_FILE) if config.save_traces else None
        _answer(
            config,
            benchmark,
            pending,
            (reader, scorer),
            log,
            traces,
            done=len(items) - len(pending),
            total=len(items),
            progress=progress,
        )
    finally:
        for resource in (built, scorer):
            if resource is not None and hasattr(resource, "close"):
                resource.close()

    label = config.label or config.default_label()
    summary = summarize(read_predictions(output / PREDICTIONS_FILE))
    write_report({label: summary}, output, plot=False)
    return RunResult(output, label, summary, len(log.records) - resumed, resumed)


def book_languages(config: EvalConfig, benchmark, items: list) -> dict[str, str]:
    """The language each book of the run is read in, by book ID: the run's ``language`` setting, else
    the language detected from the book (as its index detects it)."""
    language = config.pipeline_config().language
    books = {item.book_id: item for item in items}
    return {book: language or detect_language(benchmark.narrative(item).text) for book, item in books.items()}


def _check_segment_sources(config: EvalConfig, benchmark, pending: list) -> None:
    """Every book still to read has what the segment source needs, checked before any model loads
    or the run file is written (with a fallback allowed there is nothing to check)."""
    pipeline = config.pipeline_config()
    if not SYSTEMS[config.system].uses_finder or pipeline.segment_fallback:
        return
    books = {item.book_id: item for item in pending if item.labelled}
    for item in books.values():
        check_source_ready(benchmark.narrative(item), pipeline)


def _answer(
    config: EvalConfig,
    benchmark,
    pending: list,
    answerers: tuple,
    log: PredictionLog,
    traces: TraceLog | None,
    *,
    done: int,
    total: int,
    progress: bool,
) -> None:
    """Ask the reader about each pending item (open answers scored by the scorer); each record is
    durable before the next item."""
    reader, scorer = answerers
    with tqdm(
        total=total,
        initial=done,
        desc=f"eval {config.system} on {config.benchmark}",
        unit="item",
        disable=not progress,
    ) as bar:
        for item in pending:
            if not item.labelled:
                log.append(skipped_record(item, config.system))
            else:
                narrative = benchmark.narrative(item)
                started = time.perf_counter()
                answer = reader(narrative, item.question, max_paragraph=item.reading_limit(narrative))
                record = scored_record(item, config.system, answer, time.perf_counter() - started)
                log.append(score_open_record(record, item, scorer) if item.question.is_open else record)
                if traces is not None and answer.trace is not None:
                    traces.append(item.item_id, answer.trace)
            bar.update()
