"""Lexical retrieval: documents as a document-term count matrix, and BM25 over it with bm25s.

Terms come from the documents' language analyzer (``clueweaver.retrieval.analyzers``); a book's
paragraphs become a sparse document-term count matrix built with numpy, and bm25s scores it (its
Lucene variant). Queries are analyzed with the documents' analyzer. The disk cache stores the term
matrix: a change to an analyzer bumps ``index.CACHE_FORMAT``.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import chain
from typing import Sequence

import bm25s
import numpy as np

from clueweaver.books.language import detect_language
from clueweaver.retrieval.analyzers import analyzer_for


def tokenize(text: str, language: str | None = None) -> list[str]:
    """The BM25 terms of a text by ``language``'s analyzer (``clueweaver.retrieval.analyzers``;
    None: the language the text is in). A question about a book is analyzed with the book's
    analyzer instead (``BM25Index.terms``): its own language may differ."""
    return analyzer_for(language or detect_language(text)).tokenize(text)


@dataclass
class TermMatrix:
    """Analyzed documents as a sparse document-term count matrix (CSR), built with numpy so that
    a million-character novel is analyzed in a fraction of a second: each distinct word (or CJK
    run) is analyzed once, and its terms are spread over its occurrences with numpy."""

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
        units_per_doc = [analyzer.units(t) for t in texts]
        flat = list(chain.from_iterable(units_per_doc))
        unique_units = list(dict.fromkeys(flat))
        unit_number = {u: i for i, u in enumerate(unique_units)}
        unit_ids = np.fromiter(map(unit_number.__getitem__, flat), dtype=np.int64, count=len(flat))
        doc_of_unit = np.repeat(np.arange(len(texts)), [len(u) for u in units_per_doc])

        vocabulary: dict[str, int] = {}
        pair_units, pair_terms = [], []  # (unit, term) pairs: most words give one term, some none or several
        for u, unit in enumerate(unique_units):
            for term in analyzer.unit_tokens(unit):
                pair_units.append(u)
                pair_terms.append(vocabulary.setdefault(term, len(vocabulary)))
        pair_units = np.asarray(pair_units, dtype=np.int64)
        pair_terms = np.asarray(pair_terms, dtype=np.int64)
        per_unit = np.bincount(pair_units, minlength=len(unique_units))
        first_pair = np.concatenate(([0], np.cumsum(per_unit)[:-1]))
        # expand every unit occurrence (a word, a CJK run) into its terms
        repeats = per_unit[unit_ids]
        docs = np.repeat(doc_of_unit, repeats)
        offsets = np.arange(repeats.sum()) - np.repeat(np.cumsum(repeats) - repeats, repeats)
        terms = pair_terms[np.repeat(first_pair[unit_ids], repeats) + offsets]
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

    def term_ids(self) -> list[list[int]]:
        """Each document's term numbers, a term repeated as often as it occurs (in term order)."""
        repeated = np.repeat(self.indices, self.counts).tolist()
        ends = np.cumsum(self.lengths).tolist()
        return [repeated[start:end] for start, end in zip([0, *ends[:-1]], ends)]


# Lucene's defaults (BM25Similarity). With its idf, k1 1.2 recovered the tuning set's all-gold items
# that rank-bm25's k1 1.5 lost at the nocha preset (59 against 55 of 87; docs/retrieval.md).
K1, B = 1.2, 0.75


def lucene_idf(document_frequency: np.ndarray, num_docs: int) -> np.ndarray:
    """Lucene's idf, ln(1 + (N - df + 0.5) / (df + 0.5)): never negative, so a term found in every
    document still counts a little (in a collection of three records every shared term would
    otherwise weigh nothing or less)."""
    return np.log1p((num_docs - document_frequency + 0.5) / (document_frequency + 0.5))


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
        self._bm25 = bm25s.BM25(k1=k1, b=b, method="lucene", dtype="float64")
        vocabulary = {term: number for number, term in enumerate(matrix.vocabulary)}
        self._bm25.index((matrix.term_ids(), vocabulary), create_empty_token=False, show_progress=False)
        document_frequency = np.bincount(matrix.indices, minlength=len(matrix.vocabulary))
        self.idf: dict[str, float] = dict(zip(matrix.vocabulary, lucene_idf(document_frequency, len(matrix)).tolist()))

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
        """A text's terms by the documents' analyzer."""
        return self.analyzer.tokenize(text)

    def scores(self, query: str | Sequence[str]) -> np.ndarray:
        terms = self.terms(query) if isinstance(query, str) else list(query)
        term_ids = self._bm25.get_tokens_ids(terms)
        if not term_ids:
            return np.zeros(len(self.matrix))
        return self._bm25.get_scores_from_ids(term_ids)
