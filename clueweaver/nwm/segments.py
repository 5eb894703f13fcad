"""The world model as a segment source: records retrieved for a question become Finder segments.

A record's evidence paragraphs, with ``context`` paragraphs on each side, become a span of kind
and source "nwm" that keeps the book's paragraph IDs, so the Finder reads (and the Interpreter
cites) the book itself, not the record. ``mix_segments`` merges these spans with the plain
retrieval-aware segments. A chapter limit applies to both: records are read as of that chapter
and spans are clipped to its last paragraph. Which store is read, and what happens when it gives
nothing, is decided in the ``nwm`` and ``mix`` segment sources: ``clueweaver.sources.nwm``.
"""

from __future__ import annotations

from clueweaver.books.narrative import Narrative
from clueweaver.nwm.retrieval import query
from clueweaver.nwm.store import NarrativeStore, StoreError
from clueweaver.protocol.question import Question
from clueweaver.segments.segmenter import Segment, Span, merge_spans


def _as_of(narrative: Narrative, max_chapter: int | None) -> int:
    if max_chapter is not None:
        return max_chapter
    return len(narrative.chapters)  # 0 when the book has no chapters: everything is chapter 0


def _spans(evidence: tuple[int, ...], context: int, last: int) -> list[tuple[int, int, tuple[int, ...]]]:
    """Group cited paragraphs that lie close together; each group plus context is one span."""
    groups: list[list[int]] = []
    for paragraph_id in sorted(i for i in evidence if i <= last):
        if groups and paragraph_id - groups[-1][-1] <= 2 * context + 1:
            groups[-1].append(paragraph_id)
        else:
            groups.append([paragraph_id])
    return [(max(0, g[0] - context), min(last, g[-1] + context), tuple(g)) for g in groups]


def nwm_spans(
    narrative: Narrative,
    store: NarrativeStore,
    question: Question,
    *,
    max_chapter: int | None = None,
    max_paragraph: int | None = None,
    context: int = 1,
    encoder="auto",
    **query_options,
) -> list[Span]:
    """A span of source "nwm" for each group of paragraphs the records retrieved for the question
    cite, as of the chapter limit, clipped to the paragraph limit."""
    if store.content_hash != narrative.content_hash:
        raise StoreError(f"{store.path}: the world model was built on another text of {narrative.title}")
    last = narrative.last_paragraph_of_chapter(max_chapter)
    if max_paragraph is not None:
        last = min(last, max_paragraph)
    packet = query(
        store, question.queries(), _as_of(narrative, max_chapter), encoder=encoder, max_chars=None, **query_options
    )
    return [
        Span(start, end, "nwm", hit.score, anchors, "nwm")
        for hit in packet.hits
        for start, end, anchors in _spans(hit.record.evidence.paragraph_ids, context, last)
    ]


def mix_segments(spans: list[Span], plain_segments: list[Segment], max_len: int) -> list[Segment]:
    """The world model's spans and the plain segments in one list, in narrative order, no
    paragraph read twice. Windows are runs of the book and merge with the records' runs; a
    retrieval segment groups paragraphs far apart, so it keeps its own paragraphs (less what a
    run already holds)."""
    spans = spans + [
        Span(s.start, s.end, s.kind, s.score, s.anchor_ids, s.source) for s in plain_segments if s.is_contiguous
    ]
    segments = merge_spans(spans, max_len=max_len)
    covered = {i for s in segments for i in s.paragraph_ids}
    for s in plain_segments:
        ids = tuple(i for i in s.paragraph_ids if i not in covered)
        if not s.is_contiguous and ids:
            anchors = tuple(a for a in s.anchor_ids if a in ids)
            segments.append(Segment(ids, s.kind, s.score, anchors, s.source))
    return sorted(segments, key=lambda s: s.start)
