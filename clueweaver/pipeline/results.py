"""The records a reading leaves: the Finder's verdict per segment and what the Finder step kept,
the Interpreter's attempts and passes, the interpretation they add up to, and the ``Result`` with
its trace. Each has a ``to_dict`` for the JSON trace; model output never raises here, the records
say what could not be read."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from clueweaver.backends.base import Generation
from clueweaver.protocol.parse import ParseResult, parse_finder, strict_format_problem
from clueweaver.protocol.question import Question
from clueweaver.segments.packing import Packet
from clueweaver.segments.segmenter import Segment

# Finder statuses in the trace.
PARSED, UNPARSEABLE, PROMPT_TOO_LONG, NOT_RUN = "parsed", "unparseable", "prompt_too_long", "not_run"


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
    round: int = 1  # 2: a segment of the second retrieval round (hops: 2)

    @classmethod
    def read(cls, segment: Segment, generation: Generation, round: int = 1) -> FinderVerdict:
        fields = _generation_fields(generation)
        if not generation.ok:
            return cls(segment, PROMPT_TOO_LONG, None, True, generation=fields, round=round)
        parsed = parse_finder(generation.text, allowed_ids=segment.paragraph_ids)
        if not parsed.answer_legal:
            return cls(segment, UNPARSEABLE, None, True, parsed.rationale, (), parsed.invalid_ids,
                       parsed.format_valid, generation.text, fields, round)  # fmt: skip
        yes = parsed.answer == "YES"
        return cls(
            segment, PARSED, parsed.answer, yes, parsed.rationale,
            parsed.cited_ids if yes else (), parsed.invalid_ids, parsed.format_valid, generation.text, fields, round,
        )  # fmt: skip

    def to_dict(self) -> dict:
        return {
            "round": self.round,
            "status": self.status,
            "verdict": self.verdict,
            "kept": self.kept,
            "rationale": self.rationale,
            "cited_ids": list(self.cited_ids),
            "invalid_ids": list(self.invalid_ids),
            "format_valid": self.format_valid,
            "off_format": strict_format_problem(self.output) if self.output else None,
            "output": self.output,
            **self.generation,
        }


def _unread_warnings(verdicts: list[FinderVerdict]) -> list[str]:
    """What the trace says about segments kept without a reading (too long, or output unreadable)."""
    warnings = [
        f"finder: segment {v.segment.start}-{v.segment.end} kept unread: {v.generation['error']}"
        for v in verdicts
        if v.status == PROMPT_TOO_LONG
    ]
    unreadable = sum(v.status == UNPARSEABLE for v in verdicts)
    if unreadable:
        warnings.append(
            f"finder: {unreadable} of {len(verdicts)} outputs could not be read; their segments were kept "
            "(recall first)"
        )
    return warnings


@dataclass(frozen=True)
class FinderStep:
    """What the Finder step hands the packer: a verdict per candidate segment and the segments to
    pack. Recall first: an unreadable output keeps its segment, and when the Finder keeps nothing,
    the retrieved segments are packed as without a Finder (``fallback`` says so)."""

    ran: bool  # False: the no-Finder ablation
    verdicts: tuple[FinderVerdict, ...]
    kept: tuple[Segment, ...]
    fallback: str | None = None
    warnings: tuple[str, ...] = ()
    seconds: tuple[float, ...] = ()  # per round: its Finder call (round 2: with its retrieval)
    round_calls: tuple[int, ...] = ()  # per round: its generate calls (one, or one per finder_batch)

    @classmethod
    def skipped(cls, segments: list[Segment]) -> FinderStep:
        """The no-Finder ablation: every candidate segment is packed."""
        return cls(False, tuple(FinderVerdict(s, NOT_RUN, None, True) for s in segments), tuple(segments))

    @classmethod
    def read(cls, verdicts: list[FinderVerdict], seconds: float = 0.0, calls: int = 1) -> FinderStep:
        """The kept segments of the Finder's verdicts, and the warnings about the ones it could not
        read; ``seconds``: how long the round took; ``calls``: in how many generate calls."""
        warnings = _unread_warnings(verdicts)
        kept = [v.segment for v in verdicts if v.kept]
        fallback = None
        if not kept:
            fallback = "the Finder kept no segment: packed the retrieved segments (as without a Finder)"
            warnings.append(f"finder: {fallback}")
            kept = [v.segment for v in verdicts]
        return cls(True, tuple(verdicts), tuple(kept), fallback, tuple(warnings), (seconds,), (calls,))

    def plus_round(self, verdicts: list[FinderVerdict], seconds: float = 0.0, calls: int = 1) -> FinderStep:
        """This step with a second round's verdicts: their kept segments are packed too (none of
        them is a fallback: the first round's packet stands when the second keeps nothing)."""
        kept = self.kept + tuple(v.segment for v in verdicts if v.kept)
        warnings = self.warnings + tuple(_unread_warnings(verdicts))
        return FinderStep(
            True, self.verdicts + tuple(verdicts), kept, self.fallback, warnings, (*self.seconds, seconds),
            (*self.round_calls, calls),
        )  # fmt: skip

    def noting(self, warning: str) -> FinderStep:
        return dataclasses.replace(self, warnings=(*self.warnings, warning))

    @property
    def calls(self) -> int:
        """Generate calls: one batched call per round (or one per ``finder_batch`` segments), none
        without a Finder."""
        return sum(self.round_calls)

    @property
    def cited_ids(self) -> list[int]:
        """The paragraphs the kept verdicts cite (the packer keeps them first)."""
        return sorted({i for v in self.verdicts if v.kept for i in v.cited_ids})

    def read_ids(self) -> set[int]:
        """Every paragraph of every segment the Finder was given."""
        return {i for v in self.verdicts for i in v.segment.paragraph_ids}

    def rounds(self) -> list[dict]:
        """Per round: segments read, kept, the paragraphs cited, and its own cost: seconds (its
        Finder call; round 2's with the retrieval it ran) and Finder tokens."""
        return [
            {
                "round": r,
                "segments": sum(v.round == r for v in self.verdicts),
                "kept": sum(v.kept and v.round == r for v in self.verdicts),
                "cited_ids": sorted({i for v in self.verdicts if v.kept and v.round == r for i in v.cited_ids}),
                "seconds": round(self.seconds[r - 1], 6) if r <= len(self.seconds) else None,
                "calls": self.round_calls[r - 1] if r <= len(self.round_calls) else None,
                "tokens": _token_counts([v for v in self.verdicts if v.round == r]),
            }
            for r in sorted({v.round for v in self.verdicts})
        ]

    def tokens(self) -> dict:
        return {"calls": self.calls, **_token_counts(self.verdicts)}

    def to_dict(self) -> dict:
        verdicts = self.verdicts
        return {
            "ran": self.ran,
            "calls": self.calls,
            "rounds": self.rounds(),
            "segments": len(verdicts),
            "kept": sum(v.kept for v in verdicts),
            **{status: sum(v.status == status for v in verdicts) for status in (UNPARSEABLE, PROMPT_TOO_LONG)},
            "yes": sum(v.verdict == "YES" for v in verdicts),
            "no": sum(v.verdict == "NO" for v in verdicts),
            "cited_ids": self.cited_ids,
            "fallback": self.fallback,
        }


def _token_counts(verdicts) -> dict:
    generations = [v.generation for v in verdicts if v.generation]
    return {
        "prompt": sum(g["prompt_tokens"] for g in generations),
        "completion": sum(g["completion_tokens"] for g in generations),
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
            "off_format": strict_format_problem(self.generation.text),
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
        """A legal answer; when no output could be read (flagged), the question's first label, or
        no text for an open question."""
        if self.chosen:
            return self.chosen.answer
        return self.question.labels[0] if self.question.labels else ""

    @property
    def calibration_dropped_ids(self) -> list[int]:
        """Paragraphs the provisional reason cited that the self-calibration pass no longer cites
        (it found they do not support the answer)."""
        if self.source != "calibration" or not self.provisional.legal:
            return []
        final = set(self.calibration.final.parsed.cited_ids)
        return [i for i in self.provisional.final.parsed.cited_ids if i not in final]

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
            "calibration_dropped_ids": self.calibration_dropped_ids,
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
    """The answer to one question. ``answer`` is always a legal label of the question (an open
    question's free text); when no Interpreter output could be read it is the flagged fallback
    (``fallback=True``; evaluation should count it as the system's answer and report the flag in
    the format audit).
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
