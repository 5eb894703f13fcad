"""``clueweaver chrono build|query``: build a book's ChronoRAG index once (resumable, cached per
book, model, prompts and settings) and see what it retrieves for a question.

``build`` makes the model calls; ``query`` makes none: it loads the backend only for its token
counter (with ``--backend openai --tokenizer`` that is the tokenizer alone) and reads the index
that model built. Missing indexes, counters and encoders are ``ClueWeaverError``s, which
``clueweaver.cli.main`` prints without a traceback.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import asdict

from clueweaver.books.narrative import reading_limit
from clueweaver.chrono.assembly import assemble, passages
from clueweaver.chrono.build import ChronoBuilder, token_counter
from clueweaver.chrono.config import PAPER_BUDGET
from clueweaver.chrono.graph import dense_encoder, finished_graph
from clueweaver.cli.common import (
    ENCODER_CHOICES,
    add_chrono_arguments,
    add_command_group,
    add_encoding_argument,
    add_max_chapter_argument,
    add_model_arguments,
    backend_options_from_args,
    book_from_args,
    chrono_config_from_args,
    load_backend_from,
    print_json,
)
from clueweaver.pipeline.models import DEFAULT_MODEL


def add_chrono(sub) -> None:
    add_command_group(
        sub, "chrono", help="ChronoRAG: a book's two-layer chronological index (build it, query it)",
        description="Build and query a book's ChronoRAG index (docs/chronorag.md).", actions=(add_build, add_query),
    )  # fmt: skip


def _arguments() -> argparse.ArgumentParser:
    """The book, the model whose index it is (and whose tokens are counted), the settings."""
    shared = argparse.ArgumentParser(add_help=False)
    shared.add_argument("book", help="the book (.txt, .md, .epub or .jsonl)")
    add_encoding_argument(shared)
    add_model_arguments(shared, agents=False, model_help=f"the model that builds the index (default {DEFAULT_MODEL})")
    shared.add_argument(
        "--cache-dir", default=None, help="cache folder (default ~/.cache/clueweaver or $CLUEWEAVER_CACHE)"
    )
    add_chrono_arguments(shared, read_model=False)
    shared.add_argument("--json", action="store_true", help="print JSON")
    return shared


def _backend(args):
    return load_backend_from(args.backend, args.model or DEFAULT_MODEL, backend_options_from_args(args))


def add_build(actions) -> None:
    p = actions.add_parser(
        "build", parents=[_arguments()], help="summarize and extract relations (once per book, model and settings)"
    )
    p.set_defaults(run=run_build)


def run_build(args) -> int:
    config = chrono_config_from_args(args)
    narrative = book_from_args(args)
    backend = _backend(args)
    try:
        _, report = ChronoBuilder(backend, config, cache_dir=args.cache_dir).build(narrative)
    finally:
        backend.close()
    if args.json:
        print_json(report.to_dict())
        return 0
    print(
        f"{narrative.title}: {report.chunks} chunks in {report.groups} groups, {report.nodes} relations (Layer 1); "
        f"{report.built} groups built now, {report.resumed} before, {report.failed} failed; "
        f"{report.generations} generations in {report.calls} calls, {report.seconds:.1f} s\nindex: {report.folder}"
    )
    for failure in report.failures:
        print(f"group {failure['group']} failed at its {failure['stage']}: {failure['errors'][-1]}", file=sys.stderr)
    return 0


def add_query(actions) -> None:
    p = actions.add_parser(
        "query", parents=[_arguments()], help="the passages the index assembles for a question (no model call)"
    )
    p.add_argument("question", help="the question or claim")
    add_max_chapter_argument(p)
    p.add_argument("--budget", type=int, default=PAPER_BUDGET, help=f"tokens of passages (default {PAPER_BUDGET})")
    p.add_argument("--encoder", default="auto", help=f"dense encoder of Layer 1: {ENCODER_CHOICES}")
    p.set_defaults(run=run_query)


def run_query(args) -> int:
    config = chrono_config_from_args(args)
    narrative = book_from_args(args)
    last = reading_limit(narrative, narrative.chapter_limit(args.max_chapter), None)
    encoder = dense_encoder(config.retrieval, None if args.encoder == "none" else args.encoder)
    backend = _backend(args)
    try:
        count = token_counter(backend)
        graph = finished_graph(narrative, config, model=backend.model, cache_dir=args.cache_dir)
        assembly = assemble(graph, passages(graph, args.question, config, encoder, last), args.budget, count)
    finally:
        backend.close()
    readable = graph.readable_relations(graph.readable_chunks(last))
    rows = [
        {
            "node": p.node,
            "score": round(p.score, 6),
            "relation": asdict(graph.relations[p.node]),
            "linked_chunks": list(graph.linked_chunks(p.node)),
            "adjacent_nodes": list(graph.adjacent(p.node, readable)),
            "chunks": list(p.chunks),
            "paragraph_ids": list(p.paragraph_ids(graph)),
        }
        for p in assembly.passages
    ]
    if args.json:
        print_json(
            {
                "book": narrative.title, "index": str(graph.folder), "question": args.question, "last_paragraph": last,
                "retrieval": config.retrieval, "budget": assembly.budget, "tokens": assembly.tokens,
                "passages": rows, "text": assembly.text,
            }
        )  # fmt: skip
        return 0
    print(f"{len(rows)} passages, {assembly.tokens} of {assembly.budget} tokens, up to paragraph {last}")
    for row in rows:
        relation = row["relation"]
        print(f"  node {row['node']} ({row['score']:.3f}): {relation['description']}  -> chunks {row['chunks']}")
    print(f"\n{assembly.text}")
    return 0
