"""What the reward functions cost in one GRPO step, the way TRL calls them: one call per reward
function, each with the whole batch.

    python train/experiments/reward_cost.py [--completions 64] [--packet-chars 29000] [--repeats 9]

A batch is ``--completions`` Interpreter replies to one question over one evidence packet of about
``--packet-chars`` characters (the bundled demo mystery, paragraphs repeated with new IDs until the
packet is that long), the replies varied as a policy's are (right and wrong answers, cited IDs
inside and outside the packet, quotes, names, numbers, hedges, broken formats). Every repetition
starts cold, as a step does (new completions: nothing cached; the runs alternate their order), and
times:

* ``total_alone_s``: ``interpreter_total`` alone;
* ``all_components_s``: every Interpreter component function in turn (what the recipes run);
* ``uncached_components_s``: the same without the shared score cache, each call scoring the whole
  batch again (as before the cache; the evidence features are still extracted once per call).

It prints one JSON object: the fastest of the repetitions for each (as ``timeit`` reports: on a
shared machine the other runs measure the neighbours) and ``ratio`` = all components / total alone
(target: at most 1.2).
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import time

from clueweaver.benchmarks.demo import load_demo
from clueweaver.books.sentences import split_sentences
from clueweaver.protocol.details import evidence_features
from clueweaver.protocol.rewards import (
    InterpreterRewardConfig,
    build_reward_funcs,
    component_names,
    interpreter_batch_components,
)

TARGET_RATIO = 1.2


def demo_packet(chars: int) -> tuple[str, list[int]]:
    """``(packet text, paragraph IDs)``: the demo mystery's paragraphs as "[id] text" lines,
    repeated with fresh IDs until the text holds ``chars`` characters."""
    narrative, _ = load_demo()
    lines, ids = [], []
    while sum(len(line) + 1 for line in lines) < chars:
        for paragraph in narrative.paragraphs:
            paragraph_id = len(ids)
            lines.append(f"[{paragraph_id}] {paragraph.text}")
            ids.append(paragraph_id)
            if sum(len(line) + 1 for line in lines) >= chars:
                break
    return "\n".join(lines), ids


def policy_replies(packet: str, ids: list[int], labels: list[str], count: int, seed: int = 0) -> list[str]:
    """``count`` varied replies over ``packet`` (see the module doc), reproducible from ``seed``."""
    rng = random.Random(seed)
    sentences = [s.strip() for s in split_sentences(packet.replace("\n", " ")) if 40 < len(s.strip()) < 200]
    replies = []
    for _ in range(count):
        cited = sorted(rng.sample(ids, 2)) + ([max(ids) + rng.randint(1, 50)] if rng.random() < 0.2 else [])
        quote = " ".join(rng.choice(sentences).split()[2:8])
        reason = f'The packet says "{quote}" [{", ".join(map(str, cited))}]. ' + rng.choice(sentences)
        if rng.random() < 0.15:
            reason += " There is not enough information to be sure."
        reply = f"<reason>{reason}</reason>\n<answer>{rng.choice(labels)}</answer>"
        shape = rng.random()
        replies.append(reply if shape > 0.2 else ("Sure! " + reply if shape > 0.1 else reply[: len(reply) // 2]))
    return replies


def interpreter_batch(completions: int, packet_chars: int, seed: int = 0) -> dict:
    """The keyword arguments of one TRL reward call: prompts, completions and dataset columns."""
    _, questions = load_demo()
    question = next(q for q in questions if not q.question.is_claim)
    packet, ids = demo_packet(packet_chars)
    replies = policy_replies(packet, ids, list(question.question.options), completions, seed)
    prompt = [{"role": "system", "content": "rules"}, {"role": "user", "content": packet}]
    return {
        "prompts": [prompt] * completions,
        "completions": [[{"role": "assistant", "content": r}] for r in replies],
        "answer": [question.answer] * completions,
        "answer_kind": ["mcq"] * completions,
        "options": [dict(question.question.options)] * completions,
        "question": [question.question.text] * completions,
        "allowed_ids": [ids] * completions,
        "hard": [False] * completions,
        "evidence": [packet] * completions,
    }


def _timed(call) -> float:
    evidence_features.cache_clear()  # a new step brings new packets
    gc.collect()  # no collection of an earlier run's garbage inside this one
    started = time.perf_counter()
    call()
    return time.perf_counter() - started


def _uncached_components(batch: dict) -> None:
    columns = {k: v for k, v in batch.items() if k not in ("prompts", "completions")}
    for _ in component_names("interpreter"):
        evidence_features.cache_clear()
        interpreter_batch_components(batch["prompts"], batch["completions"], InterpreterRewardConfig(), columns)


def measure(completions: int = 64, packet_chars: int = 29_000, repeats: int = 9, seed: int = 0) -> dict:
    """Seconds of the total alone, of every component, and of every component uncached (fastest run)."""
    batch = interpreter_batch(completions, packet_chars, seed)
    names = component_names("interpreter")
    timings: dict[str, list[float]] = {"total_alone_s": [], "all_components_s": [], "uncached_components_s": []}
    runs = {
        "total_alone_s": lambda funcs: funcs["interpreter_total"](**batch),
        "all_components_s": lambda funcs: [funcs[name](**batch) for name in names],
        "uncached_components_s": lambda funcs: _uncached_components(batch),
    }
    for repeat in range(repeats):
        order = list(runs) if repeat % 2 == 0 else list(reversed(runs))  # no run always goes first
        for name in order:
            funcs = build_reward_funcs()  # a cold cache
            timings[name].append(_timed(lambda: runs[name](funcs)))
    result = {name: min(values) for name, values in timings.items()}  # the least disturbed run, as timeit
    return {
        "agent": "interpreter",
        "completions": completions,
        "packet_chars": len(batch["evidence"][0]),
        "component_functions": len(names),
        "repeats": repeats,
        **{name: round(value, 5) for name, value in result.items()},
        "ratio": round(result["all_components_s"] / result["total_alone_s"], 3),
        "target_ratio": TARGET_RATIO,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--completions", type=int, default=64)
    parser.add_argument("--packet-chars", type=int, default=29_000)
    parser.add_argument("--repeats", type=int, default=9)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    print(json.dumps(measure(args.completions, args.packet_chars, args.repeats, args.seed), indent=2))
    return 0
