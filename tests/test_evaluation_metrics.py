"""Evaluation metrics against cases computed by hand (the arithmetic is written beside each)."""

from __future__ import annotations

import math

import pytest

from clueweaver.evaluation.metrics import (
    Z_95,
    accuracy,
    citation_audit,
    error_transitions,
    format_audit,
    latency_stats,
    mcnemar_exact,
    pair_accuracy,
    percentile,
    wilson_interval,
)


def test_z_is_the_two_sided_95_percent_normal_quantile():
    # Phi(z) = (1 + erf(z / sqrt 2)) / 2 must be 0.975
    assert (1 + math.erf(Z_95 / math.sqrt(2))) / 2 == pytest.approx(0.975, abs=1e-12)


def test_accuracy_counts_true_outcomes_and_is_undefined_without_items():
    assert accuracy([True, False, True, True]) == 0.75  # 3 / 4
    assert accuracy([]) is None


def test_wilson_interval_8_of_10():
    # p = 0.8, n = 10, z = 1.959964, z^2 = 3.8414588
    # denominator = 1 + z^2/n = 1.38414588
    # centre = (p + z^2/(2n)) / denominator = (0.8 + 0.19207294) / 1.38414588 = 0.71674016
    # margin = z * sqrt(p(1-p)/n + z^2/(4n^2)) / denominator
    #        = z * sqrt(0.016 + 0.00960365) / 1.38414588 = 1.959964 * 0.16001140 / 1.38414588 = 0.22657770
    # interval = (0.4901625, 0.9433179)
    low, high = wilson_interval(8, 10)
    assert low == pytest.approx(0.4901625, abs=1e-6)
    assert high == pytest.approx(0.9433179, abs=1e-6)


def test_wilson_interval_at_zero_successes_stays_inside_the_unit_interval():
    # p = 0, n = 5: centre = (z^2/10) / (1 + z^2/5) = 0.3841459 / 1.7682918 = 0.2172414
    # margin = z * sqrt(z^2/100) / 1.7682918 = (z^2/10) / 1.7682918 = 0.2172414, so (0, 0.4344828)
    low, high = wilson_interval(0, 5)
    assert low == 0.0
    assert high == pytest.approx(0.4344828, abs=1e-6)
    # symmetric case 5/5 mirrors it
    low, high = wilson_interval(5, 5)
    assert (low, high) == (pytest.approx(1 - 0.4344828, abs=1e-6), 1.0)


def test_wilson_interval_holds_the_estimate_at_every_extreme_up_to_500():
    # at 0/n and n/n, floating point used to put the bound a hair past p (a negative error bar)
    for n in range(1, 501):
        assert wilson_interval(0, n)[0] == 0.0 and wilson_interval(0, n)[1] > 0
        assert wilson_interval(n, n)[1] == 1.0 and wilson_interval(n, n)[0] < 1
        for successes in (1, n // 2, n - 1):
            low, high = wilson_interval(successes, n)
            assert low <= successes / n <= high


def test_wilson_interval_edge_cases():
    assert wilson_interval(0, 0) is None
    with pytest.raises(ValueError, match="successes <= n"):
        wilson_interval(3, 2)


def test_pair_accuracy_counts_a_pair_only_when_both_claims_are_right():
    outcomes = [
        ("p1", True),
        ("p1", True),  # right pair
        ("p2", True),
        ("p2", False),  # half right: does not count
        ("p3", False),
        ("p3", False),
        ("p4", True),  # its partner was cut off: incomplete
    ]
    result = pair_accuracy(outcomes)
    # complete pairs p1, p2, p3; only p1 counts: 1 / 3
    assert (result.pairs, result.correct_pairs, result.incomplete_pairs) == (3, 1, 1)
    assert result.accuracy == pytest.approx(1 / 3)
    # claim accuracy of the same outcomes would be 4 / 7: pair accuracy is much stricter
    assert accuracy(c for _, c in outcomes) == pytest.approx(4 / 7)
    data = result.to_dict()
    assert data["wilson95"] == pytest.approx(list(wilson_interval(1, 3)))
    assert pair_accuracy([]).accuracy is None


def test_error_transitions_between_two_systems():
    a = [True, True, False, False, True, False]
    b = [True, False, True, False, True, True]
    # item: 0 both right, 1 broken, 2 fixed, 3 both wrong, 4 both right, 5 fixed
    t = error_transitions(a, b)
    assert (t.fixed, t.broken, t.both_right, t.both_wrong) == (2, 1, 2, 1)
    with pytest.raises(ValueError, match="same items"):
        error_transitions([True], [True, False])


def test_mcnemar_exact_one_against_six():
    # b = 1 (A right, B wrong), c = 6; n = 7 discordant
    # P[X <= 1] = (C(7,0) + C(7,1)) / 2^7 = 8 / 128 = 0.0625; p = 2 * 0.0625 = 0.125
    a = [True] + [False] * 6 + [True, False]
    b = [False] + [True] * 6 + [True, False]
    result = mcnemar_exact(a, b)
    assert (result.a_only, result.b_only, result.discordant) == (1, 6, 7)
    assert result.p_value == pytest.approx(0.125, abs=1e-15)


def test_mcnemar_exact_zero_against_five_and_ties():
    # b = 0, c = 5: P[X <= 0] = 1 / 32; p = 2 / 32 = 0.0625
    assert mcnemar_exact([False] * 5, [True] * 5).p_value == pytest.approx(0.0625, abs=1e-15)
    # b = c = 3: P[X <= 3] = (1 + 6 + 15 + 20) / 64 = 42/64; 2 * 42/64 > 1, so p = 1
    a = [True] * 3 + [False] * 3
    assert mcnemar_exact(a, [not x for x in a]).p_value == 1.0
    # no discordant items: nothing to test, p = 1
    assert mcnemar_exact([True, False], [True, False]).p_value == 1.0


def test_mcnemar_exact_stays_finite_with_many_discordant_items():
    # b = 0, c = 2000: p = 2 / 2^2000, below the smallest float: 0.0, not an error
    assert mcnemar_exact([False] * 2000, [True] * 2000).p_value == 0.0
    # b = 400, c = 600 of 1000: clearly significant, between 0 and 1e-9
    a = [True] * 400 + [False] * 600
    p = mcnemar_exact(a, [not x for x in a]).p_value
    assert 0 < p < 1e-9


def test_citation_audit_valid_means_inside_the_packet():
    outputs = [
        ((3, 4), ()),  # bearing, 2 valid, all valid
        ((5,), (99,)),  # bearing, 1 valid + 1 invalid, not all valid
        ((), ()),  # no citation
        ((), (7, 8)),  # bearing, 2 invalid
    ]
    audit = citation_audit(outputs).to_dict()
    # outputs 4; bearing 3; cited IDs 2 + 2 + 0 + 2 = 6; valid 2 + 1 = 3; all-valid 1 (the first)
    assert (
        audit["outputs"],
        audit["citation_bearing"],
        audit["cited_ids"],
        audit["valid_ids"],
        audit["all_valid"],
    ) == (4, 3, 6, 3, 1)
    assert audit["citation_bearing_rate"] == 0.75  # 3 / 4
    assert audit["valid_id_rate"] == 0.5  # 3 / 6
    assert audit["all_valid_rate"] == pytest.approx(1 / 3)  # 1 / 3 bearing
    empty = citation_audit([((), ())]).to_dict()
    assert empty["valid_id_rate"] is None and empty["all_valid_rate"] is None


def test_format_audit():
    audit = format_audit([(True, True), (True, False), (False, True), (False, False), (True, True)]).to_dict()
    # both tags: 3 of 5; legal answer: 3 of 5; both: 2 of 5
    assert (audit["format_valid"], audit["answer_legal"], audit["well_formed"]) == (3, 3, 2)
    assert audit["well_formed_rate"] == 0.4


def test_latency_stats_and_percentile():
    values = [1.0, 2.0, 3.0, 4.0, 10.0]
    # p90: position (5 - 1) * 0.9 = 3.6 -> 4 + (10 - 4) * 0.6 = 7.6
    assert percentile(values, 90) == pytest.approx(7.6)
    assert percentile([5.0], 90) == 5.0
    stats = latency_stats(values)
    assert stats == {"items": 5, "mean": 4.0, "median": 3.0, "p90": pytest.approx(7.6), "max": 10.0, "total": 20.0}
    assert latency_stats([]) is None
