"""The ChronoRAG segment source: the passages the book's finished ChronoRAG index assembles for the
question (``clueweaver.chrono.segments``), as many paragraphs as the plain segmenter's anchors, so
both cost the Finder about the same. A missing index says how to build it."""

from __future__ import annotations

from clueweaver.books.narrative import Narrative, reading_limit
from clueweaver.chrono.config import ChronoConfig
from clueweaver.chrono.graph import ChronoGraph, IndexMissing, check_encoder, finished_graph
from clueweaver.chrono.segments import chrono_spans
from clueweaver.segments.segmenter import Segment
from clueweaver.sources.base import SegmentSource, SegmentSourceError, SourceRequest, merged_or_nothing


def chrono_graph(narrative: Narrative, config: ChronoConfig, cache_dir: str | None) -> ChronoGraph:
    """The book's finished ChronoRAG index; a missing one is a SegmentSourceError saying how to build it."""
    try:
        return finished_graph(narrative, config, model=config.model, cache_dir=cache_dir)
    except IndexMissing as exc:
        raise SegmentSourceError(str(exc)) from None


class ChronoSource(SegmentSource):
    name = "chrono"
    label = "the passages of the book's ChronoRAG index (build it with 'clueweaver chrono build')"
    kinds = {
        "chrono": "a ChronoRAG passage: the chunks a retrieved relation came from, with their neighbours in story "
        "order",
    }
    options = ("--chrono-*", "--cache-dir")

    def check_ready(self, narrative: Narrative, config) -> None:
        """The index, and the encoder its retrieval needs (a ChronoError names the flags)."""
        chrono_graph(narrative, config.chrono, config.cache_dir)
        check_encoder(config.chrono.retrieval, config.encoder)

    def notes(self, request: SourceRequest) -> list[str]:
        note = chrono_graph(request.narrative, request.chrono, request.cache_dir).failure_note()
        return [note] if note else []

    def segments(self, request: SourceRequest) -> list[Segment]:
        last = reading_limit(request.narrative, request.max_chapter, request.max_paragraph)
        graph = chrono_graph(request.narrative, request.chrono, request.cache_dir)
        spans = chrono_spans(
            graph, request.question, request.chrono, encoder=request.encoder, last_paragraph=last,
            paragraphs=request.preset.anchors_for(last + 1),
        )  # fmt: skip
        return merged_or_nothing(spans, request, "the ChronoRAG index")
