"""``clueweaver eval-retrieval``: gold-evidence recall of the candidate segments and of the packed
evidence at each preset, for the sets that mark their evidence paragraphs (GutenQA, DetectiveQA,
a common-schema JSONL with ``gold_evidence``, and the bundled multi-hop checks). No language model.

The measurement itself is :func:`clueweaver.evaluation.retrieval.measure_recall`; this module
gathers the gold items, runs it per preset and writes the result.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Sequence

from clueweaver.benchmarks import load_benchmark
from clueweaver.benchmarks.checks import CHECKS_FILE, load_multihop_checks
from clueweaver.core.errors import ClueWeaverError
from clueweaver.evaluation.retrieval import GoldItem, format_report, measure_recall
from clueweaver.retrieval import get_index
from clueweaver.segments.segmenter import PRESETS

MULTIHOP = "multihop"  # the bundled multi-hop checks (clueweaver/data/multihop_checks.jsonl)


class DiagnosticsError(ClueWeaverError, ValueError):
    """Nothing to measure (no gold evidence) or an unknown preset; the message says which."""


def benchmark_gold_items(benchmark) -> list[GoldItem]:
    """The items of a loaded benchmark that mark gold evidence paragraphs."""
    return [
        GoldItem(benchmark.narrative(item), item.question, item.gold_evidence, item.item_id)
        for item in benchmark.items
        if item.gold_evidence
    ]


def multihop_gold_items(
    shared_data_dir: str | Path | None = None,
    *,
    limit: int | None = None,
    checks_path: str | Path | None = None,
    cross_language: bool = False,
) -> list[GoldItem]:
    """The project's multi-hop checks (``checks_path``: another checks file, e.g. the held-out set;
    ``cross_language``: its checks asked in another language than the book's instead)."""
    path = checks_path or CHECKS_FILE
    checks = load_multihop_checks(shared_data_dir, checks_path=path, cross_language=cross_language)[:limit]
    return [GoldItem(narrative, check.question, check.gold_ids, check.id) for narrative, check in checks]


def load_gold_items(
    name: str, path: str | None = None, *, split: str | None = None, limit: int | None = None, skip_bad: bool = False
) -> list[GoldItem]:
    """Gold items of benchmark ``name`` (any loader, or ``multihop``); an error when it has none."""
    if name == MULTIHOP:
        items = multihop_gold_items(path, limit=limit)
    else:
        items = benchmark_gold_items(load_benchmark(name, path, split=split, limit=limit, skip_bad=skip_bad))
    if not items:
        raise DiagnosticsError(f"{name}: no item marks gold evidence paragraphs, so there is no recall to measure")
    return items


def resolve_presets(names: Sequence[str] | None) -> list[str]:
    """Preset names, all packaged presets when none or ``all`` is given."""
    if not names or list(names) == ["all"]:
        return list(PRESETS)
    unknown = [n for n in names if n not in PRESETS]
    if unknown:
        raise DiagnosticsError(f"unknown preset(s) {', '.join(unknown)}; choose from {', '.join(PRESETS)} or all")
    return list(names)


def retrieval_diagnostics(
    items: Sequence[GoldItem],
    presets: Sequence[str],
    *,
    encoder="auto",
    cache_dir: str | None = None,
    title: str | None = None,
    progress: bool = True,
) -> dict:
    """Per preset: the recall summary and its per-item rows, and the Markdown table."""

    def index_for(narrative):
        return get_index(narrative, encoder, cache_dir=cache_dir)

    reports = [measure_recall(items, preset, index_for=index_for, progress=progress) for preset in presets]
    return {
        "items": len(items),
        "encoder": encoder,
        "presets": {r.preset: r.summary() for r in reports},
        "rows": {r.preset: [vars(row) for row in r.rows] for r in reports},
        "markdown": format_report(reports, title or f"Gold-evidence recall ({len(items)} items)"),
    }


def write_diagnostics(result: dict, output_dir: str | Path) -> dict[str, Path]:
    """retrieval.json (summaries and per-item rows) and retrieval.md (the table)."""
    output_dir = Path(output_dir)
    output_dir.mkdir(parents=True, exist_ok=True)
    paths = {"json": output_dir / "retrieval.json", "markdown": output_dir / "retrieval.md"}
    paths["json"].write_text(
        json.dumps({k: v for k, v in result.items() if k != "markdown"}, indent=2) + "\n", encoding="utf-8"
    )
    paths["markdown"].write_text(result["markdown"] + "\n", encoding="utf-8")
    return paths
