"""The registry of segment sources, and what the pipeline asks of it: the source a name means, the
legend of every segment kind the sources produce, a readiness check before any model loads, and
the candidate segments, with the plain segments standing in on request when a source has nothing
to give.

Every message for a source that cannot run starts ``segment source NAME:`` and ends with how to
read the plain segments instead, so ``candidate_segments`` and ``check_source_ready`` say the same. A question in
another language than the book is a warning too (BM25 cannot bridge languages;
``cross_language_warning``), as is one that names a chapter the book has not or that lies past the
reading limit (``chapter_mention_warning``).
"""

from __future__ import annotations

from clueweaver.books.chapter_labels import chapters_text
from clueweaver.books.front_sections import front_sections
from clueweaver.books.named_chapters import chapters_named
from clueweaver.books.narrative import Narrative, reading_limit
from clueweaver.core.registry import Registry, RegistryError
from clueweaver.segments.segmenter import Segment, chapter_mention_warning, cross_language_warning
from clueweaver.sources.base import FALLBACK_SOURCE, Candidates, SegmentSource, SegmentSourceError, SourceRequest

FALLBACK_HINT = (
    "or allow the plain segments to stand in (recorded in the trace): --segment-fallback, or segment_fallback: "
    "true in the pipeline settings"
)

SEGMENT_SOURCES: Registry[SegmentSource] = Registry("segment source")


def kind_legend() -> dict[str, str]:
    """What each segment kind of the registered sources is, in the order the sources registered."""
    legend: dict[str, str] = {}
    for name in SEGMENT_SOURCES.names():
        legend.update(SEGMENT_SOURCES.get(name).kinds)
    return legend


def register_source(source: SegmentSource) -> SegmentSource:
    """Offer ``source`` under its name (the pipeline setting, the command-line choice, the legend).
    A kind that another source already explains differently is refused: the legend has one line
    per kind."""
    legend = kind_legend()
    clashes = [kind for kind, text in source.kinds.items() if legend.get(kind, text) != text]
    if clashes:
        raise RegistryError(f"segment source {source.name}: kind(s) {', '.join(clashes)} already mean something else")
    return SEGMENT_SOURCES.register(source.name, source)


def segment_source(name: str) -> SegmentSource:
    """The registered source called ``name``; an unknown one is a SegmentSourceError naming the known ones."""
    try:
        return SEGMENT_SOURCES.get(name)
    except RegistryError as exc:
        raise SegmentSourceError(str(exc)) from None


def _unavailable(name: str, reason: SegmentSourceError) -> SegmentSourceError:
    return SegmentSourceError(f"segment source {name}: {reason}; {FALLBACK_HINT}")


def check_source_ready(narrative: Narrative, config) -> None:
    """Fail before any model loads when the segment source of ``config`` (a PipelineConfig) has
    nothing to read for this book: an evaluation checks every book first, so that a run folder is
    never started that cannot finish."""
    source = segment_source(config.segment_source)
    try:
        source.check_ready(narrative, config)
    except SegmentSourceError as exc:
        raise _unavailable(source.name, exc) from None


def _produced(source: SegmentSource, request: SourceRequest) -> list[Segment]:
    """The source's segments, each of a kind it declares, so the legend explains every one shown."""
    segments = source.segments(request)
    undeclared = sorted({s.kind for s in segments} - set(source.kinds))
    if undeclared:
        raise ValueError(
            f"unknown segment kind {undeclared[0]!r} from segment source {source.name}; it declares "
            f"{', '.join(source.kinds)}"
        )
    return segments


def _named_chapters_read_first(source: SegmentSource, request: SourceRequest, named: list, last: int) -> list[str]:
    """The labels of the ``named`` chapters that ``source`` read first (readable ones, with the index's
    ``chapter_reserve`` on)."""
    ranking = getattr(request.index, "config", None)  # None: the segmenter builds the index, with the default
    if not source.ranks_with_index or ranking is not None and ranking.chapter_reserve <= 0:
        return []
    return [c.label for c in named if c.first_paragraph <= last]


def _names_read(source: SegmentSource, request: SourceRequest) -> dict[str, list[str]]:
    """The question's Latin names that ``source``'s ranking read in the book's script (``NameBridge``)."""
    read = getattr(request.index, "names_across_scripts", None)
    if not source.ranks_with_index or read is None:
        return {}
    return {name.asked: list(name.written) for name in read(request.question)}


def _named_chapters_unread(source: SegmentSource, named: list) -> list[str]:
    """A note when the question names chapters and ``source`` does not read them first."""
    if source.ranks_with_index or not named:
        return []
    return [
        f"the question names {chapters_text([c.label for c in named])}: segment source {source.name} ranks "
        "the book as it always does, not that chapter first (the plain segments do: --segment-source plain or mix)"
    ]


def candidate_segments(request: SourceRequest, source: str = "plain", *, fallback: bool = False) -> Candidates:
    """The candidate segments from ``source``; when it has nothing to give, an error, or with
    ``fallback`` the plain segments, recorded as such."""
    requested = segment_source(source)
    last = reading_limit(request.narrative, request.max_chapter, request.max_paragraph)
    named, missing = chapters_named(
        request.narrative.chapters, request.question.text, front_sections(request.narrative)
    )
    notes = [
        note
        for note in (
            cross_language_warning(request.narrative, request.index, request.question),
            chapter_mention_warning(request.narrative, named, missing, last),
        )
        if note
    ]
    try:
        segments = _produced(requested, request)
        warnings = [*notes, *_named_chapters_unread(requested, named), *requested.notes(request)]
        read_first = _named_chapters_read_first(requested, request, named, last)
        names = _names_read(requested, request)
        return Candidates(segments, source, warnings=warnings, read_first=read_first, names_read=names)
    except SegmentSourceError as exc:
        if not fallback:
            raise _unavailable(source, exc) from None
        warning = f"segment source {source}: {exc}; the plain segments were read instead"
        plain_source = segment_source(FALLBACK_SOURCE)
        plain = _produced(plain_source, request)
        read_first = _named_chapters_read_first(plain_source, request, named, last)
        names = _names_read(plain_source, request)
        return Candidates(
            plain, source, fallback=str(exc), warnings=[*notes, warning], read_first=read_first, names_read=names
        )
