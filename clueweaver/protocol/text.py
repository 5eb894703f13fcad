"""Word-level text matching shared by the parser, the self-calibration trigger and the rewards, and
the token F1 of a free-text answer against references (open-answer rewards and evaluation).

Cue words ("not", "irrelevant", "cannot determine") must match whole words only: "note" is not
"not" and "causeway" is not "cause". Negative contractions are spelled out first, so "didn't"
and "cannot" match the cue "not" and "doesn't mention" matches "does not mention".
"""

from __future__ import annotations

import re
import string
from collections import Counter
from functools import lru_cache
from typing import Sequence

_CURLY = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u00a0": " "})
_IRREGULAR_NEGATIONS = re.compile(r"\b(?:can't|cannot|won't)\b")
_SPELLED = {"can't": "can not", "cannot": "can not", "won't": "will not"}
_NEGATIVE_CONTRACTION = re.compile(r"n't\b")
_WORD = re.compile(r"[^\W_]+(?:'[^\W_]+)?")


def normalize_for_matching(text: str) -> str:
    """Lower case, straight quotes, and negative contractions spelled out ("didn't" -> "did not",
    "can't" and "cannot" -> "can not", "won't" -> "will not")."""
    text = str(text).translate(_CURLY).lower()
    text = _IRREGULAR_NEGATIONS.sub(lambda m: _SPELLED[m.group(0)], text)
    return _NEGATIVE_CONTRACTION.sub(" not", text)


@lru_cache(maxsize=64)
def phrase_pattern(phrases: tuple[str, ...]) -> re.Pattern:
    """One regex matching any of ``phrases`` as whole words, after the same normalization as the
    text, with any run of whitespace between the words of a phrase. Longest phrases first so the
    reported match is the most specific one."""
    if not phrases:
        return re.compile(r"(?!x)x")  # matches nothing
    alternatives = []
    for phrase in sorted(phrases, key=len, reverse=True):
        words = normalize_for_matching(phrase).split()
        if not words:
            raise ValueError(f"empty cue phrase {phrase!r}")
        alternatives.append(r"\s+".join(re.escape(word) for word in words))
    return re.compile(r"(?<!\w)(?:" + "|".join(alternatives) + r")(?!\w)")


def find_phrases(text: str, phrases: tuple[str, ...]) -> list[str]:
    """The cue phrases present in ``text`` (whole words, case-insensitive), in order of appearance."""
    return [
        " ".join(m.group(0).split()) for m in phrase_pattern(tuple(phrases)).finditer(normalize_for_matching(text))
    ]


def words(text: str) -> list[str]:
    """Words of ``text`` (letters and digits, inner apostrophes kept), as written."""
    return _WORD.findall(str(text))


_ARTICLES = re.compile(r"\b(a|an|the)\b")
_PUNCTUATION = str.maketrans("", "", string.punctuation)


def normalize_answer_text(text: str) -> str:
    """SQuAD's answer normalization: lower case, no punctuation, no articles, single spaces."""
    return " ".join(_ARTICLES.sub(" ", str(text).lower().translate(_PUNCTUATION)).split())


def _f1(prediction_tokens: list[str], reference_tokens: list[str]) -> float:
    common = sum((Counter(prediction_tokens) & Counter(reference_tokens)).values())
    if common == 0:
        return 0.0
    precision, recall = common / len(prediction_tokens), common / len(reference_tokens)
    return 2 * precision * recall / (precision + recall)


def token_f1(prediction: str, references: Sequence[str]) -> float:
    """The best SQuAD token F1 of ``prediction`` against any reference (0 for an empty answer)."""
    tokens = normalize_answer_text(prediction).split()
    if not tokens or not references:
        return 0.0
    return max(_f1(tokens, normalize_answer_text(reference).split() or [""]) for reference in references)
