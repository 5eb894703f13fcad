"""ChronoRAG's retrieval and neighbourhood assembly: from a query to the passages a reader gets.

The query ranks Layer 1 (``ChronoGraph.rank``; the group summaries instead in the
no-relation-extraction ablation); each ranked node, best first, brings a passage. As the paper
assembles it (``assembly="relations"``, the default) a passage is the node's relation, the
relations ``window`` places before and after it in Layer 1 (their chronological neighbours), and
the Layer 0 chunks all of them link to: the reader sees the relation descriptions, then their text.
In the other reading (``assembly="chunks"``) a passage is the node's linked chunks (its *core*)
and the chunks within ``window`` places of each in narrative order, no relation shown. ``window``
0: no neighbourhood. Nothing past the reading limit is linked or added; what an earlier passage
holds is not repeated (``unheld``).

``assemble`` takes passages in that (relevance) order while the text, passages separated by blank
lines, stays within a token budget, item by item: the retrieved relation (relations reading) and
its chunks first, then the neighbours, nearest first, each neighbour relation with its chunks; a
neighbour that does not fit is left out, and the first retrieved item that does not fit ends the
assembly. A passage shows its relations as ``relation N: description`` lines (N its place in Layer
1), then each paragraph piece as an ``[id] text`` line (``…`` where a chunk begins or ends inside a
paragraph), runs of consecutive chunks apart by blank lines, so the Interpreter cites paragraphs
as in every system.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from clueweaver.chrono.chunks import Piece
from clueweaver.chrono.config import ChronoConfig
from clueweaver.chrono.graph import ChronoGraph
from clueweaver.protocol.chrono_prompts import NO_PASSAGE
from clueweaver.segments.packing import Packet, contiguous_spans
from clueweaver.segments.segmenter import Segment


@dataclass(frozen=True)
class Passage:
    """What one Layer 1 node brings: ``core`` (the chunks it links to), ``chunks`` (the core and
    its neighbours) and ``relations`` (the nodes shown, the node among them; empty in the chunks
    reading), all in narrative order."""

    node: int
    score: float
    core: tuple[int, ...]
    chunks: tuple[int, ...]
    relations: tuple[int, ...] = ()

    def runs(self) -> list[tuple[int, ...]]:
        """The chunks as runs of consecutive chunks."""
        return [tuple(range(first, last + 1)) for first, last in contiguous_spans(self.chunks)]

    def paragraph_ids(self, graph: ChronoGraph, chunks=None) -> tuple[int, ...]:
        return tuple(sorted({p for c in (chunks or self.chunks) for p in graph.chunks[c].paragraph_ids}))

    def segment(self, graph: ChronoGraph) -> Segment:
        """The passage as a segment of kind and source "chrono" (anchors: the core's paragraphs)."""
        return Segment(self.paragraph_ids(graph), "chrono", self.score, self.paragraph_ids(graph, self.core), "chrono")


def layer(graph: ChronoGraph, config: ChronoConfig) -> ChronoGraph:
    """The graph retrieval reads: Layer 1, or the summary layer without relation extraction."""
    return graph if config.relations else graph.summary_layer()


def passages(
    graph: ChronoGraph, query: str, config: ChronoConfig, encoder, last_paragraph: int | None
) -> Iterator[Passage]:
    """The passage of each node readable up to ``last_paragraph``, best node first (what earlier
    passages hold is left in: the reader of the passages removes what it has taken). ``graph``
    must be ``layer(graph, config)``."""
    readable = graph.readable_chunks(last_paragraph)
    nodes = graph.readable_relations(readable)
    ranking = graph.rank(query, config.retrieval, encoder, merged_key=config.merged_key, readable=nodes)
    for node, score in ranking:
        core = tuple(graph.linked_chunks(node))
        if config.assembly == "relations":
            shown = tuple(sorted((node, *graph.adjacent(node, nodes, config.window))))
            chunks = {c for n in shown for c in graph.linked_chunks(n)}
            yield Passage(node, score, core, tuple(sorted(chunks)), shown)
        else:
            near = {n for c in core for n in range(c - config.window, c + config.window + 1) if 0 <= n < readable}
            yield Passage(node, score, core, tuple(sorted(near | set(core))))


def unheld(candidates: Iterator[Passage], held: set[int], shown: set[int] | None = None) -> Iterator[Passage]:
    """The passages less the chunks in ``held`` and the relations in ``shown`` (which the caller
    grows with what it keeps). A passage brings nothing when its node's linked chunks are all held
    (chunks reading) or its relation was shown (relations reading)."""
    shown = set() if shown is None else shown
    for passage in candidates:
        core = tuple(c for c in passage.core if c not in held)
        fresh = passage.node not in shown if passage.relations else bool(core)
        if fresh:
            chunks = tuple(c for c in passage.chunks if c not in held)
            relations = tuple(n for n in passage.relations if n not in shown)
            yield Passage(passage.node, passage.score, core, chunks, relations)


def _merged(graph: ChronoGraph, chunks: tuple[int, ...]) -> list[Piece]:
    """The pieces of consecutive chunks, a paragraph split between two of them made whole again."""
    pieces: list[Piece] = []
    for piece in (piece for c in chunks for piece in graph.chunks[c].pieces):
        if pieces and pieces[-1][0] == piece[0]:
            pieces[-1] = (piece[0], pieces[-1][1], piece[2])
        else:
            pieces.append(piece)
    return pieces


def render(graph: ChronoGraph, chunks: tuple[int, ...], relations: tuple[int, ...] = ()) -> str:
    """Relations as ``relation N: description`` lines (``summary N:`` in the summary layer), then
    chunks as ``[id] text`` lines, runs of consecutive chunks apart by a blank line."""
    lines = [f"{graph.unit} {n}: {graph.relations[n].description}" for n in relations]
    blocks = ["\n".join(lines)] if lines else []
    for first, last in contiguous_spans(chunks):
        lines = []
        for paragraph, start, end in _merged(graph, tuple(range(first, last + 1))):
            text = graph.narrative[paragraph].text
            lines.append(f"[{paragraph}] {'… ' * (start > 0)}{text[start:end]}{' …' * (end < len(text))}")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


@dataclass
class Assembly:
    """The passages kept, in relevance order, and their text within the budget."""

    passages: list[Passage]
    text: str
    tokens: int
    budget: int

    def packet(self, graph: ChronoGraph) -> Packet:
        """The assembly as the Interpreter's packet: the text in relevance order, the passages as
        its segments, the paragraph IDs it may cite; ``NO_PASSAGE`` says so when nothing was
        retrieved (no node readable yet, or none sharing a word with a BM25 query)."""
        ids = tuple(sorted({p for passage in self.passages for p in passage.paragraph_ids(graph)}))
        segments = [passage.segment(graph) for passage in self.passages if passage.chunks]
        return Packet(ids, self.text or NO_PASSAGE, contiguous_spans(ids), segments)


Item = tuple[str, int]  # ("relation", node) or ("chunk", chunk)


def _by_priority(graph: ChronoGraph, passage: Passage) -> list[Item]:
    """A passage's items in the order the budget takes them. Chunks reading: the retrieved chunks
    in narrative order, then the neighbours, nearest first. Relations reading: the retrieved
    relation and its chunks, then each neighbour relation, nearest first, with its chunks not yet
    taken."""
    if not passage.relations:
        near = sorted(
            set(passage.chunks) - set(passage.core), key=lambda n: (min(abs(n - c) for c in passage.core), n)
        )
        return [("chunk", c) for c in (*passage.core, *near)]
    items: list[Item] = []
    taken: set[int] = set()
    for node in sorted(passage.relations, key=lambda n: (abs(n - passage.node), n)):
        linked = [c for c in graph.linked_chunks(node) if c in passage.chunks and c not in taken]
        items += [("relation", node), *(("chunk", c) for c in linked)]
        taken.update(linked)
    return items


def _retrieved(passage: Passage, item: Item) -> bool:
    kind, value = item
    return value == passage.node if kind == "relation" else value in passage.core


def assemble(graph: ChronoGraph, candidates: Iterator[Passage], budget: int, count: Callable[[str], int]) -> Assembly:
    """Passages in relevance order within ``budget`` tokens by ``count`` (see the module doc)."""
    kept: list[Passage] = []
    blocks: list[str] = []
    held: set[int] = set()
    shown: set[int] = set()
    tokens, full = 0, False
    for passage in unheld(candidates, held, shown):
        chosen: dict[str, tuple[int, ...]] = {"relation": (), "chunk": ()}
        for kind, value in _by_priority(graph, passage):
            trial = {**chosen, kind: tuple(sorted((*chosen[kind], value)))}
            size = count("\n\n".join([*blocks, render(graph, trial["chunk"], trial["relation"])]))
            if size <= budget:
                chosen, tokens = trial, size
            elif _retrieved(passage, (kind, value)):
                full = True
                break
        if chosen["chunk"] or chosen["relation"]:
            core = tuple(c for c in passage.core if c in chosen["chunk"])
            kept.append(dataclasses.replace(passage, core=core, chunks=chosen["chunk"], relations=chosen["relation"]))
            blocks.append(render(graph, chosen["chunk"], chosen["relation"]))
            held.update(chosen["chunk"])
            shown.update(chosen["relation"])
        if full:
            break
    return Assembly(kept, "\n\n".join(blocks), tokens, budget)
