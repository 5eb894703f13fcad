"""``clueweaver bench recall``: gold-evidence recall of the candidate segments on GutenQA, the
tuning multi-hop checks and the frozen held-out checks, beside plain BM25 given as many paragraphs."""

from __future__ import annotations

from clueweaver.benchmarks import load_benchmark
from clueweaver.checks import FROZEN_FILE
from clueweaver.evaluation.diagnostics import benchmark_gold_items, multihop_gold_items, retrieval_diagnostics


def bench_recall(
    *, encoders=(None, "minilm"), presets=("detectiveqa", "nocha"), progress: bool = True
) -> tuple[dict, str]:
    """Recall on GutenQA's single-paragraph questions, the tuning multi-hop checks and the frozen
    held-out multi-hop checks, per encoder and preset, beside plain BM25 with the same number of
    paragraphs. Returns (JSON, Markdown)."""
    sets = {
        "GutenQA Emma (single gold paragraph)": [
            item for item in benchmark_gold_items(load_benchmark("gutenqa")) if len(item.gold_ids) == 1
        ],
        "Tuning multi-hop checks (2-4 distant gold paragraphs)": multihop_gold_items(),
        "Frozen held-out multi-hop checks (never used for tuning)": multihop_gold_items(checks_path=FROZEN_FILE),
    }
    payload, tables = {}, []
    for encoder in encoders:
        for name, items in sets.items():
            label = f"{name}, encoder: {encoder or 'none (BM25 alone)'}"
            result = retrieval_diagnostics(items, presets, encoder=encoder, title=label, progress=progress)
            payload[label] = list(result["presets"].values())
            tables.append(result["markdown"])
    return payload, "\n\n".join(tables)
