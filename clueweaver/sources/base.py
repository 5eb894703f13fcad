"""What a segment source is: the ``SegmentSource`` interface, the ``SourceRequest`` every source
reads, and the ``Candidates`` the pipeline gets back.

A source declares in one place everything the rest of ClueWeaver needs to offer it: its name (the
``--segment-source`` choice and the ``segment_source`` setting), a one-line label (the choice's
help), the segment kinds it produces with the legend ``clueweaver segment`` prints for each, the
options it reads beyond the book and the question, a readiness check that runs before any model
loads, and the segments themselves. ``clueweaver.sources`` registers it.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections import Counter
from dataclasses import dataclass, field
from typing import ClassVar

from clueweaver.books.narrative import Narrative
from clueweaver.chrono.config import ChronoConfig
from clueweaver.core.errors import ClueWeaverError
from clueweaver.protocol.question import Question
from clueweaver.segments.segmenter import Preset, Segment, Span, merge_spans

# The source whose segments stand in when the requested one has nothing to give (with fallback).
FALLBACK_SOURCE = "plain"


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


def names_read_text(names_read: dict[str, list[str]]) -> str:
    """The names a question wrote in Latin letters and how the book writes them, for a person: "Lin
    Daiyu: 林黛玉; Bazarov: Базаров" (``Candidates.names_read``, the trace's ``names_read_across_scripts``)."""
    return "; ".join(f"{asked}: {', '.join(written)}" for asked, written in names_read.items())


@dataclass(frozen=True)
class Candidates:
    """The segments the Finder reads, the source asked for, why the plain segments stood in
    (``fallback``, None when they did not), the chapters the question names that were read first,
    and the names it writes in Latin letters that were read in the book's script."""

    segments: list[Segment]
    requested: str
    fallback: str | None = None
    warnings: list[str] = field(default_factory=list)
    read_first: list[str] = field(default_factory=list)  # the labels of the named chapters read first
    names_read: dict[str, list[str]] = field(default_factory=dict)  # a name as asked -> as the book writes it

    def to_dict(self) -> dict:
        read_first = {"named_chapters_read_first": self.read_first} if self.read_first else {}
        names = {"names_read_across_scripts": self.names_read} if self.names_read else {}
        return {
            "requested": self.requested,
            "used": FALLBACK_SOURCE if self.fallback else self.requested,
            "fallback": self.fallback,
            "segments_by_source": dict(Counter(s.source for s in self.segments)),
            **read_first,
            **names,
        }


class SegmentSource(ABC):
    """One way of proposing the Finder's candidate segments. A subclass sets the class attributes
    and ``segments``; ``check_ready`` only when the source needs something built first."""

    name: ClassVar[str]
    label: ClassVar[str]  # one line: what the segments are, and how to build what the source reads
    kinds: ClassVar[dict[str, str]]  # every Segment.kind it produces -> what that kind of passage is
    options: ClassVar[tuple[str, ...]] = ()  # the flags it reads beyond those every source gets
    # whether its segments come from the plain segmenter's ranking, which reads a chapter the question names
    # first and a Latin question's names in the book's script; else the trace says the chapter was not
    ranks_with_index: ClassVar[bool] = False

    def check_ready(self, narrative: Narrative, config) -> None:
        """Raise a SegmentSourceError saying how to build what this source reads for ``narrative``
        under ``config`` (a PipelineConfig), when it is missing; called before any model loads, so
        a run is never started that cannot finish. Nothing to build by default."""

    def notes(self, request: SourceRequest) -> list[str]:
        """What a reader of these segments should know of what they were read from (an index
        with failed parts), for the trace's warnings. Nothing by default."""
        return []

    @abstractmethod
    def segments(self, request: SourceRequest) -> list[Segment]:
        """The candidate segments for ``request``, in narrative order; a SegmentSourceError when
        there are none to give (the pipeline then stops, or reads the plain segments)."""


def merged_or_nothing(spans: list[Span], request: SourceRequest, what: str) -> list[Segment]:
    """The spans a source retrieved, merged into segments; none is a SegmentSourceError naming
    ``what`` was read and the chapter it was read to."""
    if not spans:
        chapter = request.max_chapter
        limit = "" if chapter is None else f" as of chapter {request.narrative.chapter_label(chapter)}"
        raise SegmentSourceError(f"{what} of {request.narrative.title!r} retrieves nothing for this question{limit}")
    return merge_spans(spans, max_len=request.max_len)
