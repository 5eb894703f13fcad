"""A ChronoRAG index as a segment source: the passages it assembles for a question become Finder
segments, so ClueWeaver can read through it (``--segment-source chrono``).

Each passage (a retrieved node's chunks and their neighbours) gives one span of kind and source
"chrono" over the paragraphs it covers, anchored at the paragraphs of its retrieved chunks; the
spans merge like the world model's (``merge_spans``), so no paragraph is read twice. The Finder
then filters them and the packer fits them to the reader's budget, as for every source. Passages
are taken in relevance order until they hold the paragraphs ``paragraphs`` allows (the caller
gives the plain segmenter's anchor count, so both sources cost the Finder about the same). Which
index is read, and what happens when there is none, is decided in ``clueweaver.sources.chrono``.
"""

from __future__ import annotations

from clueweaver.chrono.assembly import layer, passages, unheld
from clueweaver.chrono.config import ChronoConfig
from clueweaver.chrono.graph import ChronoGraph, dense_encoder
from clueweaver.protocol.question import Question
from clueweaver.retrieval.ranking import joined_query
from clueweaver.segments.segmenter import Span


def chrono_spans(
    graph: ChronoGraph,
    question: Question,
    config: ChronoConfig,
    *,
    encoder="auto",
    last_paragraph: int | None = None,
    paragraphs: int,
) -> list[Span]:
    """A span for each run of the passages retrieved for ``question`` (and its options) up to
    ``last_paragraph``, best first, until they hold ``paragraphs`` paragraphs."""
    graph = layer(graph, config)
    found = passages(graph, joined_query(question), config, dense_encoder(config.retrieval, encoder), last_paragraph)
    spans: list[Span] = []
    held: set[int] = set()
    covered: set[int] = set()
    for passage in unheld(found, held):  # chunks only: a segment is paragraphs, relations are not shown
        if len(covered) >= paragraphs:
            break
        held.update(passage.chunks)
        anchors = passage.paragraph_ids(graph, passage.core)
        for run in passage.runs():
            ids = passage.paragraph_ids(graph, run)
            kept = tuple(a for a in anchors if ids[0] <= a <= ids[-1])
            spans.append(Span(ids[0], ids[-1], "chrono", passage.score, kept, "chrono"))
            covered.update(ids)
    return spans
