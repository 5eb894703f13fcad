"""Readers: what answers one question about one narrative for the evaluation runner, and the
record fields every system's answer becomes (:class:`ReaderOutput`).

The pipeline's answers (ClueWeaver, the direct reader) become records through
:func:`reader_output`; the readers without a Finder (:class:`PacketReader`: the retrieval
baselines ``rag-*``, which rank paragraphs and pack the best ones to the preset's budget, and
ChronoRAG's in :mod:`clueweaver.systems.chronorag`) hand one packet to the pipeline's Interpreter
stage. A system is one entry of :mod:`clueweaver.evaluation.systems`.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable, Protocol, Sequence

from clueweaver.books.narrative import Narrative
from clueweaver.core.errors import EvalError
from clueweaver.pipeline import Result, with_total
from clueweaver.pipeline.trace import warnings_for
from clueweaver.protocol.question import Question
from clueweaver.retrieval import get_index, ranking_from_scores
from clueweaver.retrieval.ranking import lexical_queries
from clueweaver.segments.packing import Packet, pack
from clueweaver.segments.segmenter import Segment, get_preset

RAG_RANKINGS = {"rag-bm25": "bm25", "rag-dense": "dense", "rag-hybrid": "hybrid"}


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


class PacketReader:
    """A reader without a Finder: it makes one evidence packet for the question (``packet``, in
    a subclass) and hands it to ``interpret`` (the Interpreter stage); the time the packet took is
    the record's ``retrieve`` stage."""

    def __init__(self, interpret: Interpret) -> None:
        self.interpret = interpret

    def packet(self, narrative: Narrative, question: Question, max_paragraph: int | None) -> tuple[Packet, dict]:
        """The packet, and the record details saying how it was made."""
        raise NotImplementedError

    def __call__(self, narrative: Narrative, question: Question, *, max_paragraph: int | None = None) -> ReaderOutput:
        started = time.perf_counter()
        packet, details = self.packet(narrative, question, max_paragraph)
        retrieve_seconds = time.perf_counter() - started
        output = self.interpret(narrative, question, packet)
        output.timings = {"retrieve": retrieve_seconds, **output.timings}
        output.details = {
            "packet_paragraphs": len(packet.paragraph_ids),
            "packet_chars": packet.chars,
            **details,
            **output.details,
        }
        return output


class RetrievalReader(PacketReader):
    """The rag-* baselines: rank paragraphs, pack the top ones to the preset's budget, and hand
    the packet to ``interpret`` (the Interpreter stage, without a Finder)."""

    def __init__(
        self,
        ranking: str,
        preset,
        interpret: Interpret,
        *,
        encoder="auto",
        cache_dir=None,
        token_budget=None,
        language: str | None = None,
    ):
        if ranking not in RAG_RANKINGS.values():
            raise EvalError(f"unknown ranking {ranking!r}; use {', '.join(RAG_RANKINGS.values())}")
        super().__init__(interpret)
        self.ranking, self.preset = ranking, get_preset(preset)
        # BM25 needs no dense vectors: do not embed the book for it
        self.encoder = None if ranking == "bm25" else encoder
        self.cache_dir, self.token_budget, self.language = cache_dir, token_budget, language

    def packet(self, narrative: Narrative, question: Question, max_paragraph: int | None) -> tuple[Packet, dict]:
        index = get_index(narrative, self.encoder, cache_dir=self.cache_dir, language=self.language)
        ranked = rank_paragraphs(index, question, self.ranking, max_paragraph=max_paragraph)
        return retrieval_packet(narrative, ranked, self.preset, self.token_budget), {}


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
    if trace.get("query"):  # the query writer's text, what retrieval added to the question
        details["query"] = {key: trace["query"][key] for key in ("mode", "text")}
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
