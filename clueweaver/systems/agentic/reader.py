"""The agentic systems as evaluation readers: one ``AgentReader`` per run, a fresh ``AgentRun``
per item, and the builder ``clueweaver.evaluation.systems`` registers for each system.

The agents search the book index the pipeline uses on the machine (``get_index`` with the run's
encoder): BM25 and BGE-M3 fused on a GPU, the encoder the paper's baselines ran on; BM25 alone on a
CPU. Every record says which (``details.agent.retrieval``), so a CPU run is never read as the
paper's setting."""

from __future__ import annotations

from collections.abc import Callable

from clueweaver.books.narrative import Narrative
from clueweaver.protocol.question import Question
from clueweaver.retrieval import RetrievalIndex, get_index
from clueweaver.retrieval.dense import resolve_auto
from clueweaver.systems.agentic.chain import chain_of_agents
from clueweaver.systems.agentic.ircot import ircot
from clueweaver.systems.agentic.limits import AGENTIC_SYSTEMS, AgentError, AgentLimits, agent_limits
from clueweaver.systems.agentic.react import react
from clueweaver.systems.agentic.run import AgentModel, AgentRun
from clueweaver.systems.agentic.self_ask import self_ask
from clueweaver.systems.base import ReaderOutput

AGENTS: dict[str, Callable[[AgentRun], ReaderOutput]] = {
    "react": react,
    "ircot": ircot,
    "self-ask": self_ask,
    "chain-of-agents": chain_of_agents,
}


class AgentReader:
    """Answers items with one agent on one model, within its limits."""

    def __init__(
        self,
        system: str,
        model: AgentModel,
        limits: AgentLimits,
        index: Callable[[Narrative], RetrievalIndex],
        *,
        retrieval: str,
    ) -> None:
        self.system, self.model, self.limits, self.index = system, model, limits, index
        self.retrieval = retrieval  # what the searches rank with, in words (``retrieval_label``)
        self.agent = AGENTS[system]

    def __call__(self, narrative: Narrative, question: Question, *, max_paragraph: int | None = None) -> ReaderOutput:
        run = AgentRun(self.system, self.model, self.limits, narrative, question, max_paragraph, self.index)
        run.extra["retrieval"] = self.retrieval
        return self.agent(run)


def retrieval_label(encoder) -> str:
    """The agents' ranking in words, for every record: the fused ranking with the encoder the run
    resolves to, or plainly BM25 where it has none (a CPU, or ``--encoder none``)."""
    spec = resolve_auto(encoder)
    if spec is None or spec == "none":
        return "BM25 alone (no dense encoder in this run; the paper's baselines used BGE-M3, which needs a GPU)"
    return f"BM25 and {getattr(spec, 'name', spec)} fused (the pipeline's ranking)"


def check_agentic_run(system: str, agent: dict | None, pipeline_config) -> None:
    """Agent limits only for the agentic systems (and good ones); and no setting an agent would
    ignore: an evidence budget in tokens (``--context-budget``) or the self-calibration switch."""
    if agent or system in AGENTIC_SYSTEMS:
        agent_limits(system, agent)
    if system not in AGENTIC_SYSTEMS:
        return
    if pipeline_config.context_tokens is not None:
        raise AgentError(
            f"--context-budget does not apply to {system}: an agent's reading is bounded by its steps, tokens and "
            "search size (--agent-steps, --agent-tokens, --agent-top-k; docs/agentic.md)"
        )
    if not pipeline_config.self_calibration:
        raise AgentError(f"--no-self-calibration does not apply to {system}: the agents have no self-calibration pass")


def agentic_system(system: str):
    """The ``SystemSpec`` builder of ``system``: the run's Interpreter model, its agent limits
    (``config.agent`` on the system's defaults) and the book index the pipeline would use."""

    def build(config, agents, pipeline) -> AgentReader:
        settings = pipeline.config
        model = AgentModel(agents.interpreter, agents.interpreter_adapter, settings.interpreter_sampling)

        def index(narrative: Narrative) -> RetrievalIndex:
            return get_index(narrative, settings.encoder, cache_dir=settings.cache_dir, language=settings.language)

        return AgentReader(
            system, model, agent_limits(system, config.agent), index, retrieval=retrieval_label(settings.encoder)
        )

    return build
