"""The loaders by name, and :func:`load_benchmark`, which picks one.

``load_benchmark(name, path=None, split=..., limit=..., skip_bad=...)`` picks a loader from
:data:`BENCHMARKS`; without ``path`` it reads the default file under the shared data folder
(``$CLUEWEAVER_SHARED_DATA``, else ``../shared/data`` next to the project root). A new loader
family is one module beside this one, whose loader this module imports and names in one line of
:data:`BENCHMARKS`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Callable

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
from clueweaver.benchmarks.schema import Benchmark, BenchmarkError

SHARED_DATA_ENV = "CLUEWEAVER_SHARED_DATA"


def shared_data_dir() -> Path:
    """The shared benchmark data folder: ``$CLUEWEAVER_SHARED_DATA`` or ``../shared/data`` beside
    the project root."""
    override = os.environ.get(SHARED_DATA_ENV)
    # parents: benchmarks/, clueweaver/, the project root, the folder that holds it
    return Path(override) if override else Path(__file__).resolve().parents[3] / "shared" / "data"


@dataclass(frozen=True)
class BenchmarkSpec:
    loader: Callable[..., Benchmark]
    default_path: str | None  # under the shared data folder; None: a path must be given
    description: str
    # Item metadata fields the benchmark's own paper reports accuracy by; eval reports them too.
    breakdowns: tuple[str, ...] = ()


BENCHMARKS: dict[str, BenchmarkSpec] = {
    "nocha": BenchmarkSpec(load_nocha, "nocha/data_sample", "NoCha claim pairs over whole novels"),
    "quality": BenchmarkSpec(
        load_quality, "quality_nyu_example/quality_example.jsonl", "QuALITY official JSONL (HTML articles)"
    ),
    "quality_leval": BenchmarkSpec(load_quality_leval, "quality_leval/quality.jsonl", "QuALITY as in L-Eval"),
    "leval_scifi": BenchmarkSpec(load_leval_scifi, "leval_scifi/sci_fi.jsonl", "L-Eval sci-fi in-story claims"),
    "gutenqa": BenchmarkSpec(
        load_gutenqa, "gutenqa_emma", "GutenQA open questions with reference answers and gold paragraphs"
    ),
    "narrativeqa": BenchmarkSpec(
        load_narrativeqa, None, "NarrativeQA: the release (qaps.csv, documents.csv, tmp/), the HF export, or JSONL"
    ),
    "squality": BenchmarkSpec(load_squality, "squality/v1-3/txt", "SQuALITY open questions with four references"),
    "kdsh": BenchmarkSpec(load_kdsh, "kdsh_backstory", "KDSH character backstory claims"),
    "bmds": BenchmarkSpec(load_bmds, "bmds", "BMDS detective stories with clue annotations"),
    "detectiveqa": BenchmarkSpec(load_detectiveqa, "detectiveqa", "DetectiveQA (English) with clue positions"),
    "detectiveqa_zh": BenchmarkSpec(
        partial(load_detectiveqa, language="zh"), "detectiveqa", "DetectiveQA (Chinese) with clue positions"
    ),
    "infinitebench": BenchmarkSpec(
        load_infinitebench, "infinitebench/longbook_choice_eng.jsonl", "InfiniteBench En.MC"
    ),
    "infinitebench_qa": BenchmarkSpec(
        load_infinitebench_qa, "infinitebench/longbook_qa_eng.jsonl", "InfiniteBench En.QA open questions"
    ),
    "infinitebench_qa_zh": BenchmarkSpec(
        partial(load_infinitebench_qa, language="zh"),
        "infinitebench/longbook_qa_chn.jsonl",
        "InfiniteBench Zh.QA open questions (Chinese)",
    ),
    "novelqa": BenchmarkSpec(
        load_novelqa,
        "novelqa",
        "NovelQA multiple choice over whole novels (the public copy withholds answers)",
        ("Complexity", "Aspect"),
    ),
    "longbench_v2": BenchmarkSpec(
        load_longbench_v2, "longbench_v2/data.json", "LongBench v2 multiple choice", ("difficulty", "length")
    ),
    "jsonl": BenchmarkSpec(load_jsonl, None, "a benchmark in the common schema"),
}


def breakdowns(name: str) -> tuple[str, ...]:
    """The metadata fields benchmark ``name`` reports accuracy by (none for a name not registered)."""
    spec = BENCHMARKS.get(name)
    return spec.breakdowns if spec else ()


def load_benchmark(
    name: str,
    path: str | Path | None = None,
    *,
    split: str | None = None,
    limit: int | None = None,
    skip_bad: bool = False,
) -> Benchmark:
    """Load benchmark ``name`` from ``path`` (default: its file under the shared data folder).

    ``limit`` keeps the first items (in file order); ``skip_bad`` passes over bad rows, recording
    them in ``Benchmark.skipped``, instead of raising a BenchmarkError that names file and row.
    """
    spec = BENCHMARKS.get(name)
    if spec is None:
        raise BenchmarkError(f"unknown benchmark {name!r}; choose from {', '.join(BENCHMARKS)}")
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 1):
        raise BenchmarkError(f"limit must be a positive integer, got {limit!r}")
    if path is None:
        if spec.default_path is None:
            raise BenchmarkError(f"{name}: give the path of the benchmark file")
        path = shared_data_dir() / spec.default_path
    path = Path(path)
    if not path.exists():
        raise BenchmarkError(f"{name}: {path} does not exist; pass the path of the benchmark's data")
    return spec.loader(path, split=split, limit=limit, skip_bad=skip_bad)
