"""The short original mystery bundled with the package, and its questions with resolved evidence.

"The Lantern at Marrow Quay" (``clueweaver/data/demo_mystery.md``) was written for ClueWeaver: seven
chapters, clues planted chapters apart, a multiple-choice question and a claim whose answers need
two or three distant paragraphs (``demo_questions.json`` gives the answers and the evidence as
verbatim quotes). The last chapter is the solution, so ``--max-chapter 6`` reads spoiler-free.
``clueweaver demo`` (``clueweaver.cli.demo``) runs the pipeline on it; tests and benchmarks read it too.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib.resources import files

from clueweaver.benchmarks.checks import evidence_paragraphs
from clueweaver.books.narrative import Narrative, from_markdown
from clueweaver.protocol.question import Question


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
