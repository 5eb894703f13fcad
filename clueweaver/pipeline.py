"""Algorithm 1 as a product: segment, find (one batched Finder call), pack, interpret, re-check.

``ClueWeaver.answer(narrative, question)`` returns a ``Result``: the answer, its paragraph-cited
rationale, the citations that are valid against the evidence packet, and a JSON-serializable
trace of every stage (the server, the evaluation harness and ``clueweaver ask`` all read it).

Robustness rules, applied everywhere because models misbehave and one bad output must not sink a
question:
- model output never raises; the trace says what could not be read;
- a Finder output that cannot be read keeps its segment (recall first: a dropped segment is never
  read again, while an extra one is only filtered by the packer);
- when the Finder keeps nothing, the retrieved segments are packed as in the no-Finder ablation
  (the Interpreter must commit to an answer, and retrieval's best guess beats an empty packet);
- an Interpreter output without a legal answer is retried once with a format reminder; then the
  answer is a flagged fallback (the first label), never a silent guess;
- prompts that do not fit the model's window come back flagged by the backend and are reported
  in ``trace["warnings"]``, never truncated.

``DirectReader`` is the paper's end-to-end baseline: the head of the book cut to a token-exact
input budget, the Interpreter prompt over it, the same parser.
"""

from __future__ import annotations

import bisect
import dataclasses
import time
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from clueweaver.backends.base import Generation, GenerationBackend, SamplingConfig
from clueweaver.narrative import Narrative, NarrativeError
from clueweaver.packing import Packet, pack
from clueweaver.protocol.calibration import (
    DEFAULT_TRIGGERS,
    CalibrationTriggers,
    calibration_cues,
    needs_self_calibration,
)
from clueweaver.protocol.parse import ParseResult, parse_finder, parse_interpreter
from clueweaver.protocol.prompts import answer_format, calibration_messages, finder_messages, interpreter_messages
from clueweaver.protocol.question import Question, QuestionError
from clueweaver.segment import Preset, Segment, get_preset, segment_narrative

TRACE_VERSION = 1
# Stage names, in order: keys of trace["timings"] (each always present, 0.0 when skipped) and the
# ``stage`` argument of progress callbacks.
STAGES = ("index", "segment", "finder", "pack", "interpret", "calibrate")
DIRECT_STAGES = ("truncate", "interpret")
# The direct reader's input budgets (prompt tokens, chat template included) and output tokens:
# 30,592 + 128 = 30,720 tokens for the 32K local setting; 126,976 for the 128K setting.
DIRECT_INPUT_BUDGETS = {"32k": 30_592, "128k": 126_976}
DIRECT_OUTPUT_TOKENS = 128

# Finder statuses in the trace.
PARSED, UNPARSEABLE, PROMPT_TOO_LONG, NOT_RUN = "parsed", "unparseable", "prompt_too_long", "not_run"

ProgressCallback = Callable[[str, dict], None]


def _sampling(value: SamplingConfig | dict | None, default: SamplingConfig) -> SamplingConfig:
    """A mapping overrides the pipeline's default for that agent, not SamplingConfig's."""
    if value is None or isinstance(value, SamplingConfig):
        return value or default
    return SamplingConfig.from_dict({**dataclasses.asdict(default), **value})


def _world_model_segments(
    narrative: Narrative, question: Question, config, index, max_chapter: int | None, last: int
) -> list[Segment]:
    """Segments from the book's world-model records (or mixed with the plain ones) within the
    reading limit."""
    from clueweaver.nwm.segments import segments_from_source
    from clueweaver.nwm.store import NarrativeStore

    with NarrativeStore.for_narrative(narrative, data_dir=config.nwm_dir) as store:
        return segments_from_source(
            narrative, question, config.preset, source=config.segment_source, store=store, index=index,
            encoder=config.encoder, max_chapter=max_chapter, max_paragraph=last, exhaustive=config.exhaustive,
        )  # fmt: skip


@dataclass(frozen=True)
class PipelineConfig:
    """How ClueWeaver reads. Build from YAML with ``PipelineConfig.from_dict``.

    Token limits: the Finder's reason is one to three sentences (its length reward is full up to
    60 words), the Interpreter's two to five (full up to 120 words); the limits leave room for
    the tags and cut off rambling. Greedy decoding by default, as in evaluation.
    """

    preset: str | Preset = "detectiveqa"
    use_finder: bool = True  # False: the no-Finder ablation (pack the retrieved segments)
    self_calibration: bool = True  # False: the no-self-calibration ablation
    finder_adapter: str | None = None  # adapter names, when one base model serves both agents
    interpreter_adapter: str | None = None
    finder_sampling: SamplingConfig = SamplingConfig(max_new_tokens=128)
    interpreter_sampling: SamplingConfig = SamplingConfig(max_new_tokens=320)
    encoder: str | None = "auto"  # dense encoder of the retrieval index, when none is passed in
    cache_dir: str | None = None  # retrieval index cache
    exhaustive: bool = False  # tile the whole book instead of retrieving (one Finder call per window)
    triggers: CalibrationTriggers = DEFAULT_TRIGGERS  # tau(q)
    segment_source: str = "plain"  # "nwm": the world model's records; "mix": both (clueweaver/nwm)
    nwm_dir: str | None = None  # world-model stores (default: $CLUEWEAVER_CACHE/nwm)

    def __post_init__(self) -> None:
        object.__setattr__(self, "preset", get_preset(self.preset))
        if self.segment_source not in ("plain", "nwm", "mix"):
            raise ValueError(f"unknown segment source {self.segment_source!r}; use plain, nwm or mix")

    @classmethod
    def from_dict(cls, values: dict[str, Any] | None) -> PipelineConfig:
        """From a YAML/CLI mapping: sampling settings and triggers as nested mappings, the preset by
        name (or a mapping of overrides on top of ``base``); unknown keys are named."""
        values = dict(values or {})
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(values) - known)
        if unknown:
            raise ValueError(f"PipelineConfig: unknown settings {unknown}; known: {sorted(known)}")
        preset = values.get("preset")
        if isinstance(preset, dict):
            preset = dict(preset)
            values["preset"] = get_preset(preset.pop("base", "detectiveqa")).with_overrides(**preset)
        for name in ("finder_sampling", "interpreter_sampling"):
            if name in values:
                values[name] = _sampling(values[name], getattr(cls, name))
        if isinstance(values.get("triggers"), dict):
            values["triggers"] = CalibrationTriggers(**values["triggers"])
        return cls(**values)

    def to_dict(self) -> dict:
        return {
            "preset": dataclasses.asdict(self.preset),
            "use_finder": self.use_finder,
            "self_calibration": self.self_calibration,
            "finder_adapter": self.finder_adapter,
            "interpreter_adapter": self.interpreter_adapter,
            "finder_sampling": dataclasses.asdict(self.finder_sampling),
            "interpreter_sampling": dataclasses.asdict(self.interpreter_sampling),
            "encoder": self.encoder
            if isinstance(self.encoder, (str, type(None)))
            else getattr(self.encoder, "name", "custom"),
            "exhaustive": self.exhaustive,
            "triggers": self.triggers.families(),
        }


# --- records ------------------------------------------------------------------------------------


def _generation_fields(generation: Generation) -> dict:
    return {
        "prompt_tokens": generation.prompt_tokens,
        "completion_tokens": generation.completion_tokens,
        "finish_reason": generation.finish_reason,
        "error": generation.error,
    }


@dataclass(frozen=True)
class FinderVerdict:
    """The Finder's reading of one segment. ``kept``: the segment goes to the packer."""

    segment: Segment
    status: str  # parsed | unparseable | prompt_too_long | not_run
    verdict: str | None  # YES / NO when parsed
    kept: bool
    rationale: str = ""
    cited_ids: tuple[int, ...] = ()  # inside the segment
    invalid_ids: tuple[int, ...] = ()  # cited but not in the segment
    format_valid: bool = False
    output: str = ""
    generation: dict = field(default_factory=dict)

    @classmethod
    def read(cls, segment: Segment, generation: Generation) -> FinderVerdict:
        fields = _generation_fields(generation)
        if not generation.ok:
            return cls(segment, PROMPT_TOO_LONG, None, True, generation=fields)
        parsed = parse_finder(generation.text, allowed_ids=segment.paragraph_ids)
        if not parsed.answer_legal:
            return cls(segment, UNPARSEABLE, None, True, parsed.rationale, (), parsed.invalid_ids,
                       parsed.format_valid, generation.text, fields)  # fmt: skip
        yes = parsed.answer == "YES"
        return cls(
            segment, PARSED, parsed.answer, yes, parsed.rationale,
            parsed.cited_ids if yes else (), parsed.invalid_ids, parsed.format_valid, generation.text, fields,
        )  # fmt: skip

    def to_dict(self) -> dict:
        return {
            "status": self.status,
            "verdict": self.verdict,
            "kept": self.kept,
            "rationale": self.rationale,
            "cited_ids": list(self.cited_ids),
            "invalid_ids": list(self.invalid_ids),
            "format_valid": self.format_valid,
            "output": self.output,
            **self.generation,
        }


@dataclass(frozen=True)
class Attempt:
    """One Interpreter generation, parsed against the packet's paragraph IDs."""

    parsed: ParseResult
    generation: Generation
    reminder: bool  # the retry with a format reminder

    @property
    def legal(self) -> bool:
        return self.parsed.answer_legal

    def to_dict(self) -> dict:
        return {
            "output": self.generation.text,
            "answer": self.parsed.answer,
            "rationale": self.parsed.rationale,
            "cited_ids": list(self.parsed.cited_ids),
            "invalid_ids": list(self.parsed.invalid_ids),
            "format_valid": self.parsed.format_valid,
            "answer_legal": self.parsed.answer_legal,
            "format_reminder": self.reminder,
            **_generation_fields(self.generation),
        }


@dataclass(frozen=True)
class InterpreterPass:
    """The provisional pass or the self-calibration pass: one attempt, or two after a retry."""

    attempts: tuple[Attempt, ...]

    @property
    def final(self) -> Attempt:
        return self.attempts[-1]

    @property
    def legal(self) -> bool:
        return self.final.legal

    def to_dict(self) -> dict:
        return {
            "answer": self.final.parsed.answer,
            "retried": len(self.attempts) > 1,
            "attempts": [a.to_dict() for a in self.attempts],
        }


@dataclass(frozen=True)
class Interpretation:
    """What the Interpreter stage decided over one packet (used by ClueWeaver, the direct reader
    and the evaluation harness's retrieval baselines)."""

    question: Question
    provisional: InterpreterPass
    calibration: InterpreterPass | None
    calibration_triggered: bool
    calibration_cues: dict
    calibration_skipped: str | None  # why tau(q) fired but no pass ran
    timings: dict  # interpret, calibrate (seconds)

    @property
    def source(self) -> str:
        """Which output the answer comes from: calibration, provisional or fallback."""
        if self.calibration is not None and self.calibration.legal:
            return "calibration"
        return "provisional" if self.provisional.legal else "fallback"

    @property
    def fallback(self) -> bool:
        return self.source == "fallback"

    @property
    def chosen(self) -> ParseResult | None:
        if self.source == "fallback":
            return None
        return (self.calibration if self.source == "calibration" else self.provisional).final.parsed

    @property
    def answer(self) -> str:
        """A legal label; the question's first label when no output could be read (flagged)."""
        return self.chosen.answer if self.chosen else self.question.labels[0]

    @property
    def calibration_changed(self) -> bool:
        return (
            self.source == "calibration"
            and self.provisional.legal
            and (self.calibration.final.parsed.answer != self.provisional.final.parsed.answer)
        )

    def tokens(self) -> dict:
        return {
            "interpret": _token_sum(a.generation for a in self.provisional.attempts),
            "calibrate": _token_sum(a.generation for a in (self.calibration.attempts if self.calibration else ())),
        }

    def to_dict(self) -> dict:
        return {
            "provisional": self.provisional.to_dict(),
            "calibration": self.calibration.to_dict() if self.calibration else None,
            "calibration_triggered": self.calibration_triggered,
            "calibration_cues": self.calibration_cues,
            "calibration_skipped": self.calibration_skipped,
            "calibration_changed": self.calibration_changed,
            "answer_source": self.source,
        }


def with_total(tokens: dict) -> dict:
    """Token counts per stage, plus their ``total`` (prompt and completion)."""
    return {**tokens, "total": {key: sum(stage[key] for stage in tokens.values()) for key in ("prompt", "completion")}}


def _token_sum(generations) -> dict:
    generations = list(generations)
    return {
        "calls": len(generations),
        "prompt": sum(g.prompt_tokens for g in generations),
        "completion": sum(g.completion_tokens for g in generations),
    }


@dataclass
class Result:
    """The answer to one question. ``answer`` is always a legal label of the question; when no
    Interpreter output could be read it is the flagged fallback (``fallback=True``; evaluation
    should count it as the system's answer and report the flag in the format audit).
    ``citations`` are the rationale's paragraph IDs that are in the packet; ``invalid_citations``
    the ones that are not. ``trace`` is JSON-serializable (see ``README`` / docs)."""

    system: str  # "clueweaver" or "direct"
    question: Question
    answer: str
    rationale: str
    citations: tuple[int, ...]
    invalid_citations: tuple[int, ...]
    format_valid: bool
    answer_legal: bool
    fallback: bool
    answer_source: str  # calibration | provisional | fallback
    calibration_changed: bool
    packet: Packet
    trace: dict

    @classmethod
    def from_interpretation(cls, system: str, interpretation: Interpretation, packet: Packet, trace: dict) -> Result:
        chosen = interpretation.chosen
        return cls(
            system=system,
            question=interpretation.question,
            answer=interpretation.answer,
            rationale=chosen.rationale if chosen else "",
            citations=tuple(chosen.cited_ids) if chosen else (),
            invalid_citations=tuple(chosen.invalid_ids) if chosen else (),
            format_valid=bool(chosen and chosen.format_valid),
            answer_legal=chosen is not None,
            fallback=interpretation.fallback,
            answer_source=interpretation.source,
            calibration_changed=interpretation.calibration_changed,
            packet=packet,
            trace=trace,
        )

    def to_dict(self) -> dict:
        """The answer fields and the trace, ready for ``json.dumps``."""
        return {
            "system": self.system,
            "answer": self.answer,
            "rationale": self.rationale,
            "citations": list(self.citations),
            "invalid_citations": list(self.invalid_citations),
            "format_valid": self.format_valid,
            "answer_legal": self.answer_legal,
            "fallback": self.fallback,
            "answer_source": self.answer_source,
            "calibration_changed": self.calibration_changed,
            "trace": self.trace,
        }


# --- shared helpers -----------------------------------------------------------------------------


class _Stages:
    """Per-stage wall-clock timings, reported to the progress callback as each stage starts and ends."""

    def __init__(self, names: tuple[str, ...], callback: ProgressCallback | None):
        self.timings = {name: 0.0 for name in names}
        self.callback = callback
        self.started = time.perf_counter()

    @contextmanager
    def stage(self, name: str):
        info: dict = {}
        if self.callback:
            self.callback(name, {"status": "started"})
        began = time.perf_counter()
        yield info
        self.timings[name] = time.perf_counter() - began
        if self.callback:
            self.callback(name, {"status": "done", "seconds": round(self.timings[name], 4), **info})

    def finish(self) -> dict:
        timings = {name: round(seconds, 6) for name, seconds in self.timings.items()}
        timings["total"] = round(time.perf_counter() - self.started, 6)
        if self.callback:
            self.callback("done", {"status": "done", "seconds": timings["total"]})
        return timings


def check_answerable(question: Question) -> None:
    """The agents answer multiple-choice questions and TRUE/FALSE claims only."""
    if not isinstance(question, Question):
        raise TypeError(f"expected a clueweaver Question, got {type(question).__name__}")
    if question.is_open:
        raise QuestionError(
            f"open questions (free-text answers) cannot be answered by ClueWeaver's agents, which answer "
            f"multiple-choice questions and TRUE/FALSE claims only; give options or a claim: {question.text[:80]!r}"
        )


def reading_limit(narrative: Narrative, max_chapter: int | None, max_paragraph: int | None) -> int:
    """The last paragraph ID a reader may see (chapters up to ``max_chapter``, IDs up to ``max_paragraph``)."""
    last = narrative.last_paragraph_of_chapter(max_chapter)
    if max_paragraph is not None:
        if max_paragraph < 0:
            raise NarrativeError(f"{narrative.title}: paragraph limit {max_paragraph} leaves nothing to read")
        last = min(last, max_paragraph)
    if last < 0:
        raise NarrativeError(f"{narrative.title}: the reading limit leaves nothing to read")
    return last


def _trace_head(
    system: str, narrative: Narrative, question: Question, limits: tuple[int | None, int | None], last: int
) -> dict:
    """The fields every trace starts with: what was asked of which book, read up to where."""
    return {
        "version": TRACE_VERSION,
        "system": system,
        "question": {"text": question.text, "kind": question.kind, "options": dict(question.options)},
        "book": {
            "title": narrative.title,
            "book_id": narrative.book_id,
            "paragraphs": len(narrative),
            "chapters": len(narrative.chapters),
        },
        "reading_limit": {"max_chapter": limits[0], "max_paragraph": limits[1], "last_paragraph": last},
    }


def with_format_reminder(messages: list[dict], question: Question) -> list[dict]:
    """The same conversation with a format reminder closing the user message (the one retry)."""
    reminder = (
        f"\n\nReminder: reply with exactly <reason>...</reason> followed by {answer_format(question)}, "
        "with nothing before or after."
    )
    return [*messages[:-1], {**messages[-1], "content": messages[-1]["content"] + reminder}]


def interpreter_pass(
    backend: GenerationBackend,
    messages: list[dict],
    question: Question,
    allowed_ids,
    sampling: SamplingConfig,
    *,
    adapter: str | None = None,
    retry: bool = True,
) -> InterpreterPass:
    """One Interpreter pass; without a legal answer, one retry with a format reminder (not for a
    prompt that did not fit: the retry would be longer still)."""

    def attempt(conversation, reminder: bool) -> Attempt:
        generation = backend.generate([conversation], sampling, adapter=adapter)[0]
        return Attempt(parse_interpreter(generation.text, question, allowed_ids), generation, reminder)

    first = attempt(messages, False)
    if first.legal or not retry or not first.generation.ok:
        return InterpreterPass((first,))
    return InterpreterPass((first, attempt(with_format_reminder(messages, question), True)))


def _warnings_for(interpretation: Interpretation) -> list[str]:
    notes = []
    passes = [("interpreter", interpretation.provisional), ("self-calibration", interpretation.calibration)]
    for name, stage in passes:
        if stage is None:
            continue
        for attempt in stage.attempts:
            if not attempt.generation.ok:
                notes.append(f"{name}: {attempt.generation.error}")
        if len(stage.attempts) > 1:
            outcome = "read" if stage.legal else "still unreadable"
            notes.append(f"{name}: output had no legal answer; retried with a format reminder ({outcome})")
    if interpretation.calibration_skipped:
        notes.append(f"self-calibration skipped: {interpretation.calibration_skipped}")
    if interpretation.fallback:
        notes.append(f"no Interpreter output could be read: fallback answer {interpretation.answer} (flagged)")
    return notes


# --- ClueWeaver ---------------------------------------------------------------------------------


class ClueWeaver:
    """Finder + Interpreter over one or two backends.

    The same backend may serve both agents (one model, or one base model with two LoRA adapters
    named by ``config.finder_adapter`` / ``config.interpreter_adapter``). Keyword ``overrides``
    replace fields of ``config`` (``ClueWeaver(backend, preset="nocha", use_finder=False)``).
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

    @property
    def preset(self) -> Preset:
        return self.config.preset

    # stages ------------------------------------------------------------------------------------

    def find(self, narrative: Narrative, question: Question, segments: list[Segment]) -> list[FinderVerdict]:
        """The Finder over every segment in ONE batched generate call."""
        conversations = [finder_messages(question, segment.render(narrative)) for segment in segments]
        generations = self.finder_backend.generate(
            conversations, self.config.finder_sampling, adapter=self.config.finder_adapter
        )
        return [FinderVerdict.read(segment, generation) for segment, generation in zip(segments, generations)]

    def interpret(
        self, question: Question, packet: Packet, *, progress_callback: ProgressCallback | None = None
    ) -> Interpretation:
        """The Interpreter over a packet, then, when tau(q) fires and self-calibration is on, the
        self-calibration pass over the IDENTICAL packet text."""
        check_answerable(question)
        stages = _Stages(("interpret", "calibrate"), progress_callback)
        backend, sampling, adapter = (
            self.interpreter_backend,
            self.config.interpreter_sampling,
            self.config.interpreter_adapter,
        )
        with stages.stage("interpret") as info:
            provisional = interpreter_pass(
                backend,
                interpreter_messages(question, packet.text),
                question,
                packet.paragraph_ids,
                sampling,
                adapter=adapter,
            )
            info.update(answer=provisional.final.parsed.answer, retried=len(provisional.attempts) > 1)
        cues = calibration_cues(question, self.config.triggers)
        triggered = self.config.self_calibration and needs_self_calibration(question, self.config.triggers)
        calibration, skipped = None, None
        if triggered and not provisional.legal:
            skipped = "the provisional output has no legal answer to re-check"
        elif triggered:
            with stages.stage("calibrate") as info:
                messages = calibration_messages(question, packet.text, provisional.final.generation.text)
                calibration = interpreter_pass(
                    backend, messages, question, packet.paragraph_ids, sampling, adapter=adapter
                )
                info.update(answer=calibration.final.parsed.answer, retried=len(calibration.attempts) > 1)
        return Interpretation(question, provisional, calibration, triggered, cues, skipped, stages.timings)

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
        """
        check_answerable(question)
        last = reading_limit(narrative, max_chapter, max_paragraph)
        config = self.config
        stages = _Stages(STAGES, progress_callback)
        warnings: list[str] = []

        if segments is None:
            if index is None:
                with stages.stage("index"):
                    from clueweaver.retrieval import get_index

                    index = get_index(narrative, config.encoder, cache_dir=config.cache_dir)
            with stages.stage("segment") as info:
                if config.segment_source == "plain":
                    segments = segment_narrative(
                        narrative, question, config.preset, index=index, max_chapter=max_chapter,
                        max_paragraph=max_paragraph, exhaustive=config.exhaustive,
                    )  # fmt: skip
                else:
                    segments = _world_model_segments(narrative, question, config, index, max_chapter, last)
                info["segments"] = len(segments)
        else:
            segments = sorted(segments, key=lambda s: s.start)
            if not segments:
                raise ValueError("answer(segments=...): no candidate segments given")
            beyond = [s.end for s in segments if s.end > last]
            if beyond:
                raise NarrativeError(
                    f"{narrative.title}: given segments reach paragraph {max(beyond)}, past the reading limit {last}"
                )

        fallback = None
        if config.use_finder:
            with stages.stage("finder") as info:
                verdicts = self.find(narrative, question, segments)
                info.update(segments=len(verdicts), kept=sum(v.kept for v in verdicts))
            for verdict in verdicts:
                if verdict.status == PROMPT_TOO_LONG:
                    warnings.append(
                        f"finder: segment {verdict.segment.start}-{verdict.segment.end} kept unread: "
                        f"{verdict.generation['error']}"
                    )
            unreadable = sum(v.status == UNPARSEABLE for v in verdicts)
            if unreadable:
                warnings.append(
                    f"finder: {unreadable} of {len(verdicts)} outputs could not be read; their segments were kept "
                    "(recall first)"
                )
            kept = [v.segment for v in verdicts if v.kept]
            if not kept:
                fallback = "the Finder kept no segment: packed the retrieved segments (as without a Finder)"
                warnings.append(f"finder: {fallback}")
                kept = list(segments)
        else:
            verdicts = [FinderVerdict(segment, NOT_RUN, None, True) for segment in segments]
            kept = list(segments)

        with stages.stage("pack") as info:
            cited = sorted({i for v in verdicts if v.kept for i in v.cited_ids})
            packet = pack(
                narrative, sorted(kept, key=lambda s: s.start), config.preset, cited_ids=cited, max_paragraph=last
            )
            info.update(paragraphs=len(packet.paragraph_ids), chars=packet.chars)

        interpretation = self.interpret(question, packet, progress_callback=progress_callback)
        stages.timings.update(interpretation.timings)
        warnings.extend(_warnings_for(interpretation))
        timings = stages.finish()

        finder_generations = [v.generation for v in verdicts if v.generation]
        tokens = {
            "finder": {
                "calls": 1 if config.use_finder else 0,
                "prompt": sum(g["prompt_tokens"] for g in finder_generations),
                "completion": sum(g["completion_tokens"] for g in finder_generations),
            },
            **interpretation.tokens(),
        }
        trace = {
            **_trace_head("clueweaver", narrative, question, (max_chapter, max_paragraph), last),
            "config": {
                **config.to_dict(),
                "finder_model": self.finder_backend.model,
                "interpreter_model": self.interpreter_backend.model,
            },
            "segments": [
                {"index": n, **v.segment.to_dict(narrative), "finder": v.to_dict()} for n, v in enumerate(verdicts)
            ],
            "finder": {
                "ran": config.use_finder,
                "calls": tokens["finder"]["calls"],
                "segments": len(verdicts),
                "kept": sum(v.kept for v in verdicts),
                **{status: sum(v.status == status for v in verdicts) for status in (UNPARSEABLE, PROMPT_TOO_LONG)},
                "yes": sum(v.verdict == "YES" for v in verdicts),
                "no": sum(v.verdict == "NO" for v in verdicts),
                "cited_ids": cited,
                "fallback": fallback,
            },
            "packet": packet.to_dict(),
            "interpreter": interpretation.to_dict(),
            "tokens": with_total(tokens),
            "timings": timings,
            "warnings": warnings,
        }
        return Result.from_interpretation("clueweaver", interpretation, packet, trace)


# --- the direct reader ----------------------------------------------------------------------------


def _last_fitting(
    cost: Callable[[int], int],
    lo: int,
    cost_lo: int,
    hi: int,
    cost_hi: int,
    budget: int,
    position: Callable[[int], float],
    locate: Callable[[float], int],
) -> tuple[int, int, int]:
    """The largest ``k`` in ``[lo, hi)`` with ``cost(k) <= budget``, given ``cost(lo) <= budget <
    cost(hi)``, with its cost and the cost of ``k + 1``: interpolation on ``position`` (tokens grow
    about linearly with characters, so one or two probes land next to the answer), with a bisection
    step whenever a probe fails to halve the bracket. Every returned cost was counted, never
    estimated."""
    bisect_next = False
    while hi - lo > 1:
        if bisect_next:
            probe = (lo + hi) // 2
        else:
            share = (budget - cost_lo) / max(cost_hi - cost_lo, 1)
            probe = locate(position(lo) + share * (position(hi) - position(lo)))
        probe = min(max(probe, lo + 1), hi - 1)
        width = hi - lo
        tokens = cost(probe)
        if tokens <= budget:
            lo, cost_lo = probe, tokens
        else:
            hi, cost_hi = probe, tokens
        bisect_next = not bisect_next and hi - lo > width // 2
    return lo, cost_lo, cost_hi


@dataclass(frozen=True)
class Truncation:
    """The head of the book that fits: ``paragraphs`` whole paragraphs, then ``partial_chars``
    characters of the next one (0: none), rendered as ``packet``; ``prompt_tokens`` is the exact
    count of the Interpreter prompt over it."""

    packet: Packet
    paragraphs: int
    partial_chars: int
    prompt_tokens: int
    input_budget: int
    complete: bool  # the whole readable book fits

    def to_dict(self) -> dict:
        return {
            "paragraphs": self.paragraphs,
            "partial_chars": self.partial_chars,
            "prompt_tokens": self.prompt_tokens,
            "input_budget": self.input_budget,
            "complete": self.complete,
        }


class DirectReader:
    """The end-to-end baseline: the book's head, cut to a token-exact input budget, read by the
    Interpreter in one pass (no Finder, no self-calibration, no retry: the prompt is sized to the
    budget, and a reminder would overrun it).

    ``budget``: ``"32k"`` (30,592 prompt tokens), ``"128k"`` (126,976) or a number. The budget is
    lowered to the model's window minus the output tokens when the window is smaller. Tokens are
    counted by the backend with its real chat template.
    """

    def __init__(
        self,
        backend: GenerationBackend,
        *,
        budget: str | int = "32k",
        adapter: str | None = None,
        sampling: SamplingConfig | None = None,
    ) -> None:
        if isinstance(budget, str):
            if budget not in DIRECT_INPUT_BUDGETS:
                raise ValueError(
                    f"direct reader: unknown budget {budget!r}; use {', '.join(DIRECT_INPUT_BUDGETS)} or a number of "
                    "tokens"
                )
            budget = DIRECT_INPUT_BUDGETS[budget]
        if budget < 1:
            raise ValueError(f"direct reader: the input budget must be positive, got {budget}")
        self.backend = backend
        self.adapter = adapter
        self.sampling = sampling or SamplingConfig(max_new_tokens=DIRECT_OUTPUT_TOKENS)
        self.requested_budget = budget

    @property
    def input_budget(self) -> int:
        return min(self.requested_budget, self.backend.max_model_len - self.sampling.max_new_tokens)

    def _prompt(
        self, narrative: Narrative, question: Question, paragraphs: int, chars: int
    ) -> tuple[list[dict], Packet]:
        ids = list(range(paragraphs + (1 if chars else 0)))
        truncate = {paragraphs: chars} if chars else {}
        text = narrative.render(ids, truncate=truncate)
        packet = Packet(tuple(ids), text, [(0, ids[-1])] if ids else [], truncated=tuple(truncate))
        return interpreter_messages(question, text or "(nothing)"), packet

    def truncate(self, narrative: Narrative, question: Question, *, max_paragraph: int | None = None) -> Truncation:
        """The longest head of the book (up to ``max_paragraph``) whose prompt fits the budget."""
        budget = self.input_budget
        count = self.backend.count_tokens
        available = len(narrative) if max_paragraph is None else max_paragraph + 1
        starts = [0]
        for paragraph in narrative.paragraphs[:available]:
            starts.append(starts[-1] + len(paragraph.text) + 1)

        def cost(paragraphs: int, chars: int = 0) -> int:
            return count(self._prompt(narrative, question, paragraphs, chars)[0])

        overhead = count(interpreter_messages(question, "(nothing)"))
        if overhead > budget:
            raise ValueError(
                f"direct reader: the prompt without any text takes {overhead} tokens, over the budget of {budget}"
            )
        # Bracket the answer: probe where the overhead-to-budget line says it is, overshooting a
        # little, until a probe does not fit or the whole readable book does.
        lo, cost_lo, probe = 0, overhead, 0
        while True:
            ratio = starts[lo] / max(cost_lo - overhead, 1) if lo else 4.0  # characters per token
            target = starts[lo] + 1.1 * (budget - cost_lo) * ratio + 1
            probe = min(available, max(lo + 1, bisect.bisect_right(starts, target) - 1))
            tokens = cost(probe)
            if tokens > budget:
                hi, cost_hi = probe, tokens
                break
            lo, cost_lo = probe, tokens
            if probe == available:
                packet = self._prompt(narrative, question, probe, 0)[1]
                return Truncation(packet, probe, 0, tokens, budget, True)
        whole, whole_cost, next_cost = _last_fitting(
            cost, lo, cost_lo, hi, cost_hi, budget, lambda k: starts[k], lambda x: bisect.bisect_right(starts, x) - 1
        )
        # Then as many characters of the next paragraph as still fit (marked as truncated).
        length = len(narrative[whole].text)
        chars, chars_cost = 0, whole_cost
        first_char_cost = cost(whole, 1)
        if first_char_cost <= budget:
            chars, chars_cost, _ = _last_fitting(
                lambda c: cost(whole, c), 1, first_char_cost, length, next_cost, budget, float, round
            )
        if whole == 0 and chars == 0:
            raise ValueError(f"direct reader: not one character of the book fits the input budget of {budget} tokens")
        packet = self._prompt(narrative, question, whole, chars)[1]
        return Truncation(packet, whole, chars, chars_cost, budget, False)

    def answer(
        self,
        narrative: Narrative,
        question: Question,
        *,
        max_chapter: int | None = None,
        max_paragraph: int | None = None,
        progress_callback: ProgressCallback | None = None,
    ) -> Result:
        check_answerable(question)
        last = reading_limit(narrative, max_chapter, max_paragraph)
        stages = _Stages(DIRECT_STAGES, progress_callback)
        with stages.stage("truncate") as info:
            cut = self.truncate(narrative, question, max_paragraph=last)
            info.update(cut.to_dict())
        with stages.stage("interpret") as info:
            provisional = interpreter_pass(
                self.backend, interpreter_messages(question, cut.packet.text), question, cut.packet.paragraph_ids,
                self.sampling, adapter=self.adapter, retry=False,
            )  # fmt: skip
            info["answer"] = provisional.final.parsed.answer
        interpretation = Interpretation(
            question, provisional, None, False, {}, None, {"interpret": stages.timings["interpret"]}
        )
        timings = stages.finish()
        tokens = interpretation.tokens()
        trace = {
            **_trace_head("direct", narrative, question, (max_chapter, max_paragraph), last),
            "config": {
                "model": self.backend.model,
                "adapter": self.adapter,
                "sampling": dataclasses.asdict(self.sampling),
                "requested_budget": self.requested_budget,
            },
            "truncation": cut.to_dict(),
            "packet": cut.packet.to_dict(),
            "interpreter": interpretation.to_dict(),
            "tokens": with_total({"interpret": tokens["interpret"]}),
            "timings": timings,
            "warnings": _warnings_for(interpretation),
        }
        return Result.from_interpretation("direct", interpretation, cut.packet, trace)


# --- reading a result -----------------------------------------------------------------------------


def _shorten(text: str, width: int) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= width else text[: width - 1] + "…"


def format_result(result: Result, narrative: Narrative | None = None) -> str:
    """A result and its trace for a person: the answer, the cited paragraphs, the Finder's
    verdicts, the packet, tokens, timings and warnings. ``narrative`` adds the cited text."""
    trace = result.trace
    question = trace["question"]
    lines = [f"{'Claim' if question['kind'] == 'claim' else 'Question'}: {question['text']}"]
    lines += [f"  ({label}) {text}" for label, text in question["options"].items()]
    answer = f"Answer: {result.answer}"
    if result.fallback:
        answer += "  [FALLBACK: no model output could be read; this is not a model answer]"
    elif result.calibration_changed:
        provisional = trace["interpreter"]["provisional"]["answer"]
        answer += f"  (self-calibration changed the provisional answer {provisional})"
    elif result.answer_source == "calibration":
        answer += "  (confirmed by self-calibration)"
    lines += [answer, f"Rationale: {result.rationale or '(none)'}"]
    if result.citations:
        lines.append("Cited paragraphs:")
        for paragraph_id in result.citations:
            text = f" {_shorten(narrative[paragraph_id].text, 110)}" if narrative is not None else ""
            lines.append(f"  [{paragraph_id}]{text}")
    if result.invalid_citations:
        lines.append(f"Citations outside the evidence packet (ignored): {list(result.invalid_citations)}")

    finder = trace.get("finder")
    if finder and finder["ran"]:
        lines.append(
            f"Finder: {finder['segments']} segments in {finder['calls']} batched call; kept {finder['kept']} "
            f"(YES {finder['yes']}, NO {finder['no']}, unreadable {finder['unparseable']}, too long "
            f"{finder['prompt_too_long']})"
        )
    elif finder:
        lines.append(f"Finder: off (no-Finder ablation): {finder['segments']} retrieved segments packed directly")
    for segment in trace.get("segments", []):
        verdict = segment["finder"]
        label = verdict["verdict"] or verdict["status"].replace("_", " ")
        cited = f" cites {verdict['cited_ids']}" if verdict["cited_ids"] else ""
        reason = f" {_shorten(verdict['rationale'], 90)}" if verdict["rationale"] else ""
        if verdict["status"] == UNPARSEABLE:
            reason = f" output: {_shorten(verdict['output'], 70)!r}"
        lines.append(
            f"  {'kept' if verdict['kept'] else 'drop'} #{segment['index']:<2} {segment['kind']:<9} "
            f"paragraphs {segment['span'][0]}-{segment['span'][1]}: {label}{cited}{reason}"
        )
    if "truncation" in trace:
        cut = trace["truncation"]
        lines.append(
            f"Direct reader: the first {cut['paragraphs']} paragraphs"
            + (f" and {cut['partial_chars']} characters of the next" if cut["partial_chars"] else "")
            + f": {cut['prompt_tokens']} prompt tokens of a {cut['input_budget']}-token budget"
        )
    packet = trace["packet"]
    lines.append(
        f"Evidence packet: {len(packet['paragraph_ids'])} paragraphs in {len(packet['spans'])} spans, "
        f"{packet['chars']} characters"
        + (f"; segments over the cap: {len(packet['dropped_segments'])}" if packet["dropped_segments"] else "")
        + (
            f"; paragraphs over the budget: {len(packet['dropped_paragraphs'])}"
            if packet["dropped_paragraphs"]
            else ""
        )
    )
    tokens = trace["tokens"]
    lines.append(
        "Tokens (prompt/completion): "
        + ", ".join(
            f"{stage} {t['prompt']}/{t['completion']}" for stage, t in tokens.items() if stage == "total" or t["calls"]
        )
    )
    lines.append(
        "Seconds: "
        + ", ".join(
            f"{stage} {seconds:.2f}" for stage, seconds in trace["timings"].items() if seconds or stage == "total"
        )
    )
    lines += [f"! {warning}" for warning in trace["warnings"]]
    return "\n".join(lines)
