"""The ``clueweaver`` command: one entry point, one subcommand per task.

Each ``add_*`` function registers one subcommand and the function that runs it; heavy imports
happen inside the runners so ``clueweaver --help`` stays fast.
"""

from __future__ import annotations

import argparse
import json
import sys

from clueweaver import __version__
from clueweaver.errors import ClueWeaverError, UsageError


def _print_json(payload) -> None:
    json.dump(payload, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="clueweaver", description=__doc__.splitlines()[0])
    parser.add_argument("--version", action="version", version=f"clueweaver {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for add in COMMANDS:
        add(sub)
    return parser


def add_question_arguments(parser: argparse.ArgumentParser) -> None:
    """--question/--option/--claim, shared by every command that asks something of a book."""
    parser.add_argument("--question", help="a multiple-choice question (give its options with --option)")
    parser.add_argument(
        "--option", action="append", default=[], metavar='A="text"', help="an answer option, repeatable"
    )
    parser.add_argument(
        "--claim",
        nargs="?",
        const=True,
        default=None,
        metavar="TEXT",
        help='a TRUE/FALSE claim: --claim "text", or a bare --claim to read --question as a claim',
    )


def question_from_args(args):
    from clueweaver.protocol.question import Question

    options = {}
    for raw in args.option:
        label, sep, text = raw.partition("=")
        if not sep:
            raise UsageError(f'--option must look like A="text", got {raw!r}')
        options[label.strip().upper()] = text.strip()
    if isinstance(args.claim, str):
        if args.question or options:
            raise UsageError("give either --claim TEXT or --question with --option, not both")
        return Question.claim(args.claim)
    if not args.question:
        raise UsageError("give --question (with --option A=... for each option) or --claim")
    if args.claim:
        if options:
            raise UsageError("a claim takes no --option")
        return Question.claim(args.question)
    return Question(args.question, options)


def add_encoder_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--encoder",
        default="auto",
        help="dense encoder: auto (offline MiniLM if installed), none (BM25 alone), bge-m3[:PATH], "
        "minilm, or a sentence-transformers name/path",
    )
    parser.add_argument(
        "--cache-dir", default=None, help="index cache folder (default ~/.cache/clueweaver or $CLUEWEAVER_CACHE)"
    )


def add_index(sub) -> None:
    p = sub.add_parser("index", help="load a book and build (or reuse) its retrieval index")
    p.add_argument("book", help=".txt, .md, .epub or .jsonl of paragraphs")
    add_encoder_argument(p)
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.set_defaults(run=run_index)


def run_index(args) -> int:
    import time

    from clueweaver.narrative import load_narrative
    from clueweaver.retrieval import build_index

    narrative = load_narrative(args.book)
    started = time.perf_counter()
    index = build_index(narrative, args.encoder, cache_dir=args.cache_dir)
    summary = {
        "book": args.book,
        "title": narrative.title,
        "book_id": narrative.book_id,
        "content_hash": narrative.content_hash,
        "paragraphs": len(narrative),
        "chapters": len(narrative.chapters),
        "characters": narrative.num_chars,
        "encoder": index.encoder.name if index.encoder else None,
        "seconds": round(time.perf_counter() - started, 3),
    }
    if args.json:
        _print_json(summary)
    else:
        for key, value in summary.items():
            print(f"{key:>13}: {value}")
    return 0


def add_segment(sub) -> None:
    p = sub.add_parser("segment", help="the candidate segments the Finder would read for a question")
    p.add_argument("book")
    add_question_arguments(p)
    p.add_argument("--preset", default="detectiveqa", help="segmentation preset (see clueweaver/presets.yaml)")
    p.add_argument("--max-chapter", type=int, default=None, help="read only chapters 1..N (spoiler-free)")
    p.add_argument("--exhaustive", action="store_true", help="tile the whole book instead of retrieving")
    add_encoder_argument(p)
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=run_segment)


def run_segment(args) -> int:
    from clueweaver.narrative import load_narrative
    from clueweaver.retrieval import get_index
    from clueweaver.segment import get_preset, segment_narrative

    question = question_from_args(args)
    try:
        preset = get_preset(args.preset)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    narrative = load_narrative(args.book)
    index = get_index(narrative, args.encoder, cache_dir=args.cache_dir)
    segments = segment_narrative(
        narrative, question, preset, index=index, max_chapter=args.max_chapter, exhaustive=args.exhaustive
    )
    if args.json:
        _print_json(
            {
                "book_id": narrative.book_id,
                "question": question.text,
                "kind": question.kind,
                "preset": preset.name,
                "segments": [s.to_dict(narrative) for s in segments],
            }
        )
        return 0
    for n, s in enumerate(segments, start=1):
        print(f"#{n} {s.kind:<10} paragraphs {s.start}-{s.end}  score {s.score:.4f}  anchors {list(s.anchor_ids)}")
        print("   " + narrative[s.start].text[:100].replace("\n", " "))
    return 0


def add_bench(sub) -> None:
    p = sub.add_parser("bench", help="shipped benchmarks that print numbers (speed, recall)")
    kinds = p.add_subparsers(dest="bench", required=True, metavar="BENCHMARK")

    retrieval = kinds.add_parser(
        "retrieval", help="index build, segmentation latency, embedding and cache reload on one book"
    )
    retrieval.add_argument(
        "--book", default="nocha:little_women_louisa_may_alcott", help="a book file or a shared-data key"
    )
    retrieval.add_argument("--encoder", default="minilm", help="dense encoder to time, or none")
    retrieval.add_argument("--repeats", type=int, default=20)
    retrieval.add_argument(
        "--reference",
        action="store_true",
        help="also time sentence-transformers' own encode with its defaults on the same book, in the same run",
    )
    retrieval.set_defaults(run=run_bench_retrieval)

    recall = kinds.add_parser("recall", help="gold-evidence recall on GutenQA and the multi-hop checks vs plain BM25")
    recall.add_argument(
        "--encoder", action="append", default=None, help="encoders to compare (repeatable; 'none' = BM25 alone)"
    )
    recall.add_argument("--preset", action="append", default=None, help="presets to measure (repeatable)")
    recall.add_argument("--output", help="also write the Markdown tables and JSON next to this path (.md)")
    recall.set_defaults(run=run_bench_recall)

    pipeline = kinds.add_parser(
        "pipeline", help="stage timings of the pipeline and its ratio to the direct reader, same backend and device"
    )
    pipeline.add_argument(
        "--shape", choices=["detectiveqa", "tiny"], default="detectiveqa", help="prompt and output lengths to measure"
    )
    pipeline.add_argument(
        "--model-shape", choices=["qwen3-4b", "tiny"], default="qwen3-4b", help="random-weight model to build"
    )
    pipeline.add_argument("--device", default="auto", help="auto, cpu, cuda, cuda:1, ...")
    pipeline.add_argument(
        "--agents",
        choices=["separate", "shared"],
        default="separate",
        help="two model copies (Finder and Interpreter) or one serving both",
    )
    pipeline.add_argument("--repeats", type=int, default=3, help="timed runs (the median is reported)")
    pipeline.add_argument("--warmup", type=int, default=1, help="untimed runs first (compilation, caches)")
    pipeline.add_argument("--dynamic-cache", action="store_true", help="hf backend without the static-cache fast path")
    pipeline.add_argument(
        "--max-batch-size", type=int, default=16, help="rows per forward pass (the Finder batch is split above it)"
    )
    pipeline.add_argument(
        "--model-dir", default=None, help="where the random checkpoint is built (default: the cache folder)"
    )
    pipeline.add_argument("--output", default=None, help="also write the JSON to this file")
    pipeline.set_defaults(run=run_bench_pipeline)


def run_bench_retrieval(args) -> int:
    from clueweaver.bench import bench_retrieval

    encoder = None if args.encoder == "none" else args.encoder
    _print_json(bench_retrieval(args.book, encoder=encoder, repeats=args.repeats, reference=args.reference))
    return 0


def _output_path(option: str | None, *, folder: bool = False):
    """The ``--output`` file (or ``folder``) of a long command, its folder made before the run,
    not after it."""
    from pathlib import Path

    if not option:
        return None
    path = Path(option)
    if path.is_dir() != folder and path.exists():
        raise UsageError(
            f"--output {option} is a {'file' if folder else 'folder'}; give a {'folder' if folder else 'file'} name"
        )
    try:
        (path if folder else path.parent).mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"--output {option}: cannot create its folder ({exc.strerror})") from exc
    return path


def run_bench_recall(args) -> int:
    from clueweaver.bench import bench_recall

    output = _output_path(args.output)
    encoders = [None if e == "none" else e for e in (args.encoder or ["none", "minilm"])]
    payload, markdown = bench_recall(encoders=encoders, presets=args.preset or ["detectiveqa", "nocha"])
    print(markdown)
    if output:
        output.write_text(markdown + "\n", encoding="utf-8")
        output.with_suffix(".json").write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")
    return 0


def run_bench_pipeline(args) -> int:
    from clueweaver.bench import bench_pipeline

    output = _output_path(args.output)
    payload = bench_pipeline(
        shape=args.shape, model_shape=args.model_shape, device=args.device, agents=args.agents,
        repeats=args.repeats, warmup=args.warmup, fast_decode=False if args.dynamic_cache else None,
        max_batch_size=args.max_batch_size, model_dir=args.model_dir,
    )  # fmt: skip
    _print_json(payload)
    if output:
        output.write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")
    return 0


COMMANDS: list = [add_index, add_segment, add_bench]


def add_benchmark(subparsers) -> None:
    parser = subparsers.add_parser(
        "benchmark",
        help="load a benchmark into the common schema; print its counts (and skipped rows), optionally export it",
    )
    parser.add_argument(
        "name",
        help="nocha, quality, quality_leval, leval_scifi, gutenqa, kdsh, bmds, detectiveqa, "
        "infinitebench, longbench_v2 or jsonl (the common schema)",
    )
    parser.add_argument("--path", help="the benchmark's file or folder (default: under the shared data folder)")
    parser.add_argument("--split", help="a split or subset, where the benchmark has them")
    parser.add_argument("--limit", type=int, help="keep only the first N items")
    parser.add_argument("--skip-bad", action="store_true", help="skip and count bad rows instead of stopping")
    parser.add_argument("--export", metavar="JSONL", help="write the benchmark in the common JSONL schema")
    parser.set_defaults(run=_run_benchmark)


def _run_benchmark(args) -> int:
    from clueweaver.benchmarks import load_benchmark

    benchmark = load_benchmark(args.name, args.path, split=args.split, limit=args.limit, skip_bad=args.skip_bad)
    summary = benchmark.summary()
    summary["skipped_rows"] = [row._asdict() for row in benchmark.skipped]
    if args.export:
        summary["exported"] = str(benchmark.to_jsonl(args.export))
    _print_json(summary)
    return 0


COMMANDS.append(add_benchmark)


def add_nwm(subparsers) -> None:
    """``clueweaver nwm publish|import|export|status|state|query`` (Narrative World Model)."""
    from clueweaver.nwm.commands import add_nwm_parser

    add_nwm_parser(subparsers)


COMMANDS.append(add_nwm)


def add_model_arguments(parser: argparse.ArgumentParser, *, agents: bool = True, model_help: str = "") -> None:
    """Which models answer, on which backend (ask, demo)."""
    parser.add_argument("--model", default=None, help=model_help or "one checkpoint folder or hub id for both agents")
    if agents:
        parser.add_argument(
            "--finder", default=None, help="the Finder's checkpoint (default Qwen/Qwen3-4B-Instruct-2507)"
        )
        parser.add_argument(
            "--interpreter", default=None, help="the Interpreter's checkpoint (default Qwen/Qwen3-4B-Instruct-2507)"
        )
        parser.add_argument(
            "--finder-adapter",
            default=None,
            metavar="PATH|NAME",
            help="the Finder's LoRA adapter over its base model (a folder; with --backend openai, the served name)",
        )
        parser.add_argument(
            "--interpreter-adapter", default=None, metavar="PATH|NAME", help="the Interpreter's LoRA adapter"
        )
    parser.add_argument("--backend", choices=["hf", "vllm", "openai"], default="hf")
    parser.add_argument("--base-url", default=None, help="openai backend: the server's URL ending in /v1")
    parser.add_argument(
        "--device", default=None, help="hf backend: cpu, cuda, cuda:1 (default: a GPU when there is one)"
    )


def load_agents_from_args(args, *, model: str | None = None):
    """The agents the arguments name; the offline smoke model stands in only when no model was
    named at all (and the demo extra is installed). Unloadable models are a UsageError."""
    from clueweaver.agents import ModelUnavailable, load_agents

    model = model or args.model
    finder = getattr(args, "finder", None) or model
    interpreter = getattr(args, "interpreter", None) or model
    finder_adapter, interpreter_adapter = (
        getattr(args, "finder_adapter", None),
        getattr(args, "interpreter_adapter", None),
    )
    options = {}
    if args.base_url:
        if args.backend != "openai":
            raise UsageError("--base-url applies to --backend openai only")
        options["base_url"] = args.base_url
    if args.device:
        if args.backend != "hf":
            raise UsageError("--device applies to --backend hf only")
        options["device"] = args.device
    named = finder or interpreter or finder_adapter or interpreter_adapter
    try:
        return load_agents(
            finder, interpreter, backend=args.backend, finder_adapter=finder_adapter,
            interpreter_adapter=interpreter_adapter, options=options, smoke_fallback=not named,
        )  # fmt: skip
    except ModelUnavailable as exc:
        raise UsageError(str(exc)) from None


def add_pipeline_arguments(parser: argparse.ArgumentParser, *, reading_limit: bool = True) -> None:
    """How the pipeline reads (ask, demo, eval): a YAML of settings, overridden by the flags.
    ``reading_limit=False`` leaves out --max-chapter (eval items carry their own limits)."""
    parser.add_argument(
        "--config", default=None, help="YAML of pipeline settings (see configs/pipeline.yaml); flags override it"
    )
    parser.add_argument(
        "--preset",
        default=None,
        help="segmentation and packing preset (default detectiveqa, in eval the "
        "benchmark's own; see clueweaver/presets.yaml)",
    )
    if reading_limit:
        parser.add_argument("--max-chapter", type=int, default=None, help="read only chapters 1..N (spoiler-free)")
    parser.add_argument(
        "--no-finder", action="store_true", help="ablation: pack the retrieved segments without the Finder"
    )
    parser.add_argument(
        "--no-self-calibration", action="store_true", help="ablation: never run the self-calibration pass"
    )
    parser.add_argument(
        "--segment-source",
        choices=("plain", "nwm", "mix"),
        default=None,
        help="where Finder segments come from: the retrieval-aware segmenter (plain), the book's Narrative World "
        "Model records (nwm; build them with 'clueweaver nwm publish/import'), or both (mix)",
    )
    add_encoder_argument(parser)


def pipeline_settings_from_args(args) -> dict:
    """The ``--config`` YAML with the flags on top (encoder and cache folder aside)."""
    from clueweaver.config import ConfigError, read_yaml_mapping

    values = {}
    if args.config:
        try:
            values = read_yaml_mapping(args.config, "pipeline settings")
        except ConfigError as exc:
            raise UsageError(f"--config: {exc}") from None
    if args.preset:
        values["preset"] = args.preset
    if args.no_finder:
        values["use_finder"] = False
    if args.no_self_calibration:
        values["self_calibration"] = False
    if args.segment_source:
        values["segment_source"] = args.segment_source
    return values


def pipeline_config_from_args(args, **overrides):
    """``--config`` YAML, then the flags, then ``overrides``; bad settings are a UsageError."""
    from clueweaver.pipeline import PipelineConfig

    values = pipeline_settings_from_args(args)
    values.update(encoder=None if args.encoder == "none" else args.encoder, cache_dir=args.cache_dir, **overrides)
    try:
        return PipelineConfig.from_dict(values)
    except (TypeError, ValueError) as exc:
        raise UsageError(f"pipeline settings: {exc}") from None


def _print_progress(stage: str, info: dict) -> None:
    if info.get("status") == "done" and stage != "done":
        details = ", ".join(f"{k} {v}" for k, v in info.items() if k not in ("status", "seconds"))
        print(f"  {stage}: {info['seconds']:.2f} s" + (f" ({details})" if details else ""), file=sys.stderr)


def add_ask(sub) -> None:
    p = sub.add_parser(
        "ask", help="answer a multiple-choice question or check a claim about a book, with cited evidence"
    )
    p.add_argument("book", help=".txt, .md, .epub or .jsonl")
    add_question_arguments(p)
    add_model_arguments(p)
    add_pipeline_arguments(p)
    p.add_argument("--json", action="store_true", help="print the result and its full trace as JSON")
    p.set_defaults(run=run_ask)


def run_ask(args) -> int:
    from clueweaver.backends import BackendError
    from clueweaver.narrative import load_narrative
    from clueweaver.pipeline import format_result

    question = question_from_args(args)
    config = pipeline_config_from_args(args)
    narrative = load_narrative(args.book)
    narrative.last_paragraph_of_chapter(args.max_chapter)  # a bad limit fails before models load
    agents = load_agents_from_args(args)
    try:
        result = agents.pipeline(config).answer(
            narrative, question, max_chapter=args.max_chapter, progress_callback=_print_progress
        )
    except BackendError as exc:
        raise UsageError(str(exc)) from None
    finally:
        agents.close()
    if args.json:
        _print_json(result.to_dict())
    else:
        print(format_result(result, narrative))
    return 0


def add_demo(sub) -> None:
    p = sub.add_parser(
        "demo", help="run the whole pipeline on a short original mystery bundled with ClueWeaver",
        description="Answers a multiple-choice question and checks a claim about 'The Lantern at Marrow Quay', a "
        "seven-chapter mystery written for ClueWeaver (chapter 7 is the solution: --max-chapter 6 reads "
        "spoiler-free).",
    )  # fmt: skip
    add_model_arguments(
        p,
        agents=False,
        model_help=(
            "a checkpoint folder or hub id for both agents (default: Qwen/Qwen3-4B-Instruct-2507, else the offline "
            "smoke model of the demo extra); 'tiny': a tiny random Qwen3, a wiring check whose answers mean nothing"
        ),
    )
    add_pipeline_arguments(p)
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=run_demo)


def run_demo(args) -> int:
    from clueweaver.backends import BackendError
    from clueweaver.demo import demo_report, load_demo

    model, overrides = args.model, {}
    if model == "tiny":
        from clueweaver.retrieval import default_cache_dir
        from clueweaver.testing import build_tiny_qwen3

        print("warning: --model tiny is a tiny RANDOM model: this checks the wiring (16 tokens per reply), "
              "its answers mean nothing", file=sys.stderr)  # fmt: skip
        model = str(build_tiny_qwen3(default_cache_dir() / "tiny-qwen3"))
        overrides = {"finder_sampling": {"max_new_tokens": 16}, "interpreter_sampling": {"max_new_tokens": 16}}
    config = pipeline_config_from_args(args, **overrides)
    narrative, questions = load_demo()
    agents = load_agents_from_args(args, model=model)
    pipeline = agents.pipeline(config)
    reports = []
    try:
        for demo in questions:
            result = pipeline.answer(
                narrative, demo.question, max_chapter=args.max_chapter, progress_callback=_print_progress
            )
            reports.append((demo, result))
    except BackendError as exc:
        raise UsageError(str(exc)) from None
    finally:
        agents.close()
    if args.json:
        _print_json(
            {
                "book": narrative.title,
                "smoke_model": agents.smoke,
                "questions": [
                    {"id": d.id, "expected": d.answer, "evidence_ids": list(d.evidence_ids), **r.to_dict()}
                    for d, r in reports
                ],
            }
        )
        return 0
    print(
        f"{narrative.title}: {len(narrative)} paragraphs, {len(narrative.chapters)} chapters; "
        f"{'; '.join(agents.notes)}"
    )
    for demo, result in reports:
        print()
        print(demo_report(narrative, demo, result))
    return 0


COMMANDS += [add_ask, add_demo]


# --- evaluation ---------------------------------------------------------------------------------


def _benchmark_selection(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--benchmark", required=True, help="a loader name (see `clueweaver benchmark --help`)")
    parser.add_argument("--path", help="the benchmark's file or folder (default: under the shared data folder)")
    parser.add_argument("--split", help="a split or subset, where the benchmark has them")
    parser.add_argument("--limit", type=int, help="only the first N items")
    parser.add_argument("--skip-bad", action="store_true", help="skip and count bad rows instead of stopping")


def add_eval(sub) -> None:
    from clueweaver.evaluation.runner import SYSTEMS

    p = sub.add_parser("eval", help="evaluate a system on a benchmark: per-item records (resumable), summary, audits")
    _benchmark_selection(p)
    p.add_argument("--items", help="only these item IDs (comma-separated)")
    p.add_argument("--system", required=True, choices=SYSTEMS)
    add_model_arguments(p)
    add_pipeline_arguments(p, reading_limit=False)
    p.add_argument(
        "--direct-budget", default="32k", help="direct reader's input tokens: 32k (30,592), 128k (126,976) or a number"
    )
    p.add_argument("--output", help="run folder (default eval_runs/BENCHMARK-SYSTEM-HASH; an existing run resumes)")
    p.add_argument("--label", help="the run's name in tables and plots (default: system and switches)")
    p.add_argument("--save-traces", action="store_true", help="also write every item's full trace to traces.jsonl")
    p.add_argument("--json", action="store_true", help="print the summary as JSON instead of Markdown")
    p.set_defaults(run=run_eval)


def run_eval(args) -> int:
    from clueweaver.backends import BackendError
    from clueweaver.evaluation.records import RecordError
    from clueweaver.evaluation.report import markdown
    from clueweaver.evaluation.runner import EvalConfig, EvalError, run_evaluation

    settings = pipeline_settings_from_args(args)
    own = {name: settings.pop(name) for name in ("preset", "use_finder", "self_calibration") if name in settings}
    try:
        config = EvalConfig(
            benchmark=args.benchmark,
            system=args.system,
            path=args.path,
            split=args.split,
            limit=args.limit,
            item_ids=tuple(i.strip() for i in (args.items or "").split(",") if i.strip()),
            skip_bad=args.skip_bad,
            backend=args.backend,
            model=args.model,
            finder=args.finder,
            interpreter=args.interpreter,
            finder_adapter=args.finder_adapter,
            interpreter_adapter=args.interpreter_adapter,
            base_url=args.base_url,
            device=args.device,
            direct_budget=args.direct_budget,
            pipeline=settings,
            **own,
            encoder=None if args.encoder == "none" else args.encoder,
            cache_dir=args.cache_dir,
            output=args.output,
            label=args.label,
            save_traces=args.save_traces,
        )
        result = run_evaluation(config)
    except (EvalError, RecordError, BackendError) as exc:
        raise UsageError(str(exc)) from None
    label = config.label or config.default_label()
    if args.json:
        _print_json({label: result.summary})
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
    from clueweaver.evaluation.records import RecordError
    from clueweaver.evaluation.report import load_runs, markdown, summarize, write_report

    try:
        summaries = {label: summarize(records) for label, records in load_runs(args.runs).items()}
    except RecordError as exc:
        raise UsageError(str(exc)) from None
    if args.output:
        write_report(summaries, args.output)
    if args.json:
        _print_json(summaries)
    else:
        print(markdown(summaries))
    return 0


def add_eval_compare(sub) -> None:
    p = sub.add_parser(
        "eval-compare", help="exact McNemar test and error transitions between two runs on identical items"
    )
    p.add_argument("run_a", help="run folder or predictions file of system A")
    p.add_argument("run_b", help="run folder or predictions file of system B")
    p.add_argument("--output", help="folder for compare.json and compare.md")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=run_eval_compare)


def run_eval_compare(args) -> int:
    from pathlib import Path

    from clueweaver.evaluation.records import RecordError, read_predictions
    from clueweaver.evaluation.report import compare, compare_markdown, run_label

    def label(path: str) -> str:
        return run_label(path if Path(path).is_dir() else Path(path).parent)

    folder = _output_path(args.output, folder=True)
    try:
        result = compare(read_predictions(args.run_a), read_predictions(args.run_b))
    except RecordError as exc:
        raise UsageError(str(exc)) from None
    table = compare_markdown(result, label(args.run_a), label(args.run_b))
    if folder:
        (folder / "compare.json").write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
        (folder / "compare.md").write_text(table, encoding="utf-8")
    if args.json:
        _print_json(result)
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
    from clueweaver.evaluation.diagnostics import (
        DiagnosticsError,
        load_gold_items,
        resolve_presets,
        retrieval_diagnostics,
        write_diagnostics,
    )

    output = _output_path(args.output, folder=True)
    try:
        presets = resolve_presets([p.strip() for p in args.presets.split(",") if p.strip()])
        items = load_gold_items(args.benchmark, args.path, split=args.split, limit=args.limit, skip_bad=args.skip_bad)
    except DiagnosticsError as exc:
        raise UsageError(str(exc)) from None
    result = retrieval_diagnostics(items, presets, encoder=args.encoder, cache_dir=args.cache_dir)
    if output:
        write_diagnostics(result, output)
    if args.json:
        _print_json({k: v for k, v in result.items() if k not in ("markdown", "rows")})
    else:
        print(result["markdown"])
    return 0


COMMANDS += [add_eval, add_eval_report, add_eval_compare, add_eval_retrieval]


def add_serve(sub) -> None:
    from clueweaver.config import add_config_arguments
    from clueweaver.serve_config import ServeConfig

    p = sub.add_parser(
        "serve", help="the local reading room: a web page and an API over your books",
        description="Serve the reading room (page at /, API under /api, docs at /docs). Listens on 127.0.0.1 by "
        "default; any other address needs a bearer token (set CLUEWEAVER_TOKEN). See docs/serving.md.",
    )  # fmt: skip
    add_config_arguments(p, ServeConfig)
    p.set_defaults(run=run_serve)


def run_serve(args) -> int:
    from clueweaver.agents import ModelUnavailable
    from clueweaver.config import ConfigError, config_from_args
    from clueweaver.library import LibraryError
    from clueweaver.serve_config import ServeConfig

    try:
        from serve.app import UnsafeBind, check_bind, run
    except ImportError as exc:
        raise UsageError(f"the server needs the serve extra ({exc}): pip install 'clueweaver[serve]'") from None
    try:
        config = config_from_args(ServeConfig, args)
        check_bind(config.host, config.resolved_token())
        run(config)
    except (ConfigError, ModelUnavailable, LibraryError, UnsafeBind) as exc:
        raise UsageError(str(exc)) from None
    return 0


COMMANDS.append(add_serve)


def add_export(subparsers) -> None:
    parser = subparsers.add_parser(
        "export",
        help=(
            "turn a training checkpoint into a Hub-ready model folder (safetensors, tokenizer, card); optionally "
            "push it"
        ),
    )
    parser.add_argument(
        "checkpoint", help="a checkpoint folder written by train/finder_grpo.py or train/interpreter_grpo.py"
    )
    parser.add_argument("out", help="the folder to write (must be empty or absent)")
    parser.add_argument("--merge-lora", action="store_true", help="merge a LoRA checkpoint into its base model")
    parser.add_argument("--base-model", help="the base model of a LoRA checkpoint (default: the one it records)")
    parser.add_argument(
        "--eval-results",
        metavar="JSON",
        help="evaluation numbers for the model card ({name: value or {metric: value}})",
    )
    parser.add_argument("--title", help="the model card's title")
    parser.add_argument("--overwrite", action="store_true", help="replace a non-empty output folder")
    parser.add_argument("--push-to-hub", metavar="REPO", help="upload the folder to this Hub model repository")
    parser.add_argument("--revision", help="the branch to push to (created if needed; default main)")
    parser.add_argument("--private", action="store_true", help="create the Hub repository private")
    parser.set_defaults(run=_run_export)


def _run_export(args) -> int:
    from clueweaver.export import ExportError, export_checkpoint
    from clueweaver.hub import push_folder

    eval_results = None
    if args.eval_results:
        try:
            with open(args.eval_results, encoding="utf-8") as f:
                eval_results = json.load(f)
        except json.JSONDecodeError as exc:
            raise UsageError(f"--eval-results {args.eval_results}: not JSON ({exc.msg})") from None
        if not isinstance(eval_results, dict):
            raise UsageError(f"--eval-results {args.eval_results}: expected a JSON object of name -> value")
    try:
        out = export_checkpoint(
            args.checkpoint,
            args.out,
            merge_lora=args.merge_lora,
            base_model=args.base_model,
            eval_results=eval_results,
            title=args.title,
            overwrite=args.overwrite,
        )
    except ExportError as exc:
        raise UsageError(str(exc)) from None
    summary = {"exported": str(out), "files": sorted(p.name for p in out.iterdir())}
    if args.push_to_hub:
        summary["pushed"] = push_folder(out, args.push_to_hub, private=args.private or None, revision=args.revision)
    _print_json(summary)
    return 0


COMMANDS.append(add_export)


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.run(args) or 0
    except (ClueWeaverError, FileNotFoundError) as exc:
        print(f"clueweaver {args.command}: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
