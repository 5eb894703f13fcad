"""The systems ``clueweaver eval`` can run, in one registry: each is a name and a function that
builds its reader from the run's configuration and the loaded agents.

``clueweaver`` (Finder + Interpreter, Algorithm 1), ``direct`` (the tokenizer-exact end-to-end
reader), ``rag-bm25`` / ``rag-dense`` / ``rag-hybrid`` (the top paragraphs of one ranking packed
to the preset's budget, then the Interpreter; no Finder) and the agentic baselines ``react``,
``ircot``, ``self-ask`` and ``chain-of-agents`` (:mod:`clueweaver.systems.agentic`), and
``chronorag`` (the book's ChronoRAG index, its passages assembled within ``--context-budget`` or
1,500 tokens, then the Interpreter; :mod:`clueweaver.systems.chronorag`). A new system is one
builder and one ``SystemSpec`` line in ``SYSTEMS``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from clueweaver.backends.base import evidence_token_budget
from clueweaver.chrono.config import PAPER_BUDGET
from clueweaver.core.errors import ClueWeaverError
from clueweaver.pipeline import ClueWeaver, DirectReader
from clueweaver.pipeline.models import Agents, load_agents
from clueweaver.systems.agentic import agentic_system
from clueweaver.systems.base import (
    RAG_RANKINGS,
    PipelineReader,
    Reader,
    RetrievalReader,
    interpreter_stage,
    reader_output,
)
from clueweaver.systems.chronorag import ChronoReader

# Builds a system's reader: (the run's EvalConfig, the loaded agents, their pipeline) -> reader.
Build = Callable[[Any, Agents, ClueWeaver], Reader]


@dataclass(frozen=True)
class SystemSpec:
    """A system: how its reader is built, and whether it runs the Finder (else only the
    Interpreter's model is loaded)."""

    build: Build
    uses_finder: bool = False


def _clueweaver(config, agents: Agents, pipeline: ClueWeaver) -> Reader:
    def answer(narrative, question, *, max_paragraph=None):
        return reader_output(pipeline.answer(narrative, question, max_paragraph=max_paragraph))

    return answer


def _direct(config, agents: Agents, pipeline: ClueWeaver) -> Reader:
    budget = int(config.direct_budget) if config.direct_budget.isdigit() else config.direct_budget
    direct = DirectReader(
        agents.interpreter, budget=budget, adapter=agents.interpreter_adapter,
        sampling=config.direct_sampling(), evidence_tokens=pipeline.config.context_tokens,
    )  # fmt: skip

    def answer(narrative, question, *, max_paragraph=None):
        return reader_output(direct.answer(narrative, question, max_paragraph=max_paragraph))

    return answer


def _retrieval(system: str) -> Build:
    def build(config, agents: Agents, pipeline: ClueWeaver) -> Reader:
        return RetrievalReader(
            RAG_RANKINGS[system],
            pipeline.preset,
            interpreter_stage(pipeline, system),
            encoder=config.encoder,
            cache_dir=config.cache_dir,
            token_budget=evidence_token_budget(agents.interpreter, pipeline.config.context_tokens),
            language=pipeline.config.language,
        )

    return build


def _chronorag(config, agents: Agents, pipeline: ClueWeaver) -> Reader:
    return ChronoReader(
        agents.interpreter, pipeline.config.chrono, interpreter_stage(pipeline, "chronorag"),
        budget=pipeline.config.context_tokens or PAPER_BUDGET, encoder=config.encoder, cache_dir=config.cache_dir,
    )  # fmt: skip


SYSTEMS: dict[str, SystemSpec] = {
    "clueweaver": SystemSpec(_clueweaver, uses_finder=True),
    "direct": SystemSpec(_direct),
    **{name: SystemSpec(_retrieval(name)) for name in RAG_RANKINGS},
    "react": SystemSpec(agentic_system("react")),
    "ircot": SystemSpec(agentic_system("ircot")),
    "self-ask": SystemSpec(agentic_system("self-ask")),
    "chain-of-agents": SystemSpec(agentic_system("chain-of-agents")),
    "chronorag": SystemSpec(_chronorag),
}


def build_reader(config) -> PipelineReader:
    """The reader of ``config.system`` on the inference engine: models loaded once per run (the
    Interpreter alone for systems without a Finder), never the offline smoke model."""
    spec = SYSTEMS[config.system]
    given = (("base_url", config.base_url), ("tokenizer", config.tokenizer), ("device", config.device))
    options = {key: value for key, value in given if value}
    interpreter = config.interpreter or config.model
    finder = (config.finder or config.model) if spec.uses_finder else interpreter
    agents = load_agents(
        finder, interpreter, backend=config.backend, interpreter_adapter=config.interpreter_adapter,
        finder_adapter=config.finder_adapter if spec.uses_finder else None, options=options,
    )  # fmt: skip
    try:
        return PipelineReader(spec.build(config, agents, agents.pipeline(config.pipeline_config())), agents)
    except ClueWeaverError:  # e.g. a served model whose tokens cannot be counted here
        agents.close()
        raise
