"""Reading records: validation of parsed JSON against the record kinds, and grounding in the book.

The validator (``record_from_dict``) is driven by the dataclasses' type hints; grounding
(``check_grounding``) checks that a record's evidence exists in the book, comes from chapters up
to the record's own and contains its quote verbatim.
"""

from __future__ import annotations

import types
import typing
import unicodedata
from dataclasses import MISSING, fields
from typing import Literal

from clueweaver.books.narrative import Narrative
from clueweaver.nwm.records.kinds import RECORD_TYPES, Record, WorldRecordError, record_hints


def _coerce(value, hint, path: str):
    """Check ``value`` (parsed JSON) against a type hint; return it in the dataclass's form."""
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        if value is None:
            if type(None) in args:
                return None
            raise WorldRecordError(f"{path}: must not be null")
        (inner,) = [a for a in args if a is not type(None)]
        return _coerce(value, inner, path)
    if value is None:
        raise WorldRecordError(f"{path}: must not be null")
    if origin is Literal:
        if value not in args:
            raise WorldRecordError(f"{path}: {value!r} is not one of {', '.join(map(str, args))}")
        return value
    if origin is tuple:
        if not isinstance(value, list):
            raise WorldRecordError(f"{path}: expected a list, got {type(value).__name__}")
        return tuple(_coerce(v, args[0], f"{path}[{i}]") for i, v in enumerate(value))
    if hint is bool:
        if not isinstance(value, bool):
            raise WorldRecordError(f"{path}: expected true or false, got {value!r}")
        return value
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise WorldRecordError(f"{path}: expected an integer, got {value!r}")
        if value < 0:
            raise WorldRecordError(f"{path}: must be >= 0, got {value}")
        return value
    if hint is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise WorldRecordError(f"{path}: expected a number, got {value!r}")
        return float(value)
    if hint is str:
        if not isinstance(value, str):
            raise WorldRecordError(f"{path}: expected a string, got {type(value).__name__}")
        value = " ".join(value.split())
        if not value:
            raise WorldRecordError(f"{path}: must not be empty")
        return value
    if isinstance(hint, type) and hasattr(hint, "__dataclass_fields__"):
        return _build(hint, value, path)
    raise TypeError(f"unsupported field type {hint!r} at {path}")  # a programming error, not bad input


def _build(cls, data, path: str, *, overrides: dict | None = None):
    if not isinstance(data, dict):
        raise WorldRecordError(f"{path}: expected an object, got {type(data).__name__}")
    hints = record_hints(cls)
    known = {f.name: f for f in fields(cls)}
    unknown = sorted(set(data) - set(known) - {"kind"})
    if unknown:
        raise WorldRecordError(
            f"{path}: unknown field(s) {', '.join(unknown)} for {getattr(cls, 'KIND', '') or cls.__name__}"
        )
    values = dict(overrides or {})
    for name, f in known.items():
        if name in values:
            continue
        if name not in data:
            if f.default is MISSING:
                raise WorldRecordError(f"{path}.{name}: missing")
            continue
        values[name] = _coerce(data[name], hints[name], f"{path}.{name}")
    try:
        return cls(**values)
    except WorldRecordError as exc:
        raise WorldRecordError(f"{path}: {exc}") from None


def record_from_dict(data, *, chapter: int | None = None, path: str = "record") -> Record:
    """Validate one record given as parsed JSON.

    ``chapter`` stamps the record (the publisher's chapter); a record that carries a different
    chapter of its own is refused rather than silently moved.
    """
    if not isinstance(data, dict):
        raise WorldRecordError(f"{path}: expected an object, got {type(data).__name__}")
    kind = data.get("kind")
    if kind not in RECORD_TYPES:
        raise WorldRecordError(f"{path}.kind: {kind!r} is not one of {', '.join(RECORD_TYPES)}")
    overrides = {}
    if chapter is not None:
        given = data.get("chapter")
        if given is not None and given != chapter:
            raise WorldRecordError(
                f"{path}.chapter: the record says chapter {given!r} but is published as chapter {chapter}"
            )
        overrides["chapter"] = chapter
    return _build(RECORD_TYPES[kind], data, path, overrides=overrides)


_QUOTE_FOLD = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u2014": "-", "\u2013": "-"})


def _fold(text: str) -> str:
    """Compare quotes modulo case, spacing and typographic punctuation, which models rewrite."""
    return " ".join(unicodedata.normalize("NFKC", text).translate(_QUOTE_FOLD).casefold().split())


def check_grounding(record: Record, narrative: Narrative, *, allowed_ids=None, path: str = "record") -> None:
    """The evidence must exist in the book, come from chapters up to the record's own (so a
    record never carries a later chapter's text), stay within ``allowed_ids`` when given (the
    paragraphs the extractor was shown), and contain the quote."""
    ids = record.evidence.paragraph_ids
    bad = [i for i in ids if not 0 <= i < len(narrative.paragraphs)]
    if bad:
        raise WorldRecordError(
            f"{path}.evidence.paragraph_ids: {bad} not in the book (0..{len(narrative.paragraphs) - 1})"
        )
    if allowed_ids is not None:
        outside = [i for i in ids if i not in allowed_ids]
        if outside:
            raise WorldRecordError(f"{path}.evidence.paragraph_ids: {outside} are not among the paragraphs given")
    later = [i for i in ids if narrative.paragraphs[i].chapter > record.chapter]
    if later:
        raise WorldRecordError(
            f"{path}.evidence.paragraph_ids: {later} belong to chapters after the record's chapter {record.chapter}"
        )
    haystack = _fold(" ".join(narrative.paragraphs[i].text for i in ids))
    if _fold(record.evidence.quote) not in haystack:
        raise WorldRecordError(
            f"{path}.evidence.quote: {record.evidence.quote!r} is not verbatim in paragraphs {list(ids)}"
        )
