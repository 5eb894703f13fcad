"""Querying the world model as of a chapter: hybrid ranking, one-hop expansion, bounded packets,
the State Memory switch, and records as Finder segments."""

from __future__ import annotations

import re
import tempfile

import numpy as np
import pytest
from conftest import shared_path
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from nwm_helpers import CONTENT_IDS, FIXTURE, NAMES, PLACES, SMALL_BOOK, by_chapter, holmes_book, record_json, records

from clueweaver.nwm.records import record_from_dict
from clueweaver.nwm.retrieval import _nodes, query, rank_texts, serialize_state
from clueweaver.nwm.segments import nwm_spans
from clueweaver.nwm.store import NarrativeStore, StoreError
from clueweaver.protocol.question import Question
from clueweaver.retrieval import get_index
from clueweaver.segments.segmenter import NoMatchError, get_preset, merge_spans, segment_narrative
from clueweaver.sources import SegmentSourceError, SourceRequest, candidate_segments


def request(book, question, store_dir, **limits) -> SourceRequest:
    """What a segment source reads, BM25 alone, the detectiveqa preset."""
    index = get_index(book, None)
    return SourceRequest(
        book, question, get_preset("detectiveqa"), index, encoder=None, nwm_dir=str(store_dir), **limits
    )


class HashingEncoder:
    """A deterministic dense encoder (hashed bag of words) that counts what it encodes."""

    name = "test:hashing"

    def __init__(self):
        self.encoded = 0

    def encode(self, texts, *, is_query=False, show_progress=False):
        self.encoded += len(texts)
        out = np.zeros((len(texts), 64), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in re.findall(r"\w+", text.lower()):
                out[row, sum(map(ord, word)) % 64] += 1
        return out / np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-9)


@pytest.fixture(scope="module")
def holmes(tmp_path_factory):
    book = holmes_book(shared_path)
    store = NarrativeStore.for_narrative(book, tmp_path_factory.mktemp("nwm"))
    store.import_jsonl(book, FIXTURE)
    yield book, store
    store.close()


YOUTH = "Who was the slim youth who said good-night to Holmes?"


def test_ranking_finds_the_revelation_only_once_it_is_revealed(holmes):
    _, store = holmes
    at3 = query(store, [YOUTH], 3, encoder=None, top_k=2, neighbour_limit=0)
    assert {h.record.KIND for h in at3.hits} == {"revelation", "scene_beat"}
    assert "Irene Adler in male costume" in at3.text
    at2 = query(store, [YOUTH], 2, encoder=None, top_k=2, neighbour_limit=0)
    assert at2.hits[0].record.KIND == "scene_beat" and "male costume" not in at2.text
    assert at2.paragraph_ids[-1] <= 219  # chapter 2 (1.2) ends at paragraph 219


PHOTOGRAPH_NOW = "Where is the photograph now?"


def test_current_records_outrank_superseded_ones_which_say_when_they_were_superseded(holmes):
    _, store = holmes
    encoder = None
    packet = query(store, [PHOTOGRAPH_NOW], 3, encoder=encoder, max_chars=None)
    first = packet.hits[0]
    assert first.record.KIND == "object_state" and first.record.location == "with Irene Adler abroad"
    marks = [hit.superseded_in for hit in packet.hits]
    superseded = [hit for hit in packet.hits if hit.superseded_in is not None]
    assert superseded and marks == sorted(marks, key=lambda m: m is not None)  # every current record first
    locations = {h.record.location: h.superseded_in for h in superseded if h.record.KIND == "object_state"}
    assert locations == {None: 2, "a recess behind a sliding panel above the right bell-pull in Briony Lodge": 3}
    for hit in superseded:
        assert f"#{hit.record_id} [ch {hit.record.chapter};" in packet.text
        assert f"(superseded in chapter {hit.superseded_in})" in packet.text.split(f"#{hit.record_id} [")[1]
    # under a small budget the current location is what survives, not a stale one
    small = query(store, [PHOTOGRAPH_NOW], 3, encoder=encoder, max_chars=500)
    assert "with Irene Adler abroad" in small.text and "right bell-pull" not in small.text
    assert [h.record_id for h in small.hits] == [first.record_id]
    # as of chapter 2 (1.2) the bell-pull recess is the current place, and nothing is marked superseded by chapter 3
    at2 = query(store, [PHOTOGRAPH_NOW], 2, encoder=encoder, max_chars=None)
    assert "right bell-pull" in at2.hits[0].record.location and "chapter 3" not in at2.text


def test_with_dense_ranking_too_every_current_record_comes_before_the_superseded_ones(holmes):
    _, store = holmes

    class Encoder(HashingEncoder):
        name = "test:hashing-current-first"  # its own vectors in the shared store

    packet = query(store, [PHOTOGRAPH_NOW], 3, encoder=Encoder(), max_chars=None)
    marks = [hit.superseded_in is not None for hit in packet.hits]
    assert any(marks) and marks == sorted(marks)
    photographs = [h for h in packet.hits if h.record.KIND == "object_state" and h.record.object == "the photograph"]
    assert photographs[0].superseded_in is None and photographs[0].record.location == "with Irene Adler abroad"


@pytest.mark.parametrize("count", [1, 2, 3])
def test_bm25_alone_ranks_a_world_model_of_three_or_fewer_records(tmp_path, count):
    pool = [
        ("character_state", dict(character="Ada", aspect="status", state="hiding", location="the mill")),
        ("object_state", dict(object="the key", description="a brass key", location="the tower", owner="Bram")),
        ("thread", dict(thread="the lost key", description="who has it", status="open")),
    ]
    drawn = []
    for n, (kind, fields) in enumerate(pool[:count]):
        pid = CONTENT_IDS[n]
        text = SMALL_BOOK.paragraphs[pid].text
        record = {"kind": kind, "evidence": {"paragraph_ids": [pid], "quote": text[:15]}, "confidence": 0.9}
        drawn.append(record_from_dict({**record, **fields, "chapter": SMALL_BOOK.paragraphs[pid].chapter}))
    with NarrativeStore.for_narrative(SMALL_BOOK, tmp_path) as store:
        store.replace_chapters(SMALL_BOOK, by_chapter(drawn), origin="test")
        packet = query(store, ["Where is Ada hiding?"], 5, encoder=None, neighbour_limit=0)
    assert packet.hits and packet.hits[0].record.KIND == "character_state"


def test_dense_vectors_are_fused_and_computed_once_per_record(holmes):
    _, store = holmes
    encoder = HashingEncoder()
    first = query(store, [YOUTH], 3, encoder=encoder, top_k=3, neighbour_limit=0)
    assert encoder.encoded == len(store.records(4)) + 1  # the records, then the query
    again = query(store, [YOUTH], 3, encoder=encoder, top_k=3, neighbour_limit=0)
    assert encoder.encoded == len(store.records(4)) + 2  # only the query is encoded again
    assert [h.record_id for h in again.hits] == [h.record_id for h in first.hits]
    assert first.hits[0].record.KIND == "revelation"


def test_rank_texts_fuses_lexical_and_dense_rankings():
    texts = ["the mill burned down", "a key of gold", "the harbour at night", "gold coins in the mill"]
    texts += [f"filler text number {i}" for i in range(6)]  # BM25's idf needs words rarer than half the texts
    lexical = rank_texts(texts, ["gold mill"])
    assert [i for i, _ in lexical][:1] == [3] and 2 not in [i for i, _ in lexical]  # no shared word: unranked
    fused = rank_texts(texts, ["gold mill"], encoder=HashingEncoder())
    assert set(range(10)) == {i for i, _ in fused} and fused[0][0] == 3
    assert fused[0][1] == pytest.approx(2 / 61)  # first in both rankings: RRF with k = 60


def test_expansion_follows_current_typed_edges_within_the_limits(holmes):
    _, store = holmes
    packet = query(store, [YOUTH], 3, encoder=None, top_k=2, neighbour_limit=2, max_records=10)
    seeds = [h for h in packet.hits if h.via == "ranked"]
    expanded = [h for h in packet.hits if h.via != "ranked"]
    assert len(seeds) == 2 and expanded and len(packet.hits) <= 10
    graph = store.graph(4)
    for hit in expanded:
        relation, seed_id = re.fullmatch(r"(\w+) from #(\d+)", hit.via).groups()
        (seed,) = [s for s in seeds if s.record_id == int(seed_id)]
        edges = [
            e for node in _nodes(seed.record) for e in graph.neighbours(node, limit=2) if e.record_id == hit.record_id
        ]
        assert any(e.relation == relation for e in edges)
    only_knows = query(store, [YOUTH], 3, encoder=None, top_k=2, neighbour_limit=5, relations={"knows"})
    assert {h.via.split()[0] for h in only_knows.hits} <= {"ranked", "knows"}
    small = query(store, [YOUTH], 3, encoder=None, top_k=2, neighbour_limit=5, max_records=3)
    assert len(small.hits) == 3


def test_the_packet_keeps_to_its_budget_and_says_what_it_left_out(holmes):
    _, store = holmes
    packet = query(store, [YOUTH], 3, encoder=None, top_k=8, neighbour_limit=3, max_chars=600)
    assert len(packet.text) <= 600 and packet.dropped > 0
    assert f"{packet.dropped} more block(s) left out" in packet.text
    assert len(packet.hits) == len(re.findall(r"^#\d+ \[", packet.text, flags=re.M))


def test_state_memory_serializes_everything_up_to_n_without_a_query(holmes):
    _, store = holmes
    packet = query(store, ["ignored"], 2, state_memory=True, max_chars=None)
    assert packet.mode == "state" and packet.text == serialize_state(store, 2)
    assert {h.record.chapter for h in packet.hits} == {1, 2}
    assert {h.record_id for h in packet.hits} == {int(i) for i in re.findall(r"#(\d+) \[", packet.text)}
    bounded = query(store, ["ignored"], 3, state_memory=True, max_chars=1000)
    assert len(bounded.text) <= 1000 and bounded.dropped > 0


def test_records_become_segments_of_the_book_within_the_chapter_limit(holmes):
    book, store = holmes
    claim = Question.claim("Irene Adler, dressed as a young man, wished Holmes good-night at his door.")
    spans = nwm_spans(book, store, claim, max_chapter=3, encoder=None, top_k=2, neighbour_limit=0)
    segments = merge_spans(spans, max_len=16)
    assert {(s.kind, s.source) for s in segments} == {("nwm", "nwm")}
    assert [(s.start, s.end, s.anchor_ids) for s in segments] == [(216, 219, (217, 218)), (248, 250, (249,))]
    early = nwm_spans(book, store, claim, max_chapter=2, encoder=None, top_k=2, neighbour_limit=0)
    assert max(s.end for s in early) <= 219
    mixed = candidate_segments(request(book, claim, store.path.parent, max_chapter=2), "mix").segments
    assert {s.source for s in mixed} >= {"nwm", "plain"}
    kinds = {s.kind for s in mixed}
    assert "nwm" in kinds and kinds & {"retrieval", "window"} and max(s.end for s in mixed) <= 219
    ids = [i for s in mixed for i in s.paragraph_ids]
    assert len(ids) == len(set(ids))  # no paragraph read twice
    assert [s.start for s in mixed] == sorted(s.start for s in mixed)  # narrative order, as the plain segmenter gives
    preset = get_preset("detectiveqa")
    plain = segment_narrative(book, claim, preset, encoder=None, max_chapter=2)
    assert any(not s.is_contiguous for s in plain)  # retrieval segments group paragraphs far apart
    # ... and stay such groups in the mix, never a run from their first paragraph to their last
    assert (
        max(len(s) for s in mixed)
        <= max(preset.window_paragraphs, preset.retrieval_paragraphs) + preset.retrieval_paragraphs
    )
    grouped = [s for s in mixed if s.kind == "retrieval"]
    assert grouped and all(len(s) <= preset.retrieval_paragraphs for s in grouped)
    from_the_world_model = [s for s in mixed if "nwm" in s.source.split("+")]  # a merged run names both sources
    assert set(ids) == {i for s in plain for i in s.paragraph_ids} | {
        i for s in from_the_world_model for i in s.paragraph_ids
    }


def test_segment_source_errors_and_fallback(tmp_path):
    claim = Question.claim("Ada met Bram at the mill.")
    folder = tmp_path / "stores"
    for source in ("nwm", "mix"):  # no store: an error naming how to build one, and no file left behind
        with pytest.raises(SegmentSourceError, match="no world model of 'small book'.*clueweaver nwm publish"):
            candidate_segments(request(SMALL_BOOK, claim, folder), source)
    assert not folder.exists()
    with NarrativeStore.for_narrative(SMALL_BOOK, folder):
        pass  # a store with no records
    with pytest.raises(SegmentSourceError, match="holds no records.*--segment-fallback"):
        candidate_segments(request(SMALL_BOOK, claim, folder), "nwm")
    fallen = candidate_segments(request(SMALL_BOOK, claim, folder), "nwm", fallback=True)
    assert fallen.segments and {s.source for s in fallen.segments} == {"plain"}
    assert fallen.to_dict()["used"] == "plain" and "holds no records" in fallen.fallback
    assert fallen.warnings == [f"segment source nwm: {fallen.fallback}; the plain segments were read instead"]
    with pytest.raises(SegmentSourceError, match="unknown segment source 'graph'"):
        candidate_segments(request(SMALL_BOOK, claim, folder), "graph")
    record = record_json("character_state", [2], SMALL_BOOK[2].text[:30], character="Ada", aspect="status", state="x")
    with NarrativeStore.for_narrative(SMALL_BOOK, folder) as store:
        store.replace_chapters(SMALL_BOOK, by_chapter([record_from_dict({**record, "chapter": 1})]), origin="test")
    unrelated = Question.claim("Zebras quarrel loudly.")  # shares no word with the record: nothing is retrieved
    nothing = "the world model of .small book. retrieves nothing for this question as of chapter 1;"
    with pytest.raises(SegmentSourceError, match=nothing):
        candidate_segments(request(SMALL_BOOK, unrelated, folder, max_chapter=1), "nwm")
    from nwm_helpers import small_book

    other = small_book(chapters=4)
    with NarrativeStore.for_narrative(other, tmp_path) as wrong, pytest.raises(StoreError, match="another text"):
        nwm_spans(SMALL_BOOK, wrong, claim, encoder=None)


WORDS = st.lists(st.sampled_from(NAMES + PLACES + ("key", "hid", "trust", "meeting")), min_size=1, max_size=4)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(records(), max_size=20),
    st.integers(0, 5),
    WORDS,
    st.integers(1, 4),
    st.integers(0, 3),
    st.integers(1, 12),
)
def test_no_query_as_of_n_returns_anything_from_a_later_chapter(drawn, as_of, words, top_k, limit, max_records):
    question = Question.claim(" ".join(words))
    with tempfile.TemporaryDirectory() as data_dir, NarrativeStore.for_narrative(SMALL_BOOK, data_dir) as store:
        store.replace_chapters(SMALL_BOOK, by_chapter(drawn), origin="test")
        chapter_of = {s.id: s.record.chapter for s in store.records(5)}
        last = SMALL_BOOK.last_paragraph_of_chapter(as_of)
        packet = query(
            store, question.queries(), as_of, encoder=None, top_k=top_k, neighbour_limit=limit, max_records=max_records
        )
        assert all(chapter_of[h.record_id] <= as_of for h in packet.hits)
        assert all(chapter_of[int(i)] <= as_of for i in re.findall(r"#(\d+)", packet.text))
        assert all(i <= last for i in packet.paragraph_ids)
        ranked = [h for h in packet.hits if h.via == "ranked"]
        assert len(ranked) <= top_k and len(packet.hits) <= max_records
        for seed in ranked:
            grown = [h for h in packet.hits if h.via.endswith(f"from #{seed.record_id}")]
            assert len(grown) <= limit * len(_nodes(seed.record))
        for source in ("nwm", "mix") if last >= 0 else ():  # chapter 0 of this book is empty
            asked = request(SMALL_BOOK, question, data_dir, max_chapter=as_of)
            try:
                segments = candidate_segments(asked, source, fallback=True).segments
            except NoMatchError:  # no word of the question in the book: reading all of it must be asked for
                continue
            assert all(s.end <= last for s in segments)
