"""Benchmarks and evaluation: ``benchmark`` (load one into the common schema), ``eval`` (a
system on a benchmark, resumable), ``eval-report`` and ``eval-compare`` (tables and tests over
finished runs) and ``eval-retrieval`` (gold-evidence recall without a model)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from clueweaver.benchmarks import BENCHMARKS, load_benchmark
from clueweaver.cli.common import (
    add_encoder_argument,
    add_model_arguments,
    add_pipeline_arguments,
    backend_options_from_args,
    model_from_args,
    one_or_list,
    output_path,
    pipeline_settings_from_args,
    print_json,
)
from clueweaver.evaluation.diagnostics import (
    load_gold_items,
    resolve_presets,
    retrieval_diagnostics,
    write_diagnostics,
)
from clueweaver.evaluation.predictions import read_predictions
from clueweaver.evaluation.report import (
    compare,
    compare_markdown,
    load_runs,
    markdown,
    run_label,
    summarize,
    write_report,
)
from clueweaver.evaluation.runner import SYSTEMS, EvalConfig, run_evaluation
from clueweaver.systems.agentic import FLAGS as AGENT_FLAGS


def add_benchmark(sub) -> None:
    p = sub.add_parser(
        "benchmark",
        help="load a benchmark into the common schema; print its counts (and skipped rows), optionally export it",
    )
    p.add_argument("name", help=f"one of {', '.join(BENCHMARKS)} (jsonl: the common schema)")
    p.add_argument("--path", help="the benchmark's file or folder (default: under the shared data folder)")
    p.add_argument("--split", help="a split or subset, where the benchmark has them")
    p.add_argument("--limit", type=int, help="keep only the first N items")
    p.add_argument(
        "--skip-bad",
        action="store_true",
        help="skip and list bad rows instead of stopping (rows whose text the release lacks are always listed)",
    )
    p.add_argument("--export", metavar="JSONL", help="write the benchmark in the common JSONL schema")
    p.set_defaults(run=run_benchmark)


def run_benchmark(args) -> int:
    benchmark = load_benchmark(args.name, args.path, split=args.split, limit=args.limit, skip_bad=args.skip_bad)
    summary = benchmark.summary()
    summary["skipped_rows"] = [row._asdict() for row in benchmark.skipped]
    if args.export:
        summary["exported"] = str(benchmark.to_jsonl(args.export))
    print_json(summary)
    return 0


def _benchmark_selection(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--benchmark", required=True, help="a loader name (see `clueweaver benchmark --help`)")
    parser.add_argument("--path", help="the benchmark's file or folder (default: under the shared data folder)")
    parser.add_argument("--split", help="a split or subset, where the benchmark has them")
    parser.add_argument("--limit", type=int, help="only the first N items")
    parser.add_argument("--skip-bad", action="store_true", help="skip and count bad rows instead of stopping")


def add_eval(sub) -> None:
    p = sub.add_parser("eval", help="evaluate a system on a benchmark: per-item records (resumable), summary, audits")
    _benchmark_selection(p)
    p.add_argument("--items", help="only these item IDs (comma-separated)")
    p.add_argument("--system", required=True, choices=SYSTEMS)
    add_model_arguments(p)
    add_pipeline_arguments(p, reading_limit=False)
    p.add_argument(
        "--direct-budget", default="32k", help="direct reader's input tokens: 32k (30,592), 128k (126,976) or a number"
    )
    _open_answer_arguments(p)
    for flag, (name, help_text) in AGENT_FLAGS.items():
        p.add_argument(
            f"--agent-{flag}",
            dest=f"agent_{name}",
            type=int,
            metavar="N",
            help=f"{help_text} (defaults: docs/agentic.md)",
        )
    p.add_argument(
        "--item-concurrency",
        type=int,
        metavar="N",
        help="items answered at once (default: 16 with --backend openai or vllm, whose calls a server or the "
        "engine batches; 1 with hf on one device); the records and the summary are those of a serial run",
    )
    p.add_argument("--output", help="run folder (default eval_runs/BENCHMARK-SYSTEM-HASH; an existing run resumes)")
    p.add_argument("--label", help="the run's name in tables and plots (default: system and switches)")
    p.add_argument("--save-traces", action="store_true", help="also write every item's full trace to traces.jsonl")
    p.add_argument("--json", action="store_true", help="print the summary as JSON instead of Markdown")
    p.set_defaults(run=run_eval)


def _open_answer_arguments(parser: argparse.ArgumentParser) -> None:
    """The shared context budget, and the LLM judge of open answers (off unless both are given)."""
    parser.add_argument(
        "--context-budget",
        type=int,
        metavar="TOKENS",
        help="evidence every system reads, in the Interpreter's tokens (ChronoRAG compares at 1500); default: the "
        "preset's character budget, and the direct reader's --direct-budget",
    )
    parser.add_argument(
        "--judge-url", help="LLM judge of open answers: an OpenAI-compatible server's URL ending in /v1"
    )
    parser.add_argument("--judge-model", help="LLM judge: the model name the server answers to")
    parser.add_argument(
        "--scoring-encoder", metavar="ENCODER",
        help="encoder of open answers' embedding cosine (minilm for English, e5 for any language, bge-m3, a "
        "sentence-transformers model); independent of --encoder, which retrieves; default: not scored",
    )  # fmt: skip
    parser.add_argument("--judge-cache", help="LLM judge: verdict cache file (default: judge_cache.jsonl in the run)")


def _judge_settings(args) -> dict:
    settings = {"base_url": args.judge_url, "model": args.judge_model, "cache": args.judge_cache}
    return {key: value for key, value in settings.items() if value}


def _agent_settings(args) -> dict | None:
    """The agent limits given on the command line (None when none was: the system's defaults)."""
    given = {name: getattr(args, f"agent_{name}") for name, _ in AGENT_FLAGS.values()}
    return {name: value for name, value in given.items() if value is not None} or None


def run_eval(args) -> int:
    backend_options_from_args(args)  # a flag the backend has no use for fails before anything runs
    model, overrides = model_from_args(args)
    settings = {**pipeline_settings_from_args(args), **overrides}
    if args.context_budget is not None:
        settings["context_tokens"] = args.context_budget
    own = {name: settings.pop(name) for name in ("preset", "use_finder", "self_calibration") if name in settings}
    config = EvalConfig(
        benchmark=args.benchmark,
        system=args.system,
        path=args.path,
        split=args.split,
        limit=args.limit,
        item_ids=tuple(i.strip() for i in (args.items or "").split(",") if i.strip()),
        skip_bad=args.skip_bad,
        backend=args.backend,
        model=model,
        finder=args.finder,
        interpreter=args.interpreter,
        finder_adapter=args.finder_adapter,
        interpreter_adapter=args.interpreter_adapter,
        base_url=one_or_list(args.base_url),
        tokenizer=args.tokenizer,
        device=args.device,
        direct_budget=args.direct_budget,
        pipeline=settings,
        **own,
        encoder=None if args.encoder == "none" else args.encoder,
        cache_dir=args.cache_dir,
        output=args.output,
        label=args.label,
        save_traces=args.save_traces,
        judge=_judge_settings(args),
        scoring_encoder=args.scoring_encoder,
        agent=_agent_settings(args),
        item_concurrency=args.item_concurrency,
    )
    result = run_evaluation(config)
    label = config.label or config.default_label()
    if args.json:
        print_json({label: result.summary})
    else:
        print(markdown({label: result.summary}))
    print(f"run folder: {result.output} ({result.new_records} new, {result.resumed_records} resumed)", file=sys.stderr)
    return 0


def add_eval_report(sub) -> None:
    p = sub.add_parser("eval-report", help="one table (and accuracy-latency plot) from several run folders")
    p.add_argument("runs", nargs="+", help="run folders or predictions files; runs with one label form one row")
    p.add_argument("--output", help="folder for summary.json, summary.md and accuracy_latency.png")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=run_eval_report)


def run_eval_report(args) -> int:
    summaries = {label: summarize(records) for label, records in load_runs(args.runs).items()}
    if args.output:
        write_report(summaries, args.output)
    if args.json:
        print_json(summaries)
    else:
        print(markdown(summaries))
    return 0


def add_eval_compare(sub) -> None:
    p = sub.add_parser(
        "eval-compare",
        help="exact McNemar test and error transitions between two runs on identical items; for open answers, "
        "paired bootstrap intervals and permutation tests",
    )
    p.add_argument("run_a", help="run folder or predictions file of system A")
    p.add_argument("run_b", help="run folder or predictions file of system B")
    p.add_argument("--output", help="folder for compare.json and compare.md")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=run_eval_compare)


def run_eval_compare(args) -> int:
    def label(path: str) -> str:
        return run_label(path if Path(path).is_dir() else Path(path).parent)

    folder = output_path(args.output, folder=True)
    result = compare(read_predictions(args.run_a), read_predictions(args.run_b))
    table = compare_markdown(result, label(args.run_a), label(args.run_b))
    if folder:
        (folder / "compare.json").write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
        (folder / "compare.md").write_text(table, encoding="utf-8")
    if args.json:
        print_json(result)
    else:
        print(table)
    return 0


def add_eval_retrieval(sub) -> None:
    p = sub.add_parser("eval-retrieval", help="gold-evidence recall of segments and packets at each preset (no model)")
    _benchmark_selection(p)
    p.add_argument("--presets", default="all", help="comma-separated preset names, or all")
    add_encoder_argument(p)
    p.add_argument("--output", help="folder for retrieval.json and retrieval.md")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=run_eval_retrieval)


def run_eval_retrieval(args) -> int:
    output = output_path(args.output, folder=True)
    presets = resolve_presets([p.strip() for p in args.presets.split(",") if p.strip()])
    items = load_gold_items(args.benchmark, args.path, split=args.split, limit=args.limit, skip_bad=args.skip_bad)
    result = retrieval_diagnostics(items, presets, encoder=args.encoder, cache_dir=args.cache_dir)
    if output:
        write_diagnostics(result, output)
    if args.json:
        print_json({k: v for k, v in result.items() if k not in ("markdown", "rows")})
    else:
        print(result["markdown"])
    return 0
