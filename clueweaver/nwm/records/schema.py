"""The extractor's JSON schema and its instructions in words, from the record dataclasses.

A constrained decoder fills every field of the schema; with the paragraph IDs and the chapter it
was shown, it cannot cite a paragraph it did not see or date an event later.
"""

from __future__ import annotations

from dataclasses import fields

from clueweaver.nwm.records.kinds import RECORD_TYPES, Evidence, Record
from clueweaver.nwm.records.validation import record_adapter


def _kind_schema(cls: type[Record], *, id_range: tuple[int, int] | None, max_chapter: int | None) -> dict:
    """pydantic's JSON schema of one record kind as the extractor writes it: with its ``kind``,
    without the chapter the publisher stamps, every field present (null when unknown, for
    constrained decoders fill every field), the evidence written out in place (guided decoding
    wants plain objects, not ``$ref``), and paragraph IDs and event chapters kept to the window."""
    schema = record_adapter(cls).json_schema()
    nested = schema.pop("$defs", {})
    properties = {"kind": {"const": cls.KIND}}
    for f in fields(cls):
        if not f.metadata["stamped"]:
            prop = schema["properties"][f.name]
            ref = prop.pop("$ref", None)
            properties[f.name] = {**nested[ref.rsplit("/", 1)[-1]], **prop} if ref else prop
    if id_range:
        ids = properties["evidence"]["properties"]["paragraph_ids"]["items"]
        ids.update(minimum=id_range[0], maximum=id_range[1])
    if max_chapter is not None and "event_chapter" in properties:
        chapter, _null = properties["event_chapter"]["anyOf"]
        chapter["maximum"] = max_chapter
    return {**schema, "description": cls.SUMMARY, "properties": properties, "required": list(properties)}


def extraction_schema(
    *, paragraph_ids: range | None = None, chapter: int | None = None, max_records: int = 40
) -> dict:
    """JSON schema of the extractor's output ``{"records": [...]}``; with ``paragraph_ids`` and
    ``chapter`` the decoder cannot cite a paragraph it was not shown or date an event later."""
    id_range = (paragraph_ids.start, paragraph_ids.stop - 1) if paragraph_ids else None
    variants = [_kind_schema(cls, id_range=id_range, max_chapter=chapter) for cls in RECORD_TYPES.values()]
    return {
        "type": "object",
        "properties": {"records": {"type": "array", "items": {"anyOf": variants}, "maxItems": max_records}},
        "required": ["records"],
        "additionalProperties": False,
    }


def record_guide() -> str:
    """The record kinds and their fields in words, for the extractor's instructions."""
    lines = []
    for kind, cls in RECORD_TYPES.items():
        own = [f for f in fields(cls) if f.name not in {g.name for g in fields(Record)}]
        described = "; ".join(f"{f.name}: {f.metadata['description']}" for f in own)
        lines.append(f"- {kind}: {cls.SUMMARY}. Fields: {described}.")
    common = "; ".join(f"{f.name}: {f.metadata['description']}" for f in fields(Record) if not f.metadata["stamped"])
    quote = fields(Evidence)[1].metadata["description"]
    lines.append(f"Every record also has {common} (an object with paragraph_ids and quote: {quote}).")
    return "\n".join(lines)
