"""Synthetic claims, mixture allocation, predictions files, book splits and reading cases: the
parts of the dataset builders that need no tokenizer."""

from __future__ import annotations

import difflib
import json
import random
import re
from collections import Counter

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from clueweaver.benchmarks import BenchmarkItem
from clueweaver.books.narrative import from_paragraphs
from clueweaver.core.config import load_config
from clueweaver.protocol.question import Question
from clueweaver.segments.segmenter import get_preset
from clueweaver.training_data.common import assign_splits, readable_part, reading_cases
from clueweaver.training_data.hard_cases import PredictionsError, read_hard_items
from clueweaver.training_data.interpreter import InterpreterDataConfig, _synthetic_examples, allocate
from clueweaver.training_data.synthetic import (
    entity_swap,
    false_claims,
    name_inventory,
    number_swap,
    option_claim,
    option_claims,
)

BOOK = from_paragraphs(
    [
        "Chapter 1",
        "Inspector Lestrade met Holmes at the station of Reading, and Holmes said little.",
        "Mr. Watson told Lestrade that Holmes had gone to Reading twice that week.",
        "Holmes replied that Lestrade was wrong; said Watson, the train left Reading at nine.",
        "In the garden of Briony Lodge, Watson waited while Holmes watched Briony Lodge.",
        "Lestrade said Holmes was late, and Watson asked whether Reading was far from Briony Lodge.",
    ],
    title="A study",
)
QUESTION = Question(
    "Where did Holmes meet Lestrade?", {"A": "At the station", "B": "In the garden", "C": "At Briony Lodge"}
)


def word_diff(a: str, b: str) -> list[tuple[str, str]]:
    """The (removed, inserted) word runs between two texts, punctuation aside."""
    left, right = re.findall(r"\w+", a), re.findall(r"\w+", b)
    matcher = difflib.SequenceMatcher(a=left, b=right, autojunk=False)
    return [
        (" ".join(left[i1:i2]), " ".join(right[j1:j2]))
        for op, i1, i2, j1, j2 in matcher.get_opcodes()
        if op != "equal"
    ]


def test_option_claims_are_true_for_the_gold_option_and_differ_only_in_the_option():
    claims = option_claims(QUESTION, "A", random.Random(0), false_per_true=2)
    assert [c.label for c in claims] == ["TRUE", "FALSE", "FALSE"]
    assert claims[0].text == option_claim(QUESTION, "A") and claims[0].text.endswith("At the station")
    prefix = 'The answer to the question "Where did Holmes meet Lestrade?" is: '
    for claim in claims[1:]:
        assert claim.edit == "option" and claim.original == "At the station"
        assert claim.text == prefix + claim.replacement and claim.replacement in ("In the garden", "At Briony Lodge")
    assert len({c.text for c in claims}) == 3
    assert option_claims(QUESTION, "A", random.Random(0), 2) == claims  # seeded: deterministic
    with pytest.raises(ValueError, match="gold option"):
        option_claims(QUESTION, "D", random.Random(0))


def test_name_inventory_separates_people_from_places_and_leaves_titles_out():
    names = name_inventory(BOOK, min_count=3)
    assert names["Holmes"] == names["Lestrade"] == names["Watson"] == "person"
    assert names["Reading"] == "other"
    assert "Mr" not in names and "Inspector" not in names


def test_entity_swap_replaces_one_name_by_another_of_its_kind():
    names = name_inventory(BOOK, min_count=3)
    claim = "Holmes told Lestrade that Holmes would take the train from Reading."
    for seed in range(20):
        edited = entity_swap(claim, names, random.Random(seed))
        assert edited.label == "FALSE" and edited.edit == "entity"
        assert names[edited.replacement] == names[edited.original] and edited.replacement not in claim
        assert edited.text == re.sub(rf"\b{edited.original}\b", edited.replacement, claim)
        assert {pair for pair in word_diff(claim, edited.text)} <= {(edited.original, edited.replacement)}
    assert entity_swap("Nobody went anywhere.", names, random.Random(0)) is None


@settings(max_examples=60, deadline=None)
@given(
    st.integers(min_value=0, max_value=9999),
    st.sampled_from(["two", "Seven", "12"]),
    st.integers(min_value=0, max_value=10**6),
)
@example(year=12, count="12", seed=0)
def test_number_swap_changes_one_number_at_each_of_its_occurrences(year, count, seed):
    claim = f"In {year} the detective found {count} letters."
    edited = number_swap(claim, random.Random(seed))
    assert edited.label == "FALSE" and edited.edit == "number" and edited.original != edited.replacement.lower()
    diff = word_diff(claim, edited.text)
    assert {(removed.lower(), inserted.lower()) for removed, inserted in diff} == {
        (edited.original.lower(), edited.replacement.lower())
    }
    assert len(diff) == len(
        re.findall(rf"\b{edited.original}\b", claim, flags=re.IGNORECASE)
    )  # "In 12 ... 12 letters": both


def test_number_swap_needs_a_number():
    assert number_swap("Holmes found the letter.", random.Random(0)) is None


def test_false_claims_use_distinct_edit_kinds():
    claim = "Holmes met Lestrade 3 times at Reading."
    variants = false_claims(claim, BOOK, random.Random(1), count=2)
    assert sorted(v.edit for v in variants) == ["entity", "number"]
    assert all(v.label == "FALSE" and len(word_diff(claim, v.text)) == 1 for v in variants)
    assert false_claims(claim, BOOK, random.Random(1), edits=("number",), count=2)[0].edit == "number"


def test_false_edits_replace_only_details_the_evidence_holds():
    """A FALSE claim must contradict something the packet states: the replaced name or number is in it."""
    names = name_inventory(BOOK, min_count=3)
    claim = "Holmes met Lestrade 3 times at Reading."
    packet = "[2] Mr. Watson told Lestrade that Holmes had gone to Reading twice that week."
    for seed in range(20):
        edited = entity_swap(claim, names, random.Random(seed), grounding=packet)
        assert edited.original in ("Holmes", "Lestrade", "Reading") and edited.replacement not in claim
        assert entity_swap(claim, names, random.Random(seed), grounding="[4] In the garden.") is None
    assert number_swap(claim, random.Random(0), grounding=packet) is None  # the packet never says 3
    assert number_swap(claim, random.Random(0), grounding="[7] He came 3 times.").original == "3"
    assert number_swap(claim, random.Random(0), grounding="[7] He came 33 times.") is None  # whole numbers only
    only_names = false_claims(claim, BOOK, random.Random(1), count=2, grounding=packet)
    assert [v.edit for v in only_names] == ["entity"]


def test_kdsh_consistent_backstories_are_not_edited_into_false_claims():
    config = load_config(
        InterpreterDataConfig, None, {"sources": [{"name": "kdsh"}], "synthetic": {"edits": ["entity"]}}
    )
    claim = Question.claim("Backstory of Holmes: he met Lestrade 3 times at Reading.")
    packet = BOOK.render(range(len(BOOK)))
    made = {}
    for benchmark in ("kdsh", "nocha"):
        item = BenchmarkItem(f"{benchmark}:1", benchmark, "book", claim, answer="TRUE")
        (case,) = reading_cases(item, BOOK, get_preset("nocha"))
        drops = Counter()
        made[benchmark] = (_synthetic_examples(case, config, packet, drops), drops)
    examples, drops = made["kdsh"]
    assert examples == [] and drops == {
        "no FALSE edits: a KDSH 'consistent' backstory is only not contradicted by the book": 1
    }
    examples, drops = made["nocha"]  # a NoCha TRUE claim is stated by the book: it may be edited
    assert examples and all(e.answer == "FALSE" and e.claim.original in packet for e in examples)


def test_allocate_follows_weights_and_passes_on_what_a_full_source_cannot_take():
    assert allocate(100, {"a": 0.5, "b": 0.3, "c": 0.2}, {"a": 100, "b": 100, "c": 100}) == {"a": 50, "b": 30, "c": 20}
    assert allocate(100, {"a": 0.5, "b": 0.3, "c": 0.2}, {"a": 10, "b": 100, "c": 100}) == {"a": 10, "b": 54, "c": 36}
    assert allocate(100, {"a": 1.0, "b": 1.0}, {"a": 5, "b": 7}) == {"a": 5, "b": 7}
    assert allocate(10, {"a": 1.0, "b": 0.0}, {"a": 100, "b": 100}) == {"a": 10, "b": 0}
    assert sum(allocate(7, {"a": 1.0, "b": 1.0, "c": 1.0}, {"a": 9, "b": 9, "c": 9}).values()) == 7


def test_read_predictions_flags_failed_items_by_majority(tmp_path):
    path = tmp_path / "predictions.jsonl"
    lines = [
        {"item_id": "q1", "benchmark": "x", "prediction": "A", "answer": "B", "correct": False},
        {"item_id": "q2", "correct": True},
        {"item_id": "q3", "correct": 1},
        {"item_id": "q3", "correct": 0},
        {"item_id": "q4", "correct": True},
        {"item_id": "q4", "correct": True},
        {"item_id": "q4", "correct": False},
        {"item_id": "q5", "benchmark": "x", "skipped": "no gold answer"},  # the harness did not score it
    ]
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n\n")
    hard, skipped = read_hard_items([path])
    assert hard == {"q1": True, "q2": False, "q3": True, "q4": False} and skipped == []


def test_bad_prediction_lines_name_file_and_line_or_are_skipped(tmp_path):
    path = tmp_path / "predictions.jsonl"
    path.write_text('{"item_id": "q1", "correct": false}\n{"item_id": "q2", "correct": "yes"}\nnot json\n')
    with pytest.raises(PredictionsError, match=r"predictions\.jsonl, line 2: field 'correct' must be"):
        read_hard_items([path])
    hard, skipped = read_hard_items([path], skip_bad=True)
    assert hard == {"q1": True} and [s.row for s in skipped] == ["line 2", "line 3"]
    with pytest.raises(PredictionsError, match="does not exist"):
        read_hard_items([tmp_path / "missing.jsonl"])


def test_assign_splits_is_per_group_seeded_and_disjoint():
    books = {f"b{i}": "big" for i in range(40)} | {"s1": "small", "s2": "small"}
    splits = assign_splits(books, {"train": 0.8, "validation": 0.1, "test": 0.1}, seed=3)
    big = [splits[f"b{i}"] for i in range(40)]
    assert big.count("validation") == 4 and big.count("test") == 4 and big.count("train") == 32
    assert splits["s1"] == splits["s2"] == "train"  # too few books to spare one
    assert assign_splits(books, {"train": 0.8, "validation": 0.1, "test": 0.1}, seed=3) == splits
    assert assign_splits(books, {"train": 0.8, "validation": 0.1, "test": 0.1}, seed=4) != splits
    with pytest.raises(ValueError, match="sum to 1"):
        assign_splits(books, {"train": 0.8, "test": 0.1}, seed=0)


def test_readable_part_keeps_ids_and_cuts_chapters():
    narrative = from_paragraphs(["CHAPTER I", "a", "b", "CHAPTER II", "c", "d"], title="t")
    part = readable_part(narrative, 4)
    assert [p.id for p in part.paragraphs] == [0, 1, 2, 3, 4] and part.render(
        [4], gap_markers=False
    ) == narrative.render([4], gap_markers=False)
    assert [(c.first_paragraph, c.last_paragraph) for c in part.chapters] == [(0, 2), (3, 4)]
    assert readable_part(narrative, None) is narrative


def test_reading_cases_turn_open_items_into_claims_and_cut_before_the_reveal():
    preset = get_preset("detectiveqa")
    narrative = from_paragraphs(
        ["The mud on his boots.", "More talk.", "The reveal: the gardener did it."], title="Mud"
    )
    bmds = BenchmarkItem(
        "bmds:X", "bmds", "X", Question.open("What is the essential clue?"), position=2,
        metadata={"essential_clue": "The mud on the boots", "most_salient_clue": "_none", "title": "Mud"},
    )  # fmt: skip
    cases = reading_cases(bmds, narrative, preset, bmds_clue_fields=["essential_clue", "most_salient_clue"])
    assert len(cases) == 1 and cases[0].case_id == "bmds:X#essential_clue" and len(cases[0].narrative) == 2
    assert (
        cases[0].question.is_claim and cases[0].answer == "TRUE" and "The mud on the boots" in cases[0].question.text
    )
    gutenqa = BenchmarkItem(
        "g:1", "gutenqa", "emma", Question.open("Why?"), gold_evidence=(1,), metadata={"reference_answer": "Because."}
    )
    (case,) = reading_cases(gutenqa, narrative, preset)
    assert case.question == Question.claim("Because.") and case.evidence == (1,) and case.evidence_source == "gold"
    late_gold = BenchmarkItem("d:1", "detectiveqa", "d", QUESTION, answer="A", gold_evidence=(0, 2), position=2)
    (case,) = reading_cases(late_gold, narrative, preset)
    assert case.evidence == (0,) and case.gold_after_limit == 1 and case.question == QUESTION
