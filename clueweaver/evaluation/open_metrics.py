"""Scores of free-text answers against reference answers, and the statistics that go with
continuous scores, as plain functions (the way ChronoRAG evaluates NarrativeQA and GutenQA).

- ``rouge_l``: ROUGE-L F-measure from the ``rouge-score`` package, no stemming, over the tokens of
  :func:`clueweaver.protocol.text.text_tokens` (folded, split at punctuation, each Chinese or
  Japanese character a token; on English text the package's own tokens), the best over the references;
- ``token_f1`` (:mod:`clueweaver.protocol.text`, shared with the open-answer rewards): SQuAD's
  token F1 (lower case, punctuation and articles removed; accents folded, character F1 for Chinese
  and Japanese), the best over the references;
- ``embedding_cosine``: cosine of the answer's and each reference's embedding by a dense encoder,
  the best over the references;
- ``gold_citation_recall``: the share of gold evidence paragraphs the answer's reason cites;
- ``is_temporal``: a question with a temporal cue (when, while, during, after, before, and their
  counterparts in every language of :mod:`clueweaver.protocol.cues`), the subset ChronoRAG reports
  on its own.

Wilson intervals are for proportions; continuous scores get percentile-bootstrap 95% intervals
(``bootstrap_interval``), and two systems on the same items a paired bootstrap interval of the
mean difference and a paired sign-flip permutation test (exact up to ``EXACT_PERMUTATION_ITEMS``
items). Every resampling takes a seed, so the same records give the same numbers.
"""

from __future__ import annotations

import itertools
from typing import Sequence

import numpy as np

from clueweaver.core.errors import ClueWeaverError
from clueweaver.protocol import cues
from clueweaver.protocol.text import find_phrases, text_tokens

TEMPORAL_CUES = cues.every_language(cues.TEMPORAL_CUES)
BOOTSTRAP_RESAMPLES = 2000
PERMUTATION_RESAMPLES = 10_000
EXACT_PERMUTATION_ITEMS = 16  # up to 2**16 sign patterns are enumerated; beyond, they are sampled


class MetricUnavailable(ClueWeaverError, RuntimeError):
    """A requested score whose package is not installed (the message says what to install)."""


def _rouge_scorer():
    try:
        from rouge_score import rouge_scorer
    except ImportError:
        raise MetricUnavailable(
            "ROUGE-L needs the rouge-score package: pip install 'clueweaver[eval]' (or pip install rouge-score)"
        ) from None
    return rouge_scorer.RougeScorer(["rougeL"], use_stemmer=False, tokenizer=_LanguageNeutralTokens())


class _LanguageNeutralTokens:
    """The tokenizer ``rouge-score`` takes: its own keeps only ASCII letters and digits, which
    leaves nothing of a Chinese answer and cuts "Élise" to "lise"."""

    def tokenize(self, text: str) -> list[str]:
        return text_tokens(text)


def rouge_l(prediction: str, references: Sequence[str]) -> float:
    """The best ROUGE-L F-measure of ``prediction`` against any reference."""
    if not prediction.strip() or not references:
        return 0.0
    scorer = _rouge_scorer()
    return max(scorer.score(reference, prediction)["rougeL"].fmeasure for reference in references)


def embedding_cosine(prediction: str, references: Sequence[str], encoder) -> float:
    """The best cosine between the embeddings of ``prediction`` and of any reference."""
    if not prediction.strip() or not references:
        return 0.0
    vectors = np.asarray(encoder.encode([prediction, *references]), dtype=np.float64)
    norms = np.linalg.norm(vectors, axis=1)
    norms[norms == 0] = 1.0
    unit = vectors / norms[:, None]
    return float(np.max(unit[1:] @ unit[0]))


def gold_citation_recall(cited_ids: Sequence[int], gold_ids: Sequence[int]) -> float | None:
    """The share of the gold paragraphs the answer cites; None without gold evidence."""
    gold = set(gold_ids)
    return len(gold & set(cited_ids)) / len(gold) if gold else None


def is_temporal(question: str) -> bool:
    """Whether the question carries a temporal cue word (whole words, any case)."""
    return bool(find_phrases(question, TEMPORAL_CUES))


# --- statistics --------------------------------------------------------------------------------


def bootstrap_interval(
    values: Sequence[float], *, resamples: int = BOOTSTRAP_RESAMPLES, seed: int = 0, confidence: float = 0.95
) -> tuple[float, float] | None:
    """Percentile-bootstrap interval of the mean: ``resamples`` resamples of the items with
    replacement (numpy's ``default_rng(seed)``), the (1 - confidence) / 2 and (1 + confidence) / 2
    percentiles of their means (linear interpolation). None for no values."""
    data = np.asarray(values, dtype=np.float64)
    if data.size == 0:
        return None
    rng = np.random.default_rng(seed)
    means = data[rng.integers(0, data.size, size=(resamples, data.size))].mean(axis=1)
    tail = 100 * (1 - confidence) / 2
    low, high = np.percentile(means, [tail, 100 - tail])
    return float(low), float(high)


def _paired_differences(a: Sequence[float], b: Sequence[float]) -> np.ndarray:
    if len(a) != len(b):
        raise ValueError(f"paired scores need the same items in both runs; got {len(a)} and {len(b)}")
    return np.asarray(b, dtype=np.float64) - np.asarray(a, dtype=np.float64)


def paired_bootstrap_interval(
    a: Sequence[float], b: Sequence[float], *, resamples: int = BOOTSTRAP_RESAMPLES, seed: int = 0
) -> tuple[float, float] | None:
    """Bootstrap 95% interval of mean(B - A) over the same items, resampled as pairs."""
    return bootstrap_interval(_paired_differences(a, b), resamples=resamples, seed=seed)


def paired_permutation_test(
    a: Sequence[float], b: Sequence[float], *, resamples: int = PERMUTATION_RESAMPLES, seed: int = 0
) -> float | None:
    """Two-sided p-value of the paired sign-flip permutation test of mean(B - A) = 0: under H0
    each item's difference is as likely negated. Exact (every sign pattern) up to
    ``EXACT_PERMUTATION_ITEMS`` items; beyond, ``resamples`` random patterns and (hits + 1) /
    (resamples + 1). None for no items."""
    differences = _paired_differences(a, b)
    if differences.size == 0:
        return None
    observed = abs(differences.mean()) - 1e-12
    if differences.size <= EXACT_PERMUTATION_ITEMS:
        signs = np.array(list(itertools.product((1.0, -1.0), repeat=differences.size)))
        return float(np.mean(np.abs(signs @ differences) / differences.size >= observed))
    rng = np.random.default_rng(seed)
    signs = rng.choice((1.0, -1.0), size=(resamples, differences.size))
    hits = int(np.sum(np.abs(signs @ differences) / differences.size >= observed))
    return (hits + 1) / (resamples + 1)


def mean_block(values: Sequence[float | None], *, seed: int = 0) -> dict:
    """Items with a score, their mean and its bootstrap 95% interval (None values left out)."""
    scored = [float(v) for v in values if v is not None]
    interval = bootstrap_interval(scored, seed=seed)
    return {
        "items": len(scored),
        "mean": sum(scored) / len(scored) if scored else None,
        "bootstrap95": list(interval) if interval else None,
    }
