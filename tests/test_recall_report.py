"""The recall report's multi-hop subset (items with two gold paragraphs or more, counted for the
candidates and for plain BM25 at the same k) and the recall curve's panels, open questions among them."""

from __future__ import annotations

import pytest

from clueweaver.books.narrative import from_paragraphs
from clueweaver.evaluation.retrieval import GoldItem, RecallReport, RecallRow, format_report, measure_recall
from clueweaver.measure.recall import CURVE_SETS, plot_curve
from clueweaver.protocol.question import Question
from clueweaver.retrieval import build_index


def row(item_id: str, gold: int, ours: int, bm25: int) -> RecallRow:
    return RecallRow(item_id, gold, 40, 5, ours, ours, ours, bm25, min(bm25, gold))


def report() -> RecallReport:
    return RecallReport(
        "detectiveqa",
        [
            row("single, both found", 1, 1, 1),  # not multi-hop: left out of the subset
            row("two, ours only", 2, 2, 1),
            row("three, both", 3, 3, 3),
            row("two, neither", 2, 1, 0),
        ],
    )


def test_the_multi_hop_subset_counts_only_items_with_several_gold_paragraphs():
    assert report().multi_hop() == {"items": 3, "fully_covered": 2, "bm25_same_k": 1}
    assert report().summary()["multi_hop"]["items"] == 3


def test_the_table_shows_the_multi_hop_cell():
    table = format_report([report()], "toy")
    assert "multi-hop: full / BM25 same k" in table.splitlines()[2]
    assert table.splitlines()[-1].endswith("| 2/3 / 1/3 |")


def test_an_item_retrieval_ranks_nothing_for_counts_as_found_nothing_and_the_table_says_so():
    """A user gets NoMatchError; a measurement goes on and counts the item as nothing found."""
    book = from_paragraphs(["张三在河边发现了一把刀。", "李四的母亲住在城外。", "王掌柜说他看见了李四。"], title="案")
    shared = GoldItem(book, Question.open("张三在河边发现了什么？"), (0, 2), "shared")
    foreign = GoldItem(book, Question.open("Who found the knife by the river?"), (0, 2), "foreign")
    measured = measure_recall([shared, foreign], "focused", index_for=lambda n: build_index(n, None, use_cache=False))
    assert [(r.item_id, r.ranked, r.candidate_paragraphs, r.found_in_segments) for r in measured.rows] == [
        ("shared", True, 3, 2),
        ("foreign", False, 0, 0),
    ]
    assert measured.summary()["unranked"] == 1
    assert format_report([measured], "toy").endswith("1 item(s) ranked no paragraph (no word shared with the book): "
                                                      "counted as found nothing.")  # fmt: skip
    assert "ranked no paragraph" not in format_report([report()], "toy")


def test_the_curve_has_a_panel_per_set_three_to_a_row(tmp_path):
    matplotlib = pytest.importorskip("matplotlib")
    from matplotlib import image

    points = {"clueweaver": [(20.0, 0.1), (60.0, 0.3)], "bm25_joined": [(20, 0.05), (60, 0.2)],
              "bm25_per_option": [(20, 0.05), (60, 0.2)]}  # fmt: skip
    curves = {name: {"items": 4, **points} for name in CURVE_SETS}
    plot_curve(curves, tmp_path / "curve.png")
    height, width = image.imread(tmp_path / "curve.png").shape[:2]
    assert matplotlib is not None and (width, height) == (1800, 960)  # 3 columns x 2 rows of 5 x 4 inches, 120 dpi
