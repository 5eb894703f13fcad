"""Publishing: extraction through a backend, validation, bounded retries, nothing half-merged."""

from __future__ import annotations

import json

import pytest
from nwm_helpers import record_json, scripted, small_book

from clueweaver.nwm.publish import (
    ExtractionConfig,
    ExtractionError,
    Extractor,
    constrained,
    parse_extraction,
    publish_chapters,
    windows,
)
from clueweaver.nwm.records import WorldRecordError, extraction_schema, record_from_dict
from clueweaver.nwm.store import NarrativeStore, chapter_paragraph_ids

BOOK = small_book()


def output(*records) -> str:
    return json.dumps({"records": list(records)})


def where(chapter: int, who: str, place: str, i: int = 1) -> dict:
    pid = chapter_paragraph_ids(BOOK, chapter)[i]
    return record_json(
        "character_state",
        [pid],
        BOOK.paragraphs[pid].text[3:30],
        character=who,
        aspect="status",
        state="waiting",
        location=place,
    )


def shown_ids(conversation) -> list[int]:
    """The paragraph IDs rendered in the excerpt of a prompt."""
    excerpt = conversation[1]["content"].split("Excerpt (")[1]
    return [int(line[1 : line.index("]")]) for line in excerpt.splitlines()[1:]]


@pytest.fixture
def store(tmp_path):
    with NarrativeStore.for_narrative(BOOK, tmp_path) as opened:
        yield opened


def test_valid_output_is_stamped_and_merged(store):
    backend = scripted(output(where(2, "Ada", "the mill")))
    extractor = Extractor(backend, config=ExtractionConfig())
    assert publish_chapters(store, BOOK, [2], extractor) == {2: 1}
    (stored,) = store.records(2)
    assert stored.record.chapter == 2 and stored.record.location == "the mill"
    (call,) = backend.calls
    conversations = call.conversations
    assert shown_ids(conversations[0]) == list(chapter_paragraph_ids(BOOK, 2))
    assert "character_state" in conversations[0][0]["content"] and "focalizer" in conversations[0][0]["content"]
    assert [c.origin for c in store.chapters()] == ["extractor:scripted:scripted"]


def test_invalid_output_is_sent_back_with_the_reason_then_accepted(store):
    backend = scripted("Sure! Here are the records: {not json}", output(where(3, "Bram", "the tower")))
    result = Extractor(backend).extract(BOOK, 3)
    assert len(result.records) == 1 and result.attempts == 2
    assert "not valid JSON" in result.rejected[0]
    retry = backend.calls[1].conversations[0]
    assert retry[-2] == {"role": "assistant", "content": "Sure! Here are the records: {not json}"}
    assert "rejected" in retry[-1]["content"] and "not valid JSON" in retry[-1]["content"]


@pytest.mark.parametrize(
    "bad, reason",
    [
        (output(dict(where(3, "Bram", "the tower"), kind="gossip")), "kind"),
        (
            output(dict(where(3, "Bram", "the tower"), evidence={"paragraph_ids": [2], "quote": "met"})),
            "not among the paragraphs given",
        ),
        (
            output(dict(where(3, "Bram", "the tower"), evidence={"paragraph_ids": [11], "quote": "invented words"})),
            "not verbatim",
        ),
        (output(dict(where(3, "Bram", "the tower"), chapter=2)), "published as chapter 3"),
        (
            output(record_json("revelation", [11], "chapter 3", revealed="x", subject="Bram", event_chapter=4)),
            "later chapter",
        ),
        (json.dumps({"records": [], "notes": "none"}), 'exactly one key, "records"'),
        (output(*[where(3, "Bram", "the tower")] * 5), "at most 4 records"),
        ("I cannot help with that.", "no JSON object"),
    ],
)
def test_each_kind_of_invalid_output_is_rejected(bad, reason):
    with pytest.raises(WorldRecordError, match=reason):
        parse_extraction(bad, BOOK, 3, chapter_paragraph_ids(BOOK, 3), max_records=4)


def test_thinking_is_ignored_when_parsing():
    text = "<think>{maybe this}</think>" + output(where(3, "Bram", "the tower"))
    assert len(parse_extraction(text, BOOK, 3, chapter_paragraph_ids(BOOK, 3), max_records=4)) == 1


def test_retries_are_bounded_and_a_failed_chapter_merges_nothing(store):
    store.replace_chapters(BOOK, {3: []}, origin="before")
    backend = scripted(*["nope"] * 3)
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
    backend = scripted(*good_then_bad)
    extractor = Extractor(backend, config=ExtractionConfig(window_chars=170, max_attempts=2))
    with pytest.raises(ExtractionError):
        publish_chapters(store, BOOK, [2], extractor)
    assert len(backend.calls[0].conversations) == len(parts)  # one batched call for all windows
    assert len(backend.calls[1].conversations) == len(parts) - 1  # only the failed windows are asked again
    assert store.records(5) == [] and store.chapters() == []

    backend = scripted(*[answer_for_window] * len(parts))
    extractor = Extractor(backend, config=ExtractionConfig(window_chars=170))
    assert publish_chapters(store, BOOK, [2], extractor) == {2: len(parts)}
    assert len(backend.calls) == 1


def conversations_sent(store, chapters: list[int]) -> list[list[dict]]:
    """The conversations the extractor sends while publishing ``chapters`` (each reply: no records)."""
    sent = []

    def capture(conversation):
        sent.append(conversation)
        return output()

    publish_chapters(store, BOOK, chapters, Extractor(scripted(capture)))
    return sent


def test_the_extractor_sees_only_the_state_before_its_chapter(store):
    store.replace_chapters(
        BOOK, {1: [record_from_dict({**where(1, "Ada", "the mill"), "chapter": 1})], 4: []}, origin="test"
    )
    assert "Ada (status): waiting, at the mill" in conversations_sent(store, [2])[0][1]["content"]
    assert "(nothing yet)" in conversations_sent(store, [1])[0][1]["content"]


def test_records_are_asked_for_in_the_language_of_the_excerpt(store):
    """Record texts are ranked by BM25 in their own language: a French book's records must be French."""
    system = conversations_sent(store, [2])[0][0]["content"]
    assert "write every field in the language of the excerpt" in system


def test_the_schema_goes_with_the_sampling_settings():
    from clueweaver.backends import SamplingConfig

    backend = scripted(output())
    Extractor(backend).extract(BOOK, 2)
    sampling = backend.calls[0].sampling
    schema = json.loads(sampling.json_schema)
    ids = schema["properties"]["records"]["items"]["anyOf"][0]["properties"]["evidence"]["properties"][
        "paragraph_ids"
    ]["items"]
    assert (ids["minimum"], ids["maximum"]) == (
        chapter_paragraph_ids(BOOK, 2).start,
        chapter_paragraph_ids(BOOK, 2).stop - 1,
    )
    assert sampling.greedy and sampling.max_new_tokens == ExtractionConfig().max_new_tokens
    with pytest.raises(ValueError, match="exclusive"):
        SamplingConfig(structured_output=True, json_schema="{}")


def test_the_schema_reaches_vllm_as_a_json_constraint(monkeypatch, tiny_qwen3_path):
    import test_backends_vllm as fake

    fake._install_fake_vllm(monkeypatch)
    from clueweaver.backends import load_backend

    backend = load_backend("vllm", str(tiny_qwen3_path), max_model_len=32768)
    with pytest.raises(ExtractionError):  # the stand-in engine does not write records
        Extractor(backend, config=ExtractionConfig(max_attempts=1)).extract(BOOK, 2)
    (call,) = fake.FakeLLM.instances[0].calls
    constraint = call["sampling_params"].kwargs["structured_outputs"]
    assert constraint.regex is None
    assert constraint.json == extraction_schema(paragraph_ids=chapter_paragraph_ids(BOOK, 2), chapter=2)


@pytest.mark.slow
def test_real_extraction_path_with_the_tiny_qwen3_model(tmp_path, tiny_qwen3_path):
    """The transformers backend end to end: chat template, batched generation, parsing,
    validation, bounded retries. transformers cannot constrain decoding, so the schema is not sent
    (the backend would refuse it) and the output is validated as it comes. A random model writes
    no valid records, so the chapter ends in ExtractionError with nothing merged."""
    from clueweaver.backends import SamplingConfig, load_backend

    backend = load_backend("hf", str(tiny_qwen3_path))
    assert constrained(backend, SamplingConfig(), {"type": "object"}) == SamplingConfig()
    config = ExtractionConfig(max_attempts=2, max_new_tokens=24)
    with NarrativeStore.for_narrative(BOOK, tmp_path) as store:
        store.replace_chapters(
            BOOK, {2: [record_from_dict({**where(2, "Ada", "the mill"), "chapter": 2})]}, origin="before"
        )
        with pytest.raises(ExtractionError) as caught:
            publish_chapters(store, BOOK, [2], Extractor(backend, config=config))
        ((ids, errors),) = caught.value.failures
        assert ids == chapter_paragraph_ids(BOOK, 2) and len(errors) == 2
        assert all("JSON" in error or "records" in error for error in errors)
        assert [s.record.location for s in store.records(5)] == ["the mill"]
        assert [c.origin for c in store.chapters()] == ["before"]


def test_the_schema_reaches_vllm_serve_as_a_json_constraint():
    from test_backends_openai import FAST_RETRIES, ChatServer

    from clueweaver.backends import load_backend

    server = ChatServer().start()
    try:
        with load_backend("openai", "tiny", base_url=server.base_url, **FAST_RETRIES) as backend:
            with pytest.raises(ExtractionError):  # the stand-in server echoes the prompt
                Extractor(backend, config=ExtractionConfig(max_attempts=1)).extract(BOOK, 3)
    finally:
        server.stop()
    (request,) = [r for r in server.requests if r["path"].endswith("/chat/completions")]
    expected = extraction_schema(paragraph_ids=chapter_paragraph_ids(BOOK, 3), chapter=3)
    assert request["body"]["structured_outputs"] == {"json": expected}
