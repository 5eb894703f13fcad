"""Lexical retrieval: documents as a document-term count matrix, and BM25 over it with bm25s.

Terms come from the documents' language analyzer (``clueweaver.retrieval.analyzers``); a book's
paragraphs become a sparse document-term count matrix built with numpy, and bm25s scores it (its
Lucene variant). Queries are analyzed with the documents' analyzer. The disk cache stores the term
matrix with the fingerprint of the code behind it (``clueweaver.retrieval.fingerprint``).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import chain
from typing import Sequence

import bm25s
import numpy as np

from clueweaver.books.language import detect_language, guess_language
from clueweaver.retrieval.analyzers import Analyzer, analyzer_for
from clueweaver.retrieval.compounds import COMPOUND_LANGUAGES, CompoundSplitter


def tokenize(text: str, language: str | None = None) -> list[str]:
    """The BM25 terms of a text by ``language``'s analyzer (``clueweaver.retrieval.analyzers``;
    None: the language the text is in). A question about a book is analyzed with the book's
    analyzer instead (``BM25Index.terms``): its own language may differ."""
    return analyzer_for(language or detect_language(text)).tokenize(text)


@dataclass
class TermMatrix:
    """Analyzed documents as a sparse document-term count matrix (CSR), built with numpy so that
    a million-character novel is analyzed in a fraction of a second: each distinct word is analyzed
    once and its terms spread over its occurrences, and CJK runs are cut into bigrams and unigrams
    over the code points at once (``Analyzer.cjk_occurrences``)."""

    vocabulary: list[str]
    indptr: np.ndarray  # document d's terms are indices[indptr[d]:indptr[d + 1]]
    indices: np.ndarray
    counts: np.ndarray
    lengths: np.ndarray  # tokens per document, stop words excluded
    language: str = "en"  # the analyzer that made the terms, and that analyzes queries

    @classmethod
    def from_texts(cls, texts: Sequence[str], language: str | None = None) -> "TermMatrix":
        """The texts' terms by ``language``'s analyzer (None: the language the texts are in)."""
        language = language or detect_language("\n".join(texts))
        analyzer = analyzer_for(language)
        normalized = [analyzer.normalize(t) for t in texts]
        vocabulary: dict[str, int] = {}
        docs, terms = _word_occurrences(analyzer, normalized, vocabulary)
        if analyzer.bigrams:
            cjk_docs, cjk_terms, occurrence_term = analyzer.cjk_occurrences(normalized)
            numbers = np.fromiter((vocabulary.setdefault(t, len(vocabulary)) for t in cjk_terms), dtype=np.int64)
            docs, terms = np.concatenate([docs, cjk_docs]), np.concatenate([terms, numbers[occurrence_term]])
        return cls.from_pairs(docs, terms, len(texts), list(vocabulary), language)

    @classmethod
    def from_token_lists(cls, tokenized: Sequence[Sequence[str]], language: str = "en") -> "TermMatrix":
        vocabulary: dict[str, int] = {}
        terms = [vocabulary.setdefault(t, len(vocabulary)) for doc in tokenized for t in doc]
        docs = np.repeat(np.arange(len(tokenized)), [len(d) for d in tokenized])
        return cls.from_pairs(docs, np.asarray(terms, dtype=np.int64), len(tokenized), list(vocabulary), language)

    @classmethod
    def from_pairs(
        cls, docs: np.ndarray, terms: np.ndarray, num_docs: int, vocabulary: list[str], language: str = "en"
    ) -> "TermMatrix":
        keys, counts = np.unique(docs * max(len(vocabulary), 1) + terms, return_counts=True)
        key_docs = keys // max(len(vocabulary), 1)
        indptr = np.zeros(num_docs + 1, dtype=np.int64)
        np.cumsum(np.bincount(key_docs, minlength=num_docs), out=indptr[1:])
        lengths = np.bincount(docs, minlength=num_docs)
        return cls(vocabulary, indptr, keys % max(len(vocabulary), 1), counts, lengths, language)

    def __len__(self) -> int:
        return len(self.lengths)


# Lucene's defaults (BM25Similarity). With its idf, k1 1.2 recovered the tuning set's all-gold items
# that rank-bm25's k1 1.5 lost at the nocha preset (59 against 55 of 87; docs/retrieval.md).
K1, B = 1.2, 0.75


def _word_occurrences(
    analyzer: Analyzer, normalized: Sequence[str], vocabulary: dict[str, int]
) -> tuple[np.ndarray, np.ndarray]:
    """(document, term number) of every term of the texts' words, each distinct word analyzed once;
    new terms join ``vocabulary``."""
    words_per_doc = [analyzer.words(text) for text in normalized]
    flat = list(chain.from_iterable(words_per_doc))
    unique_words = list(dict.fromkeys(flat))
    word_number = {w: i for i, w in enumerate(unique_words)}
    word_ids = np.fromiter(map(word_number.__getitem__, flat), dtype=np.int64, count=len(flat))
    doc_of_word = np.repeat(np.arange(len(normalized)), [len(w) for w in words_per_doc])
    terms_of = [analyzer.word_terms(word) for word in unique_words]
    if analyzer.language in COMPOUND_LANGUAGES:  # a compound's parts' terms join its own
        splitter = CompoundSplitter(analyzer, set(chain.from_iterable(terms_of)))
        terms_of = [terms + splitter.parts(word) for word, terms in zip(unique_words, terms_of)]
    pair_words, pair_terms = [], []  # (word, term) pairs: most words give one term, some none or several
    for w, word_terms in enumerate(terms_of):
        for term in word_terms:
            pair_words.append(w)
            pair_terms.append(vocabulary.setdefault(term, len(vocabulary)))
    per_word = np.bincount(np.asarray(pair_words, dtype=np.int64), minlength=len(unique_words))
    first_pair = np.concatenate(([0], np.cumsum(per_word)[:-1])).astype(np.int64)
    # expand every word occurrence into its terms
    repeats = per_word[word_ids]
    docs = np.repeat(doc_of_word, repeats)
    offsets = np.arange(repeats.sum()) - np.repeat(np.cumsum(repeats) - repeats, repeats)
    terms = np.asarray(pair_terms, dtype=np.int64)[np.repeat(first_pair[word_ids], repeats) + offsets]
    return docs, terms


def lucene_idf(document_frequency: np.ndarray, num_docs: int) -> np.ndarray:
    """Lucene's idf, ln(1 + (N - df + 0.5) / (df + 0.5)): never negative, so a term found in every
    document still counts a little (in a collection of three records every shared term would
    otherwise weigh nothing or less)."""
    return np.log1p((num_docs - document_frequency + 0.5) / (document_frequency + 0.5))


class _CountedBM25(bm25s.BM25):
    """bm25s's BM25 (Lucene variant) whose index is built from a ``TermMatrix``'s counts with numpy,
    through ``build_index_from_ids``, the hook bm25s documents for building the index another way:
    its own build counts every token of every document in Python, which took three times as long
    as analyzing a Chinese novel (two terms per character). Retrieval is bm25s's;
    ``tests/test_retrieval.py`` holds this index's scores equal to bm25s's own build."""

    def __init__(self, matrix: TermMatrix, k1: float, b: float):
        super().__init__(k1=k1, b=b, method="lucene", dtype="float64")
        self.matrix = matrix

    def build_index_from_ids(self, unique_token_ids, corpus_token_ids, show_progress=True, leave_progress=False):
        """bm25s's score matrix (documents x terms, CSC): each (document, term) pair's idf times
        tf / (tf + k1 (1 - b + b |d| / avgdl)), from the counts; the token lists are not read."""
        m = self.matrix
        self.nonoccurrence_array = None  # as bm25s's build sets it: Lucene scores an absent term 0
        docs = np.repeat(np.arange(len(m)), np.diff(m.indptr))
        document_frequency = np.bincount(m.indices, minlength=len(m.vocabulary))
        length_norm = self.k1 * (1 - self.b + self.b * m.lengths[docs] / max(m.lengths.mean(), 1e-9))
        scores = lucene_idf(document_frequency, len(m))[m.indices] * m.counts / (m.counts + length_norm)
        by_term = np.argsort(m.indices, kind="stable")  # CSC: each term's documents, in document order
        indptr = np.concatenate(([0], np.cumsum(document_frequency)))
        return {"data": scores[by_term].astype(self.dtype), "indices": docs[by_term], "indptr": indptr,
                "num_docs": len(m)}  # fmt: skip


class BM25Index:
    """BM25 over documents (paragraphs, records): bm25s's Lucene variant, whose scores are those of
    Lucene's BM25Similarity, idf (``lucene_idf``) times tf / (tf + k1 (1 - b + b |d| / avgdl)).
    A query string is analyzed with the documents' analyzer; a list of terms is scored as it is.
    ``tests/test_retrieval.py`` holds the scores equal to Lucene's formula computed independently
    and to rank-bm25's Okapi with Lucene's idf."""

    def __init__(self, matrix: TermMatrix, k1: float = K1, b: float = B):
        if len(matrix) == 0:
            raise ValueError("BM25 needs at least one document")
        self.matrix = matrix
        self.analyzer = analyzer_for(matrix.language)
        self._bm25 = _CountedBM25(matrix, k1, b)
        vocabulary = {term: number for number, term in enumerate(matrix.vocabulary)}
        self._bm25.index(([], vocabulary), create_empty_token=False, show_progress=False)  # the counts are in matrix
        document_frequency = np.bincount(matrix.indices, minlength=len(matrix.vocabulary))
        self.idf: dict[str, float] = dict(zip(matrix.vocabulary, lucene_idf(document_frequency, len(matrix)).tolist()))
        self._compounds = (
            CompoundSplitter(self.analyzer, set(matrix.vocabulary)) if matrix.language in COMPOUND_LANGUAGES else None
        )

    @classmethod
    def from_texts(cls, texts: Sequence[str], language: str | None = None, **kwargs) -> "BM25Index":
        """BM25 over ``texts`` analyzed in ``language`` (None: the language they are in)."""
        return cls(TermMatrix.from_texts(texts, language), **kwargs)

    @property
    def language(self) -> str:
        return self.matrix.language

    def __len__(self) -> int:
        return len(self.matrix)

    def terms(self, text: str) -> list[str]:
        """A text's terms by the documents' analyzer, with its compounds' parts where the book's
        language has them (``clueweaver.retrieval.compounds``) and the text is in it: an English
        question's "offering" is no German "off-ring"."""
        terms = self.analyzer.tokenize(text)
        if self._compounds is not None and guess_language(text, beside=self.language) in (self.language, None):
            words = self.analyzer.words(self.analyzer.normalize(text))
            terms += [term for word in words for term in self._compounds.parts(word)]
        return terms

    def scores(self, query: str | Sequence[str]) -> np.ndarray:
        terms = self.terms(query) if isinstance(query, str) else list(query)
        term_ids = self._bm25.get_tokens_ids(terms)
        if not term_ids:
            return np.zeros(len(self.matrix))
        return self._bm25.get_scores_from_ids(term_ids)
