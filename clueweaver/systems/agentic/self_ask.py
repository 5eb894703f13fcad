"""Self-Ask (Press et al. 2023): the model asks itself follow-up questions; each is answered by
retrieval (the best paragraphs for it) and the model (a one-sentence intermediate answer citing
them); then the model gives the final output in the protocol over every paragraph retrieved (or a
limit forces it)."""

from __future__ import annotations

from clueweaver.protocol.agentic_prompts import (
    NO_FOLLOW_UP,
    NO_MATCH,
    first_line,
    follow_up,
    intermediate_messages,
    self_ask_messages,
)
from clueweaver.systems.agentic.run import AgentRun
from clueweaver.systems.agentic.steps import RebuiltPromptAgent, run_steps
from clueweaver.systems.base import ReaderOutput


class SelfAsk(RebuiltPromptAgent):
    stop = ("Intermediate answer:",)  # intermediate answers come from retrieval, not the model's run-on
    expects = "a follow-up question"
    missing = NO_FOLLOW_UP

    def __init__(self, run: AgentRun) -> None:
        super().__init__(run)
        self.exchanges: list[tuple[str, str]] = []

    def messages(self, closing: str | None) -> list[dict]:
        return self_ask_messages(self.run.question, self.run.evidence(), self.exchanges, closing)

    def read(self, text: str) -> str | None:
        return follow_up(text)

    def act(self, asked: str) -> None:
        """The follow-up is answered by the model from its best paragraphs (seen before or not)."""
        found = self.run.search(asked, new_only=False)
        if not found:
            self.exchanges.append((asked, NO_MATCH))
            return
        generation = self.run.ask(intermediate_messages(asked, self.run.render(sorted(found))), "intermediate")
        self.exchanges.append((asked, first_line(generation.text) or "(no answer)"))


def self_ask(run: AgentRun) -> ReaderOutput:
    return run_steps(run, SelfAsk(run))
