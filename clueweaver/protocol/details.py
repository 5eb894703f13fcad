"""Specific details of a rationale: the quoted phrases, numbers and names it shares with the
evidence it was given (the Interpreter's specificity reward, Table 6), in any language of
``clueweaver.protocol.cues``.

- A quoted phrase counts when it has 4+ characters, holds a letter, and the evidence contains it
  (compared folded: case, accents, full-width forms and whitespace ignored). Quotation marks of
  every covered language count: "...", “...”, ‘...’, „...“, „...”, ”...”, «...», »...», 「...」, 『...』.
- A number counts when the evidence holds the same number (full-width digits read as plain ones;
  numbers spelled in words or Chinese numerals do not count); paragraph references ("[12]",
  "paragraph 12", "第12段") are neither the rationale's nor the evidence's numbers.
- A capitalized word of the rationale (Latin, Greek or Cyrillic letters) counts when the evidence
  uses it as a name: in running text (after a lower-case word or a comma: "said Korvin", "dit
  Élise"), after a title ("Mr. Knightley", "Mme Bovary"), or at the start of a sentence or
  paragraph ("Brant rowed away.") provided the evidence never writes it in lower case and it is not
  a common sentence opener ("The", "However", "Le", "Der"). Titles themselves are not names.

Limits: Chinese and Japanese have no capitals, so a rationale in them earns specificity with a
quotation or a number, not with a bare name; German capitalizes every noun, so a German noun of
the evidence in running text counts as a name.

What is extracted from an evidence text is computed once per text (a packet is scored against every
completion of its group, and by every reward component), see ``evidence_features``.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from clueweaver.protocol import cues
from clueweaver.protocol.citations import reference_spans
from clueweaver.protocol.cues import every_language
from clueweaver.protocol.text import SPACED_WORD_CHAR, fold

TITLES = every_language(cues.TITLES)
SENTENCE_OPENERS = frozenset(every_language(cues.SENTENCE_OPENERS))
# English, German and Czech, Polish, Hungarian and Romanian, Swedish, French, Russian and Norwegian, Chinese and
# Japanese quotation marks, as (opening, closing).
QUOTATION_MARKS = ('""', "“”", "‘’", "„“", "„”", "””", "«»", "»»", "「」", "『』")  # fmt: skip


def _cased_letters(case) -> str:
    """The letters of the cased scripts (Latin, Greek, Cyrillic) of one case, as a regex class."""
    blocks = (range(0x41, 0x250), range(0x370, 0x530), range(0x1E00, 0x1F00))
    return "[" + "".join(re.escape(chr(c)) for block in blocks for c in block if case(chr(c))) + "]"


_UPPER, _LOWER = _cased_letters(str.isupper), _cased_letters(str.islower)
_LETTER = _cased_letters(lambda c: c.isupper() or c.islower())
_QUOTED = re.compile("|".join(f"{opening}([^{closing}]+){closing}" for opening, closing in QUOTATION_MARKS))
# A number stands alone, or beside CJK characters ("3天").
_NUMBER = re.compile(f"(?<!\\.)(?<!{SPACED_WORD_CHAR})\\d+(?:[.,]\\d+)*(?!{SPACED_WORD_CHAR})")
_CAPITALIZED = _UPPER + _LOWER + "+(?:['\u2019-]" + _LETTER + "+)*"
_WORD_CAPITALIZED = re.compile(r"\b" + _CAPITALIZED)
_IN_RUNNING_TEXT = re.compile(r"(?:\b" + _LOWER + r"[\w'-]*[,;:]?|[,;:])\s+(" + _CAPITALIZED + ")")
_AFTER_TITLE = re.compile(r"\b(?:" + "|".join(map(re.escape, TITLES)) + r")\.?\s+(" + _CAPITALIZED + ")")
_AT_SENTENCE_START = re.compile(
    r"(?:\A|\n|[.!?\u2026][\"'\u201d\u2019\u00bb)]*\s|\]\s)\s*[\"'\u201c\u2018\u201e\u00ab\u00bf\u00a1(]?("
    + _CAPITALIZED
    + ")"
)
_LOWER_CASE_WORD = re.compile(r"\b" + _LOWER + "(?:" + _LOWER + r"|['\u2019-])*\b")


def without_references(text: str) -> str:
    """``text`` with paragraph references blanked out, so "[12]" is not a specific number."""
    for start, end in reference_spans(text):
        text = text[:start] + " " * (end - start) + text[end:]
    return text


def _flat(text: str) -> str:
    return " ".join(fold(text).split())


def _numbers(text: str) -> list[str]:
    """The numbers of ``text`` outside paragraph references, full-width digits read as plain ones."""
    return [unicodedata.normalize("NFKC", number) for number in _NUMBER.findall(without_references(text))]


@dataclass(frozen=True)
class EvidenceFeatures:
    """What specificity compares a rationale with: the evidence flattened, its numbers, its names."""

    flat: str
    numbers: frozenset[str]
    names: frozenset[str]


def evidence_names(evidence: str) -> frozenset[str]:
    """The words the evidence uses as names (see the module doc)."""
    lower_case = {w.lower() for w in _LOWER_CASE_WORD.findall(evidence)}
    names = set(_IN_RUNNING_TEXT.findall(evidence)) | set(_AFTER_TITLE.findall(evidence))
    names |= {
        word
        for word in _AT_SENTENCE_START.findall(evidence)
        if word.lower() not in lower_case and word not in SENTENCE_OPENERS
    }
    return frozenset(names - set(TITLES))


@lru_cache(maxsize=256)
def evidence_features(evidence: str) -> EvidenceFeatures:
    """The evidence's flattened text, numbers and names, computed once per evidence text."""
    return EvidenceFeatures(_flat(evidence), frozenset(_numbers(evidence)), evidence_names(evidence))


def specific_details(rationale: str, evidence: str, min_quote_chars: int = 4) -> list[str]:
    """The quoted phrases, numbers and names of ``rationale`` that the evidence contains."""
    features = evidence_features(evidence)
    details = [
        quote
        for groups in _QUOTED.findall(rationale)
        for quote in groups
        if len(quote.strip()) >= min_quote_chars and re.search(r"[^\W\d_]", quote) and _flat(quote) in features.flat
    ]
    details += [number for number in _numbers(rationale) if number in features.numbers]
    details += [name for name in _WORD_CAPITALIZED.findall(rationale) if name in features.names]
    return details
