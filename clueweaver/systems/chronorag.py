"""``clueweaver eval --system chronorag``: ChronoRAG as a reader beside the other systems.

For each question: the book's index (built once with the Interpreter's backend when the cache
lacks it, with progress; read when another model named by ``chrono.model`` built it), Layer 1
ranked for the question and its options, each retrieved relation with its adjacent relations and
their text (or another reading the settings name, ``clueweaver.chrono.assembly``) assembled in
relevance order within the token budget (``--context-budget``, else the paper's 1,500), counted
by the Interpreter's tokenizer; then the same Interpreter stage as the rag-* systems. The build
uses the backend's base model (no adapter): the index is the method's, not the trained agent's.
An index with failed groups is named on stderr once per book and in every record
(``details.chrono.failure_note``); one with more than ``max_failed_share`` failed is an error.
"""

from __future__ import annotations

import sys

from clueweaver.backends import GenerationBackend
from clueweaver.books.narrative import Narrative, reading_limit
from clueweaver.chrono.assembly import assemble, layer, passages
from clueweaver.chrono.build import ChronoBuilder
from clueweaver.chrono.config import PAPER_BUDGET, ChronoConfig, ChronoError
from clueweaver.chrono.graph import ChronoGraph, dense_encoder, finished_graph
from clueweaver.protocol.question import Question
from clueweaver.retrieval.ranking import joined_query
from clueweaver.segments.packing import Packet
from clueweaver.systems.base import Interpret, PacketReader


class ChronoReader(PacketReader):
    """Retrieve from the book's ChronoRAG index, assemble within ``budget`` tokens, interpret."""

    def __init__(
        self,
        backend: GenerationBackend,
        config: ChronoConfig,
        interpret: Interpret,
        *,
        budget: int = PAPER_BUDGET,
        encoder="auto",
        cache_dir=None,
        progress: bool = True,
    ) -> None:
        super().__init__(interpret)
        if budget < config.chunk_tokens:
            raise ChronoError(
                f"a context budget of {budget} tokens holds no chunk of {config.chunk_tokens} tokens: lower "
                "--chrono-chunk-tokens or raise --context-budget"
            )
        self.builder = ChronoBuilder(backend, config, cache_dir=cache_dir, progress=progress)
        self.encoder = dense_encoder(config.retrieval, encoder)
        self.config, self.budget, self.cache_dir = config, budget, cache_dir
        self.model = config.model or backend.model
        self._graphs: dict[str, ChronoGraph] = {}

    def graph(self, narrative: Narrative) -> ChronoGraph:
        """The book's index: built (or resumed) with the backend when it is the model asked for,
        else read as another model left it (a ChronoError when it is missing or unfinished, or when
        more groups failed than ``max_failed_share`` allows)."""
        if narrative.content_hash not in self._graphs:
            if self.model == self.builder.backend.model:
                graph, report = self.builder.build(narrative)
                if report.failed_too_often(self.config.max_failed_share):
                    raise ChronoError(
                        f"{graph.failure_note()}, more than the allowed share {self.config.max_failed_share}: "
                        f"delete {report.folder} and build it again with a larger model or more tries "
                        "(--max-attempts of 'clueweaver chrono build')"
                    )
            else:
                graph = finished_graph(narrative, self.config, model=self.model, cache_dir=self.cache_dir)
            if graph.failed:
                print(f"warning: {graph.failure_note()}", file=sys.stderr)
            self._graphs[narrative.content_hash] = graph
        return self._graphs[narrative.content_hash]

    def packet(self, narrative: Narrative, question: Question, max_paragraph: int | None) -> tuple[Packet, dict]:
        graph = layer(self.graph(narrative), self.config)
        last = reading_limit(narrative, None, max_paragraph)
        found = passages(graph, joined_query(question), self.config, self.encoder, last)
        assembly = assemble(graph, found, self.budget, self.builder.count)
        details = {
            "chrono": {
                "index": str(graph.folder),
                "model": self.model,
                "layer": graph.unit,
                "assembly": self.config.assembly,
                "nodes": [passage.node for passage in assembly.passages],
                "shown": [list(passage.relations) for passage in assembly.passages],
                "passages": len(assembly.passages),
                "tokens": assembly.tokens,
                "budget": assembly.budget,
                "failed_groups": graph.failed,
                "failure_note": graph.failure_note(),
            }
        }
        return assembly.packet(graph), details
