"""How far an agent may go on one item: its steps, its tokens, and the sizes of what it reads.

A step is one decision of the agent: a ReAct turn, an IRCoT reasoning sentence, a Self-Ask
follow-up question (its retrieval and intermediate answer included), a Chain-of-Agents worker.
Tokens are the prompt and completion tokens of every model call of the item, as the backend
counts them (exact for hf and vllm, the server's ``usage`` for openai). Both limits are checked
before each step; an agent that reaches one gets a forced final-answer call, flagged in its record
(the call's tokens are counted, so the total may pass the token limit by that one call).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from clueweaver.core.errors import ClueWeaverError

AGENTIC_SYSTEMS = ("react", "ircot", "self-ask", "chain-of-agents")
SEARCHING_SYSTEMS = ("react", "ircot", "self-ask")


class AgentError(ClueWeaverError, ValueError):
    """Agent settings that cannot be used (an unknown or non-positive limit, one that does not
    apply to the system)."""


@dataclass(frozen=True)
class AgentLimits:
    """``max_steps`` and ``max_tokens`` bound one item; ``top_k``: paragraphs one search returns
    (the searching agents); ``step_tokens``: new tokens of one step's output (a worker's notes);
    ``chunk_chars``: characters of narrative one Chain-of-Agents worker reads."""

    max_steps: int
    max_tokens: int
    top_k: int = 4
    step_tokens: int = 256
    chunk_chars: int = 24_000

    def __post_init__(self) -> None:
        for name, value in dataclasses.asdict(self).items():
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise AgentError(f"agent limit {name} must be a whole number >= 1, got {value!r}")

    def to_dict(self, system: str) -> dict:
        """The limits that apply to ``system``."""
        return {name: value for name, value in dataclasses.asdict(self).items() if applies(name, system)}


DEFAULT_LIMITS = {
    "react": AgentLimits(max_steps=8, max_tokens=40_000),
    "ircot": AgentLimits(max_steps=6, max_tokens=40_000),
    "self-ask": AgentLimits(max_steps=4, max_tokens=40_000),
    "chain-of-agents": AgentLimits(max_steps=64, max_tokens=600_000, step_tokens=512),
}
# Limits that only some systems have.
_ONLY_FOR = {"top_k": SEARCHING_SYSTEMS, "chunk_chars": ("chain-of-agents",)}
# The command line's flag for each limit (``--agent-steps``), with its help.
FLAGS = {
    "steps": ("max_steps", "agent: steps per item (turns, reasoning sentences, follow-ups, workers)"),
    "tokens": ("max_tokens", "agent: prompt + completion tokens per item over all its calls"),
    "top-k": ("top_k", "agent: paragraphs one search returns (react, ircot, self-ask)"),
    "step-tokens": ("step_tokens", "agent: new tokens of one step's output (a worker's notes)"),
    "chunk-chars": ("chunk_chars", "agent: characters of narrative per chain-of-agents worker"),
}


def applies(name: str, system: str) -> bool:
    return system in _ONLY_FOR.get(name, AGENTIC_SYSTEMS)


def agent_limits(system: str, settings: dict | None = None) -> AgentLimits:
    """``system``'s default limits with ``settings`` (limit name -> value) on top; a setting that
    is unknown, bad or meant for another system is an ``AgentError``."""
    settings = dict(settings or {})
    if system not in AGENTIC_SYSTEMS:
        raise AgentError(
            f"agent limits ({', '.join(sorted(settings))}) apply to the agentic systems only "
            f"({', '.join(AGENTIC_SYSTEMS)}), not to {system}"
        )
    known = {field.name for field in dataclasses.fields(AgentLimits)}
    unknown = sorted(set(settings) - known)
    if unknown:
        raise AgentError(f"unknown agent limit(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}")
    foreign = sorted(name for name in settings if not applies(name, system))
    if foreign:
        raise AgentError(f"agent limit(s) {', '.join(foreign)} do not apply to {system}")
    return dataclasses.replace(DEFAULT_LIMITS[system], **settings)
