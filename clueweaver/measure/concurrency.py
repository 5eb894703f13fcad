"""Items per minute of ``clueweaver eval`` at several item concurrencies (``clueweaver bench eval-concurrency``).

The benchmark is the bundled mystery (:mod:`clueweaver.benchmarks.demo`) with its two questions
asked over and over under distinct item IDs, run by the real runner (:func:`run_evaluation`) into a
fresh run folder per level. On a CPU the answers come from a stand-in OpenAI server that delays
each reply (:mod:`clueweaver.measure.openai_standin`): the server only waits, so items per minute
should grow with the concurrency until the client's own work (retrieval, parsing, records) is the
limit. The same command with ``--backend vllm --model M`` (an engine in this process, items' calls
merged into its batches) or ``--base-url URL`` (a real server) gives the real number.

Each level's summary is compared with the serial one (latency aside): concurrency must not change
what the run reports.
"""

from __future__ import annotations

import json
import tempfile
import time
from pathlib import Path
from typing import Callable

from clueweaver.benchmarks.demo import load_demo
from clueweaver.evaluation.runner import EvalConfig, run_evaluation
from clueweaver.evaluation.systems import build_reader
from clueweaver.measure.openai_standin import OpenAIStandIn

LEVELS = (1, 4, 16, 32)
STANDIN_MODEL = "scripted"
STANDIN_LIFETIME_S = 1800.0  # the stand-in stops by itself after this, whatever happens to the benchmark


def demo_benchmark(path: Path, items: int) -> Path:
    """The bundled mystery as a benchmark in the common schema with ``items`` items: its questions
    in turn, each copy under its own ID."""
    narrative, questions = load_demo()
    lines = [
        {"record": "benchmark", "name": "demo", "format": "clueweaver-benchmark/1"},
        {
            "record": "narrative",
            "book_id": "demo",
            "title": narrative.title,
            "paragraphs": [p.text for p in narrative.paragraphs],
        },
    ]
    for number in range(items):
        asked = questions[number % len(questions)]
        question = {"text": asked.question.text, "kind": asked.question.kind, "options": dict(asked.question.options)}
        lines.append(
            {
                "record": "item",
                "benchmark": "demo",
                "book_id": "demo",
                "item_id": f"{asked.id}-{number}",
                "question": question,
                "answer": asked.answer,
            }
        )
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


def _config(folder: Path, bench: Path, concurrency: int, items: int, run: dict) -> EvalConfig:
    return EvalConfig(benchmark="jsonl", path=str(bench), limit=items, encoder=None,
                      output=str(folder / f"c{concurrency}"), item_concurrency=concurrency, **run)  # fmt: skip


def _levels(folder: Path, bench: Path, levels: tuple[int, ...], items: Callable[[int], int], run: dict) -> list[dict]:
    """One timed run per level, all on one reader (the models load once, outside the timing; built
    for the highest level, so in-process models get the engine that merges concurrent items' calls)."""
    reader = build_reader(_config(folder, bench, max(levels), items(max(levels)), run), max(levels))
    rows = []
    try:
        for concurrency in levels:
            started = time.perf_counter()
            result = run_evaluation(
                _config(folder, bench, concurrency, items(concurrency), run), reader, progress=False
            )
            seconds = time.perf_counter() - started
            rows.append({"concurrency": concurrency, "items": items(concurrency), "seconds": round(seconds, 3),
                         "items_per_minute": round(60 * items(concurrency) / seconds, 1),
                         "accuracy": result.summary["overall"]["accuracy"]})  # fmt: skip
    finally:
        reader.close()
    return rows


def bench_item_concurrency(
    *,
    levels: tuple[int, ...] = LEVELS,
    items_per_worker: int = 8,
    min_items: int = 8,
    delay: float = 0.5,
    system: str = "rag-bm25",
    backend: str = "openai",
    model: str | None = None,
    base_url: list[str] | None = None,
    tokenizer: str | None = None,
) -> tuple[dict, str]:
    """(JSON payload, Markdown table): items per minute at each level (``items_per_worker`` items per
    worker, at least ``min_items``) and its ratio to the first level. With ``backend="openai"`` and
    no ``base_url``, a stand-in server delaying each reply by ``delay`` seconds answers."""
    run = {"system": system, "backend": backend, "model": model, "base_url": base_url, "tokenizer": tokenizer}

    def items(concurrency: int) -> int:
        return max(concurrency * items_per_worker, min_items)

    with tempfile.TemporaryDirectory(prefix="clueweaver-concurrency-") as tmp:
        folder = Path(tmp)
        bench = demo_benchmark(folder / "demo.jsonl", items(max(levels)))
        if backend == "openai" and not base_url:
            with OpenAIStandIn(delay=delay, lifetime=STANDIN_LIFETIME_S) as server:
                run.update(model=STANDIN_MODEL, base_url=[server.base_url])
                rows = _levels(folder, bench, levels, items, run)
            where = f"a stand-in OpenAI server that delays each reply {delay} s"
        else:
            rows = _levels(folder, bench, levels, items, run)
            where = f"backend {backend}, model {model}" + (f", servers {', '.join(base_url)}" if base_url else "")
    for row in rows:
        row["ratio"] = round(row["items_per_minute"] / rows[0]["items_per_minute"], 2)
        # the items differ in number per level; the questions alternate, so the accuracy must not
        row["same_accuracy"] = row["accuracy"] == rows[0]["accuracy"]
    payload = {"system": system, "where": where, "levels": rows}
    table = [
        f"Items per minute of `clueweaver eval --system {system}` against {where}.",
        "",
        f"| item concurrency | items | seconds | items/min | ratio to {levels[0]} | same accuracy |",
        "|---:|---:|---:|---:|---:|:---:|",
        *(_row(row) for row in rows),
    ]
    return payload, "\n".join(table)


def _row(row: dict) -> str:
    cells = (row["concurrency"], row["items"], f"{row['seconds']:.1f}", f"{row['items_per_minute']:.1f}",
             f"{row['ratio']:.2f}", "yes" if row["same_accuracy"] else "NO")  # fmt: skip
    return "| " + " | ".join(map(str, cells)) + " |"
