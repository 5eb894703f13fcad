"""Typed, evidence-backed narrative records (NWM section 3.2) and their cumulative registries.

Every record is stamped with the chapter it was derived from and carries evidence (paragraph IDs
of the book plus a verbatim quote) and a confidence, so that anything the world model says can be
traced back to the text and never leaks a later chapter.

The dataclasses below are the single source of truth: the validator (``record_from_dict``) and
the JSON schema handed to a constrained decoder (``extraction_schema``) are both derived from
their type hints and field docs, so they cannot drift apart.
"""

from __future__ import annotations

import functools
import re
import types
import typing
import unicodedata
from dataclasses import MISSING, dataclass, field, fields
from typing import ClassVar, Literal

from clueweaver.errors import ClueWeaverError

if typing.TYPE_CHECKING:
    from clueweaver.narrative import Narrative


class WorldRecordError(ClueWeaverError, ValueError):
    """A record that does not fit its type or its book; the message names the field and the problem."""


def doc(text: str, default=MISSING, *, stamped: bool = False):
    """A dataclass field with a description for the extractor's prompt and schema.

    ``stamped`` fields (the chapter) are set by the publisher, never by the extractor.
    """
    metadata = {"doc": text, "stamped": stamped}
    if default is MISSING:
        return field(metadata=metadata)
    return field(default=default, metadata=metadata)


def name_key(name: str) -> str:
    """Registry key of a name: case and spacing do not make a different entity."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


@dataclass(frozen=True, kw_only=True)
class Evidence:
    paragraph_ids: tuple[int, ...] = doc("IDs of the paragraphs (the [n] numbers) that support the record")
    quote: str = doc("a short verbatim quote from those paragraphs, copied exactly")

    def __post_init__(self) -> None:
        if not self.paragraph_ids:
            raise WorldRecordError("evidence.paragraph_ids: at least one paragraph ID is needed")
        object.__setattr__(self, "paragraph_ids", tuple(sorted(set(self.paragraph_ids))))


@dataclass(frozen=True, kw_only=True)
class Record:
    """Fields every record has. Subclasses add their own and say how they join registries."""

    KIND: ClassVar[str] = ""
    SUMMARY: ClassVar[str] = ""  # one line for the extractor's instructions

    chapter: int = doc("chapter the record was derived from", stamped=True)
    evidence: Evidence = doc("where the text says so")
    confidence: float = doc("how sure the reading is, from 0 to 1")

    def __post_init__(self) -> None:
        if self.chapter < 0:
            raise WorldRecordError(f"{self.KIND}.chapter: must be >= 0, got {self.chapter}")
        if not 0.0 <= self.confidence <= 1.0:
            raise WorldRecordError(f"{self.KIND}.confidence: must be between 0 and 1, got {self.confidence}")

    # -- how a record is keyed -------------------------------------------------------------------

    def registry_keys(self) -> list[tuple[str, str]]:
        """(registry, key) pairs under which the record is filed: entity, relationship, object, thread."""
        raise NotImplementedError

    def slot(self) -> tuple | None:
        """What the record is the state of; a later record with the same slot supersedes it.
        None for events (beats, deltas, revelations, facts), which accumulate as history."""
        return None

    def describe(self) -> str:
        """One sentence of what the record says, for ranking and for packets."""
        raise NotImplementedError

    def text(self) -> str:
        """Searchable text: the description plus the quote, which carries the book's own words."""
        return f"{self.describe()} \u201c{self.evidence.quote}\u201d"

    # -- serialization ---------------------------------------------------------------------------

    def to_dict(self) -> dict:
        out = {"kind": self.KIND}
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, Evidence):
                value = {"paragraph_ids": list(value.paragraph_ids), "quote": value.quote}
            elif isinstance(value, tuple):
                value = list(value)
            out[f.name] = value
        return out


# --- the record types ---------------------------------------------------------------------------

Aspect = Literal["identity", "physical", "emotional", "goal", "social", "status"]
Polarity = Literal["positive", "negative", "neutral"]
DramaticFunction = Literal[
    "exposition",
    "setup",
    "inciting",
    "complication",
    "clue",
    "misdirection",
    "confrontation",
    "climax",
    "reversal",
    "revelation",
    "resolution",
    "denouement",
    "transition",
]


@dataclass(frozen=True, kw_only=True)
class CharacterState(Record):
    KIND = "character_state"
    SUMMARY = "a character's state (identity, condition, emotion, goal, social standing) in this chapter"

    character: str = doc("the character's name")
    aspect: Aspect = doc("which side of the character the state describes")
    state: str = doc("the state as of this chapter")
    location: str | None = doc("where the character is, when the text says so", None)

    def registry_keys(self):
        return [("entity", name_key(self.character))]

    def slot(self):
        return (self.KIND, name_key(self.character), self.aspect)

    def describe(self):
        where = f", at {self.location}" if self.location else ""
        return f"{self.character} ({self.aspect}): {self.state}{where}."


@dataclass(frozen=True, kw_only=True)
class EpistemicState(Record):
    KIND = "epistemic_state"
    SUMMARY = "what a character knows, or does not yet know although it is true in the story"

    character: str = doc("the character whose knowledge this is")
    proposition: str = doc("the fact known or not known, as a short statement")
    knows: bool = doc("true if the character knows it, false if they do not yet know it")

    def registry_keys(self):
        return [("entity", name_key(self.character))]

    def slot(self):
        return (self.KIND, name_key(self.character), name_key(self.proposition))

    def describe(self):
        verb = "knows" if self.knows else "does not yet know"
        return f"{self.character} {verb}: {self.proposition}."


@dataclass(frozen=True, kw_only=True)
class RelationshipDelta(Record):
    KIND = "relationship_delta"
    SUMMARY = "a change in how one character stands towards another, with its polarity"

    source: str = doc("the character whose attitude or tie changes")
    target: str = doc("the other character")
    relation: str = doc("the kind of tie, e.g. trust, love, rivalry, employment, marriage")
    polarity: Polarity = doc("whether the change brings them closer (positive) or apart (negative)")
    change: str = doc("what changed")

    def registry_keys(self):
        pair = " | ".join(sorted((name_key(self.source), name_key(self.target))))
        return [("relationship", pair), ("entity", name_key(self.source)), ("entity", name_key(self.target))]

    def slot(self):
        return (self.KIND, name_key(self.source), name_key(self.target))

    def describe(self):
        return f"{self.source} towards {self.target} ({self.relation}, {self.polarity}): {self.change}."


@dataclass(frozen=True, kw_only=True)
class ObjectState(Record):
    KIND = "object_state"
    SUMMARY = "an object that matters: where it is and who owns or holds it"

    object: str = doc("the object's name, e.g. 'the photograph'")
    description: str = doc("what the object is and why it matters")
    location: str | None = doc("where the object is, when the text says so", None)
    owner: str | None = doc("who owns or holds it, when the text says so", None)

    def registry_keys(self):
        keys = [("object", name_key(self.object))]
        if self.owner:
            keys.append(("entity", name_key(self.owner)))
        return keys

    def slot(self):
        return (self.KIND, name_key(self.object))

    def describe(self):
        parts = [f"{self.object}: {self.description}"]
        if self.location:
            parts.append(f"located at {self.location}")
        if self.owner:
            parts.append(f"owned or held by {self.owner}")
        return "; ".join(parts) + "."


@dataclass(frozen=True, kw_only=True)
class Location(Record):
    KIND = "location"
    SUMMARY = "a place of the story"

    name: str = doc("the place's name")
    description: str = doc("what the place is like or what it is for")
    within: str | None = doc("a larger place that contains it, if any", None)

    def registry_keys(self):
        return [("entity", name_key(self.name))]

    def slot(self):
        return (self.KIND, name_key(self.name))

    def describe(self):
        within = f" (in {self.within})" if self.within else ""
        return f"Place {self.name}{within}: {self.description}."


@dataclass(frozen=True, kw_only=True)
class _Closable(Record):
    """A thread-registry record that stays open until something closes it."""

    LABEL: ClassVar[str] = ""  # the field holding its name
    CLOSED: ClassVar[str] = ""  # the status that closes it
    CLOSER: ClassVar[str] = ""  # the field saying how it closed

    @property
    def label(self) -> str:
        return getattr(self, self.LABEL)

    @property
    def closed(self) -> bool:
        return self.status == self.CLOSED

    @property
    def closer(self) -> str | None:
        return getattr(self, self.CLOSER)

    def __post_init__(self):
        super().__post_init__()
        if self.closed and not self.closer:
            raise WorldRecordError(f"{self.KIND}.{self.CLOSER}: a {self.CLOSED} {self.KIND} needs its {self.CLOSER}")
        if not self.closed and self.closer:
            raise WorldRecordError(f"{self.KIND}.{self.CLOSER}: an open {self.KIND} has no {self.CLOSER} yet")

    def registry_keys(self):
        return [("thread", name_key(self.label))]

    def slot(self):
        return (self.KIND, name_key(self.label))


@dataclass(frozen=True, kw_only=True)
class Thread(_Closable):
    KIND = "thread"
    SUMMARY = "a plot thread or open question, and whether it is still open or resolved"
    LABEL, CLOSED, CLOSER = "thread", "resolved", "resolution"

    thread: str = doc("a short name for the thread, reused across chapters")
    description: str = doc("what the thread is about")
    status: Literal["open", "resolved"] = doc("open while unanswered, resolved once answered")
    resolution: str | None = doc("how it was resolved; only when status is resolved", None)

    def describe(self):
        if self.closed:
            return f"Thread '{self.thread}' resolved: {self.resolution} ({self.description})."
        return f"Open thread '{self.thread}': {self.description}."


@dataclass(frozen=True, kw_only=True)
class Promise(_Closable):
    KIND = "promise"
    SUMMARY = "a narrative promise (foreshadowing, a vow, a set-up) and whether it has paid off"
    LABEL, CLOSED, CLOSER = "promise", "closed", "payoff"

    promise: str = doc("a short name for the promise, reused across chapters")
    setup: str = doc("what the story promises or sets up")
    status: Literal["open", "closed"] = doc("open until the payoff happens, then closed")
    payoff: str | None = doc("the payoff; only when status is closed", None)

    def describe(self):
        if self.closed:
            return f"Promise '{self.promise}' paid off: {self.payoff} (set up: {self.setup})."
        return f"Open promise '{self.promise}': {self.setup}."


@dataclass(frozen=True, kw_only=True)
class WorldFact(Record):
    KIND = "world_fact"
    SUMMARY = "a fact about the story world, or a rule that holds in it"

    subject: str = doc("the entity or topic the fact is about")
    statement: str = doc("the fact or rule")
    is_rule: bool = doc("true for a general rule of the world, false for a particular fact")

    def registry_keys(self):
        return [("entity", name_key(self.subject))]

    def describe(self):
        label = "Rule" if self.is_rule else "Fact"
        return f"{label} about {self.subject}: {self.statement}."


@dataclass(frozen=True, kw_only=True)
class Revelation(Record):
    """``chapter`` is when the reader learns it; ``event_chapter`` is when it happened."""

    KIND = "revelation"
    SUMMARY = "something revealed in this chapter that happened earlier (or before the story began)"

    revealed: str = doc("what is revealed")
    subject: str = doc("the entity the revelation is about")
    revealed_by: str | None = doc("who or what reveals it, if anyone", None)
    revealed_to: tuple[str, ...] = doc("characters who learn it (use 'reader' for the reader alone)", ())
    event_chapter: int | None = doc(
        "chapter in which the revealed event happened; null if before the story began", None
    )

    def __post_init__(self):
        super().__post_init__()
        if self.event_chapter is not None and not 0 <= self.event_chapter <= self.chapter:
            raise WorldRecordError(
                f"revelation.event_chapter: {self.event_chapter} must be between 0 and the reveal chapter "
                f"{self.chapter} (a revelation cannot reveal a later chapter's event)"
            )

    def registry_keys(self):
        keys = [("entity", name_key(self.subject))]
        keys += [("entity", name_key(n)) for n in self.revealed_to if name_key(n) != "reader"]
        return keys

    def describe(self):
        when = "before the story" if self.event_chapter is None else f"in chapter {self.event_chapter}"
        by = f" by {self.revealed_by}" if self.revealed_by else ""
        to = f" to {', '.join(self.revealed_to)}" if self.revealed_to else ""
        return f"Revealed{by}{to} about {self.subject} (happened {when}): {self.revealed}."


@dataclass(frozen=True, kw_only=True)
class SceneBeat(Record):
    KIND = "scene_beat"
    SUMMARY = "a scene beat: what happens, through whose eyes, and its dramatic function"

    summary: str = doc("what happens in the beat")
    focalizer: str = doc("the observer through whose perception the beat is told")
    function: DramaticFunction = doc("the beat's dramatic function")
    participants: tuple[str, ...] = doc("characters taking part", ())
    location: str | None = doc("where it happens, if the text says so", None)

    def registry_keys(self):
        return [("entity", name_key(n)) for n in self.participants]

    def describe(self):
        where = f" at {self.location}" if self.location else ""
        return f"Beat ({self.function}, seen by {self.focalizer}){where}: {self.summary}."


@dataclass(frozen=True, kw_only=True)
class _Delta(Record):
    """A change to one character, arc or object, with what caused it (projected as a causes edge)."""

    REGISTRY: ClassVar[str] = ""

    target: str = doc("the name of what changes")
    before: str | None = doc("the situation before the change, if stated", None)
    after: str = doc("the situation after the change")
    cause: str | None = doc("what caused the change, if the text says", None)

    def registry_keys(self):
        return [(self.REGISTRY, name_key(self.target))]

    def describe(self):
        before = f"from {self.before} " if self.before else ""
        cause = f" because {self.cause}" if self.cause else ""
        return f"{self.target} changes {before}to {self.after}{cause}."


@dataclass(frozen=True, kw_only=True)
class CharacterDelta(_Delta):
    KIND = "character_delta"
    SUMMARY = "a change in a character (belief, standing, appearance, allegiance)"
    REGISTRY = "entity"


@dataclass(frozen=True, kw_only=True)
class ArcDelta(_Delta):
    KIND = "arc_delta"
    SUMMARY = "a step in a story arc; target is the arc's (thread's) name"
    REGISTRY = "thread"


@dataclass(frozen=True, kw_only=True)
class ObjectDelta(_Delta):
    KIND = "object_delta"
    SUMMARY = "a change to an object (moved, damaged, hidden, given away)"
    REGISTRY = "object"


RECORD_TYPES: dict[str, type[Record]] = {
    cls.KIND: cls
    for cls in (
        CharacterState,
        EpistemicState,
        RelationshipDelta,
        ObjectState,
        Location,
        Thread,
        Promise,
        WorldFact,
        Revelation,
        SceneBeat,
        CharacterDelta,
        ArcDelta,
        ObjectDelta,
    )
}
REGISTRIES = ("entity", "relationship", "object", "thread")


# --- validation from JSON, driven by the type hints ---------------------------------------------


@functools.cache
def _hints(cls) -> dict:
    """A record class's resolved type hints, resolved once: every record read from the store is
    checked against them, and resolving them costs about half of decoding a record."""
    return typing.get_type_hints(cls)


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
    hints = _hints(cls)
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


# --- grounding in the book ----------------------------------------------------------------------

_QUOTE_FOLD = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u2014": "-", "\u2013": "-"})


def _fold(text: str) -> str:
    """Compare quotes modulo case, spacing and typographic punctuation, which models rewrite."""
    return " ".join(unicodedata.normalize("NFKC", text).translate(_QUOTE_FOLD).casefold().split())


def check_grounding(record: Record, narrative: "Narrative", *, allowed_ids=None, path: str = "record") -> None:
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


# --- JSON schema for the extractor, from the same dataclasses -----------------------------------


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
    hints = _hints(cls)
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


# --- cumulative registries ----------------------------------------------------------------------


@dataclass
class RegistryEntry:
    """Everything filed under one key, in chapter order, with the latest record per slot."""

    registry: str
    key: str
    history: list = field(default_factory=list)  # (record_id, Record), chapter order

    def current(self) -> list:
        """The latest record for each slot, plus every event (records without a slot)."""
        latest: dict = {}
        for rid, record in self.history:
            latest[record.slot() or ("event", rid)] = (rid, record)
        return sorted(latest.values(), key=lambda item: (item[1].chapter, item[0]))


class Registries:
    """Records merged into the four cumulative registries of the NWM: entity, relationship,
    object and thread. Built from records already restricted to the chapters a reader may see."""

    def __init__(self, records) -> None:
        self.entries: dict[tuple[str, str], RegistryEntry] = {}
        for rid, record in sorted(records, key=lambda item: (item[1].chapter, item[0])):
            for registry, key in dict.fromkeys(record.registry_keys()):
                entry = self.entries.setdefault((registry, key), RegistryEntry(registry, key))
                entry.history.append((rid, record))

    def keys(self, registry: str | None = None) -> list[tuple[str, str]]:
        return sorted(k for k in self.entries if registry is None or k[0] == registry)

    def get(self, registry: str, key: str) -> RegistryEntry | None:
        return self.entries.get((registry, name_key(key)))

    def find(self, name: str) -> list[RegistryEntry]:
        """Entries whose key is the name, or else whose key contains it as whole words."""
        wanted = name_key(name)
        exact = [e for (_, key), e in sorted(self.entries.items()) if key == wanted or wanted in key.split(" | ")]
        if exact:
            return exact
        pattern = re.compile(rf"(?<!\w){re.escape(wanted)}(?!\w)")
        return [e for (_, key), e in sorted(self.entries.items()) if pattern.search(key)]
