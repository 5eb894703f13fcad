"""Reading records: validation of parsed JSON against the record kinds, and grounding in the book.

The validator (``record_from_dict``) is pydantic reading the dataclasses' type hints; grounding
(``check_grounding``) checks that a record's evidence exists in the book, comes from chapters up
to the record's own and contains its quote verbatim.
"""

from __future__ import annotations

import functools
import unicodedata

from pydantic import TypeAdapter, ValidationError

from clueweaver.books.narrative import Narrative
from clueweaver.core.validation import describe_errors, validate_plain
from clueweaver.nwm.records.kinds import RECORD_TYPES, Record, WorldRecordError


@functools.cache
def record_adapter(cls: type[Record]) -> TypeAdapter:
    """pydantic's validator and schema of one record kind, built once: every record read from the
    store goes through it."""
    return TypeAdapter(cls)


def record_from_dict(data, *, chapter: int | None = None, path: str = "record") -> Record:
    """Validate one record given as parsed JSON.

    ``chapter`` stamps the record (the publisher's chapter); a record that carries a different
    chapter of its own is refused rather than silently moved.
    """
    if not isinstance(data, dict):
        raise WorldRecordError(f"{path}: expected an object, got {type(data).__name__}")
    fields = dict(data)
    kind = fields.pop("kind", None)
    if not isinstance(kind, str) or kind not in RECORD_TYPES:
        raise WorldRecordError(f"{path}.kind: {kind!r} is not one of {', '.join(RECORD_TYPES)}")
    if chapter is not None:
        given = fields.get("chapter")
        if given is not None and given != chapter:
            raise WorldRecordError(
                f"{path}.chapter: the record says chapter {given!r} but is published as chapter {chapter}"
            )
        fields["chapter"] = chapter
    try:
        return validate_plain(record_adapter(RECORD_TYPES[kind]), fields)
    except ValidationError as exc:
        raise WorldRecordError(describe_errors(exc, fields, path)) from None


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
