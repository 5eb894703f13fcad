"""ChronoRAG's retrieval and neighbourhood assembly: from a query to the passages a reader gets.

The query ranks Layer 1 (``ChronoGraph.rank``); each ranked node, best first, brings the Layer 0
chunks it links to (its *core*), and neighbourhood assembly adds the chunks within ``window``
places of each core chunk in narrative order (``window`` 0: no neighbourhood), so a retrieved
event comes with what happened just before and after it. Nothing past the reading limit is linked
or added; chunks an earlier passage holds are not repeated, and a node whose linked chunks are all
held brings nothing (``unheld``).

``assemble`` takes passages in that (relevance) order while the text, passages separated by blank
lines, stays within a token budget, chunk by chunk: a passage's retrieved chunks first, then its
neighbours, nearest first; a neighbour that does not fit is left out, and the first retrieved chunk
that does not fit ends the assembly. A passage shows each paragraph piece as an ``[id] text`` line
(``…`` where a chunk begins or ends inside a paragraph), runs of consecutive chunks apart by blank
lines, so the Interpreter cites paragraphs as in every system.
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
    """What one Layer 1 node brings: ``core`` (the chunks it links to) and ``chunks`` (the core
    and its neighbours), both in narrative order."""

    node: int
    score: float
    core: tuple[int, ...]
    chunks: tuple[int, ...]

    def runs(self) -> list[tuple[int, ...]]:
        """The chunks as runs of consecutive chunks."""
        return [tuple(range(first, last + 1)) for first, last in contiguous_spans(self.chunks)]

    def paragraph_ids(self, graph: ChronoGraph, chunks=None) -> tuple[int, ...]:
        return tuple(sorted({p for c in (chunks or self.chunks) for p in graph.chunks[c].paragraph_ids}))

    def segment(self, graph: ChronoGraph) -> Segment:
        """The passage as a segment of kind and source "chrono" (anchors: the core's paragraphs)."""
        return Segment(self.paragraph_ids(graph), "chrono", self.score, self.paragraph_ids(graph, self.core), "chrono")


def passages(
    graph: ChronoGraph, query: str, config: ChronoConfig, encoder, last_paragraph: int | None
) -> Iterator[Passage]:
    """The passage of each node readable up to ``last_paragraph``, best node first (chunks that
    earlier passages hold are left in: the reader of the passages removes what it has taken)."""
    readable = graph.readable_chunks(last_paragraph)
    ranking = graph.rank(
        query, config.retrieval, encoder, merged_key=config.merged_key, readable=graph.readable_relations(readable)
    )
    for node, score in ranking:
        core = graph.linked_chunks(node)
        near = {n for c in core for n in range(c - config.window, c + config.window + 1) if 0 <= n < readable}
        yield Passage(node, score, tuple(core), tuple(sorted(near | set(core))))


def unheld(candidates: Iterator[Passage], held: set[int]) -> Iterator[Passage]:
    """The passages less the chunks in ``held`` (which the caller grows with what it keeps); a node
    whose linked chunks are all held brings nothing."""
    for passage in candidates:
        core = tuple(c for c in passage.core if c not in held)
        if core:
            yield Passage(passage.node, passage.score, core, tuple(c for c in passage.chunks if c not in held))


def _merged(graph: ChronoGraph, chunks: tuple[int, ...]) -> list[Piece]:
    """The pieces of consecutive chunks, a paragraph split between two of them made whole again."""
    pieces: list[Piece] = []
    for piece in (piece for c in chunks for piece in graph.chunks[c].pieces):
        if pieces and pieces[-1][0] == piece[0]:
            pieces[-1] = (piece[0], pieces[-1][1], piece[2])
        else:
            pieces.append(piece)
    return pieces


def render(graph: ChronoGraph, chunks: tuple[int, ...]) -> str:
    """Chunks as ``[id] text`` lines, runs of consecutive chunks apart by a blank line."""
    blocks = []
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
        segments = [passage.segment(graph) for passage in self.passages]
        return Packet(ids, self.text or NO_PASSAGE, contiguous_spans(ids), segments)


def _by_priority(passage: Passage) -> list[int]:
    """A passage's chunks in the order the budget takes them: the retrieved ones in narrative
    order, then the neighbours, nearest first."""
    neighbours = [c for c in passage.chunks if c not in passage.core]
    return [*passage.core, *sorted(neighbours, key=lambda n: (min(abs(n - c) for c in passage.core), n))]


def assemble(graph: ChronoGraph, candidates: Iterator[Passage], budget: int, count: Callable[[str], int]) -> Assembly:
    """Passages in relevance order within ``budget`` tokens by ``count`` (see the module doc)."""
    kept: list[Passage] = []
    blocks: list[str] = []
    held: set[int] = set()
    tokens, full = 0, False
    for passage in unheld(candidates, held):
        chosen: tuple[int, ...] = ()
        for chunk in _by_priority(passage):
            trial = tuple(sorted((*chosen, chunk)))
            size = count("\n\n".join([*blocks, render(graph, trial)]))
            if size <= budget:
                chosen, tokens = trial, size
            elif chunk in passage.core:
                full = True
                break
        if chosen:
            core = tuple(c for c in passage.core if c in chosen)
            kept.append(dataclasses.replace(passage, core=core, chunks=chosen))
            blocks.append(render(graph, chosen))
            held.update(chosen)
        if full:
            break
    return Assembly(kept, "\n\n".join(blocks), tokens, budget)
