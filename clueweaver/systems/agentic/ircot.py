"""IRCoT (Trivedi et al. 2023): retrieval interleaved with chain-of-thought. The question
retrieves the first paragraphs; each step the model writes the next sentence of its reasoning
over all paragraphs retrieved so far, and that sentence is the next retrieval query, until the
model gives the final output in the protocol (or a limit forces it)."""

from __future__ import annotations

from clueweaver.protocol.agentic_prompts import NO_SENTENCE, ircot_messages, next_sentence
from clueweaver.systems.agentic.run import AgentRun
from clueweaver.systems.agentic.steps import RebuiltPromptAgent, run_steps
from clueweaver.systems.base import ReaderOutput


class IRCoT(RebuiltPromptAgent):
    expects = "a sentence of reasoning"
    missing = NO_SENTENCE

    def __init__(self, run: AgentRun) -> None:
        super().__init__(run)
        self.sentences: list[str] = []
        run.search(run.question)

    def messages(self, closing: str | None) -> list[dict]:
        return ircot_messages(self.run.question, self.run.evidence(), self.sentences, closing)

    def read(self, text: str) -> str | None:
        return next_sentence(text)

    def act(self, sentence: str) -> None:
        """The sentence joins the reasoning and retrieves the next paragraphs."""
        self.sentences.append(sentence)
        self.run.search(sentence)


def ircot(run: AgentRun) -> ReaderOutput:
    return run_steps(run, IRCoT(run))
