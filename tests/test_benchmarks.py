"""Benchmark loaders: the real shared data (skipped when absent), fixtures in the public formats
of the sets that cannot be had here, bad rows, out-of-range gold and the common JSONL schema."""

from __future__ import annotations

import csv
import json
import shutil
from collections import Counter, defaultdict
from pathlib import Path

import pytest

from clueweaver.benchmarks import (
    BENCHMARKS,
    Benchmark,
    BenchmarkError,
    BenchmarkItem,
    load_benchmark,
    shared_data_dir,
)
from clueweaver.books.narrative import normalize_text
from clueweaver.cli import main
from clueweaver.protocol.question import Question
from tests.conftest import shared_path

FIXTURES = Path(__file__).parent / "fixtures"


def _write_jsonl(path: Path, rows: list) -> Path:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


# --- real shared data --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def nocha():
    return load_benchmark("nocha", shared_path("nocha", "data_sample"))


def test_nocha_claims_form_true_false_pairs_over_whole_books(nocha):
    assert len(nocha) == 126 and len(nocha.narratives) == 4
    pairs = defaultdict(list)
    for item in nocha:
        assert item.question.is_claim and item.answer in ("TRUE", "FALSE")
        pairs[item.pair_id].append(item.answer)
        assert not any(key.startswith("response-") for key in item.metadata)
    assert len(pairs) == 63 and all(sorted(labels) == ["FALSE", "TRUE"] for labels in pairs.values())
    women = nocha.narratives["little_women_louisa_may_alcott"]
    assert women.title == "Little Women" and len(women) > 4000 and len(women.chapters) >= 40
    first = nocha.items[0]
    assert first.item_id == "nocha:148:TRUE" and first.question.text.startswith("Laurie and Amy celebrate")
    assert first.metadata["false-claim-explanation"].startswith("They still marry")


def test_loading_again_reuses_the_parsed_books(nocha):
    again = load_benchmark("nocha", shared_path("nocha", "data_sample"))
    assert all(again.narratives[key] is nocha.narratives[key] for key in nocha.narratives)


def test_quality_example_reads_html_and_drops_the_duplicated_line():
    benchmark = load_benchmark("quality", shared_path("quality_nyu_example", "quality_example.jsonl"))
    # The file's two lines are the same article with the same five questions.
    assert len(benchmark) == 5 and len(benchmark.skipped) == 5
    assert all("exact duplicate" in row.reason and row.row.startswith("line 2") for row in benchmark.skipped)
    assert [item.answer for item in benchmark] == ["B", "C", "D", "A", "D"]  # gold labels 2, 3, 4, 1, 4
    narrative = benchmark.narratives["52845"]
    texts = [p.text for p in narrative.paragraphs]
    assert narrative.title == "The Girl in His Mind" and '"How old are you?" Blake asked.' in texts
    assert not any("<" in text for text in texts)
    assert benchmark.items[3].question.text == "Sabrina York is"


def test_quality_leval_parses_inline_options_and_answers():
    benchmark = load_benchmark("quality_leval", shared_path("quality_leval", "quality.jsonl"))
    assert len(benchmark) == 202 and len(benchmark.narratives) == 15 and not benchmark.skipped
    first = benchmark.items[0]
    assert first.question.text == "Why did the Tr'en leave Korvin's door unlocked and a weapon nearby?"
    assert first.answer == "B" and first.question.options["B"].startswith("Their subconscious knew")
    rows = [json.loads(line) for line in shared_path("quality_leval", "quality.jsonl").open(encoding="utf-8")]
    outputs = [output for row in rows for output in row["outputs"]]
    for item, output in zip(benchmark, outputs):
        assert normalize_text(output[4:]) == normalize_text(item.question.options[item.answer])


def test_leval_scifi_answers_the_in_story_label_before_the_brackets():
    benchmark = load_benchmark("leval_scifi", shared_path("leval_scifi", "sci_fi.jsonl"))
    assert len(benchmark) == 64 and Counter(item.answer for item in benchmark) == {"TRUE": 33, "FALSE": 31}
    first = benchmark.items[0]
    assert first.question.text == (
        "humans have mastered interstellar travel, a technology that allows them to travel light-years "
        "away to another star system, Sirius"
    )
    assert (first.answer, first.metadata["real_world_fact"]) == ("TRUE", "FALSE")  # "True [fact: False]"
    assert all("True or False" not in item.question.text and item.question.text[0] != "Q" for item in benchmark)
    # The stories have no blank lines; they are still cut into paragraphs, not one block.
    for narrative in benchmark.narratives.values():
        assert len(narrative) > 100 and max(len(p.text) for p in narrative.paragraphs) < 5000


def test_gutenqa_gold_is_the_one_paragraph_holding_the_must_contain_string():
    benchmark = load_benchmark("gutenqa", shared_path("gutenqa_emma"))
    assert len(benchmark) == 30 and all(item.question.is_open and item.answer is None for item in benchmark)
    emma = benchmark.narratives["emma"]
    assert len(emma) == 2287 and emma.chapters[0].title == "VOLUME I. CHAPTER I"
    unique = [item for item in benchmark if item.metadata["gold_match"] == "unique"]
    assert len(unique) == 26
    for item in unique:
        (gold,) = item.gold_evidence
        assert normalize_text(item.metadata["must_contain"]) in emma[gold].text
    unmatched = [item for item in benchmark if item.metadata["gold_match"] == "none"]
    assert [item.item_id for item in unmatched] == [f"gutenqa:emma:{n}" for n in (24, 26, 27, 28)]
    assert all(item.gold_evidence == () for item in unmatched)
    assert benchmark.items[0].metadata["reference_answer"].startswith("Mr. Woodhouse feels fortunate")


def test_kdsh_backstories_become_claims_about_the_right_novel():
    folder = shared_path("kdsh_backstory")
    train = load_benchmark("kdsh", folder)
    assert len(train) == 80 and Counter(item.answer for item in train) == {"TRUE": 51, "FALSE": 29}
    assert set(train.narratives) == {"castaways", "monte_cristo"}
    first = train.items[0]
    assert first.item_id == "kdsh:train:46" and first.book_id == "castaways" and first.answer == "TRUE"
    assert first.question.text.startswith("Backstory of Thalcave: Thalcave’s people faded")
    faria = train.items[1]
    assert (
        faria.question.text.startswith("Backstory of Faria (The Origin of His Connection") and faria.answer == "FALSE"
    )
    assert train.narratives["monte_cristo"].title == "The Count of Monte Cristo"
    assert len(train.narratives["monte_cristo"].chapters) > 100
    test = load_benchmark("kdsh", folder, split="test")
    assert len(test) == 60 and all(item.answer is None for item in test)


def test_bmds_stories_carry_clues_and_the_reveal_position():
    folder = shared_path("bmds")
    # The release names 8 story texts it lacks: passed over by default, each with its reason.
    benchmark = load_benchmark("bmds", folder)
    assert len(benchmark) == 427 and len(benchmark.narratives) == 427
    assert len(benchmark.skipped) == 8
    assert all(row.reason.endswith("is missing from the release") for row in benchmark.skipped)
    assert [row.row for row in benchmark.skipped][:2] == ["line 319", "line 320"]
    pb02 = next(row for row in benchmark.skipped if "PB02" in row.reason)
    assert "also names 'The Miniature Halter' (line 353)" in pb02.reason and "By a Hair" in pb02.reason
    silver = next(item for item in benchmark if item.book_id == "MSH01")
    assert silver.metadata["essential_clue"].startswith("the cataract knife")
    story = benchmark.narrative(silver)
    assert "The real murderer is standing immediately behind you" in story[silver.position].text
    assert silver.reading_limit(story) == silver.position - 1
    assert sum(item.position is not None for item in benchmark) >= 400


# --- fixtures in the public formats of DetectiveQA, InfiniteBench and LongBench v2 -------------


def test_detectiveqa_maps_clue_and_answer_positions_to_paragraphs():
    benchmark = load_benchmark("detectiveqa", FIXTURES / "detectiveqa")
    assert [item.item_id for item in benchmark] == [
        "detectiveqa:7:human:1",
        "detectiveqa:7:human:2",
        "detectiveqa:7:ai:1",
    ]
    novel = benchmark.narratives["7"]
    assert novel.title == "The Lantern at Gull Point" and len(novel) == 13 and len(novel.chapters) == 3
    culprit = benchmark.items[0]
    assert culprit.answer == "C" and culprit.question.options["C"] == "Captain Aldous Mire"
    assert culprit.gold_evidence == (7, 10, 11) and culprit.position == 12
    assert novel[10].text.startswith("The next morning Miss Lowe found the brass ring")
    assert culprit.reading_limit(novel) == 11
    assert culprit.metadata["reasoning"][1] == "The keeper's key ring was hidden in the captain's oilskin."
    assert culprit.metadata["time_cost"] == 41.5 and culprit.metadata["annotation"] == "human"
    # -1 marks a clue without a position: dropped from gold, counted.
    motive = benchmark.items[1]
    assert motive.gold_evidence == (11,) and motive.metadata["clues_without_position"] == 1
    # a paragraph continued on a second line stays one paragraph
    assert novel[6].text.endswith("rain had soaked the floorboards beneath it.")
    assert [item.item_id for item in load_benchmark("detectiveqa", FIXTURES / "detectiveqa", split="ai")] == [
        "detectiveqa:7:ai:1"
    ]
    assert len(load_benchmark("detectiveqa", FIXTURES / "detectiveqa", limit=2)) == 2


def _detectiveqa_copy(tmp_path: Path, *, shift: int = 0, edit=None) -> Path:
    root = tmp_path / "detectiveqa"
    shutil.copytree(FIXTURES / "detectiveqa", root)
    novel = next((root / "novel_data_en").glob("7-*.txt"))
    if shift:
        lines = novel.read_text(encoding="utf-8").splitlines()
        renumbered = []
        for line in lines:
            if line.startswith("["):
                number, rest = line[1:].split("]", 1)
                line = f"[{int(number) + shift}]{rest}"
            renumbered.append(line)
        novel.write_text("\n".join(renumbered) + "\n", encoding="utf-8")
    anno = root / "anno_data_en" / "human_anno" / "7.json"
    samples = json.loads(anno.read_text(encoding="utf-8"))
    for question in samples[0]["questions"]:
        question["clue_position"] = [c + shift if c >= 0 else c for c in question["clue_position"]]
        question["answer_position"] += shift
    if edit:
        edit(samples[0]["questions"])
    anno.write_text(json.dumps(samples), encoding="utf-8")
    return root


def test_detectiveqa_positions_follow_the_novels_own_numbering(tmp_path):
    original = load_benchmark("detectiveqa", FIXTURES / "detectiveqa", split="human")
    one_based = load_benchmark("detectiveqa", _detectiveqa_copy(tmp_path, shift=1), split="human")
    for a, b in zip(original, one_based):
        assert a.gold_evidence == b.gold_evidence and a.position == b.position


def test_detectiveqa_clue_outside_the_novel_is_an_error_or_a_counted_skip(tmp_path):
    def bad_clue(questions):
        questions[0]["clue_position"] = [7, 99]

    root = _detectiveqa_copy(tmp_path, edit=bad_clue)
    with pytest.raises(
        BenchmarkError, match=r"human_anno/7\.json, sample 1, question 1: clue_position 99 is not a paragraph"
    ):
        load_benchmark("detectiveqa", root)
    benchmark = load_benchmark("detectiveqa", root, skip_bad=True)
    assert len(benchmark) == 2 and [row.row for row in benchmark.skipped] == ["sample 1, question 1"]


def test_detectiveqa_answer_must_name_an_option(tmp_path):
    def bad_answer(questions):
        questions[1]["answer"] = "The lighthouse cat"

    with pytest.raises(BenchmarkError, match="question 2: answer 'The lighthouse cat' is not of the options"):
        load_benchmark("detectiveqa", _detectiveqa_copy(tmp_path, edit=bad_answer))


def test_infinitebench_answer_text_becomes_the_option_letter():
    benchmark = load_benchmark("infinitebench", FIXTURES / "infinitebench" / "longbook_choice_eng.jsonl")
    assert [(item.item_id, item.answer) for item in benchmark] == [
        ("infinitebench:0", "B"),
        ("infinitebench:1", "C"),
        ("infinitebench:2", "B"),
    ]
    # Rows repeating a book share one narrative.
    assert len(benchmark.narratives) == 2 and benchmark.items[0].book_id == benchmark.items[1].book_id
    book = benchmark.narrative(benchmark.items[0])
    assert book.title == "THE SALT CLOCK" and [c.title for c in book.chapters] == ["Chapter 1", "Chapter 2"]
    assert benchmark.items[1].metadata["answer_text"] == "Orrin Island"


def test_infinitebench_answer_outside_the_options_is_a_bad_row(tmp_path):
    rows = [json.loads(line) for line in (FIXTURES / "infinitebench" / "longbook_choice_eng.jsonl").open()]
    rows[1]["answer"] = ["Somewhere else"]
    file = _write_jsonl(tmp_path / "longbook_choice_eng.jsonl", rows)
    with pytest.raises(
        BenchmarkError, match=r"longbook_choice_eng\.jsonl, line 2: answer 'Somewhere else' is not of the options"
    ):
        load_benchmark("infinitebench", tmp_path)
    benchmark = load_benchmark("infinitebench", file, skip_bad=True)
    assert [item.item_id for item in benchmark] == ["infinitebench:0", "infinitebench:2"]
    assert benchmark.skipped[0].file == str(file) and benchmark.skipped[0].row == "line 2"


def test_longbench_v2_choices_difficulty_and_domain_filter():
    path = FIXTURES / "longbench_v2" / "data.json"
    benchmark = load_benchmark("longbench_v2", path)
    assert [item.answer for item in benchmark] == ["B", "A", "B"]
    assert [item.hard for item in benchmark] == [True, False, False]
    first = benchmark.items[0]
    assert first.item_id == "longbench_v2:66f1a0000000000000000001"
    assert first.question.options["B"] == "To hide the page naming the widow's true heir"
    assert first.metadata["sub_domain"] == "Detective" and first.metadata["length"] == "short"
    detective = load_benchmark("longbench_v2", path, split="detective")
    assert len(detective) == 2 and len(detective.narratives) == 1
    assert len(load_benchmark("longbench_v2", path, split="Code repo QA, Literary")) == 1


def test_longbench_v2_bad_answer_letter_names_the_entry(tmp_path):
    rows = json.loads((FIXTURES / "longbench_v2" / "data.json").read_text())
    rows[2]["answer"] = "E"
    (tmp_path / "data.json").write_text(json.dumps(rows))
    with pytest.raises(BenchmarkError, match=r"data\.json, entry 3: answer 'E' is not of the options"):
        load_benchmark("longbench_v2", tmp_path)


# --- bad rows in the shared formats (small copies written here) --------------------------------


def _nocha_folder(tmp_path: Path, claims: list) -> Path:
    (tmp_path / "classic_books.json").write_text(
        json.dumps({"a_book": "title: A Book\nauthor: Someone\n\nOne.\n\nTwo."})
    )
    (tmp_path / "data_sample.json").write_text(json.dumps(claims))
    return tmp_path


def test_nocha_bad_rows_name_file_and_entry(tmp_path):
    good = {"book_title": "a_book", "claim": "Two follows one.", "type": True, "index": 1}
    folder = _nocha_folder(
        tmp_path,
        [
            good,
            {**good, "book_title": "missing_book"},
            {**good, "type": "maybe", "index": 2},
            {**good, "type": "False"},
        ],
    )
    with pytest.raises(
        BenchmarkError, match=r"data_sample\.json, entry 2: book 'missing_book' is not in classic_books\.json"
    ):
        load_benchmark("nocha", folder)
    benchmark = load_benchmark("nocha", folder, skip_bad=True)
    assert [item.item_id for item in benchmark] == ["nocha:1:TRUE", "nocha:1:FALSE"]
    assert [row.row for row in benchmark.skipped] == ["entry 2", "entry 3"]
    assert "claim label must be true or false" in benchmark.skipped[1].reason
    assert benchmark.narratives["a_book"].title == "A Book"


def test_limit_keeps_the_first_items_and_only_their_books(tmp_path):
    good = {"book_title": "a_book", "claim": "Two follows one.", "type": True, "index": 1}
    folder = _nocha_folder(tmp_path, [good, {**good, "type": False}])
    benchmark = load_benchmark("nocha", folder, limit=1)
    assert [item.item_id for item in benchmark] == ["nocha:1:TRUE"]
    with pytest.raises(BenchmarkError, match="limit must be a positive integer"):
        load_benchmark("nocha", folder, limit=0)


def _quality_row(**question) -> dict:
    article = "<html><body><h1>THE TIDE</h1><p>Nell kept the<br/>lighthouse.</p><p>The sea rose.</p></body></html>"
    base = {
        "question": "Who kept the lighthouse?",
        "options": ["Nell", "Tom", "Ada", "Bo"],
        "gold_label": 1,
        "difficult": 1,
    }
    return {
        "article_id": "1",
        "set_unique_id": "1_A",
        "title": "The Tide",
        "article": article,
        "questions": [{**base, **question}],
    }


def test_quality_release_format_gold_labels_and_hard_subset(tmp_path):
    rows = [_quality_row(), _quality_row(gold_label=5), _quality_row(question_unique_id="1_A_3", gold_label=None)]
    rows[1]["set_unique_id"], rows[2]["set_unique_id"] = "1_B", "1_C"
    file = _write_jsonl(tmp_path / "QuALITY.v1.0.1.dev", rows)
    with pytest.raises(
        BenchmarkError, match=r"QuALITY\.v1\.0\.1\.dev, line 2, question 1: gold_label 5 is not an option number 1-4"
    ):
        load_benchmark("quality", tmp_path, split="dev")
    benchmark = load_benchmark("quality", file, skip_bad=True)
    assert [(item.item_id, item.answer, item.hard) for item in benchmark] == [
        ("quality:1_A:q1", "A", True),
        ("quality:1_A_3", None, True),  # a test-split question carries no gold label
    ]
    narrative = benchmark.narratives["1"]
    assert [p.text for p in narrative.paragraphs] == ["THE TIDE", "Nell kept the lighthouse.", "The sea rose."]


def test_quality_leval_output_must_match_its_option(tmp_path):
    story = "\n\n".join(["A story.", "Nell kept the lighthouse.", "The sea rose."])
    instruction = "Who kept the lighthouse?\n\n (A) Nell\n (B) Tom\n (C) Ada\n (D) Bo"
    row = {"input": story, "instructions": [instruction, instruction], "outputs": ["(A) Nell", "(B) Nell"]}
    file = _write_jsonl(tmp_path / "quality.jsonl", [row])
    with pytest.raises(BenchmarkError, match=r"line 1, question 2: output text does not match option B"):
        load_benchmark("quality_leval", file)
    benchmark = load_benchmark("quality_leval", file, skip_bad=True)
    assert [(item.item_id, item.answer) for item in benchmark] == [("quality_leval:1:1", "A")]


def test_leval_scifi_bad_output_and_claim_cleaning(tmp_path):
    story = "\n\n".join(["A story.", "Robots run the mines on Ceres."])
    instructions = [
        "Question1: Robots run the mines, True or False? Answer this question based on the world described in the "
        "document.",
        "2.\tHumans run the mines, True or False? Answer this question based on the world described in the document.",
    ]
    file = _write_jsonl(
        tmp_path / "sci_fi.jsonl",
        [{"input": story, "instructions": instructions, "outputs": ["True [fact: False]", "Maybe"]}],
    )
    with pytest.raises(BenchmarkError, match=r"question 2: output 'Maybe' is not like 'True \[fact: False\]'"):
        load_benchmark("leval_scifi", file)
    (item,) = load_benchmark("leval_scifi", file, skip_bad=True).items
    assert item.question.text == "Robots run the mines" and item.answer == "TRUE"


def test_gutenqa_string_in_two_paragraphs_keeps_empty_gold(tmp_path):
    _write_jsonl(
        tmp_path / "tale_paragraphs.jsonl",
        [
            {"paragraph": 0, "chapter": "I", "text": "The bell rang twice."},
            {"paragraph": 1, "chapter": "I", "text": "Later the bell   rang twice again."},
            {"paragraph": 2, "chapter": "II", "text": "Nobody came."},
        ],
    )
    _write_jsonl(
        tmp_path / "tale_questions.jsonl",
        [
            {
                "id": 0,
                "Question": "How often did the bell ring?",
                "Answer": "Twice.",
                "Chunk Must Contain": "bell rang\ntwice",
            },
            {"id": 1, "Question": "Who came?", "Answer": "Nobody.", "Chunk Must Contain": "Nobody came."},
            {"id": 2, "Question": "", "Answer": "x", "Chunk Must Contain": "x"},
        ],
    )
    benchmark = load_benchmark("gutenqa", tmp_path, split="tale", skip_bad=True)
    ambiguous, unique = benchmark.items
    assert ambiguous.gold_evidence == () and ambiguous.metadata["gold_match"] == "ambiguous"
    assert ambiguous.metadata["matching_paragraphs"] == [0, 1]
    assert unique.gold_evidence == (2,) and benchmark.skipped[0].row == "line 3"
    with pytest.raises(BenchmarkError, match="unknown split 'other'"):
        load_benchmark("gutenqa", tmp_path, split="other")


def test_kdsh_bad_label_and_unknown_novel(tmp_path):
    (tmp_path / "lighthouse.txt").write_text(
        "THE LIGHTHOUSE\n\nNell kept the light.\n\nThe sea rose.", encoding="utf-8"
    )
    with open(tmp_path / "train.csv", "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(["id", "book_name", "char", "caption", "content", "label"])
        writer.writerow(["1", "The Lighthouse", "Nell", "", "She kept the light.", "consistent"])
        writer.writerow(["2", "The Lighthouse", "Nell", "Youth", "She fled the sea.", "unsure"])
        writer.writerow(["3", "Another Book", "Tom", "", "He sailed.", "contradict"])
    with pytest.raises(BenchmarkError, match=r"train\.csv, line 3: label 'unsure' is not consistent or contradict"):
        load_benchmark("kdsh", tmp_path)
    benchmark = load_benchmark("kdsh", tmp_path, skip_bad=True)
    (item,) = benchmark.items
    assert item.question.text == "Backstory of Nell: She kept the light." and item.answer == "TRUE"
    assert "no single novel file" in benchmark.skipped[1].reason
    with pytest.raises(BenchmarkError, match=r"test\.csv: no such file"):
        load_benchmark("kdsh", tmp_path, split="test")


def test_bad_json_line_is_a_bad_row(tmp_path):
    file = tmp_path / "longbook_choice_eng.jsonl"
    good = (FIXTURES / "infinitebench" / "longbook_choice_eng.jsonl").read_text().splitlines()[0]
    file.write_text(good + "\n{not json\n", encoding="utf-8")
    with pytest.raises(BenchmarkError, match=r"line 2: not valid JSON"):
        load_benchmark("infinitebench", file)
    assert len(load_benchmark("infinitebench", file, skip_bad=True)) == 1


def test_registry_and_paths(tmp_path, monkeypatch):
    assert set(BENCHMARKS) == {
        "nocha",
        "quality",
        "quality_leval",
        "detectiveqa",
        "detectiveqa_zh",
        "infinitebench",
        "infinitebench_qa",
        "infinitebench_qa_zh",
        "novelqa",
        "longbench_v2",
        "leval_scifi",
        "kdsh",
        "gutenqa",
        "narrativeqa",
        "squality",
        "bmds",
        "jsonl",
    }
    monkeypatch.setenv("CLUEWEAVER_SHARED_DATA", str(tmp_path))
    assert shared_data_dir() == tmp_path
    with pytest.raises(BenchmarkError, match=r"detectiveqa: .*detectiveqa does not exist"):
        load_benchmark("detectiveqa")
    with pytest.raises(BenchmarkError, match="give the path"):
        load_benchmark("jsonl")
    with pytest.raises(BenchmarkError, match=r"novelqa: .*novelqa does not exist"):
        load_benchmark("novelqa")
    with pytest.raises(BenchmarkError, match="unknown benchmark 'no_such_set'"):
        load_benchmark("no_such_set")
    with pytest.raises(BenchmarkError, match="unknown split 'dev'"):
        load_benchmark("detectiveqa", FIXTURES / "detectiveqa", split="dev")


# --- the schema and the common JSONL ------------------------------------------------------------


def test_item_validation():
    question = Question("Who?", {"A": "x", "B": "y"})
    with pytest.raises(BenchmarkError, match="answer 'C' is not a legal answer"):
        BenchmarkItem("i", "b", "book", question, answer="C")
    with pytest.raises(BenchmarkError, match="open question is scored against reference answers"):
        BenchmarkItem("i", "b", "book", Question.open("Why?"), answer="A")
    with pytest.raises(BenchmarkError, match="gold evidence paragraph must be a paragraph ID"):
        BenchmarkItem("i", "b", "book", question, gold_evidence=(-1,))
    item = BenchmarkItem("i", "b", "book", question, answer="A", gold_evidence=(5, 2, 5))
    assert item.gold_evidence == (2, 5)


def test_benchmark_rejects_gold_outside_its_narrative():
    narrative = load_benchmark("detectiveqa", FIXTURES / "detectiveqa").narratives["7"]
    item = BenchmarkItem("i", "b", "7", Question.claim("The lamp went out."), answer="TRUE", gold_evidence=(3, 13))
    with pytest.raises(
        BenchmarkError, match=r"gold evidence paragraph\(s\) \[13\] outside the narrative .*paragraphs 0-12"
    ):
        Benchmark("b", {"7": narrative}, [item])
    late = BenchmarkItem("j", "b", "7", Question.claim("The lamp went out."), position=40)
    with pytest.raises(BenchmarkError, match="position 40 outside"):
        Benchmark("b", {"7": narrative}, [late])


def test_items_round_trip_through_json():
    benchmark = load_benchmark("detectiveqa", FIXTURES / "detectiveqa")
    for item in benchmark.items + load_benchmark("longbench_v2", FIXTURES / "longbench_v2").items:
        assert BenchmarkItem.from_dict(json.loads(json.dumps(item.to_dict()))) == item
    with pytest.raises(BenchmarkError, match="missing field"):
        BenchmarkItem.from_dict({"item_id": "x"})


def test_real_items_are_json_serialisable():
    for name, folder in [("nocha", "nocha"), ("gutenqa", "gutenqa_emma"), ("quality", "quality_nyu_example")]:
        for item in load_benchmark(name, shared_path(folder)):
            assert BenchmarkItem.from_dict(json.loads(json.dumps(item.to_dict()))) == item


def test_common_jsonl_round_trip_inline_and_by_path(tmp_path):
    original = load_benchmark("detectiveqa", FIXTURES / "detectiveqa")
    inline = load_benchmark("jsonl", original.to_jsonl(tmp_path / "inline.jsonl"))
    assert inline.name == "detectiveqa" and inline.items == original.items
    assert inline.narratives["7"].content_hash == original.narratives["7"].content_hash
    assert [c.title for c in inline.narratives["7"].chapters] == [c.title for c in original.narratives["7"].chapters]

    book = tmp_path / "books" / "gull_point.jsonl"
    book.parent.mkdir()
    original.narratives["7"].to_jsonl(book)
    by_path = original.to_jsonl(tmp_path / "by_path.jsonl", narrative_paths={"7": "books/gull_point.jsonl"})
    reloaded = load_benchmark("jsonl", by_path, split="detectiveqa")
    assert reloaded.items == original.items
    with pytest.raises(BenchmarkError, match=r"no items for split 'nocha'; the data has 'detectiveqa'"):
        load_benchmark("jsonl", by_path, split="nocha")


def test_common_jsonl_refuses_a_changed_book_and_out_of_range_gold(tmp_path):
    original = load_benchmark("infinitebench", FIXTURES / "infinitebench")
    path = original.to_jsonl(tmp_path / "ib.jsonl")
    records = [json.loads(line) for line in path.read_text().splitlines()]
    narrative = next(r for r in records if r["record"] == "narrative")
    narrative["paragraphs"][2] += " An added sentence."
    item = next(r for r in records if r["record"] == "item" and r["book_id"] != narrative["book_id"])
    item["gold_evidence"] = [999]
    _write_jsonl(path, records)
    with pytest.raises(
        BenchmarkError, match=r"ib\.jsonl, line 4: its narrative record \(line 2\) is bad: .*text differs"
    ):
        load_benchmark("jsonl", path)
    benchmark = load_benchmark("jsonl", path, skip_bad=True)
    assert len(benchmark) == 0 and len(benchmark.skipped) == 3  # nothing loaded, but every row is listed
    assert "gold evidence paragraph(s) [999] outside the narrative" in benchmark.skipped[2].reason


def test_cli_prints_counts_and_exports(tmp_path, capsys):
    out = tmp_path / "dqa.jsonl"
    assert main(["benchmark", "detectiveqa", "--path", str(FIXTURES / "detectiveqa"), "--export", str(out)]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["items"] == 3 and summary["with_gold_evidence"] == 3 and summary["exported"] == str(out)
    assert main(["benchmark", "jsonl", "--path", str(out), "--limit", "2"]) == 0
    assert json.loads(capsys.readouterr().out)["items"] == 2
    assert main(["benchmark", "kdsh", "--path", str(tmp_path)]) == 2
    assert "train.csv: no such file" in capsys.readouterr().err
