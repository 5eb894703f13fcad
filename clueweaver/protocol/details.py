"""Specific details of a rationale: the quoted phrases, numbers and names it shares with the
evidence it was given (the Interpreter's specificity reward, Table 6).

- A quoted phrase counts when it has 4+ characters, holds a letter, and the evidence contains it
  (case and whitespace ignored).
- A number counts when the evidence holds the same number; paragraph references ("[12]",
  "paragraph 12") are neither the rationale's nor the evidence's numbers.
- A capitalized word of the rationale counts when the evidence uses it as a name: in running text
  (after a lower-case word or a comma: "said Korvin"), after a title ("Mr. Knightley", "Lady
  Russell"), or at the start of a sentence or paragraph ("Brant rowed away.") provided the
  evidence never writes it in lower case and it is not a common sentence opener ("The", "However").
  Titles themselves are not names.

What is extracted from an evidence text is computed once per text (a packet is scored against every
completion of its group, and by every reward component), see ``evidence_features``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from clueweaver.protocol.parse import reference_spans

TITLES = (
    "Mr", "Mrs", "Miss", "Ms", "Dr", "Sir", "Lady", "Lord", "Madam", "Madame", "Monsieur", "Mademoiselle",
    "Captain", "Colonel", "Major", "General", "Professor", "Uncle", "Aunt", "Father", "Mother", "Saint",
)  # fmt: skip
# Words that open sentences without being names, for short evidence that never shows them in lower case.
SENTENCE_OPENERS = frozenset(
    "A About After Again All Also Although An And Another Any As At Because Before Both But By Each Even Every "
    "For From He Her Here Hers Him His How However I If In Into It Its Just Let Many Me More Most My Neither "
    "No Nor Not Now Of Oh On Once One Only Or Our Perhaps She So Some Still Such That The Their Them Then There "
    "These They This Those Though Thus To Too Under Until Upon We Well What When Where Whether Which While Who "
    "Whom Whose Why With Yes Yet You Your".split()
)

_QUOTED = re.compile(r'"([^"]+)"|\u201c([^\u201d]+)\u201d|\u2018([^\u2019]+)\u2019')
_NUMBER = re.compile(r"(?<![\w.])\d+(?:[.,]\d+)*(?!\w)")
_CAPITALIZED = r"[A-Z][a-z]+(?:['\u2019-][A-Za-z]+)*"
_WORD_CAPITALIZED = re.compile(r"\b" + _CAPITALIZED)
_IN_RUNNING_TEXT = re.compile(r"(?:\b[a-z][\w'-]*[,;:]?|[,;:])\s+(" + _CAPITALIZED + ")")
_AFTER_TITLE = re.compile(r"\b(?:" + "|".join(TITLES) + r")\.?\s+(" + _CAPITALIZED + ")")
_AT_SENTENCE_START = re.compile(
    r"(?:\A|\n|[.!?][\"'\u201d\u2019)]*\s|\]\s)\s*[\"'\u201c\u2018(]?(" + _CAPITALIZED + ")"
)
_LOWER_CASE_WORD = re.compile(r"\b[a-z][a-z'\u2019-]*\b")


def without_references(text: str) -> str:
    """``text`` with paragraph references blanked out, so "[12]" is not a specific number."""
    for start, end in reference_spans(text):
        text = text[:start] + " " * (end - start) + text[end:]
    return text


def _flat(text: str) -> str:
    return " ".join(text.casefold().split())


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
    return EvidenceFeatures(
        _flat(evidence), frozenset(_NUMBER.findall(without_references(evidence))), evidence_names(evidence)
    )


def specific_details(rationale: str, evidence: str, min_quote_chars: int = 4) -> list[str]:
    """The quoted phrases, numbers and names of ``rationale`` that the evidence contains."""
    features = evidence_features(evidence)
    details = [
        quote
        for groups in _QUOTED.findall(rationale)
        for quote in groups
        if len(quote.strip()) >= min_quote_chars and re.search(r"[^\W\d_]", quote) and _flat(quote) in features.flat
    ]
    details += [n for n in _NUMBER.findall(without_references(rationale)) if n in features.numbers]
    details += [name for name in _WORD_CAPITALIZED.findall(rationale) if name in features.names]
    return details
