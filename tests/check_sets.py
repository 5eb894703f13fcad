"""What every multiple-choice and claim check set must hold, shared by the English, Chinese and
French set tests."""

from __future__ import annotations

from collections import Counter


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
