"""Benchmarks the project ships: commands that print numbers (speed, recall), not timed tests.

``retrieval`` (``clueweaver bench retrieval``) times indexing and segmentation on a whole novel;
``recall`` (``clueweaver bench recall``) measures gold-evidence recall on GutenQA, the tuning and the
frozen held-out multi-hop checks, and the recall-vs-cost curve; ``pipeline``
(``clueweaver bench pipeline``) times each stage of the pipeline against the direct reader;
``concurrency`` (``clueweaver bench eval-concurrency``) measures ``eval``'s items per minute at
several item concurrencies, against a stand-in server that only delays (``openai_standin``) or a
real one.
"""

from clueweaver.measure.pipeline import BENCH_SHAPES, MODEL_SHAPES, bench_pipeline
from clueweaver.measure.recall import bench_ablations, bench_recall, plot_curve, recall_curve
from clueweaver.measure.retrieval import SAMPLE_QUESTION, bench_retrieval, book_from_path_or_key

__all__ = [
    "BENCH_SHAPES",
    "MODEL_SHAPES",
    "SAMPLE_QUESTION",
    "bench_ablations",
    "bench_pipeline",
    "bench_recall",
    "bench_retrieval",
    "book_from_path_or_key",
    "plot_curve",
    "recall_curve",
]
