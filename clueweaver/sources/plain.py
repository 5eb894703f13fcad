"""The plain segment source: the retrieval-aware segmenter over the book's index
(``clueweaver.segments.segmenter``). It needs nothing built beyond the index, so it is also what
stands in when another source has nothing to give (``--segment-fallback``)."""

from __future__ import annotations

from clueweaver.segments.segmenter import Segment, segment_narrative
from clueweaver.sources.base import SegmentSource, SourceRequest


class PlainSource(SegmentSource):
    name = "plain"
    label = "the retrieval-aware segmenter"
    kinds = {
        "window": "a run of consecutive paragraphs around one of the best-matching paragraphs: the scene a clue sits "
        "in",
        "retrieval": "best-matching paragraphs from anywhere in the book, gathered in story order; "
        "'[… N paragraphs omitted …]' marks what lies between them",
        "exhaustive": "the book cut into consecutive stretches, none left out (--exhaustive reads everything)",
    }

    ranks_with_index = True

    def segments(self, request: SourceRequest) -> list[Segment]:
        return segment_narrative(
            request.narrative, request.question, request.preset, index=request.index,
            max_chapter=request.max_chapter, max_paragraph=request.max_paragraph, exhaustive=request.exhaustive,
        )  # fmt: skip
