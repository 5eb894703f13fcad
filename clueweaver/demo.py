"""``clueweaver demo``: the whole pipeline on a short original mystery bundled with the package.

"The Lantern at Marrow Quay" (``clueweaver/data/demo_mystery.md``) was written for ClueWeaver: seven
chapters, clues planted chapters apart, a multiple-choice question and a claim whose answers need
two or three distant paragraphs (``demo_questions.json`` gives the answers and the evidence as
verbatim quotes). The last chapter is the solution, so ``--max-chapter 6`` reads spoiler-free.

With no model at hand the offline Gemma-3-270M smoke model answers on the CPU. It reads less and
writes less (``SMOKE_SETTINGS``) so that the demo ends within two minutes on a 2-core CPU, and the
output says so, and how to run the demo with a real model (``REAL_MODEL_ROUTES``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib.resources import files

from clueweaver.checks import evidence_paragraphs
from clueweaver.narrative import Narrative, from_markdown
from clueweaver.pipeline import Result, format_result
from clueweaver.protocol.question import Question

# What the smoke model reads and writes, where the flags leave them open: 2 windows of 4 paragraphs
# and 7 retrieved ones, about 4 passages (detectiveqa: about 11 of up to 6 paragraphs), 3 of them
# in a 3,000-character packet (10 in 15,000), 32 tokens per Finder verdict and per answer (128,
# 320), no self-calibration pass and no format retry (a base model that missed the format once
# misses it again: the retry only doubled the answer's time). It runs on torch's default threads
# (every core): on an otherwise idle 2-core machine the whole demo took 39 s with two threads and
# 67 s with one (the model already converted); only a machine busy with other work makes a second
# thread slower.
SMOKE_SETTINGS = {
    "preset": {
        "base": "focused", "name": "smoke", "max_selected": 3, "num_anchors": 7, "num_windows": 2,
        "window_paragraphs": 4, "retrieval_paragraphs": 3, "char_budget": 3000,
    },
    "finder_sampling": {"max_new_tokens": 32},
    "interpreter_sampling": {"max_new_tokens": 32},
    "self_calibration": False,
    "format_retry": False,
}  # fmt: skip
SMOKE_NOTE = (
    "smoke run: the offline Gemma-3-270M base model (not instruction-tuned, not trained for ClueWeaver) answers, "
    "and to finish within about two minutes on a CPU it reads fewer passages (windows of 4 paragraphs, 7 "
    "retrieved paragraphs, 3 passages in a 3,000-character packet) and writes shorter replies (32 tokens each) "
    "with no self-calibration and no format retry; its answers test the pipeline, not ClueWeaver"
)
REAL_MODEL_ROUTES = """To run the demo with a real model:
  on a GPU:     clueweaver demo --model Qwen/Qwen3-4B-Instruct-2507      (or a trained checkpoint folder)
  on a laptop:  serve an instruction-tuned model with any OpenAI-compatible local server, then point the demo at it:
                llama.cpp:  llama-server -m Qwen3-4B-Instruct-2507-Q4_K_M.gguf --port 8080
                            clueweaver demo --backend openai --base-url http://127.0.0.1:8080/v1 --model qwen3-4b
                Ollama:     clueweaver demo --backend openai --base-url http://127.0.0.1:11434/v1 --model NAME
                            (NAME as 'ollama list' shows it)"""


@dataclass(frozen=True)
class DemoQuestion:
    id: str
    question: Question
    answer: str
    evidence_ids: tuple[int, ...]  # the paragraphs holding the evidence quotes


def load_demo() -> tuple[Narrative, list[DemoQuestion]]:
    """The bundled mystery and its questions, with evidence quotes resolved to paragraph IDs."""
    data = files("clueweaver").joinpath("data")
    spec = json.loads(data.joinpath("demo_questions.json").read_text(encoding="utf-8"))
    book = data.joinpath(spec["book"])
    narrative = from_markdown(book.read_text(encoding="utf-8"), title=spec["title"], source=str(book))
    questions = []
    for item in spec["questions"]:
        question = Question.claim(item["claim"]) if "claim" in item else Question(item["question"], item["options"])
        ids = []
        for quote in item["evidence"]:
            found = evidence_paragraphs(narrative, quote)
            if len(found) != 1:
                raise ValueError(
                    f"demo question {item['id']}: evidence quote found in {len(found)} paragraphs: {quote!r}"
                )
            ids.append(found[0])
        questions.append(DemoQuestion(item["id"], question, item["answer"], tuple(sorted(ids))))
    return narrative, questions


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
