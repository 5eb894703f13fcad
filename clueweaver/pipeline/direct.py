"""The direct reader, the paper's end-to-end baseline: the head of the book cut to a token-exact
input budget, the Interpreter prompt over it, the same parser.

The cut is searched, never estimated: every candidate head is rendered into the real prompt and
counted by the backend with its chat template; interpolation on characters lands next to the
answer in a probe or two, with bisection steps keeping the search logarithmic.
"""

from __future__ import annotations

import bisect
import dataclasses
from collections.abc import Callable
from dataclasses import dataclass

from clueweaver.backends.base import GenerationBackend, SamplingConfig, evidence_tokens
from clueweaver.books.narrative import Narrative, reading_limit
from clueweaver.pipeline.results import Interpretation, Result, with_total
from clueweaver.pipeline.steps import check_answerable, interpreter_pass
from clueweaver.pipeline.trace import ProgressCallback, Stages, trace_head, warnings_for
from clueweaver.protocol.prompts import interpreter_messages
from clueweaver.protocol.question import Question
from clueweaver.segments.packing import Packet

DIRECT_STAGES = ("truncate", "interpret")
# The direct reader's input budgets (prompt tokens, chat template included) and output tokens:
# 30,592 + 128 = 30,720 tokens for the 32K local setting; 126,976 for the 128K setting.
DIRECT_INPUT_BUDGETS = {"32k": 30_592, "128k": 126_976}
DIRECT_OUTPUT_TOKENS = 128


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
    counted by the backend with its real chat template. ``evidence_tokens`` lowers it further to
    the prompt without text plus that many tokens of the book: the context budget every system of
    a comparison shares (ChronoRAG compares at 1,500 tokens).
    """

    def __init__(
        self,
        backend: GenerationBackend,
        *,
        budget: str | int = "32k",
        adapter: str | None = None,
        sampling: SamplingConfig | None = None,
        evidence_tokens: int | None = None,
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
        backend.check_counting()  # the cut is counted, never estimated: fail before the first book
        self.backend = backend
        self.adapter = adapter
        self.sampling = sampling or SamplingConfig(max_new_tokens=DIRECT_OUTPUT_TOKENS)
        self.requested_budget = budget
        self.evidence_tokens = evidence_tokens

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
        count = self.backend.count_tokens
        overhead = count(interpreter_messages(question, "(nothing)"))
        budget = self.input_budget
        if self.evidence_tokens is not None:  # the "(nothing)" placeholder's own tokens are the book's
            budget = min(budget, overhead - evidence_tokens(self.backend)("(nothing)") + self.evidence_tokens)
        available = len(narrative) if max_paragraph is None else max_paragraph + 1
        starts = [0]
        for paragraph in narrative.paragraphs[:available]:
            starts.append(starts[-1] + len(paragraph.text) + 1)

        def cost(paragraphs: int, chars: int = 0) -> int:
            return count(self._prompt(narrative, question, paragraphs, chars)[0])

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
        """Answer ``question`` from the longest head of ``narrative`` that fits the budget, reading
        no paragraph past the limits; ``progress_callback`` as in ``ClueWeaver.answer``, over
        ``DIRECT_STAGES``."""
        check_answerable(question)
        last = reading_limit(narrative, max_chapter, max_paragraph)
        stages = Stages(DIRECT_STAGES, progress_callback)
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
        head = trace_head("direct", narrative, question, (max_chapter, max_paragraph), last)
        return Result.from_interpretation(
            "direct", interpretation, cut.packet, self._trace(head, cut, interpretation, timings)
        )

    def _trace(self, head: dict, cut: Truncation, interpretation: Interpretation, timings: dict) -> dict:
        """The JSON trace: the head, the model and budget, the truncation, the packet, the
        Interpreter's one pass, tokens, timings and warnings."""
        return {
            **head,
            "config": {
                "model": self.backend.model,
                "adapter": self.adapter,
                "sampling": dataclasses.asdict(self.sampling),
                "requested_budget": self.requested_budget,
                "evidence_tokens": self.evidence_tokens,
            },
            "truncation": cut.to_dict(),
            "packet": cut.packet.to_dict(),
            "interpreter": interpretation.to_dict(),
            "tokens": with_total({"interpret": interpretation.tokens()["interpret"]}),
            "timings": timings,
            "warnings": warnings_for(interpretation),
        }
