"""The steps both readers share: checking that a question can be answered and where the reading
stops, an evidence budget in the Interpreter's tokens, and one Interpreter pass. An Interpreter
output without a legal answer is retried once with a format reminder; then the answer is a
flagged fallback (the first label), never a silent guess."""

from __future__ import annotations

from clueweaver.backends.base import GenerationBackend, SamplingConfig
from clueweaver.pipeline.results import Attempt, InterpreterPass
from clueweaver.protocol.parse import parse_interpreter
from clueweaver.protocol.prompts import answer_format
from clueweaver.protocol.question import Question


def check_answerable(question: Question) -> None:
    """The agents answer multiple-choice questions, TRUE/FALSE claims and open questions."""
    if not isinstance(question, Question):
        raise TypeError(f"expected a clueweaver Question, got {type(question).__name__}")


def with_format_reminder(messages: list[dict], question: Question) -> list[dict]:
    """The same conversation with a format reminder closing the user message (the one retry)."""
    reminder = (
        f"\n\nReminder: reply with exactly <reason>...</reason> followed by {answer_format(question)}, "
        "with nothing before or after."
    )
    return [*messages[:-1], {**messages[-1], "content": messages[-1]["content"] + reminder}]


def interpreter_pass(
    backend: GenerationBackend,
    messages: list[dict],
    question: Question,
    allowed_ids,
    sampling: SamplingConfig,
    *,
    adapter: str | None = None,
    retry: bool = True,
) -> InterpreterPass:
    """One Interpreter pass; without a legal answer, one retry with a format reminder (not for a
    prompt that did not fit: the retry would be longer still)."""

    def attempt(conversation, reminder: bool) -> Attempt:
        generation = backend.generate([conversation], sampling, adapter=adapter)[0]
        return Attempt(parse_interpreter(generation.text, question, allowed_ids), generation, reminder)

    first = attempt(messages, False)
    if first.legal or not retry or not first.generation.ok:
        return InterpreterPass((first,))
    return InterpreterPass((first, attempt(with_format_reminder(messages, question), True)))
