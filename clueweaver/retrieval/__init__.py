"""Paragraph retrieval: BM25, dense encoders, rank fusion and an on-disk index cache.

``analyzers`` (one text analyzer per language; spelled numbers read as digits by
``clueweaver.books.spelled_numbers``), ``lexical`` (``tokenize``, the document-term matrix, BM25 on
bm25s), ``dense`` (encoders and ``load_encoder``), ``fusion`` (reciprocal rank and weighted score
fusion), ``ranking`` (which queries a question asks and how the signals are smoothed and fused: ``RankingConfig``),
``graph`` (the graph of names and personalized PageRank over it: ``EntityGraph``) and
``index`` (the per-book ``RetrievalIndex``, ``build_index``/``get_index`` and the disk cache). Rankings are lists of
``(paragraph_id, score)``, best first. The public names are importable from this package; code
that patches one (a test) patches the submodule that owns it.
"""

from __future__ import annotations

from clueweaver.retrieval.analyzers import Analyzer, analyzer_for
from clueweaver.retrieval.dense import (
    BGEM3Encoder,
    DenseEncoder,
    SentenceTransformerEncoder,
    load_encoder,
    offline_minilm_path,
)
from clueweaver.retrieval.fusion import RRF_K, ranking_from_scores, reciprocal_rank_fusion, weighted_score_fusion
from clueweaver.retrieval.graph import EntityGraph
from clueweaver.retrieval.index import (
    CACHE_FORMAT,
    PROGRESS_CHUNK,
    RetrievalIndex,
    atomic_write,
    book_cache_dir,
    book_language,
    build_index,
    default_cache_dir,
    get_index,
)
from clueweaver.retrieval.lexical import BM25Index, TermMatrix, tokenize
from clueweaver.retrieval.ranking import RankingConfig, joined_query, question_language

__all__ = [
    "CACHE_FORMAT",
    "PROGRESS_CHUNK",
    "RRF_K",
    "Analyzer",
    "BGEM3Encoder",
    "BM25Index",
    "DenseEncoder",
    "EntityGraph",
    "RankingConfig",
    "RetrievalIndex",
    "SentenceTransformerEncoder",
    "TermMatrix",
    "atomic_write",
    "analyzer_for",
    "book_cache_dir",
    "book_language",
    "build_index",
    "default_cache_dir",
    "get_index",
    "joined_query",
    "question_language",
    "load_encoder",
    "offline_minilm_path",
    "ranking_from_scores",
    "reciprocal_rank_fusion",
    "tokenize",
    "weighted_score_fusion",
]
