"""The Narrative World Model as the pipeline's segment source (--segment-source nwm|mix)."""

from __future__ import annotations

import pytest

from clueweaver.backends import load_backend
from clueweaver.nwm.store import NarrativeStore
from clueweaver.pipeline import ClueWeaver, PipelineConfig
from clueweaver.protocol.question import Question
from clueweaver.segment import segment_narrative
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
    # the records are about "A Scandal in Bohemia": chapters 2-4 of the book
    last = narrative.chapters[3].last_paragraph
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
    last = narrative.chapters[3].first_paragraph + 5  # a reading position inside the story
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
