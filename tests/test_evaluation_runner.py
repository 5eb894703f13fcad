"""The evaluation runner, report and comparison on a small benchmark in the common schema.

The reader is the real rag-bm25 reader (BM25 ranking, budget packing, the protocol parser) whose
Interpreter stage replies from a fixed script, so every outcome kind occurs on purpose: right,
wrong, an invalid citation, a reply without tags, an illegal answer. Runs on real benchmark data
with the tiny model are in test_evaluation_tiny.py.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

import pytest

from clueweaver.books.narrative import from_paragraphs
from clueweaver.cli import main
from clueweaver.evaluation.metrics import wilson_interval
from clueweaver.evaluation.predictions import PREDICTIONS_FILE, RUN_FILE, PredictionLog, RecordError, read_predictions
from clueweaver.evaluation.report import compare, load_runs, summarize
from clueweaver.evaluation.runner import EvalConfig, EvalError, run_evaluation
from clueweaver.protocol.parse import parse_interpreter
from clueweaver.retrieval import get_index
from clueweaver.segments.segmenter import get_preset
from clueweaver.systems.base import ReaderOutput, RetrievalReader, rank_paragraphs, retrieval_packet

PARAGRAPHS = [
    "The Lantern at Gull Point",
    "Chapter 1",
    "Mrs. Hale kept the lighthouse lantern on the north cliff for thirty years.",
    "Her nephew Tobias came home from the sea in the autumn of the storm.",
    "The brass key of the lamp room hung on a nail beside the kitchen door.",
    "Every evening the keeper climbed one hundred and twelve steps to light the lamp.",
    "Chapter 2",
    "On the night of the wreck the lantern went dark at nine o'clock.",
    "The schooner Mary Ellen struck the rocks below Gull Point an hour later.",
    "Tobias said he had been at the tavern in the village all evening.",
    "The tavern keeper remembered Tobias leaving before eight.",
    "Mud from the cliff path was found on Tobias's boots the next morning.",
    "Chapter 3",
    "The brass key was missing from its nail when the constable arrived.",
    "It was found in the pocket of Tobias's sea coat, wrapped in a handkerchief.",
    "Mrs. Hale wept and said her nephew had owed money to the schooner's owner.",
    "The constable arrested Tobias for darkening the lantern.",
]

# (item, scripted Interpreter reply); the comment says what the reply tests
ITEMS = [
    (
        {
            "item_id": "q1",
            "question": {
                "text": "Who darkened the lantern?",
                "kind": "mcq",
                "options": {"A": "Mrs. Hale", "B": "Tobias", "C": "The constable", "D": "The tavern keeper"},
            },
            "answer": "B",
        },
        "<reason>The key was in Tobias's coat [14] and he left the tavern early [10].</reason><answer>B</answer>",
    ),  # right
    (
        {
            "item_id": "q2",
            "question": {
                "text": "When did the lantern go dark?",
                "kind": "mcq",
                "options": {"A": "At nine o'clock", "B": "At midnight", "C": "At dawn"},
            },
            "answer": "A",
        },
        "<reason>The lamp was lit every evening [5].</reason><answer>C</answer>",
    ),  # wrong
    (
        {
            "item_id": "c1t",
            "question": {"text": "The brass key was found in Tobias's sea coat.", "kind": "claim"},
            "answer": "TRUE",
            "pair_id": "p1",
        },
        "<reason>Found in his coat [14], see also [999].</reason><answer>TRUE</answer>",
    ),  # right, one invalid ID
    (
        {
            "item_id": "c1f",
            "question": {"text": "The brass key was found in Mrs. Hale's apron.", "kind": "claim"},
            "answer": "FALSE",
            "pair_id": "p1",
        },
        "FALSE, obviously.",
    ),  # no tags: format invalid, no answer
    (
        {
            "item_id": "c2t",
            "question": {"text": "The schooner struck the rocks below Gull Point.", "kind": "claim"},
            "answer": "TRUE",
            "pair_id": "p2",
        },
        "<reason>The schooner struck the rocks [8].</reason><answer>TRUE</answer>",
    ),  # right
    (
        {
            "item_id": "c2f",
            "question": {"text": "The schooner reached the harbour safely.", "kind": "claim"},
            "answer": "FALSE",
            "pair_id": "p2",
        },
        "<reason>It struck the rocks [8].</reason><answer>FALSE</answer>",
    ),  # right: pair p2 complete
    (
        {
            "item_id": "q3",
            "question": {
                "text": "How many steps lead to the lamp?",
                "kind": "mcq",
                "options": {"A": "Ninety", "B": "One hundred and twelve"},
            },
            "answer": "B",
        },
        "<reason>No idea.</reason><answer>E</answer>",
    ),  # illegal answer
    (
        {"item_id": "open1", "question": {"text": "Describe Mrs. Hale.", "kind": "open"}, "answer": None},
        None,
    ),  # skipped
]
SCRIPT = {item["question"]["text"]: reply for item, reply in ITEMS}


def write_benchmark(folder: Path, items=ITEMS) -> Path:
    path = folder / "gull.jsonl"
    lines = [
        {"record": "benchmark", "name": "gull", "format": "clueweaver-benchmark/1"},
        {"record": "narrative", "book_id": "gull", "title": "The Lantern at Gull Point", "paragraphs": PARAGRAPHS},
    ]
    lines += [{"record": "item", "benchmark": "gull", "book_id": "gull", **item} for item, _ in items]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


def scripted_interpreter(narrative, question, packet) -> ReaderOutput:
    reply = SCRIPT[question.text]
    parsed = parse_interpreter(reply, question, allowed_ids=packet.paragraph_ids)
    return ReaderOutput.from_parse(
        parsed, packet.paragraph_ids, timings={"interpreter": 0.01}, outputs={"interpreter": reply}
    )


def scripted_reader(**kwargs) -> RetrievalReader:
    return RetrievalReader("bm25", "focused", scripted_interpreter, **kwargs)


@pytest.fixture
def bench(tmp_path) -> Path:
    return write_benchmark(tmp_path)


def config(bench: Path, output: Path, **overrides) -> EvalConfig:
    return EvalConfig(
        benchmark="jsonl",
        system="rag-bm25",
        path=str(bench),
        preset="focused",
        encoder=None,
        output=str(output),
        **overrides,
    )


def recompute(records: list[dict]) -> dict:
    """The summary's numbers by plain counting over the file, independent of report.py."""
    scored = [r for r in records if r["skipped"] is None]
    right = [r for r in scored if r["prediction"] == r["answer"]]
    pairs = defaultdict(list)
    for r in scored:
        if r["pair_id"]:
            pairs[r["pair_id"]].append(r["prediction"] == r["answer"])
    complete = [v for v in pairs.values() if len(v) >= 2]
    bearing = [r for r in scored if r["cited_ids"] or r["invalid_ids"]]
    totals = [r["timings"]["total"] for r in scored]
    return {
        "items": len(scored),
        "correct": len(right),
        "skipped": sum(r["skipped"] is not None for r in records),
        "pairs": len(complete),
        "correct_pairs": sum(all(v) for v in complete),
        "incomplete_pairs": len(pairs) - len(complete),
        "citation_bearing": len(bearing),
        "cited_ids": sum(len(r["cited_ids"]) + len(r["invalid_ids"]) for r in scored),
        "valid_ids": sum(len(r["cited_ids"]) for r in scored),
        "all_valid": sum(not r["invalid_ids"] for r in bearing),
        "format_valid": sum(r["format_valid"] for r in scored),
        "answer_legal": sum(r["answer_legal"] for r in scored),
        "mean_total": sum(totals) / len(totals),
    }


def without_latency(summary: dict) -> dict:
    return {k: v for k, v in summary.items() if k != "latency"}


def test_every_number_of_the_summary_recomputes_from_the_predictions_file(bench, tmp_path):
    result = run_evaluation(config(bench, tmp_path / "run"), scripted_reader(), progress=False)
    records = read_predictions(tmp_path / "run" / PREDICTIONS_FILE)
    assert len(records) == len(ITEMS) and result.new_records == len(ITEMS)
    expected = recompute(records)
    # the script decides the outcomes: q1, c1t, c2t, c2f right; q2, c1f, q3 wrong; open1 skipped
    assert (expected["items"], expected["correct"], expected["skipped"]) == (7, 4, 1)
    assert (expected["pairs"], expected["correct_pairs"], expected["incomplete_pairs"]) == (2, 1, 0)

    s = result.summary
    assert s == json.loads((tmp_path / "run" / "summary.json").read_text())[result.label]
    assert s["overall"]["items"] == expected["items"] and s["overall"]["correct"] == expected["correct"]
    assert s["overall"]["accuracy"] == expected["correct"] / expected["items"]
    assert s["overall"]["wilson95"] == list(wilson_interval(expected["correct"], expected["items"]))
    assert s["skipped_unlabelled"] == expected["skipped"] == s["datasets"]["gull"]["skipped_unlabelled"]
    pairs = s["datasets"]["gull"]["pair_accuracy"]
    assert (pairs["pairs"], pairs["correct_pairs"], pairs["incomplete_pairs"]) == (
        expected["pairs"],
        expected["correct_pairs"],
        expected["incomplete_pairs"],
    )
    assert pairs["accuracy"] == expected["correct_pairs"] / expected["pairs"]
    c = s["citation_audit"]
    assert (c["outputs"], c["citation_bearing"], c["cited_ids"], c["valid_ids"], c["all_valid"]) == (
        expected["items"],
        expected["citation_bearing"],
        expected["cited_ids"],
        expected["valid_ids"],
        expected["all_valid"],
    )
    f = s["format_audit"]
    assert (f["format_valid"], f["answer_legal"]) == (expected["format_valid"], expected["answer_legal"])
    assert s["latency"]["total"]["mean"] == pytest.approx(expected["mean_total"])
    assert list(s["latency"]) == ["retrieve", "interpreter", "total"]
    assert s["macro_accuracy"] == s["datasets"]["gull"]["accuracy"]


def test_records_carry_what_the_reader_saw_and_said(bench, tmp_path):
    run_evaluation(config(bench, tmp_path / "run"), scripted_reader(), progress=False)
    records = {r["item_id"]: r for r in read_predictions(tmp_path / "run")}
    q1, c1t, c1f, q3 = records["q1"], records["c1t"], records["c1f"], records["q3"]
    # BM25 over question + options puts paragraph 14 (the coat) in the packet: its citation is valid
    assert 14 in q1["packet_ids"] and set(q1["cited_ids"]) <= set(q1["packet_ids"])
    assert q1["prediction"] == "B" and q1["correct"] and q1["format_valid"] and q1["answer_legal"]
    assert c1t["invalid_ids"] == [999] and 999 not in c1t["packet_ids"]
    assert not c1f["format_valid"] and c1f["prediction"] is None and not c1f["correct"]
    assert q3["format_valid"] and not q3["answer_legal"] and q3["prediction"] is None
    assert records["open1"]["skipped"] == "no gold answer" and "prediction" not in records["open1"]
    assert q1["outputs"]["interpreter"].startswith("<reason>")
    assert q1["details"]["packet_chars"] <= get_preset("focused").char_budget
    assert q1["timings"]["total"] >= q1["timings"]["retrieve"] > 0
    run = json.loads((tmp_path / "run" / RUN_FILE).read_text())
    assert run["label"] == "rag-bm25 preset=focused" and run["config"]["system"] == "rag-bm25"
    assert set(run["languages"].values()) == {"en"}  # each book's language, detected
    assert run["readings"] == {}  # no book file was read in another encoding than UTF-8


class Interrupted(Exception):
    pass


def test_a_resumed_run_gives_the_same_summary_as_an_uninterrupted_one(bench, tmp_path):
    whole = run_evaluation(config(bench, tmp_path / "whole"), scripted_reader(), progress=False)

    calls = []

    def interrupting(narrative, question, packet):
        if len(calls) == 3:
            raise Interrupted("the machine went away")
        calls.append(question.text)
        return scripted_interpreter(narrative, question, packet)

    with pytest.raises(Interrupted):
        run_evaluation(
            config(bench, tmp_path / "split"), RetrievalReader("bm25", "focused", interrupting), progress=False
        )
    assert len(read_predictions(tmp_path / "split")) == 3  # durable before the interruption
    # a line cut off mid-write by the interruption is dropped, not fatal
    with open(tmp_path / "split" / PREDICTIONS_FILE, "a", encoding="utf-8") as f:
        f.write('{"item_id": "c1f", "benchm')
    with pytest.warns(UserWarning, match="incomplete last line"):
        resumed = run_evaluation(config(bench, tmp_path / "split"), scripted_reader(), progress=False)
    assert (resumed.resumed_records, resumed.new_records) == (3, len(ITEMS) - 3)
    records = read_predictions(tmp_path / "split")
    assert sorted(r["item_id"] for r in records) == sorted(item["item_id"] for item, _ in ITEMS)
    assert without_latency(resumed.summary) == without_latency(whole.summary)
    # per item, the resumed records equal the uninterrupted ones (timings aside)
    first = {
        r["item_id"]: {k: v for k, v in r.items() if k != "timings"} for r in read_predictions(tmp_path / "whole")
    }
    assert {r["item_id"]: {k: v for k, v in r.items() if k != "timings"} for r in records} == first


def test_a_finished_run_resummarizes_without_building_a_reader(bench, tmp_path):
    first = run_evaluation(config(bench, tmp_path / "run"), scripted_reader(), progress=False)

    def no_models(_config):
        raise AssertionError("a finished run must not load models")

    again = run_evaluation(config(bench, tmp_path / "run"), reader_factory=no_models, progress=False)
    assert again.new_records == 0 and without_latency(again.summary) == without_latency(first.summary)
    assert again.summary["latency"] == first.summary["latency"]


def test_a_run_folder_resumes_only_with_the_same_settings(bench, tmp_path):
    run_evaluation(config(bench, tmp_path / "run", limit=2), scripted_reader(), progress=False)
    with pytest.raises(EvalError, match=r"other settings \(preset: 'focused' there, 'broader' now"):
        run_evaluation(
            EvalConfig(
                benchmark="jsonl",
                system="rag-bm25",
                path=str(bench),
                preset="broader",
                encoder=None,
                output=str(tmp_path / "run"),
            ),
            scripted_reader(),
            progress=False,
        )
    # a larger --limit extends the same run
    extended = run_evaluation(config(bench, tmp_path / "run", limit=4), scripted_reader(), progress=False)
    assert (extended.resumed_records, extended.new_records) == (2, 2)


def test_item_selection_and_its_errors(bench, tmp_path):
    result = run_evaluation(
        config(bench, tmp_path / "run", item_ids=("c2f", "c2t")), scripted_reader(), progress=False
    )
    assert result.summary["datasets"]["gull"]["pair_accuracy"]["correct_pairs"] == 1
    with pytest.raises(EvalError, match="no item.*nope"):
        run_evaluation(config(bench, tmp_path / "other", item_ids=("nope",)), scripted_reader(), progress=False)
    with pytest.raises(EvalError, match="--no-finder applies to the clueweaver system only"):
        EvalConfig(benchmark="jsonl", system="direct", use_finder=False)
    with pytest.raises(EvalError, match="unknown system"):
        EvalConfig(benchmark="jsonl", system="gpt")


def test_novelqa_questions_whose_answer_the_release_withholds_are_counted_not_asked(tmp_path):
    asked = []

    def always_a(narrative, question, *, max_paragraph=None) -> ReaderOutput:
        asked.append(question.text)
        return ReaderOutput("A", True, True, "", (), (), (0,), timings={"interpreter": 0.01})

    novelqa = Path(__file__).parent / "fixtures" / "novelqa_release"
    run = EvalConfig(benchmark="novelqa", system="rag-bm25", path=str(novelqa), encoder=None, output=str(tmp_path))
    result = run_evaluation(run, always_a, progress=False)
    records = {r["item_id"]: r for r in read_predictions(tmp_path)}
    assert len(records) == 10 and len(asked) == 8  # the two questions of B02 have no gold answer
    assert records["novelqa:B02:Q0001"]["skipped"] == "no gold answer"
    assert records["novelqa:B00:Q0004"]["correct"] and not records["novelqa:B00:Q0001"]["correct"]
    assert result.summary["skipped_unlabelled"] == 2 and result.summary["overall"]["items"] == 8
    assert result.summary["overall"]["correct"] == 1  # only B00:Q0004's answer is A
    # accuracy by Complexity and Aspect, as NovelQA's paper reports it, from the items' metadata
    by = result.summary["datasets"]["novelqa"]["by"]
    groups = [r["groups"] for r in records.values() if not r["skipped"]]
    for name in ("Complexity", "Aspect"):
        counts = defaultdict(int)
        for group in groups:
            counts[group[name]] += 1
        assert {value: block["items"] for value, block in by[name].items()} == counts
    right = records["novelqa:B00:Q0004"]["groups"]
    assert by["Complexity"][right["Complexity"]]["correct"] == 1 == by["Aspect"][right["Aspect"]]["correct"]
    report = (tmp_path / "summary.md").read_text(encoding="utf-8")
    assert "### novelqa by Complexity" in report and "### novelqa by Aspect" in report


def test_a_benchmark_that_names_no_breakdown_gets_none(bench, tmp_path):
    result = run_evaluation(config(bench, tmp_path / "run"), scripted_reader(), progress=False)
    assert not any("groups" in r for r in read_predictions(tmp_path / "run"))
    assert all(block["by"] == {} for block in result.summary["datasets"].values())
    assert " by " not in (tmp_path / "run" / "summary.md").read_text(encoding="utf-8").split("## Citation")[0]


def test_default_run_folder_is_stable_per_configuration():
    a = EvalConfig(benchmark="nocha", system="clueweaver")
    assert (
        a.preset == "nocha"
        and a.default_output() == EvalConfig(benchmark="nocha", system="clueweaver", limit=5).default_output()
    )
    assert (
        a.default_output()
        != EvalConfig(benchmark="nocha", system="clueweaver", self_calibration=False).default_output()
    )
    assert EvalConfig(benchmark="quality_leval", system="direct").preset == "broader"
    assert EvalConfig(benchmark="novelqa", system="direct").preset == "infinitebench"
    assert EvalConfig(
        benchmark="nocha", system="clueweaver", use_finder=False, interpreter="/ckpt/interp-grpo"
    ).default_label() == ("clueweaver no-finder interpreter=interp-grpo")


# --- records ------------------------------------------------------------------------------------


def test_predictions_file_errors_name_the_line(tmp_path):
    path = tmp_path / PREDICTIONS_FILE
    good = {
        "item_id": "a",
        "benchmark": "b",
        "book_id": "x",
        "system": "s",
        "kind": "claim",
        "pair_id": None,
        "answer": "TRUE",
        "skipped": "no gold answer",
    }
    path.write_text(json.dumps(good) + "\n" + json.dumps({**good, "item_id": "b", "skipped": None}) + "\n")
    with pytest.raises(RecordError, match=r"line 2: record 'b' lacks field\(s\) prediction"):
        read_predictions(path)
    path.write_text(json.dumps(good) + "\n" + json.dumps(good) + "\n")
    with pytest.raises(RecordError, match="line 2: item a of b appears twice"):
        read_predictions(path)
    path.write_text(json.dumps(good) + "\n" + json.dumps({**good, "item_id": ["b"], "system": 7}) + "\n")
    with pytest.raises(RecordError, match=r"line 2: record \['b'\]: field\(s\) item_id, system must be text"):
        read_predictions(path)  # an edited record: they key and group the records, and had raised a TypeError
    path.write_text("not json\n")
    with pytest.raises(RecordError, match="line 1: not JSON"):
        PredictionLog(path)
    with pytest.raises(FileNotFoundError, match="no predictions file"):
        read_predictions(tmp_path / "elsewhere")


def test_a_record_whose_correct_flag_contradicts_its_answer_is_rejected(bench, tmp_path):
    run_evaluation(config(bench, tmp_path / "run", limit=1), scripted_reader(), progress=False)
    path = tmp_path / "run" / PREDICTIONS_FILE
    record = json.loads(path.read_text())
    path.write_text(json.dumps({**record, "correct": not record["correct"]}) + "\n")
    with pytest.raises(RecordError, match="'correct' disagrees"):
        read_predictions(path)


# --- baselines ----------------------------------------------------------------------------------


def test_retrieval_packet_fills_the_budget_in_narrative_order_without_a_segment_cap():
    narrative = from_paragraphs(
        [f"Paragraph {i} mentions the lantern {'and the key ' * (i % 3)}." for i in range(60)], title="t"
    )
    index = get_index(narrative, None)
    from clueweaver.protocol.question import Question

    question = Question.claim("the lantern and the key")
    ranked = rank_paragraphs(index, question, "bm25")
    preset = get_preset("focused").with_overrides(char_budget=1200)
    packet = retrieval_packet(narrative, ranked, preset)
    ids = packet.paragraph_ids
    assert list(ids) == sorted(ids) and packet.chars <= 1200
    assert len(ids) > preset.max_selected  # one-paragraph segments are not capped at N_E
    assert ranked[0][0] in ids
    # nothing left out that would have fit: the next ranked paragraph not taken is over budget
    left = [p for p, _ in ranked if p not in ids]
    assert left and all(len(narrative[p].text) + 40 > 1200 - packet.chars for p in left[:1])
    with pytest.raises(EvalError, match="rag-dense needs a dense encoder"):
        rank_paragraphs(index, question, "dense")
    limited = rank_paragraphs(index, question, "bm25", max_paragraph=9)
    assert max(p for p, _ in limited) <= 9


# --- report, compare, CLI -------------------------------------------------------------------------


def _second_system(bench, tmp_path) -> Path:
    """The same items with other replies: q2 and q3 fixed, c2f broken."""
    replies = dict(SCRIPT)
    replies["When did the lantern go dark?"] = "<reason>Dark at nine [7].</reason><answer>A</answer>"
    replies["How many steps lead to the lamp?"] = "<reason>Steps [5].</reason><answer>B</answer>"
    replies["The schooner reached the harbour safely."] = "<reason>Sure [8].</reason><answer>TRUE</answer>"

    def other(narrative, question, packet):
        parsed = parse_interpreter(replies[question.text], question, allowed_ids=packet.paragraph_ids)
        return ReaderOutput.from_parse(parsed, packet.paragraph_ids)

    run_evaluation(
        config(bench, tmp_path / "b", label="system B"), RetrievalReader("bm25", "focused", other), progress=False
    )
    return tmp_path / "b"


def test_compare_gives_transitions_and_exact_mcnemar_on_identical_items(bench, tmp_path):
    run_evaluation(config(bench, tmp_path / "a"), scripted_reader(), progress=False)
    b = _second_system(bench, tmp_path)
    result = compare(read_predictions(tmp_path / "a"), read_predictions(b))
    # A right: q1 c1t c2t c2f; B right: q1 q2 c1t c2t q3 -> fixed q2 q3, broken c2f,
    # both right q1 c1t c2t, both wrong c1f; McNemar b = 1, c = 2: p = 2 * (1 + 3) / 8 = 1.0
    assert result["transitions"] == {"fixed": 2, "broken": 1, "both_right": 3, "both_wrong": 1}
    assert (result["mcnemar"]["a_only"], result["mcnemar"]["b_only"], result["mcnemar"]["p_value"]) == (1, 2, 1.0)
    assert result["items"] == 7 and result["only_in_a"] == result["only_in_b"] == 0
    assert result["datasets"]["gull"]["transitions"] == result["transitions"]

    other_gold = [
        dict(r, answer="FALSE", correct=r["prediction"] == "FALSE") if r["item_id"] == "c1t" else r
        for r in read_predictions(b)
    ]
    with pytest.raises(RecordError, match="disagree on the gold answer of 1 item"):
        compare(read_predictions(tmp_path / "a"), other_gold)


def test_cli_report_and_compare_write_tables_and_a_plot(bench, tmp_path, capsys):
    run_evaluation(config(bench, tmp_path / "a", label="system A"), scripted_reader(), progress=False)
    b = _second_system(bench, tmp_path)
    assert main(["eval-report", str(tmp_path / "a"), str(b), "--output", str(tmp_path / "report")]) == 0
    table = capsys.readouterr().out
    assert "| system A | 57.1 [25.0, 84.2] n=7 | 50.0 [9.5, 90.5] n=2 |" in table  # 4/7 items, 1/2 pairs
    assert "| system B | 71.4 [35.9, 91.8] n=7 |" in table  # 5/7
    png = (tmp_path / "report" / "accuracy_latency.png").read_bytes()
    assert png.startswith(b"\x89PNG")
    summaries = json.loads((tmp_path / "report" / "summary.json").read_text())
    assert summaries["system A"]["overall"]["correct"] == 4 and summaries["system B"]["overall"]["correct"] == 5

    assert main(["eval-compare", str(tmp_path / "a"), str(b), "--output", str(tmp_path / "cmp")]) == 0
    out = capsys.readouterr().out
    assert "## system A vs system B" in out and "| overall | 7 | 57.1 | 71.4 | 1 | 2 | 1 | 2 | 1 | 3 | 1 |" in out
    assert json.loads((tmp_path / "cmp" / "compare.json").read_text())["transitions"]["fixed"] == 2


def test_runs_of_one_label_over_two_datasets_make_one_row(bench, tmp_path):
    run_evaluation(config(bench, tmp_path / "a", label="X", item_ids=("q1", "q2")), scripted_reader(), progress=False)
    other = tmp_path / "other"
    other.mkdir()
    items = [({**item, "item_id": item["item_id"]}, reply) for item, reply in ITEMS[:3]]
    second = write_benchmark(other, items)
    text = second.read_text().replace('"gull"', '"gull2"')
    second.write_text(text)
    run_evaluation(config(second, tmp_path / "b", label="X"), scripted_reader(), progress=False)
    runs = load_runs([tmp_path / "a", tmp_path / "b"])
    assert list(runs) == ["X"]
    summary = summarize(runs["X"])
    assert sorted(summary["datasets"]) == ["gull", "gull2"]
    # gull: q1 right, q2 wrong (1/2); gull2: q1 right, q2 wrong, c1t right (2/3)
    assert summary["overall"]["correct"] == 3 and summary["overall"]["items"] == 5
    assert summary["macro_accuracy"] == pytest.approx((1 / 2 + 2 / 3) / 2)


def test_cli_eval_errors_are_clean(bench, tmp_path, capsys):
    code = main(
        [
            "eval",
            "--benchmark",
            "jsonl",
            "--path",
            str(bench),
            "--system",
            "rag-bm25",
            "--items",
            "nope",
            "--encoder",
            "none",
            "--output",
            str(tmp_path / "x"),
        ]
    )
    assert code == 2 and "no item(s) nope" in capsys.readouterr().err
    code = main(
        [
            "eval",
            "--benchmark",
            "jsonl",
            "--path",
            str(bench),
            "--system",
            "direct",
            "--direct-budget",
            "lots",
            "--output",
            str(tmp_path / "y"),
        ]
    )
    assert code == 2 and "direct budget 'lots'" in capsys.readouterr().err


def test_bad_pipeline_settings_fail_before_anything_loads():
    with pytest.raises(EvalError, match="unknown preset 'nope'"):
        EvalConfig(benchmark="nocha", system="clueweaver", preset="nope")
    with pytest.raises(EvalError, match="unknown field.*finder_temperature"):
        EvalConfig(benchmark="nocha", system="clueweaver", pipeline={"finder_temperature": 0.7})
    with pytest.raises(EvalError, match="pipeline settings preset have their own options"):
        EvalConfig(benchmark="nocha", system="clueweaver", pipeline={"preset": "focused"})
    custom = EvalConfig(benchmark="nocha", system="rag-bm25", preset={"base": "nocha", "char_budget": 8000})
    assert custom.pipeline_config().preset.char_budget == 8000
    assert custom.default_label() == 'rag-bm25 preset={"base": "nocha", "char_budget": 8000}'
