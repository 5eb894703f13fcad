"""Segment sources plug in: a new one is a SegmentSource subclass and one registration call, and the
pipeline settings, --segment-source, the legend of ``clueweaver segment`` and the readiness check
then offer it."""

from __future__ import annotations

from importlib.resources import files

import pytest

from clueweaver.books.narrative import from_text, reading_limit
from clueweaver.cli import main
from clueweaver.cli.segment_view import format_segments
from clueweaver.core.registry import RegistryError
from clueweaver.pipeline import PipelineConfig
from clueweaver.protocol.question import Question
from clueweaver.retrieval import get_index
from clueweaver.segments.segmenter import Segment, get_preset
from clueweaver.sources import (
    SEGMENT_SOURCES,
    SegmentSource,
    SegmentSourceError,
    SourceRequest,
    candidate_segments,
    check_source_ready,
    register_source,
)
from tests.nwm_helpers import SMALL_BOOK

BOOK_FILE = str(files("clueweaver").joinpath("data", "demo_mystery.md"))
CLAIM = Question.claim("Ada met Bram at the mill.")
FLAT_BOOK = from_text("Ada met Bram.\n\nRain fell.\n\nCara left the mill.\n\nNight.", title="flat", gutenberg=False)


class OpeningsSource(SegmentSource):
    """A toy source: the first paragraph of every chapter read so far."""

    name = "openings"
    label = "the first paragraph of every chapter"
    kinds = {"opening": "a chapter's first paragraph"}

    def check_ready(self, narrative, config) -> None:
        if not narrative.chapters:
            raise SegmentSourceError(f"{narrative.title!r} has no chapters: give it chapter headings")

    def segments(self, request: SourceRequest) -> list[Segment]:
        self.check_ready(request.narrative, None)
        last = reading_limit(request.narrative, request.max_chapter, request.max_paragraph)
        firsts = [c.first_paragraph for c in request.narrative.chapters if c.first_paragraph <= last]
        return [Segment.span(p, p, "opening", source=self.name) for p in firsts]


@pytest.fixture
def openings():
    register_source(OpeningsSource())
    yield
    SEGMENT_SOURCES.unregister("openings")


def request(book, **limits) -> SourceRequest:
    return SourceRequest(book, CLAIM, get_preset("detectiveqa"), get_index(book, None), encoder=None, **limits)


def test_a_registered_source_gives_the_candidates_and_the_pipeline_accepts_it(openings):
    candidates = candidate_segments(request(SMALL_BOOK, max_chapter=2), "openings")
    assert [s.start for s in candidates.segments] == [c.first_paragraph for c in SMALL_BOOK.chapters[:2]]
    assert candidates.to_dict()["used"] == "openings" and {s.kind for s in candidates.segments} == {"opening"}
    assert PipelineConfig(segment_source="openings").segment_source == "openings"
    shown = format_segments(SMALL_BOOK, CLAIM, get_preset("detectiveqa"), candidates.segments)
    assert "  opening    a chapter's first paragraph" in shown


def test_the_command_line_offers_it_with_its_legend(openings, capsys):
    args = ["segment", BOOK_FILE, "--claim", "It rained.", "--encoder", "none", "--segment-source", "openings"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "opening    a chapter's first paragraph" in out and "window " not in out


def test_its_readiness_check_runs_and_the_plain_segments_stand_in_on_request(openings):
    unready = "segment source openings: 'flat' has no chapters: give it chapter headings; .*--segment-fallback"
    with pytest.raises(SegmentSourceError, match=unready):
        check_source_ready(FLAT_BOOK, PipelineConfig(segment_source="openings"))
    check_source_ready(SMALL_BOOK, PipelineConfig(segment_source="openings"))
    fallen = candidate_segments(request(FLAT_BOOK), "openings", fallback=True)
    assert fallen.to_dict()["used"] == "plain" and {s.source for s in fallen.segments} == {"plain"}
    assert fallen.warnings == [f"segment source openings: {fallen.fallback}; the plain segments were read instead"]


def test_an_unregistered_source_is_refused_again():
    register_source(OpeningsSource())
    SEGMENT_SOURCES.unregister("openings")
    with pytest.raises(ValueError, match="unknown segment source 'openings'; use one of plain, nwm, mix, chrono"):
        PipelineConfig(segment_source="openings")


def test_a_source_must_own_its_name_and_explain_its_kinds_once(openings):
    with pytest.raises(RegistryError, match="segment source 'openings' is already registered"):
        register_source(OpeningsSource())

    class Rival(OpeningsSource):
        name = "rival"
        kinds = {"window": "something else"}

    with pytest.raises(RegistryError, match="segment source rival: kind.s. window already mean"):
        register_source(Rival())
    assert "rival" not in SEGMENT_SOURCES.names()


def test_a_segment_of_a_kind_its_source_does_not_declare_is_refused():
    class Careless(OpeningsSource):
        name = "careless"
        kinds = {"beginning": "a chapter's start"}

    register_source(Careless())
    try:
        with pytest.raises(ValueError, match="unknown segment kind 'opening' from segment source careless"):
            candidate_segments(request(SMALL_BOOK), "careless")
    finally:
        SEGMENT_SOURCES.unregister("careless")


def test_a_source_that_does_not_read_a_named_chapter_first_says_so(openings):
    named = SourceRequest(
        SMALL_BOOK, Question.open("In chapter 2, who met at the mill?"), get_preset("detectiveqa"),
        get_index(SMALL_BOOK, None), encoder=None,
    )  # fmt: skip
    (note,) = candidate_segments(named, "openings").warnings
    assert note.startswith("the question names chapter 2: segment source openings ranks the book as it always does")
    assert candidate_segments(named, "plain").warnings == []  # the plain segmenter reads it first
    assert candidate_segments(request(SMALL_BOOK), "openings").warnings == []  # no chapter named, nothing to say
