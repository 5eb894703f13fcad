"""What every multiple-choice and claim check set must hold, shared by the English, Chinese and
French set tests."""

from __future__ import annotations

import re
from collections import Counter

from clueweaver.benchmarks.checks import MAX_EVIDENCE, MIN_EVIDENCE, MIN_SPREAD


def assert_legal_and_balanced(checks, *, also_legal=()) -> None:
    """Answers legal (``also_legal`` checked for that only), four options a question, a third to a
    half claims of both truth values, answer letters even."""
    for check in [*checks, *also_legal]:
        assert check.answer in check.question.labels, check.id
        if not check.question.is_claim:
            assert len(check.question.options) == 4, check.id
    claims = [c for c in checks if c.question.is_claim]
    assert 0.3 <= len(claims) / len(checks) <= 0.5
    assert Counter(c.answer for c in claims).keys() == {"TRUE", "FALSE"}
    letters = Counter(c.answer for c in checks if not c.question.is_claim)
    assert set(letters) == set("ABCD") and max(letters.values()) - min(letters.values()) <= 2


def assert_distinct_distant_evidence(narrative, check) -> None:
    """2-4 distinct gold paragraphs in order, spread at least MIN_SPREAD, inside the book, none a heading."""
    ids = check.gold_ids
    assert MIN_EVIDENCE <= len(ids) <= MAX_EVIDENCE, check.id
    assert len(set(ids)) == len(ids) and list(ids) == sorted(ids), check.id
    assert ids[-1] - ids[0] >= MIN_SPREAD, f"{check.id}: evidence spans only {ids[-1] - ids[0]} paragraphs"
    assert all(0 <= i < len(narrative) for i in ids), check.id
    assert not any(narrative[i].is_heading for i in ids), f"{check.id}: evidence on a heading"


def copies_a_run(text: str, quote: str, run: int, *, characters: bool = False) -> bool:
    """Whether ``text`` repeats ``run`` words of ``quote`` in a row (``characters``: ``run`` characters,
    for Chinese). Words are compared as joined text, so a run that begins or ends inside a quote's
    word counts too: a guard against copying, not proof of paraphrase."""
    if characters:
        return any(text[i : i + run] in quote for i in range(len(text) - run + 1))
    words, quoted = re.findall(r"\w+", text.lower()), " ".join(re.findall(r"\w+", quote.lower()))
    return any(" ".join(words[i : i + run]) in quoted for i in range(len(words) - run + 1))
