"""``clueweaver eval``: run one system over a benchmark, one durable record per item, resumable.

A *reader* answers one question about one narrative and says what it did
(:class:`ReaderOutput`: the normalized answer, the parse flags, the rationale's citations split
against the evidence it was shown, that evidence's paragraph IDs, per-stage seconds, the raw
outputs). The runner knows nothing of models: it loads the benchmark, skips what the run folder
already holds, asks the reader about every remaining labelled item, appends each record to
``predictions.jsonl`` as soon as it is answered, and writes the summary.

Items concurrently (``item_concurrency``; default the backend's ``BackendSpec.item_concurrency``:
16 for a server or vLLM, 1 for a model on one device): worker threads answer items, and the main
thread alone scores open answers and appends records, one whole line per ``write`` plus ``fsync``,
so a kill -9 leaves at most one torn last line (dropped on resume) and never a record twice. The
records are those of a serial run in another order (``timings`` and ``servers`` aside), and the
summary, computed over records sorted by item, is the same. With a model loaded in this process,
concurrent items' calls are merged into its batches (:func:`clueweaver.evaluation.systems.build_reader`).

The systems and their readers are in :mod:`clueweaver.evaluation.systems` and
:mod:`clueweaver.systems.base`. Open questions are scored against references
(:mod:`clueweaver.evaluation.open_answers`).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Sequence

from tqdm import tqdm

from clueweaver.backends import SamplingConfig, backend_spec
from clueweaver.backends.batching import engine_tag
from clueweaver.backends.openai_http import recording_servers
from clueweaver.benchmarks import breakdowns, load_benchmark
from clueweaver.books.language import detect_language
from clueweaver.evaluation.judge import JudgeConfig
from clueweaver.evaluation.open_answers import OpenScorer, score_open_record
from clueweaver.evaluation.predictions import (
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
from clueweaver.evaluation.systems import SYSTEMS, build_reader, ignored_settings
from clueweaver.pipeline import DIRECT_OUTPUT_TOKENS, PipelineConfig
from clueweaver.retrieval.dense import resolve_auto
from clueweaver.systems.agentic import check_agentic_run
from clueweaver.systems.base import Reader, ReaderOutput

# The paper's per-benchmark presets; other sets use the general "broader" one.
DEFAULT_PRESETS = {
    "nocha": "nocha",
    "detectiveqa": "detectiveqa",
    "detectiveqa_zh": "detectiveqa",
    "infinitebench": "infinitebench",
    "infinitebench_qa": "infinitebench",
    "infinitebench_qa_zh": "infinitebench",
    "novelqa": "infinitebench",  # multiple choice over whole long novels, as InfiniteBench En.MC
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
    base_url: str | list[str] | None = None  # openai backend: one server, or several sharing the calls
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
    scoring_encoder: str | None = None  # embedding cosine of open answers; independent of ``encoder``
    agent: dict | None = (
        None  # agentic systems' limits over their defaults {max_steps: 4, ...}; None: older runs match
    )
    item_concurrency: int | None = None  # items answered at once; None: the backend's default. Not identity

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
        "scoring_encoder",
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
        if isinstance(self.base_url, (list, tuple)):  # one server stays a string, as older runs recorded it
            self.base_url = self.base_url[0] if len(self.base_url) == 1 else list(self.base_url)
        if self.item_concurrency is not None and self.item_concurrency < 1:
            raise EvalError(f"item concurrency must be 1 or more, got {self.item_concurrency}")

    def workers(self) -> int:
        """Items answered at once: ``item_concurrency``, else the backend's default."""
        return self.item_concurrency or backend_spec(self.backend).item_concurrency

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
        """The system plus whatever sets this run apart from the default configuration, less the
        settings the system does not read (``ignored_settings``)."""
        ignored = ignored_settings(self.system, self.pipeline_config())
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
            if name not in UNLABELLED_PIPELINE_SETTINGS and name not in ignored
        ]
        chrono = "" if "chrono" in ignored else self.pipeline_config().chrono.label()  # its ablations
        parts += [chrono] if chrono else []
        for role in ("model", "finder", "interpreter", "finder_adapter", "interpreter_adapter"):
            if getattr(self, role) and role not in ignored:
                parts.append(f"{role}={Path(getattr(self, role)).name}")
        return " ".join(parts)

    def default_output(self) -> Path:
        """``eval_runs/BENCHMARK-SYSTEM-HASH``: the same command finds (and resumes) its own run."""
        digest = hashlib.sha1(json.dumps(self.identity(), sort_keys=True).encode()).hexdigest()[:8]
        return Path("eval_runs") / f"{self.benchmark}-{self.system}-{digest}"


def _identity_fields(item, system: str) -> dict:
    """What names the item in its record; ``groups``: its values of the metadata fields its
    benchmark reports accuracy by (NovelQA's Complexity and Aspect), when it has any."""
    groups = {name: str(item.metadata[name]) for name in breakdowns(item.benchmark) if name in item.metadata}
    return {
        "item_id": item.item_id,
        "benchmark": item.benchmark,
        "book_id": item.book_id,
        "system": system,
        "kind": item.question.kind,
        "pair_id": item.pair_id,
        "answer": item.answer,
        **({"groups": groups} if groups else {}),
    }


def skipped_record(item, system: str) -> dict:
    return {**_identity_fields(item, system), "skipped": SKIPPED_UNLABELLED}


def scored_record(item, system: str, output: ReaderOutput, total_seconds: float, servers: Sequence[str] = ()) -> dict:
    """The item's record; ``servers``: the URL of the server behind each of its calls, if any."""
    served = {"servers": dict(sorted(Counter(servers).items()))} if servers else {}
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
        **served,
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
        reader = built = reader_factory(config) if reader_factory else build_reader(config, config.workers())
    if any(item.labelled and item.question.is_open for item in pending):
        scorer = OpenScorer.for_run(config.scoring_encoder, config.judge, output)
    try:
        books = {"languages": book_languages(config, benchmark, items), "readings": book_readings(benchmark, items)}
        write_run_file(output, config.label or config.default_label(), dataclasses.asdict(config), **books)
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


def book_readings(benchmark, items: list) -> dict[str, dict]:
    """How each book of the run whose file was not read as plain UTF-8 was read, by book ID: its codec,
    whether that was detected, and which bytes were replaced; a reading nobody chose is named with the run."""
    books = {item.book_id: benchmark.narrative(item) for item in items}
    return {
        book: {"encoding": n.encoding, "detected": n.encoding_detected, "replaced": n.encoding_warning}
        for book, n in books.items()
        if n.encoding_detected or n.encoding_warning
    }


def _check_segment_sources(config: EvalConfig, benchmark, pending: list) -> None:
    """Every book still to read has what the system needs (the Finder's segment source, ChronoRAG's
    encoder and index: ``SystemSpec.check_ready``), checked before any model loads or the run file
    is written."""
    pipeline = config.pipeline_config()
    books = {item.book_id: item for item in pending if item.labelled}
    for item in books.values():
        SYSTEMS[config.system].check_ready(config, pipeline, benchmark.narrative(item))


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
    """Ask the reader about each pending item, ``config.workers()`` at a time; here, in one thread,
    each answer becomes a record (open answers scored by the scorer) appended as soon as it comes."""
    reader, scorer = answerers

    def ask(item) -> tuple:
        if not item.labelled:
            return item, None, 0.0, ()
        narrative = benchmark.narrative(item)
        engine_tag.set(item.item_id)  # the generation engine's stats say which items shared a call
        started = time.perf_counter()
        with recording_servers() as servers:
            answer = reader(narrative, item.question, max_paragraph=item.reading_limit(narrative))
        return item, answer, time.perf_counter() - started, tuple(servers)

    workers = config.workers()
    answered = map(ask, pending) if workers == 1 else _concurrently(ask, pending, workers)
    with tqdm(
        total=total,
        initial=done,
        desc=f"eval {config.system} on {config.benchmark}",
        unit="item",
        disable=not progress,
    ) as bar:
        for item, answer, seconds, servers in answered:
            if answer is None:
                log.append(skipped_record(item, config.system))
            else:
                record = scored_record(item, config.system, answer, seconds, servers)
                log.append(
                    score_open_record(record, item, scorer, benchmark.narrative(item))
                    if item.question.is_open
                    else record
                )
                if traces is not None and answer.trace is not None:
                    traces.append(item.item_id, answer.trace)
            bar.update()


def _concurrently(ask: Callable, items: list, workers: int) -> Iterator:
    """``ask(item)`` of each item on ``workers`` threads, yielded as each finishes.

    A book's first item is answered before its other items start: what a reader builds for a book
    on first use (its retrieval index, its ChronoRAG graph) is built once, by that item, instead of
    by several items racing. When an item fails, no further item starts, those already started
    finish and are yielded (their work is kept), and then the failure is raised."""
    later: dict[str, list] = {}
    first = []
    for item in items:
        if item.book_id in later:
            later[item.book_id].append(item)
        else:
            later[item.book_id] = []
            first.append(item)
    with ThreadPoolExecutor(workers, thread_name_prefix="eval-item") as pool:
        running = {pool.submit(ask, item): item for item in first}
        failure = None
        try:
            while running:
                finished, _ = wait(running, return_when=FIRST_COMPLETED)
                for future in finished:
                    item = running.pop(future)
                    if future.cancelled():
                        continue
                    if future.exception() is not None:
                        failure = failure or future.exception()
                        for other in running:
                            other.cancel()
                        continue
                    if failure is None:  # the book is ready for its other items
                        running.update(
                            {pool.submit(ask, next_item): next_item for next_item in later.pop(item.book_id, [])}
                        )
                    yield future.result()
        finally:
            for future in running:  # the consumer stopped early (an append failed, Ctrl-C): start no more
                future.cancel()
        if failure is not None:
            raise failure
