"""Retrieval diagnostics that need no language model: how much gold evidence the candidate
segments and the packed evidence contain, beside plain BM25 given the same number of paragraphs.

Multi-hop items have several gold paragraphs; an item counts as *fully covered* only when all of
them are among the candidates, and *evidence recall* is the mean fraction of gold paragraphs found.
The multi-hop subset (two gold paragraphs or more) is also reported on its own: the issues' bars
for open and other-language questions are set on it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Sequence

from rank_bm25 import BM25Okapi
from tqdm import tqdm

from clueweaver.books.narrative import Narrative
from clueweaver.protocol.question import Question
from clueweaver.retrieval import RetrievalIndex, get_index, joined_query, ranking_from_scores
from clueweaver.retrieval.analyzers import Analyzer, plain_analyzer
from clueweaver.segments.packing import pack
from clueweaver.segments.segmenter import NoMatchError, Preset, get_preset, segment_narrative

_PLAIN_INDEXES: dict[tuple[str, str], BM25Okapi] = {}  # by book and language: a recall run asks many questions of each


def _plain_bm25(narrative: Narrative, analyzer: Analyzer) -> BM25Okapi:
    key = (narrative.content_hash, analyzer.language)
    if key not in _PLAIN_INDEXES:
        if len(_PLAIN_INDEXES) >= 8:
            _PLAIN_INDEXES.pop(next(iter(_PLAIN_INDEXES)))
        _PLAIN_INDEXES[key] = BM25Okapi([analyzer.tokenize(p.text) for p in narrative.paragraphs])
    return _PLAIN_INDEXES[key]


def plain_bm25_ranking(index: RetrievalIndex, question: Question, *, per_option: bool = False) -> list[int]:
    """Paragraph IDs, best first, by the reference baseline: rank-bm25's Okapi over the units of the
    book's language with no word left out (``plain_analyzer``: stemmed words with their stop words;
    character bigrams and unigrams in Chinese and Japanese), with the question and its options joined
    into ONE query (``per_option``: scores summed over the question and each question-plus-option
    query)."""
    analyzer = plain_analyzer(index.language)
    bm25 = _plain_bm25(index.narrative, analyzer)
    queries = question.queries() if per_option else [joined_query(question)]
    scores = sum(bm25.get_scores(analyzer.tokenize(query)) for query in queries)
    return [i for i, _ in ranking_from_scores(scores)]


@dataclass(frozen=True)
class GoldItem:
    narrative: Narrative
    question: Question
    gold_ids: tuple[int, ...]
    item_id: str = ""


@dataclass
class RecallRow:
    item_id: str
    gold: int
    candidate_paragraphs: int
    segments: int
    found_in_segments: int
    found_in_packet: int  # packet of all candidates (no Finder)
    found_in_oracle_packet: int  # packet of the gold-bearing segments only (a perfect Finder)
    found_by_bm25_same_k: int  # plain BM25 top-k, k = candidate_paragraphs
    found_by_bm25_top10: int
    ranked: bool = True  # False: retrieval ranked no paragraph (NoMatchError), so nothing was read


@dataclass
class RecallReport:
    preset: str
    rows: list[RecallRow] = field(default_factory=list)

    def _share(self, attribute: str) -> dict:
        n = len(self.rows)
        full = sum(getattr(r, attribute) == r.gold for r in self.rows)
        mean = sum(getattr(r, attribute) / r.gold for r in self.rows) / n if n else 0.0
        return {"fully_covered": full, "items": n, "evidence_recall": round(mean, 4)}

    def multi_hop(self) -> dict:
        """All-gold items among those with two gold paragraphs or more: ours, and plain BM25's at the same k."""
        rows = [r for r in self.rows if r.gold >= 2]
        return {
            "items": len(rows),
            "fully_covered": sum(r.found_in_segments == r.gold for r in rows),
            "bm25_same_k": sum(r.found_by_bm25_same_k == r.gold for r in rows),
        }

    def summary(self) -> dict:
        n = len(self.rows)
        return {
            "preset": self.preset,
            "items": n,
            "mean_candidate_paragraphs": round(sum(r.candidate_paragraphs for r in self.rows) / n, 1) if n else 0,
            "mean_segments": round(sum(r.segments for r in self.rows) / n, 1) if n else 0,
            "segments": self._share("found_in_segments"),
            "packet_without_finder": self._share("found_in_packet"),
            "packet_with_perfect_finder": self._share("found_in_oracle_packet"),
            "bm25_same_k": self._share("found_by_bm25_same_k"),
            "bm25_top10": self._share("found_by_bm25_top10"),
            "multi_hop": self.multi_hop(),
            "unranked": sum(not r.ranked for r in self.rows),
        }


def measure_recall(
    items: Iterable[GoldItem], preset: str | Preset, *, encoder="auto", index_for=None, progress: bool = False
) -> RecallReport:
    """Recall of candidate segments and packets for items with gold paragraph IDs.

    ``index_for(narrative)`` supplies indexes (default: the memoised ``get_index`` with ``encoder``).
    """
    preset = get_preset(preset)
    index_for = index_for or (lambda narrative: get_index(narrative, encoder))
    report = RecallReport(preset.name)
    items = list(items)
    if progress:
        items = tqdm(items, desc=f"recall {preset.name}", unit="item")
    for item in items:
        index = index_for(item.narrative)
        gold = set(item.gold_ids)
        try:
            segments, ranked = segment_narrative(item.narrative, item.question, preset, index=index), True
        except NoMatchError:  # a user gets the error; a measurement counts the item as nothing found
            segments, ranked = [], False
        candidates = {i for s in segments for i in s.paragraph_ids}
        packet = pack(item.narrative, segments, preset)
        oracle = pack(item.narrative, [s for s in segments if gold & set(s.paragraph_ids)], preset, cited_ids=gold)
        bm25 = plain_bm25_ranking(index, item.question)
        report.rows.append(
            RecallRow(
                item_id=item.item_id,
                gold=len(gold),
                candidate_paragraphs=len(candidates),
                segments=len(segments),
                found_in_segments=len(gold & candidates),
                found_in_packet=len(gold & set(packet.paragraph_ids)),
                found_in_oracle_packet=len(gold & set(oracle.paragraph_ids)) if oracle.paragraph_ids else 0,
                found_by_bm25_same_k=len(gold & set(bm25[: len(candidates)])),
                found_by_bm25_top10=len(gold & set(bm25[:10])),
                ranked=ranked,
            )
        )
    return report


def format_report(reports: Sequence[RecallReport], title: str) -> str:
    """A Markdown table, one row per preset."""
    lines = [
        f"### {title}",
        "",
        "| preset | items | candidate paragraphs | segments: full / recall | BM25 same k | margin (full) | packet (no "
        "Finder) | packet (perfect Finder) | BM25 top-10 | multi-hop: full / BM25 same k |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for report in reports:
        s = report.summary()

        def cell(key):
            return f"{s[key]['fully_covered']}/{s['items']} / {s[key]['evidence_recall']:.3f}"

        ours, bm25 = s["segments"]["fully_covered"], s["bm25_same_k"]["fully_covered"]
        margin = f"{ours / bm25 - 1:+.1%}" if bm25 else "-"
        hops = s["multi_hop"]
        lines.append(
            f"| {s['preset']} | {s['items']} | {s['mean_candidate_paragraphs']} | {cell('segments')} | "
            f"{cell('bm25_same_k')} | {margin} | {cell('packet_without_finder')} | "
            f"{cell('packet_with_perfect_finder')} | {cell('bm25_top10')} | "
            f"{hops['fully_covered']}/{hops['items']} / {hops['bm25_same_k']}/{hops['items']} |"
        )
    unranked = max((report.summary()["unranked"] for report in reports), default=0)
    if unranked:
        note = f"{unranked} item(s) ranked no paragraph (no word shared with the book): counted as found nothing."
        lines += ["", note]
    return "\n".join(lines)
