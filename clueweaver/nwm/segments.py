"""The world model as a segment source: records retrieved for a question become Finder segments.

A record's evidence paragraphs, with ``context`` paragraphs on each side, become a segment of
kind "nwm" that keeps the book's paragraph IDs, so the Finder reads (and the Interpreter cites)
the book itself, not the record. ``source="mix"`` merges these with the plain retrieval-aware
segments. A chapter limit applies to both sources: records are read as of that chapter and spans
are clipped to its last paragraph.
"""

from __future__ import annotations

import warnings

from clueweaver.narrative import Narrative
from clueweaver.nwm.retrieval import query
from clueweaver.nwm.store import NarrativeStore, StoreError
from clueweaver.protocol.question import Question
from clueweaver.segment import Preset, Segment, get_preset, merge_spans, segment_narrative

SEGMENT_SOURCES = ("plain", "nwm", "mix")


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
) -> list[tuple[int, int, str, float, tuple[int, ...]]]:
    """(start, end, "nwm", score, anchors) for the records the question retrieves as of the
    chapter limit, clipped to the paragraph limit."""
    if store.content_hash != narrative.content_hash:
        raise StoreError(f"{store.path}: the world model was built on another text of {narrative.title}")
    last = narrative.last_paragraph_of_chapter(max_chapter)
    if max_paragraph is not None:
        last = min(last, max_paragraph)
    packet = query(
        store, question.queries(), _as_of(narrative, max_chapter), encoder=encoder, max_chars=None, **query_options
    )
    return [
        (start, end, "nwm", hit.score, anchors)
        for hit in packet.hits
        for start, end, anchors in _spans(hit.record.evidence.paragraph_ids, context, last)
    ]


def segments_from_source(
    narrative: Narrative,
    question: Question,
    preset: str | Preset = "detectiveqa",
    *,
    source: str = "plain",
    store: NarrativeStore | None = None,
    index=None,
    encoder="auto",
    max_chapter: int | None = None,
    max_paragraph: int | None = None,
    exhaustive: bool = False,
    context: int = 1,
    **query_options,
) -> list[Segment]:
    """Candidate segments from the plain segmenter, the world model, or both merged, in
    narrative order, none past ``max_chapter`` or ``max_paragraph``. With ``source="nwm"`` and no
    record retrieved, the plain segments are used (with a warning) rather than giving the Finder
    nothing; ``exhaustive`` is the plain segmenter's."""
    if source not in SEGMENT_SOURCES:
        raise ValueError(f"unknown segment source {source!r}; use one of {', '.join(SEGMENT_SOURCES)}")
    preset = get_preset(preset)
    max_len = max(preset.window_paragraphs, preset.retrieval_paragraphs) + preset.retrieval_paragraphs

    def plain() -> list[Segment]:
        return segment_narrative(
            narrative, question, preset, index=index, encoder=encoder, max_chapter=max_chapter,
            max_paragraph=max_paragraph, exhaustive=exhaustive,
        )  # fmt: skip

    if source == "plain":
        return plain()
    if store is None:
        raise ValueError(f"segment source {source!r} needs the book's world-model store")
    spans = nwm_spans(
        narrative, store, question, max_chapter=max_chapter, max_paragraph=max_paragraph, context=context,
        encoder=encoder, **query_options,
    )  # fmt: skip
    if source == "nwm":
        if not spans:
            warnings.warn(
                f"the world model of {narrative.title} holds nothing for this question; using the plain segments"
            )
            return plain()
        return merge_spans(spans, max_len=max_len)
    # Windows are runs of the book and merge with the records' runs; a retrieval segment groups
    # paragraphs far apart, so it keeps its own paragraphs (less what a run already holds).
    plain_segments = plain()
    spans += [(s.start, s.end, s.kind, s.score, s.anchor_ids) for s in plain_segments if s.is_contiguous]
    segments = merge_spans(spans, max_len=max_len)
    covered = {i for s in segments for i in s.paragraph_ids}
    for s in plain_segments:
        ids = tuple(i for i in s.paragraph_ids if i not in covered)
        if not s.is_contiguous and ids:
            segments.append(Segment(ids, s.kind, s.score, tuple(a for a in s.anchor_ids if a in ids)))
    return sorted(segments, key=lambda s: s.start)
