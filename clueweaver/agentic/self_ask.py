"""Self-Ask (Press et al. 2023): the model asks itself follow-up questions; each is answered by
retrieval (the best paragraphs for it) and the model (a one-sentence intermediate answer citing
them); then the model gives the final output in the protocol over every paragraph retrieved (or a
limit forces it)."""

from __future__ import annotations

from clueweaver.agentic.run import AgentRun
from clueweaver.agentic.steps import run_steps
from clueweaver.evaluation.readers import ReaderOutput
from clueweaver.protocol.agentic_prompts import (
    NO_FOLLOW_UP,
    NO_MATCH,
    first_line,
    follow_up,
    forced_closing,
    intermediate_messages,
    self_ask_messages,
)


class SelfAsk:
    stop = ("Intermediate answer:",)  # intermediate answers come from retrieval, not the model's run-on
    expects = "a follow-up question"

    def __init__(self, run: AgentRun) -> None:
        self.run = run
        self.exchanges: list[tuple[str, str]] = []
        self.closing: str | None = None  # as in IRCoT

    def prompt(self) -> list[dict]:
        return self_ask_messages(self.run.question, self.run.evidence(), self.exchanges, self.closing)

    def final_prompt(self, ending: str) -> list[dict]:
        closing = forced_closing(self.run.question, ending)
        return self_ask_messages(self.run.question, self.run.evidence(), self.exchanges, closing)

    def take(self, text: str, problem: str | None) -> bool:
        """The step's follow-up question is answered and joins the exchanges."""
        asked = None if problem else follow_up(text)
        self.closing = None if asked else problem or NO_FOLLOW_UP
        if asked:
            self.exchanges.append((asked, self._intermediate_answer(asked)))
        return asked is not None or problem is not None

    def _intermediate_answer(self, asked: str) -> str:
        """The follow-up answered by the model from its best paragraphs (seen before or not)."""
        found = self.run.search(asked, new_only=False)
        if not found:
            return NO_MATCH
        generation = self.run.ask(intermediate_messages(asked, self.run.render(sorted(found))), "intermediate")
        return first_line(generation.text) or "(no answer)"


def self_ask(run: AgentRun) -> ReaderOutput:
    return run_steps(run, SelfAsk(run))
