"""``clueweaver bench retrieval|recall|replies|pipeline|eval-concurrency``: the shipped benchmarks that print
numbers (speed, recall, replies read, throughput); the measuring lives in ``clueweaver.measure``."""

from __future__ import annotations

import json

import yaml

from clueweaver.backends.registry import command_line_backends
from clueweaver.books.language import SUPPORTED_LANGUAGES, UNDETERMINED
from clueweaver.cli.common import one_or_list, output_path, print_json
from clueweaver.core.config import ConfigError, config_from_dict
from clueweaver.core.errors import UsageError
from clueweaver.measure import bench_ablations, bench_pipeline, bench_recall, bench_retrieval, plot_curve, recall_curve
from clueweaver.measure.concurrency import LEVELS, bench_item_concurrency
from clueweaver.measure.recall import CURVE_SETS, NAMINGS, SET_NAMES, bench_second_round
from clueweaver.measure.replies import REPLY_SETS, bench_replies
from clueweaver.measure.retrieval import SAMPLE_QUESTION
from clueweaver.protocol.question import Question
from clueweaver.retrieval import RankingConfig
from clueweaver.retrieval.analyzers import UNKNOWN_LANGUAGE_PREFIX
from clueweaver.segments.segmenter import PRESETS


def add_bench(sub) -> None:
    p = sub.add_parser("bench", help="shipped benchmarks that print numbers (speed, recall)")
    kinds = p.add_subparsers(dest="bench", required=True, metavar="BENCHMARK")
    for add in (add_retrieval, add_recall, add_replies, add_pipeline, add_eval_concurrency):
        add(kinds)


def add_retrieval(kinds) -> None:
    p = kinds.add_parser("retrieval", help="index build, segmentation latency, embedding and cache reload on one book")
    p.add_argument("--book", default="nocha:little_women_louisa_may_alcott", help="a book file or a shared-data key")
    p.add_argument("--encoder", default="minilm", help="dense encoder to time, or none")
    p.add_argument("--repeats", type=int, default=20)
    p.add_argument(
        "--question",
        default=None,
        help="the open question segmented (default: one about Little Women); a book in another language needs one "
        "in its language",
    )
    p.add_argument(
        "--reference",
        action="store_true",
        help="also time sentence-transformers' own encode with its defaults on the same book, in the same run",
    )
    p.set_defaults(run=run_retrieval)


def run_retrieval(args) -> int:
    encoder = None if args.encoder == "none" else args.encoder
    question = Question.open(args.question) if args.question else SAMPLE_QUESTION
    print_json(
        bench_retrieval(args.book, encoder=encoder, question=question, repeats=args.repeats, reference=args.reference)
    )
    return 0


def add_recall(kinds) -> None:
    p = kinds.add_parser(
        "recall", help="gold-evidence recall on GutenQA, the tuning and the frozen multi-hop checks vs plain BM25"
    )
    p.add_argument(
        "--encoder", action="append", default=None, help="encoders to compare (repeatable; default none = BM25 alone)"
    )
    p.add_argument("--preset", action="append", default=None, help="presets to measure (repeatable; default all)")
    p.add_argument(
        "--set",
        action="append",
        default=None,
        choices=SET_NAMES,
        help="gold sets to measure (repeatable; default all)",
    )
    p.add_argument(
        "--ranking", action="append", default=[], metavar="FIELD=VALUE",
        help="a RankingConfig setting to measure instead of its default, e.g. query=per_option (repeatable)",
    )  # fmt: skip
    p.add_argument(
        "--name-chapters", nargs="?", const="number", choices=NAMINGS,
        help="each question names the chapter of its first gold paragraph by its number ('In chapter 5, ...', "
        "'第5回中，...') or with 'title' by its name ('在“刘姥姥一进荣国府”那一回中，...'), as a reader who remembers "
        "where one clue is would",
    )  # fmt: skip
    p.add_argument(
        "--language", choices=(*SUPPORTED_LANGUAGES, UNDETERMINED), default=None,
        help="read every set's books in this language instead of the detected one (und: as a language ClueWeaver "
        f"has no stemmer for, each word cut to its first {UNKNOWN_LANGUAGE_PREFIX} letters)",
    )  # fmt: skip
    p.add_argument("--ablations", action="store_true", help="each ranking and shape choice against the default")
    p.add_argument(
        "--hops", action="store_true", help="what a second retrieval round adds with a perfect Finder (detectiveqa)"
    )
    p.add_argument(
        "--curve", metavar="PNG",
        help="plot all-gold recall against paragraphs read (20-200) to this PNG (default sets: the English multiple-"
        "choice, claim and open-question sets)",
    )  # fmt: skip
    p.add_argument("--output", help="also write the Markdown tables and JSON next to this path (.md)")
    p.set_defaults(run=run_recall)


def run_recall(args) -> int:
    output, curve = output_path(args.output), output_path(args.curve)
    sets = args.set or list(SET_NAMES)
    if curve:
        points = recall_curve(sets=args.set or CURVE_SETS)
        plot_curve(points, curve)
        curve.with_suffix(".json").write_text(json.dumps(points, indent=2) + "\n", encoding="utf-8")
        print(f"recall curve: {curve} (points in {curve.with_suffix('.json')})")
        return 0
    if args.hops:
        payload, markdown = bench_second_round(preset=(args.preset or ["detectiveqa"])[0], sets=sets)
    elif args.ablations:
        payload, markdown = bench_ablations(presets=args.preset or ["detectiveqa", "infinitebench"], sets=sets)
    else:
        encoders = [None if e == "none" else e for e in (args.encoder or ["none"])]
        ranking = parse_overrides(args.ranking, RankingConfig)
        payload, markdown = bench_recall(
            encoders=encoders,
            presets=args.preset or list(PRESETS),
            sets=sets,
            ranking=ranking,
            name_chapters=args.name_chapters,
            language=args.language,
        )
    _report(markdown, payload, output)
    return 0


def add_replies(kinds) -> None:
    p = kinds.add_parser(
        "replies",
        help="how inference reads small models' answers (Finder, claim, multiple choice) in ten languages: read as a "
        "person reads them, misread, or left unread",
    )
    p.add_argument(
        "--set", action="append", default=None, choices=tuple(REPLY_SETS),
        help="reply sets to read (repeatable; default both: the tuning set the parser's words were written from, the "
        "frozen set written apart)",
    )  # fmt: skip
    p.add_argument("--output", help="also write the Markdown tables and JSON next to this path (.md)")
    p.set_defaults(run=run_replies)


def run_replies(args) -> int:
    output = output_path(args.output)
    payload, markdown = bench_replies(tuple(args.set or REPLY_SETS))
    _report(markdown, payload, output)
    return 0


def _report(markdown: str, payload: dict, output) -> None:
    """Print a benchmark's Markdown tables and, given ``output`` (.md), write them there and the JSON beside."""
    print(markdown)
    if output:
        output.write_text(markdown + "\n", encoding="utf-8")
        text = json.dumps(payload, indent=2, ensure_ascii=False) + "\n"
        output.with_suffix(".json").write_text(text, encoding="utf-8")


def parse_overrides(pairs: list[str], config_class) -> dict:
    """``FIELD=VALUE`` pairs (values read as YAML) checked against ``config_class``'s fields."""
    overrides = {}
    for pair in pairs:
        field, sep, value = pair.partition("=")
        if not sep:
            raise UsageError(f"--ranking must look like FIELD=VALUE, got {pair!r}")
        overrides[field.strip()] = yaml.safe_load(value)
    try:
        config_from_dict(config_class, overrides, "--ranking")
    except ConfigError as exc:
        raise UsageError(str(exc)) from None
    return overrides


def add_pipeline(kinds) -> None:
    p = kinds.add_parser(
        "pipeline", help="stage timings of the pipeline and its ratio to the direct reader, same backend and device"
    )
    p.add_argument(
        "--shape", choices=["detectiveqa", "tiny"], default="detectiveqa", help="prompt and output lengths to measure"
    )
    p.add_argument(
        "--model-shape", choices=["qwen3-4b", "tiny"], default="qwen3-4b", help="random-weight model to build"
    )
    p.add_argument("--device", default="auto", help="auto, cpu, cuda, cuda:1, ...")
    p.add_argument(
        "--agents",
        choices=["separate", "shared"],
        default="separate",
        help="two model copies (Finder and Interpreter) or one serving both",
    )
    p.add_argument("--repeats", type=int, default=3, help="timed runs (the median is reported)")
    p.add_argument("--warmup", type=int, default=1, help="untimed runs first (compilation, caches)")
    p.add_argument("--dynamic-cache", action="store_true", help="hf backend without the static-cache fast path")
    p.add_argument(
        "--max-batch-size", type=int, default=16, help="rows per forward pass (the Finder batch is split above it)"
    )
    p.add_argument(
        "--model-dir", default=None, help="where the random checkpoint is built (default: the cache folder)"
    )
    p.add_argument(
        "--hops", type=int, choices=(1, 2), default=1, help="2: with the second retrieval round and its Finder call"
    )
    p.add_argument("--output", default=None, help="also write the JSON to this file")
    p.set_defaults(run=run_pipeline)


def run_pipeline(args) -> int:
    output = output_path(args.output)
    payload = bench_pipeline(
        shape=args.shape, model_shape=args.model_shape, device=args.device, agents=args.agents,
        repeats=args.repeats, warmup=args.warmup, fast_decode=False if args.dynamic_cache else None,
        max_batch_size=args.max_batch_size, model_dir=args.model_dir, hops=args.hops,
    )  # fmt: skip
    print_json(payload)
    if output:
        output.write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")
    return 0


def add_eval_concurrency(kinds) -> None:
    p = kinds.add_parser(
        "eval-concurrency",
        help="items per minute of `eval` at several --item-concurrency levels; by default against a stand-in "
        "OpenAI server that delays each reply (CPU), or a real server (--base-url) or engine (--backend vllm)",
    )
    p.add_argument(
        "--levels", default=",".join(map(str, LEVELS)), help="item concurrencies to measure, comma-separated"
    )
    p.add_argument("--delay", type=float, default=0.5, help="the stand-in server's seconds per reply")
    p.add_argument(
        "--items-per-worker", type=int, default=8, help="items per level: this many per worker (at least 8)"
    )
    p.add_argument("--system", default="rag-bm25", help="the system evaluated (see `clueweaver eval --help`)")
    p.add_argument("--backend", choices=command_line_backends(), default="openai")
    p.add_argument("--model", default=None, help="the model (a real server's served name, or vllm's checkpoint)")
    p.add_argument(
        "--base-url", action="append", default=None, help="a real server's URL ending in /v1 (repeatable); "
        "without it, and with --backend openai, the stand-in answers",
    )  # fmt: skip
    p.add_argument("--tokenizer", default=None, help="the served model's tokenizer (for --system direct)")
    p.add_argument("--output", default=None, help="also write the Markdown table and JSON next to this path (.md)")
    p.set_defaults(run=run_eval_concurrency)


def run_eval_concurrency(args) -> int:
    try:
        levels = tuple(int(level) for level in args.levels.split(","))
    except ValueError:
        raise UsageError(f"--levels must be whole numbers separated by commas, got {args.levels!r}") from None
    if not levels or min(levels) < 1:
        raise UsageError(f"--levels must be 1 or more each, got {args.levels!r}")
    if args.backend != "openai" and args.base_url:
        raise UsageError("--base-url applies to --backend openai only")
    if args.backend != "openai" and not args.model:
        raise UsageError(f"--backend {args.backend} needs --model (the checkpoint to load)")
    output = output_path(args.output)
    payload, markdown = bench_item_concurrency(
        levels=levels, items_per_worker=args.items_per_worker, delay=args.delay, system=args.system,
        backend=args.backend, model=args.model, base_url=one_or_list(args.base_url), tokenizer=args.tokenizer,
    )  # fmt: skip
    _report(markdown, payload, output)
    return 0
