"""``clueweaver chrono build|query``: build a book's ChronoRAG index once (resumable, cached per
book, model, prompts and settings) and see what it retrieves for a question.

``build`` makes the model calls (``--dry-run``: none, it counts them) and exits 1 when more than
the allowed share of groups failed; ``query`` makes none: it loads the backend only for its token
counter (with ``--backend openai --tokenizer`` that is the tokenizer alone) and reads the index
that model built. Missing indexes, counters and encoders are ``ClueWeaverError``s, which
``clueweaver.cli.main`` prints without a traceback.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import asdict

from clueweaver.books.narrative import reading_limit
from clueweaver.chrono.assembly import assemble, layer, passages
from clueweaver.chrono.build import ChronoBuilder, token_counter
from clueweaver.chrono.config import PAPER_BUDGET, ChronoConfig
from clueweaver.chrono.graph import dense_encoder, finished_graph
from clueweaver.cli.common import (
    BOOK_FILES,
    ENCODER_CHOICES,
    add_chrono_arguments,
    add_command_group,
    add_encoding_argument,
    add_max_chapter_argument,
    add_model_arguments,
    backend_options_from_args,
    book_from_args,
    chrono_config_from_args,
    chrono_settings,
    load_backend_from,
    model_from_args,
    print_json,
)
from clueweaver.core.config import ConfigError, config_from_dict, read_yaml_mapping
from clueweaver.core.errors import UsageError
from clueweaver.pipeline.models import DEFAULT_MODEL


def add_chrono(sub) -> None:
    add_command_group(
        sub, "chrono", help="ChronoRAG: a book's two-layer chronological index (build it, query it)",
        description="Build and query a book's ChronoRAG index (docs/chronorag.md).", actions=(add_build, add_query),
    )  # fmt: skip


def _arguments() -> argparse.ArgumentParser:
    """The book, the model whose index it is (and whose tokens are counted), the settings."""
    shared = argparse.ArgumentParser(add_help=False)
    shared.add_argument("book", help=f"the book ({BOOK_FILES})")
    add_encoding_argument(shared)
    add_model_arguments(shared, agents=False, model_help=f"the model that builds the index (default {DEFAULT_MODEL})")
    shared.add_argument(
        "--cache-dir", default=None, help="cache folder (default ~/.cache/clueweaver or $CLUEWEAVER_CACHE)"
    )
    add_chrono_arguments(shared, read_model=False)
    shared.add_argument("--json", action="store_true", help="print JSON")
    return shared


def _backend(args):
    model, _reply_caps = model_from_args(args)  # ``tiny`` as every command takes it; the build's caps are its own
    return load_backend_from(args.backend, model or DEFAULT_MODEL, backend_options_from_args(args))


# The build's cost caps: ChronoConfig field -> (flag, help).
COST_CAPS = {
    "summary_tokens": ("--summary-tokens", "new tokens per summary try"),
    "extraction_tokens": ("--extraction-tokens", "new tokens per extraction try"),
    "max_attempts": ("--max-attempts", "tries per output, the first included"),
    "batch_groups": ("--batch-groups", "groups per generation call"),
    "max_failed_share": ("--max-failed-share", "share of failed groups above which the build exits 1"),
}


def add_build(actions) -> None:
    p = actions.add_parser(
        "build", parents=[_arguments()], help="summarize and extract relations (once per book, model and settings)"
    )
    p.add_argument("--config", help="pipeline settings YAML whose chrono: section sets these (flags win)")
    caps = p.add_argument_group("cost caps (default: chrono: in --config, else docs/chronorag.md)")
    for name, (flag, text) in COST_CAPS.items():
        kind = float if name == "max_failed_share" else int
        caps.add_argument(flag, dest=name, type=kind, help=f"{text} (default {getattr(ChronoConfig(), name)})")
    p.add_argument("--dry-run", action="store_true", help="print the model calls and tokens a build would spend")
    p.set_defaults(run=run_build)


def build_config(args) -> ChronoConfig:
    """The ``chrono:`` section of ``--config``, the ChronoRAG flags and the cost caps over it."""
    from_file = {}
    if args.config:
        try:
            from_file = read_yaml_mapping(args.config, "pipeline settings").get("chrono") or {}
        except ConfigError as exc:
            raise UsageError(f"--config: {exc}") from None
    caps = {name: getattr(args, name) for name in COST_CAPS if getattr(args, name) is not None}
    try:
        return config_from_dict(ChronoConfig, {**from_file, **chrono_settings(args), **caps}, "ChronoRAG settings")
    except ConfigError as exc:
        raise UsageError(str(exc)) from None


def run_build(args) -> int:
    config = build_config(args)
    narrative = book_from_args(args)
    backend = _backend(args)
    try:
        builder = ChronoBuilder(backend, config, cache_dir=args.cache_dir)
        if args.dry_run:
            return _print_plan(args, builder.plan(narrative))
        _, report = builder.build(narrative)
    finally:
        backend.close()
    failed = report.failed_too_often(config.max_failed_share)
    if args.json:
        print_json({**report.to_dict(), "failed_too_often": failed})
    else:
        print(
            f"{narrative.title}: {report.chunks} chunks in {report.groups} groups, {report.nodes} relations (Layer "
            f"1); {report.built} groups built now, {report.resumed} before, {report.failed} failed; "
            f"{report.generations} generations in {report.calls} calls, {report.seconds:.1f} s\nindex: {report.folder}"
        )
        for failure in report.failures:
            reason = failure["errors"][-1]
            print(f"group {failure['group']} failed at its {failure['stage']}: {reason}", file=sys.stderr)
    if failed:
        print(
            f"error: {report.failed} of {report.groups} groups failed (more than the allowed share "
            f"{config.max_failed_share}); commonest reason: {report.main_failure}. Try a larger model, more "
            "--max-attempts or larger --summary-tokens/--extraction-tokens; the failed groups stay failed, so "
            f"delete {report.folder} before building again",
            file=sys.stderr,
        )
        return 1
    return 0


def _print_plan(args, plan: dict) -> int:
    if args.json:
        print_json(plan)
        return 0
    print(
        f"{plan['groups']} groups ({plan['done']} built before, {plan['pending']} to build) by {plan['model']}:\n"
        f"  {plan['generations']} generations in {plan['calls']} calls if every output is read on its first try, at "
        f"most {plan['generations_at_most']} in {plan['calls_at_most']} calls with every retry\n"
        f"  about {plan['prompt_tokens']} prompt tokens on the first tries; new tokens at most "
        f"{plan['new_tokens']} on the first tries, {plan['new_tokens_at_most']} with every retry\n"
        f"  caps: {', '.join(f'{k} {v}' for k, v in plan['caps'].items())}\nno model call was made"
    )
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
        graph = layer(finished_graph(narrative, config, model=backend.model, cache_dir=args.cache_dir), config)
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
            "adjacent_nodes": list(graph.adjacent(p.node, readable, config.window)),
            "relations_shown": list(p.relations),
            "chunks": list(p.chunks),
            "paragraph_ids": list(p.paragraph_ids(graph)),
        }
        for p in assembly.passages
    ]
    if graph.failed:
        print(f"warning: {graph.failure_note()}", file=sys.stderr)
    if args.json:
        print_json(
            {
                "book": narrative.title, "index": str(graph.folder), "question": args.question, "last_paragraph": last,
                "retrieval": config.retrieval, "layer": graph.unit, "assembly": config.assembly,
                "budget": assembly.budget, "tokens": assembly.tokens,
                "passages": rows, "text": assembly.text, "failed_groups": graph.failed,
                "failure_note": graph.failure_note(),
            }
        )  # fmt: skip
        return 0
    print(f"{len(rows)} passages, {assembly.tokens} of {assembly.budget} tokens, up to paragraph {last}")
    for row in rows:
        shown = f", with {graph.unit}s {row['relations_shown']}" if row["relations_shown"] else ""
        described = f"{row['relation']['description']}  -> chunks {row['chunks']}{shown}"
        print(f"  node {row['node']} ({row['score']:.3f}): {described}")
    print(f"\n{assembly.text}")
    return 0
