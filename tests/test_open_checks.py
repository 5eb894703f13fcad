"""Open-question checks: the loader accepts free-text answers and single-paragraph questions on a small
fixture, and the shipped tuning and frozen sets hold on the real books (skipped when ../shared/data is
absent)."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from check_sets import copies_a_run
from conftest import REPO_ROOT, shared_path

from clueweaver.benchmarks.checks import (
    MAX_EVIDENCE,
    OPEN_CHECK_FILES,
    OPEN_FROZEN_FILE,
    OPEN_FROZEN_SHA256,
    OPEN_MIN_SPREAD,
    CheckError,
    frozen_digest,
    load_multihop_checks,
    load_open_checks,
)

OPEN_TUNING_FILE = OPEN_CHECK_FILES[0]

# ---------------------------------------------------------------- fixture book and open questions


@pytest.fixture
def shared_dir(tmp_path):
    paragraphs = [f"Paragraph number {i} tells of event-{i}." for i in range(80)]
    nocha = tmp_path / "nocha" / "data_sample"
    nocha.mkdir(parents=True)
    (nocha / "classic_books.json").write_text(json.dumps({"tiny": "\n\n".join(paragraphs)}), encoding="utf-8")
    return tmp_path


def _open(**overrides) -> dict:
    record = {
        "id": "o-01",
        "book": "nocha:tiny",
        "kind": "open",
        "question": "What happens at the start, and what comes of it?",
        "options": {},
        "answer": "Event 3 happens, and event 70 follows from it.",
        "evidence": ["tells of event-3.", "tells of event-70."],
        "note": "cause early, consequence late",
    }
    record.update(overrides)
    return record


def _load(shared_dir, tmp_path, *records):
    path = tmp_path / "open.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return [check for _, check in load_multihop_checks(shared_dir, checks_path=path)]


def test_open_questions_take_a_reference_answer_and_one_or_more_paragraphs(shared_dir, tmp_path):
    two, one = _load(shared_dir, tmp_path, _open(), _open(id="o-02", evidence=["tells of event-41."]))
    assert two.question.is_open and two.question.labels == ()
    assert two.answer.startswith("Event 3") and two.gold_ids == (3, 70) and two.multi_hop
    assert one.gold_ids == (41,) and not one.multi_hop


@pytest.mark.parametrize(
    "overrides, message",
    [
        ({"answer": "  "}, "needs a reference answer"),
        ({"options": {"A": "x", "B": "y"}}, "takes no options"),
        ({"evidence": []}, f"an open question needs 1-{MAX_EVIDENCE}"),
        ({"evidence": [f"tells of event-{i}." for i in (1, 21, 41, 61, 71)]}, f"needs 1-{MAX_EVIDENCE}"),
    ],
)
def test_bad_open_question_raises_error_naming_it(shared_dir, tmp_path, overrides, message):
    with pytest.raises(CheckError, match="check o-01") as excinfo:
        _load(shared_dir, tmp_path, _open(**overrides))
    assert message in str(excinfo.value)


def test_a_claim_still_needs_two_paragraphs(shared_dir, tmp_path):
    """Single-paragraph evidence is for open questions only; the other kinds load exactly as before."""
    claim = _open(kind="claim", answer="TRUE", evidence=["tells of event-41."])
    with pytest.raises(CheckError, match="a multi-hop check needs 2-"):
        _load(shared_dir, tmp_path, claim)


# ---------------------------------------------------------------- the shipped sets on the real books


@pytest.fixture(scope="module", params=[False, True], ids=["open tuning set", "open frozen set"])
def shipped(request):
    return load_open_checks(frozen=request.param, shared_data_dir=shared_path())


def test_every_open_question_resolves_to_distinct_distant_paragraphs(shipped):
    """Loading already proves each quote lies in exactly one paragraph; here the gold is checked for shape."""
    assert len(shipped) >= 40
    for narrative, check in shipped:
        ids = check.gold_ids
        assert check.question.is_open and check.answer.strip(), check.id
        assert 1 <= len(ids) <= 3 and list(ids) == sorted(set(ids)), check.id
        assert not check.multi_hop or ids[-1] - ids[0] >= OPEN_MIN_SPREAD, f"{check.id}: spans {ids[-1] - ids[0]}"
        assert not any(narrative[i].is_heading for i in ids), f"{check.id}: evidence on a heading"


def test_most_open_questions_are_multi_hop_over_several_books(shipped):
    checks = [check for _, check in shipped]
    assert sum(check.multi_hop for check in checks) >= 0.6 * len(checks)
    per_book = Counter(check.book for check in checks)
    assert len(per_book) >= 5 and min(per_book.values()) >= 5, per_book
    assert len({check.id for check in checks}) == len(checks)


def test_frozen_open_questions_use_no_evidence_paragraph_of_the_tuning_set_nor_one_twice():
    tuning = {(c.book, i) for _, c in load_open_checks(shared_data_dir=shared_path()) for i in c.gold_ids}
    seen = set()
    for _, check in load_open_checks(frozen=True, shared_data_dir=shared_path()):
        evidence = {(check.book, i) for i in check.gold_ids}
        assert not tuning & evidence and not seen & evidence, check.id
        seen |= evidence


def test_the_frozen_open_set_is_unchanged():
    """It is frozen: a new held-out set is a new file, never an edit of this one."""
    assert frozen_digest(OPEN_FROZEN_FILE) == OPEN_FROZEN_SHA256


@pytest.mark.parametrize("path", OPEN_CHECK_FILES, ids=["open tuning set", "open frozen set"])
def test_open_questions_paraphrase_short_verbatim_quotes(path):
    """A guard against copying, not proof of paraphrase: no question repeats six words of its evidence in a
    row (a name such as "the Château d'If" may recur), and each quote is short enough to locate one passage."""
    for line in path.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        assert record["kind"] == "open" and record["options"] == {}, record["id"]
        for quote in record["evidence"]:
            assert 20 <= len(quote) <= 120, (record["id"], quote)
            assert not copies_a_run(record["question"], quote, 6), (record["id"], quote)


@pytest.mark.parametrize("path", OPEN_CHECK_FILES, ids=["open tuning set", "open frozen set"])
def test_docs_state_how_many_gold_paragraphs_each_open_set_holds(path):
    """docs/retrieval.md's table of the sets gives each open file's range and counts of evidence paragraphs."""
    docs = (REPO_ROOT / "docs" / "retrieval.md").read_text(encoding="utf-8")
    counts = Counter(len(json.loads(line)["evidence"]) for line in path.read_text(encoding="utf-8").splitlines())
    row = next(line for line in docs.splitlines() if f"`clueweaver/data/{path.name}`" in line)
    assert f"{min(counts)}-{max(counts)} gold paragraphs" in row
    assert ", ".join(f"{counts[n]} with {n}" for n in sorted(counts)) in row
