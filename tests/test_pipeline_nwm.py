"""The Narrative World Model as the pipeline's segment source (--segment-source nwm|mix)."""

from __future__ import annotations

import pytest

from clueweaver.backends import load_backend
from clueweaver.nwm.records import record_from_dict
from clueweaver.nwm.store import NarrativeStore
from clueweaver.pipeline import ClueWeaver, PipelineConfig
from clueweaver.protocol.question import Question
from clueweaver.segments.segmenter import segment_narrative
from clueweaver.sources import SegmentSourceError
from clueweaver.systems.base import reader_output
from tests.conftest import shared_path
from tests.nwm_helpers import FIXTURE, holmes_book

QUESTION = Question.claim("The King of Bohemia wants the photograph of himself and Irene Adler back.")


def run(narrative, source, nwm_dir, **limits):
    def script(messages, adapter):
        if adapter == "finder":
            return "<reason>It shows the photograph.</reason><answer>YES</answer>"
        return "<reason>The evidence says so.</reason><answer>TRUE</answer>"

    backend = load_backend("scripted", "agents", script=script, adapters=("finder", "interpreter"))
    config = PipelineConfig(
        segment_source=source,
        nwm_dir=str(nwm_dir),
        encoder=None,
        finder_adapter="finder",
        interpreter_adapter="interpreter",
    )
    return ClueWeaver(backend, config=config).answer(narrative, QUESTION, **limits)


@pytest.fixture(scope="module")
def holmes_store(tmp_path_factory):
    narrative = holmes_book(shared_path)
    nwm_dir = tmp_path_factory.mktemp("nwm")
    with NarrativeStore.for_narrative(narrative, data_dir=nwm_dir) as store:
        store.import_jsonl(narrative, FIXTURE)
    return narrative, nwm_dir


def test_world_model_records_become_finder_segments(holmes_store):
    narrative, nwm_dir = holmes_store
    result = run(narrative, "nwm", nwm_dir)
    kinds = {segment["kind"] for segment in result.trace["segments"]}
    assert kinds == {"nwm"}
    # the records are about "A Scandal in Bohemia": chapters 1.1-1.3 of the book
    last = narrative.chapters[2].last_paragraph
    assert all(segment["span"][1] <= last for segment in result.trace["segments"])
    assert result.answer == "TRUE" and set(result.citations) <= set(result.packet.paragraph_ids)


def test_mix_adds_the_plain_segments_and_chapter_limits_hold(holmes_store):
    narrative, nwm_dir = holmes_store
    mixed = run(narrative, "mix", nwm_dir)
    assert {"nwm", "retrieval"} <= {segment["kind"] for segment in mixed.trace["segments"]}
    limited = run(narrative, "mix", nwm_dir, max_chapter=2)
    last = narrative.last_paragraph_of_chapter(2)
    assert all(segment["span"][1] <= last for segment in limited.trace["segments"])
    assert all(i <= last for i in limited.packet.paragraph_ids)


def test_a_paragraph_limit_bounds_the_ranking_of_mixed_segments_not_only_their_ends(holmes_store):
    narrative, nwm_dir = holmes_store
    last = narrative.chapters[2].first_paragraph + 5  # a reading position inside the story
    limited = run(narrative, "mix", nwm_dir, max_paragraph=last)
    ids = {i for segment in limited.trace["segments"] for i in segment["paragraph_ids"]}
    assert ids and max(ids) <= last and max(limited.packet.paragraph_ids) <= last
    plain = segment_narrative(narrative, QUESTION, "detectiveqa", encoder=None, max_paragraph=last)
    assert {
        i for segment in plain for i in segment.paragraph_ids
    } <= ids  # the plain segmenter's own choice at that limit


def test_unknown_segment_source_is_refused():
    with pytest.raises(ValueError, match="segment source"):
        PipelineConfig(segment_source="graph")


# --- a source that has nothing to give: an error by default, a recorded fallback on request -------------------


def small_run(tmp_path, **config):
    """ClueWeaver on the small NWM book with a scripted model (the Finder keeps all, the claim is TRUE)."""
    from tests.nwm_helpers import SMALL_BOOK

    backend = load_backend(
        "scripted", "agents", script=lambda m, a: "<reason>So it says.</reason><answer>YES</answer>"
        if a == "finder" else "<reason>So it says.</reason><answer>TRUE</answer>", adapters=("finder", "interpreter"),
    )  # fmt: skip
    settings = dict(encoder=None, finder_adapter="finder", interpreter_adapter="interpreter", segment_source="nwm")
    pipeline = ClueWeaver(backend, config=PipelineConfig(**{**settings, **config}))
    return pipeline.answer(SMALL_BOOK, Question.claim("Ada met Bram at the mill."))


def test_nwm_without_a_world_model_stops_and_leaves_no_store_behind(tmp_path):
    folder = tmp_path / "stores"
    with pytest.raises(SegmentSourceError, match="no world model of 'small book'.*--segment-fallback"):
        small_run(tmp_path, nwm_dir=str(folder))
    assert not folder.exists()


def test_a_fallback_is_named_by_the_trace_and_the_evaluation_record(tmp_path):
    folder = tmp_path / "stores"
    result = small_run(tmp_path, nwm_dir=str(folder), segment_fallback=True)
    trace = result.trace
    assert trace["config"]["segment_source"] == "nwm" and trace["config"]["nwm_dir"] == str(folder)
    assert trace["config"]["segment_fallback"] is True
    assert trace["segment_source"]["requested"] == "nwm" and trace["segment_source"]["used"] == "plain"
    assert "no world model of 'small book'" in trace["segment_source"]["fallback"]
    assert any(w.startswith("segment source nwm: no world model") for w in trace["warnings"])
    assert {segment["source"] for segment in trace["segments"]} == {"plain"}
    details = reader_output(result).details
    assert details["segment_source"]["used"] == "plain"
    assert details["segment_source"]["segments"] == ["plain"] * len(trace["segments"])
    assert any("the plain segments were read instead" in w for w in details["warnings"])
    assert not folder.exists()


def test_records_name_the_world_model_as_the_source_of_its_segments(tmp_path):
    from tests.nwm_helpers import SMALL_BOOK, by_chapter, record_json

    text = SMALL_BOOK[2].text
    record = record_json("character_state", [2], text[:30], character="Ada", aspect="status", state="at the mill")
    with NarrativeStore.for_narrative(SMALL_BOOK, tmp_path) as store:
        store.replace_chapters(SMALL_BOOK, by_chapter([record_from_dict({**record, "chapter": 1})]), origin="test")
    result = small_run(tmp_path, nwm_dir=str(tmp_path))
    assert result.trace["segment_source"] == {
        "requested": "nwm", "used": "nwm", "fallback": None, "segments_by_source": {"nwm": 1}
    }  # fmt: skip
    assert [s["source"] for s in result.trace["segments"]] == ["nwm"] and result.trace["segments"][0]["span"] == [1, 3]
    assert reader_output(result).details["segment_source"]["segments"] == ["nwm"]
