"""Reading the agents' ``<reason>...</reason><answer>...</answer>`` replies, tolerantly.

Small models break the format in predictable ways (capitalised or spaced tags, a code fence
around the reply, a chatty sentence before it, the final closing tag cut off by the token
limit), so extraction forgives those; what it cannot read is reported (``format_valid``,
``answer_legal``, ``invalid_ids``), never guessed or silently dropped.

The answer field's words are read by ``clueweaver.protocol.verdicts`` (a Finder's YES/NO, a claim's TRUE/FALSE)
and ``clueweaver.protocol.choices`` (an option's letter), over ``clueweaver.protocol.reply_text``.

Training is strict instead: ``strict_format_problem`` says why a reply is not exactly the two
tags, and ``parse_finder_strict`` / ``parse_interpreter_strict`` read only such replies as
well-formed, and only an answer field that is one of the labels the prompt asks for (``strict_label``),
so no reward pays a reply that inference would have to forgive.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, replace
from typing import Iterable

from clueweaver.protocol.choices import normalize_choice
from clueweaver.protocol.citations import paragraph_references
from clueweaver.protocol.question import Question
from clueweaver.protocol.reply_text import OPEN_PREFIX, clean, comparable
from clueweaver.protocol.verdicts import normalize_claim_answer, normalize_finder_answer

__all__ = [
    "FINDER_LABELS",
    "ParseResult",
    "normalize_answer",
    "normalize_choice",
    "normalize_claim_answer",
    "normalize_finder_answer",
    "normalize_open_answer",
    "parse_finder",
    "parse_finder_strict",
    "parse_interpreter",
    "parse_interpreter_strict",
    "strict_format_problem",
    "strict_label",
]

FINDER_LABELS = ("YES", "NO")


@dataclass(frozen=True)
class ParseResult:
    """One agent reply, read.

    ``format_valid``: a non-empty ``<reason>`` and an ``<answer>`` were found. ``answer_legal``:
    the answer normalizes to a legal label (YES/NO, a letter of the question, TRUE/FALSE) or, for
    an open question, to non-empty text, then in ``answer``. ``cited_ids``: paragraph IDs
    referenced in the rationale that are allowed (all of them when no allowed set was given),
    ascending; ``invalid_ids``: the referenced IDs outside the allowed set, and the ends of ranges
    too long to expand. ``raw``: the reply as received.
    """

    format_valid: bool
    answer_legal: bool
    answer: str | None
    rationale: str
    cited_ids: tuple[int, ...]
    invalid_ids: tuple[int, ...]
    raw: str


# --- tags -------------------------------------------------------------------------------------

_THINK_BLOCK = re.compile(r"<\s*think\s*>.*?<\s*/\s*think\s*>", re.IGNORECASE | re.DOTALL)
_CODE_FENCE = re.compile(r"```[\w+-]*")


def _tag(name: str, closing: bool = False) -> str:
    return r"<\s*/\s*" + name + r"\s*>" if closing else r"<\s*" + name + r"\s*>"


_COMPLETE = {
    name: re.compile(_tag(name) + r"(.*?)" + _tag(name, closing=True), re.IGNORECASE | re.DOTALL)
    for name in ("reason", "answer")
}
_OPEN = {name: re.compile(_tag(name), re.IGNORECASE) for name in ("reason", "answer")}
_ANY_TAG = re.compile(r"<\s*/?\s*(?:reason|answer)\s*>", re.IGNORECASE)


def _unclosed(text: str, name: str) -> tuple[int, str] | None:
    """The last ``<name>`` never closed: its content runs to the next tag or the end of the text."""
    opens = list(_OPEN[name].finditer(text))
    if not opens:
        return None
    start = opens[-1].end()
    following = _ANY_TAG.search(text, start)
    return opens[-1].start(), text[start : following.start() if following else len(text)]


def _extract(text: str) -> tuple[str | None, str | None]:
    """(reason, answer) contents; the last complete answer wins, an unclosed one counts only when
    no answer is complete; the reason is the last one before that answer (or the last at all)."""
    text = _CODE_FENCE.sub("", _THINK_BLOCK.sub("", text))
    answers = list(_COMPLETE["answer"].finditer(text))
    if answers:
        answer_at, answer = answers[-1].start(), answers[-1].group(1)
    else:
        found = _unclosed(text, "answer")
        answer_at, answer = found if found else (len(text), None)
    reasons = [(m.start(), m.group(1)) for m in _COMPLETE["reason"].finditer(text)]
    if not reasons:
        found = _unclosed(text, "reason")
        reasons = [found] if found else []
    before = [content for start, content in reasons if start < answer_at]
    reason = before[-1] if before else (reasons[-1][1] if reasons else None)
    return (None if reason is None else reason.strip()), (None if answer is None else answer.strip())


# --- answers ----------------------------------------------------------------------------------

_OPEN_PLACEHOLDER = "a short free-text answer"  # the prompt's answer line, echoed by a confused model


def normalize_open_answer(answer: str) -> str | None:
    """A free-text answer on one line, without markdown emphasis, surrounding quotes or an "Answer:"
    prefix; None when nothing with a letter or a digit is left (an empty or "..." answer)."""
    text = clean(OPEN_PREFIX.sub("", clean(answer)))
    if not re.search(r"[^\W_]", text) or comparable(text) == comparable(_OPEN_PLACEHOLDER):
        return None
    return text


def normalize_answer(answer: str, question: Question) -> str | None:
    """A legal answer of ``question`` (a letter, TRUE/FALSE, or an open question's text), or None."""
    if question.is_open:
        return normalize_open_answer(answer)
    return normalize_claim_answer(answer) if question.is_claim else normalize_choice(answer, question)


# --- replies ----------------------------------------------------------------------------------


def _parse(text, normalize, allowed_ids) -> ParseResult:
    raw = text if isinstance(text, str) else ("" if text is None else str(text))
    reason, answer = _extract(raw)
    rationale = reason or ""
    label = normalize(answer) if answer else None
    cited, invalid = paragraph_references(rationale, allowed_ids)
    return ParseResult(
        format_valid=bool(rationale) and bool(answer),
        answer_legal=label is not None,
        answer=label,
        rationale=rationale,
        cited_ids=cited,
        invalid_ids=invalid,
        raw=raw,
    )


def parse_finder(text: str, allowed_ids: Iterable[int] | None = None) -> ParseResult:
    """A Finder reply: answer YES/NO; ``allowed_ids`` is normally the segment's paragraph IDs."""
    return _parse(text, normalize_finder_answer, allowed_ids)


def parse_interpreter(text: str, question: Question, allowed_ids: Iterable[int] | None = None) -> ParseResult:
    """An Interpreter reply: an option letter of ``question``, TRUE/FALSE, or an open question's
    free text; ``allowed_ids`` is normally the evidence packet's paragraph IDs."""
    if not isinstance(question, Question):
        raise TypeError(f"parse_interpreter needs a clueweaver Question, got {type(question).__name__}")
    return _parse(text, lambda answer: normalize_answer(answer, question), allowed_ids)


# --- the strict format of training ------------------------------------------------------------

_EXACT_TAGS = ("<reason>", "</reason>", "<answer>", "</answer>")
_THINK_TAG = re.compile(r"<\s*/?\s*think\s*>", re.IGNORECASE)


def strict_format_problem(text: str) -> str | None:
    """Why ``text`` is not exactly ``<reason>...</reason>`` then ``<answer>...</answer>`` (each tag
    once, lower case, closed, both non-empty, nothing but whitespace around or between them); None
    when it is. Training pays only such replies (Tables 5 and 6: an unparseable reply earns
    nothing), while inference reads what it can and records the problem."""
    raw = text if isinstance(text, str) else ("" if text is None else str(text))
    if _THINK_TAG.search(raw):  # inference strips it; training pays only the two tags the agents are asked for
        return "a <think> block: the agents answer without thinking, in <reason> and <answer> only"
    tags = list(_ANY_TAG.finditer(raw))
    if [m.group(0) for m in tags] != list(_EXACT_TAGS):
        found = ", ".join(m.group(0) for m in tags) or "none"
        return f"tags {found}; expected {', '.join(_EXACT_TAGS)}, once each, in this order"
    gaps = {
        "before <reason>": raw[: tags[0].start()],
        "between </reason> and <answer>": raw[tags[1].end() : tags[2].start()],
        "after </answer>": raw[tags[3].end() :],
    }
    for where, gap in gaps.items():
        if gap.strip():
            return f"text {where}: {gap.strip()[:40]!r}"
    for name, (opening, closing) in (("reason", tags[:2]), ("answer", tags[2:])):
        if not raw[opening.end() : closing.start()].strip():
            return f"empty <{name}>"
    return None


def strict_label(answer: str, labels: Iterable[str]) -> str | None:
    """The label an answer field is in training: exactly one of ``labels`` (YES/NO, the question's
    letters, TRUE/FALSE: what the prompt's answer line asks for, in every language) up to letter
    case, character width (NFKC: "Ｂ" is B) and surrounding whitespace; None for anything else.

    Tables 5 and 6 pay a verdict or a correct answer in the answer field of the format the prompt
    gives; a sentence ("Yes, this segment is relevant.", "The answer is B"), markdown ("**YES**"),
    an option's own text, or another label set's word ("yes" for a TRUE claim) is not that field
    as asked, so it earns what the tables give an unparseable output: nothing; so does a verdict in
    the reply's own language ("Oui", "正确"). Inference reads all of these (``normalize_answer``)
    and records them."""
    field = unicodedata.normalize("NFKC", answer).strip().upper()
    return field if field in tuple(labels) else None


def _strictly(parsed: ParseResult, labels: tuple[str, ...] | None) -> ParseResult:
    """``parsed`` as training reads it: well-formed only in the strict format, and with a legal
    answer only when the answer field is one of ``labels`` (None: free text, any)."""
    if parsed.format_valid and strict_format_problem(parsed.raw) is not None:
        return replace(parsed, format_valid=False)
    if parsed.format_valid and labels is not None:
        label = strict_label(_extract(parsed.raw)[1] or "", labels)
        return replace(parsed, answer_legal=label is not None, answer=label)
    return parsed


def parse_finder_strict(text: str, allowed_ids: Iterable[int] | None = None) -> ParseResult:
    """``parse_finder``, with ``format_valid`` only for a reply in the strict format and an answer
    only when its field is YES or NO (training)."""
    return _strictly(parse_finder(text, allowed_ids), FINDER_LABELS)


def parse_interpreter_strict(text: str, question: Question, allowed_ids: Iterable[int] | None = None) -> ParseResult:
    """``parse_interpreter``, with ``format_valid`` only for a reply in the strict format and, for
    a multiple-choice question or a claim, an answer only when its field is one of the question's
    labels (training)."""
    labels = None if question.is_open else question.labels
    return _strictly(parse_interpreter(text, question, allowed_ids), labels)
