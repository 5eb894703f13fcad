"""The text of an agent's answer field as every reader of it sees it: without markdown, bullets or quotes, the
label a reply puts before its answer ("The correct answer is", "Réponse :", "答案是", "정답은"), an opinion or "it is"
before it ("I think", "C'est", "应该"), its sentences and lines, and the part that gives the answer (a JSON object's
value, the last labelled line after a rationale). ``clueweaver.protocol.verdicts`` reads a Finder's and a claim's
verdict from it, ``clueweaver.protocol.choices`` an option's letter, ``clueweaver.protocol.parse`` the reply.
"""

from __future__ import annotations

import json
import re
from typing import Callable

from clueweaver.books.language import script_of
from clueweaver.protocol.cues import Table, every_language
from clueweaver.protocol.reply_words import (
    ANSWER_ADJECTIVES_AFTER,
    ANSWER_ADJECTIVES_BEFORE,
    ANSWER_ARTICLES,
    ANSWER_WORDS,
    CONCLUSION_WORDS,
    COPULAS,
    LEAD_INS,
    words_regex,
)

_MARKDOWN = re.compile(r"[*_`]")
_BULLET = re.compile(r"^\s*(?:[-\u2022]|#+)\s+")  # "- Verdict: true", "## Réponse"
_QUOTES = "\"'\u201c\u201d\u2018\u2019 "

_UNSPACED = ("han", "kana", "hangul")  # scripts whose words an answer's label joins without a space


def alternatives(table: Table, space: str) -> str:
    """The words of ``table``, longest first, each with ``space`` on its spaced side: none beside a Han, kana or
    Hangul word, which its neighbour joins ("正确答案", "答案是", "정답은")."""
    words = sorted(every_language(table), key=len, reverse=True)
    return "|".join(re.escape(w) if script_of(w) in _UNSPACED else space.format(re.escape(w)) for w in words)


ARTICLE = alternatives(ANSWER_ARTICLES, r"{}\s+")
BEFORE = alternatives(ANSWER_ADJECTIVES_BEFORE, r"{}\s+")
AFTER = alternatives(ANSWER_ADJECTIVES_AFTER, r"\s+{}\b")
COPULA = r"(?:\s*(?:" + alternatives(COPULAS, r"\s{}\b") + "))"


def label_prefix(*tables: Table, separators: str, bare: bool) -> re.Pattern:
    """A reply's label before its answer: "The correct answer is (A)", "La bonne réponse est B", "La respuesta
    correcta es B", "正确答案是B", "正解はB", "정답은 B", "Answer: ...": an article, an adjective before or after
    the label's word (``ANSWER_ARTICLES``, ...), then a copula (Korean's may be the particle of its word: "답은")
    or one of ``separators``; with ``bare``, the word alone too ("Option B")."""
    separator = rf"\s*[{separators}]"
    ending = rf"{COPULA}?{separator}?" if bare else rf"(?:{COPULA}{separator}?|(?<=[은는이가])\s|{separator})"
    return re.compile(rf"^(?:{ARTICLE})?(?:{BEFORE})?{words_regex(*tables)}(?:{AFTER})?{ending}\s*", re.IGNORECASE)


OPEN_PREFIX = label_prefix(ANSWER_WORDS, separators=":\uff1a", bare=False)
LEAD_IN = label_prefix(LEAD_INS, separators=",\uff0c", bare=True)
SENTENCE_END = re.compile(r"[.!?\u3002\uff01\uff1f]\s")
_SENTENCE_OR_LINE = re.compile(r"\n+|(?<=[.!?])\s+|(?<=[\u3002\uff01\uff1f])")


def clean(answer: str) -> str:
    """Without markdown emphasis, surrounding quotes or extra whitespace."""
    return " ".join(_MARKDOWN.sub("", _BULLET.sub("", answer)).split()).strip(_QUOTES)


def comparable(text: str) -> str:
    """``text`` as two answers are compared: case-folded, punctuation and extra whitespace gone."""
    return " ".join(re.sub(r"[^\w\s]", " ", text.casefold()).split())


WORD = re.compile(r"[^\W\d_]+")
# A word, or a mark that ends a clause: a verdict's words are read within one clause ("No es falso" is TRUE, "No, es
# falso" FALSE).
CLAUSE_MARKS = ",;:.!?\u2026\uff0c\u3001\u3002\uff1b\uff1a\uff01\uff1f"
WORD_OR_BREAK = re.compile(rf"[^\W\d_]+|[{CLAUSE_MARKS}]")


_JSON_OBJECT = re.compile(r"\s*(?:```\w*\s*)?(\{.*\})\s*(?:```)?\s*", re.DOTALL)  # '{"answer": "B"}', fenced too
# A line, or a sentence after another, that opens with the answer's label: "Answer: TRUE", "Réponse finale : C",
# "Correct answer: (C)", a heading "### Ответ" over the answer
_LABELLED_LINE = re.compile(
    rf"(?:^|(?<=[.!?\u3002\uff01\uff1f]\s))[^\w\n]*(?:{ARTICLE})?(?:{BEFORE})?{words_regex(ANSWER_WORDS)}(?:{AFTER})?"
    r"\W{0,3}(?:[:\uff1a]|$)",
    re.IGNORECASE | re.MULTILINE,
)
_CONCLUSION = re.compile(rf"{words_regex(CONCLUSION_WORDS)}\s*[,\uff0c\u3001]?\s*", re.IGNORECASE)
_CONCLUSION_CHARS = 40  # what a conclusion's answer takes: "the answer is C.", "la respuesta es la D", "答案是A"


def sentences(answer: str) -> list[str]:
    """An answer's sentences and lines that hold a word; the answer itself where none does."""
    return [piece for piece in _SENTENCE_OR_LINE.split(answer) if WORD.search(piece)] or [answer]


def answer_part(answer: str) -> str:
    """The part of an answer field that gives the answer: a JSON object's one value ('{"answer": "true"}'), or the
    last line that opens with the answer's label after the lines of a rationale ("…\nAnswer: TRUE")."""
    if (value := _json_answer(answer)) is not None:
        return value
    labelled = [m.start() for m in _LABELLED_LINE.finditer(answer)]
    return answer[labelled[-1] :] if labelled and labelled[-1] > 0 else answer


def _json_answer(answer: str) -> str | None:
    """The first value of a JSON object an answer field is ('{"respuesta": "FALSO", "motivo": "…"}'), else None."""
    found = _JSON_OBJECT.fullmatch(answer)
    try:
        values = list(json.loads(found.group(1)).values()) if found else []
    except (json.JSONDecodeError, AttributeError):
        return None
    return values[0] if values and isinstance(values[0], str) else None


def concluded(answer: str, read: Callable[[str], str | None]) -> str | None:
    """What ``read`` reads in ``answer``; where it reads nothing, what it reads in the conclusion of a reasoning
    (after the last "so", "donc", "所以", "따라서": "…, so the answer is C"), unless the answer's first sentence or
    line reads another ("Risposta: D … quindi la risposta corretta è B": none)."""
    label = read(answer)
    conclusions = list(_CONCLUSION.finditer(answer))
    tail = answer[conclusions[-1].end() :] if conclusions else ""
    if label is not None or not tail.strip() or len(clean(tail)) > _CONCLUSION_CHARS:
        return label
    said, opening = read(tail), read(sentences(answer)[0])
    return said if opening in (None, said) else None
