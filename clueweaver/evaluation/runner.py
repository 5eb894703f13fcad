"""``clueweaver eval``: run one system over a benchmark, one durable record per item, resumable.

A *reader* answers one question about one narrative and says what it did
(:class:`ReaderOutput`: the normalized answer, the parse flags, the rationale's citations split
against the evidence it was shown, that evidence's paragraph IDs, per-stage seconds, the raw
outputs). The runner knows nothing of models: it loads the benchmark, skips what the run folder
already holds, asks the reader about every remaining labelled item, appends each record to
``predictions.jsonl`` before the next item starts, and writes the summary.

Systems: ``clueweaver`` (Finder + Interpreter, Algorithm 1), ``direct`` (the tokenizer-exact
end-to-end reader) and ``rag-bm25`` / ``rag-dense`` / ``rag-hybrid`` (the top paragraphs of one
ranking packed to the preset's character budget, then the Interpreter; no Finder). Open questions
are scored against references (:mod:`clueweaver.evaluation.open_answers`).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Protocol, Sequence

from tqdm import tqdm

from clueweaver.agents import load_agents
from clueweaver.backends import SamplingConfig
from clueweaver.benchmarks import load_benchmark
from clueweaver.errors import ClueWeaverError
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
from clueweaver.narrative import Narrative
from clueweaver.packing import Packet, pack
from clueweaver.pipeline import DIRECT_OUTPUT_TOKENS, DirectReader, PipelineConfig, Result, with_total
from clueweaver.pipeline.steps import evidence_token_budget
from clueweaver.pipeline.trace import warnings_for
from clueweaver.protocol.question import Question
from clueweaver.retrieval import get_index, ranking_from_scores
from clueweaver.retrieval.ranking import lexical_queries
from clueweaver.segment import Segment, get_preset

SYSTEMS = ("clueweaver", "direct", "rag-bm25", "rag-dense", "rag-hybrid")
RAG_RANKINGS = {"rag-bm25": "bm25", "rag-dense": "dense", "rag-hybrid": "hybrid"}
# The paper's per-benchmark presets; other sets use the general "broader" one.
DEFAULT_PRESETS = {
    "nocha": "nocha",
    "detectiveqa": "detectiveqa",
    "infinitebench": "infinitebench",
    "longbench_v2": "longbench_v2",
}
FALLBACK_PRESET = "broader"
DIRECT_BUDGETS = ("32k", "128k")  # the direct reader's named input budgets (see clueweaver.pipeline)


@dataclass
class ReaderOutput:
    """What a reader returns for one item. ``cited_ids`` / ``invalid_ids`` are the rationale's
    paragraph IDs inside / outside ``packet_ids`` (the evidence shown to the answering model)."""

    prediction: str | None
    format_valid: bool
    answer_legal: bool
    rationale: str
    cited_ids: tuple[int, ...]
    invalid_ids: tuple[int, ...]
    packet_ids: tuple[int, ...]
    timings: dict[str, float] = field(default_factory=dict)
    outputs: dict[str, str] = field(default_factory=dict)
    details: dict = field(default_factory=dict)
    trace: dict | None = None  # the full trace, written only with ``save_traces``

    @classmethod
    def from_parse(cls, parsed, packet_ids: Sequence[int], **extra) -> "ReaderOutput":
        """From the protocol parser's ``ParseResult`` of the final answer, parsed against
        ``packet_ids``."""
        return cls(
            prediction=parsed.answer,
            format_valid=parsed.format_valid,
            answer_legal=parsed.answer_legal,
            rationale=parsed.rationale,
            cited_ids=tuple(parsed.cited_ids),
            invalid_ids=tuple(parsed.invalid_ids),
            packet_ids=tuple(packet_ids),
            **extra,
        )


class Reader(Protocol):
    """Answers one question about one narrative, reading no paragraph after ``max_paragraph``."""

    def __call__(
        self, narrative: Narrative, question: Question, *, max_paragraph: int | None = None
    ) -> ReaderOutput: ...


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
    )
    # PipelineConfig settings that have their own field here
    OWN_FIELDS = ("preset", "use_finder", "self_calibration", "encoder", "cache_dir")

    def __post_init__(self) -> None:
        if self.system not in SYSTEMS:
            raise EvalError(f"unknown system {self.system!r}; choose one of {', '.join(SYSTEMS)}")
        if self.system != "clueweaver" and not self.use_finder:
            raise EvalError(f"--no-finder applies to the clueweaver system only (system {self.system} has no Finder)")
        if self.preset is None:
            self.preset = DEFAULT_PRESETS.get(self.benchmark, FALLBACK_PRESET)
        clash = sorted(set(self.pipeline) & set(self.OWN_FIELDS))
        if clash:
            raise EvalError(
                f"pipeline settings {', '.join(clash)} have their own options (--preset, --no-finder, ...); set them "
                "there"
            )
        self.pipeline_config()  # reject an unknown preset or setting before anything loads
        JudgeConfig.from_dict(self.judge)
        self.direct_budget = str(self.direct_budget)
        if self.direct_budget not in DIRECT_BUDGETS and not self.direct_budget.isdigit():
            raise EvalError(
                f"direct budget {self.direct_budget!r}: use {' or '.join(DIRECT_BUDGETS)} or a number of tokens"
            )
        if self.path is not None:
            self.path = str(Path(self.path).resolve())
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

    built = scorer = None
    if reader is None and any(item.labelled for item in pending):
        reader = built = (reader_factory or build_reader)(config)
    if any(item.labelled and item.question.is_open for item in pending):
        scorer = OpenScorer.for_run(config.encoder, config.judge, output)
    try:
        write_run_file(output, config.label or config.default_label(), dataclasses.asdict(config))
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


# --- retrieval baselines ------------------------------------------------------------------------


def rank_paragraphs(
    index, question: Question, ranking: str, *, max_paragraph: int | None = None
) -> list[tuple[int, float]]:
    """Paragraphs best first for the question and its options, asked as the index's ranking asks
    them (``RankingConfig.query``: one joined query by default), by ``bm25``, ``dense`` (cosine)
    or ``hybrid`` (the segmenter's fused ranking)."""
    queries = lexical_queries(question, index.config.query)
    if ranking == "bm25":
        return index.bm25_rank(queries, max_paragraph=max_paragraph)
    if ranking == "hybrid":
        return index.rank_question(question, max_paragraph=max_paragraph)
    if ranking == "dense":
        scores = index.dense_scores(queries)
        if not scores:
            raise EvalError("rag-dense needs a dense encoder: pass --encoder (e.g. minilm) with one installed")
        limit = len(index.narrative) if max_paragraph is None else max_paragraph + 1
        return ranking_from_scores(sum(s[:limit] for s in scores))
    raise EvalError(f"unknown ranking {ranking!r}; use bm25, dense or hybrid")


def retrieval_packet(narrative: Narrative, ranking: Sequence[tuple[int, float]], preset, token_budget=None):
    """The top paragraphs of ``ranking`` packed in narrative order within the preset's character
    budget (``B_c``), the same budget the Finder's packet gets, or within ``token_budget`` (tokens,
    counter; see ``pack``); no segment cap, no neighbours.

    Candidates are taken until they hold twice the budget, so short paragraphs lower in the
    ranking can fill what a long one left."""
    preset = get_preset(preset)
    budget, measure = token_budget or (preset.char_budget, len)
    candidates, size = [], 0
    for paragraph_id, score in ranking:
        if size > 2 * budget:
            break
        candidates.append(Segment.span(paragraph_id, paragraph_id, "retrieval", score, (paragraph_id,)))
        size += measure(narrative[paragraph_id].text)
    settings = preset.with_overrides(max_selected=max(1, len(candidates)), neighbours=0)
    return pack(narrative, candidates, settings, token_budget=token_budget)


Interpret = Callable[[Narrative, Question, Packet], ReaderOutput]


class RetrievalReader:
    """The rag-* baselines: rank paragraphs, pack the top ones to the preset's budget, and hand
    the packet to ``interpret`` (the Interpreter stage, without a Finder)."""

    def __init__(
        self, ranking: str, preset, interpret: Interpret, *, encoder="auto", cache_dir=None, token_budget=None
    ):
        if ranking not in RAG_RANKINGS.values():
            raise EvalError(f"unknown ranking {ranking!r}; use {', '.join(RAG_RANKINGS.values())}")
        self.ranking, self.preset, self.interpret = ranking, get_preset(preset), interpret
        # BM25 needs no dense vectors: do not embed the book for it
        self.encoder = None if ranking == "bm25" else encoder
        self.cache_dir, self.token_budget = cache_dir, token_budget

    def __call__(self, narrative: Narrative, question: Question, *, max_paragraph: int | None = None) -> ReaderOutput:
        started = time.perf_counter()
        index = get_index(narrative, self.encoder, cache_dir=self.cache_dir)
        ranked = rank_paragraphs(index, question, self.ranking, max_paragraph=max_paragraph)
        packet = retrieval_packet(narrative, ranked, self.preset, self.token_budget)
        retrieve_seconds = time.perf_counter() - started
        output = self.interpret(narrative, question, packet)
        output.timings = {"retrieve": retrieve_seconds, **output.timings}
        output.details = {
            "packet_paragraphs": len(packet.paragraph_ids),
            "packet_chars": packet.chars,
            **output.details,
        }
        return output


def reader_output(result) -> ReaderOutput:
    """The record fields of a pipeline ``Result`` (ClueWeaver, direct reader or a rag baseline).

    When no Interpreter output could be read the pipeline returns a flagged fallback label; that
    is not the model's answer, so the prediction is None (scored wrong) and the fallback label is
    kept in ``details``: otherwise an unreadable output would score 50% on claim sets."""
    trace = result.trace
    interpretation = trace["interpreter"]
    outputs = {"interpreter": interpretation["provisional"]["attempts"][-1]["output"]}
    if interpretation.get("calibration"):
        outputs["calibration"] = interpretation["calibration"]["attempts"][-1]["output"]
    details = {
        "answer_source": result.answer_source,
        "fallback_answer": result.answer if result.fallback else None,
        "calibration_triggered": interpretation["calibration_triggered"],
        "calibration_changed": result.calibration_changed,
        "retried": [
            name for name in ("provisional", "calibration") if (interpretation.get(name) or {}).get("retried")
        ],
        "packet_paragraphs": len(result.packet.paragraph_ids),
        "packet_chars": result.packet.chars,
        "tokens": trace["tokens"]["total"],
        "warnings": trace.get("warnings", []),
    }
    if "segment_source" in trace:  # where the segments came from, and each segment's source
        details["segment_source"] = {**trace["segment_source"], "segments": [s["source"] for s in trace["segments"]]}
    if "finder" in trace:
        details["finder"] = {
            key: trace["finder"][key] for key in ("segments", "kept", "unparseable", "prompt_too_long", "fallback")
        }
    if "truncation" in trace:
        details["truncation"] = trace["truncation"]
    return ReaderOutput(
        prediction=None if result.fallback else result.answer,
        format_valid=result.format_valid,
        answer_legal=result.answer_legal,
        rationale=result.rationale,
        cited_ids=tuple(result.citations),
        invalid_ids=tuple(result.invalid_citations),
        packet_ids=tuple(result.packet.paragraph_ids),
        timings={stage: seconds for stage, seconds in trace["timings"].items() if stage != "total"},
        outputs=outputs,
        details=details,
        trace=trace,
    )


def interpreter_stage(pipeline, system: str) -> Interpret:
    """The pipeline's Interpreter stage (with self-calibration when on) over a given packet."""

    def interpret(narrative: Narrative, question: Question, packet) -> ReaderOutput:
        interpretation = pipeline.interpret(question, packet)
        trace = {
            "system": system,
            "packet": packet.to_dict(),
            "interpreter": interpretation.to_dict(),
            "tokens": with_total(interpretation.tokens()),
            "timings": dict(interpretation.timings),
            "warnings": warnings_for(interpretation),
        }
        return reader_output(Result.from_interpretation(system, interpretation, packet, trace))

    return interpret


class PipelineReader:
    """A reader over loaded agents; ``close`` frees their models."""

    def __init__(self, answer: Callable[..., ReaderOutput], agents):
        self._answer, self.agents = answer, agents

    def __call__(self, narrative: Narrative, question: Question, *, max_paragraph: int | None = None) -> ReaderOutput:
        return self._answer(narrative, question, max_paragraph=max_paragraph)

    def close(self) -> None:
        self.agents.close()


def build_reader(config: EvalConfig) -> PipelineReader:
    """The reader of ``config.system`` on the inference engine: models loaded once per run (the
    Interpreter alone for ``direct`` and ``rag-*``), never the offline smoke model."""
    given = (("base_url", config.base_url), ("tokenizer", config.tokenizer), ("device", config.device))
    options = {key: value for key, value in given if value}
    interpreter = config.interpreter or config.model
    if config.system == "clueweaver":
        agents = load_agents(
            config.finder or config.model,
            interpreter,
            backend=config.backend,
            finder_adapter=config.finder_adapter,
            interpreter_adapter=config.interpreter_adapter,
            options=options,
        )
    else:
        agents = load_agents(
            interpreter,
            interpreter,
            backend=config.backend,
            interpreter_adapter=config.interpreter_adapter,
            options=options,
        )
    pipeline = agents.pipeline(config.pipeline_config())

    if config.system == "clueweaver":

        def answer(narrative, question, *, max_paragraph=None):
            return reader_output(pipeline.answer(narrative, question, max_paragraph=max_paragraph))
    elif config.system == "direct":
        budget = int(config.direct_budget) if config.direct_budget.isdigit() else config.direct_budget
        try:
            direct = DirectReader(
                agents.interpreter, budget=budget, adapter=agents.interpreter_adapter,
                sampling=config.direct_sampling(), evidence_tokens=pipeline.config.context_tokens,
            )  # fmt: skip
        except ClueWeaverError:  # e.g. a served model whose tokens cannot be counted here
            agents.close()
            raise

        def answer(narrative, question, *, max_paragraph=None):
            return reader_output(direct.answer(narrative, question, max_paragraph=max_paragraph))
    else:
        answer = RetrievalReader(
            RAG_RANKINGS[config.system],
            pipeline.preset,
            interpreter_stage(pipeline, config.system),
            encoder=config.encoder,
            cache_dir=config.cache_dir,
            token_budget=evidence_token_budget(agents.interpreter, pipeline.config.context_tokens),
        )
    return PipelineReader(answer, agents)
