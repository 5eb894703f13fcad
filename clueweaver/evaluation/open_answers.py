"""Open questions in an evaluation run: their records, summaries and paired comparisons.

An open item's record is a scored record (see :mod:`clueweaver.evaluation.predictions`) whose
``prediction`` is the free-text answer and whose ``correct`` is null (no label to match); it adds::

    {"references": ["...", ...], "gold_evidence": [412], "temporal": false,
     "scores": {"rouge_l": 0.42, "token_f1": 0.5, "embedding_cosine": 0.81, "judge": 1,
                "gold_citation_recall": 1.0},
     "not_scored": {"judge": "the LLM judge is off (--judge-url, --judge-model)"},
     "scored_with": {"embedding_cosine": "<the scoring encoder's name>", "judge": null, "judge_gold_passage": true}}

A score that was not computed is null and ``not_scored`` says why (the judge is off by default;
gold-citation recall needs gold evidence), so a summary never passes a missing score off as a
zero. An answer the pipeline could not read (a flagged fallback) scores 0 on every metric. The
summary reports each score's mean with a bootstrap 95% interval, over all open items and over the
temporal-cue subset; ``compare_open`` gives paired bootstrap intervals and permutation tests.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from clueweaver.evaluation.judge import Judge, JudgeConfig
from clueweaver.evaluation.open_metrics import (
    embedding_cosine,
    gold_citation_recall,
    is_temporal,
    mean_block,
    paired_bootstrap_interval,
    paired_permutation_test,
    rouge_l,
)
from clueweaver.evaluation.tables import markdown_table
from clueweaver.protocol.text import token_f1
from clueweaver.retrieval.dense import load_encoder

OPEN_METRICS = ("rouge_l", "token_f1", "embedding_cosine", "judge", "gold_citation_recall")
METRIC_NAMES = {
    "rouge_l": "ROUGE-L",
    "token_f1": "token F1",
    "embedding_cosine": "embedding cosine",
    "judge": "LLM judge",
    "gold_citation_recall": "gold citation recall",
}
JUDGE_CACHE_FILE = "judge_cache.jsonl"
NO_ENCODER = (
    "no scoring encoder: pass --scoring-encoder minilm (English), e5 (any language), bge-m3 or a "
    "sentence-transformers model; it is "
    "independent of the encoder the run retrieves with (--encoder)"
)


def is_open_record(record: dict) -> bool:
    return record.get("kind") == "open"


class OpenScorer:
    """Scores free-text answers: ROUGE-L and token F1 always, embedding cosine with the scoring
    encoder (``--scoring-encoder``, independent of the encoder the run retrieves with) when one is
    named, the LLM judge when configured; ``scored_with`` says which encoder and judge scored."""

    def __init__(self, encoder=None, judge: Callable | None = None) -> None:
        self.encoder, self.judge = encoder, judge

    @classmethod
    def for_run(cls, scoring_encoder, judge_settings: dict, run_folder: Path) -> "OpenScorer":
        judge_config = JudgeConfig.from_dict(judge_settings)
        judge = Judge(judge_config, run_folder / JUDGE_CACHE_FILE) if judge_config else None
        return cls(load_encoder(scoring_encoder) if scoring_encoder else None, judge)

    @property
    def scored_with(self) -> dict:
        return {
            "embedding_cosine": getattr(self.encoder, "name", None),
            "judge": self.judge.config.model if self.judge is not None else None,
        }

    def scores(
        self, question: str, prediction: str | None, references, cited_ids, gold, gold_passage: str = ""
    ) -> tuple[dict, dict]:
        """(scores, not_scored reasons) of one answer; no answer scores 0 without asking the judge,
        which sees ``gold_passage`` (the gold evidence's text) beside the references."""
        answer = prediction or ""
        scores = {
            "rouge_l": rouge_l(answer, references),
            "token_f1": token_f1(answer, references),
            "embedding_cosine": embedding_cosine(answer, references, self.encoder) if self.encoder else None,
            "judge": None,
            "gold_citation_recall": gold_citation_recall(cited_ids, gold),
        }
        missing = {}
        if self.encoder is None:
            missing["embedding_cosine"] = NO_ENCODER
        if self.judge is None:
            missing["judge"] = "the LLM judge is off (--judge-url, --judge-model)"
        elif not answer:
            scores["judge"] = 0
        else:
            verdict = self.judge(question, references, answer, gold_passage)
            scores["judge"] = verdict["score"]
            if verdict["score"] is None:
                missing["judge"] = f"unreadable judge reply {verdict['reply'][:80]!r}"
        if not gold:
            missing["gold_citation_recall"] = "no gold evidence for this item"
        return scores, missing

    def close(self) -> None:
        if self.judge is not None:
            self.judge.close()


def score_open_record(record: dict, item, scorer: OpenScorer, narrative=None) -> dict:
    """A runner's scored record of an open item, with its references and scores (see module doc);
    ``narrative`` gives the gold passage's text to the judge."""
    gold_passage = narrative.render(list(item.gold_evidence)) if narrative is not None and item.gold_evidence else ""
    scores, missing = scorer.scores(
        item.question.text, record["prediction"], item.references, record["cited_ids"], item.gold_evidence,
        gold_passage,
    )  # fmt: skip
    return {
        **record,
        "correct": None,
        "references": list(item.references),
        "gold_evidence": list(item.gold_evidence),
        "temporal": is_temporal(item.question.text),
        "scores": scores,
        "not_scored": missing,
        "scored_with": {**scorer.scored_with, "judge_gold_passage": bool(gold_passage)},
    }


# --- summaries ----------------------------------------------------------------------------------


def _metric_blocks(records: list[dict], seed: int) -> dict:
    return {metric: mean_block([r["scores"].get(metric) for r in records], seed=seed) for metric in OPEN_METRICS}


def open_summary(records: list[dict], *, seed: int = 0) -> dict | None:
    """Mean scores with bootstrap 95% intervals over the open records, and over their temporal-cue
    subset; the reasons scores were not computed, counted. None without open records."""
    if not records:
        return None
    temporal = [r for r in records if r["temporal"]]
    reasons: dict[str, dict[str, int]] = {}
    for record in records:
        for metric, why in record["not_scored"].items():
            reasons.setdefault(metric, {}).setdefault(why, 0)
            reasons[metric][why] += 1
    return {
        "items": len(records),
        "temporal_items": len(temporal),
        "all": _metric_blocks(records, seed),
        "temporal": _metric_blocks(temporal, seed) if temporal else None,
        "not_scored": reasons,
    }


def _paired_metric(a_records: list[dict], b_records: list[dict], metric: str, seed: int) -> dict | None:
    pairs = [
        (ra["scores"][metric], rb["scores"][metric])
        for ra, rb in zip(a_records, b_records)
        if ra["scores"].get(metric) is not None and rb["scores"].get(metric) is not None
    ]
    if not pairs:
        return None
    a, b = [p[0] for p in pairs], [p[1] for p in pairs]
    interval = paired_bootstrap_interval(a, b, seed=seed)
    return {
        "items": len(pairs),
        "a": sum(a) / len(a),
        "b": sum(b) / len(b),
        "difference": (sum(b) - sum(a)) / len(pairs),
        "bootstrap95": list(interval) if interval else None,
        "permutation_p": paired_permutation_test(a, b, seed=seed),
    }


def compare_open(a_records: list[dict], b_records: list[dict], *, seed: int = 0) -> dict:
    """Paired comparison of two runs' open records on the same items (same order): per score, the
    means, the mean difference B - A with its paired bootstrap 95% interval and the permutation
    test's p-value, over all items and over the temporal-cue subset."""
    temporal = [n for n, record in enumerate(a_records) if record["temporal"]]

    def block(indices: list[int]) -> dict:
        a, b = [a_records[n] for n in indices], [b_records[n] for n in indices]
        return {metric: _paired_metric(a, b, metric, seed) for metric in OPEN_METRICS}

    return {
        "items": len(a_records),
        "all": block(list(range(len(a_records)))),
        "temporal": block(temporal) if temporal else None,
    }


# --- Markdown ---------------------------------------------------------------------------------


def _cell(block: dict | None) -> str:
    if not block or block["mean"] is None:
        return "–"
    low, high = block["bootstrap95"]
    return f"{block['mean']:.3f} [{low:.3f}, {high:.3f}] n={block['items']}"


def open_markdown(summaries: dict[str, dict]) -> str:
    """The open-answer table (one row per system and subset; cells: mean [bootstrap 95%] n) and
    the reasons scores were not computed; empty when no summary has open answers."""
    rows, notes = [], []
    for label, summary in summaries.items():
        block = summary.get("open_answers")
        if not block:
            continue
        for subset in ("all", "temporal"):
            if block[subset]:
                items = block["items"] if subset == "all" else block["temporal_items"]
                rows.append([label, f"{subset} ({items})", *(_cell(block[subset][m]) for m in OPEN_METRICS)])
        for metric, reasons in block["not_scored"].items():
            for why, count in reasons.items():
                notes.append(f"- {label}: {METRIC_NAMES[metric]} not computed for {count} item(s): {why}")
    if not rows:
        return ""
    legend = "Mean [bootstrap 95% interval] n=items; temporal: questions with when, while, during, after or before."
    lines = ["## Open answers", "", legend, ""]
    lines += markdown_table(["system", "questions", *(METRIC_NAMES[m] for m in OPEN_METRICS)], rows)
    return "\n".join(lines + ([""] + notes if notes else [])) + "\n"


def compare_open_markdown(result: dict, label_a: str, label_b: str) -> str:
    """The paired open-answer comparison: one row per score and subset."""
    rows = []
    for subset in ("all", "temporal"):
        for metric, block in (result[subset] or {}).items():
            if block is None:
                continue
            low, high = block["bootstrap95"]
            rows.append([
                f"{METRIC_NAMES[metric]} ({subset})", str(block["items"]), f"{block['a']:.3f}", f"{block['b']:.3f}",
                f"{block['difference']:+.3f} [{low:+.3f}, {high:+.3f}]", f"{block['permutation_p']:.4g}",
            ])  # fmt: skip
    lines = [
        f"## Open answers: {label_a} vs {label_b} (paired, identical items)",
        "",
        "Difference = B - A with its paired bootstrap 95% interval; p: paired sign-flip permutation test.",
        "",
    ]
    lines += markdown_table(["score", "items", label_a, label_b, "difference", "permutation p"], rows)
    return "\n".join(lines) + "\n"
