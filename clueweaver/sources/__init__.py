"""Segment sources: where the Finder's candidate segments come from, each one module that declares
everything about it (``base.SegmentSource``) and one registration call here.

- ``plain``: the retrieval-aware segmenter over the book's index (``plain.py``);
- ``nwm``: the book's Narrative World Model records, each cited passage with its neighbours; ``mix``:
  those and the plain segments, merged in narrative order (``nwm.py``);
- ``chrono``: the passages the book's ChronoRAG index assembles for the question (``chrono.py``).

Every segment names the source that proposed it (``Segment.source``). A source that cannot run
(no world model for the book, an empty one, or no record retrieved for ``nwm``; no finished
ChronoRAG index, or no passage retrieved, for ``chrono``) is a ``SegmentSourceError`` saying how to
build what is missing; with ``fallback`` the plain segments stand in instead, and ``Candidates``
records why, for the trace's warnings and every evaluation record (``registry.py``).

A new source is a ``SegmentSource`` subclass and one ``register_source`` call: the pipeline
setting, ``--segment-source``, the legend of ``clueweaver segment`` and the readiness check of an
evaluation then offer it.
"""

from clueweaver.sources.base import Candidates, SegmentSource, SegmentSourceError, SourceRequest, names_read_text
from clueweaver.sources.chrono import ChronoSource
from clueweaver.sources.nwm import MixSource, NwmSource
from clueweaver.sources.plain import PlainSource
from clueweaver.sources.registry import (
    SEGMENT_SOURCES,
    candidate_segments,
    check_source_ready,
    kind_legend,
    register_source,
    segment_source,
)

register_source(PlainSource())
register_source(NwmSource())
register_source(MixSource())
register_source(ChronoSource())

__all__ = [
    "SEGMENT_SOURCES",
    "Candidates",
    "SegmentSource",
    "SegmentSourceError",
    "SourceRequest",
    "candidate_segments",
    "check_source_ready",
    "kind_legend",
    "names_read_text",
    "register_source",
    "segment_source",
]
