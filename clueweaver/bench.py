"""Benchmarks the project ships: commands that print numbers (speed, recall), not timed tests.

``clueweaver bench retrieval`` times indexing and segmentation on a whole novel;
``clueweaver bench recall`` measures gold-evidence recall on GutenQA and the multi-hop checks.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

from clueweaver.narrative import Narrative, load_narrative
from clueweaver.protocol.question import Question

# A question a reader of Little Women might ask, with four options: the shape of a benchmark item.
SAMPLE_QUESTION = Question(
    "Why does Jo cut off and sell her hair?",
    {
        "A": "To pay for Mother's journey to Washington to nurse Father",
        "B": "Because Amy burned it with the curling tongs",
        "C": "To buy Christmas presents for Marmee",
        "D": "Because Aunt March said long hair was vain",
    },
)


def load_book(book: str) -> Narrative:
    """A file path, or a shared-data key such as ``nocha:little_women_louisa_may_alcott``."""
    if Path(book).exists():
        return load_narrative(book)
    from clueweaver.benchmarks import shared_data_dir
    from clueweaver.checks import load_book as load_shared_book

    return load_shared_book(book, shared_data_dir())


def bench_retrieval(book: str, *, encoder: str | None = "minilm", question: Question = SAMPLE_QUESTION, repeats: int = 20) -> dict:
    """Index build time (BM25, cold), warm segmentation latency, and dense embedding and cache
    reload times, all on one book in this process."""
    from clueweaver import retrieval
    from clueweaver.segment import segment_narrative

    narrative = load_book(book)
    texts = [p.text for p in narrative.paragraphs]
    started = time.perf_counter()
    bm25 = retrieval.BM25Index(retrieval.TermMatrix.from_texts(texts))
    results = {
        "book": narrative.title,
        "paragraphs": len(narrative),
        "characters": narrative.num_chars,
        "bm25_build_s": round(time.perf_counter() - started, 4),
    }

    def median_ms(index) -> float:
        segment_narrative(narrative, question, "detectiveqa", index=index)  # warm the term cache
        times = []
        for _ in range(repeats):
            t = time.perf_counter()
            segment_narrative(narrative, question, "detectiveqa", index=index)
            times.append(time.perf_counter() - t)
        return round(statistics.median(times) * 1000, 2)

    results["segment_bm25_ms"] = median_ms(retrieval.RetrievalIndex(narrative, bm25))
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
    return results


def bench_recall(*, encoders=(None, "minilm"), presets=("detectiveqa", "nocha"), progress: bool = True) -> tuple[dict, str]:
    """Recall on GutenQA's single-paragraph questions and the multi-hop checks, per encoder and
    preset, beside plain BM25 with the same number of paragraphs. Returns (JSON, Markdown)."""
    from clueweaver.benchmarks import load_benchmark
    from clueweaver.evaluation.diagnostics import benchmark_gold_items, multihop_gold_items, retrieval_diagnostics

    sets = {
        "GutenQA Emma (single gold paragraph)": [
            item for item in benchmark_gold_items(load_benchmark("gutenqa")) if len(item.gold_ids) == 1
        ],
        "Multi-hop checks (2-4 distant gold paragraphs)": multihop_gold_items(),
    }
    payload, tables = {}, []
    for encoder in encoders:
        for name, items in sets.items():
            label = f"{name}, encoder: {encoder or 'none (BM25 alone)'}"
            result = retrieval_diagnostics(items, presets, encoder=encoder, title=label, progress=progress)
            payload[label] = list(result["presets"].values())
            tables.append(result["markdown"])
    return payload, "\n\n".join(tables)
