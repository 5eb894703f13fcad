"""Multi-hop checks: resolution of evidence strings on a small fixture, and the shipped set on the
real shared books (skipped when ../shared/data is absent)."""

from __future__ import annotations

import json
import warnings
from collections import Counter

import pytest
from check_sets import assert_distinct_distant_evidence, assert_legal_and_balanced
from conftest import REPO_ROOT, shared_path

from clueweaver.benchmarks.checks import (
    CHECKS_FILE,
    FROZEN_FILE,
    FROZEN_SHA256,
    MAX_EVIDENCE,
    MIN_EVIDENCE,
    CheckError,
    MultiHopCheck,
    frozen_digest,
    load_multihop_checks,
)
from clueweaver.books.narrative import Narrative

# ---------------------------------------------------------------- fixture books and checks


def _book(name: str, size: int = 80) -> str:
    """Paragraphs with a unique marker each, plus one phrase repeated in paragraphs 10 and 60."""
    paragraphs = [f"{name} paragraph number {i} tells of event-{name}-{i}." for i in range(size)]
    paragraphs[10] += " The lantern went out."
    paragraphs[60] += " The lantern went out."
    return "\n\n".join(paragraphs)


@pytest.fixture
def shared_dir(tmp_path):
    nocha = tmp_path / "nocha" / "data_sample"
    nocha.mkdir(parents=True)
    (nocha / "classic_books.json").write_text(json.dumps({"tiny_classic": _book("classic")}), encoding="utf-8")
    kdsh = tmp_path / "kdsh_backstory"
    kdsh.mkdir()
    (kdsh / "tiny.txt").write_text(_book("tiny"), encoding="utf-8")
    return tmp_path


def _record(**overrides) -> dict:
    record = {
        "id": "t-01",
        "book": "nocha:tiny_classic",
        "kind": "claim",
        "question": "Event 3 leads to event 70.",
        "options": {},
        "answer": "TRUE",
        "evidence": ["tells of event-classic-70.", "tells of  event-classic-3."],
        "note": "cause early, consequence late",
    }
    record.update(overrides)
    return record


def _write(tmp_path, *records) -> str:
    path = tmp_path / "checks.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return str(path)


def test_resolves_evidence_strings_to_sorted_paragraph_ids(shared_dir, tmp_path):
    mcq = _record(
        id="t-02",
        book="kdsh:tiny",
        kind="mcq",
        options={"A": "one", "B": "two", "C": "three", "D": "four"},
        answer="C",
        evidence=["event-tiny-50.", "event-tiny-5.", "event-tiny-75."],
    )
    pairs = load_multihop_checks(shared_dir, checks_path=_write(tmp_path, _record(), mcq, _record(id="t-03")))
    assert [check.id for _, check in pairs] == ["t-01", "t-02", "t-03"]
    narrative, claim = pairs[0]
    assert isinstance(narrative, Narrative) and isinstance(claim, MultiHopCheck)
    # Paragraph 0 of the fixture is paragraph 0 of the narrative; whitespace in evidence is normalized.
    assert claim.gold_ids == (3, 70)
    assert claim.question.is_claim and claim.answer == "TRUE"
    assert pairs[1][1].gold_ids == (5, 50, 75)
    assert pairs[1][1].question.labels == ("A", "B", "C", "D")
    assert pairs[0][0] is pairs[2][0], "a book is loaded once and shared by its checks"


def test_books_filter_keeps_only_named_books(shared_dir, tmp_path):
    path = _write(
        tmp_path, _record(), _record(id="t-02", book="kdsh:tiny", evidence=["event-tiny-1.", "event-tiny-40."])
    )
    pairs = load_multihop_checks(shared_dir, checks_path=path, books={"kdsh:tiny"})
    assert [check.id for _, check in pairs] == ["t-02"]


@pytest.mark.parametrize(
    "overrides, message",
    [
        ({"evidence": ["event-classic-3.", "no such words anywhere"]}, "matches no paragraph"),
        ({"evidence": ["event-classic-3.", "The lantern went out."]}, "matches paragraphs 10, 60"),
        ({"evidence": ["event-classic-3.", "paragraph number 3 tells"]}, "same paragraph"),
        ({"evidence": ["event-classic-3."]}, f"needs {MIN_EVIDENCE}-{MAX_EVIDENCE}"),
        ({"answer": "B"}, "answer 'B' is not one of TRUE, FALSE"),
        ({"kind": "mcq", "options": {"A": "x", "E": "y"}, "answer": "A"}, "option labels"),
        ({"book": "nocha:missing_title"}, "no book titled 'missing_title'"),
        ({"book": "imdb:tiny"}, "unknown source 'imdb'"),
        ({"book": "kdsh:absent"}, "cannot load book 'kdsh:absent'"),
    ],
)
def test_bad_check_raises_error_naming_check_and_problem(shared_dir, tmp_path, overrides, message):
    with pytest.raises(CheckError, match="check t-01") as excinfo:
        load_multihop_checks(shared_dir, checks_path=_write(tmp_path, _record(**overrides)))
    assert message in str(excinfo.value)


def test_missing_field_and_missing_shared_folder_are_reported(shared_dir, tmp_path):
    record = _record()
    del record["evidence"]
    with pytest.raises(CheckError, match="missing field\\(s\\) evidence"):
        load_multihop_checks(shared_dir, checks_path=_write(tmp_path, record))
    with pytest.raises(CheckError, match="CLUEWEAVER_SHARED_DATA"):
        load_multihop_checks(tmp_path / "nowhere", checks_path=_write(tmp_path, _record()))


def test_env_var_overrides_default_shared_folder(shared_dir, tmp_path, monkeypatch):
    monkeypatch.setenv("CLUEWEAVER_SHARED_DATA", str(shared_dir))
    pairs = load_multihop_checks(checks_path=_write(tmp_path, _record()))
    assert pairs[0][1].gold_ids == (3, 70)


def test_warns_when_ids_moved_since_build(shared_dir, tmp_path):
    same = _record(build_check={"paragraph_ids": [70, 3]})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        load_multihop_checks(shared_dir, checks_path=_write(tmp_path, same))
    moved = _record(build_check={"paragraph_ids": [71, 3]})
    with pytest.warns(UserWarning, match="1 check\\(s\\) of nocha:tiny_classic resolve to other paragraph IDs"):
        load_multihop_checks(shared_dir, checks_path=_write(tmp_path, moved))


# ---------------------------------------------------------------- the shipped set on the real books

MAIN_NOVELS = {
    "nocha:little_women_louisa_may_alcott",
    "nocha:the_adventures_of_sherlock_holmes_arthur_conan_doyle",
    "nocha:anne_of_green_gables_lm_montgomery",
    "nocha:the_great_gatsby_f_scott_fitzgerald",
    "kdsh:castaways",
    "kdsh:monte_cristo",
}


@pytest.fixture(scope="module", params=[CHECKS_FILE, FROZEN_FILE], ids=["tuning set", "frozen held-out set"])
def shipped(request):
    return request.param, load_multihop_checks(shared_path(), checks_path=request.param)


def test_every_shipped_check_resolves_to_distinct_distant_paragraphs(shipped):
    path, checks = shipped
    assert len(checks) >= (87 if path == CHECKS_FILE else 60)
    for narrative, check in checks:
        assert_distinct_distant_evidence(narrative, check)


def test_shipped_answers_are_legal_and_balanced(shipped):
    assert_legal_and_balanced([check for _, check in shipped[1]])


def test_shipped_set_covers_each_main_novel(shipped):
    path, checks = shipped
    per_book = Counter(check.book for _, check in checks)
    assert MAIN_NOVELS <= set(per_book)
    assert all(per_book[book] >= 8 for book in MAIN_NOVELS), per_book
    ids = [check.id for _, check in checks]
    assert len(ids) == len(set(ids))


def test_shipped_evidence_strings_are_short_verbatim_quotes():
    for path in (CHECKS_FILE, FROZEN_FILE):
        for line in path.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            for text in record["evidence"]:
                assert 20 <= len(text) <= 120, (record["id"], text)


def test_frozen_checks_use_no_evidence_paragraph_of_the_tuning_set_nor_one_twice():
    tuning = {(check.book, i) for _, check in load_multihop_checks(shared_path()) for i in check.gold_ids}
    seen = set()
    for _, check in load_multihop_checks(shared_path(), checks_path=FROZEN_FILE):
        evidence = {(check.book, i) for i in check.gold_ids}
        assert not tuning & evidence and not seen & evidence, check.id
        seen |= evidence


def test_frozen_checks_are_far_apart_multi_hop_evidence():
    """Each frozen check needs paragraphs at least 20 apart, in at least four books."""
    checks = load_multihop_checks(shared_path(), checks_path=FROZEN_FILE)
    for _, check in checks:
        assert min(b - a for a, b in zip(check.gold_ids, check.gold_ids[1:])) >= 20, check.id
    assert len({check.book for _, check in checks}) >= 4


def test_the_frozen_held_out_set_is_unchanged():
    """It is frozen: a new held-out set is a new file, never an edit of this one."""
    assert frozen_digest(FROZEN_FILE) == FROZEN_SHA256


def test_docs_state_how_many_gold_paragraphs_each_set_holds():
    """docs/retrieval.md's table of the sets gives each file's range and counts of evidence paragraphs."""
    docs = (REPO_ROOT / "docs" / "retrieval.md").read_text(encoding="utf-8")
    for path in (CHECKS_FILE, FROZEN_FILE):
        counts = Counter(len(json.loads(line)["evidence"]) for line in path.read_text(encoding="utf-8").splitlines())
        row = next(line for line in docs.splitlines() if f"`clueweaver/data/{path.name}`" in line)
        stated = f"{min(counts)}-{max(counts)} gold paragraphs"
        assert stated in row, (path.name, stated)
        assert ", ".join(f"{counts[n]} with {n}" for n in sorted(counts)) in row


def test_the_frozen_digest_ignores_the_derived_paragraph_ids_but_not_a_word_of_a_check(tmp_path):
    original = FROZEN_FILE.read_text(encoding="utf-8").splitlines()
    first = json.loads(original[0])
    renumbered = tmp_path / "renumbered.jsonl"
    renumbered.write_text(
        "\n".join([json.dumps({**first, "build_check": {"paragraph_ids": [1, 2]}})] + original[1:]) + "\n"
    )
    assert frozen_digest(renumbered) == FROZEN_SHA256
    edited = tmp_path / "edited.jsonl"
    edited.write_text("\n".join([json.dumps({**first, "answer": "B"})] + original[1:]) + "\n")
    assert frozen_digest(edited) != FROZEN_SHA256
