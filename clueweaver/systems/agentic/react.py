"""ReAct (Yao et al. 2023): the agent alternates a thought and a search action over the book's
index, reads the observation (the paragraphs the search returned, new ones only), and ends with
the final output in the protocol; at a limit, the conversation so far gets a forced final call."""

from __future__ import annotations

from clueweaver.protocol.agentic_prompts import (
    NO_ACTION,
    forced_closing,
    notice,
    observation,
    react_messages,
    search_query,
    with_closing,
)
from clueweaver.systems.agentic.run import AgentRun
from clueweaver.systems.agentic.steps import run_steps
from clueweaver.systems.base import ReaderOutput


class ReAct:
    stop = ("Observation:",)  # a model that writes its own observation stops there
    expects = "a search action"

    def __init__(self, run: AgentRun) -> None:
        self.run = run
        self.messages = react_messages(run.question, run.limits.top_k, run.limits.max_steps)

    def prompt(self) -> list[dict]:
        return self.messages

    def final_prompt(self, ending: str) -> list[dict]:
        return with_closing(self.messages, forced_closing(self.run.question, ending))

    def take(self, text: str, problem: str | None) -> bool:
        """The step joins the conversation with its observation: the search's paragraphs, or
        what was wrong with the step."""
        query = None if problem else search_query(text)
        if query is None:
            said = notice(problem or NO_ACTION, self.run.turns_left)
        else:
            found = self.run.search(query)
            said = observation(query, self.run.render(found) if found else None, self.run.turns_left)
        self.messages = [*self.messages, {"role": "assistant", "content": text}, {"role": "user", "content": said}]
        return query is not None or problem is not None


def react(run: AgentRun) -> ReaderOutput:
    return run_steps(run, ReAct(run))
