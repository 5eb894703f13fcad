"""IRCoT (Trivedi et al. 2023): retrieval interleaved with chain-of-thought. The question
retrieves the first paragraphs; each step the model writes the next sentence of its reasoning
over all paragraphs retrieved so far, and that sentence is the next retrieval query, until the
model gives the final output in the protocol (or a limit forces it)."""

from __future__ import annotations

from clueweaver.agentic.run import AgentRun
from clueweaver.agentic.steps import run_steps
from clueweaver.evaluation.readers import ReaderOutput
from clueweaver.protocol.agentic_prompts import NO_SENTENCE, forced_closing, ircot_messages, next_sentence


class IRCoT:
    stop = ()
    expects = "a sentence of reasoning"

    def __init__(self, run: AgentRun) -> None:
        self.run = run
        self.sentences: list[str] = []
        self.closing: str | None = None  # what the next prompt asks instead, after an unusable step
        run.search(run.question)

    def prompt(self) -> list[dict]:
        return ircot_messages(self.run.question, self.run.evidence(), self.sentences, self.closing)

    def final_prompt(self, ending: str) -> list[dict]:
        closing = forced_closing(self.run.question, ending)
        return ircot_messages(self.run.question, self.run.evidence(), self.sentences, closing)

    def take(self, text: str, problem: str | None) -> bool:
        """The step's first sentence joins the reasoning and retrieves the next paragraphs."""
        sentence = None if problem else next_sentence(text)
        self.closing = None if sentence else problem or NO_SENTENCE
        if sentence:
            self.sentences.append(sentence)
            self.run.search(sentence)
        return sentence is not None or problem is not None


def ircot(run: AgentRun) -> ReaderOutput:
    return run_steps(run, IRCoT(run))
