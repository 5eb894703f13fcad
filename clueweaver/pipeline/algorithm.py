"""Algorithm 1: segment, find (one batched Finder call, or several with progress), pack, interpret, re-check.

``ClueWeaver.answer(narrative, question)`` has the model write search words first when the query
writer is on (``pipeline.query``), selects the candidate segments (the segmenter over the
retrieval index, the book's world-model records, or segments passed in), runs the Finder step,
packs the kept segments, interprets the packet (self-calibrating when tau(q) fires) and returns a
``Result`` whose trace records every stage.

A Finder output that cannot be read keeps its segment (recall first: a dropped segment is never
read again, while an extra one is only filtered by the packer); when the Finder keeps nothing, the
retrieved segments are packed as in the no-Finder ablation (the Interpreter must commit to an
answer, and retrieval's best guess beats an empty packet).
"""

from __future__ import annotations

import dataclasses
import functools
import time
from collections.abc import Callable

from clueweaver.backends.base import GenerationBackend, evidence_token_budget
from clueweaver.books.narrative import Narrative, NarrativeError, reading_limit
from clueweaver.pipeline.config import PipelineConfig
from clueweaver.pipeline.query import NO_QUERY_TOKENS, WrittenQuery, check_query_writer, write_query
from clueweaver.pipeline.results import FinderStep, FinderVerdict, Interpretation, InterpreterPass, Result, with_total
from clueweaver.pipeline.steps import check_answerable, interpreter_pass
from clueweaver.pipeline.trace import ProgressCallback, Stages, trace_head, warnings_for
from clueweaver.protocol.calibration import calibration_cues, needs_self_calibration
from clueweaver.protocol.prompts import calibration_messages, finder_messages, interpreter_messages
from clueweaver.protocol.query_writer import QUERY_WRITER_OFF
from clueweaver.protocol.question import Question
from clueweaver.protocol.text import word_count
from clueweaver.retrieval import RetrievalIndex, book_language, get_index, question_language
from clueweaver.segments.packing import Packet, pack
from clueweaver.segments.segmenter import Preset, Segment, second_round_segments
from clueweaver.sources import Candidates, SourceRequest, candidate_segments

# Stage names, in order: keys of trace["timings"] (each always present, 0.0 when skipped) and the
# ``stage`` argument of progress callbacks. ``query`` runs only with the query writer on.
STAGES = ("query", "index", "segment", "finder", "pack", "interpret", "calibrate")


def _given_segments(narrative: Narrative, segments: list[Segment], last: int) -> Candidates:
    """Candidate segments from another source, in narrative order, none past the reading limit."""
    segments = sorted(segments, key=lambda s: s.start)
    if not segments:
        raise ValueError("answer(segments=...): no candidate segments given")
    beyond = [s.end for s in segments if s.end > last]
    if beyond:
        raise NarrativeError(
            f"{narrative.title}: given segments reach paragraph {max(beyond)}, past the reading limit {last}"
        )
    return Candidates(segments, "given")


def _found_by_round(step: FinderStep, packet: Packet) -> dict[str, list[int]]:
    """The packet's paragraphs by the Finder round whose segment brought them (neighbours the packer
    added around citations belong to no round)."""
    round_of = {i: v.round for v in step.verdicts for i in v.segment.paragraph_ids}
    found: dict[str, list[int]] = {}
    for i in packet.paragraph_ids:
        if i in round_of:
            found.setdefault(str(round_of[i]), []).append(i)
    return found


class ClueWeaver:
    """Finder + Interpreter over one or two backends.

    The same backend may serve both agents (one model, or one base model with two LoRA adapters
    named by ``config.finder_adapter`` / ``config.interpreter_adapter``). Keyword ``overrides``
    replace fields of ``config`` (``ClueWeaver(backend, preset="nocha", use_finder=False)``).
    A query writer on a backend that only stands in for a model is refused here, before any
    question is read.
    """

    def __init__(
        self,
        finder_backend: GenerationBackend,
        interpreter_backend: GenerationBackend | None = None,
        *,
        config: PipelineConfig | None = None,
        **overrides,
    ) -> None:
        config = config or PipelineConfig()
        self.config = dataclasses.replace(config, **overrides) if overrides else config
        self.finder_backend = finder_backend
        self.interpreter_backend = interpreter_backend or finder_backend
        check_query_writer(self.config.query_writer, finder_backend)

    @property
    def preset(self) -> Preset:
        return self.config.preset

    # stages ------------------------------------------------------------------------------------

    def find(
        self,
        narrative: Narrative,
        question: Question,
        segments: list[Segment],
        round: int = 1,
        report: Callable[[int, int], None] | None = None,
    ) -> list[FinderVerdict]:
        """The Finder over every segment in ONE batched generate call, or in calls of
        ``config.finder_batch`` segments; ``report(done, total)`` after each call."""
        conversations = [finder_messages(question, segment.render(narrative)) for segment in segments]
        size = self._finder_batch_size(len(conversations))
        generations = []
        for start in range(0, len(conversations), size):
            generations += self.finder_backend.generate(
                conversations[start : start + size], self.config.finder_sampling, adapter=self.config.finder_adapter
            )
            if report:
                report(len(generations), len(conversations))
        return [FinderVerdict.read(s, generation, round) for s, generation in zip(segments, generations)]

    def _finder_batch_size(self, segments: int) -> int:
        """Segments per Finder generate call: ``config.finder_batch``, or all of them at once."""
        return self.config.finder_batch or max(1, segments)

    def finder_calls(self, segments: int) -> int:
        """How many generate calls ``find`` makes for ``segments`` segments."""
        return -(-segments // self._finder_batch_size(segments))

    def interpret(
        self, question: Question, packet: Packet, *, progress_callback: ProgressCallback | None = None
    ) -> Interpretation:
        """The Interpreter over a packet, then, when tau(q) fires and self-calibration is on, the
        self-calibration pass over the IDENTICAL packet text."""
        check_answerable(question)
        stages = Stages(("interpret", "calibrate"), progress_callback)
        with stages.stage("interpret") as info:
            provisional = self._pass(interpreter_messages(question, packet.text), question, packet, info)
        triggers = self.config.triggers
        always = self.config.always_calibrate
        triggered = self.config.self_calibration and needs_self_calibration(question, triggers, always)
        calibration, skipped = None, None
        if triggered and not provisional.legal:
            skipped = "the provisional output has no legal answer to re-check"
        elif triggered:
            with stages.stage("calibrate") as info:
                messages = calibration_messages(question, packet.text, provisional.final.generation.text)
                calibration = self._pass(messages, question, packet, info)
        cues = calibration_cues(question, triggers)
        return Interpretation(question, provisional, calibration, triggered, cues, skipped, stages.timings)

    def _pass(self, messages: list[dict], question: Question, packet: Packet, info: dict) -> InterpreterPass:
        """One Interpreter pass over ``packet`` with this reader's backend, sampling and adapter; its
        answer and whether it retried go to the stage's progress ``info``."""
        config = self.config
        done = interpreter_pass(
            self.interpreter_backend, messages, question, packet.paragraph_ids, config.interpreter_sampling,
            adapter=config.interpreter_adapter, retry=config.format_retry,
        )  # fmt: skip
        info.update(answer=done.final.parsed.answer, retried=len(done.attempts) > 1)
        return done

    # the whole algorithm -----------------------------------------------------------------------

    def answer(
        self,
        narrative: Narrative,
        question: Question,
        *,
        max_chapter: int | None = None,
        max_paragraph: int | None = None,
        index=None,
        segments: list[Segment] | None = None,
        progress_callback: ProgressCallback | None = None,
    ) -> Result:
        """Answer ``question`` about ``narrative`` reading no paragraph past the limits.

        ``index``: the book's retrieval index (built or loaded from the cache when None).
        ``segments``: candidate segments from another source (e.g. NWM records) instead of the
        segmenter; they must lie within the reading limit. ``progress_callback(stage, info)`` is
        called when each stage of ``STAGES`` starts and ends, then once with stage ``"done"``.
        With the query writer on, retrieval ranks with the question plus the written text; the
        Finder and the Interpreter read ``question`` as asked.
        """
        check_answerable(question)
        last = reading_limit(narrative, max_chapter, max_paragraph)
        stages = Stages(STAGES, progress_callback)
        written = self._write_query(narrative, question, stages, index, given=segments is not None)
        if segments is None:
            asked = written.retrieval_question(question) if written else question
            candidates, index = self._candidates(narrative, asked, stages, index, max_chapter, last)
        else:
            candidates = _given_segments(narrative, segments, last)
        step = self._finder_step(narrative, question, candidates.segments, stages, index, last)
        packet = self._pack(narrative, step, stages, last)
        interpretation = self.interpret(question, packet, progress_callback=progress_callback)
        stages.timings.update(interpretation.timings)
        timings = stages.finish()
        head = trace_head("clueweaver", narrative, question, (max_chapter, max_paragraph), last)
        trace = self._trace(head, narrative, written, candidates, step, packet, interpretation, timings)
        if index is not None:  # what "auto" and detection resolved to, beside the settings asked for
            trace["config"]["encoder_used"] = index.encoder.name if index.encoder is not None else "none"
            trace["config"]["language_used"] = index.language
            trace["question_language"] = question_language(question, index.language)
        return Result.from_interpretation("clueweaver", interpretation, packet, trace)

    def _write_query(
        self, narrative: Narrative, question: Question, stages: Stages, index, *, given: bool
    ) -> WrittenQuery | None:
        """The query writer's text for retrieval (None when it is off), written in the book's
        language: the index's, else the one set, else the one detected. Given segments leave no
        retrieval to steer: not run, and the trace says so."""
        mode = self.config.query_writer
        if mode == QUERY_WRITER_OFF:
            return None
        if given:
            return WrittenQuery.not_run(mode, "the candidate segments were given, so there is no retrieval to steer")
        with stages.stage("query") as info:
            language = index.language if index is not None else book_language(narrative, self.config.language)
            written = write_query(self.finder_backend, question, mode, language)
            info.update(words=word_count(written.text), tokens=written.tokens()["completion"])
        return written

    def _candidates(
        self, narrative: Narrative, question: Question, stages: Stages, index, max_chapter: int | None, last: int
    ) -> tuple[Candidates, RetrievalIndex]:
        """The segments the Finder reads, from the configured ``segment_source`` (the segmenter's
        over the retrieval index, built or loaded from the cache when None, the book's world-model
        records, or both, or a ChronoRAG index's passages); and the index. ``question`` is the one
        retrieval ranks with: with the query writer on, its text carries the written words, and
        every source reads it (``SourceRequest.question``)."""
        config = self.config
        if index is None:
            with stages.stage("index"):
                index = self._index(narrative)
        with stages.stage("segment") as info:
            request = SourceRequest(
                narrative, question, config.preset, index, max_chapter, last, config.exhaustive, config.encoder,
                config.nwm_dir, config.chrono, config.cache_dir,
            )  # fmt: skip
            candidates = candidate_segments(request, config.segment_source, fallback=config.segment_fallback)
            info["segments"] = len(candidates.segments)
        return candidates, index

    def _index(self, narrative: Narrative) -> RetrievalIndex:
        config = self.config
        return get_index(narrative, config.encoder, cache_dir=config.cache_dir, language=config.language)

    def _finder_step(
        self,
        narrative: Narrative,
        question: Question,
        segments: list[Segment],
        stages: Stages,
        index: RetrievalIndex | None,
        last: int,
    ) -> FinderStep:
        """The Finder's verdicts on the candidates and the segments kept (all of them without a
        Finder); with ``hops: 2``, a second round too (both inside the ``finder`` stage)."""
        if not self.config.use_finder:
            return FinderStep.skipped(segments)
        with stages.stage("finder") as info:
            started = time.perf_counter()
            report = functools.partial(stages.progress, "finder", unit="segments")
            verdicts = self.find(narrative, question, segments, report=report)
            step = FinderStep.read(verdicts, time.perf_counter() - started, self.finder_calls(len(segments)))
            if self.config.hops == 2:
                step = self._second_round(narrative, question, step, index or self._index(narrative), last, report)
            info.update(segments=len(step.verdicts), kept=len(step.kept), calls=step.calls)
        return step

    def _second_round(
        self,
        narrative: Narrative,
        question: Question,
        step: FinderStep,
        index: RetrievalIndex,
        last: int,
        report: Callable[[int, int], None],
    ) -> FinderStep:
        """The paragraphs the Finder cited seed one more retrieval over the paragraphs it has not
        read; the new segments go to the Finder in one more batched call. Not run (and said so in
        the trace's warnings) when the first round cited nothing to seed it. The question as asked
        joins the citations, not the query writer's text: evidence the Finder found, not a guess
        made before reading, steers this round."""
        if step.fallback or not step.cited_ids:
            return step.noting("second round: not run, the Finder cited no paragraph to seed it")
        started = time.perf_counter()
        ranking = index.rank_second_hop(question, step.cited_ids, max_paragraph=last)
        segments = second_round_segments(narrative, ranking, step.read_ids(), self.config.preset)
        if not segments:
            return step.noting("second round: not run, no unread paragraph matched the cited evidence")
        verdicts = self.find(narrative, question, segments, round=2, report=report)
        return step.plus_round(verdicts, time.perf_counter() - started, self.finder_calls(len(segments)))

    def _pack(self, narrative: Narrative, step: FinderStep, stages: Stages, last: int) -> Packet:
        """The kept segments packed in narrative order, the paragraphs the Finder cited first."""
        with stages.stage("pack") as info:
            kept = sorted(step.kept, key=lambda s: s.start)
            packet = pack(
                narrative, kept, self.config.preset, cited_ids=step.cited_ids, max_paragraph=last,
                token_budget=evidence_token_budget(self.interpreter_backend, self.config.context_tokens),
            )  # fmt: skip
            info.update(paragraphs=len(packet.paragraph_ids), chars=packet.chars)
        return packet

    def _trace(
        self,
        head: dict,
        narrative: Narrative,
        written: WrittenQuery | None,
        candidates: Candidates,
        step: FinderStep,
        packet: Packet,
        interpretation: Interpretation,
        timings: dict,
    ) -> dict:
        """The JSON trace: the head, the configuration with both models, the written query (None
        with the query writer off), where the segments came from, each candidate segment (with its
        source) and the Finder's verdict, the Finder step, the packet, the Interpreter's passes,
        tokens, timings and warnings."""
        query_tokens = written.tokens() if written else dict(NO_QUERY_TOKENS)
        query_warnings = [written.warning] if written and written.warning else []
        return {
            **head,
            "config": {
                **self.config.to_dict(),
                "finder_model": self.finder_backend.model,
                "interpreter_model": self.interpreter_backend.model,
            },
            "query": written.to_dict() if written else None,
            "segment_source": candidates.to_dict(),
            "segments": [
                {"index": n, "round": v.round, **v.segment.to_dict(narrative), "finder": v.to_dict()}
                for n, v in enumerate(step.verdicts)
            ],
            "finder": step.to_dict(),
            "packet": {**packet.to_dict(), "found_by_round": _found_by_round(step, packet)},
            "interpreter": interpretation.to_dict(),
            "tokens": with_total({"query": query_tokens, "finder": step.tokens(), **interpretation.tokens()}),
            "timings": timings,
            "warnings": [*query_warnings, *candidates.warnings, *step.warnings, *warnings_for(interpretation)],
        }
