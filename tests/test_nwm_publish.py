"""Publishing: extraction through a backend, validation, bounded retries, nothing half-merged."""

from __future__ import annotations

import json

import pytest
from nwm_helpers import ScriptedBackend, record_json, small_book

from clueweaver.nwm.publish import (
    ExtractionConfig, ExtractionError, Extractor, parse_extraction, publish_chapters, windows,
)
from clueweaver.nwm.records import RecordError, record_from_dict
from clueweaver.nwm.store import NarrativeStore, chapter_paragraph_ids

BOOK = small_book()


def output(*records) -> str:
    return json.dumps({"records": list(records)})


def where(chapter: int, who: str, place: str, i: int = 1) -> dict:
    pid = chapter_paragraph_ids(BOOK, chapter)[i]
    return record_json("character_state", [pid], BOOK.paragraphs[pid].text[3:30], character=who, aspect="status",
                       state="waiting", location=place)


def shown_ids(conversation) -> list[int]:
    """The paragraph IDs rendered in the excerpt of a prompt."""
    excerpt = conversation[1]["content"].split("Excerpt (")[1]
    return [int(line[1:line.index("]")]) for line in excerpt.splitlines()[1:]]


@pytest.fixture
def store(tmp_path):
    with NarrativeStore.for_narrative(BOOK, tmp_path) as opened:
        yield opened


def test_valid_output_is_stamped_and_merged(store):
    backend = ScriptedBackend([output(where(2, "Ada", "the mill"))])
    extractor = Extractor(backend, config=ExtractionConfig())
    assert publish_chapters(store, BOOK, [2], extractor) == {2: 1}
    (stored,) = store.records(2)
    assert stored.record.chapter == 2 and stored.record.location == "the mill"
    (conversations, _), = backend.calls
    assert shown_ids(conversations[0]) == list(chapter_paragraph_ids(BOOK, 2))
    assert "character_state" in conversations[0][0]["content"] and "focalizer" in conversations[0][0]["content"]
    assert [c.origin for c in store.chapters()] == ["extractor:ScriptedBackend"]


def test_invalid_output_is_sent_back_with_the_reason_then_accepted(store):
    backend = ScriptedBackend(["Sure! Here are the records: {not json}", output(where(3, "Bram", "the tower"))])
    result = Extractor(backend).extract(BOOK, 3)
    assert len(result.records) == 1 and result.attempts == 2
    assert "not valid JSON" in result.rejected[0]
    retry = backend.calls[1][0][0]
    assert retry[-2] == {"role": "assistant", "content": "Sure! Here are the records: {not json}"}
    assert "rejected" in retry[-1]["content"] and "not valid JSON" in retry[-1]["content"]


@pytest.mark.parametrize(
    "bad, reason",
    [
        (output(dict(where(3, "Bram", "the tower"), kind="gossip")), "kind"),
        (output(dict(where(3, "Bram", "the tower"), evidence={"paragraph_ids": [2], "quote": "met"})), "not among the paragraphs given"),
        (output(dict(where(3, "Bram", "the tower"), evidence={"paragraph_ids": [11], "quote": "invented words"})), "not verbatim"),
        (output(dict(where(3, "Bram", "the tower"), chapter=2)), "published as chapter 3"),
        (output(record_json("revelation", [11], "chapter 3", revealed="x", subject="Bram", event_chapter=4)), "later chapter"),
        (json.dumps({"records": [], "notes": "none"}), 'exactly one key, "records"'),
        (output(*[where(3, "Bram", "the tower")] * 5), "at most 4 records"),
        ("I cannot help with that.", "no JSON object"),
    ],
)
def test_each_kind_of_invalid_output_is_rejected(bad, reason):
    with pytest.raises(RecordError, match=reason):
        parse_extraction(bad, BOOK, 3, chapter_paragraph_ids(BOOK, 3), max_records=4)


def test_thinking_is_ignored_when_parsing():
    text = "<think>{maybe this}</think>" + output(where(3, "Bram", "the tower"))
    assert len(parse_extraction(text, BOOK, 3, chapter_paragraph_ids(BOOK, 3), max_records=4)) == 1


def test_retries_are_bounded_and_a_failed_chapter_merges_nothing(store):
    store.replace_chapters(BOOK, {3: []}, origin="before")
    backend = ScriptedBackend(["nope"] * 3)
    with pytest.raises(ExtractionError, match="chapter 3: no valid extraction.*3 attempt") as caught:
        publish_chapters(store, BOOK, [3], Extractor(backend, config=ExtractionConfig(max_attempts=3)))
    assert len(backend.calls) == 3 and caught.value.chapter == 3
    assert [(c.chapter, c.origin) for c in store.chapters()] == [(3, "before")]


def test_windows_are_batched_and_one_bad_window_keeps_the_whole_chapter_out(store):
    parts = windows(BOOK, 2, max_chars=170)
    assert len(parts) >= 2 and [i for r in parts for i in r] == list(chapter_paragraph_ids(BOOK, 2))

    def answer_for_window(conversation):
        ids = shown_ids(conversation)
        return output(where(2, "Ada", "the mill", i=ids[0] - chapter_paragraph_ids(BOOK, 2).start))

    good_then_bad = [answer_for_window] + ["broken"] * (len(parts) - 1) + ["broken"] * (len(parts) - 1)
    backend = ScriptedBackend(good_then_bad)
    extractor = Extractor(backend, config=ExtractionConfig(window_chars=170, max_attempts=2))
    with pytest.raises(ExtractionError):
        publish_chapters(store, BOOK, [2], extractor)
    assert len(backend.calls[0][0]) == len(parts)  # one batched call for all windows
    assert len(backend.calls[1][0]) == len(parts) - 1  # only the failed windows are asked again
    assert store.records(5) == [] and store.chapters() == []

    backend = ScriptedBackend([answer_for_window] * len(parts))
    extractor = Extractor(backend, config=ExtractionConfig(window_chars=170))
    assert publish_chapters(store, BOOK, [2], extractor) == {2: len(parts)}
    assert len(backend.calls) == 1


def test_the_extractor_sees_only_the_state_before_its_chapter(store):
    store.replace_chapters(BOOK, {1: [record_from_dict({**where(1, "Ada", "the mill"), "chapter": 1})], 4: []}, origin="test")
    prompts = []

    def capture(conversation):
        prompts.append(conversation[1]["content"])
        return output()

    publish_chapters(store, BOOK, [2], Extractor(ScriptedBackend([capture])))
    assert "Ada (status): waiting, at the mill" in prompts[0]
    publish_chapters(store, BOOK, [1], Extractor(ScriptedBackend([capture])))
    assert "(nothing yet)" in prompts[1]


def test_structured_output_settings_carry_the_schema_when_the_backend_supports_it():
    from dataclasses import dataclass

    @dataclass(frozen=True)
    class Sampling:
        temperature: float = 0.0
        json_schema: dict | None = None

    backend = ScriptedBackend([output()])
    Extractor(backend, sampling=Sampling()).extract(BOOK, 2)
    schema = backend.calls[0][1].json_schema
    ids = schema["properties"]["records"]["items"]["anyOf"][0]["properties"]["evidence"]["properties"]["paragraph_ids"]["items"]
    assert (ids["minimum"], ids["maximum"]) == (chapter_paragraph_ids(BOOK, 2).start, chapter_paragraph_ids(BOOK, 2).stop - 1)
