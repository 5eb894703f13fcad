"""Summaries, tables, paired comparisons and the accuracy-latency plot, all computed from
predictions files (see :mod:`clueweaver.evaluation.predictions`) and nothing else.

``summarize(records)`` gives the numbers of one system: accuracy per dataset and overall with
Wilson 95% intervals, NoCha-style pair accuracy where items have pairs, the citation and format
audits of the final Interpreter outputs, and per-stage latency. ``compare(records_a, records_b)``
gives the exact McNemar test and the error transitions on the items both runs scored.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Iterable, Sequence

from clueweaver.evaluation.metrics import (
    citation_audit,
    error_transitions,
    format_audit,
    latency_stats,
    mcnemar_exact,
    pair_accuracy,
    wilson_interval,
)
from clueweaver.evaluation.open_answers import (
    compare_open,
    compare_open_markdown,
    is_open_record,
    open_markdown,
    open_summary,
)
from clueweaver.evaluation.predictions import (
    PREDICTIONS_FILE,
    RUN_FILE,
    RecordError,
    is_scored,
    read_predictions,
    read_run_file,
    record_key,
)
from clueweaver.evaluation.tables import markdown_table

SUMMARY_FORMAT = "clueweaver-eval-summary/1"
TOTAL_STAGE = "total"


def _accuracy_block(correct: Sequence[bool]) -> dict:
    n, right = len(correct), sum(bool(c) for c in correct)
    interval = wilson_interval(right, n)
    return {
        "items": n,
        "correct": right,
        "accuracy": right / n if n else None,
        "wilson95": list(interval) if interval else None,
    }


def _single_system(records: Sequence[dict]) -> str:
    systems = sorted({r["system"] for r in records})
    if len(systems) > 1:
        raise RecordError(f"records of several systems ({', '.join(systems)}) cannot share one summary")
    return systems[0] if systems else ""


def _latency(scored: Sequence[dict]) -> dict:
    by_stage: dict[str, list[float]] = defaultdict(list)
    for record in scored:
        for stage, seconds in record["timings"].items():
            by_stage[stage].append(seconds)
    # stages in the order they first ran, the runner's wall-clock total last
    stages = [s for s in by_stage if s != TOTAL_STAGE] + ([TOTAL_STAGE] if TOTAL_STAGE in by_stage else [])
    return {stage: latency_stats(by_stage[stage]) for stage in stages}


def summarize(records: Iterable[dict]) -> dict:
    """The summary of one system's records (one or several datasets): accuracy over labelled
    items, open-answer scores over open questions (``open_answers``), audits and latency over both.
    Records are taken in item order, so a run whose items finished in another order (concurrently)
    has the same summary to the last digit of every float."""
    records = sorted(records, key=record_key)
    system = _single_system(records)
    scored = [r for r in records if is_scored(r)]
    closed = [r for r in scored if not is_open_record(r)]
    by_dataset: dict[str, list[dict]] = defaultdict(list)
    for record in scored:
        by_dataset[record["benchmark"]].append(record)
    skipped = defaultdict(int)
    for record in records:
        if not is_scored(record):
            skipped[record["benchmark"]] += 1

    datasets = {}
    for name in sorted(set(by_dataset) | set(skipped)):
        rows = [r for r in by_dataset.get(name, []) if not is_open_record(r)]
        block = _accuracy_block([r["correct"] for r in rows])
        block["skipped_unlabelled"] = skipped.get(name, 0)
        paired = [(r["pair_id"], r["correct"]) for r in rows if r["pair_id"] is not None]
        block["pair_accuracy"] = pair_accuracy(paired).to_dict() if paired else None
        block["open_answers"] = open_summary([r for r in by_dataset.get(name, []) if is_open_record(r)])
        block["by"] = _breakdown(rows)
        datasets[name] = {**block, **_audits(by_dataset.get(name, []))}
    accuracies = [d["accuracy"] for d in datasets.values() if d["accuracy"] is not None]
    return {
        "format": SUMMARY_FORMAT,
        "system": system,
        "skipped_unlabelled": sum(skipped.values()),
        "overall": _accuracy_block([r["correct"] for r in closed]),
        "macro_accuracy": sum(accuracies) / len(accuracies) if accuracies else None,
        "datasets": datasets,
        "open_answers": open_summary([r for r in scored if is_open_record(r)]),
        **_audits(scored),
        "latency": _latency(scored),
        "cost": _cost(scored),
        "segment_fallbacks": _segment_fallbacks(scored),
    }


def _breakdown(rows: Sequence[dict]) -> dict:
    """Accuracy by each field the records' ``groups`` name ({"Complexity": {"mh": block, ...}}),
    as the benchmark's paper reports it; empty when the records carry none."""
    by: dict[str, dict[str, list[bool]]] = defaultdict(lambda: defaultdict(list))
    for row in rows:
        for name, value in (row.get("groups") or {}).items():
            by[name][value].append(row["correct"])
    return {name: {value: _accuracy_block(by[name][value]) for value in sorted(by[name])} for name in sorted(by)}


def _segment_fallbacks(scored: Sequence[dict]) -> int:
    """Records whose requested segment source had nothing to give, so the plain segments stood in."""
    return sum(bool((r["details"].get("segment_source") or {}).get("fallback")) for r in scored)


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _cost(scored: Sequence[dict]) -> dict:
    """Model tokens per item (the records that count them) and, for the agentic systems, steps per
    item and the readings that ended at a limit with a forced final answer."""
    tokens = [r["details"]["tokens"] for r in scored if "tokens" in r["details"]]
    agents = [r["details"]["agent"] for r in scored if "agent" in r["details"]]
    return {
        "items": len(tokens),
        "prompt_tokens": _mean([t["prompt"] for t in tokens]),
        "completion_tokens": _mean([t["completion"] for t in tokens]),
        "steps": _mean([a["steps"] for a in agents]),
        "forced_final": sum(a["forced_final"] for a in agents) if agents else None,
    }


def _audits(scored: Sequence[dict]) -> dict:
    """The citation and format audits (the paper's Table 9) of these scored records."""
    return {
        "citation_audit": citation_audit((r["cited_ids"], r["invalid_ids"]) for r in scored).to_dict(),
        "format_audit": format_audit((r["format_valid"], r["answer_legal"]) for r in scored).to_dict(),
    }


def compare(records_a: Iterable[dict], records_b: Iterable[dict]) -> dict:
    """McNemar and error transitions from A to B on the labelled items both scored, overall and per
    dataset; on open questions, paired bootstrap intervals and permutation tests (``open_answers``)."""
    a = {record_key(r): r for r in records_a if is_scored(r)}
    b = {record_key(r): r for r in records_b if is_scored(r)}
    common = sorted(a.keys() & b.keys())
    if not common:
        raise RecordError("the two runs share no scored item; a paired comparison needs identical items")
    differing = [
        key
        for key in common
        if (a[key]["answer"], a[key].get("references")) != (b[key]["answer"], b[key].get("references"))
    ]
    if differing:
        benchmark, item_id = differing[0]
        raise RecordError(
            f"the runs disagree on the gold answer of {len(differing)} item(s), e.g. {item_id} of {benchmark}: "
            "they were not made from the same data"
        )

    def paired(keys: list) -> dict:
        outcomes_a = [a[k]["correct"] for k in keys]
        outcomes_b = [b[k]["correct"] for k in keys]
        return {
            "a": _accuracy_block(outcomes_a),
            "b": _accuracy_block(outcomes_b),
            "mcnemar": mcnemar_exact(outcomes_a, outcomes_b).to_dict(),
            "transitions": error_transitions(outcomes_a, outcomes_b).to_dict(),
        }

    closed = [key for key in common if not is_open_record(a[key])]
    opened = [key for key in common if is_open_record(a[key])]
    by_dataset: dict[str, list] = defaultdict(list)
    for key in closed:
        by_dataset[key[0]].append(key)
    return {
        "system_a": _single_system(list(a.values())),
        "system_b": _single_system(list(b.values())),
        "items": len(common),
        "only_in_a": len(a.keys() - b.keys()),
        "only_in_b": len(b.keys() - a.keys()),
        **(paired(closed) if closed else {}),
        "datasets": {name: paired(keys) for name, keys in sorted(by_dataset.items())},
        "open_answers": compare_open([a[k] for k in opened], [b[k] for k in opened]) if opened else None,
    }


# --- runs on disk ------------------------------------------------------------------------------


def run_label(run_dir: str | Path) -> str:
    """The label a run was given (``run.json``), else its folder name."""
    if (Path(run_dir) / RUN_FILE).is_file():
        label = read_run_file(Path(run_dir)).get("label")
        if isinstance(label, str) and label:
            return label
    return Path(run_dir).name


def load_runs(paths: Iterable[str | Path]) -> dict[str, list[dict]]:
    """Records of several runs grouped by label: runs of one system over different datasets make
    one row of the table. Each path is a run folder or a predictions file."""
    grouped: dict[str, list[dict]] = defaultdict(list)
    seen: dict[str, set] = defaultdict(set)
    for path in paths:
        path = Path(path)
        run_dir = path if path.is_dir() else path.parent
        label = run_label(run_dir) if (path.is_dir() or path.name == PREDICTIONS_FILE) else path.stem
        for record in read_predictions(path):
            key = record_key(record)
            if key in seen[label]:
                raise RecordError(f"{path}: item {key[1]} of {key[0]} is already in another run labelled {label!r}")
            seen[label].add(key)
            grouped[label].append(record)
    return dict(grouped)


# --- Markdown ---------------------------------------------------------------------------------


def _percent(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.1f}"


def _count_cell(count: int, rate: float | None, of: int) -> str:
    """``count/of (rate%)``; a rate without a denominator shows as –."""
    share = "–" if rate is None else f"{_percent(rate)}%"
    return f"{count}/{of} ({share})"


def _accuracy_cell(block: dict | None) -> str:
    if not block or block["accuracy"] is None:
        return "–"
    low, high = block["wilson95"]
    return f"{_percent(block['accuracy'])} [{_percent(low)}, {_percent(high)}] n={block['items']}"


def _pair_block(pairs: dict) -> dict:
    return {"accuracy": pairs["accuracy"], "wilson95": pairs["wilson95"], "items": pairs["pairs"]}


def _audit_cells(block: dict) -> list[str]:
    """One audit row: every count over its own denominator, so a reader can recompute each rate."""
    c, f = block["citation_audit"], block["format_audit"]
    return [
        str(c["outputs"]),
        _count_cell(c["citation_bearing"], c["citation_bearing_rate"], c["outputs"]),
        _count_cell(c["valid_ids"], c["valid_id_rate"], c["cited_ids"]),
        _count_cell(c["all_valid"], c["all_valid_rate"], c["citation_bearing"]),
        _count_cell(f["format_valid"], f["format_valid_rate"], f["outputs"]),
        _count_cell(f["answer_legal"], f["answer_legal_rate"], f["outputs"]),
    ]


def markdown(summaries: dict[str, dict]) -> str:
    """Accuracy (per dataset, pair accuracy, overall, macro), audits and latency tables, one row
    per labelled summary. Accuracy cells: percent [Wilson 95% interval] n=items."""
    datasets = sorted({name for s in summaries.values() for name in s["datasets"]})
    paired = [
        name
        for name in datasets
        if any((s["datasets"].get(name) or {}).get("pair_accuracy") for s in summaries.values())
    ]
    header = ["system", *datasets, *(f"{name} pairs" for name in paired), "overall", "macro"]
    rows = []
    for label, s in summaries.items():
        pair_cells = []
        for name in paired:
            pairs = (s["datasets"].get(name) or {}).get("pair_accuracy")
            pair_cells.append(_accuracy_cell(_pair_block(pairs)) if pairs else "–")
        rows.append(
            [
                label,
                *(_accuracy_cell(s["datasets"].get(name)) for name in datasets),
                *pair_cells,
                _accuracy_cell(s["overall"]),
                _percent(s["macro_accuracy"]),
            ]
        )
    lines = ["## Accuracy", "", "Percent correct [Wilson 95% interval] n=items; pairs: both claims right.", ""]
    lines += markdown_table(header, rows)
    lines += _breakdown_tables(summaries, datasets)
    fallbacks = [f"{label}: {s['segment_fallbacks']}" for label, s in summaries.items() if s.get("segment_fallbacks")]
    if fallbacks:
        stood_in = "Items whose segment source had nothing to give (the plain segments stood in): "
        lines += ["", stood_in + "; ".join(fallbacks)]

    lines += ["", "## Citation and format audit", "", "count/denominator (rate); per dataset, then all datasets.", ""]
    audit_rows = []
    for label, s in summaries.items():
        blocks = [(name, block) for name, block in s["datasets"].items() if "citation_audit" in block]
        if len(blocks) != 1:
            blocks.append(("all", s))
        audit_rows += [[label, name, *_audit_cells(block)] for name, block in blocks]
    lines += markdown_table(
        [
            "system",
            "dataset",
            "outputs",
            "citation-bearing",
            "valid cited IDs",
            "all citations valid",
            "both tags",
            "legal answer",
        ],
        audit_rows,
    )

    lines += ["", "## Latency (seconds per item)", ""]
    latency_rows = []
    for label, s in summaries.items():
        for stage, stats in s["latency"].items():
            latency_rows.append(
                [label, stage, *(f"{stats[k]:.3f}" for k in ("mean", "median", "p90", "max")), str(stats["items"])]
            )
    lines += markdown_table(["system", "stage", "mean", "median", "p90", "max", "items"], latency_rows)
    lines += [
        "",
        "## Cost (mean per item)",
        "",
        "Model tokens as the backend counts them; steps and forced final answers of agents.",
        "",
    ]
    lines += markdown_table(
        ["system", "items", "prompt tokens", "completion tokens", "agent steps", "forced final answers"],
        [_cost_row(label, s["cost"]) for label, s in summaries.items()],
    )
    opened = open_markdown(summaries)
    return "\n".join(lines) + "\n" + (f"\n{opened}" if opened else "")


def _breakdown_tables(summaries: dict[str, dict], datasets: Sequence[str]) -> list[str]:
    """One accuracy table per dataset and field it is broken down by, a column per value."""
    lines = []
    for name in datasets:
        blocks = {label: (s["datasets"].get(name) or {}).get("by") or {} for label, s in summaries.items()}
        for field_name in sorted({f for by in blocks.values() for f in by}):
            values = sorted({v for by in blocks.values() for v in by.get(field_name, {})})
            rows = [
                [label, *(_accuracy_cell(by.get(field_name, {}).get(v)) for v in values)]
                for label, by in blocks.items()
            ]
            lines += ["", f"### {name} by {field_name}", ""] + markdown_table(["system", *values], rows)
    return lines


def _cost_row(label: str, cost: dict) -> list[str]:
    means = [
        "–" if cost[key] is None else f"{cost[key]:,.1f}" for key in ("prompt_tokens", "completion_tokens", "steps")
    ]
    forced = "–" if cost["forced_final"] is None else str(cost["forced_final"])
    return [label, str(cost["items"]), *means, forced]


def compare_markdown(result: dict, label_a: str = "A", label_b: str = "B") -> str:
    """The paired comparison as a table: accuracies, discordant counts, exact McNemar p and
    transitions from A to B, overall and per dataset; then the open-answer comparison, if any."""
    opened = compare_open_markdown(result["open_answers"], label_a, label_b) if result.get("open_answers") else ""
    if "mcnemar" not in result:  # open questions only
        return f"Items in both runs: {result['items']}.\n\n{opened}"
    rows = []
    for name, block in [("overall", result), *result["datasets"].items()]:
        m, t = block["mcnemar"], block["transitions"]
        rows.append(
            [
                name,
                str(block["a"]["items"]),
                _percent(block["a"]["accuracy"]),
                _percent(block["b"]["accuracy"]),
                str(m["a_only"]),
                str(m["b_only"]),
                f"{m['p_value']:.4g}",
                str(t["fixed"]),
                str(t["broken"]),
                str(t["both_right"]),
                str(t["both_wrong"]),
            ]
        )
    lines = [
        f"## {label_a} vs {label_b} (paired, identical items)",
        "",
        f"Items in both runs: {result['items']}; only in {label_a}: {result['only_in_a']}; only in {label_b}: "
        f"{result['only_in_b']}. "
        f"Fixed = {label_a} wrong and {label_b} right; broken = the reverse.",
        "",
    ]
    lines += markdown_table(
        [
            "dataset",
            "items",
            f"{label_a} %",
            f"{label_b} %",
            f"only {label_a} right",
            f"only {label_b} right",
            "McNemar exact p",
            "fixed",
            "broken",
            "both right",
            "both wrong",
        ],
        rows,
    )
    return "\n".join(lines) + "\n" + (f"\n{opened}" if opened else "")


# --- plot ---------------------------------------------------------------------------------------


def error_bar(block: dict) -> tuple[float, list[list[float]]]:
    """An accuracy block as a point in percent and its Wilson interval as matplotlib's
    ``[[below], [above]]`` (never negative: the interval holds the estimate)."""
    y = 100 * block["accuracy"]
    low, high = (100 * v for v in block["wilson95"])
    return y, [[y - low], [high - y]]


def accuracy_latency_plot(summaries: dict[str, dict], path: str | Path) -> Path:
    """Overall accuracy (with its Wilson interval) against mean seconds per item, one point per
    labelled summary, written as PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 4.5), dpi=120)
    for label, s in summaries.items():
        overall, total = s["overall"], s["latency"].get(TOTAL_STAGE)
        if overall["accuracy"] is None or total is None:
            continue
        y, yerr = error_bar(overall)
        ax.errorbar([total["mean"]], [y], yerr=yerr, fmt="o", capsize=4)
        ax.annotate(label, (total["mean"], y), textcoords="offset points", xytext=(6, 6), fontsize=8)
    ax.set_xlabel("mean seconds per item")
    ax.set_ylabel("accuracy (%) with Wilson 95% interval")
    ax.set_title("Accuracy vs latency")
    ax.grid(True, alpha=0.3)
    fig.tight_layout()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, format="png")
    plt.close(fig)
    return path


def write_report(summaries: dict[str, dict], output_dir: str | Path, *, plot: bool = True) -> dict[str, Path]:
    """summary.json (label -> summary), summary.md and, when asked, accuracy_latency.png."""
    output_dir = Path(output_dir)
    output_dir.mkdir(parents=True, exist_ok=True)
    written = {"json": output_dir / "summary.json", "markdown": output_dir / "summary.md"}
    written["json"].write_text(json.dumps(summaries, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    written["markdown"].write_text(markdown(summaries), encoding="utf-8")
    if plot:
        written["plot"] = accuracy_latency_plot(summaries, output_dir / "accuracy_latency.png")
    return written
