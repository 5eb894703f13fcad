"""Temporal graph: projection of records to typed edges, validity intervals, state and history."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st
from nwm_helpers import FIXTURE

from clueweaver.nwm.graph import RELATIONS, Edge, TemporalGraph, assign_validity, project_edges
from clueweaver.nwm.records import record_from_dict


def fixture_edges() -> list[Edge]:
    rows = [json.loads(line) for line in FIXTURE.read_text(encoding="utf-8").splitlines()]
    return assign_validity([e for i, row in enumerate(rows) for e in project_edges(record_from_dict(row), i)])


def edge(subject, relation, target, chapter, value="v", record_id=0, confidence=0.9):
    return Edge(subject, relation, target, value, chapter, None, confidence, record_id)


def test_records_project_every_relation_type():
    edges = fixture_edges()
    assert {e.relation for e in edges} == set(RELATIONS)
    knows = {(e.subject, e.target, e.value, e.valid_from) for e in edges if e.relation == "knows"}
    assert (
        "Sherlock Holmes",
        "the slim youth who wished Holmes good-night was Irene Adler in male costume",
        "knows",
        3,
    ) in knows
    assert ("Irene Adler", "the injured clergyman is Sherlock Holmes", "does not know", 2) in knows
    (resolves,) = [e for e in edges if e.relation == "thread_resolves" and e.target == "recovering the photograph"]
    assert resolves.valid_from == 3


def test_state_is_the_latest_valid_edge_per_slot_and_history_keeps_the_rest():
    edges = fixture_edges()
    at2, at3 = TemporalGraph(edges, 2), TemporalGraph(edges, 3)

    def where(g):
        return [(e.target, e.valid_from) for e in g.state(node="irene adler", relation="located_at")]

    assert where(at2) == [("Briony Lodge", 2)]
    assert where(at3) == [("the Continent", 3)]
    moves = [(e.target, e.valid_from, e.valid_to) for e in at3.history(node="Irene Adler", relation="located_at")]
    assert moves == [("Briony Lodge", 2, 3), ("the Continent", 3, None)]

    def knows(g):
        return [(e.value, e.valid_from) for e in g.state(node="irene adler", relation="knows")]

    assert knows(at2) == [("does not know", 2)]
    assert knows(at3) == [("knows", 3)]


def test_a_reader_never_sees_later_edges_or_when_an_edge_will_end():
    edges = assign_validity(
        [edge("Ada", "located_at", "the mill", 1, record_id=1), edge("Ada", "located_at", "the tower", 5, record_id=2)]
    )
    assert edges[0].valid_to == 5
    early = TemporalGraph(edges, 3)
    assert [(e.target, e.valid_to) for e in early.history()] == [("the mill", None)]
    assert TemporalGraph(edges, 0).edges == []


def test_slots_follow_the_relation():
    edges = assign_validity(
        [
            edge("Ada", "owns", "the key", 1, record_id=1),
            edge("Bram", "owns", "the key", 2, record_id=2),  # the key changes hands: Ada's ownership ends
            edge("Ada", "owns", "the lamp", 2, record_id=3),  # owning something else does not end it
            edge("Ada", "knows", "the key is gold", 1, record_id=4),
            edge("Ada", "knows", "the mill burned", 2, record_id=5),  # knowing one thing keeps the other
            edge("Ada", "located_at", "the mill", 3, record_id=6),
            edge("Ada", "located_at", "the harbour", 3, record_id=7),  # same chapter: the later one holds
        ]
    )
    current = {(e.subject, e.relation, e.target) for e in TemporalGraph(edges, 3).state()}
    assert current == {
        ("Bram", "owns", "the key"),
        ("Ada", "owns", "the lamp"),
        ("Ada", "knows", "the key is gold"),
        ("Ada", "knows", "the mill burned"),
        ("Ada", "located_at", "the harbour"),
    }
    assert edges[5].valid_from == edges[5].valid_to == 3  # superseded within its chapter: history only


def test_neighbours_are_current_typed_and_limited():
    edges = assign_validity(
        [edge("Ada", "knows", f"fact {i}", 1, record_id=i, confidence=i / 10) for i in range(6)]
        + [edge("Ada", "located_at", "the mill", 2, record_id=9)]
    )
    graph = TemporalGraph(edges, 2)
    top = graph.neighbours("ada", limit=3)
    assert [e.record_id for e in top] == [9, 5, 4]  # most confident first
    assert [e.relation for e in graph.neighbours("Ada", limit=10, relations={"located_at"})] == ["located_at"]
    assert graph.neighbours("the mill", limit=5)[0].subject == "Ada"  # edges are reachable from both ends
    assert len(graph.neighbours("ada", limit=100)) == 7


SUBJECTS = st.sampled_from(["Ada", "Bram", "Cleo"])
TARGETS = st.sampled_from(["the mill", "the key", "the tower"])
EDGES = st.lists(st.tuples(SUBJECTS, st.sampled_from(RELATIONS), TARGETS, st.integers(0, 6)), max_size=30)


@settings(max_examples=60, deadline=None)
@given(EDGES, st.integers(0, 6))
def test_state_matches_a_brute_force_reading(raw, as_of):
    edges = assign_validity([edge(s, r, t, c, record_id=i) for i, (s, r, t, c) in enumerate(raw)])
    graph = TemporalGraph(edges, as_of)
    expected = {}
    for e in sorted((e for e in edges if e.valid_from <= as_of), key=lambda e: (e.valid_from, e.record_id)):
        expected[e.slot] = e.record_id
    assert sorted(e.record_id for e in graph.state()) == sorted(expected.values())
    assert all(e.valid_from <= as_of and (e.valid_to is None or e.valid_to <= as_of) for e in graph.history())
    assert len(graph.history()) == sum(e.valid_from <= as_of for e in edges)
