"""One agent's reading of one item: every model call (tokens, seconds, how it finished), the
steps against the limits, the searches, the paragraphs shown to the model, the warnings, and the
record the evaluation runner writes (``ReaderOutput``).

Model output never raises here. A final output is read by the protocol's parser against the
paragraphs the answering call was shown (its packet), so the citation audit means the same as for
the other systems. An item always ends in a record: the agent's own legal answer (ending
``answered``), or a final-answer call forced at a limit (ending ``step_limit``, ``token_limit`` or
``prompt_too_long``, flagged), whose output may still have no legal answer (prediction None).
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from clueweaver.backends.base import Generation, GenerationBackend, SamplingConfig
from clueweaver.books.narrative import Narrative, reading_limit
from clueweaver.pipeline.steps import interpreter_pass
from clueweaver.pipeline.trace import trace_head
from clueweaver.protocol.agentic_prompts import gives_answer
from clueweaver.protocol.parse import ParseResult, parse_interpreter
from clueweaver.protocol.question import Question
from clueweaver.retrieval import RetrievalIndex
from clueweaver.systems.agentic.limits import AgentLimits
from clueweaver.systems.base import ReaderOutput

ANSWERED = "answered"
# How a reading ended, and what the warning of a forced ending says.
STOPPED_AT = {
    "step_limit": "the step limit",
    "token_limit": "the token limit",
    "prompt_too_long": "a prompt too long for the model's window",
}
ENDINGS = (ANSWERED, *STOPPED_AT)
STAGES = ("retrieve", "reason", "answer")  # keys of the record's timings


@dataclass(frozen=True)
class AgentModel:
    """The backbone of every agent: the run's Interpreter model, its adapter and its sampling
    (the final answer's; steps keep its decoding with their own length and stop strings)."""

    backend: GenerationBackend
    adapter: str | None
    sampling: SamplingConfig

    def step_sampling(self, max_new_tokens: int, stop: tuple[str, ...] = ()) -> SamplingConfig:
        return dataclasses.replace(
            self.sampling, max_new_tokens=max_new_tokens, stop=stop, structured_output=False, json_schema=None
        )


@dataclass(frozen=True)
class Call:
    """One model call of the item."""

    role: str  # step | intermediate | worker | final
    step: int
    generation: Generation
    seconds: float

    def to_dict(self, *, output: bool = False) -> dict:
        g = self.generation
        fields = {
            "role": self.role,
            "step": self.step,
            "prompt_tokens": g.prompt_tokens,
            "completion_tokens": g.completion_tokens,
            "finish_reason": g.finish_reason,
            "seconds": round(self.seconds, 6),
        }
        return {**fields, "output": g.text} if output else fields


class AgentRun:
    """The state of one reading. ``index`` gives the book's retrieval index (built on the first
    search, so an agent that never searches never builds one)."""

    def __init__(
        self,
        system: str,
        model: AgentModel,
        limits: AgentLimits,
        narrative: Narrative,
        question: Question,
        max_paragraph: int | None,
        index: Callable[[Narrative], RetrievalIndex],
    ) -> None:
        self.system, self.model, self.limits = system, model, limits
        self.narrative, self.question, self.max_paragraph = narrative, question, max_paragraph
        self.last = reading_limit(narrative, None, max_paragraph)
        self._index, self._book_index = index, None
        self.steps = 0
        self.calls: list[Call] = []
        self.searches: list[dict] = []
        self.shown: set[int] = set()
        self.warnings: list[str] = []
        self.extra: dict = {}  # what else an agent records of its reading (Chain-of-Agents: the parts read)
        self.timings = dict.fromkeys(STAGES, 0.0)

    # limits --------------------------------------------------------------------------------------

    @property
    def tokens(self) -> dict:
        return {
            "prompt": sum(c.generation.prompt_tokens for c in self.calls),
            "completion": sum(c.generation.completion_tokens for c in self.calls),
        }

    def limit_reached(self) -> str | None:
        """``step_limit`` or ``token_limit`` when the next step may not start, else None."""
        if self.steps >= self.limits.max_steps:
            return "step_limit"
        if sum(self.tokens.values()) >= self.limits.max_tokens:
            return "token_limit"
        return None

    def next_step(self) -> int:
        self.steps += 1
        return self.steps

    @property
    def turns_left(self) -> int:
        return self.limits.max_steps - self.steps

    # model calls and searches --------------------------------------------------------------------

    def ask(self, messages: list[dict], role: str, stop: tuple[str, ...] = ()) -> Generation:
        """One step call (``step_tokens`` new tokens at most); a prompt that did not fit is warned."""
        started = time.perf_counter()
        sampling = self.model.step_sampling(self.limits.step_tokens, stop)
        generation = self.model.backend.generate([messages], sampling, adapter=self.model.adapter)[0]
        self._record(Call(role, self.steps, generation, time.perf_counter() - started), "reason")
        return generation

    def _record(self, call: Call, stage: str) -> None:
        self.calls.append(call)
        self.timings[stage] += call.seconds
        if not call.generation.ok:
            self.warnings.append(f"{call.role} call of step {call.step}: {call.generation.error}")

    def search(self, query: str | Question, *, new_only: bool = True) -> list[int]:
        """The ``top_k`` best paragraphs for ``query`` (free text, or the item's question) in the
        book's fused ranking, none past the reading limit; ``new_only`` skips paragraphs already
        shown. The result is shown to the model, so it joins the packet."""
        started = time.perf_counter()
        if self._book_index is None:
            self._book_index = self._index(self.narrative)
        asked = query if isinstance(query, Question) else Question.open(query)
        ranking = self._book_index.rank_question(asked, max_paragraph=self.last)
        found = [i for i, _ in ranking if not (new_only and i in self.shown)][: self.limits.top_k]
        self.searches.append({"step": self.steps, "query": asked.text, "ids": found})
        self.shown.update(found)
        self.timings["retrieve"] += time.perf_counter() - started
        return found

    def render(self, ids: Iterable[int]) -> str:
        """``[id] text`` lines, in the order given."""
        return self.narrative.render(list(ids), gap_markers=False)

    def evidence(self) -> str:
        """Every paragraph shown so far, in narrative order."""
        return self.render(sorted(self.shown))

    def read_answer(self, text: str) -> ParseResult | None:
        """A step output that gives a final answer (it has an answer field), read against the
        paragraphs shown so far; None for any other step."""
        return parse_interpreter(text, self.question, self.shown) if gives_answer(text) else None

    # endings -------------------------------------------------------------------------------------

    def answered(self, parsed: ParseResult, generation: Generation) -> ReaderOutput:
        """The agent's own legal answer, given in a step."""
        return self._output(parsed, ANSWERED, sorted(self.shown), generation.text)

    def final(self, messages: list[dict], ending: str, packet: Iterable[int] | None = None) -> ReaderOutput:
        """A final-answer call in the protocol (one retry with a format reminder, as the
        Interpreter's), read against ``packet`` (default: the paragraphs shown). It is forced, and
        flagged, unless ``ending`` is ``answered`` (Chain-of-Agents' manager after the whole chain)."""
        packet = sorted(self.shown if packet is None else packet)
        started = time.perf_counter()
        done = interpreter_pass(
            self.model.backend, messages, self.question, packet, self.model.sampling, adapter=self.model.adapter
        )
        seconds = (time.perf_counter() - started) / len(done.attempts)  # a retry's two calls share the pass's time
        for attempt in done.attempts:
            self._record(Call("final", self.steps, attempt.generation, seconds), "answer")
        if len(done.attempts) > 1:
            outcome = "read" if done.legal else "still unreadable"
            self.warnings.append(f"final output had no legal answer; retried with a format reminder ({outcome})")
        return self._output(done.final.parsed, ending, packet, done.final.generation.text)

    def _output(self, parsed: ParseResult, ending: str, packet: list[int], text: str) -> ReaderOutput:
        if ending != ANSWERED:
            self.warnings.append(f"stopped at {STOPPED_AT[ending]}: the final answer was forced (flagged)")
        if not parsed.answer_legal:
            self.warnings.append("no legal final answer: recorded without a prediction (flagged)")
        details = {
            "agent": {
                "system": self.system,
                "steps": self.steps,
                "ending": ending,
                "forced_final": ending != ANSWERED,
                "limits": self.limits.to_dict(self.system),
                "calls": [c.to_dict() for c in self.calls],
                "searches": self.searches,
                **self.extra,
            },
            "tokens": self.tokens,
            "packet_paragraphs": len(packet),
            "packet_chars": sum(len(self.narrative[i].text) for i in packet),
            "warnings": self.warnings,
        }
        return ReaderOutput.from_parse(
            parsed,
            packet,
            timings=dict(self.timings),
            outputs={"final": text},
            details=details,
            trace=self._trace(details),
        )

    def _trace(self, details: dict) -> dict:
        head = trace_head(self.system, self.narrative, self.question, (None, self.max_paragraph), self.last)
        agent = {**details["agent"], "calls": [c.to_dict(output=True) for c in self.calls]}
        return {**head, **details, "agent": agent, "timings": dict(self.timings)}
