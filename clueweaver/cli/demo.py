"""``clueweaver demo``: the whole pipeline on the short original mystery bundled with the package
(``clueweaver.benchmarks.demo``).

With no model at hand the offline Gemma-3-270M smoke model answers on the CPU. It reads less and
writes less (``clueweaver.cli.common.SMOKE_SETTINGS``, as ``ask`` does with it) so that the demo
ends within two minutes on an idle 2-core CPU, shows each passage the Finder reads, and says so,
and how to run the demo with a real model (``REAL_MODEL_ROUTES``).
"""

from __future__ import annotations

import sys
import time

from clueweaver.benchmarks.demo import DemoQuestion, load_demo
from clueweaver.books.narrative import Narrative
from clueweaver.cli.common import (
    SMOKE_NOTE,
    add_model_arguments,
    add_pipeline_arguments,
    load_agents_from_args,
    model_from_args,
    pipeline_config_from_args,
    print_json,
    print_progress,
    smoke_config,
)
from clueweaver.pipeline import Result, format_result
from clueweaver.pipeline.models import DEFAULT_MODEL

REAL_MODEL_ROUTES = """To run the demo with a real model:
  on a GPU:     clueweaver demo --model Qwen/Qwen3-4B-Instruct-2507      (or a trained checkpoint folder)
  on a laptop:  serve an instruction-tuned model with any OpenAI-compatible local server, then point the demo at it:
                llama.cpp:  llama-server -m Qwen3-4B-Instruct-2507-Q4_K_M.gguf --port 8080
                            clueweaver demo --backend openai --base-url http://127.0.0.1:8080/v1 --model qwen3-4b
                Ollama:     clueweaver demo --backend openai --base-url http://127.0.0.1:11434/v1 --model NAME
                            (NAME as 'ollama list' shows it)"""


def demo_report(narrative: Narrative, demo: DemoQuestion, result: Result) -> str:
    """The readable trace, framed by what the right answer and evidence were."""
    verdict = "right" if result.answer == demo.answer and not result.fallback else "wrong"
    found = sorted(set(demo.evidence_ids) & set(result.packet.paragraph_ids))
    return "\n".join(
        [
            f"=== {demo.id} " + "=" * 60,
            format_result(result, narrative),
            f"Expected: {demo.answer} ({verdict}); evidence paragraphs {list(demo.evidence_ids)}, "
            f"{len(found)} of them in the packet, {len(set(demo.evidence_ids) & set(result.citations))} cited",
        ]
    )


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
            f"a checkpoint folder or hub id for both agents (default: {DEFAULT_MODEL}, else the offline "
            "smoke model of the demo extra); 'tiny': a tiny random Qwen3, a wiring check whose answers mean nothing"
        ),
    )
    add_pipeline_arguments(p)
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=run_demo)


def run_demo(args) -> int:
    model, overrides = model_from_args(args)
    config = pipeline_config_from_args(args, **overrides)  # bad settings fail before a model loads
    narrative, questions = load_demo()
    max_chapter = narrative.chapter_limit(args.max_chapter)
    started = time.perf_counter()
    first_use = " (the offline smoke model is converted once, on its first use: a minute or two)" if not model else ""
    print(f"Loading the model …{first_use}", file=sys.stderr, flush=True)
    agents = load_agents_from_args(args, model=model)
    if agents.smoke:
        config = smoke_config(args, overrides)
        print(f"note: {SMOKE_NOTE}", file=sys.stderr)
    reports = []
    try:
        pipeline = agents.pipeline(config)  # a query writer on the smoke model is refused here
        for number, demo in enumerate(questions, start=1):
            print(f"Question {number} of {len(questions)} ({demo.id}):", file=sys.stderr, flush=True)
            result = pipeline.answer(
                narrative, demo.question, max_chapter=max_chapter, progress_callback=print_progress
            )
            reports.append((demo, result))
    finally:
        agents.close()
    seconds = round(time.perf_counter() - started, 1)
    if args.json:
        print_json(
            {
                "book": narrative.title,
                "smoke_model": agents.smoke,
                "smoke_note": SMOKE_NOTE if agents.smoke else None,
                "seconds": seconds,
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
    if agents.smoke:
        print(f"This was a {SMOKE_NOTE}.")
    for demo, result in reports:
        print()
        print(demo_report(narrative, demo, result))
    print(f"\nDone in {seconds} s (model loading included).")
    if agents.smoke:
        print(REAL_MODEL_ROUTES)
    return 0
