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

import dataclasses
from dataclasses import dataclass
from typing import Any, Callable

from clueweaver.backends import backend_spec
from clueweaver.backends.base import evidence_token_budget
from clueweaver.backends.batching import GenerationEngine
from clueweaver.chrono.config import PAPER_BUDGET
from clueweaver.chrono.graph import check_encoder, finished_graph
from clueweaver.core.errors import ClueWeaverError
from clueweaver.pipeline import ClueWeaver, DirectReader
from clueweaver.pipeline.models import Agents, load_agents
from clueweaver.sources import check_source_ready
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


def _segment_source_ready(config, pipeline_config, narrative) -> None:
    """What the Finder's segment source reads for the book (nothing to check with a fallback)."""
    if not pipeline_config.segment_fallback:
        check_source_ready(narrative, pipeline_config)


def _no_check(config, pipeline_config, narrative) -> None:
    """Nothing built beforehand: the system reads the book itself."""


def _chronorag_ready(config, pipeline_config, narrative) -> None:
    """The encoder Layer 1's ranking needs, and an index another model built (the Interpreter's
    own is built by the run)."""
    chrono = pipeline_config.chrono
    check_encoder(chrono.retrieval, config.encoder)
    if chrono.model and chrono.model != (config.interpreter or config.model):
        finished_graph(narrative, chrono, model=chrono.model, cache_dir=config.cache_dir)


@dataclass(frozen=True)
class SystemSpec:
    """A system: how its reader is built, whether it runs the Finder (else only the
    Interpreter's model is loaded), and ``check_ready(config, pipeline_config, narrative)``, what
    must be there for a book before any model loads (an error saying what to build or pass)."""

    build: Build
    uses_finder: bool = False
    check_ready: Callable[[Any, Any, Any], None] = _no_check


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
    "clueweaver": SystemSpec(_clueweaver, uses_finder=True, check_ready=_segment_source_ready),
    "direct": SystemSpec(_direct),
    **{name: SystemSpec(_retrieval(name)) for name in RAG_RANKINGS},
    "react": SystemSpec(agentic_system("react")),
    "ircot": SystemSpec(agentic_system("ircot")),
    "self-ask": SystemSpec(agentic_system("self-ask")),
    "chain-of-agents": SystemSpec(agentic_system("chain-of-agents")),
    "chronorag": SystemSpec(_chronorag, check_ready=_chronorag_ready),
}


# Settings only the Finder's reader reads (its segments, their retrieval, the Finder itself): a
# system without a Finder ignores them, and its run label leaves them out.
FINDER_SETTINGS = ("finder", "finder_adapter", "finder_sampling", "exhaustive", "hops", "segment_source",
                   "segment_fallback", "query_writer")  # fmt: skip


def ignored_settings(system: str, pipeline_config) -> set[str]:
    """The settings ``system`` does not read, so that its run label does not carry them: the
    Finder's for a system without a Finder, and ChronoRAG's (``chrono``) for any system but
    chronorag and a Finder reading the chrono segment source."""
    ignored = set() if SYSTEMS[system].uses_finder else set(FINDER_SETTINGS)
    reads_chrono = system == "chronorag" or (
        SYSTEMS[system].uses_finder and pipeline_config.segment_source == "chrono"
    )
    return ignored if reads_chrono else ignored | {"chrono"}


def build_reader(config, item_concurrency: int = 1) -> PipelineReader:
    """The reader of ``config.system`` on the inference engine: models loaded once per run (the
    Interpreter alone for systems without a Finder), never the offline smoke model.

    With ``item_concurrency`` above 1 and models loaded in this process (hf, vllm: not a server's
    served names), the agents' calls go through one ``GenerationEngine``: it is the models' only
    caller, and it merges the calls of items answered together into the model's batches."""
    spec = SYSTEMS[config.system]
    given = (("base_url", config.base_url), ("tokenizer", config.tokenizer), ("device", config.device))
    options = {key: value for key, value in given if value}
    interpreter = config.interpreter or config.model
    finder = (config.finder or config.model) if spec.uses_finder else interpreter
    agents = load_agents(
        finder, interpreter, backend=config.backend, interpreter_adapter=config.interpreter_adapter,
        finder_adapter=config.finder_adapter if spec.uses_finder else None, options=options,
    )  # fmt: skip
    engine = None
    if item_concurrency > 1 and not backend_spec(config.backend).serves_by_name:
        engine = GenerationEngine()
    try:
        callers = _through(engine, agents) if engine else agents
        return EngineReader(spec.build(config, callers, callers.pipeline(config.pipeline_config())), agents, engine)
    except ClueWeaverError:  # e.g. a served model whose tokens cannot be counted here
        if engine:
            engine.close()
        agents.close()
        raise


def _through(engine: GenerationEngine, agents: Agents) -> Agents:
    """The agents with their backends behind ``engine`` (one proxy for a shared backend)."""
    finder = engine.backend(agents.finder)
    interpreter = finder if agents.interpreter is agents.finder else engine.backend(agents.interpreter)
    return dataclasses.replace(agents, finder=finder, interpreter=interpreter)


class EngineReader(PipelineReader):
    """A reader whose calls may go through a generation engine; ``close`` stops the engine before
    the models it calls are freed."""

    def __init__(self, answer: Callable[..., Any], agents: Agents, engine: GenerationEngine | None) -> None:
        super().__init__(answer, agents)
        self.engine = engine

    def close(self) -> None:
        if self.engine is not None:
            self.engine.close()
        super().close()
