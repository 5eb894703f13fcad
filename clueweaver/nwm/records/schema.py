"""The extractor's JSON schema and its instructions in words, from the record dataclasses.

A constrained decoder fills every field of the schema; with the paragraph IDs and the chapter it
was shown, it cannot cite a paragraph it did not see or date an event later.
"""

from __future__ import annotations

import types
import typing
from dataclasses import fields
from typing import Literal

from clueweaver.nwm.records.kinds import RECORD_TYPES, Evidence, Record, record_hints


def _schema(hint, *, id_range: tuple[int, int] | None, max_chapter: int | None, name: str) -> dict:
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        (inner,) = [a for a in args if a is not type(None)]
        return {"anyOf": [_schema(inner, id_range=id_range, max_chapter=max_chapter, name=name), {"type": "null"}]}
    if origin is Literal:
        return {"type": "string", "enum": list(args)}
    if origin is tuple:
        items = _schema(args[0], id_range=id_range, max_chapter=max_chapter, name=name)
        out = {"type": "array", "items": items}
        if name == "paragraph_ids":
            out["minItems"] = 1
        return out
    if hint is bool:
        return {"type": "boolean"}
    if hint is int:
        out = {"type": "integer", "minimum": 0}
        if name == "paragraph_ids" and id_range:
            out.update(minimum=id_range[0], maximum=id_range[1])
        if name == "event_chapter" and max_chapter is not None:
            out["maximum"] = max_chapter
        return out
    if hint is float:
        return {"type": "number", "minimum": 0, "maximum": 1}
    if hint is str:
        return {"type": "string", "minLength": 1}
    return _object_schema(hint, id_range=id_range, max_chapter=max_chapter)


def _object_schema(cls, *, id_range, max_chapter) -> dict:
    hints = record_hints(cls)
    properties, required = {}, []
    kind = getattr(cls, "KIND", "")
    if kind:
        properties["kind"] = {"const": kind}
        required.append("kind")
    for f in fields(cls):
        if f.metadata.get("stamped"):
            continue
        prop = _schema(hints[f.name], id_range=id_range, max_chapter=max_chapter, name=f.name)
        if f.metadata.get("doc"):
            prop["description"] = f.metadata["doc"]
        properties[f.name] = prop
        required.append(f.name)  # constrained decoders fill every field (null when unknown)
    return {"type": "object", "properties": properties, "required": required, "additionalProperties": False}


def extraction_schema(
    *, paragraph_ids: range | None = None, chapter: int | None = None, max_records: int = 40
) -> dict:
    """JSON schema of the extractor's output ``{"records": [...]}``; with ``paragraph_ids`` and
    ``chapter`` the decoder cannot cite a paragraph it was not shown or date an event later."""
    id_range = (paragraph_ids.start, paragraph_ids.stop - 1) if paragraph_ids else None
    variants = [_object_schema(cls, id_range=id_range, max_chapter=chapter) for cls in RECORD_TYPES.values()]
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
        described = "; ".join(f"{f.name}: {f.metadata['doc']}" for f in own)
        lines.append(f"- {kind}: {cls.SUMMARY}. Fields: {described}.")
    common = "; ".join(f"{f.name}: {f.metadata['doc']}" for f in fields(Record) if not f.metadata["stamped"])
    quote = fields(Evidence)[1].metadata["doc"]
    lines.append(f"Every record also has {common} (an object with paragraph_ids and quote: {quote}).")
    return "\n".join(lines)
