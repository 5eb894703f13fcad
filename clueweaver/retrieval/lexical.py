"""Lexical retrieval: the tokenizer and light stemmer, the document-term matrix and BM25.

Tokens are lowercase words without stop words, stemmed just enough to give one key to the words of
a family; a book's paragraphs become a sparse document-term count matrix built with numpy, and
BM25 scores it with per-term score vectors memoised across queries. The disk cache stores
tokenized paragraphs: a change to the tokenizer bumps ``index.CACHE_FORMAT``.
"""

from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass
from itertools import chain
from typing import Sequence

import numpy as np
from rank_bm25 import BM25Okapi

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
    ``rank_bm25.BM25Okapi(tokenized).get_scores(query)``.

    ``positive_idf``: no term's idf falls below that of a term found in every document under
    Lucene's never-negative form, ln(1 + 0.5 / (N + 0.5)). In a collection of three or fewer
    documents (a chapter's world-model records) every shared term has an ATIRE idf <= 0, and so
    does rank_bm25's floor (a share of the mean idf), so nothing would rank at all."""

    def __init__(
        self, matrix: TermMatrix, k1: float = 1.5, b: float = 0.75, epsilon: float = 0.25, positive_idf: bool = False
    ):
        if len(matrix) == 0:
            raise ValueError("BM25 needs at least one document")
        self.matrix = matrix
        self._okapi = _SparseOkapi(matrix, k1=k1, b=b, epsilon=epsilon)
        if positive_idf:
            floor = math.log(1 + 0.5 / (len(matrix) + 0.5))
            self._okapi.idf = {term: max(idf, floor) for term, idf in self._okapi.idf.items()}
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
