"""The world-model segment sources: ``nwm``, the records the question retrieves from the book's
Narrative World Model, each cited passage with its neighbours (``clueweaver.nwm.segments``); and
``mix``, those merged in narrative order with the plain segments. Both read an existing store and
never create one: a missing or empty store says how to build it."""

from __future__ import annotations

from pathlib import Path

from clueweaver.books.narrative import Narrative
from clueweaver.nwm.segments import mix_segments, nwm_spans
from clueweaver.nwm.store import NarrativeStore, default_data_dir
from clueweaver.segments.segmenter import Segment, Span
from clueweaver.sources.base import SegmentSource, SegmentSourceError, SourceRequest, merged_or_nothing
from clueweaver.sources.plain import PlainSource

BUILD_HINT = (
    "build it with 'clueweaver nwm publish BOOK' or 'clueweaver nwm import BOOK RECORDS.jsonl', or give the "
    "folder its store lives in with --data-dir"
)


def world_model(narrative: Narrative, nwm_dir: str | None) -> NarrativeStore:
    """The book's existing world-model store, open (never creating one); a missing or empty store
    is a SegmentSourceError saying how to build it."""
    folder = Path(nwm_dir) if nwm_dir else default_data_dir()
    store = NarrativeStore.existing(narrative, folder)
    if store is None:
        raise SegmentSourceError(f"no world model of {narrative.title!r} in {folder}: {BUILD_HINT}")
    if not any(chapter.records for chapter in store.chapters()):
        store.close()
        raise SegmentSourceError(f"the world model of {narrative.title!r} in {folder} holds no records: {BUILD_HINT}")
    return store


class NwmSource(SegmentSource):
    name = "nwm"
    label = "the book's Narrative World Model records (build them with 'clueweaver nwm publish/import')"
    kinds = {
        "nwm": "records of the Narrative World Model (who, where, what happened), with the paragraphs they rest on",
    }
    options = ("--data-dir",)

    def check_ready(self, narrative: Narrative, config) -> None:
        world_model(narrative, config.nwm_dir).close()

    def segments(self, request: SourceRequest) -> list[Segment]:
        return merged_or_nothing(self.spans(request), request, "the world model")

    def spans(self, request: SourceRequest) -> list[Span]:
        """The spans of the records the question retrieves, from the book's existing store."""
        narrative = request.narrative
        with world_model(narrative, request.nwm_dir) as store:
            return nwm_spans(
                narrative, store, request.question, max_chapter=request.max_chapter,
                max_paragraph=request.max_paragraph, encoder=request.encoder,
            )  # fmt: skip


class MixSource(NwmSource):
    """The world model's spans merged with the plain segments: it reads what ``nwm`` reads, and
    produces the kinds of both."""

    name = "mix"
    label = "both the plain segments and the world model's, merged in story order"
    kinds = {**PlainSource.kinds, **NwmSource.kinds}
    ranks_with_index = True  # its plain segments do

    def segments(self, request: SourceRequest) -> list[Segment]:
        return mix_segments(self.spans(request), PlainSource().segments(request), request.max_len)
