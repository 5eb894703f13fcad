"""Issue 14's evidence-reach bars, held by the benchmark the project ships (`clueweaver bench
recall`): BM25 alone (fast: no model, no embeddings), on the shared books.

At every paper preset and on the multi-hop sets (the tuning checks, the frozen held-out checks),
the candidates hold all the gold evidence of at least 10% more items than plain BM25 (one joined
query, the book's stemmed words) given the same number of paragraphs, and on GutenQA, where plain
BM25 reaches 18-22 of 26, at least 5% more; The Count of Monte Cristo keeps multi-hop recall of at
least 0.6 at the broader preset (mean evidence recall on both sets; all gold on the tuning set,
where the long-book shape was chosen; the frozen set has all gold for 6 of 12). The frozen set
chose nothing: these bars say the choices carry over.
"""

from __future__ import annotations

import json

import pytest

from clueweaver.benchmarks.checks import load_multihop_checks
from clueweaver.cli import main
from clueweaver.evaluation.retrieval import GoldItem, measure_recall
from clueweaver.measure.recall import bench_recall
from tests.conftest import shared_path

# Measurements over whole novels (minutes on 2 cores): the full run's, not the edit-test loop's.
pytestmark = pytest.mark.slow

PAPER_PRESETS = ("detectiveqa", "infinitebench", "longbench_v2", "nocha")
# All-gold items of the frozen held-out set (72) with BM25 alone, as `clueweaver bench recall`
# reports them (docs/retrieval.md). The frozen set chose nothing: a change that moves these by more
# than one item is a regression, or an improvement that docs/retrieval.md must report.
# 52 and 56 before BM25 moved to bm25s (Lucene, k1 1.2); 55 at detectiveqa after it, 54 since the
# language work, 53 since spelled numbers are read as digits (docs/retrieval.md, "Results")
FROZEN_ALL_GOLD = {"detectiveqa": 53, "broader": 57}
FROZEN_MONTE_CRISTO_BROADER = 6  # of 12, all gold (mean evidence recall 0.764): below the 0.6 share
# GutenQA: 25 of 26 with the earlier hand-written stemmer, 24 with Snowball's. The item lost
# (emma:29) has a gold paragraph that shares no word with its question; it was reached through its
# neighbours' scores, at rank 48, and falls to 181 once "engagement" also matches "engaged" and
# "engage" elsewhere (docs/retrieval.md, "Languages"). Against plain BM25 over the stemmed words
# (22 of 26 at nocha), 24 is 9% more: GutenQA's margin bar is 5%, the multi-hop sets keep 10%.
# GutenQA's questions are open, so the graph of names (on for open questions) ranks for them too:
# 25 of 26 with it (docs/retrieval.md, "The graph of names").
GUTENQA_ALL_GOLD = 25
MARGIN = {"gutenqa": 1.05, "tuning": 1.1, "frozen": 1.1}


@pytest.fixture(scope="module")
def frozen():
    shared_path("kdsh_backstory")
    payload, _ = bench_recall(presets=tuple(FROZEN_ALL_GOLD), sets=("frozen",), progress=False)
    return {r["preset"]: r for r in payload["results"]}


@pytest.mark.parametrize("preset", FROZEN_ALL_GOLD)
def test_the_frozen_sets_all_gold_counts_hold_within_one_item(frozen, preset):
    result = frozen[preset]
    found, pinned = result["segments"]["fully_covered"], FROZEN_ALL_GOLD[preset]
    assert result["items"] == 72
    assert abs(found - pinned) <= 1, f"frozen set at {preset}: {found} items with all gold, pinned at {pinned}"
    # and still above plain BM25 given as many paragraphs
    assert found >= 1.1 * result["bm25_same_k"]["fully_covered"]


def test_monte_cristo_at_broader_on_the_frozen_set_holds_within_one_item(frozen):
    long_book = frozen["broader"]["long_book"]
    assert long_book["items"] == 12
    assert abs(long_book["segments"]["fully_covered"] - FROZEN_MONTE_CRISTO_BROADER) <= 1
    assert long_book["segments"]["evidence_recall"] >= 0.6


def test_monte_cristo_at_broader_on_the_tuning_set_has_all_gold_for_six_tenths_within_twice_the_paragraphs():
    # the long-book windows of `broader` (long_book_windows) were chosen on these 15 checks to reach 0.6
    shared_path("kdsh_backstory")
    checks = load_multihop_checks(books={"kdsh:monte_cristo"})
    items = [GoldItem(narrative, check.question, check.gold_ids, check.id) for narrative, check in checks]
    summary = measure_recall(items, "broader", encoder=None).summary()
    assert summary["items"] == 15
    assert summary["segments"]["fully_covered"] / 15 >= 0.6, summary["segments"]
    # the Finder-cost cap: at most twice the paragraphs broader reads on a book of 4,000 (106 anchors)
    assert summary["mean_candidate_paragraphs"] <= 2 * 106


@pytest.fixture(scope="module")
def recall(tmp_path_factory):
    shared_path("gutenqa_emma")
    output = tmp_path_factory.mktemp("recall") / "recall.md"
    presets = [arg for preset in (*PAPER_PRESETS, "broader") for arg in ("--preset", preset)]
    assert main(["bench", "recall", *presets, "--output", str(output)]) == 0
    results = json.loads(output.with_suffix(".json").read_text())["results"]
    return {(r["set"], r["preset"]): r for r in results}, output.read_text(encoding="utf-8")


@pytest.mark.parametrize("preset", PAPER_PRESETS)
@pytest.mark.parametrize("gold_set", ["gutenqa", "tuning", "frozen"])
def test_candidates_beat_plain_bm25_at_the_same_number_of_paragraphs(recall, gold_set, preset):
    result = recall[0][gold_set, preset]
    ours, bm25 = result["segments"]["fully_covered"], result["bm25_same_k"]["fully_covered"]
    assert ours >= MARGIN[gold_set] * bm25, (
        f"{gold_set} at {preset}: {ours} against BM25's {bm25} of {result['items']}"
    )


def test_the_sets_are_whole_and_gutenqa_keeps_its_bar(recall):
    results, markdown = recall
    assert {s: results[s, "detectiveqa"]["items"] for s in ("gutenqa", "tuning", "frozen")} == {
        "gutenqa": 26, "tuning": 87, "frozen": 72
    }  # fmt: skip
    assert results["gutenqa", "detectiveqa"]["segments"]["fully_covered"] >= GUTENQA_ALL_GOLD
    assert "Frozen held-out multi-hop checks (never used to choose)" in markdown and "margin (full)" in markdown


def test_open_frozen_multi_hop_questions_reach_all_their_evidence_a_quarter_more_often_than_plain_bm25(recall):
    # issue 25's bar, on the open frozen set at detectiveqa: the 26 questions with 2-3 gold paragraphs
    hops = recall[0]["open-frozen", "detectiveqa"]["multi_hop"]
    assert hops["items"] == 26
    assert hops["fully_covered"] >= 1.25 * hops["bm25_same_k"] and hops["fully_covered"] > hops["bm25_same_k"]


@pytest.mark.parametrize("preset", PAPER_PRESETS)
# Portuguese (Dom Casmurro) holds it at three presets and is even with plain BM25 at nocha: no bar
@pytest.mark.parametrize(
    ("gold_set", "items"), [("frozen-fr", 22), ("frozen-de", 23), ("frozen-es", 24), ("frozen-it", 24)]
)
def test_the_european_frozen_sets_beat_stemmed_plain_bm25_by_a_tenth(recall, gold_set, items, preset):
    # issue 29's bar for a European novel (every French, German, Spanish and Italian check is multi-hop)
    result = recall[0][gold_set, preset]
    assert result["multi_hop"]["items"] == items
    assert result["multi_hop"]["fully_covered"] >= 1.1 * result["multi_hop"]["bm25_same_k"]


# 22 + 20 + 36 + 30 + 30 + 30 checks; zh-3 was written after the other four had been measured twice, zh-4
# after zh-3 had judged a change
CHINESE_FROZEN = ("frozen-zh", "frozen-zh-long", "frozen-zh-long-2", "frozen-zh-xyj", "frozen-zh-3", "frozen-zh-4")


def _pooled(recall, sets, preset) -> tuple[int, int]:
    """All-gold items of ``sets`` together at ``preset``: the candidates', plain BM25's at the same k."""
    hops = [recall[0][name, preset]["multi_hop"] for name in sets]
    return sum(h["fully_covered"] for h in hops), sum(h["bm25_same_k"] for h in hops)


@pytest.mark.parametrize("preset", PAPER_PRESETS)
def test_the_chinese_frozen_sets_together_reach_all_evidence_at_least_as_often_as_plain_bigram_bm25(recall, preset):
    # issue 29's bar, its first half (every Chinese check is multi-hop); the 20 红楼梦 checks alone do not
    # hold it at infinitebench and longbench_v2 (docs/retrieval.md, "Results")
    ours, plain = _pooled(recall, CHINESE_FROZEN, preset)
    assert ours >= plain, f"Chinese frozen sets at {preset}: {ours} against plain bigram BM25's {plain} of 168"


@pytest.mark.parametrize("preset", PAPER_PRESETS)
def test_the_japanese_frozen_sets_together_beat_plain_bigram_bm25_by_a_tenth(recall, preset):
    # こころ and 三四郎 (48 checks), read as MeCab's words: +19%, +11%, +20%, +27% (docs/retrieval.md); こころ's
    # alone is one item below plain BM25 at infinitebench. Russian (Отцы и дети, Игрок) is at parity and holds no bar
    ours, plain = _pooled(recall, ("frozen-ja", "frozen-ja-2"), preset)
    assert ours >= 1.1 * plain, f"Japanese frozen sets at {preset}: {ours} against plain bigram BM25's {plain} of 48"


@pytest.mark.parametrize("preset", PAPER_PRESETS)
def test_the_two_larger_chinese_frozen_sets_beat_plain_bigram_bm25_by_a_tenth(recall, preset):
    # 红楼梦 2 and 西游记 (66 checks, a third of them open questions); measured once, after the ranking was fixed
    ours, plain = _pooled(recall, ("frozen-zh-long-2", "frozen-zh-xyj"), preset)
    assert ours >= 1.1 * plain, f"{ours} against plain bigram BM25's {plain} of 66 at {preset}"


# The Korean frozen set's all-gold items, measured once when Korean was first read in syllable bigrams (whole words
# found 5 / 4 / 4 / 5; plain bigram BM25 10 / 10 / 10 / 10, above the candidates at infinitebench and longbench_v2)
KOREAN_FROZEN_ALL_GOLD = {"detectiveqa": 11, "infinitebench": 7, "longbench_v2": 8, "nocha": 12}


@pytest.mark.parametrize("preset", PAPER_PRESETS)
def test_the_korean_frozen_set_holds_its_measured_counts_within_one_item(recall, preset):
    found = recall[0]["frozen-ko", preset]["segments"]["fully_covered"]
    assert abs(found - KOREAN_FROZEN_ALL_GOLD[preset]) <= 1, f"Korean frozen set at {preset}: {found} of 24"


# The Polish, Swedish, Czech, Hungarian, Norwegian and Romanian frozen sets' all-gold items, measured once with the
# readings their rules kept (whole words found 9 / 9 / 9 / 12, 9 / 8 / 9 / 10, 6 / 6 / 6 / 8, 9 / 7 / 7 / 10,
# 3 / 3 / 3 / 6 and 6 / 5 / 6 / 6; Swedish is read so)
LATER_LANGUAGES_FROZEN_ALL_GOLD = {
    "frozen-pl": {"detectiveqa": 15, "infinitebench": 12, "longbench_v2": 14, "nocha": 18},
    "frozen-sv": {"detectiveqa": 9, "infinitebench": 8, "longbench_v2": 9, "nocha": 10},
    "frozen-cs": {"detectiveqa": 10, "infinitebench": 8, "longbench_v2": 8, "nocha": 11},
    "frozen-hu": {"detectiveqa": 13, "infinitebench": 9, "longbench_v2": 10, "nocha": 13},
    "frozen-no": {"detectiveqa": 6, "infinitebench": 6, "longbench_v2": 6, "nocha": 8},
    "frozen-ro": {"detectiveqa": 10, "infinitebench": 9, "longbench_v2": 9, "nocha": 11},
}


@pytest.mark.parametrize("preset", PAPER_PRESETS)
@pytest.mark.parametrize("gold_set", sorted(LATER_LANGUAGES_FROZEN_ALL_GOLD))
def test_the_later_languages_frozen_sets_hold_their_measured_counts_within_one_item(recall, gold_set, preset):
    found = recall[0][gold_set, preset]["segments"]["fully_covered"]
    assert abs(found - LATER_LANGUAGES_FROZEN_ALL_GOLD[gold_set][preset]) <= 1, f"{gold_set} at {preset}: {found}"


@pytest.mark.parametrize("gold_set", ["tuning", "frozen"])
def test_monte_cristo_at_the_broader_preset_reaches_most_of_its_evidence(recall, gold_set):
    long_book = recall[0][gold_set, "broader"]["long_book"]
    assert long_book["items"] >= 10 and long_book["segments"]["evidence_recall"] >= 0.6
    # the length scaling reads more of the long book, at most twice the preset's paragraphs
    assert 106 < long_book["mean_candidate_paragraphs"] <= 2 * 106


def test_the_curve_plots_candidates_and_both_bm25_baselines(tmp_path):
    shared_path("gutenqa_emma")
    png = tmp_path / "curve.png"
    assert main(["bench", "recall", "--set", "gutenqa", "--curve", str(png)]) == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    curve = json.loads(png.with_suffix(".json").read_text())["gutenqa"]
    assert curve["items"] == 26 and set(curve) == {"items", "clueweaver", "bm25_joined", "bm25_per_option"}
    read = [x for x, _ in curve["clueweaver"]]
    assert read == sorted(read) and 15 <= read[0] and read[-1] <= 220
    for name in ("bm25_joined", "bm25_per_option"):
        assert [k for k, _ in curve[name]] == [round(x) for x in read]  # the same depths
        assert all(0 <= y <= 1 for _, y in curve[name])
    found = [y for _, y in curve["clueweaver"]]
    assert found == sorted(found)  # more paragraphs never lose evidence


def test_a_ranking_override_is_checked_against_the_ranking_settings(capsys):
    assert main(["bench", "recall", "--ranking", "querry=joined"]) == 2
    assert "unknown field(s) querry" in capsys.readouterr().err
    assert main(["bench", "recall", "--ranking", "query"]) == 2
    assert "FIELD=VALUE" in capsys.readouterr().err


def test_the_window_ablations_change_only_the_window_shape():
    from clueweaver.measure.recall import ABLATIONS
    from clueweaver.segments.segmenter import get_preset

    base = get_preset("detectiveqa")
    expected = {
        "num_windows 0": ("num_windows", 0),
        "num_windows 2": ("num_windows", 2),
        "window_paragraphs 4": ("window_paragraphs", 4),
        "window_paragraphs 8": ("window_paragraphs", 8),
    }
    for marker, (field, value) in expected.items():
        (choice,) = [name for name in ABLATIONS if f"({marker})" in name]
        ranking, shape = ABLATIONS[choice]
        assert ranking == {} and shape == {field: value}
        assert getattr(base.with_overrides(**shape), field) == value != getattr(base, field)


# The frozen sets of the alphabetic languages, read as a language ClueWeaver has no stemmer for (`clueweaver bench
# recall --language und`): all gold summed over the paper presets, 693 with each word cut to its first five letters
# and und's ranking settings (681 with the defaults), against 588 with whole words (docs/retrieval.md, "A language
# ClueWeaver has no stemmer for")
UNKNOWN_LANGUAGE_FROZEN_SETS = (
    "frozen-fr", "frozen-fr-2", "frozen-de", "frozen-de-2", "frozen-ru", "frozen-ru-2", "frozen-ru-3", "frozen-es",
    "frozen-it", "frozen-pt", "frozen-pt-2", "frozen-pl", "frozen-sv", "frozen-cs", "frozen-hu", "frozen-no",
    "frozen-ro",
)  # fmt: skip
UNKNOWN_LANGUAGE_FROZEN_ALL_GOLD = 693


def test_a_language_without_a_stemmer_holds_its_measured_count_on_the_frozen_sets():
    payload, _ = bench_recall(language="und", sets=UNKNOWN_LANGUAGE_FROZEN_SETS, presets=PAPER_PRESETS, progress=False)
    found = sum(r["segments"]["fully_covered"] for r in payload["results"])
    assert abs(found - UNKNOWN_LANGUAGE_FROZEN_ALL_GOLD) <= 3, found
    assert found >= 1.05 * 588  # whole words' count, the bar the reading was kept by
