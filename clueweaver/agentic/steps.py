"""The loop the searching agents share (ReAct, IRCoT, Self-Ask): check the limits, ask for one
step, end on a legal final output, otherwise let the agent act on the step (search, reason, ask a
follow-up) or be told what was wrong with it; at a limit, or when a step's prompt no longer fits
the model's window, a forced final-answer call ends the reading."""

from __future__ import annotations

from typing import Protocol

from clueweaver.agentic.run import AgentRun
from clueweaver.evaluation.readers import ReaderOutput
from clueweaver.protocol.agentic_prompts import illegal_answer


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
