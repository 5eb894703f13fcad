"""The record kinds: typed, evidence-backed narrative records (NWM section 3.2).

Every record is stamped with the chapter it was derived from and carries evidence (paragraph IDs
of the book plus a verbatim quote) and a confidence, so that anything the world model says can be
traced back to the text and never leaks a later chapter. Each kind says under which registry keys
it is filed and which slot it is the state of.

These dataclasses are the single source of truth: the validator (``validation``) and the
extractor's JSON schema (``schema``) are both pydantic's reading of their type hints and field
descriptions, so they cannot drift apart.
"""

from __future__ import annotations

import unicodedata
from dataclasses import MISSING, dataclass, fields
from typing import ClassVar, Literal

from pydantic import ConfigDict, NonNegativeInt, with_config

from clueweaver.core.errors import ClueWeaverError
from clueweaver.core.validation import described


class WorldRecordError(ClueWeaverError, ValueError):
    """A record that does not fit its type or its book; the message names the field and the problem."""


def doc(text: str, default=MISSING, *, stamped: bool = False, **schema):
    """A dataclass field with a description for the extractor's prompt and schema.

    ``stamped`` fields (the chapter) are set by the publisher, never by the extractor. ``schema``
    adds JSON schema keywords for a rule that ``__post_init__`` checks with its own message
    (``minItems=1``), so the decoder keeps it too.
    """
    return described(text, default, stamped=stamped, json_schema_extra=schema or None)


# Every record and its evidence: no key beyond the fields, and no empty text (surrounding spaces,
# which models add, are dropped first).
_RECORD_SETTINGS = ConfigDict(extra="forbid", str_strip_whitespace=True, str_min_length=1)


def name_key(name: str) -> str:
    """Registry key of a name: case and spacing do not make a different entity."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


@with_config(_RECORD_SETTINGS)
@dataclass(frozen=True, kw_only=True)
class Evidence:
    paragraph_ids: tuple[NonNegativeInt, ...] = doc(
        "IDs of the paragraphs (the [n] numbers) that support the record", minItems=1
    )
    quote: str = doc("a short verbatim quote from those paragraphs, copied exactly")

    def __post_init__(self) -> None:
        if not self.paragraph_ids:
            raise WorldRecordError("evidence.paragraph_ids: at least one paragraph ID is needed")
        object.__setattr__(self, "paragraph_ids", tuple(sorted(set(self.paragraph_ids))))


@with_config(_RECORD_SETTINGS)
@dataclass(frozen=True, kw_only=True)
class Record:
    """Fields every record has. Subclasses add their own and say how they join registries."""

    KIND: ClassVar[str] = ""
    SUMMARY: ClassVar[str] = ""  # one line for the extractor's instructions

    chapter: int = doc("chapter the record was derived from", stamped=True)
    evidence: Evidence = doc("where the text says so")
    confidence: float = doc("how sure the reading is, from 0 to 1", minimum=0, maximum=1)

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
    event_chapter: NonNegativeInt | None = doc(
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
