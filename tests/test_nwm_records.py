"""Typed records: validation from JSON, grounding in the book, the extractor's JSON schema and
the cumulative registries."""

from __future__ import annotations

import json
import re
import typing
from dataclasses import fields

import pytest
from nwm_helpers import FIXTURE, record_json, small_book

from clueweaver.nwm.records import (
    RECORD_TYPES,
    Record,
    Registries,
    Revelation,
    WorldRecordError,
    check_grounding,
    extraction_schema,
    record_from_dict,
    record_guide,
)

BOOK = small_book()
QUOTE = "Bram met Cleo at the mill"  # paragraph 1, chapter 1


def fixture_rows():
    return [json.loads(line) for line in FIXTURE.read_text(encoding="utf-8").splitlines()]


def test_every_kind_in_the_fixture_round_trips():
    rows = fixture_rows()
    assert {row["kind"] for row in rows} == set(RECORD_TYPES)
    for row in rows:
        record = record_from_dict(row)
        assert record_from_dict(record.to_dict()) == record
        assert {k: v for k, v in record.to_dict().items() if k in row} == row
        assert type(record) is RECORD_TYPES[row["kind"]]


@pytest.mark.parametrize(
    "change, message",
    [
        ({"kind": "gossip"}, "kind"),
        ({"aspect": "mood"}, "is not one of"),
        ({"confidence": 1.5}, "between 0 and 1"),
        ({"confidence": True}, "expected a number"),
        ({"character": "  "}, "must not be empty"),
        ({"character": 7}, "expected a string"),
        ({"evidence": {"paragraph_ids": [], "quote": "x"}}, "at least one paragraph"),
        ({"evidence": {"paragraph_ids": ["1"], "quote": "x"}}, "expected an integer"),
        ({"evidence": {"paragraph_ids": [1], "quote": "x", "page": 3}}, "unknown field"),
        ({"mood": "grim"}, "unknown field(s) mood"),
        ({"chapter": -1}, "must be >= 0"),
        ({"kind": {"name": "event"}}, "kind: {'name': 'event'} is not one of"),
        ({"state": "calm\ud800"}, 'record.state: holds a lone surrogate (U.D800, character 5: "calm\ufffd")'),
        ({"evidence": {"paragraph_ids": [1], "quote\udcff": "x"}}, "record.evidence: holds a lone surrogate (U.DCFF"),
    ],
)
def test_invalid_records_name_the_field(change, message):
    row = {
        **record_json("character_state", [1], QUOTE, character="Bram", aspect="emotional", state="calm"),
        "chapter": 1,
    }
    row.update(change)
    with pytest.raises(WorldRecordError, match=message.replace("(", r"\(").replace(")", r"\)")):
        record_from_dict(row)


def test_missing_field_and_cross_field_rules():
    base = record_json("thread", [1], QUOTE, thread="the key", description="where is the key")
    with pytest.raises(WorldRecordError, match="status: missing"):
        record_from_dict({**base, "chapter": 1})
    with pytest.raises(WorldRecordError, match="resolved thread needs its resolution"):
        record_from_dict({**base, "chapter": 1, "status": "resolved"})
    with pytest.raises(WorldRecordError, match="open thread has no resolution"):
        record_from_dict({**base, "chapter": 1, "status": "open", "resolution": "found"})
    with pytest.raises(WorldRecordError, match="cannot reveal a later chapter"):
        record_from_dict(
            {**record_json("revelation", [1], QUOTE, revealed="x", subject="Bram", event_chapter=3), "chapter": 2}
        )


def test_publisher_stamps_the_chapter_and_refuses_a_conflicting_one():
    row = record_json("world_fact", [1], QUOTE, subject="the mill", statement="it stands", is_rule=False)
    assert record_from_dict(row, chapter=4).chapter == 4
    with pytest.raises(WorldRecordError, match="published as chapter 4"):
        record_from_dict({**row, "chapter": 2}, chapter=4)


def test_revelation_keeps_event_and_reveal_chapters_apart():
    record = record_from_dict(
        {
            **record_json(
                "revelation",
                [6],
                "Cleo met Dov",
                revealed="Cleo hid the key",
                subject="Cleo",
                revealed_to=["Dov", "reader"],
                event_chapter=1,
            ),
            "chapter": 2,
        }
    )
    assert isinstance(record, Revelation) and (record.event_chapter, record.chapter) == (1, 2)
    assert ("entity", "dov") in record.registry_keys() and ("entity", "reader") not in record.registry_keys()


def test_grounding_checks_ids_chapters_window_and_verbatim_quote():
    def make(ids, quote, chapter=1):
        return record_from_dict(
            {
                **record_json("character_state", ids, quote, character="Bram", aspect="goal", state="find the key"),
                "chapter": chapter,
            }
        )

    check_grounding(make([1], "bram  MET cleo at the mill"), BOOK)  # case and spacing do not matter
    with pytest.raises(WorldRecordError, match="not in the book"):
        check_grounding(make([99], QUOTE), BOOK)
    with pytest.raises(WorldRecordError, match="chapters after the record's chapter 1"):
        check_grounding(make([1, 6], QUOTE), BOOK)
    with pytest.raises(WorldRecordError, match="not among the paragraphs given"):
        check_grounding(make([1], QUOTE), BOOK, allowed_ids=range(2, 5))
    with pytest.raises(WorldRecordError, match="not verbatim"):
        check_grounding(make([1], "Bram met Dov at the mill"), BOOK)
    check_grounding(make([1, 6], "lost key number 0", chapter=2), BOOK)  # earlier chapters may be cited


def _conforms(value, schema) -> bool:
    """The subset of JSON schema that extraction_schema emits."""
    if "anyOf" in schema:
        return any(_conforms(value, s) for s in schema["anyOf"])
    if "const" in schema:
        return value == schema["const"]
    kind = schema.get("type")
    if "enum" in schema and value not in schema["enum"]:
        return False
    if kind == "null":
        return value is None
    if kind == "string":
        return isinstance(value, str) and len(value) >= schema.get("minLength", 0)
    if kind == "boolean":
        return isinstance(value, bool)
    if kind in ("integer", "number"):
        ok = isinstance(value, int) if kind == "integer" else isinstance(value, (int, float))
        return (
            ok
            and not isinstance(value, bool)
            and schema.get("minimum", value) <= value <= schema.get("maximum", value)
        )
    if kind == "array":
        return (
            isinstance(value, list)
            and len(value) >= schema.get("minItems", 0)
            and len(value) <= schema.get("maxItems", len(value))
            and all(_conforms(v, schema["items"]) for v in value)
        )
    if kind == "object":
        props = schema["properties"]
        return (
            isinstance(value, dict)
            and set(schema["required"]) <= set(value)
            and (schema.get("additionalProperties", True) or set(value) <= set(props))
            and all(_conforms(v, props[k]) for k, v in value.items())
        )
    raise AssertionError(f"unexpected schema {schema}")


def test_schema_is_generated_from_the_dataclasses():
    schema = extraction_schema()
    variants = schema["properties"]["records"]["items"]["anyOf"]
    assert [v["properties"]["kind"]["const"] for v in variants] == list(RECORD_TYPES)
    for variant, cls in zip(variants, RECORD_TYPES.values()):
        expected = {f.name for f in fields(cls)} - {"chapter"}
        assert set(variant["properties"]) - {"kind"} == expected
        for f in fields(cls):
            hint = typing.get_type_hints(cls)[f.name]
            if typing.get_origin(hint) is typing.Literal:
                assert variant["properties"][f.name]["enum"] == list(typing.get_args(hint))


def test_schema_fields_carry_their_descriptions_written_out_in_place():
    schema = extraction_schema()
    for variant, cls in zip(schema["properties"]["records"]["items"]["anyOf"], RECORD_TYPES.values()):
        assert variant["description"] == cls.SUMMARY and variant["required"] == list(variant["properties"])
        for f in fields(cls):
            if f.name != "chapter":
                assert variant["properties"][f.name]["description"] == f.metadata["description"]
        evidence = variant["properties"]["evidence"]
        assert evidence["type"] == "object" and evidence["properties"]["quote"]["description"].startswith("a short")
    assert "$ref" not in json.dumps(schema)  # plain objects for the guided decoder


def test_valid_records_conform_to_the_schema_and_invalid_ones_do_not():
    schema = extraction_schema(paragraph_ids=range(0, 300), chapter=4)
    rows = []
    for row in fixture_rows():
        full = record_from_dict(row).to_dict()
        del full["chapter"]
        rows.append(full)
    assert _conforms({"records": rows}, schema)
    bad = dict(rows[0], aspect="mood")
    assert not _conforms({"records": [bad]}, schema)
    narrow = extraction_schema(paragraph_ids=range(0, 50), chapter=2)
    assert not _conforms({"records": rows}, narrow)  # IDs beyond the window, events after chapter 2


def test_guide_lists_every_kind_with_its_fields():
    guide = record_guide()
    for kind, cls in RECORD_TYPES.items():
        assert f"- {kind}: {cls.SUMMARY}" in guide
    assert "focalizer" in guide and "event_chapter" in guide
    assert not re.search(r"(?<!_)chapter:", guide)  # the publisher stamps the chapter, the model does not


def test_registries_merge_by_key_and_keep_latest_state_per_slot():
    records = [(i, record_from_dict(row)) for i, row in enumerate(fixture_rows())]
    registries = Registries(records)
    assert {r for r, _ in registries.keys()} == {"entity", "relationship", "object", "thread"}
    photo = registries.get("object", "The Photograph")
    assert [(r.chapter, r.KIND) for _, r in photo.history] == [
        (1, "object_state"),
        (2, "object_state"),
        (3, "object_state"),
        (3, "object_delta"),
    ]
    (latest,) = [r for _, r in photo.current() if r.KIND == "object_state"]
    assert latest.chapter == 3 and latest.location == "with Irene Adler abroad"
    holmes = registries.get("entity", "sherlock holmes")
    identity = [r for _, r in holmes.current() if r.KIND == "character_state" and r.aspect == "identity"]
    assert [r.state for r in identity] == [
        "disguised as a simple-minded Nonconformist clergyman"
    ]  # same chapter: later wins
    beats = [r for _, r in holmes.current() if r.KIND == "scene_beat"]
    assert len(beats) == 4  # events accumulate
    pair = registries.get("relationship", "godfrey norton | irene adler")
    assert [r.polarity for _, r in pair.history] == ["positive"]
    assert [(e.registry, e.key) for e in registries.find("Adler")] == [
        ("entity", "irene adler"),
        ("relationship", "godfrey norton | irene adler"),
        ("relationship", "irene adler | sherlock holmes"),
        ("relationship", "irene adler | the king of bohemia"),
    ]
    assert {e.registry for e in registries.find("irene adler")} == {"entity", "relationship"}


def test_every_record_type_is_a_record_with_a_summary():
    for kind, cls in RECORD_TYPES.items():
        assert issubclass(cls, Record) and cls.KIND == kind and cls.SUMMARY
