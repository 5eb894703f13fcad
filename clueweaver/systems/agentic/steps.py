"""The loop the searching agents share (ReAct, IRCoT, Self-Ask): check the limits, ask for one
step, end on a legal final output, otherwise let the agent act on the step (search, reason, ask a
follow-up) or be told what was wrong with it; at a limit, or when a step's prompt no longer fits
the model's window, a forced final-answer call ends the reading."""

from __future__ import annotations

from typing import Protocol

from clueweaver.protocol.agentic_prompts import forced_closing, illegal_answer
from clueweaver.systems.agentic.run import AgentRun
from clueweaver.systems.base import ReaderOutput


class Agent(Protocol):
    """One searching agent's state over a reading."""

    stop: tuple[str, ...]  # stop strings of a step
    expects: str  # what a step that does not answer must contain, for warnings

    def prompt(self) -> list[dict]:
        """The next step's messages."""

    def final_prompt(self, ending: str) -> list[dict]:
        """The messages of the forced final-answer call at ``ending``."""

    def take(self, text: str, problem: str | None) -> bool:
        """Act on a step's output that did not end the reading; ``problem``: what to tell the
        agent instead (its final output had no legal answer). False when the step held nothing
        to act on."""


def run_steps(run: AgentRun, agent: Agent) -> ReaderOutput:
    while True:
        ending = run.limit_reached()
        if ending:
            return run.final(agent.final_prompt(ending), ending)
        step = run.next_step()
        generation = run.ask(agent.prompt(), "step", agent.stop)
        if not generation.ok:
            return run.final(agent.final_prompt("prompt_too_long"), "prompt_too_long")
        answer = run.read_answer(generation.text)
        if answer is not None and answer.answer_legal:
            return run.answered(answer, generation)
        if answer is not None:
            run.warnings.append(f"step {step}: a final output without a legal answer")
            agent.take(generation.text, illegal_answer(run.question))
        elif not agent.take(generation.text, None):
            run.warnings.append(f"step {step}: neither {agent.expects} nor a final output")


class RebuiltPromptAgent:
    """An agent whose every step prompt is rebuilt from its state (IRCoT, Self-Ask): the prompt's
    closing asks for the next step, says what was wrong with the last one, or forces the final
    output. A subclass says how to build the messages, what a step holds and what to do with it."""

    stop: tuple[str, ...] = ()
    expects = ""
    missing = ""  # what the agent is told after a step with nothing to act on

    def __init__(self, run: AgentRun) -> None:
        self.run = run
        self.closing: str | None = None

    def messages(self, closing: str | None) -> list[dict]:
        raise NotImplementedError

    def read(self, text: str) -> str | None:
        """What the step holds to act on (a sentence, a follow-up question), or None."""
        raise NotImplementedError

    def act(self, item: str) -> None:
        raise NotImplementedError

    def prompt(self) -> list[dict]:
        return self.messages(self.closing)

    def final_prompt(self, ending: str) -> list[dict]:
        return self.messages(forced_closing(self.run.question, ending))

    def take(self, text: str, problem: str | None) -> bool:
        item = None if problem else self.read(text)
        self.closing = None if item else problem or self.missing
        if item:
            self.act(item)
        return item is not None or problem is not None
