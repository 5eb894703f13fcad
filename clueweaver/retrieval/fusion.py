"""Rank fusion: rankings from score vectors, reciprocal rank fusion and weighted score fusion.

Rankings are lists of ``(paragraph_id, score)``, best first; ties go to the earlier paragraph.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

RRF_K = 60


def ranking_from_scores(scores: np.ndarray, limit: int | None = None) -> list[tuple[int, float]]:
    """Indices sorted by descending score (ties by index: narrative order); ``limit`` caps length."""
    order = np.lexsort((np.arange(len(scores)), -np.asarray(scores)))
    if limit is not None:
        order = order[:limit]
    return [(int(i), float(scores[i])) for i in order]


def reciprocal_rank_fusion(
    rankings: Sequence[Sequence[tuple[int, float]]], k: int = RRF_K, weights: Sequence[float] | None = None
) -> list[tuple[int, float]]:
    """RRF (Cormack et al., 2009): score(d) = sum_i w_i / (k + rank_i(d)), with rank counted from 1
    (the best item of each ranking adds w / (k + 1)). Items absent from a ranking add nothing."""
    weights = weights or [1.0] * len(rankings)
    fused: dict[int, float] = {}
    for ranking, weight in zip(rankings, weights):
        for rank, (item, _score) in enumerate(ranking, start=1):
            fused[item] = fused.get(item, 0.0) + weight / (k + rank)
    return sorted(fused.items(), key=lambda pair: (-pair[1], pair[0]))


def reciprocal_rank_fusion_of_scores(
    score_lists: Sequence[np.ndarray],
    weights: Sequence[float],
    positive_only: Sequence[bool],
    k: int = RRF_K,
) -> list[tuple[int, float]]:
    """``reciprocal_rank_fusion`` of the rankings of score vectors (``ranking_from_scores``; those
    flagged ``positive_only`` keep only their positive entries), in numpy: the same fused scores,
    added in the same order, and the same order of items, without a Python loop over every
    paragraph of every ranking (a novel has thousands, and a question fuses five rankings or more)."""
    size = len(score_lists[0])
    fused, present = np.zeros(size), np.zeros(size, dtype=bool)
    for scores, weight, positive in zip(score_lists, weights, positive_only):
        scores = np.asarray(scores, dtype=np.float64)
        order = np.lexsort((np.arange(len(scores)), -scores))
        if positive:
            order = order[scores[order] > 0]
        fused[order] += weight / (k + np.arange(1, len(order) + 1))
        present[order] = True
    items = np.flatnonzero(present)
    ranked = items[np.lexsort((items, -fused[items]))]
    return list(zip(ranked.tolist(), fused[ranked].tolist()))


def weighted_score_fusion(score_lists: Sequence[np.ndarray], weights: Sequence[float] | None = None) -> np.ndarray:
    """Min-max normalize each score vector to [0, 1], then take the weighted sum."""
    weights = weights or [1.0] * len(score_lists)
    total = np.zeros(len(score_lists[0]))
    for scores, weight in zip(score_lists, weights):
        scores = np.asarray(scores, dtype=np.float64)
        span = scores.max() - scores.min()
        if span > 0:
            total += weight * (scores - scores.min()) / span
    return total
