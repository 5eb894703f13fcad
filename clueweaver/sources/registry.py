"""Segment sources: where the Finder's candidate segments come from, decided in one place.

- ``plain``: the retrieval-aware segmenter over the book's index (``clueweaver.segments.segmenter``);
- ``nwm``: the book's Narrative World Model records, each cited passage with its neighbours
  (``clueweaver.nwm.segments``);
- ``mix``: both, merged in narrative order;
- ``chrono``: the passages the book's ChronoRAG index assembles for the question
  (``clueweaver.chrono.segments``).

Every segment names the source that proposed it (``Segment.source``). A source that cannot run
(no world model for the book, an empty one, or no record retrieved for ``nwm``; no finished
ChronoRAG index, or no passage retrieved, for ``chrono``) is a ``SegmentSourceError`` saying how
to build what is missing; with ``fallback`` the plain segments
stand in instead, and ``Candidates`` records why, for the trace's warnings and every evaluation
record. A question in another language than the book is a warning there too (BM25 cannot bridge
languages; ``cross_language_warning``). A new source is one function of ``SourceRequest`` in ``SOURCES``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from clueweaver.books.narrative import Narrative, reading_limit
from clueweaver.chrono.config import ChronoConfig
from clueweaver.chrono.graph import IndexMissing, finished_graph
from clueweaver.chrono.segments import chrono_spans
from clueweaver.core.errors import ClueWeaverError
from clueweaver.nwm.segments import mix_segments, nwm_spans
from clueweaver.nwm.store import NarrativeStore, default_data_dir
from clueweaver.protocol.question import Question
from clueweaver.segments.segmenter import Preset, Segment, cross_language_warning, merge_spans, segment_narrative

FALLBACK_HINT = (
    "or allow the plain segments to stand in (recorded in the trace): --segment-fallback, or segment_fallback: "
    "true in the pipeline settings"
)


class SegmentSourceError(ClueWeaverError, ValueError):
    """The requested segment source has nothing to give; the message says how to build it."""


@dataclass(frozen=True)
class SourceRequest:
    """What a segment source reads: the book and its retrieval index, the question, the preset,
    where reading stops, where world-model stores live, and which ChronoRAG index to read (its
    settings, and the cache folder it is under)."""

    narrative: Narrative
    question: Question
    preset: Preset
    index: object
    max_chapter: int | None = None
    max_paragraph: int | None = None
    exhaustive: bool = False
    encoder: object = "auto"
    nwm_dir: str | None = None
    chrono: ChronoConfig = ChronoConfig()
    cache_dir: str | None = None

    @property
    def max_len(self) -> int:
        """The longest merged segment: a window plus a retrieval group, as the segmenter allows."""
        preset = self.preset
        return max(preset.window_paragraphs, preset.retrieval_paragraphs) + preset.retrieval_paragraphs


@dataclass(frozen=True)
class Candidates:
    """The segments the Finder reads, the source asked for, and why the plain segments stood in
    (``fallback``, None when they did not)."""

    segments: list[Segment]
    requested: str
    fallback: str | None = None
    warnings: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        return {
            "requested": self.requested,
            "used": "plain" if self.fallback else self.requested,
            "fallback": self.fallback,
            "segments_by_source": dict(Counter(s.source for s in self.segments)),
        }


def plain_segments(request: SourceRequest) -> list[Segment]:
    return segment_narrative(
        request.narrative, request.question, request.preset, index=request.index, max_chapter=request.max_chapter,
        max_paragraph=request.max_paragraph, exhaustive=request.exhaustive,
    )  # fmt: skip


def world_model(narrative: Narrative, nwm_dir: str | None) -> NarrativeStore:
    """The book's existing world-model store, open (never creating one); a missing or empty store
    is a SegmentSourceError saying how to build it."""
    folder = Path(nwm_dir) if nwm_dir else default_data_dir()
    build = (
        "build it with 'clueweaver nwm publish BOOK' or 'clueweaver nwm import BOOK RECORDS.jsonl', or give the "
        "folder its store lives in with --data-dir"
    )
    store = NarrativeStore.existing(narrative, folder)
    if store is None:
        raise SegmentSourceError(f"no world model of {narrative.title!r} in {folder}: {build}")
    if not any(chapter.records for chapter in store.chapters()):
        store.close()
        raise SegmentSourceError(f"the world model of {narrative.title!r} in {folder} holds no records: {build}")
    return store


def check_source_ready(narrative: Narrative, config) -> None:
    """Fail before any model loads when the segment source of ``config`` (a PipelineConfig) has
    nothing to read for this book: an evaluation checks every book first, so that a run folder is
    never started that cannot finish."""
    source = config.segment_source
    try:
        if source in ("nwm", "mix"):
            world_model(narrative, config.nwm_dir).close()
        elif source == "chrono":
            _chrono_graph(narrative, config.chrono, config.cache_dir)
    except SegmentSourceError as exc:
        raise SegmentSourceError(f"segment source {source}: {exc}; {FALLBACK_HINT}") from None


def _world_model_spans(request: SourceRequest):
    """The spans of the records the question retrieves, from the book's existing store."""
    narrative = request.narrative
    with world_model(narrative, request.nwm_dir) as store:
        return nwm_spans(
            narrative, store, request.question, max_chapter=request.max_chapter, max_paragraph=request.max_paragraph,
            encoder=request.encoder,
        )  # fmt: skip


def _merged(spans, request: SourceRequest, source: str) -> list[Segment]:
    """The spans a source retrieved as segments; none is a SegmentSourceError naming the source
    and the chapter it read to."""
    if not spans:
        chapter = request.max_chapter
        limit = "" if chapter is None else f" as of chapter {request.narrative.chapter_label(chapter)}"
        raise SegmentSourceError(f"{source} of {request.narrative.title!r} retrieves nothing for this question{limit}")
    return merge_spans(spans, max_len=request.max_len)


def nwm_segments(request: SourceRequest) -> list[Segment]:
    return _merged(_world_model_spans(request), request, "the world model")


def mixed_segments(request: SourceRequest) -> list[Segment]:
    return mix_segments(_world_model_spans(request), plain_segments(request), request.max_len)


def _chrono_graph(narrative: Narrative, config: ChronoConfig, cache_dir: str | None):
    """The book's finished ChronoRAG index; a missing one is a SegmentSourceError saying how to build it."""
    try:
        return finished_graph(narrative, config, model=config.model, cache_dir=cache_dir)
    except IndexMissing as exc:
        raise SegmentSourceError(str(exc)) from None


def chrono_segments(request: SourceRequest) -> list[Segment]:
    last = reading_limit(request.narrative, request.max_chapter, request.max_paragraph)
    graph = _chrono_graph(request.narrative, request.chrono, request.cache_dir)
    spans = chrono_spans(
        graph, request.question, request.chrono, encoder=request.encoder, last_paragraph=last,
        paragraphs=request.preset.anchors_for(last + 1),
    )  # fmt: skip
    return _merged(spans, request, "the ChronoRAG index")


SOURCES: dict[str, Callable[[SourceRequest], list[Segment]]] = {
    "plain": plain_segments,
    "nwm": nwm_segments,
    "mix": mixed_segments,
    "chrono": chrono_segments,
}
SEGMENT_SOURCES = tuple(SOURCES)


def candidate_segments(request: SourceRequest, source: str = "plain", *, fallback: bool = False) -> Candidates:
    """The candidate segments from ``source``; when it has nothing to give, an error, or with
    ``fallback`` the plain segments, recorded as such."""
    if source not in SOURCES:
        raise SegmentSourceError(f"unknown segment source {source!r}; use one of {', '.join(SEGMENT_SOURCES)}")
    language = cross_language_warning(request.narrative, request.index, request.question)
    notes = [language] if language else []
    try:
        return Candidates(SOURCES[source](request), source, warnings=notes)
    except SegmentSourceError as exc:
        if not fallback:
            raise SegmentSourceError(f"segment source {source}: {exc}; {FALLBACK_HINT}") from None
        warning = f"segment source {source}: {exc}; the plain segments were read instead"
        return Candidates(plain_segments(request), source, fallback=str(exc), warnings=[*notes, warning])
