"""Public benchmark formats loaded into one schema: narratives with paragraph IDs, and items.

Every loader returns a :class:`Benchmark` (:mod:`clueweaver.benchmarks.schema`, which also
describes the common JSONL format any benchmark converts to). :func:`load_benchmark` picks a loader
by name from :data:`BENCHMARKS` (:mod:`clueweaver.benchmarks.registry`). Each loader family is one
module: :mod:`~clueweaver.benchmarks.nocha`, :mod:`~clueweaver.benchmarks.quality`,
:mod:`~clueweaver.benchmarks.leval`, :mod:`~clueweaver.benchmarks.gutenqa`,
:mod:`~clueweaver.benchmarks.kdsh`, :mod:`~clueweaver.benchmarks.bmds`,
:mod:`~clueweaver.benchmarks.detectiveqa`, :mod:`~clueweaver.benchmarks.longcontext`,
:mod:`~clueweaver.benchmarks.narrativeqa` (the release, the Hugging Face export, NarrativeQA-format
JSONL), :mod:`~clueweaver.benchmarks.novelqa`, :mod:`~clueweaver.benchmarks.openqa` (SQuALITY) and
:mod:`~clueweaver.benchmarks.jsonl`, all built on the shared machinery of
:mod:`~clueweaver.benchmarks.loading`.
"""

from clueweaver.benchmarks.bmds import load_bmds
from clueweaver.benchmarks.detectiveqa import load_detectiveqa
from clueweaver.benchmarks.gutenqa import load_gutenqa
from clueweaver.benchmarks.jsonl import load_jsonl
from clueweaver.benchmarks.kdsh import load_kdsh
from clueweaver.benchmarks.leval import load_leval_scifi, load_quality_leval
from clueweaver.benchmarks.longcontext import load_infinitebench, load_infinitebench_qa, load_longbench_v2
from clueweaver.benchmarks.narrativeqa import load_narrativeqa
from clueweaver.benchmarks.nocha import load_nocha
from clueweaver.benchmarks.novelqa import load_novelqa
from clueweaver.benchmarks.openqa import load_squality
from clueweaver.benchmarks.quality import load_quality
from clueweaver.benchmarks.registry import (
    BENCHMARKS,
    SHARED_DATA_ENV,
    BenchmarkSpec,
    breakdowns,
    load_benchmark,
    shared_data_dir,
)
from clueweaver.benchmarks.schema import COMMON_FORMAT, Benchmark, BenchmarkError, BenchmarkItem, SkippedRow

__all__ = [
    "BENCHMARKS",
    "COMMON_FORMAT",
    "SHARED_DATA_ENV",
    "Benchmark",
    "BenchmarkError",
    "BenchmarkItem",
    "BenchmarkSpec",
    "SkippedRow",
    "breakdowns",
    "load_benchmark",
    "load_bmds",
    "load_detectiveqa",
    "load_gutenqa",
    "load_infinitebench",
    "load_infinitebench_qa",
    "load_jsonl",
    "load_kdsh",
    "load_leval_scifi",
    "load_longbench_v2",
    "load_narrativeqa",
    "load_nocha",
    "load_novelqa",
    "load_quality",
    "load_quality_leval",
    "load_squality",
    "shared_data_dir",
]
