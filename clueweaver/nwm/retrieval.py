"""Reading the world model as of a chapter (NWM Appendix A.1).

Every read names the chapter the reader has reached; the store restricts its SQL to it and this
module checks the decoded records and edges again, so nothing from a later chapter is returned.

- ``state_view``: the registries and the edges valid now, optionally for one entity.
- ``serialize_state``: the paper's "State Memory" condition: all state up to n, no query step.
- ``query``: hybrid ranking of record texts (BM25 and dense, fused by reciprocal rank), one-hop
  typed expansion through the temporal graph with a neighbour limit, and a bounded packet.
  Records still current as of the chapter come before superseded ones (a later record of the same
  slot replaced them), a ranked superseded record brings the record that holds its slot now, and
  every superseded record in a packet says in which chapter it was superseded.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from clueweaver.books.narrative import from_paragraphs
from clueweaver.core.errors import ClueWeaverError
from clueweaver.nwm.graph import Edge, project_edges
from clueweaver.nwm.records import Record, RegistryEntry
from clueweaver.nwm.store import ChapterStatus, NarrativeStore, StoredRecord
from clueweaver.retrieval import BM25Index, RankingConfig, RetrievalIndex, load_encoder


class EntityNotFound(ClueWeaverError, LookupError):
    """No registry key matches the name; the message lists the closest ones."""


# How a chapter position is shown to a person: the book's own label (Narrative.chapter_label,
# "1.2" for chapter II of story I), or the position itself where no book is at hand.
ChapterLabel = Callable[[int], str]


def _cite(record_id: int, record, label: ChapterLabel = str) -> str:
    ids = ", ".join(map(str, record.evidence.paragraph_ids))
    return f"#{record_id} [ch {label(record.chapter)}; \u00b6 {ids}; conf {record.confidence:.2f}] {record.text()}"


def _check_causal(as_of: int, records=(), edges=()) -> None:
    """The second, independent guard: a later chapter reaching this point is a bug, not data."""
    late = [s.id for s in records if s.record.chapter > as_of] + [e.record_id for e in edges if e.valid_from > as_of]
    if late:
        raise AssertionError(f"records/edges {late} from chapters after {as_of} reached a read as of {as_of}")


@dataclass
class StateView:
    """What the world model holds as of one chapter."""

    as_of: int
    chapters: list[ChapterStatus]
    entries: list[RegistryEntry]
    edges: list[Edge]  # valid at as_of
    history: list[Edge]  # superseded before or at as_of
    label: ChapterLabel = str

    @property
    def published(self) -> list[int]:
        return [c.chapter for c in self.chapters if c.status == "published"]

    def to_dict(self) -> dict:
        return {
            "as_of": self.as_of,
            "as_of_label": self.label(self.as_of),
            "published_chapters": self.published,
            "published_chapter_labels": [self.label(c) for c in self.published],
            "stale_chapters": [c.chapter for c in self.chapters if c.status == "stale"],
            "registries": [
                {
                    "registry": e.registry,
                    "key": e.key,
                    "current": [{"id": rid, **record.to_dict()} for rid, record in e.current()],
                    "history_size": len(e.history),
                }
                for e in self.entries
            ],
            "edges": [e.to_dict() for e in self.edges],
            "history": [e.to_dict() for e in self.history],
        }

    def blocks(self) -> list[str]:
        """Text blocks in a fixed order (registries, then edges, then history), for budgeting."""
        published = ", ".join(self.label(c) for c in self.published) or "none"
        out = [f"World model as of chapter {self.label(self.as_of)} (published chapters: {published})"]
        shown: set[int] = set()  # a record filed under several keys is written out once
        for entry in self.entries:
            lines = [f"== {entry.registry}: {entry.key} =="]
            for record_id, record in entry.current():
                cited = f"see #{record_id}" if record_id in shown else _cite(record_id, record, self.label)
                lines.append(f"  {cited}")
                shown.add(record_id)
            out.append("\n".join(lines))
        if self.edges:
            out.append("== current edges ==\n" + "\n".join(f"  {e.describe()}" for e in self.edges))
        if self.history:
            out.append("== superseded edges ==\n" + "\n".join(f"  {e.describe()}" for e in self.history))
        return out

    def render(self, max_chars: int | None = None) -> str:
        return _bounded(self.blocks(), max_chars)[0]


def _bounded(blocks: list[str], max_chars: int | None) -> tuple[str, int]:
    """Whole blocks while they fit, then a marker saying how many were left out; also returns
    how many blocks were kept."""
    text = "\n".join(blocks)
    if max_chars is None or len(text) <= max_chars:
        return text, len(blocks)
    kept: list[str] = []
    for index, block in enumerate(blocks):
        marker = f"[... {len(blocks) - index - 1} more block(s) left out for the budget of {max_chars} characters]"
        if len("\n".join(kept + [block, marker])) > max_chars:
            break
        kept.append(block)
    marker = f"[... {len(blocks) - len(kept)} more block(s) left out for the budget of {max_chars} characters]"
    return "\n".join(kept + [marker])[:max_chars], len(kept)


def state_view(
    store: NarrativeStore, as_of: int, *, entity: str | None = None, label: ChapterLabel = str
) -> StateView:
    registries = store.registries(as_of)
    graph = store.graph(as_of)
    if entity is None:
        entries = [registries.entries[k] for k in registries.keys()]
        edges, history = graph.state(), [e for e in graph.history() if not e.valid_at(as_of)]
    else:
        entries = registries.find(entity)
        if not entries:
            raise EntityNotFound(_no_match(entity, [key for _, key in registries.keys()], label(as_of)))
        nodes = {e.key for e in entries if e.registry != "relationship"}
        edges = _dedupe(e for node in nodes for e in graph.state(node=node))
        history = _dedupe(e for node in nodes for e in graph.history(node=node) if not e.valid_at(as_of))
    _check_causal(as_of, [StoredRecord(*item) for e in entries for item in e.history], edges + history)
    chapters = [c for c in store.chapters() if c.chapter <= as_of]
    return StateView(as_of, chapters, entries, edges, history, label)


def _dedupe(edges) -> list[Edge]:
    return sorted(set(edges), key=lambda e: (e.valid_from, e.record_id or 0, e.relation, e.subject, e.target))


def _no_match(name: str, keys: list[str], as_of: str) -> str:
    close = difflib.get_close_matches(name.casefold(), keys, n=5, cutoff=0.5)
    hint = f"; closest: {', '.join(close)}" if close else ""
    return f"nothing in the world model as of chapter {as_of} is named {name!r}{hint}"


def serialize_state(store: NarrativeStore, as_of: int, *, max_chars: int | None = None) -> str:
    """The "State Memory" condition: everything the model holds up to chapter ``as_of``
    (empty when it holds nothing yet)."""
    view = state_view(store, as_of)
    return view.render(max_chars) if view.entries or view.edges else ""


# --- query: hybrid ranking, one-hop expansion, bounded packet ----------------------------------


@dataclass
class Hit:
    record_id: int
    record: Record
    score: float
    via: str  # "ranked", "state", "supersedes #<id>", or "<relation> from #<seed id>" for an expansion
    superseded_in: int | None = None  # the chapter whose record of the same slot replaced this one

    def to_dict(self) -> dict:
        return {
            "id": self.record_id,
            "score": self.score,
            "via": self.via,
            "superseded_in": self.superseded_in,
            **self.record.to_dict(),
        }

    def cite(self, label: ChapterLabel = str) -> str:
        """The record as a packet line: citation, text, and what dates it or brought it in."""
        notes = [f"superseded in chapter {label(self.superseded_in)}"] if self.superseded_in is not None else []
        if self.via not in ("ranked", "state"):
            notes.append(f"via {self.via}")
        return _cite(self.record_id, self.record, label) + "".join(f" ({note})" for note in notes)


@dataclass(frozen=True)
class Supersession:
    """For each record replaced by a later record of its slot (as of a chapter): the chapter of
    the next record in the slot, and the record holding the slot now."""

    closed_in: dict[int, int]
    successor: dict[int, int]

    @classmethod
    def of(cls, stored: list[StoredRecord]) -> "Supersession":
        by_slot: dict = {}
        for item in sorted(stored, key=lambda s: (s.record.chapter, s.id)):
            slot = item.record.slot()
            if slot is not None:
                by_slot.setdefault(slot, []).append(item)
        closed_in, successor = {}, {}
        for history in by_slot.values():
            for earlier, later in zip(history, history[1:]):
                closed_in[earlier.id] = later.record.chapter
                successor[earlier.id] = history[-1].id
        return cls(closed_in, successor)


def _current_first(ranked: list[Hit], supersession: Supersession, by_id: dict[int, Record]) -> list[Hit]:
    """The ranked records, current ones first; a superseded record brings the record that holds
    its slot now to its own place in the ranking (unless that one ranked higher already)."""
    own = {hit.record_id: hit for hit in ranked}
    current, superseded, placed = [], [], set()
    for hit in ranked:
        successor = supersession.successor.get(hit.record_id)
        if successor is not None:
            hit.superseded_in = supersession.closed_in[hit.record_id]
            superseded.append(hit)
            hit = own.get(successor) or Hit(successor, by_id[successor], hit.score, f"supersedes #{hit.record_id}")
        if hit.record_id not in placed:
            current.append(hit)
            placed.add(hit.record_id)
    return current + superseded


@dataclass
class NWMPacket:
    """What the world model hands a reader for one question as of one chapter."""

    as_of: int
    mode: str  # "query" or "state" (the State Memory condition)
    hits: list[Hit]  # in the packet, best first
    text: str
    dropped: int = 0  # hits left out for the character budget
    queries: list[str] = field(default_factory=list)
    label: ChapterLabel = str

    @property
    def paragraph_ids(self) -> list[int]:
        return sorted({i for hit in self.hits for i in hit.record.evidence.paragraph_ids})

    def to_dict(self) -> dict:
        return {
            "as_of": self.as_of,
            "as_of_label": self.label(self.as_of),
            "mode": self.mode,
            "queries": self.queries,
            "hits": [
                {
                    **h.to_dict(),
                    "chapter_label": self.label(h.record.chapter),
                    "superseded_in_label": None if h.superseded_in is None else self.label(h.superseded_in),
                }
                for h in self.hits
            ],
            "dropped": self.dropped,
            "paragraph_ids": self.paragraph_ids,
            "chars": len(self.text),
            "text": self.text,
        }


def rank_texts(texts: list[str], queries: list[str], *, encoder=None, vectors=None) -> list[tuple[int, float]]:
    """Indices of ``texts``, best first, by the retrieval module's ranking: BM25 and (with an
    encoder) dense similarity summed over the queries, fused by reciprocal rank (NWM A.1).
    Neighbour smoothing and pseudo-relevance feedback, made for paragraphs of a book, are off:
    records are not a sequence, and one-hop expansion is what reaches the second hop here. Dense
    similarity weighs as much as BM25: records are short paraphrases of the book, where wording
    differs from the question more often than in the book's own paragraphs.
    ``vectors`` are the texts' embeddings when already computed."""
    if encoder is not None and vectors is None:
        vectors = encoder.encode(texts)
    collection = from_paragraphs(texts, title="world-model records", detect_headings=False)
    index = RetrievalIndex(
        collection,
        BM25Index.from_texts(texts),
        encoder if vectors is not None else None,
        vectors,
        RankingConfig(smoothing=0.0, feedback_docs=0, dense_weight=1.0),
    )
    return index.rank(queries)


def _record_vectors(store: NarrativeStore, stored: list[StoredRecord], encoder):
    """Embeddings of the records' texts, computed once per record and encoder and kept in the store."""
    cached = store.record_vectors([s.id for s in stored], encoder.name)
    missing = [s for s in stored if s.id not in cached]
    if missing:
        fresh = encoder.encode([s.record.text() for s in missing])
        store.save_record_vectors(encoder.name, {s.id: vector for s, vector in zip(missing, fresh)})
        cached.update({s.id: vector for s, vector in zip(missing, fresh)})
    return np.stack([cached[s.id] for s in stored])


def _nodes(record: Record) -> list[str]:
    """Graph nodes a record stands on: its registry keys (not pairs) and the ends of its edges."""
    nodes = [key for registry, key in record.registry_keys() if registry != "relationship"]
    nodes += [end for edge in project_edges(record) for end in (edge.subject, edge.target)]
    return list(dict.fromkeys(nodes))


def query(
    store: NarrativeStore,
    queries: list[str],
    as_of: int,
    *,
    top_k: int = 8,
    neighbour_limit: int = 3,
    relations=None,
    max_records: int = 24,
    max_chars: int | None = 6000,
    encoder="auto",
    state_memory: bool = False,
    label: ChapterLabel = str,
) -> NWMPacket:
    """Records relevant to the queries as of chapter ``as_of``: the ``top_k`` best ranked, then
    one hop along current typed edges from each of them (at most ``neighbour_limit`` edges per
    node, ``relations`` to restrict the types), at most ``max_records`` in all, rendered within
    ``max_chars``. With ``state_memory`` the whole state up to ``as_of`` is serialized instead.
    ``label`` shows chapter positions as the book numbers them."""
    if state_memory:
        view = state_view(store, as_of, label=label)
        blocks = view.blocks()
        text, kept = _bounded(blocks, max_chars)
        # the header is block 0 and each registry entry one block: list the records of the entries that fit
        shown = [
            Hit(rid, record, 0.0, "state")
            for entry in view.entries[: max(kept - 1, 0)]
            for rid, record in entry.current()
        ]
        hits = list({h.record_id: h for h in shown}.values())
        empty = not (view.entries or view.edges)
        return NWMPacket(as_of, "state", hits, "" if empty else text, len(blocks) - kept, list(queries), label)
    stored = store.records(as_of)
    _check_causal(as_of, stored)
    supersession = Supersession.of(stored)
    hits: list[Hit] = []
    if stored:
        dense = load_encoder(encoder)
        vectors = _record_vectors(store, stored, dense) if dense is not None else None
        ranking = rank_texts([s.record.text() for s in stored], list(queries), encoder=dense, vectors=vectors)
        by_id = {s.id: s.record for s in stored}
        hits = [Hit(stored[i].id, stored[i].record, score, "ranked") for i, score in ranking[:top_k]]
        hits = _current_first(hits, supersession, by_id)[:max_records]
        graph = store.graph(as_of)
        seen = {h.record_id for h in hits}
        for seed in list(hits):
            for node in _nodes(seed.record):
                for edge in graph.neighbours(node, limit=neighbour_limit, relations=relations):
                    if len(hits) >= max_records or edge.record_id in seen or edge.record_id not in by_id:
                        continue
                    seen.add(edge.record_id)
                    hits.append(
                        Hit(
                            edge.record_id,
                            by_id[edge.record_id],
                            seed.score * edge.confidence,
                            f"{edge.relation} from #{seed.record_id}",
                        )
                    )
    _check_causal(as_of, [StoredRecord(h.record_id, h.record) for h in hits])
    for hit in hits:  # expansion may reach a superseded record too
        hit.superseded_in = supersession.closed_in.get(hit.record_id)
    hits = [h for h in hits if h.superseded_in is None] + [h for h in hits if h.superseded_in is not None]
    text, kept = _bounded([hit.cite(label) for hit in hits], max_chars)
    return NWMPacket(as_of, "query", hits[:kept], text, len(hits) - kept, list(queries), label)
