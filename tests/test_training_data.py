"""Finder and Interpreter GRPO datasets built from the shared benchmark data (skipped when absent)
and the DetectiveQA fixture, with the real Qwen3 tokenizer."""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest

from clueweaver.benchmarks import BenchmarkError, load_benchmark
from clueweaver.books.narrative import from_paragraphs
from clueweaver.core.config import load_config
from clueweaver.evaluation.predictions import PredictionLog
from clueweaver.protocol.prompts import finder_messages, interpreter_messages
from clueweaver.protocol.question import Question
from clueweaver.protocol.reward_registry import REWARD_FUNCS
from clueweaver.training_data import (
    FINDER_SCHEMA,
    INTERPRETER_SCHEMA,
    FinderDataConfig,
    InterpreterDataConfig,
    PromptTokenCounter,
    TeacherConfig,
    TeacherLabeler,
    build_finder_rows,
    build_interpreter_rows,
)
from clueweaver.training_data import finder as finder_module
from clueweaver.training_data import labels as labels_module
from clueweaver.training_data.audit import audit_section, audit_summary, audit_warning, wilson_lower_bound
from clueweaver.training_data.common import DatasetBuild, readable_part
from clueweaver.training_data.finder import build_finder_dataset, finder_card, finder_weak_label_audit
from clueweaver.training_data.labels import match_clue
from tests.conftest import REPO_ROOT, shared_path

pytestmark = (
    pytest.mark.models
)  # builds datasets with the real tokenizer and stand-in models: left out of the edit-test loop

DETECTIVEQA = str(REPO_ROOT / "tests" / "fixtures" / "detectiveqa")
PARAGRAPH_ID = re.compile(r"^\[(\d+)\] ", re.MULTILINE)


@pytest.fixture(scope="module")
def counter():
    return PromptTokenCounter()


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory):
    return str(tmp_path_factory.mktemp("index-cache"))


def finder_config(cache_dir: str, **overrides) -> FinderDataConfig:
    values = {
        "sources": [
            {"name": "bmds", "limit": 24, "skip_bad": True},
            {"name": "gutenqa", "limit": 10},
            {"name": "detectiveqa", "path": DETECTIVEQA},
        ],
        "encoder": None,
        "index_cache_dir": cache_dir,
        "split_fractions": {"train": 0.6, "validation": 0.2, "test": 0.2},
        "max_positives_per_case": 2,
        "random_negatives_per_case": 2,
        **overrides,
    }
    return load_config(FinderDataConfig, None, values)


@pytest.fixture(scope="module")
def finder(counter, cache_dir):
    shared_path("bmds")
    shared_path("gutenqa_emma")
    return build_finder_rows(finder_config(cache_dir), token_counter=counter)


def all_rows(build) -> list[dict]:
    return [row for rows in build.rows_by_split.values() for row in rows]


# --- Finder ------------------------------------------------------------------------------------


def test_finder_rows_have_the_schema_and_the_protocols_prompt(finder):
    rows = all_rows(finder)
    assert rows and all(set(row) == set(FINDER_SCHEMA) for row in rows)
    for row in rows:
        assert row["allowed_ids"] == sorted(set(row["allowed_ids"]))
        assert row["allowed_ids"][0] == row["segment_start"] and row["allowed_ids"][-1] == row["segment_end"]
        question = Question(row["question"], {k: v for k, v in row["options"].items() if v}, kind=row["answer_kind"])
        segment_text = row["prompt"][1]["content"].split("Segment:\n", 1)[1]
        assert row["prompt"] == finder_messages(question, segment_text)
        assert [int(i) for i in PARAGRAPH_ID.findall(segment_text)] == row["allowed_ids"]


def test_finder_positives_hold_gold_and_negatives_do_not(finder):
    gutenqa = {item.item_id: item for item in load_benchmark("gutenqa")}
    detectiveqa = {item.item_id: item for item in load_benchmark("detectiveqa", DETECTIVEQA)}
    bmds = load_benchmark("bmds", limit=24, skip_bad=True)
    checked = Counter()
    for row in all_rows(finder):
        span = set(row["allowed_ids"])
        if row["label"] == "YES":
            assert row["gold_ids"] and set(row["gold_ids"]) <= span
        else:
            assert row["gold_ids"] == []
        if row["label_source"] == "gold":
            item = (gutenqa | detectiveqa)[row["item_id"]]
            assert set(row["gold_ids"]) == set(item.gold_evidence) & span
            checked["gold"] += 1
        else:
            assert row["label_source"] == "weak_bmds" and row["benchmark"] == "bmds"
            item = next(i for i in bmds if i.item_id == row["item_id"])
            assert row["segment_end"] < item.position  # the story is cut before its reveal
            readable = readable_part(bmds.narrative(item), item.position - 1)
            match = match_clue(readable, item.metadata[row["case_id"].split("#")[1]])
            evidence = match.evidence(min_coverage=0.75, max_paragraphs=3)  # the defaults the hand check set
            assert set(row["gold_ids"]) == set(evidence) & span
            if row["label"] == "NO":  # a weak negative shares almost nothing with the clue, and is a random span
                assert all(match.coverage[i] < 0.15 for i in span)
                assert row["negative_kind"] == "random"
            checked["weak"] += 1
    assert checked["gold"] and checked["weak"]


def test_a_clue_matching_more_paragraphs_than_a_citation_holds_is_too_generic():
    story = from_paragraphs(
        ["A telegram came at noon.", "He read the telegram twice.", "The telegram was from Leeds.",
         "Nobody answered the telegram.", "The hair lay coiled in the locked drawer."],
        title="A story",
    )  # fmt: skip
    assert match_clue(story, "The telegram").evidence(min_coverage=0.6, max_paragraphs=3) == ()
    assert match_clue(story, "The telegram").evidence(min_coverage=0.6, max_paragraphs=4) == (0, 1, 2, 3)
    assert match_clue(story, "The hair in the drawer").evidence(min_coverage=0.6, max_paragraphs=3) == (4,)


def test_a_clue_is_not_matched_on_the_word_found():
    """ "Found" in a clue says how it came to light; in a paragraph it is as often someone finding
    something else (the fourth hand-checked round: "you've found it, eh?", "He found Herndon")."""
    story = from_paragraphs(
        ["Holmes found the door locked.", "The letter lay on the desk, and Holmes read it twice.",
         "The cook went to market."],
        title="A story",
    )  # fmt: skip
    assert match_clue(story, "The letter found by Holmes").evidence(min_coverage=0.6, max_paragraphs=3) == (1,)
    with_found = match_clue(story, "The letter found by Holmes", ignore_words=())
    assert with_found.evidence(min_coverage=0.6, max_paragraphs=3) == (0, 1)  # the door matched on "found"


def test_finder_holds_question_answering_and_claim_rows(finder):
    """The paper's Finder data has a question-answering and a claim-verification split."""
    kinds = Counter((row["benchmark"], row["answer_kind"]) for row in all_rows(finder))
    assert {kind for _, kind in kinds} == {"mcq", "claim"}
    assert kinds["detectiveqa", "mcq"] and kinds["bmds", "claim"]  # DetectiveQA's gold clues; BMDS's clue claims


def test_finder_card_reports_the_hand_check_of_its_weak_rows(finder, cache_dir, tmp_path):
    config = finder_config(cache_dir)
    assert "Hand check (`docs/finder_weak_label_audit.jsonl`" in finder_card(finder, config)  # the repository's audit
    weak = [row for row in all_rows(finder) if row["label_source"] == "weak_bmds"]
    entries = [
        {"example_id": row["example_id"], "label": row["label"], "gold_ids": row["gold_ids"], "verdict": verdict}
        for row, verdict in zip(weak[:4], ("correct", "correct", "correct", "wrong"))
    ]
    changed = {**entries[0], "gold_ids": [*entries[0]["gold_ids"], 99999]}  # checked with other gold IDs: not counted
    audit = tmp_path / "audit.jsonl"
    audit.write_text("".join(json.dumps(e) + "\n" for e in [*entries[1:], changed]))
    summary = finder_weak_label_audit(weak, str(audit))
    assert summary["all"] == {"checked": 3, "correct": 2, "precision": 0.667, "lower_bound": 0.208}
    assert summary["weak_rows"] == len(weak)
    stats = {**finder.stats, "weak_label_audit": summary, "weak_label_warning": audit_warning(summary, len(weak))}
    card = finder_card(DatasetBuild(finder.rows_by_split, stats), config)
    assert f"3 of this build's {len(weak)} weak rows were checked; **66.7%** (Wilson 95% lower bound 20.8%)" in card
    assert f"**WARNING: weak labels not shown to be 90% precise: 3 of this build's {len(weak)} weak rows" in card
    missing = finder_weak_label_audit(weak, str(tmp_path / "none.jsonl"))
    assert "was not found, so the weak rows' precision is unknown" in audit_section(missing)


def _audited(correct: int, wrong: int) -> dict:
    """The audit summary of a build whose weak rows were all hand-checked, ``correct`` right."""
    rows = [{"example_id": f"bmds:S{n}", "label": "YES", "gold_ids": [n]} for n in range(correct + wrong)]
    entries = [{**row, "verdict": "correct" if n < correct else "wrong"} for n, row in enumerate(rows)]
    return audit_summary(rows, entries, "audit.jsonl")


def test_weak_rows_below_90_percent_or_on_fewer_than_50_checks_are_a_warning():
    assert wilson_lower_bound(63, 68) == pytest.approx(0.839, abs=5e-4)  # the hand check of docs/finder_weak_labels.md
    assert wilson_lower_bound(25, 25) == pytest.approx(0.867, abs=5e-4) and wilson_lower_bound(0, 4) == 0.0
    assert audit_warning(_audited(63, 5), 110) is None
    assert wilson_lower_bound(79, 85) == pytest.approx(0.854, abs=5e-4)  # today's default build (seven rounds)
    assert audit_warning(_audited(79, 6), 180) is None
    assert audit_warning(_audited(25, 0), 326) == (
        "WARNING: weak labels not shown to be 90% precise: 25 of this build's 326 weak rows were hand-checked, "
        "25 correct: precision 100.0%, Wilson 95% lower bound 86.7%; a build needs at least 50 checked and 90% "
        "correct. Check more rows (docs/finder_weak_labels.md) or leave bmds out of sources."
    )
    assert "60 of this build's 200 weak rows were hand-checked, 53 correct: precision 88.3%" in audit_warning(
        _audited(53, 7), 200
    )
    assert "0 of this build's 40 weak rows were hand-checked (no audit was read)" in audit_warning(None, 40)
    assert audit_warning({"audit": "gone.jsonl", "missing": True}, 40).startswith("WARNING: weak labels not shown")
    assert audit_warning(None, 0) is None  # gold and teacher rows only


def test_a_finder_build_says_its_warning_on_stderr(finder, cache_dir, tmp_path, monkeypatch, capsys):
    build = DatasetBuild(finder.rows_by_split, finder.stats)
    monkeypatch.setattr(finder_module, "build_finder_rows", lambda config, teacher=None: build)
    written = build_finder_dataset(finder_config(cache_dir, output_dir=str(tmp_path / "finder")))
    warning = finder.stats["weak_label_warning"]  # 24 BMDS stories: few of their weak rows were hand-checked
    assert warning and warning in capsys.readouterr().err
    assert f"**{warning}**" in written.paths["card"].read_text()


def test_finder_is_balanced_per_case_and_per_split(finder):
    for split, rows in finder.rows_by_split.items():
        labels = Counter(row["label"] for row in rows)
        assert labels["YES"] == labels["NO"], split
    per_case = Counter((row["case_id"], row["label"]) for row in all_rows(finder))
    for case_id in {case for case, _ in per_case}:
        assert per_case[case_id, "YES"] == per_case[case_id, "NO"]


def test_finder_mixes_hard_and_random_negatives_at_the_configured_share(finder):
    negatives = Counter(
        row["negative_kind"] for row in all_rows(finder) if row["label"] == "NO" and row["label_source"] != "weak_bmds"
    )
    assert negatives["hard"] and negatives["random"]
    assert abs(negatives["hard"] / sum(negatives.values()) - 0.5) <= 0.1
    weak = Counter(
        row["negative_kind"] for row in all_rows(finder) if row["label"] == "NO" and row["label_source"] == "weak_bmds"
    )
    assert weak and set(weak) == {"random"}  # weak negatives are random spans (weak_hard_negatives: false)
    for row in all_rows(finder):
        assert (row["negative_kind"] == "random") == (row["segment_kind"] == "random")
        assert (row["negative_kind"] == "") == (row["label"] == "YES")


def test_finder_splits_by_book(finder):
    books = {split: {row["book_key"] for row in rows} for split, rows in finder.rows_by_split.items()}
    assert all(books.values())  # every split gets books that give rows (none given to a book that gives none)
    assert not books["train"] & books["validation"] and not books["train"] & books["test"]
    assert not books["validation"] & books["test"]


def test_finder_prompts_are_unique_and_within_the_token_limit(finder, counter):
    rows = all_rows(finder)
    prompts = [json.dumps(row["prompt"], sort_keys=True) for row in rows]
    assert len(set(prompts)) == len(prompts)
    assert all(row["prompt_tokens"] <= 9216 for row in rows)
    sample = rows[:5]
    assert counter.count([r["prompt"] for r in sample]) == [r["prompt_tokens"] for r in sample]
    assert finder.stats["splits"]["train"]["examples"] == len(finder.rows_by_split["train"])


def test_finder_drops_duplicate_prompts(counter, cache_dir):
    shared_path("gutenqa_emma")
    twice = [{"name": "gutenqa", "limit": 4}, {"name": "gutenqa", "limit": 4}]
    build = build_finder_rows(finder_config(cache_dir, sources=twice), token_counter=counter)
    rows = all_rows(build)
    assert build.stats["dropped"]["duplicate prompt"] > 0
    assert len({json.dumps(r["prompt"]) for r in rows}) == len(rows)
    once = build_finder_rows(finder_config(cache_dir, sources=twice[:1]), token_counter=counter)
    assert len(rows) == len(all_rows(once))


def test_finder_token_limit_drops_and_counts_long_prompts(counter, cache_dir, finder):
    lengths = sorted(row["prompt_tokens"] for row in all_rows(finder) if row["benchmark"] == "gutenqa")
    limit = lengths[len(lengths) // 2]
    config = finder_config(cache_dir, sources=[{"name": "gutenqa", "limit": 10}], max_prompt_tokens=limit)
    build = build_finder_rows(config, token_counter=counter)
    assert build.stats["overflow"] > 0
    assert all(row["prompt_tokens"] <= limit for row in all_rows(build))


def test_finder_target_samples_pairs(counter, cache_dir, finder):
    build = build_finder_rows(finder_config(cache_dir, target_samples=10), token_counter=counter)
    rows = all_rows(build)
    assert len(rows) == 10 and build.stats["pairs_available"] == finder.stats["pairs_available"]
    assert Counter(r["label"] for r in rows) == {"YES": 5, "NO": 5}


def test_gold_outside_the_narrative_is_an_error_naming_the_row(tmp_path, counter, cache_dir):
    path = tmp_path / "bench.jsonl"
    records = [
        {
            "record": "narrative",
            "book_id": "b",
            "paragraphs": ["The butler hid the key.", "Rain fell.", "The key was found."],
        },
        {
            "record": "item",
            "item_id": "q1",
            "benchmark": "mine",
            "book_id": "b",
            "question": {"text": "Who hid the key?", "kind": "mcq", "options": {"A": "butler", "B": "maid"}},
            "answer": "A",
            "gold_evidence": [7],
        },
    ]
    path.write_text("\n".join(json.dumps(r) for r in records) + "\n")
    config = finder_config(cache_dir, sources=[{"name": "jsonl", "path": str(path)}])
    with pytest.raises(BenchmarkError, match=r"bench\.jsonl, line 2: .*gold evidence paragraph\(s\) \[7\] outside"):
        build_finder_rows(config, token_counter=counter)
    skipped = build_finder_rows(
        finder_config(cache_dir, sources=[{"name": "jsonl", "path": str(path)}], skip_bad=True), token_counter=counter
    )
    assert skipped.stats["sources"]["bench"]["skipped"] == 1 and skipped.stats["examples"] == 0


# --- silver labels from a teacher --------------------------------------------------------------


class Reply:
    def __init__(self, text: str, error: str | None = None):
        self.text, self.error = text, error


def keyword_paragraphs(prompt_text: str, keyword: str) -> list[int]:
    """IDs of the segment's paragraphs that name ``keyword``."""
    segment = prompt_text.split("Segment:\n", 1)[1]
    starts = list(PARAGRAPH_ID.finditer(segment))
    ends = [m.start() for m in starts[1:]] + [len(segment)]
    return [int(m.group(1)) for m, end in zip(starts, ends) if keyword in segment[m.end() : end].lower()]


class KeywordTeacher:
    """A stand-in backend: YES citing the paragraphs that name the keyword, else NO; counts calls
    and can fail after a number of conversations (an interrupted run)."""

    def __init__(self, keyword: str, fail_after: int | None = None):
        self.keyword, self.fail_after, self.conversations = keyword.lower(), fail_after, 0

    def generate(self, conversations, sampling=None):
        replies = []
        for messages in conversations:
            if self.fail_after is not None and self.conversations >= self.fail_after:
                raise ConnectionError("teacher endpoint went away")
            self.conversations += 1
            assert "correct answer is known" in messages[0]["content"]
            hits = keyword_paragraphs(messages[-1]["content"], self.keyword)
            if hits:
                replies.append(
                    Reply(f"<reason>The clue is in [{', '.join(map(str, hits))}].</reason><answer>YES</answer>")
                )
            else:
                replies.append(Reply("<reason>The segment does not mention it.</reason><answer>NO</answer>"))
        return replies


def test_teacher_labels_are_cached_and_a_stopped_run_resumes(tmp_path, counter, cache_dir):
    shared_path("quality_leval")
    config = finder_config(cache_dir, sources=[{"name": "quality_leval", "limit": 3}])
    teacher_dir = tmp_path / "teacher"

    stopped = TeacherLabeler(KeywordTeacher("door", fail_after=20), model="fake", cache_dir=teacher_dir, batch_size=8)
    with pytest.raises(ConnectionError):
        build_finder_rows(config, teacher=stopped, token_counter=counter)
    assert stopped.generated == 16  # two full batches were cached before the failure

    backend = KeywordTeacher("door")
    resumed = TeacherLabeler(backend, model="fake", cache_dir=teacher_dir, batch_size=8)
    assert len(resumed) == 16
    first = build_finder_rows(config, teacher=resumed, token_counter=counter)
    total = first.stats["candidates"]
    assert backend.conversations == total - 16 and resumed.generated == total - 16

    again = TeacherLabeler(KeywordTeacher("door"), model="fake", cache_dir=teacher_dir, batch_size=8)
    second = build_finder_rows(config, teacher=again, token_counter=counter)
    assert again.generated == 0 and again.backend.conversations == 0
    assert all_rows(second) == all_rows(first)

    rows = all_rows(first)
    assert rows and {r["label_source"] for r in rows} == {"silver_teacher"}
    for row in rows:
        cited = set(keyword_paragraphs(row["prompt"][1]["content"], "door"))
        assert (row["label"] == "YES") == bool(cited) and set(row["gold_ids"]) == cited
    assert {r["label"] for r in rows} == {"YES", "NO"}

    renamed = TeacherLabeler(KeywordTeacher("door"), model="another-teacher", cache_dir=teacher_dir)
    assert renamed.key(rows[0]["prompt"]) != again.key(rows[0]["prompt"])  # the cache key includes the teacher


def test_teacher_failures_are_not_cached(tmp_path):
    class Flaky:
        def generate(self, conversations, sampling=None):
            return [Reply("", error="prompt too long") for _ in conversations]

    teacher = TeacherLabeler(Flaky(), model="fake", cache_dir=tmp_path)
    assert teacher.complete([[{"role": "user", "content": "x"}]]) == [None]
    assert teacher.failed == 1 and len(TeacherLabeler(Flaky(), model="fake", cache_dir=tmp_path)) == 0


# --- Interpreter -------------------------------------------------------------------------------


def interpreter_config(cache_dir: str, **overrides) -> InterpreterDataConfig:
    values = {
        "sources": [
            {"name": "quality_leval", "limit": 30, "weight": 0.5},
            {"name": "leval_scifi", "limit": 16, "weight": 0.2},
            {"name": "gutenqa", "limit": 10, "weight": 0.0},
            {"name": "detectiveqa", "path": DETECTIVEQA, "weight": 0.05},
        ],
        "num_samples": 50,
        "synthetic": {"weight": 0.25},
        "encoder": None,
        "index_cache_dir": cache_dir,
        "split_fractions": {"train": 0.6, "validation": 0.2, "test": 0.2},
        **overrides,
    }
    return load_config(InterpreterDataConfig, None, values)


@pytest.fixture(scope="module")
def failed_items(tmp_path_factory):
    """A predictions file in the evaluation harness's format: every third QuALITY item failed."""
    shared_path("quality_leval")
    path = tmp_path_factory.mktemp("eval") / "predictions.jsonl"
    with open(path, "w") as f:
        for n, item in enumerate(load_benchmark("quality_leval", limit=30)):
            f.write(json.dumps({"item_id": item.item_id, "benchmark": "quality_leval", "prediction": "A",
                                "answer": item.answer, "correct": n % 3 != 0}) + "\n")  # fmt: skip
    return path


@pytest.fixture(scope="module")
def interpreter(counter, cache_dir, failed_items):
    """Source weights alone (``mcq_share: null``), hard items from a predictions file."""
    shared_path("leval_scifi")
    shared_path("gutenqa_emma")
    return build_interpreter_rows(
        interpreter_config(cache_dir, predictions=[str(failed_items)], mcq_share=None), token_counter=counter
    )


# A stand-in base model for hard-case mining: the scripted backend, through load_agents and the
# evaluation harness like any model; it answers A to every question and TRUE to every claim.
STAND_IN_MCQ = "<reason>The packet settles it [0].</reason>\n<answer>A</answer>"
STAND_IN_CLAIM = "<reason>The packet supports the claim [0].</reason>\n<answer>TRUE</answer>"
STAND_IN = {
    "model": "stand-in",
    "backend": "scripted",
    "options": {"script": [["<answer>TRUE or FALSE</answer>", STAND_IN_CLAIM]], "default": STAND_IN_MCQ},
}


def stand_in_fails(row: dict) -> bool:
    return row["answer"] != ("TRUE" if row["answer_kind"] == "claim" else "A")


@pytest.fixture(scope="module")
def mined(counter, cache_dir, tmp_path_factory):
    """The default mixture (the paper's MCQ/claim split) with hard cases marked by the stand-in."""
    shared_path("leval_scifi")
    shared_path("gutenqa_emma")
    output = tmp_path_factory.mktemp("mined")
    config = interpreter_config(cache_dir, num_samples=40, hard_cases=STAND_IN, output_dir=str(output))
    return config, build_interpreter_rows(config, token_counter=counter)


def test_interpreter_rows_have_the_schema_and_the_protocols_prompt(interpreter):
    rows = all_rows(interpreter)
    assert len(rows) == 50 and all(set(row) == set(INTERPRETER_SCHEMA) for row in rows)
    for row in rows:
        options = {k: v for k, v in row["options"].items() if v is not None}
        question = Question(row["question"], options, kind=row["answer_kind"])
        assert row["answer"] in question.labels
        assert row["prompt"] == interpreter_messages(question, row["evidence"])
        assert row["allowed_ids"] == sorted(row["allowed_ids"])
        for paragraph_id in row["allowed_ids"]:
            assert f"[{paragraph_id}] " in row["evidence"]
        assert len(row["evidence"]) <= 15000 and row["prompt_tokens"] <= 9216


def test_interpreter_packets_hold_the_gold_evidence(interpreter):
    gold_rows = [row for row in all_rows(interpreter) if row["evidence_source"] == "gold"]
    assert gold_rows
    gutenqa = {item.item_id: item for item in load_benchmark("gutenqa")}
    detectiveqa = {item.item_id: item for item in load_benchmark("detectiveqa", DETECTIVEQA)}
    for row in gold_rows:
        item = (gutenqa | detectiveqa)[row["source_item_id"]]
        assert set(row["gold_ids"]) == set(item.gold_evidence) <= set(row["allowed_ids"])
        if item.position is not None:
            assert max(row["allowed_ids"]) < item.position


def test_interpreter_mixture_follows_the_weights(interpreter):
    mixture = interpreter.stats["mixture"]
    realized = Counter(row["source"] for row in all_rows(interpreter))
    assert realized == {k: v for k, v in mixture["quotas"].items() if v}
    # detectiveqa has 3 items for a weight of 0.05 of 50: its share fits; nothing above capacity
    assert all(realized[s] <= mixture["available"][s] for s in realized)
    assert realized["quality_leval"] == 25 and realized["synthetic_claims"] == 12


def test_interpreter_hard_share_and_flags_come_from_the_predictions(interpreter, failed_items):
    records = [json.loads(line) for line in open(failed_items)]
    failed = {r["item_id"] for r in records if not r["correct"]}
    rows = all_rows(interpreter)
    for row in rows:
        assert row["hard"] == (row["item_id"] in failed)
    # 10 failed QuALITY items, all within the QuALITY quota: fewer than 27.5% of 50 exist
    assert sum(row["hard"] for row in rows) == 10
    assert interpreter.stats["hard"]["realized_share"] == 0.2


def test_interpreter_kind_mix_follows_the_papers_test_distribution_by_default(mined):
    config, build = mined
    assert config.mcq_share == round(199 / 310, 4)
    kinds = Counter(row["answer_kind"] for row in all_rows(build))
    assert kinds == {"mcq": round(40 * 199 / 310), "claim": 40 - round(40 * 199 / 310)}
    assert build.stats["mixture"]["kind_quotas"] == dict(kinds)


def test_hard_cases_are_the_base_models_failures_through_the_harness(mined):
    config, build = mined
    rows = all_rows(build)
    hard = [row for row in rows if row["hard"]]
    assert hard and all(stand_in_fails(row) for row in hard)  # every hard example is a failure of the model
    miner = build.stats["hard"]["base_model"]
    log = PredictionLog(miner["log"])  # the harness's own records, resumable
    assert miner["log"].startswith(config.output_dir) and len(log.records) == miner["answered"] == miner["asked"]
    for record in log.records:
        assert record["system"] == "interpreter" and record["correct"] == (record["prediction"] == record["answer"])
    asked = {r["item_id"] for r in log.records}
    assert all(row["item_id"] in asked for row in hard)
    assert miner["asked"] < build.stats["candidates"]  # it stops once each source has its share
    # the stand-in fails plenty of every source, so the share is reached: hard_share of every kind's quota
    kind_quotas = build.stats["mixture"]["kind_quotas"]
    assert len(hard) == build.stats["mixture"]["hard_target"] == sum(round(0.275 * n) for n in kind_quotas.values())
    assert build.stats["hard"]["realized_share"] == pytest.approx(len(hard) / len(rows), abs=1e-4)


def test_hard_case_mining_resumes_from_its_log(mined, counter):
    config, build = mined
    again = build_interpreter_rows(config, token_counter=counter)
    assert again.stats["hard"]["base_model"]["asked"] == 0  # every answer came from the log
    assert [r["hard"] for r in all_rows(again)] == [r["hard"] for r in all_rows(build)]


def test_interpreter_synthetic_claims_share_their_items_packet(interpreter):
    synthetic = [row for row in all_rows(interpreter) if row["source"] == "synthetic_claims"]
    assert {row["synthetic_edit"] for row in synthetic} >= {"statement", "option"}
    for row in synthetic:
        assert row["answer_kind"] == "claim" and row["label_source"] == "synthetic"
        assert row["answer"] == ("TRUE" if row["synthetic_edit"] == "statement" else "FALSE")
        if row["synthetic_edit"] != "statement":
            assert row["edit_replacement"] in row["question"]
    by_item = {}
    for row in synthetic:
        by_item.setdefault(row["source_item_id"], set()).add(row["evidence"])
    assert all(len(packets) == 1 for packets in by_item.values())


def test_interpreter_splits_by_book(interpreter):
    books = {split: {row["book_key"] for row in rows} for split, rows in interpreter.rows_by_split.items()}
    assert sum(bool(b) for b in books.values()) >= 2
    assert not (
        books["train"] & books["validation"] or books["train"] & books["test"] or books["validation"] & books["test"]
    )


def test_interpreter_and_finder_rows_feed_the_rewards(interpreter, finder):
    row = next(r for r in all_rows(interpreter) if r["gold_ids"])
    cited = ", ".join(str(i) for i in row["gold_ids"])
    good = f"<reason>Paragraph [{cited}] decides it.</reason><answer>{row['answer']}</answer>"
    labels = ("TRUE", "FALSE") if row["answer_kind"] == "claim" else [k for k, v in row["options"].items() if v]
    wrong = next(label for label in labels if label != row["answer"])
    bad = f"<reason>Paragraph [{cited}] decides it.</reason><answer>{wrong}</answer>"
    columns = {
        k: [row[k]] * 2 for k in ("question", "answer", "answer_kind", "options", "allowed_ids", "hard", "evidence")
    }
    rewards = REWARD_FUNCS["interpreter_total"](prompts=[row["prompt"]] * 2, completions=[good, bad], **columns)
    assert rewards[0] > rewards[1]

    positive = next(r for r in all_rows(finder) if r["label"] == "YES")
    ids = ", ".join(str(i) for i in positive["gold_ids"])
    yes = f"<reason>The clue is in [{ids}].</reason><answer>YES</answer>"
    no = "<reason>The segment does not mention the clue.</reason><answer>NO</answer>"
    columns = {k: [positive[k]] * 2 for k in ("label", "gold_ids", "allowed_ids")}
    rewards = REWARD_FUNCS["finder_total"](prompts=[positive["prompt"]] * 2, completions=[yes, no], **columns)
    assert rewards[0] > rewards[1]


def test_teacher_from_config_goes_through_the_backend_interface(tmp_path, monkeypatch):
    calls = {}

    def load_backend(kind, model, **options):
        calls["load"] = (kind, model, options)
        return KeywordTeacher("door")

    class SamplingConfig:
        @classmethod
        def from_dict(cls, values):
            calls["sampling"] = values
            return ("sampling", values["temperature"])

    # the backend interface as labels.py imported it
    monkeypatch.setattr(labels_module, "load_backend", load_backend)
    monkeypatch.setattr(labels_module, "SamplingConfig", SamplingConfig)
    config = TeacherConfig(
        backend="openai", model="Qwen/Qwen3-32B", options={"base_url": "http://h:1/v1"}, cache_dir=str(tmp_path)
    )
    teacher = TeacherLabeler.from_config(config)
    assert calls["load"] == ("openai", "Qwen/Qwen3-32B", {"base_url": "http://h:1/v1"})
    assert teacher.sampling == ("sampling", 0.0) and teacher.cache_path.parent == tmp_path
    assert TeacherLabeler.from_config(TeacherConfig()) is None
    with pytest.raises(ValueError, match="teacher.model is required"):
        TeacherConfig(backend="openai")


def test_a_teacher_cache_line_torn_by_an_interruption_is_cut_before_the_next_append(tmp_path):
    conversations = [
        [
            {"role": "system", "content": "The correct answer is known."},
            {"role": "user", "content": f"Segment:\n[{n}] a door"},
        ]
        for n in range(3)
    ]
    first = TeacherLabeler(KeywordTeacher("door"), model="fake", cache_dir=tmp_path, batch_size=8)
    first.complete(conversations[:2])
    with open(first.cache_path, "a", encoding="utf-8") as f:
        f.write('{"key": "torn by a kill')  # what an interrupted write leaves
    with pytest.warns(UserWarning, match="dropping an incomplete last line"):
        resumed = TeacherLabeler(KeywordTeacher("door"), model="fake", cache_dir=tmp_path, batch_size=8)
    assert len(resumed) == 2
    resumed.complete(conversations)
    reopened = TeacherLabeler(KeywordTeacher("door"), model="fake", cache_dir=tmp_path, batch_size=8)
    assert len(reopened) == 3 and reopened.complete(conversations) == resumed.complete(conversations)
    assert reopened.generated == 0
