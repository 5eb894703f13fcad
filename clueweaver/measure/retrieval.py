"""``clueweaver bench retrieval``: index build (language detection, analysis, BM25; the graph of
names), segmentation latency, embedding and cache reload times on one whole novel, in one process."""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from clueweaver import retrieval
from clueweaver.benchmarks import shared_data_dir
from clueweaver.benchmarks.checks import load_check_book
from clueweaver.books.narrative import Narrative, load_narrative
from clueweaver.protocol.question import Question
from clueweaver.segments.segmenter import segment_narrative

SAMPLE_QUESTION = Question(
    "Why does Jo cut off and sell her hair?",
    {
        "A": "To pay for Mother's journey to Washington to nurse Father",
        "B": "Because Amy burned it with the curling tongs",
        "C": "To buy Christmas presents for Marmee",
        "D": "Because Aunt March said long hair was vain",
    },
)


def book_from_path_or_key(book: str) -> Narrative:
    """A file path, or a shared-data key such as ``nocha:little_women_louisa_may_alcott``."""
    if Path(book).exists():
        return load_narrative(book)
    return load_check_book(book, shared_data_dir())


# What every ``clueweaver`` command pays before it reads a book: a fresh interpreter importing the command line,
# then reading a question's chapter mentions, whose patterns compile on the first question read (most of them on the
# first that names a chapter or a part in words)
_START = "import clueweaver.cli\nfrom clueweaver.books.chapter_mentions import chapter_mentions as read\nread({!r})"


def cli_start_seconds(question: str) -> float:
    """Seconds a fresh interpreter takes to start as a ``clueweaver`` command that reads ``question``."""
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", _START.format(question)], check=True)
    return round(time.perf_counter() - started, 2)


def bench_retrieval(
    book: str,
    *,
    encoder: str | None = "minilm",
    question: Question = SAMPLE_QUESTION,
    repeats: int = 20,
    reference: bool = False,
) -> dict:
    """Index build time (the book's language detected, its paragraphs analyzed, BM25 built; cold;
    then the graph of names, built whether or not the ranking uses it), warm segmentation latency, and
    dense embedding and cache reload times, all on one book in this process, after the start of a fresh
    command (``cli_start_seconds``: reading the question, then the question naming a chapter). ``reference``
    also times sentence-transformers' own ``encode`` with its defaults on the same texts (the speed of a
    machine varies from run to run; the ratio of the two does much less)."""
    start_s = cli_start_seconds(question.text)
    chapter_start_s = cli_start_seconds(f"In chapter 3, {question.text}")
    narrative = book_from_path_or_key(book)
    texts = [p.text for p in narrative.paragraphs]
    started = time.perf_counter()
    bm25 = retrieval.BM25Index(retrieval.TermMatrix.from_texts(texts, retrieval.book_language(narrative)))
    results = {
        "book": narrative.title,
        "language": bm25.language,
        "paragraphs": len(narrative),
        "characters": narrative.num_chars,
        "cli_start_s": start_s,
        "cli_start_chapter_question_s": chapter_start_s,
        "bm25_build_s": round(time.perf_counter() - started, 4),
    }
    started = time.perf_counter()
    graph = retrieval.EntityGraph.from_texts(texts, bm25.language)
    results["graph_build_s"] = round(time.perf_counter() - started, 4)
    results["graph_entities"] = len(graph.entities)

    def median_ms(index) -> float:
        segment_narrative(narrative, question, "detectiveqa", index=index)  # warm the term cache
        times = []
        for _ in range(repeats):
            t = time.perf_counter()
            segment_narrative(narrative, question, "detectiveqa", index=index)
            times.append(time.perf_counter() - t)
        return round(statistics.median(times) * 1000, 2)

    results["segment_bm25_ms"] = median_ms(retrieval.RetrievalIndex(narrative, bm25, graph=graph))
    if encoder:
        with tempfile.TemporaryDirectory() as cache:
            dense = retrieval.load_encoder(encoder)
            dense.encode(["warm up the model"])  # model loading is not embedding time
            t = time.perf_counter()
            index = retrieval.build_index(narrative, dense, cache_dir=cache)
            results["encoder"] = dense.name
            results["embed_s"] = round(time.perf_counter() - t, 2)
            t = time.perf_counter()
            index = retrieval.build_index(narrative, dense, cache_dir=cache)
            results["cache_reload_s"] = round(time.perf_counter() - t, 4)
            results["segment_hybrid_ms"] = median_ms(index)
            if reference and isinstance(dense, retrieval.SentenceTransformerEncoder):
                t = time.perf_counter()
                dense.model.encode(texts, normalize_embeddings=True)
                results["st_defaults_embed_s"] = round(time.perf_counter() - t, 2)
                results["embed_vs_st_defaults"] = round(results["embed_s"] / results["st_defaults_embed_s"], 3)
    return results
