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
