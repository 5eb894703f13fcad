"""The per-book index: BM25 and dense vectors over one narrative's paragraphs, the fused ranking
(``RankingConfig``, ``RetrievalIndex``) and the on-disk index cache.

A book is indexed once per (content hash, language, encoder) and reused by every question about it:
the process keeps the last indexes in memory and the disk cache keeps analyzed paragraphs (one file
per language: an index of one language is never read for another) and embeddings between runs. The
language is detected from the book's text unless it is given.
"""

from __future__ import annotations

import logging
import os
import re
import tempfile
import threading
import warnings
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Sequence

import numpy as np

from clueweaver.books.front_sections import front_sections
from clueweaver.books.language import detect_language, language_name
from clueweaver.books.named_chapters import chapters_named, without_chapter_mentions
from clueweaver.books.narrative import Narrative
from clueweaver.protocol.question import Question
from clueweaver.retrieval.dense import DenseEncoder, is_multilingual, load_encoder
from clueweaver.retrieval.fingerprint import TERMS_CODE, OutdatedCacheEntry, check_made_by, fingerprint
from clueweaver.retrieval.fusion import ranking_from_scores, reciprocal_rank_fusion_of_scores, weighted_score_fusion
from clueweaver.retrieval.graph import EntityGraph, load_graph, save_graph
from clueweaver.retrieval.lexical import BM25Index, TermMatrix
from clueweaver.retrieval.ranking import (
    RankingConfig,
    aspect_queries,
    dense_weight_for,
    joined_query,
    lexical_queries,
    names_in,
    question_language,
    reserve_first,
    smooth,
    spread,
)
from clueweaver.retrieval.transliteration import SCRIPT_LANGUAGES, BridgedName, NameBridge, writes_latin_names

log = logging.getLogger(__name__)

CACHE_FORMAT = 12  # bump when the cache files' layout changes (what computed the terms is fingerprinted)


def default_cache_dir() -> Path:
    return Path(os.environ.get("CLUEWEAVER_CACHE") or Path.home() / ".cache" / "clueweaver")


def book_cache_dir(content_hash: str, cache_dir: str | Path | None = None) -> Path:
    """The folder holding one book's cached index files (every encoder's)."""
    return (Path(cache_dir) if cache_dir else default_cache_dir()) / "index" / content_hash[:32]


def atomic_write(path: Path, write) -> None:
    """Write ``path`` through ``write(binary file)`` so that it is whole or absent: a temporary
    file beside it, renamed over it at the end, removed if anything fails."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name + ".", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            write(f)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _safe_name(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", name)


@dataclass
class RetrievalIndex:
    """BM25 and (optionally) dense vectors over one narrative's paragraphs."""

    narrative: Narrative
    bm25: BM25Index
    encoder: DenseEncoder | None = None
    embeddings: np.ndarray | None = None
    config: RankingConfig = RankingConfig()
    graph: EntityGraph | None = None  # the graph of names; built on first use when not given
    name_bridge: NameBridge | None = field(default=None, repr=False)  # built on first use

    def __post_init__(self) -> None:
        self.config = self.config.for_language(self.language)  # what it leaves unset, the book language's

    def entity_graph(self) -> EntityGraph:
        """The book's graph of names (``clueweaver.retrieval.graph``), built here, without the
        disk cache, when the index was made without it."""
        if self.graph is None:
            self.graph = EntityGraph.from_texts([p.text for p in self.narrative.paragraphs], self.language)
        return self.graph

    def names_across_scripts(self, question: Question) -> list[BridgedName]:
        """The names ``question`` writes in Latin letters that this Chinese, Japanese, Korean or Russian book
        writes in its script (``NameBridge``, worked out at the first question that writes one; none for
        the book languages written in Latin letters, or when ``RankingConfig.names_across_scripts`` is off)."""
        text = joined_query(question)
        on = self.config.names_across_scripts and self.language in SCRIPT_LANGUAGES
        if not (on and writes_latin_names(text)):
            return []
        if self.name_bridge is None:
            self.name_bridge = NameBridge([p.text for p in self.narrative.paragraphs], self.language)
        return self.name_bridge.names(text)

    @property
    def language(self) -> str:
        """The language the book was analyzed in; questions are analyzed in it too."""
        return self.bm25.language

    @property
    def bridges_languages(self) -> bool:
        """Whether the index's dense vectors find a paragraph in another language than the question's."""
        return self.encoder is not None and self.embeddings is not None and is_multilingual(self.encoder.name)

    def bm25_scores(self, query: str | Sequence[str]) -> np.ndarray:
        return self.bm25.scores(query)

    def dense_scores(self, queries: Sequence[str]) -> list[np.ndarray]:
        if self.encoder is None or self.embeddings is None:
            return []
        vectors = self.encoder.encode(list(queries), is_query=True)
        return [self.embeddings @ v for v in vectors]

    def distinctive_terms(self, docs: Sequence[int], queries: Sequence[str], count: int) -> list[str]:
        """The ``count`` terms of ``docs`` with the highest summed idf that the queries do not contain."""
        matrix, idf = self.bm25.matrix, self.bm25.idf
        asked = set(self.bm25.terms(" ".join(queries)))
        weight: dict[str, float] = {}
        for doc in docs:
            for term_number in matrix.indices[matrix.indptr[doc] : matrix.indptr[doc + 1]]:
                term = matrix.vocabulary[term_number]
                if term not in asked:
                    weight[term] = weight.get(term, 0.0) + idf.get(term, 0.0)
        return sorted(weight, key=lambda t: (-weight[t], t))[:count]

    def feedback_terms(self, lexical: np.ndarray, queries: Sequence[str]) -> list[str]:
        """Pseudo-relevance feedback: the distinctive terms of the top lexical hits."""
        config = self.config
        if config.feedback_docs <= 0 or config.feedback_terms <= 0 or not lexical.any():
            return []
        return self.distinctive_terms(_best(lexical, config.feedback_docs), queries, config.feedback_terms)

    def entity_hop_terms(self, lexical: np.ndarray, question: Question) -> list[str]:
        """The names in the best lexical hits that the question does not name, as query terms."""
        config = self.config
        texts = [self.narrative[int(doc)].text for doc in _best(lexical, config.entity_hop_docs)]
        names = names_in(texts, joined_query(question))
        return [term for name in names for term in self.bm25.terms(name)][: config.entity_hop_terms]

    @property
    def graph_weight(self) -> float:
        """The graph of names' weight in the fusion: the configured one, else the book language's."""
        return self.config.graph_weight

    def graph_scores(self, lexical: np.ndarray) -> np.ndarray:
        """Personalized PageRank over the graph of names from the best lexical hits, weighted by
        their scores: the paragraphs that share the hits' names, whatever words they use."""
        config = self.config
        seeds = {doc: float(lexical[doc]) for doc in _best(lexical, config.graph_seeds)}
        return self.entity_graph().personalized_pagerank(seeds, config.graph_damping, limit=len(lexical))

    def _smooth(self, scores: np.ndarray) -> np.ndarray:
        config = self.config
        return smooth(scores, config.smoothing, config.smoothing_width, config.smoothing_decay)

    def asked_across_languages(self, question: Question) -> bool:
        """Whether ``question`` is in another language than the book and the dense vectors bridge the
        two: its BM25 ranking then rests on the few words both share (names, numbers)."""
        if not self.bridges_languages:
            return False
        asked = question_language(question, self.language)
        return asked is not None and asked != self.language

    def dense_weight(self, across_languages: bool = False) -> float:
        """The dense ranking's weight in the fusion: the configured one, else the encoder's own
        (``dense_weight_for``); for a question asked across languages, ``cross_language_dense_weight``
        when it is set."""
        config = self.config
        if across_languages and config.cross_language_dense_weight is not None:
            return config.cross_language_dense_weight
        return config.dense_weight if config.dense_weight is not None else dense_weight_for(self.encoder.name)

    def _signals(
        self, lexical: np.ndarray, queries: Sequence[str], limit: int, across_languages: bool = False
    ) -> list[tuple[np.ndarray, float, bool]]:
        """(scores, weight, lexical?) of the summed BM25 scores, their feedback expansion and the
        dense similarities."""
        config = self.config
        signals = [(self._smooth(lexical), 1.0, True)]
        expansion = self.feedback_terms(lexical, queries)
        if expansion:
            signals.append((self._smooth(self.bm25_scores(expansion)[:limit]), config.feedback_weight, True))
        dense = self.dense_scores(queries)
        if dense:
            weight = self.dense_weight(across_languages)
            signals.append((self._smooth(sum(d[:limit] for d in dense) / len(dense)), weight, False))
        return signals

    def _fuse(self, signals: list[tuple[np.ndarray, float, bool]]) -> list[tuple[int, float]]:
        weights = [weight for _, weight, _ in signals]
        if self.config.fusion == "weighted":
            return ranking_from_scores(weighted_score_fusion([scores for scores, _, _ in signals], weights))
        # a lexical ranking leaves out the paragraphs that share no word with its query
        positive_only = [is_lexical for _, _, is_lexical in signals]
        return reciprocal_rank_fusion_of_scores([scores for scores, _, _ in signals], weights, positive_only)

    def _limit(self, max_paragraph: int | None) -> int:
        return len(self.narrative) if max_paragraph is None else max_paragraph + 1

    def rank(self, queries: Sequence[str], *, max_paragraph: int | None = None) -> list[tuple[int, float]]:
        """Fused ranking of paragraphs <= ``max_paragraph`` for texts asked together: their BM25
        scores summed, its pseudo-relevance-feedback expansion and the dense similarities, each
        smoothed over neighbouring paragraphs."""
        queries = _non_empty(queries)
        limit = self._limit(max_paragraph)
        lexical = sum(self.bm25_scores(q)[:limit] for q in queries)
        return self._fuse(self._signals(lexical, queries, limit))

    def rank_question(self, question: Question, *, max_paragraph: int | None = None) -> list[tuple[int, float]]:
        """The fused ranking for a question (``rank`` over its queries, see ``RankingConfig.query``),
        plus the aspect, entity-hop and graph signals and the per-option reserve when they are on."""
        config = self.config
        queries = _non_empty(lexical_queries(question, config.query))
        if config.chapter_reserve > 0:
            queries = [without_chapter_mentions(q, self.narrative.chapters) for q in queries]
        written = " ".join(form for name in self.names_across_scripts(question) for form in name.written)
        queries = [f"{q} {written}" for q in queries] if written else queries
        limit = self._limit(max_paragraph)
        lexical = sum(self.bm25_scores(q)[:limit] for q in queries)
        signals = self._signals(lexical, queries, limit, self.asked_across_languages(question))
        aspects = aspect_queries(question) if config.aspect_weight > 0 else []
        for aspect in aspects:
            signals.append((self._smooth(self.bm25_scores(aspect)[:limit]), config.aspect_weight / len(aspects), True))
        hop = self.entity_hop_terms(lexical, question) if config.entity_hop_weight > 0 else []
        if hop:
            signals.append((self._smooth(self.bm25_scores(hop)[:limit]), config.entity_hop_weight, True))
        if self.graph_weight > 0 and (question.is_open or config.graph_questions == "all"):
            signals.append((self._smooth(self.graph_scores(lexical)), self.graph_weight, True))
        ranking = self._fuse(signals)
        return reserve_first(
            ranking, self._named_chapters_best(question, ranking, limit) + self._options_best(question, limit)
        )

    def _options_best(self, question: Question, limit: int) -> list[list[int]]:
        """Each option's ``option_reserve`` best paragraphs by its own query (none when it is 0)."""
        count = self.config.option_reserve
        if count <= 0 or not question.options:
            return []
        rankings = (
            ranking_from_scores(self._smooth(self.bm25_scores(q)[:limit]), count) for q in question.queries()[1:]
        )
        return [[paragraph for paragraph, _ in ranking] for ranking in rankings]

    def _named_chapters_best(
        self, question: Question, ranking: list[tuple[int, float]], limit: int
    ) -> list[list[int]]:
        """The best ``chapter_reserve`` paragraphs of the chapters the question names, in ranking order,
        then the chapters' unranked paragraphs spread evenly; all of them, spread, when the ranking
        holds none of them (the question asks about the chapter as such); none when it names none
        (as one list of ``reserve_first``'s)."""
        wanted = self.config.chapter_reserve
        if wanted <= 0:
            return []
        chapters, _ = chapters_named(self.narrative.chapters, question.text, front_sections(self.narrative))
        inside = {p for c in chapters for p in c.paragraph_ids if p < limit and not self.narrative[p].is_heading}
        if not inside:
            return []
        ranked = [p for p, _ in ranking if p in inside][:wanted]
        unranked = spread(sorted(inside.difference(p for p, _ in ranking)))
        return [ranked + unranked[: wanted - len(ranked)] if ranked else unranked]

    def rank_second_hop(
        self, question: Question, evidence_ids: Sequence[int], *, max_paragraph: int | None = None
    ) -> list[tuple[int, float]]:
        """A second round's ranking: the distinctive terms of the paragraphs the Finder cited (relevance
        feedback from the Finder, not from retrieval's own guesses), fused with the question's query
        at half weight so the new paragraphs stay about the question."""
        config = self.config
        queries = _non_empty(lexical_queries(question, config.query))
        limit = self._limit(max_paragraph)
        lexical = sum(self.bm25_scores(q)[:limit] for q in queries)
        terms = self.distinctive_terms(evidence_ids, queries, config.feedback_terms)
        signals = [(self._smooth(lexical), 0.5, True)]
        if terms:
            signals.append((self._smooth(self.bm25_scores(terms)[:limit]), 1.0, True))
        return self._fuse(signals)

    def bm25_rank(self, queries: Sequence[str], *, max_paragraph: int | None = None) -> list[tuple[int, float]]:
        """BM25 alone, the queries' scores summed: the plain lexical baseline."""
        limit = self._limit(max_paragraph)
        total = sum(self.bm25_scores(q)[:limit] for q in queries if q.strip())
        return ranking_from_scores(total)


def _non_empty(queries: Sequence[str]) -> list[str]:
    queries = [q for q in queries if q and q.strip()]
    if not queries:
        raise ValueError("retrieval needs a non-empty query")
    return queries


def _best(scores: np.ndarray, count: int) -> list[int]:
    """The ``count`` highest-scoring paragraphs with a positive score."""
    return [int(doc) for doc in np.argsort(-scores, kind="stable")[:count] if scores[doc] > 0]


def _load_cached(path: Path, load):
    if not path.exists():
        return None
    try:
        return load(path)
    except OutdatedCacheEntry as exc:  # expected after an upgrade: say so plainly
        warnings.warn(f"index cache entry {path} {exc}; rebuilding it once with this version's analyzers")
        path.unlink(missing_ok=True)
        return None
    except Exception as exc:  # a truncated or foreign file: rebuild rather than fail
        warnings.warn(f"index cache entry {path} is unreadable ({type(exc).__name__}: {exc}); rebuilding it")
        path.unlink(missing_ok=True)
        return None


def _load_terms(path: Path, language: str) -> TermMatrix:
    with np.load(path, allow_pickle=False) as data:
        written, held = int(data["format"]), str(data["language"])  # each read once from the archive
        if written != CACHE_FORMAT:
            raise OutdatedCacheEntry(f"was written by another ClueWeaver version (cache format {written})")
        if held != language:
            raise ValueError(f"holds {held!r} terms, not {language!r}")
        check_made_by(str(data["made_by"]), TERMS_CODE)
        return TermMatrix(
            data["vocabulary"].tolist(), data["indptr"], data["indices"], data["counts"], data["lengths"], language
        )


def _save_terms(matrix: TermMatrix, f) -> None:
    np.savez(
        f,
        format=CACHE_FORMAT,
        made_by=fingerprint(TERMS_CODE),
        language=matrix.language,
        vocabulary=np.asarray(matrix.vocabulary, dtype=str),
        indptr=matrix.indptr,
        indices=matrix.indices,
        counts=matrix.counts,
        lengths=matrix.lengths,
    )


PROGRESS_CHUNK = 256


def book_language(narrative: Narrative, language: str | None = None) -> str:
    """``language`` when given (a reader's ``--language``), else the language the book is in."""
    return language or detect_language(narrative.text)


def _embed(texts: list[str], encoder: DenseEncoder, show_progress: bool, progress) -> np.ndarray:
    if progress is None:
        return encoder.encode(texts, show_progress=show_progress)
    # chunks of similar length, longest first, so that reporting progress costs no extra padding
    order = sorted(range(len(texts)), key=lambda i: -len(texts[i]))
    vectors = None
    for start in range(0, len(texts), PROGRESS_CHUNK):
        chunk = order[start : start + PROGRESS_CHUNK]
        part = encoder.encode([texts[i] for i in chunk])
        if vectors is None:
            vectors = np.zeros((len(texts), part.shape[1]), dtype=part.dtype)
        vectors[chunk] = part
        progress(min(start + PROGRESS_CHUNK, len(texts)), len(texts))
    return vectors


def build_index(
    narrative: Narrative,
    encoder: str | DenseEncoder | None = "auto",
    *,
    cache_dir: str | Path | None = None,
    language: str | None = None,
    use_cache: bool = True,
    show_progress: bool = True,
    progress: Callable[[int, int], None] | None = None,
    announce: Callable[[str], None] | None = None,
    **options,
) -> RetrievalIndex:
    """Analyze and embed a narrative, reading and writing the disk cache. ``language``: the
    analyzer's (None: the book's language, detected). ``progress(done, total)`` hears how many
    paragraphs are embedded so far (the embedding then runs in chunks of ``PROGRESS_CHUNK``), for a
    caller that shows indexing progress; ``announce(line)`` hears once, before any work, that the
    index is being built and where it will be cached (nothing when the cache has it)."""
    encoder = load_encoder(encoder)
    language = book_language(narrative, language)
    book_dir = book_cache_dir(narrative.content_hash, cache_dir)
    terms_path = book_dir / f"bm25_terms_{language}.npz"
    config = RankingConfig(**options).for_language(language)
    graph_path = book_dir / f"graph_{language}.npz" if config.graph_weight > 0 else None
    vectors_path = book_dir / f"dense_{_safe_name(encoder.name)}.npy" if encoder is not None else None
    cached = [path for path in (terms_path, vectors_path, graph_path) if path is not None]
    if announce and not (use_cache and all(path.exists() for path in cached)):
        what = "BM25" + (", the graph of names" if graph_path else "")
        what += f" and {encoder.name} embeddings" if encoder is not None else ""
        announce(
            f"Indexing {narrative.title!r} ({len(narrative):,} paragraphs in {language_name(language)}: {what}); this "
            "happens once" + (f", later runs read the cache in {book_dir}" if use_cache else "")
        )

    terms = _load_cached(terms_path, lambda path: _load_terms(path, language)) if use_cache else None
    if terms is None or len(terms) != len(narrative):
        terms = TermMatrix.from_texts([p.text for p in narrative.paragraphs], language)
        if use_cache:
            atomic_write(terms_path, lambda f: _save_terms(terms, f))
    bm25 = BM25Index(terms)

    embeddings = None
    if encoder is not None:
        embeddings = _load_cached(vectors_path, lambda p: np.load(p, allow_pickle=False)) if use_cache else None
        if embeddings is not None and embeddings.shape[0] != len(narrative):
            warnings.warn(f"index cache entry {vectors_path} has the wrong shape; rebuilding it")
            embeddings = None
        if embeddings is None:
            log.info("embedding %d paragraphs of %s with %s", len(narrative), narrative.title, encoder.name)
            embeddings = _embed([p.text for p in narrative.paragraphs], encoder, show_progress, progress)
            if use_cache:
                atomic_write(vectors_path, lambda f: np.save(f, embeddings, allow_pickle=False))
    graph = _graph(narrative, language, graph_path, use_cache) if graph_path else None
    return RetrievalIndex(narrative, bm25, encoder, embeddings, config, graph)


def _graph(narrative: Narrative, language: str, path: Path, use_cache: bool) -> EntityGraph:
    """The book's graph of names, from the disk cache or built (and cached)."""
    graph = _load_cached(path, lambda p: load_graph(p, language)) if use_cache else None
    if graph is None or len(graph) != len(narrative):
        graph = EntityGraph.from_texts([p.text for p in narrative.paragraphs], language)
        if use_cache:
            atomic_write(path, lambda f: save_graph(graph, f))
    return graph


_MEMORY: "OrderedDict[tuple, RetrievalIndex]" = OrderedDict()
_MEMORY_SIZE = 8
# Items answered concurrently ask for the same book at once: its index is built by one of them.
_MEMORY_LOCK = threading.RLock()


def get_index(
    narrative: Narrative,
    encoder: str | DenseEncoder | None = "auto",
    *,
    cache_dir: str | Path | None = None,
    language: str | None = None,
    announce: Callable[[str], None] | None = None,
    **options,
) -> RetrievalIndex:
    """The book's index, from this process's memory when it was built here before (``language``
    and ``announce``: see ``build_index``)."""
    language = book_language(narrative, language)
    encoder_key = encoder if isinstance(encoder, (str, type(None))) else getattr(encoder, "name", id(encoder))
    key = (narrative.content_hash, language, encoder_key, str(cache_dir), tuple(sorted(options.items())))
    with _MEMORY_LOCK:
        if key in _MEMORY:
            _MEMORY.move_to_end(key)
            return _MEMORY[key]
        index = build_index(narrative, encoder, cache_dir=cache_dir, language=language, announce=announce, **options)
        _MEMORY[key] = index
        while len(_MEMORY) > _MEMORY_SIZE:
            _MEMORY.popitem(last=False)
        return index
