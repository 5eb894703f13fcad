"""ChronoRAG's graph, read from a built index: the two layers, their links, and the ranking of
Layer 1 for a query.

Layer 0 holds the chunks in narrative order (``clueweaver.chrono.chunks``); Layer 1 the relation
descriptions extracted from each group's summary, in group order, then in the order the model gave
them. A Layer 1 node links to the Layer 0 chunks of its group (``linked_chunks``) and to the nodes
before and after it (``adjacent``); chunks are linked to their chronological neighbours by their
order. Because both layers follow the book and groups never cross a chapter, what a reader may see
up to a paragraph is a prefix of each: the chunks that end by then, and the nodes whose group
ends by then (``readable_chunks``, ``readable_relations``).

Layer 1 is ranked as the paper does, by dense similarity with the configured encoder, or by BM25 or
both fused (``hybrid``), on the retrieval index of the project (``RetrievalIndex`` over the nodes'
keys, the per-book smoothing and feedback off: nodes are not paragraphs of a scene). A node's key
is its relation; in the paper's merged-key ablation (``neighbours``) the relation joined with the
relations beside it (the one before, and the one after when it comes from the same group, so no key
holds text past a reading limit its node is inside); in ours (``chunks``) the relation followed by
the text of its linked chunks. Node vectors are computed once per encoder and key and kept in the
index folder. ``summary_layer`` is the no-relation-extraction ablation: one node per group, its
summary (or, built without summaries, its text), linked to the group's chunks.
"""

from __future__ import annotations

import bisect
import hashlib
from collections import Counter, OrderedDict
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from clueweaver.books.narrative import Narrative, from_paragraphs
from clueweaver.chrono.chunks import Chunk, piece_text
from clueweaver.chrono.config import ChronoConfig, ChronoError
from clueweaver.chrono.store import GROUPS, IndexFolder, chrono_dir, failure_reason
from clueweaver.retrieval import BM25Index, DenseEncoder, RankingConfig, RetrievalIndex, atomic_write, load_encoder
from clueweaver.retrieval.dense import resolve_auto
from clueweaver.retrieval.fusion import ranking_from_scores


@dataclass(frozen=True)
class Relation:
    """A Layer 1 node: one relation found in group ``group``'s summary (or text)."""

    group: int
    source: str
    target: str
    description: str
    strength: int | None = None  # the extraction's score (1-10); kept, not used in ranking, as in the paper


class IndexMissing(ChronoError):
    """No finished index of the book with the settings asked for; the message says how to build it."""


def check_encoder(mode: str, spec) -> None:
    """A ChronoError naming the flags when a dense or hybrid mode would have no encoder, found
    without loading one, so commands check it before any model loads."""
    if mode == "bm25" or resolve_auto(spec) not in (None, "none"):
        return
    given = (
        "--encoder auto (the default) picks none on a machine without a GPU"
        if spec == "auto"
        else "the run has no dense encoder (--encoder none, or the default auto on a machine without a GPU)"
    )
    raise ChronoError(
        f"ChronoRAG's {mode} retrieval embeds its relations with a dense encoder, and {given}: pass --encoder minilm "
        "(or bge-m3, or a sentence-transformers model), or --chrono-retrieval bm25"
    )


def dense_encoder(mode: str, spec) -> DenseEncoder | None:
    """The encoder a retrieval mode needs (none for bm25); a dense or hybrid mode with no encoder
    is a ChronoError naming the flags (``check_encoder``), never a silent switch to BM25."""
    check_encoder(mode, spec)
    return None if mode == "bm25" else load_encoder(spec)


_LOADED: OrderedDict[tuple, ChronoGraph] = OrderedDict()
_LOADED_SIZE = 4


class ChronoGraph:
    """The layers of one index and their links; ``folder`` keeps the nodes' vectors (None: in
    memory). ``pending``: groups an interrupted build has not finished; ``failed``: groups whose
    outputs were rejected to the last attempt (neither has nodes in Layer 1)."""

    def __init__(
        self,
        narrative: Narrative,
        chunks: list[Chunk],
        groups: list[range],
        relations: list[Relation],
        folder: Path | None = None,
        *,
        pending: int = 0,
        failed: int = 0,
        summaries: dict[int, str] | None = None,
        failures: dict[str, int] | None = None,
        unit: str = "relation",
    ) -> None:
        self.narrative, self.chunks, self.groups, self.relations, self.folder = (
            narrative, chunks, groups, relations, folder,
        )  # fmt: skip
        self.pending, self.failed = pending, failed
        self.summaries, self.unit = summaries or {}, unit  # unit: what a node is, as passages name it
        self.failures = failures or {}  # the last error of each failed group, counted
        self._summary_layer: ChronoGraph | None = None
        self._chunk_ends = [chunk.last_paragraph for chunk in chunks]
        self._relation_ends = [groups[r.group].stop for r in relations]
        self._indexes: dict[tuple, RetrievalIndex] = {}

    @classmethod
    def load(cls, narrative: Narrative, folder: IndexFolder) -> ChronoGraph:
        """The graph of an index folder: Layer 1 from the groups whose extraction succeeded. The
        last few loaded stay in memory (with their retrieval indexes) while their folder is
        unchanged, so the questions of a run about one book read it once."""
        groups_file = folder.path / GROUPS
        written = groups_file.stat() if groups_file.exists() else None
        stamp = (str(folder.path), narrative.content_hash, written and (written.st_size, written.st_mtime_ns))
        if stamp in _LOADED:
            _LOADED.move_to_end(stamp)
            return _LOADED[stamp]
        graph = _LOADED[stamp] = cls._read(narrative, folder)
        while len(_LOADED) > _LOADED_SIZE:
            _LOADED.popitem(last=False)
        return graph

    @classmethod
    def _read(cls, narrative: Narrative, folder: IndexFolder) -> ChronoGraph:
        chunks, groups = folder.layer0()
        records = folder.records()
        relations = [
            Relation(group, *relation)
            for group in sorted(records)
            if records[group]["status"] == "ok"
            for relation in records[group]["relations"]
        ]
        failed = [r for r in records.values() if r["status"] == "failed"]
        summaries = {group: r["summary"] for group, r in records.items() if r.get("summary")}
        return cls(
            narrative, chunks, groups, relations, folder.path, pending=len(groups) - len(records),
            failed=len(failed), summaries=summaries, failures=Counter(failure_reason(r) for r in failed),
        )  # fmt: skip

    def summary_layer(self) -> ChronoGraph:
        """The no-relation-extraction ablation: Layer 1 as one node per group, its summary (its
        chunks' text where it has none), so retrieval meets the groups without their relations."""
        if self._summary_layer is None:
            units = [
                Relation(g, "", "", self.summaries.get(g) or piece_text(self.narrative, self._pieces(g)))
                for g in range(len(self.groups))
            ]
            self._summary_layer = ChronoGraph(
                self.narrative, self.chunks, self.groups, units, self.folder, pending=self.pending, failed=self.failed,
                failures=self.failures, unit="summary",
            )  # fmt: skip
        return self._summary_layer

    def _pieces(self, group: int) -> list:
        return [piece for c in self.groups[group] for piece in self.chunks[c].pieces]

    @property
    def main_failure(self) -> str | None:
        """The commonest last error of the failed groups."""
        return max(self.failures, key=self.failures.get) if self.failures else None

    def failure_note(self) -> str | None:
        """What a reader of this index is told of its failed groups (None: none failed)."""
        if not self.failed:
            return None
        return (
            f"{self.failed} of {len(self.groups)} groups of this ChronoRAG index failed (no relations of theirs in "
            f"Layer 1; commonest reason: {self.main_failure}); see 'clueweaver chrono build'"
        )

    def linked_chunks(self, node: int) -> range:
        """The Layer 0 chunks node ``node`` came from: its group's."""
        return self.groups[self.relations[node].group]

    def adjacent(self, node: int, readable: int | None = None, window: int = 1) -> tuple[int, ...]:
        """The Layer 1 nodes up to ``window`` places before and after ``node``, among the first
        ``readable`` ones, in order."""
        stop = len(self.relations) if readable is None else readable
        return tuple(i for i in range(node - window, node + window + 1) if i != node and 0 <= i < stop)

    def readable_chunks(self, last_paragraph: int | None) -> int:
        """How many chunks (a prefix) lie wholly up to paragraph ``last_paragraph`` (None: all)."""
        return len(self.chunks) if last_paragraph is None else bisect.bisect_right(self._chunk_ends, last_paragraph)

    def readable_relations(self, readable_chunks: int) -> int:
        """How many nodes (a prefix) link only to chunks among the first ``readable_chunks``."""
        return bisect.bisect_right(self._relation_ends, readable_chunks)

    def key(self, node: int, merged: str | None) -> str:
        """The node's retrieval key (see the module doc for the merged keys)."""
        relation = self.relations[node]
        if merged == "chunks":
            texts = [self.chunks[c].text(self.narrative) for c in self.linked_chunks(node)]
            return "\n".join([relation.description, *texts])
        if merged == "neighbours":
            beside = [n for n in self.adjacent(node) if n < node or self.relations[n].group == relation.group]
            return "\n".join(self.relations[n].description for n in sorted([node, *beside]))
        return relation.description

    def _vectors(self, encoder: DenseEncoder, keys: list[str], merged: str | None) -> np.ndarray:
        """The keys' embeddings, from the index folder when computed before."""
        if self.folder is None:
            return encoder.encode(keys)
        digest = hashlib.sha256(f"{encoder.name}|{merged}|{self.unit}".encode()).hexdigest()[:16]
        path = self.folder / f"vectors-{digest}.npy"
        if path.exists():
            vectors = np.load(path, allow_pickle=False)
            if vectors.shape[0] == len(keys):
                return vectors
        vectors = encoder.encode(keys)
        atomic_write(path, lambda f: np.save(f, vectors, allow_pickle=False))
        return vectors

    def _index(self, encoder: DenseEncoder | None, merged: str | None) -> RetrievalIndex:
        cache_key = (getattr(encoder, "name", None), merged)
        if cache_key not in self._indexes:
            keys = [self.key(i, merged) for i in range(len(self.relations))]
            self._indexes[cache_key] = RetrievalIndex(
                from_paragraphs(keys, title="ChronoRAG Layer 1", detect_headings=False),
                BM25Index.from_texts(keys),
                encoder,
                None if encoder is None else self._vectors(encoder, keys, merged),
                RankingConfig(smoothing=0.0, feedback_docs=0, dense_weight=1.0),
            )
        return self._indexes[cache_key]

    def rank(
        self, query: str, mode: str, encoder: DenseEncoder | None, *, merged_key: str | None = None, readable: int
    ) -> list[tuple[int, float]]:
        """The first ``readable`` nodes, best first for ``query``: ``dense`` (cosine), ``bm25``
        (nodes sharing no word left out) or ``hybrid`` (both, reciprocal rank fusion)."""
        if readable == 0:
            return []
        index = self._index(encoder, merged_key)
        if mode == "bm25":
            return [(i, s) for i, s in index.bm25_rank([query], max_paragraph=readable - 1) if s > 0]
        if mode == "dense":
            return ranking_from_scores(index.dense_scores([query])[0][:readable])
        return index.rank([query], max_paragraph=readable - 1)


def finished_graph(
    narrative: Narrative, config: ChronoConfig, *, model: str | None = None, cache_dir: str | Path | None = None
) -> ChronoGraph:
    """The book's finished index with ``config``'s build settings, built by ``model`` (None: the
    one index there is, see ``IndexFolder.find``); never building one. A missing or unfinished
    index is an IndexMissing naming the command that builds (or resumes) it."""
    if model:
        folder = IndexFolder.for_model(narrative, model, config, cache_dir)
    else:
        folder = IndexFolder.find(narrative, config, cache_dir)
    command = config.build_command(model or (folder.model if folder else None))
    if folder is None or not folder.exists():
        by = f" built by {model}" if model else ""
        raise IndexMissing(
            f"no ChronoRAG index of {narrative.title!r}{by} with these settings in {chrono_dir(cache_dir)}: build it "
            f"with '{command}'"
        )
    graph = ChronoGraph.load(narrative, folder)
    if graph.pending:
        raise IndexMissing(
            f"the ChronoRAG index of {narrative.title!r} in {folder.path} is unfinished ({graph.pending} of "
            f"{len(graph.groups)} groups to go): resume it with '{command}'"
        )
    return graph
