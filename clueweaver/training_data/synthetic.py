"""Synthetic claim verification: TRUE claims from gold answers, FALSE ones by one minimal edit.

* ``option``: a multiple-choice question with its gold option becomes a TRUE claim ("The answer to
  the question "..." is: <option>"); the same sentence with another option is FALSE. The two
  differ only in the option.
* ``entity``: one character or place name of a TRUE claim is replaced (every occurrence) by another
  name that the same book uses often; the claim becomes FALSE.
* ``number``: one number of a TRUE claim (digits, or a number word from two to twelve) is replaced
  by a different one; the claim becomes FALSE.

A FALSE claim must be grounded: it contradicts something the book states. So entity and number
edits start only from TRUE claims the book states (a reference answer with its gold paragraph, a
benchmark's TRUE claim), never from a claim that is only "not contradicted" (a KDSH "consistent"
backstory: editing it gives a claim the book may simply not address; see
``TRUE_MEANS_NOT_CONTRADICTED``), and the replaced name or number must occur in the evidence the
Interpreter reads (``grounding``), so the packet holds the detail the edit contradicts.

Everything is deterministic given the random generator passed in (the builders seed one per item).
A swapped name can occasionally keep a claim true (an alias, a shared trait); the edit kind is
recorded on every example so such noise can be measured or filtered.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from dataclasses import dataclass

from clueweaver.books.narrative import Narrative
from clueweaver.protocol.details import TITLES
from clueweaver.protocol.question import Question

EDIT_KINDS = ("option", "entity", "number")
# Benchmarks whose TRUE label means only "the book does not contradict it": no FALSE edits of them.
TRUE_MEANS_NOT_CONTRADICTED = {"kdsh": "a KDSH 'consistent' backstory is only not contradicted by the book"}
OPTION_CLAIM = 'The answer to the question "{question}" is: {option}'
NUMBER_WORDS = ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve")
_CAPITALIZED = re.compile(r"\b[A-Z][a-z]+(?:-[A-Z][a-z]+)?\b")
# A name in running text: a capitalized word after a lower-case word or a comma (not a sentence start).
_MID_SENTENCE_NAME = re.compile(r"(?<=[a-z,;] )[A-Z][a-z]+(?:-[A-Z][a-z]+)?\b")
_DIGITS = re.compile(r"(?<![\d.,])\d{1,4}(?!\d)(?![.,]\d)")
_NUMBER_WORD = re.compile(r"\b(?:" + "|".join(NUMBER_WORDS) + r")\b", re.IGNORECASE)


@dataclass(frozen=True)
class SyntheticClaim:
    text: str
    label: str  # TRUE or FALSE
    edit: str  # "option" | "entity" | "number" | "statement" (an unedited TRUE claim)
    original: str = ""  # the replaced words
    replacement: str = ""  # what replaced them


def option_claim(question: Question, label: str) -> str:
    return OPTION_CLAIM.format(
        question=question.text.strip().rstrip("?") + "?", option=" ".join(question.options[label].split())
    )


def option_claims(
    question: Question, answer: str, rng: random.Random, false_per_true: int = 1
) -> list[SyntheticClaim]:
    """The TRUE claim of the gold option and ``false_per_true`` FALSE claims of other options."""
    if question.kind != "mcq" or answer not in question.options:
        raise ValueError(f"option claims need a multiple-choice question and its gold option, got {answer!r}")
    wrong = [label for label in question.options if label != answer]
    claims = [SyntheticClaim(option_claim(question, answer), "TRUE", "statement")]
    for label in rng.sample(wrong, min(false_per_true, len(wrong))):
        claims.append(
            SyntheticClaim(
                option_claim(question, label), "FALSE", "option", question.options[answer], question.options[label]
            )
        )
    return claims


_PERSON_CONTEXT = re.compile(
    r"\b(?:" + "|".join(TITLES) + r")\.? ([A-Z][a-z]+)\b|\b(?:said|says|replied|cried|asked) ([A-Z][a-z]+)\b"
    r"|\b([A-Z][a-z]+) (?:said|says|replied|cried|asked)\b"
)
_NAMES: dict[tuple[str, int], dict[str, str]] = {}


def name_inventory(narrative: Narrative, min_count: int = 3) -> dict[str, str]:
    """Names the book uses in running text (capitalized mid-sentence at least ``min_count`` times,
    rarely in lower case, titles left out), most frequent first, each with its kind: "person"
    when it follows a title or a speech verb at least once in twenty uses, else "other" (places,
    ships, planets), so a swap replaces a person by a person and a place by a place. Computed once
    per book and process."""
    key = (narrative.content_hash, min_count)
    if key not in _NAMES:
        text = narrative.text
        mid_sentence = Counter(_MID_SENTENCE_NAME.findall(text))
        lowered = Counter(re.findall(r"\b[a-z]+\b", text))
        as_person = Counter(next(g for g in m.groups() if g) for m in _PERSON_CONTEXT.finditer(text))
        names = [
            (n, c)
            for n, c in mid_sentence.items()
            if c >= min_count and lowered[n.lower()] * 10 < c and n not in TITLES
        ]
        names.sort(key=lambda nc: (-nc[1], nc[0]))
        _NAMES[key] = {n: "person" if as_person[n] * 20 >= c else "other" for n, c in names}
    return _NAMES[key]


def _replace_word(text: str, word: str, replacement: str) -> str:
    return re.sub(rf"\b{re.escape(word)}\b", replacement, text)


def _grounded(detail: str, grounding: str | None) -> bool:
    """Whether ``grounding`` (the evidence text) holds ``detail`` as a whole word (any when None)."""
    return (
        grounding is None or re.search(rf"(?<![\w.]){re.escape(detail)}(?![\w])", grounding, re.IGNORECASE) is not None
    )


def entity_swap(
    claim: str, names: dict[str, str], rng: random.Random, pool: int = 20, grounding: str | None = None
) -> SyntheticClaim | None:
    """``claim`` with one of its names replaced by another of the book's ``pool`` most frequent
    names of the same kind (see ``name_inventory``); None when the claim names nobody the book
    knows (in ``grounding``, when given) or no other name of that kind is left."""
    present = list(dict.fromkeys(w for w in _CAPITALIZED.findall(claim) if w in names and _grounded(w, grounding)))
    if not present:
        return None
    original = rng.choice(present)
    same_kind = [n for n, kind in names.items() if kind == names[original]]
    in_claim = set(_CAPITALIZED.findall(claim))
    others = [n for n in same_kind[:pool] if n not in in_claim]
    if not others:
        return None
    replacement = rng.choice(others)
    return SyntheticClaim(_replace_word(claim, original, replacement), "FALSE", "entity", original, replacement)


def number_swap(claim: str, rng: random.Random, grounding: str | None = None) -> SyntheticClaim | None:
    """``claim`` with one of its numbers (every occurrence) changed; None when it has none (that
    ``grounding`` holds too, when given)."""
    found = list(dict.fromkeys(_DIGITS.findall(claim) + [w.lower() for w in _NUMBER_WORD.findall(claim)]))
    found = [number for number in found if _grounded(number, grounding)]
    if not found:
        return None
    original = rng.choice(found)
    if original.isdigit():
        value = int(original)
        choices = [value + d for d in (-3, -2, -1, 1, 2, 3) if value + d >= 0 and len(str(value + d)) == len(original)]
        replacement = str(rng.choice(choices or [value + 1]))
        text = re.sub(rf"(?<![\d.,]){original}(?![\d.,]\d|\d)", replacement, claim)
    else:
        replacement = rng.choice([w for w in NUMBER_WORDS if w != original])

        def same_case(match: re.Match) -> str:
            return replacement.capitalize() if match.group(0)[0].isupper() else replacement

        text = re.sub(rf"\b{original}\b", same_case, claim, flags=re.IGNORECASE)
    return SyntheticClaim(text, "FALSE", "number", original, replacement)


def false_claims(
    claim: str,
    narrative: Narrative,
    rng: random.Random,
    *,
    edits: tuple[str, ...] = ("entity", "number"),
    count: int = 1,
    grounding: str | None = None,
) -> list[SyntheticClaim]:
    """Up to ``count`` FALSE variants of a TRUE claim the book states, each one edit of a different
    kind, tried in a seeded order among ``edits`` (entity and number; option edits need a question);
    the replaced detail must occur in ``grounding`` (the evidence packet) when given."""
    kinds = [k for k in edits if k in ("entity", "number")]
    rng.shuffle(kinds)
    variants = []
    for kind in kinds:
        if len(variants) >= count:
            break
        if kind == "entity":
            edited = entity_swap(claim, name_inventory(narrative), rng, grounding=grounding)
        else:
            edited = number_swap(claim, rng, grounding)
        if edited is not None and edited.text != claim:
            variants.append(edited)
    return variants
