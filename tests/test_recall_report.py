"""The recall report's multi-hop subset: items with two gold paragraphs or more, counted for the
candidates and for plain BM25 at the same k, and shown in the Markdown table."""

from __future__ import annotations

from clueweaver.evaluation.retrieval import RecallReport, RecallRow, format_report


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
