"""Prompts of the two agents, in one place, so training, data building, inference and evaluation
ask the model exactly the same thing.

Three families (Finder, Interpreter, the Interpreter's self-calibration pass), each with a
multiple-choice, a TRUE/FALSE claim and an open-question instantiation. An open question (a
free-text answer) reads the multiple-choice Finder prompt word for word, its case shown without
options; its Interpreter writes a short answer in the same two-field protocol, and its
self-calibration pass checks every cited paragraph against that answer. Every prompt is a system message (the
rules and the output format) and a user message (the case). In a Finder prompt everything shared
by all segments of a question comes first and the segment text last, so a serving engine's
prefix cache reuses the system message, question and options across the segments.

The prompts are in English whatever the book's language; only the open-question Interpreter and its
self-calibration pass say one thing about language, to answer in the language of the question,
because its free-text answer is scored against references in that language (token F1).
Any change to a prompt's text changes what trained models were trained on: retrain, or evaluate a
model with the prompts it was trained with.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from clueweaver.protocol.question import Question

FINDER_ANSWER_FORMAT = "<answer>YES or NO</answer>"
# Keyword arguments for ``tokenizer.apply_chat_template`` wherever a Qwen3 prompt is rendered
# (inference backends, TRL's chat_template_kwargs): the agents answer without a thinking block.
CHAT_TEMPLATE_KWARGS = {"enable_thinking": False}


@dataclass(frozen=True)
class PromptTemplate:
    """A system message and a user message with ``str.format`` fields."""

    system: str
    user: str


_OUTPUT_FORMAT = """Output format, exactly (nothing before or after):
<reason>...</reason>
{answer_format}"""

_FINDER_SYSTEM = (
    """You are the Finder, an evidence scout for a reader of a long narrative (a novel, story, script or archive). You read one segment of the narrative at a time and decide whether it contains any clue that helps {task}.

Rules:
1. Each paragraph of the segment starts with its ID in square brackets, like [12].
2. Answer YES if the segment contains any clue that helps {task}: a direct statement, an event, a line of dialogue, a description of a character, place or object, or an indirect detail that supports one step of the reasoning. Partial and implicit clues count.
3. Favour recall. A segment you reject is never read again, while an irrelevant segment you accept is only filtered out later. When in doubt, answer YES.
4. Answer NO only when nothing in the segment bears on the {subject}.
5. If YES, the reason names the clue in a few words and cites the ID of every paragraph that carries it, like [12] or [12, 14].
6. If NO, the reason says in one sentence why the segment is irrelevant (what it is about instead) and cites no paragraph ID.
7. Use only the segment, not outside knowledge of the work. Keep the reason to one to three sentences; do not summarize the segment.

"""
    + _OUTPUT_FORMAT
)

_INTERPRETER_SYSTEM = (
    """You are the Interpreter, the final reader of a long narrative (a novel, story, script or archive). You {task} using only an evidence packet: excerpts chosen from the narrative, in narrative order, each paragraph starting with its ID in square brackets, like [12]. Text between excerpts is left out.

Rules:
1. Use only the evidence packet, not outside knowledge of the work.
{decision_rules}
4. In the reason, cite the IDs of the paragraphs you rely on, like [12] or [12, 14], and name the specific detail that decides the answer (a name, a number, a short quotation).
5. Keep the reason concise: two to five sentences.
6. Always commit to one answer; never reply that the evidence is insufficient.

"""
    + _OUTPUT_FORMAT
)

_MCQ_DECISION_RULES = """2. Read all options before choosing and pick the one the evidence supports best, even when the support is indirect.
3. Watch the polarity of the question: for NOT, EXCEPT, false or least questions, choose the option that does not hold."""

_CLAIM_DECISION_RULES = """2. The claim is TRUE only if it holds in its entirety; it is FALSE if any part of it (who, what, when, where, why, or the order of events) is contradicted by the narrative.
3. Check every detail of the claim against the evidence, not only its overall gist."""

_CALIBRATION_SYSTEM = (
    """You are the Interpreter, re-checking your provisional answer before it becomes final. You {task} using only an evidence packet: excerpts chosen from the narrative, in narrative order, each paragraph starting with its ID in square brackets, like [12]. Text between excerpts is left out.

Rules:
1. {polarity}
2. Check the provisional reason against the evidence: does each cited paragraph say what the reason claims, and does it decide the answer?
3. {alternatives}
4. Keep the provisional answer when the evidence supports it; change it only when the evidence clearly supports another answer.
5. Give the final reason with the IDs of the paragraphs you rely on, like [12] or [12, 14], and the specific detail that decides the answer. Keep it concise and always commit to one answer.

"""
    + _OUTPUT_FORMAT
)

_OPEN_DECISION_RULES = """2. Answer the question asked (who, what, when, where, why or how) in a few words or one short sentence: name the specific people, places, objects and events.
3. Put the answer alone in the answer field, in the language of the question, without paragraph IDs; the reason explains it."""

_OPEN_CALIBRATION_SYSTEM = (
    """You are the Interpreter, re-checking your provisional answer to an open question before it becomes final. You answer an open question about the narrative using only an evidence packet: excerpts chosen from the narrative, in narrative order, each paragraph starting with its ID in square brackets, like [12]. Text between excerpts is left out.

Rules:
1. Re-read the question: what exactly does it ask (who, what, when, where, why or how)?
2. Check each paragraph the provisional reason cites, one by one: does it say what the reason claims, and does it support the answer?
3. Drop every citation of a paragraph that does not support the answer. If the answer rests on such a paragraph, revise the answer from the paragraphs that do support one.
4. Keep the provisional answer when the cited evidence supports it; add a supporting paragraph the provisional reason missed only when it decides the answer.
5. Give the final reason with the IDs of the supporting paragraphs only, like [12] or [12, 14], and the specific detail they give. Keep the answer short (a few words or one sentence), in the language of the question, and always commit to one.

"""
    + _OUTPUT_FORMAT
)
OPEN_ANSWER_FORMAT = "<answer>a short free-text answer</answer>"

_FINDER_TASK = {"mcq": "answer the question or choose between its options", "claim": "verify or refute the claim"}
_INTERPRETER_TASK = {
    "mcq": "answer a multiple-choice question about the narrative",
    "claim": "decide whether a claim about the narrative is TRUE or FALSE",
    "open": "answer an open question about the narrative in a few words or one short sentence",
}
_SUBJECT = {"mcq": "question", "claim": "claim"}
_POLARITY = {
    "mcq": "Re-read the question and check its polarity: words such as not, except, false, incorrect or least reverse what is asked.",
    "claim": "Re-read the claim word by word and check its polarity: a negation (not, never, no one) reverses its meaning.",
}
_ALTERNATIVES = {
    "mcq": "Test every other option against the evidence: is one better supported than the provisional choice?",
    "claim": "Test every detail of the claim: is any part of it contradicted by the evidence?",
}

# The user messages. ``{case}`` is the question with its options, or the claim.
_FINDER_USER = "{case}\n\nSegment:\n{segment}"  # finder_segment_ids reads it back
_INTERPRETER_USER = "{case}\n\nEvidence packet:\n{packet}\n\n"
_CLOSING = {
    "mcq": "Answer the question above from the evidence packet.",
    "claim": "Judge the claim above from the evidence packet.",
    "open": "Answer the question above from the evidence packet.",
}
_CALIBRATION_CLOSING = (
    "Provisional output:\n{provisional}\n\nRe-check the provisional answer and give the final output."
)


def _build_templates() -> dict[tuple[str, str], PromptTemplate]:
    """The nine templates, keyed by (family, question kind). ``{answer_format}`` stays a field of
    the system message because the Interpreter's answer line lists the question's own labels."""
    templates = {}
    for kind in ("mcq", "claim"):
        keep = {"answer_format": "{answer_format}"}
        templates["finder", kind] = PromptTemplate(
            _FINDER_SYSTEM.format(task=_FINDER_TASK[kind], subject=_SUBJECT[kind], **keep), _FINDER_USER
        )
        templates["interpreter", kind] = PromptTemplate(
            _INTERPRETER_SYSTEM.format(
                task=_INTERPRETER_TASK[kind],
                decision_rules=_MCQ_DECISION_RULES if kind == "mcq" else _CLAIM_DECISION_RULES,
                **keep,
            ),
            _INTERPRETER_USER + _CLOSING[kind],
        )
        templates["calibration", kind] = PromptTemplate(
            _CALIBRATION_SYSTEM.format(
                task=_INTERPRETER_TASK[kind], polarity=_POLARITY[kind], alternatives=_ALTERNATIVES[kind], **keep
            ),
            _INTERPRETER_USER + _CALIBRATION_CLOSING,
        )
    keep = {"answer_format": "{answer_format}"}
    templates["finder", "open"] = templates["finder", "mcq"]  # the Finder's prompt, unchanged
    templates["interpreter", "open"] = PromptTemplate(
        _INTERPRETER_SYSTEM.format(task=_INTERPRETER_TASK["open"], decision_rules=_OPEN_DECISION_RULES, **keep),
        _INTERPRETER_USER + _CLOSING["open"],
    )
    templates["calibration", "open"] = PromptTemplate(
        _OPEN_CALIBRATION_SYSTEM.format(**keep), _INTERPRETER_USER + _CALIBRATION_CLOSING
    )
    return templates


TEMPLATES = _build_templates()


def answer_format(question: Question) -> str:
    """The Interpreter's answer line: ``<answer>A/B/C/D</answer>`` (the question's own labels),
    ``<answer>TRUE or FALSE</answer>`` or, for an open question, a free-text placeholder."""
    if question.is_open:
        return OPEN_ANSWER_FORMAT
    choices = " or ".join(question.labels) if question.is_claim else "/".join(question.labels)
    return f"<answer>{choices}</answer>"


def render_case(question: Question) -> str:
    """The question with one "(X) option" line per option, the claim, or the open question alone."""
    if question.is_claim:
        return f"Claim: {question.text.strip()}"
    if question.is_open:
        return f"Question: {question.text.strip()}"
    options = "\n".join(f"({label}) {' '.join(text.split())}" for label, text in question.options.items())
    return f"Question: {question.text.strip()}\nOptions:\n{options}"


def _require_text(name: str, text: str) -> str:
    if not isinstance(text, str) or not text.strip():
        raise ValueError(f"the {name} is empty; a prompt needs its text")
    return text.strip()


def _messages(family: str, question: Question, answer_line: str, **fields: str) -> list[dict[str, str]]:
    if not isinstance(question, Question):
        raise TypeError(f"expected a clueweaver Question, got {type(question).__name__}")
    template = TEMPLATES[family, question.kind]
    return [
        {"role": "system", "content": template.system.format(answer_format=answer_line)},
        {
            "role": "user",
            "content": template.user.format(case=render_case(question), **fields),
        },
    ]


def finder_messages(question: Question, segment_text: str) -> list[dict[str, str]]:
    """The Finder's prompt for one segment ("[id] text" lines); the segment comes last."""
    return _messages("finder", question, FINDER_ANSWER_FORMAT, segment=_require_text("segment text", segment_text))


_SEGMENT_HEAD = "\n\nSegment:\n"
_PARAGRAPH_ID = re.compile(r"^\[(\d+)\] ", re.MULTILINE)


def finder_segment_ids(messages: list[dict[str, str]]) -> list[int]:
    """The paragraph IDs of the segment a Finder prompt shows (its "[id] text" lines after
    "Segment:"): what a Finder row may cite, for data whose rows carry no ``allowed_ids``."""
    user = next((m["content"] for m in reversed(messages) if m.get("role") == "user"), "")
    _, head, segment = user.rpartition(_SEGMENT_HEAD)
    return [int(found) for found in _PARAGRAPH_ID.findall(segment)] if head else []


def interpreter_messages(question: Question, packet_text: str) -> list[dict[str, str]]:
    """The Interpreter's prompt over an evidence packet."""
    return _messages(
        "interpreter", question, answer_format(question), packet=_require_text("evidence packet", packet_text)
    )


def calibration_messages(question: Question, packet_text: str, provisional_output: str) -> list[dict[str, str]]:
    """The self-calibration pass: the Interpreter re-checks its provisional output (given verbatim)."""
    return _messages(
        "calibration",
        question,
        answer_format(question),
        packet=_require_text("evidence packet", packet_text),
        provisional=_require_text("provisional output", provisional_output),
    )


def apply_chat_template(tokenizer, messages: list[dict[str, str]], add_generation_prompt: bool = True) -> str:
    """Render ``messages`` as prompt text with the tokenizer's chat template, Qwen3 thinking
    disabled (the template then opens the reply with an empty ``<think>`` block)."""
    if not getattr(tokenizer, "chat_template", None):
        raise ValueError(f"tokenizer {getattr(tokenizer, 'name_or_path', tokenizer)!r} has no chat template")
    return tokenizer.apply_chat_template(
        messages, tokenize=False, add_generation_prompt=add_generation_prompt, **CHAT_TEMPLATE_KWARGS
    )
