"""The agentic baselines of the ClueWeaver paper (Table 1, Appendix C.1) as ``clueweaver eval``
systems: ``react``, ``ircot``, ``self-ask`` and ``chain-of-agents``.

Each runs on the run's Interpreter model (its backend, adapter and sampling), searches the same
book index as the other systems (``get_index``, the fused ``rank_question`` ranking) and ends in
the protocol's final output, read by ``parse_interpreter``, so accuracy, citations and format are
audited alike for every system. The prompts are in :mod:`clueweaver.protocol.agentic_prompts`;
``limits`` (steps, tokens, sizes), ``run`` (one reading and its record), ``steps`` (the loop of
the searching agents), one module per agent, and ``reader`` (the reader and its builder).
See docs/agentic.md.
"""

from clueweaver.systems.agentic.limits import (
    AGENTIC_SYSTEMS,
    DEFAULT_LIMITS,
    FLAGS,
    AgentError,
    AgentLimits,
    agent_limits,
)
from clueweaver.systems.agentic.reader import AgentReader, agentic_system, check_agentic_run
from clueweaver.systems.agentic.run import ENDINGS, AgentModel, AgentRun

__all__ = [
    "AGENTIC_SYSTEMS",
    "DEFAULT_LIMITS",
    "ENDINGS",
    "FLAGS",
    "AgentError",
    "AgentLimits",
    "AgentModel",
    "AgentReader",
    "AgentRun",
    "agent_limits",
    "agentic_system",
    "check_agentic_run",
]
