"""``clueweaver bench retrieval|recall|pipeline``: the shipped benchmarks that print numbers
(speed, recall); the measuring lives in ``clueweaver.bench``."""

from __future__ import annotations

import json

from clueweaver.bench import bench_pipeline, bench_recall, bench_retrieval
from clueweaver.cli.common import output_path, print_json


def add_bench(sub) -> None:
    p = sub.add_parser("bench", help="shipped benchmarks that print numbers (speed, recall)")
    kinds = p.add_subparsers(dest="bench", required=True, metavar="BENCHMARK")
    for add in (add_retrieval, add_recall, add_pipeline):
        add(kinds)


def add_retrieval(kinds) -> None:
    p = kinds.add_parser("retrieval", help="index build, segmentation latency, embedding and cache reload on one book")
    p.add_argument("--book", default="nocha:little_women_louisa_may_alcott", help="a book file or a shared-data key")
    p.add_argument("--encoder", default="minilm", help="dense encoder to time, or none")
    p.add_argument("--repeats", type=int, default=20)
    p.add_argument(
        "--reference",
        action="store_true",
        help="also time sentence-transformers' own encode with its defaults on the same book, in the same run",
    )
    p.set_defaults(run=run_retrieval)


def run_retrieval(args) -> int:
    encoder = None if args.encoder == "none" else args.encoder
    print_json(bench_retrieval(args.book, encoder=encoder, repeats=args.repeats, reference=args.reference))
    return 0


def add_recall(kinds) -> None:
    p = kinds.add_parser("recall", help="gold-evidence recall on GutenQA and the multi-hop checks vs plain BM25")
    p.add_argument(
        "--encoder", action="append", default=None, help="encoders to compare (repeatable; 'none' = BM25 alone)"
    )
    p.add_argument("--preset", action="append", default=None, help="presets to measure (repeatable)")
    p.add_argument("--output", help="also write the Markdown tables and JSON next to this path (.md)")
    p.set_defaults(run=run_recall)


def run_recall(args) -> int:
    output = output_path(args.output)
    encoders = [None if e == "none" else e for e in (args.encoder or ["none", "minilm"])]
    payload, markdown = bench_recall(encoders=encoders, presets=args.preset or ["detectiveqa", "nocha"])
    print(markdown)
    if output:
        output.write_text(markdown + "\n", encoding="utf-8")
        output.with_suffix(".json").write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")
    return 0


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
