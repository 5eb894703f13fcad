"""SQLite store: atomic chapter replacement, JSONL import/export, reads restricted to a chapter,
republishing and edited books."""

from __future__ import annotations

import json
import re
import sqlite3
import tempfile

import pytest
from conftest import shared_path
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from nwm_helpers import FIXTURE, SMALL_BOOK, by_chapter, holmes_book, record_json, records, small_book

from clueweaver.nwm.records import WorldRecordError, check_grounding, record_from_dict
from clueweaver.nwm.retrieval import serialize_state, state_view
from clueweaver.nwm.store import NarrativeStore, StoreError, chapter_paragraph_ids

BOOK = SMALL_BOOK


def located(chapter, who, where, paragraph=None):
    pid = paragraph if paragraph is not None else chapter_paragraph_ids(BOOK, chapter)[1]
    quote = BOOK.paragraphs[pid].text[:20]
    return record_from_dict(
        {
            **record_json(
                "character_state",
                [pid],
                quote,
                character=who,
                aspect="status",
                state=f"waits at {where}",
                location=where,
            ),
            "chapter": chapter,
        }
    )


@pytest.fixture
def store(tmp_path):
    with NarrativeStore.for_narrative(BOOK, tmp_path) as opened:
        yield opened


def test_store_lives_in_the_data_dir_under_the_book_hash(tmp_path, monkeypatch):
    monkeypatch.setenv("CLUEWEAVER_CACHE", str(tmp_path))
    with NarrativeStore.for_narrative(BOOK) as opened:
        assert opened.path == tmp_path / "nwm" / f"{BOOK.book_id}.sqlite"
        assert opened.content_hash == BOOK.content_hash


def test_republishing_a_chapter_replaces_it_and_recomputes_validity_downstream(store):
    store.replace_chapters(
        BOOK,
        {
            1: [located(1, "Ada", "the mill")],
            3: [located(3, "Ada", "the harbour")],
            5: [located(5, "Ada", "the tower")],
        },
        origin="test",
    )

    def where(n):
        return [(e.target, e.valid_from) for e in store.graph(n).state(relation="located_at")]

    assert [where(n) for n in (1, 2, 3, 4, 5)] == [
        [("the mill", 1)],
        [("the mill", 1)],
        [("the harbour", 3)],
        [("the harbour", 3)],
        [("the tower", 5)],
    ]
    old_ids = {s.id for s in store.records(3) if s.record.chapter == 3}

    store.replace_chapters(BOOK, {3: []}, origin="test")  # the edited chapter 3 no longer moves Ada
    assert [where(n) for n in (3, 4, 5)] == [[("the mill", 1)], [("the mill", 1)], [("the tower", 5)]]
    raw = store.edges(5)
    assert [(e.target, e.valid_from, e.valid_to) for e in raw] == [("the mill", 1, 5), ("the tower", 5, None)]
    assert not old_ids & {s.id for s in store.records(5)}
    assert [(c.chapter, c.records) for c in store.chapters()] == [(1, 1), (3, 0), (5, 1)]

    store.replace_chapters(BOOK, {3: [located(3, "Ada", "the tower")]}, origin="test")
    history = [(e.target, e.valid_from, e.valid_to) for e in store.edges(5)]
    assert history == [("the mill", 1, 3), ("the tower", 3, 5), ("the tower", 5, None)]


def test_a_bad_record_or_a_failure_midway_writes_nothing(store, monkeypatch):
    store.replace_chapters(BOOK, {2: [located(2, "Bram", "the mill")]}, origin="test")
    before = [s.record for s in store.records(5)]
    late_evidence = located(2, "Bram", "the tower", paragraph=chapter_paragraph_ids(BOOK, 3)[1])
    with pytest.raises(WorldRecordError, match="after the record's chapter 2"):
        store.replace_chapters(BOOK, {2: [located(2, "Cleo", "the tower"), late_evidence]}, origin="test")
    with pytest.raises(WorldRecordError, match="stamped with chapter 3"):
        store.replace_chapters(BOOK, {2: [located(3, "Cleo", "the tower")]}, origin="test")
    with pytest.raises(StoreError, match="no chapter 9"):
        store.replace_chapters(BOOK, {9: []}, origin="test")

    calls = []
    real_insert = store._insert

    def failing_insert(db, record):
        calls.append(record)
        if len(calls) == 2:
            raise sqlite3.OperationalError("disk full")
        return real_insert(db, record)

    monkeypatch.setattr(store, "_insert", failing_insert)
    with pytest.raises(sqlite3.OperationalError):
        store.replace_chapters(
            BOOK, {2: [located(2, "Cleo", "the tower")], 4: [located(4, "Dov", "the mill")]}, origin="test"
        )
    assert len(calls) == 2
    assert [s.record for s in store.records(5)] == before
    assert [c.chapter for c in store.chapters()] == [2]


def test_import_checks_every_line_before_writing(store, tmp_path):
    good = located(1, "Ada", "the mill").to_dict()
    bad_quote = dict(
        located(2, "Bram", "the mill").to_dict(), evidence={"paragraph_ids": [6], "quote": "not in the book"}
    )
    path = tmp_path / "records.jsonl"
    path.write_text(json.dumps(good) + "\n\n" + json.dumps(bad_quote) + "\n", encoding="utf-8")
    with pytest.raises(StoreError, match=r"records.jsonl, line 3: .*not verbatim"):
        store.import_jsonl(BOOK, path)
    path.write_text(json.dumps(good) + "\n{oops\n", encoding="utf-8")
    with pytest.raises(StoreError, match="line 2: not valid JSON"):
        store.import_jsonl(BOOK, path)
    assert store.records(5) == []
    path.write_text(json.dumps(good) + "\n", encoding="utf-8")
    assert store.import_jsonl(BOOK, path) == {1: 1}
    assert store.import_jsonl(BOOK, path) == {1: 1}  # importing again replaces, never duplicates
    assert len(store.records(5)) == 1


def test_fixture_imports_exports_and_reads_as_of_each_chapter(tmp_path):
    book = holmes_book(shared_path)
    with NarrativeStore.for_narrative(book, tmp_path / "a") as first:
        assert first.import_jsonl(book, FIXTURE) == {1: 12, 2: 10, 3: 12}
        exported = tmp_path / "out.jsonl"
        assert first.export_jsonl(exported) == 34
        assert [p.name for p in tmp_path.iterdir() if p.is_file()] == [
            "out.jsonl"
        ]  # written whole, nothing left beside it
        with NarrativeStore.for_narrative(book, tmp_path / "b") as second:
            second.import_jsonl(book, exported)
            assert [s.record for s in second.records(3)] == [s.record for s in first.records(3)]
        assert first.records(0) == [] and first.edges(0) == []
        assert {s.record.chapter for s in first.records(2)} == {1, 2}
        holmes = state_view(first, 2, entity="Sherlock Holmes")
        knows = {(e.target, e.value) for e in holmes.edges if e.relation == "knows"}
        assert ("where Irene Adler hides the photograph", "knows") in knows
        assert "the slim youth who wished Holmes good-night was Irene Adler" not in json.dumps(holmes.to_dict())
        assert "Irene Adler in male costume" in serialize_state(first, 3)
        assert "Irene Adler in male costume" not in serialize_state(first, 2)


def test_the_same_text_cut_into_other_chapters_rebinds_the_store(tmp_path):
    # a store built when chapters were counted differently (an older chapter detector) must not
    # keep records stamped with the old numbers: chapters that no longer match become stale
    from clueweaver.books.narrative import Chapter, Narrative

    pid = chapter_paragraph_ids(BOOK, 3)[1]
    record = record_json(
        "thread", [pid], BOOK.paragraphs[pid].text[:20], thread="the key", description="lost", status="open"
    )
    with NarrativeStore.for_narrative(BOOK, tmp_path) as store:
        store.replace_chapters(BOOK, {2: [], 3: [record_from_dict({**record, "chapter": 3})]}, origin="test")
    merged = [Chapter(1, BOOK.chapters[0].title, BOOK.chapters[0].first_paragraph, BOOK.chapters[1].last_paragraph)]
    merged += [
        Chapter(n - 1, c.title, c.first_paragraph, c.last_paragraph) for n, c in enumerate(BOOK.chapters[2:], 3)
    ]
    recut = Narrative(BOOK.title, BOOK.paragraphs, merged, BOOK.source)
    assert recut.content_hash == BOOK.content_hash
    with NarrativeStore.for_narrative(recut, tmp_path) as store:
        assert store.invalidated == [2, 3] and store.records(5) == []
        assert store.book_chapter_numbers() == [1, 2, 3, 4]
    with NarrativeStore.for_narrative(recut, tmp_path) as store:
        assert store.invalidated == []  # bound to this layout now


def test_an_edited_book_carries_unchanged_chapters_over_and_makes_edited_ones_stale(tmp_path):
    def p(book, c, i):
        return chapter_paragraph_ids(book, c)[1 + i]

    def rec(book, chapter, cited_chapter, i, who):
        pid = p(book, cited_chapter, i)
        return record_from_dict(
            {
                **record_json(
                    "epistemic_state",
                    [pid],
                    book.paragraphs[pid].text[-25:],
                    character=who,
                    proposition=f"the key of chapter {cited_chapter}",
                    knows=True,
                ),
                "chapter": chapter,
            }
        )

    with NarrativeStore.for_narrative(BOOK, tmp_path) as old:
        old.replace_chapters(
            BOOK,
            {
                1: [rec(BOOK, 1, 1, 0, "Ada")],
                2: [rec(BOOK, 2, 2, 1, "Bram")],
                3: [rec(BOOK, 3, 3, 2, "Cleo")],
                4: [rec(BOOK, 4, 4, 0, "Dov"), rec(BOOK, 4, 2, 1, "Dov")],
                5: [rec(BOOK, 5, 1, 0, "Ada")],
            },
            origin="test",
        )
    edited = small_book(edits={(2, 1): ["In chapter 2, the key was rewritten.", "A paragraph was added."]})
    edited.source = BOOK.source
    with NarrativeStore.for_narrative(edited, tmp_path) as new:
        assert new.path != old.path and new.invalidated == [2, 4]
        status = {c.chapter: c.status for c in new.chapters()}
        assert status == {1: "published", 2: "stale", 3: "published", 4: "stale", 5: "published"}
        kept = new.records(5)
        assert [(s.record.chapter, s.record.character) for s in kept] == [(1, "Ada"), (3, "Cleo"), (5, "Ada")]
        for stored in kept:
            check_grounding(stored.record, edited)  # moved IDs still point at the quoted text
        assert kept[1].record.evidence.paragraph_ids == (p(BOOK, 3, 2) + 1,)
        assert {e.record_id for e in new.edges(5)} == {s.id for s in kept}
    with NarrativeStore.for_narrative(BOOK, tmp_path) as original:
        assert len(original.records(5)) == 6  # the old text's store is left as it was


def test_opening_a_file_that_is_not_a_store_is_a_clear_error(tmp_path):
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"this is not a database" * 100)
    with pytest.raises(StoreError, match="not a readable world-model store"):
        NarrativeStore(junk, BOOK)
    with pytest.raises(StoreError, match="no world-model store here"):
        NarrativeStore(tmp_path / "missing.sqlite")


# --- property: nothing after chapter n is ever returned for a read as of n ----------------------


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(records(), max_size=25))
def test_no_read_as_of_n_returns_anything_from_a_later_chapter(drawn):
    with tempfile.TemporaryDirectory() as data_dir, NarrativeStore.for_narrative(BOOK, data_dir) as store:
        store.replace_chapters(BOOK, by_chapter(drawn), origin="test")
        chapter_of = {s.id: s.record.chapter for s in store.records(len(BOOK.chapters))}
        for n in range(0, len(BOOK.chapters) + 1):
            limit = store.last_readable_paragraph(n)
            seen = store.records(n)
            assert sorted(s.id for s in seen) == sorted(i for i, c in chapter_of.items() if c <= n)
            assert all(max(s.record.evidence.paragraph_ids) <= limit for s in seen)
            raw = store.edges(n)
            assert all(e.valid_from <= n and chapter_of[e.record_id] <= n for e in raw)
            graph = store.graph(n)
            assert all(e.valid_to is None or e.valid_to <= n for e in graph.history())
            # the state the SQL filter keeps is the state the Python graph computes, which is the
            # brute-force latest edge per slot
            latest = {}
            for e in raw:
                latest[e.slot] = e.record_id, e.relation, e.subject, e.target
            current_sql = sorted((e.record_id, e.relation, e.subject, e.target) for e in store.edges(n, current=True))
            assert (
                current_sql
                == sorted((e.record_id, e.relation, e.subject, e.target) for e in graph.state())
                == sorted(latest.values())
            )
            view = state_view(store, n).to_dict()
            shown = {r["id"] for entry in view["registries"] for r in entry["current"]}
            assert all(chapter_of[i] <= n for i in shown)
            assert all(e["valid_from"] <= n for e in view["edges"] + view["history"])
            cited = {int(i) for i in re.findall(r"#(\d+)", serialize_state(store, n))}
            assert cited == shown
