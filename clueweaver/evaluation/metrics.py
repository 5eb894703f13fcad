"""The paper's evaluation numbers as plain functions of per-item outcomes.

Nothing here knows about models or files: every function takes booleans, labels or ID lists, so
the summary of a run and a reader checking it by hand compute the same thing. Rates whose
denominator is zero are ``None`` (not 0): "no citation-bearing output" is not "0% valid".
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import asdict, dataclass
from fractions import Fraction
from statistics import median
from typing import Iterable, Sequence

# Two-sided 95% normal quantile, Phi^-1(0.975).
Z_95 = 1.959963984540054


def _rate(numerator: int, denominator: int) -> float | None:
    return numerator / denominator if denominator else None


def accuracy(correct: Iterable[bool]) -> float | None:
    """Share of True outcomes; None for no items."""
    outcomes = [bool(c) for c in correct]
    return _rate(sum(outcomes), len(outcomes))


def wilson_interval(successes: int, n: int, z: float = Z_95) -> tuple[float, float] | None:
    """Wilson score interval for a binomial proportion (None for n = 0).

    Unlike the normal (Wald) interval it stays inside [0, 1] and is sensible at 0/n and n/n, which
    small evaluation subsets hit often. The bounds are clamped to hold p itself: in floating point
    the lower bound at 0/n comes out a hair above 0 (and the upper at n/n below 1), which would put
    the estimate outside its own interval (and negative error bars in a plot).
    """
    if n < 0 or not 0 <= successes <= n:
        raise ValueError(f"wilson_interval needs 0 <= successes <= n, got {successes}/{n}")
    if n == 0:
        return None
    p = successes / n
    z2 = z * z
    denominator = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denominator
    margin = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denominator
    return min(p, max(0.0, centre - margin)), max(p, min(1.0, centre + margin))


@dataclass(frozen=True)
class PairAccuracy:
    """NoCha's metric: a pair of claims about the same fact counts only when every claim of it is
    right. Pairs with fewer than two scored claims (cut by ``--limit``) are ``incomplete`` and left
    out rather than scored on half the evidence."""

    pairs: int
    correct_pairs: int
    incomplete_pairs: int

    @property
    def accuracy(self) -> float | None:
        return _rate(self.correct_pairs, self.pairs)

    def to_dict(self) -> dict:
        interval = wilson_interval(self.correct_pairs, self.pairs)
        return {**asdict(self), "accuracy": self.accuracy, "wilson95": list(interval) if interval else None}


def pair_accuracy(outcomes: Iterable[tuple[str, bool]]) -> PairAccuracy:
    """From (pair_id, correct) per scored claim."""
    by_pair: dict[str, list[bool]] = defaultdict(list)
    for pair_id, correct in outcomes:
        by_pair[pair_id].append(bool(correct))
    complete = [claims for claims in by_pair.values() if len(claims) >= 2]
    return PairAccuracy(
        pairs=len(complete),
        correct_pairs=sum(all(claims) for claims in complete),
        incomplete_pairs=len(by_pair) - len(complete),
    )


def _check_paired(a: Sequence[bool], b: Sequence[bool]) -> None:
    if len(a) != len(b):
        raise ValueError(f"paired outcomes need the same items in both runs; got {len(a)} and {len(b)}")


@dataclass(frozen=True)
class Transitions:
    """How outcomes change from system A to system B on the same items."""

    fixed: int  # A wrong, B right
    broken: int  # A right, B wrong
    both_right: int
    both_wrong: int

    def to_dict(self) -> dict:
        return asdict(self)


def error_transitions(a_correct: Sequence[bool], b_correct: Sequence[bool]) -> Transitions:
    """Outcomes of A and B on the same items, in the same order."""
    _check_paired(a_correct, b_correct)
    pairs = [(bool(a), bool(b)) for a, b in zip(a_correct, b_correct)]
    return Transitions(
        fixed=pairs.count((False, True)),
        broken=pairs.count((True, False)),
        both_right=pairs.count((True, True)),
        both_wrong=pairs.count((False, False)),
    )


@dataclass(frozen=True)
class McNemar:
    """Exact two-sided McNemar test: under H0 the discordant items split 50/50, so
    p = min(1, 2 * P[Binomial(b + c, 1/2) <= min(b, c)])."""

    a_only: int  # items A gets right and B wrong (b)
    b_only: int  # items B gets right and A wrong (c)
    p_value: float

    @property
    def discordant(self) -> int:
        return self.a_only + self.b_only

    def to_dict(self) -> dict:
        return {**asdict(self), "discordant": self.discordant}


def mcnemar_exact(a_correct: Sequence[bool], b_correct: Sequence[bool]) -> McNemar:
    """Paired exact test between two systems on identical items (same order)."""
    transitions = error_transitions(a_correct, b_correct)
    b, c = transitions.broken, transitions.fixed
    n = b + c
    # exact rational arithmetic: no underflow for thousands of discordant items
    tail = Fraction(sum(math.comb(n, k) for k in range(min(b, c) + 1)), 2**n)
    return McNemar(a_only=b, b_only=c, p_value=float(min(Fraction(1), 2 * tail)))


@dataclass(frozen=True)
class CitationAudit:
    """The paper's citation audit. ``valid`` means the cited paragraph ID is in the evidence the
    model was shown (its packet). ``all_valid_rate`` is over citation-bearing outputs."""

    outputs: int
    citation_bearing: int
    cited_ids: int
    valid_ids: int
    all_valid: int

    def to_dict(self) -> dict:
        return {
            **asdict(self),
            "citation_bearing_rate": _rate(self.citation_bearing, self.outputs),
            "valid_id_rate": _rate(self.valid_ids, self.cited_ids),
            "all_valid_rate": _rate(self.all_valid, self.citation_bearing),
        }


def citation_audit(outputs: Iterable[tuple[Sequence[int], Sequence[int]]]) -> CitationAudit:
    """From (valid cited IDs, invalid cited IDs) per output, as the protocol parser splits them
    against the packet's paragraph IDs."""
    count = bearing = cited = valid = all_valid = 0
    for valid_ids, invalid_ids in outputs:
        count += 1
        n_valid, n_invalid = len(set(valid_ids)), len(set(invalid_ids))
        cited += n_valid + n_invalid
        valid += n_valid
        if n_valid + n_invalid:
            bearing += 1
            all_valid += n_invalid == 0
    return CitationAudit(count, bearing, cited, valid, all_valid)


@dataclass(frozen=True)
class FormatAudit:
    """``format_valid``: both ``<reason>`` and ``<answer>`` present; ``answer_legal``: the answer
    normalizes to a legal label; ``well_formed``: both."""

    outputs: int
    format_valid: int
    answer_legal: int
    well_formed: int

    def to_dict(self) -> dict:
        return {
            **asdict(self),
            "format_valid_rate": _rate(self.format_valid, self.outputs),
            "answer_legal_rate": _rate(self.answer_legal, self.outputs),
            "well_formed_rate": _rate(self.well_formed, self.outputs),
        }


def format_audit(outputs: Iterable[tuple[bool, bool]]) -> FormatAudit:
    """From (format_valid, answer_legal) per output."""
    flags = [(bool(f), bool(a)) for f, a in outputs]
    return FormatAudit(
        outputs=len(flags),
        format_valid=sum(f for f, _ in flags),
        answer_legal=sum(a for _, a in flags),
        well_formed=sum(f and a for f, a in flags),
    )


def percentile(values: Sequence[float], q: float) -> float:
    """Linear-interpolation percentile (numpy's default), ``q`` in [0, 100]."""
    if not values:
        raise ValueError("percentile of no values")
    ordered = sorted(values)
    position = (len(ordered) - 1) * q / 100
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def latency_stats(seconds: Sequence[float]) -> dict | None:
    """Mean, median, 90th percentile, max and total seconds; None for no values."""
    values = [float(s) for s in seconds]
    if not values:
        return None
    return {
        "items": len(values),
        "mean": sum(values) / len(values),
        "median": median(values),
        "p90": percentile(values, 90),
        "max": max(values),
        "total": sum(values),
    }
