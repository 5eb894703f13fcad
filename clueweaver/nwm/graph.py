"""Temporal graph of the narrative (NWM section 3.3): typed edges valid over chapter intervals.

Records are projected to edges (knows, located_at, owns, relationship_change, thread_resolves,
causes, reveals). Each edge fills a *slot*; a later edge in the same slot closes the earlier one,
so an edge is valid over ``[valid_from, valid_to)`` and the state as of chapter n is, per slot,
the latest edge valid at n. Superseded edges stay as history.

Slots are (relation, subject) for functional relations, as in "the latest edge per (subject,
relation)"; three relations need one more end to be meaningful: a character knows many things,
an object has one owner (so ownership is keyed by the object), and a thread is resolved once.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, replace

from clueweaver.nwm.records.kinds import (
    CharacterState,
    EpistemicState,
    Location,
    ObjectState,
    Record,
    RelationshipDelta,
    Revelation,
    SceneBeat,
    _Closable,
    _Delta,
    name_key,
)

# relation -> which ends identify its slot
SLOT_ENDS: dict[str, tuple[str, ...]] = {
    "knows": ("subject", "target"),
    "located_at": ("subject",),
    "owns": ("target",),
    "relationship_change": ("subject", "target"),
    "thread_resolves": ("target",),
    "causes": ("subject", "target"),
    "reveals": ("subject", "target"),
}
RELATIONS = tuple(SLOT_ENDS)


@dataclass(frozen=True)
class Edge:
    subject: str
    relation: str
    target: str
    value: str  # knows: "knows" / "does not know"; relationship_change: polarity and tie; ...
    valid_from: int  # chapter the edge starts to hold (its record's chapter)
    valid_to: int | None  # first chapter it no longer holds; None while nothing supersedes it
    confidence: float
    record_id: int | None = None

    def __post_init__(self) -> None:
        if self.relation not in SLOT_ENDS:
            raise ValueError(f"unknown edge relation {self.relation!r}; use one of {', '.join(RELATIONS)}")

    @property
    def slot(self) -> tuple[str, ...]:
        return (self.relation,) + tuple(name_key(getattr(self, end)) for end in SLOT_ENDS[self.relation])

    def valid_at(self, chapter: int) -> bool:
        return self.valid_from <= chapter and (self.valid_to is None or chapter < self.valid_to)

    def to_dict(self) -> dict:
        return {
            "subject": self.subject,
            "relation": self.relation,
            "target": self.target,
            "value": self.value,
            "valid_from": self.valid_from,
            "valid_to": self.valid_to,
            "confidence": self.confidence,
            "record_id": self.record_id,
        }

    def describe(self) -> str:
        until = f", until chapter {self.valid_to}" if self.valid_to is not None else ""
        return (
            f"{self.subject} --{self.relation} [{self.value}]--> {self.target} (from chapter {self.valid_from}{until})"
        )


# --- projection of records to edges -------------------------------------------------------------


def _ends(record: Record) -> list[tuple[str, str, str, str]]:
    """(subject, relation, target, value) for each edge a record implies."""
    if isinstance(record, CharacterState):
        return [(record.character, "located_at", record.location, "present")] if record.location else []
    if isinstance(record, EpistemicState):
        return [(record.character, "knows", record.proposition, "knows" if record.knows else "does not know")]
    if isinstance(record, RelationshipDelta):
        return [(record.source, "relationship_change", record.target, f"{record.polarity}: {record.relation}")]
    if isinstance(record, ObjectState):
        out = []
        if record.location:
            out.append((record.object, "located_at", record.location, "present"))
        if record.owner:
            out.append((record.owner, "owns", record.object, "owns"))
        return out
    if isinstance(record, Location):
        return [(record.name, "located_at", record.within, "within")] if record.within else []
    if isinstance(record, _Closable):
        return [(record.closer, "thread_resolves", record.label, record.status)] if record.closed else []
    if isinstance(record, Revelation):
        out = [(record.revealed_by or "narration", "reveals", record.revealed, f"about {record.subject}")]
        out += [(who, "knows", record.revealed, "knows") for who in record.revealed_to if name_key(who) != "reader"]
        return out
    if isinstance(record, SceneBeat):
        return (
            [(who, "located_at", record.location, "present") for who in record.participants] if record.location else []
        )
    if isinstance(record, _Delta):
        return [(record.cause, "causes", record.target, record.after)] if record.cause else []
    return []


def project_edges(record: Record, record_id: int | None = None) -> list[Edge]:
    """The edges a record implies, starting at its chapter, not yet closed by later edges."""
    return [
        Edge(subject, relation, target, value, record.chapter, None, record.confidence, record_id)
        for subject, relation, target, value in _ends(record)
    ]


def assign_validity(edges: list[Edge]) -> list[Edge]:
    """Close each edge at the chapter of the next edge in its slot. Edges of one chapter in one
    slot keep their given order: the last one holds, the others get an empty interval (history)."""
    by_slot: dict[tuple, list[int]] = defaultdict(list)
    for index, edge in enumerate(edges):
        by_slot[edge.slot].append(index)
    out = list(edges)
    for indices in by_slot.values():
        indices.sort(key=lambda i: (edges[i].valid_from, i))
        for here, after in zip(indices, indices[1:] + [None]):
            valid_to = None if after is None else edges[after].valid_from
            if out[here].valid_to != valid_to:
                out[here] = replace(out[here], valid_to=valid_to)
    return out


class TemporalGraph:
    """Edges readable at one chapter. Edges of later chapters are dropped on construction,
    whatever the caller passed, and validity is recomputed among the rest, so an end of validity
    that lies in a later chapter (a hint that something changes later) is never shown."""

    def __init__(self, edges, as_of: int) -> None:
        self.as_of = as_of
        self.edges = assign_validity([e for e in edges if e.valid_from <= as_of])
        self._by_node: dict[str, list[Edge]] = defaultdict(list)
        for edge in self.edges:
            self._by_node[name_key(edge.subject)].append(edge)
            if name_key(edge.target) != name_key(edge.subject):
                self._by_node[name_key(edge.target)].append(edge)

    def state(self, *, node: str | None = None, relation: str | None = None) -> list[Edge]:
        """Per slot, the latest edge valid now."""
        return [e for e in self._select(node, relation) if e.valid_at(self.as_of)]

    def history(self, *, node: str | None = None, relation: str | None = None) -> list[Edge]:
        """Every edge up to now, superseded ones included, in chapter order."""
        return self._select(node, relation)

    def neighbours(self, node: str, *, limit: int, relations=None) -> list[Edge]:
        """Edges valid now that touch ``node``, most confident first, at most ``limit``."""
        found = [
            e
            for e in self._by_node.get(name_key(node), [])
            if e.valid_at(self.as_of) and (relations is None or e.relation in relations)
        ]
        found.sort(key=lambda e: (-e.confidence, -e.valid_from, e.record_id or 0))
        return found[:limit]

    def _select(self, node, relation) -> list[Edge]:
        pool = self.edges if node is None else self._by_node.get(name_key(node), [])
        chosen = [e for e in pool if relation is None or e.relation == relation]
        return sorted(chosen, key=lambda e: (e.valid_from, e.record_id or 0, e.relation))
