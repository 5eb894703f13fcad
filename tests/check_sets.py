"""What every multiple-choice and claim check set must hold, shared by the English, Chinese and
French set tests."""

from __future__ import annotations

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
