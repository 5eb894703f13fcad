"""ChronoRAG's index (clueweaver.chrono): Layer 0 on real books, the graph built through the
scripted backend (layers, links, chronological order, chapter limits), retrieval and neighbourhood
assembly on a hand-built graph whose passages and budget cut are worked out by hand, bad model
output, resumed and cached builds, and the ``clueweaver chrono`` command."""

from __future__ import annotations

import json
import re
from importlib.resources import files

import pytest

from clueweaver.backends import load_backend
from clueweaver.backends.scripted import ScriptedBackend
from clueweaver.benchmarks.demo import load_demo
from clueweaver.books.narrative import from_paragraphs
from clueweaver.chrono.assembly import assemble, layer, passages, render
from clueweaver.chrono.build import ChronoBuilder
from clueweaver.chrono.chunks import Chunk, chunk_groups, chunk_narrative
from clueweaver.chrono.config import ChronoConfig, ChronoError
from clueweaver.chrono.graph import ChronoGraph, Relation, dense_encoder
from clueweaver.chrono.store import GROUPS
from clueweaver.cli import main
from clueweaver.protocol.chrono_prompts import (
    EXTRACTION_SCHEMA,
    EXTRACTION_SYSTEM,
    SUMMARY_SCHEMA,
    SUMMARY_SYSTEM,
    read_extraction,
)
from clueweaver.protocol.json_output import OutputRejected
from tests.conftest import shared_path
from tests.encoder_standins import word_vectors
from tests.nwm_helpers import holmes_book

DEMO, DEMO_QUESTIONS = load_demo()
SMALL = ChronoConfig(chunk_tokens=40, group_chunks=3, retrieval="bm25")
_NAME = re.compile(r"\b[A-Z][a-z]{3,}\b")


def words(text: str) -> int:
    """The scripted backend's token count: whitespace-separated words."""
    return len(text.split())


def passage_of(messages) -> str:
    return messages[1]["content"].split("Passage:\n", 1)[1].rsplit("\n\n", 1)[0]


def chrono_model(messages, adapter=None) -> str:
    """A model for the builder's prompts: the summary is the passage's first 40 words; the relations
    join the passage's consecutive capitalized names, each described with the passage's first words."""
    text = passage_of(messages)
    if messages[0]["content"] == SUMMARY_SYSTEM:
        return json.dumps({"summary": " ".join(text.split()[:40])})
    names = list(dict.fromkeys(_NAME.findall(text)))[:5] or ["Nobody", "Nothing"]
    entities = [{"name": n, "type": "person", "description": f"{n} is named."} for n in names]
    opening = " ".join(text.split()[:12])
    relations = [
        {"source": a, "target": b, "description": f"{a} and {b}: {opening}", "strength": 5}
        for a, b in zip(names, names[1:])
    ]
    return json.dumps({"entities": entities, "relations": relations})


def scripted(model: str = "chrono-scripted", script=chrono_model) -> ScriptedBackend:
    return ScriptedBackend(model, script=script)


def build(config=SMALL, narrative=DEMO, backend=None, cache_dir=None):
    backend = backend or scripted()
    return ChronoBuilder(backend, config, cache_dir=cache_dir, progress=False).build(narrative)


def assert_layer0(narrative, chunks, groups, k: int) -> None:
    """Every paragraph once, in order, within k tokens; groups consecutive; nothing across a chapter."""
    pieces = [piece for chunk in chunks for piece in chunk.pieces]
    assert pieces == sorted(pieces)  # narrative order
    for paragraph in narrative.paragraphs:
        parts = [narrative[p].text[s:e] for p, s, e in pieces if p == paragraph.id]
        assert " ".join(parts) == paragraph.text  # covered exactly once: every sentence in one chunk
    assert all(words(c.text(narrative)) <= k for c in chunks)
    assert all(len({narrative[p].chapter for p in c.paragraph_ids}) == 1 for c in chunks)
    assert [i for g in groups for i in g] == list(range(len(chunks)))
    assert all(len({narrative[chunks[i].first_paragraph].chapter for i in g}) == 1 for g in groups)


def test_layer0_holds_every_sentence_once_in_order_within_k_tokens():
    chunks = chunk_narrative(DEMO, words, 40)
    groups = chunk_groups(DEMO, chunks, 3)
    assert_layer0(DEMO, chunks, groups, 40)
    assert max(len(g) for g in groups) == 3 and any(len(g) < 3 for g in groups)  # a chapter's last group
    assert any(len(c.paragraph_ids) > 1 for c in chunks)  # short paragraphs share a chunk
    assert any(p.id in chunks[i].paragraph_ids and p.id in chunks[i + 1].paragraph_ids
               for i in range(len(chunks) - 1) for p in DEMO.paragraphs)  # fmt: skip  # a long one spans two
    # a sentence longer than k is cut between words; titles end no sentence
    long = from_paragraphs(["Mr. Penrose " + "walked on and on " * 20 + "home. Then he slept."], title="long")
    cut = chunk_narrative(long, words, 15)
    assert [c.text(long) for c in cut][0].startswith("Mr. Penrose walked")
    # 83 words: five runs of 15 and one of 8, which the next sentence (3 words) joins
    assert [words(c.text(long)) for c in cut] == [15, 15, 15, 15, 15, 11] and cut[-1].text(long).endswith("slept.")
    assert " ".join(c.text(long) for c in cut) == long[0].text


def test_the_graph_links_each_relation_to_its_group_and_its_neighbours(tmp_path):
    backend = scripted()
    graph, report = build(backend=backend, cache_dir=tmp_path)
    assert (report.chunks, report.groups) == (len(graph.chunks), len(graph.groups)) and report.failed == 0
    assert report.nodes == len(graph.relations) > report.groups  # several relations per group
    assert_layer0(DEMO, graph.chunks, graph.groups, SMALL.chunk_tokens)
    assert_links(graph)
    # each group was summarized from its chunks' text, and its relations came from that summary
    summaries = [c for call in backend.calls for c in call.conversations if c[0]["content"] == SUMMARY_SYSTEM]
    extractions = [c for call in backend.calls for c in call.conversations if c[0]["content"] == EXTRACTION_SYSTEM]
    assert len(summaries) == len(extractions) == report.groups == report.generations / 2
    first = graph.groups[0]
    assert passage_of(summaries[0]) == "\n".join(graph.chunks[c].text(DEMO) for c in first)
    assert passage_of(extractions[0]) == " ".join(passage_of(summaries[0]).split()[:40])
    assert backend.calls[0].sampling.output_json_schema == SUMMARY_SCHEMA  # constrained where the backend can
    # both steps write in the passage's language, which Layer 1's BM25 reads (a Chinese book in Chinese)
    assert all("in the language of the passage" in system for system in (SUMMARY_SYSTEM, EXTRACTION_SYSTEM))


def assert_links(graph: ChronoGraph) -> None:
    """Layer 1 in chronological order, group by group; each node linked to its group's chunks and to
    the nodes beside it."""
    assert [r.group for r in graph.relations] == sorted(r.group for r in graph.relations)
    for node, relation in enumerate(graph.relations):
        assert graph.linked_chunks(node) == graph.groups[relation.group]
        assert graph.adjacent(node) == tuple(i for i in (node - 1, node + 1) if 0 <= i < len(graph.relations))


def assert_chapter_safe(graph: ChronoGraph, chapter: int, question: str) -> None:
    """Up to a chapter, only nodes whose chunks all lie inside it are read, and no passage reaches past it."""
    last = graph.narrative.last_paragraph_of_chapter(chapter)
    readable = graph.readable_chunks(last)
    nodes = graph.readable_relations(readable)
    assert 0 < nodes < len(graph.relations)
    assert all(graph.chunks[c].last_paragraph <= last for n in range(nodes) for c in graph.linked_chunks(n))
    assert graph.chunks[graph.linked_chunks(nodes)[-1]].last_paragraph > last  # the next node is past it
    for window in (1, 2):
        config = ChronoConfig(**{**SMALL.build_settings(), "retrieval": "bm25", "window": window})
        found = list(passages(graph, question, config, None, last))
        assert found and all(p.node < nodes for p in found)
        assert all(graph.chunks[c].last_paragraph <= last for p in found for c in p.chunks)
        whole = list(passages(graph, question, config, None, None))
        assert max(graph.chunks[c].last_paragraph for p in whole for c in p.chunks) > last


def test_a_chapter_limit_reads_only_nodes_and_chunks_inside_it(tmp_path):
    graph, _ = build(cache_dir=tmp_path)
    assert_chapter_safe(graph, 3, DEMO_QUESTIONS[0].question.text + " umbrella Garrow Penrose lantern")


def test_the_graph_of_a_shared_novel(tmp_path):
    narrative = holmes_book(shared_path)
    graph, report = build(ChronoConfig(chunk_tokens=128, group_chunks=4), narrative, cache_dir=tmp_path)
    assert report.chunks > 700 and report.failed == 0 and report.nodes > report.groups
    assert_layer0(narrative, graph.chunks, graph.groups, 128)
    assert sum(words(c.text(narrative)) for c in graph.chunks) == words(narrative.text)
    assert_links(graph)
    assert_chapter_safe(graph, len(narrative.chapters) // 2, "Holmes Watson Irene Adler photograph King Bohemia")


# --- retrieval and assembly on a hand-built graph ------------------------------------------------

TEXTS = [
    "Ada rows to the lighthouse.",  # 0
    "The keeper Jonas is gone.",  # 1
    "A logbook lies open there.",  # 2
    "Ada meets Captain Oduya today.",  # 3
    "Captain Oduya hides the key.",  # 4
    "Jonas returns with the key.",  # 5
    "The gale ends before dawn.",  # 6
    "Everyone sleeps at the inn.",  # 7
]
HAND_RELATIONS = [  # group -> relations; groups are chunks 0-1, 2-3, 4-5, 6-7
    Relation(0, "Ada", "lighthouse", "Ada rows out to the lighthouse and finds the keeper gone"),
    Relation(1, "logbook", "Oduya", "the logbook open while Ada meets Oduya"),
    Relation(2, "captain", "key", "the captain hides the brass key"),
    Relation(2, "Jonas", "key", "Jonas comes back carrying the brass key"),
    Relation(3, "gale", "inn", "after the gale everyone sleeps at the inn"),
]


def hand_graph() -> ChronoGraph:
    """Eight one-paragraph chunks of five words each (six tokens rendered, with the ID)."""
    narrative = from_paragraphs(TEXTS, title="hand", detect_headings=False)
    chunks = [Chunk(((i, 0, len(text)),)) for i, text in enumerate(TEXTS)]
    return ChronoGraph(narrative, chunks, [range(0, 2), range(2, 4), range(4, 6), range(6, 8)], HAND_RELATIONS)


def hand(query: str, budget: int = 100, **settings):
    config = ChronoConfig(**{"retrieval": "bm25", **settings})
    graph = layer(hand_graph(), config)
    return graph, assemble(graph, passages(graph, query, config, None, None), budget, words)


def test_the_papers_assembly_shows_a_relation_its_adjacent_relations_and_their_text_by_hand():
    # BM25 ranks node 2 (captain, brass, key) first, then node 0 (lighthouse) and node 3 (brass, key). Node 2 brings
    # itself and nodes 1 and 3 (window 1 in Layer 1) with their chunks (groups 1 and 2: chunks 2-5);
    # node 3 was shown, so it brings nothing; node 0 brings itself (node 1 shown) and chunks 0-1
    graph, assembly = hand("captain brass key lighthouse")
    assert [(p.node, p.relations, p.core, p.chunks) for p in assembly.passages] == [
        (2, (1, 2, 3), (4, 5), (2, 3, 4, 5)),
        (0, (0,), (0, 1), (0, 1)),
    ]
    first = "\n".join(f"relation {n}: {HAND_RELATIONS[n].description}" for n in (1, 2, 3))
    assert assembly.text.startswith(first + "\n\n" + f"[2] {TEXTS[2]}\n[3] {TEXTS[3]}\n[4] {TEXTS[4]}")
    assert assembly.tokens == words(assembly.text) == (9 + 8 + 9 + 24) + (13 + 12)
    assert assembly.packet(graph).paragraph_ids == (0, 1, 2, 3, 4, 5)
    # budget 25: relation 2 and its chunks (20 tokens); neighbour relations 1 and 3 (9 each) are left out, and
    # node 3's passage, whose retrieved relation no longer fits, ends the assembly
    cut = hand("captain brass key lighthouse", budget=25)[1]
    assert [(p.node, p.relations, p.chunks) for p in cut.passages] == [(2, (2,), (4, 5))] and cut.tokens == 20
    # window 0: the retrieved relation and its own text only (node 3's chunks are node 2's: it shows its relation
    # alone); window 2 reaches node 4 (group 3)
    alone = hand("captain brass key lighthouse", window=0)[1].passages
    # (Lucene's BM25 ranks node 3, two query words, above node 0, one: the order of the last two)
    assert [(p.relations, p.chunks) for p in alone] == [((2,), (4, 5)), ((3,), ()), ((0,), (0, 1))]
    assert hand("captain brass key lighthouse", window=2)[1].passages[0].relations == (0, 1, 2, 3, 4)


def test_chunk_assembly_in_relevance_order_by_hand():
    # the other reading: BM25 ranks node 2, node 3, node 0; node 3 links to the chunks node 2 brought
    # (group 2: chunks 4-5), so it brings nothing
    graph, assembly = hand("captain brass key lighthouse", assembly="chunks")
    assert [(p.node, p.core, p.chunks) for p in assembly.passages] == [
        (2, (4, 5), (3, 4, 5, 6)),  # the retrieved chunks and one neighbour on each side
        (0, (0, 1), (0, 1, 2)),
    ]
    assert assembly.text == render(graph, (3, 4, 5, 6)) + "\n\n" + render(graph, (0, 1, 2))
    assert assembly.text.splitlines()[:2] == [f"[3] {TEXTS[3]}", f"[4] {TEXTS[4]}"]
    assert assembly.tokens == 24 + 18 == words(assembly.text)
    packet = assembly.packet(graph)
    assert packet.paragraph_ids == (0, 1, 2, 3, 4, 5, 6) and packet.spans == [(0, 6)]
    assert [s.source for s in packet.segments] == ["chrono", "chrono"] and packet.segments[0].anchor_ids == (4, 5)


def test_the_budget_takes_retrieved_chunks_first_and_ends_at_one_that_does_not_fit():
    query = "captain brass key lighthouse"
    # six tokens a chunk: the first passage takes 24; the second's retrieved chunks 6 each, its neighbour 6
    cuts = {
        41: [(3, 4, 5, 6), (0, 1)],  # chunk 2, a neighbour, is left out
        36: [(3, 4, 5, 6), (0, 1)],
        35: [(3, 4, 5, 6), (0,)],  # retrieved chunk 1 does not fit: the assembly ends
        20: [(3, 4, 5)],  # neighbours 3 and 6 are both one chunk away: the earlier first; 3 fits, 6 not
        11: [(4,)],
        5: [],
    }
    for budget, expected in cuts.items():
        assembly = hand(query, budget=budget, assembly="chunks")[1]
        assert [p.chunks for p in assembly.passages] == expected, budget
        assert assembly.tokens == words(assembly.text) <= budget
    assert hand(query, budget=35, assembly="chunks")[1].passages[1].core == (0,)
    graph, nothing = hand(query, budget=5, assembly="chunks")
    assert nothing.packet(graph).text.startswith("(No passage of the narrative was retrieved")


def test_window_two_and_no_neighbourhood():
    query = "captain brass key lighthouse"
    two = hand(query, window=2, assembly="chunks")[1]
    assert [(p.node, p.chunks) for p in two.passages] == [(2, (2, 3, 4, 5, 6, 7)), (0, (0, 1))]  # 2 already held
    none = hand(query, window=0, assembly="chunks")[1]
    assert [(p.node, p.chunks) for p in none.passages] == [(2, (4, 5)), (0, (0, 1))]
    assert none.tokens == 24


def test_merged_keys_and_dense_retrieval():
    # "dawn" is only in chunk 6's text: only a key merged with its chunks finds it
    assert hand("dawn")[1].passages == []
    assert [p.node for p in hand("dawn", merged_key="chunks")[1].passages] == [4]
    # the paper's merged key: a relation with the relation before it and the one after it in its own group
    # (node 1's key holds node 0's, not node 2's, of a later group); "logbook" is only in node 1's relation
    assert [p.node for p in hand("logbook", assembly="chunks")[1].passages] == [1]
    assert sorted(p.node for p in hand("logbook", merged_key="neighbours", assembly="chunks")[1].passages) == [1, 2]
    assert hand_graph().key(2, "neighbours").splitlines() == [HAND_RELATIONS[n].description for n in (1, 2, 3)]
    assert hand_graph().key(0, "neighbours") == HAND_RELATIONS[0].description  # node 1 is a later group

    class Words:
        name = "test:words"

        def encode(self, texts, *, is_query=False, show_progress=False):
            return word_vectors(texts)

    graph = hand_graph()
    config = ChronoConfig(retrieval="dense")
    ranking = graph.rank(HAND_RELATIONS[4].description, "dense", Words(), readable=len(HAND_RELATIONS))
    assert ranking[0] == (4, pytest.approx(1.0)) and len(ranking) == len(HAND_RELATIONS)
    assembly = assemble(graph, passages(graph, HAND_RELATIONS[4].description, config, Words(), None), 100, words)
    assert (assembly.passages[0].relations, assembly.passages[0].chunks) == ((3, 4), (4, 5, 6, 7))
    hybrid = graph.rank("brass key", "hybrid", Words(), readable=len(HAND_RELATIONS))
    assert {hybrid[0][0], hybrid[1][0]} == {2, 3}
    with pytest.raises(ChronoError, match="pass --encoder minilm .* or --chrono-retrieval bm25"):
        dense_encoder("dense", "none")


def test_without_relation_extraction_the_group_summaries_or_texts_are_retrieved(tmp_path):
    # the hand graph has no summaries: each group's own text is its node; "dawn" is in group 3's
    graph, assembly = hand("dawn", relations=False)
    texts = [f"{TEXTS[2 * g]}\n{TEXTS[2 * g + 1]}" for g in range(4)]
    assert graph.unit == "summary" and [r.description for r in graph.relations] == texts
    assert [(p.node, p.relations) for p in assembly.passages][0] == (3, (2, 3))
    assert f"summary 3: {TEXTS[6]}" in assembly.text
    # a built index: one node per group, its summary, linked to the group's chunks
    built, report = build(cache_dir=tmp_path)
    summaries = built.summary_layer()
    assert len(summaries.relations) == report.groups < report.nodes
    assert all(s.description == built.summaries[s.group] for s in summaries.relations)
    question = DEMO_QUESTIONS[0].question.text + " umbrella Garrow Penrose lantern"
    found = assemble(summaries, passages(summaries, question, ChronoConfig(relations=False, retrieval="bm25"),
                                         None, None), 1500, words)  # fmt: skip
    assert found.passages and found.text.startswith("summary ")


# --- bad output, interruptions and the cache --------------------------------------------------


def test_malformed_extraction_is_retried_then_the_group_is_recorded_failed(tmp_path):
    seen: dict[int, int] = {}

    def flaky(messages, adapter):
        if messages[0]["content"] == EXTRACTION_SYSTEM:
            group = groups_by_text[passage_of(messages)]
            seen[group] = seen.get(group, 0) + 1
            if group == 1 or (group == 2 and seen[group] == 1):
                return '{"entities": [], "relations": [}' if group == 1 else '{"relations": []}'
        return chrono_model(messages)

    config = ChronoConfig(chunk_tokens=40, group_chunks=3, summarize=False)
    chunks = chunk_narrative(DEMO, words, 40)
    groups_by_text = {
        "\n".join(chunks[c].text(DEMO) for c in g): n for n, g in enumerate(chunk_groups(DEMO, chunks, 3))
    }
    backend = scripted(script=flaky)
    graph, report = build(config, backend=backend, cache_dir=tmp_path)
    assert report.failed == 1 and report.built == report.groups  # the build went on
    [failure] = report.failures
    assert failure["group"] == 1 and failure["stage"] == "extraction" and len(failure["errors"]) == 3
    assert "not valid JSON" in failure["errors"][0]
    assert seen[1] == 3 and seen[2] == 2  # three tries for group 1; group 2 right on its retry
    retry = next(c for call in backend.calls for c in call.conversations if len(c) > 2)  # group 1's first retry
    assert retry[2]["role"] == "assistant" and retry[3]["content"].startswith("That output was rejected:")
    assert "not valid JSON" in retry[3]["content"]
    assert 1 not in {r.group for r in graph.relations} and 2 in {r.group for r in graph.relations}
    assert graph.failed == 1 and graph.pending == 0
    records = {
        json.loads(line)["group"]: json.loads(line) for line in (report.folder / GROUPS).read_text().splitlines()
    }
    assert (records[2]["status"], records[2]["attempts"]) == ("ok", 2)
    assert records[2]["errors"] == ['the output must be an object with exactly the keys "entities", "relations"']


def test_extraction_keeps_a_relation_to_an_unlisted_entity_and_reads_strengths():
    output = {
        "entities": [{"name": "Ada", "type": "person", "description": "Ada rows."}],
        "relations": [{"source": "Ada", "target": "the lighthouse", "description": "Ada rows out.", "strength": 8}],
    }
    read = read_extraction(json.dumps(output))
    assert read.relations == [("Ada", "the lighthouse", "Ada rows out.", 8)] and read.added == ["the lighthouse"]
    assert read.entities == [("Ada", "person", "Ada rows."), ("the lighthouse", "other", "")]
    for strength in (None, "high", 0, 11, True):
        bad = {**output, "relations": [{**output["relations"][0], "strength": strength}]}
        with pytest.raises(OutputRejected, match=r"relations\[0\] needs a strength, a whole number from 1 to 10"):
            read_extraction(json.dumps(bad))
    assert EXTRACTION_SCHEMA["properties"]["relations"]["items"]["required"] == ["source", "target", "description",
                                                                                "strength"]  # fmt: skip


def test_a_built_group_keeps_entities_and_strengths(tmp_path):
    def unlisted(messages, adapter):
        reply = json.loads(chrono_model(messages))
        if messages[0]["content"] == EXTRACTION_SYSTEM:
            reply["entities"] = reply["entities"][:1]  # the relations name entities the list leaves out
        return json.dumps(reply)

    graph, report = build(backend=scripted(script=unlisted), cache_dir=tmp_path)
    assert report.failed == 0 and report.nodes > 0 and all(r.strength == 5 for r in graph.relations)
    record = json.loads((report.folder / GROUPS).read_text().splitlines()[0])
    assert record["added_entities"] and len(record["entities"]) == 1 + len(record["added_entities"])


def test_a_build_whose_groups_fail_exits_non_zero_with_the_count_and_commonest_reason(tmp_path, capsys, monkeypatch):
    book = files("clueweaver").joinpath("data", "demo_mystery.md")
    never = scripted(script=lambda messages, adapter: '{"summary": ""}')  # every output rejected
    monkeypatch.setattr("clueweaver.cli.chrono.load_backend_from", lambda kind, model, options: never)
    common = [str(book), "--model", "m", "--cache-dir", str(tmp_path), "--chrono-chunk-tokens", "40"]
    assert main(["chrono", "build", *common, "--max-attempts", "2", "--batch-groups", "64"]) == 1
    err = capsys.readouterr().err
    groups = len(chunk_groups(DEMO, chunk_narrative(DEMO, words, 40), 4))
    assert f"error: {groups} of {groups} groups failed" in err
    assert 'commonest reason: summary: "summary" must be a non-empty string' in err
    assert all(len(c.conversations) == groups for c in never.calls) and len(never.calls) == 2  # two tries each
    # query, reading that index, names its failed groups
    query = ["chrono", "query", *common, "anything", "--chrono-retrieval", "bm25"]
    assert main([*query, "--json"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["failed_groups"] == groups
    assert f"{groups} of {groups} groups of this ChronoRAG index failed" in captured.err
    # a share above the threshold fails too; at or under it the build succeeds with its failures reported
    flaky = scripted(script=lambda m, a: '{"summary": ""}' if "Garrow" in passage_of(m) else chrono_model(m))
    monkeypatch.setattr("clueweaver.cli.chrono.load_backend_from", lambda kind, model, options: flaky)
    other = [*common[:-1], "30", "--max-attempts", "1"]
    assert main(["chrono", "build", *other, "--max-failed-share", "1", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert 0 < report["failed"] < report["groups"] and not report["failed_too_often"]
    assert report["main_failure"] == 'summary: "summary" must be a non-empty string'
    assert main(["chrono", "build", *other, "--max-failed-share", "0", "--json"]) == 1  # the same index, read again
    assert json.loads(capsys.readouterr().out)["failed_too_often"]


def test_chrono_build_takes_the_tiny_model_as_every_command_does(tmp_path, capsys, monkeypatch):
    """``--model tiny`` had reached the backend as a model named "tiny", which no folder or hub ID is."""
    from clueweaver.backends import stand_ins

    monkeypatch.setattr(stand_ins, "build_tiny_qwen3", lambda path: tmp_path / "tiny-qwen3")
    loaded = []
    monkeypatch.setattr(
        "clueweaver.cli.chrono.load_backend_from", lambda kind, model, o: loaded.append(model) or scripted()
    )
    book = files("clueweaver").joinpath("data", "demo_mystery.md")
    assert main(["chrono", "build", str(book), "--model", "tiny", "--cache-dir", str(tmp_path), "--dry-run"]) == 0
    assert loaded == [str(tmp_path / "tiny-qwen3")] and "tiny RANDOM model" in capsys.readouterr().err


def test_dry_run_counts_calls_and_tokens_without_a_model_call(tmp_path, capsys, monkeypatch):
    book = files("clueweaver").joinpath("data", "demo_mystery.md")
    backend = scripted()
    monkeypatch.setattr("clueweaver.cli.chrono.load_backend_from", lambda kind, model, options: backend)
    settings = tmp_path / "settings.yaml"
    settings.write_text("chrono:\n  chunk_tokens: 40\n  batch_groups: 4\n  summary_tokens: 100\n")
    common = [str(book), "--model", "m", "--cache-dir", str(tmp_path), "--config", str(settings)]
    assert main(["chrono", "build", *common, "--dry-run", "--max-attempts", "2", "--json"]) == 0
    plan = json.loads(capsys.readouterr().out)
    groups = len(chunk_groups(DEMO, chunk_narrative(DEMO, words, 40), 4))
    assert backend.calls == [] and (plan["groups"], plan["pending"], plan["done"]) == (groups, groups, 0)
    assert (plan["generations"], plan["generations_at_most"]) == (2 * groups, 4 * groups)
    assert (plan["calls"], plan["calls_at_most"]) == (2 * -(-groups // 4), 4 * -(-groups // 4))
    assert (plan["new_tokens"], plan["new_tokens_at_most"]) == (groups * (100 + 1500), 2 * groups * (100 + 1500))
    assert plan["caps"] == {"summary_tokens": 100, "extraction_tokens": 1500, "max_attempts": 2, "batch_groups": 4}
    # each group: the summary prompt with its text, the extraction prompt with a summary at its 100-token cap
    fixed = groups * (words(SUMMARY_SYSTEM) + words(EXTRACTION_SYSTEM) + 100)
    assert fixed + words(DEMO.text) < plan["prompt_tokens"] < fixed + words(DEMO.text) + groups * 20
    assert not list(tmp_path.glob("chrono/*/*/layer0.json"))  # nothing written
    assert main(["chrono", "build", *common, "--dry-run"]) == 0
    assert "no model call was made" in capsys.readouterr().out
    # the real build spends what the plan said on its first tries, with the caps from the file
    assert main(["chrono", "build", *common, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert (report["generations"], report["calls"]) == (plan["generations"], plan["calls"])
    assert {c.sampling.max_new_tokens for c in backend.calls} == {100, 1500}
    assert main(["chrono", "build", *common, "--dry-run", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["generations"] == 0  # all built


class Interrupted(Exception):
    pass


def test_an_interrupted_build_resumes_without_redoing_finished_groups(tmp_path):
    config = ChronoConfig(chunk_tokens=40, group_chunks=3, batch_groups=4)
    _, whole = build(config, cache_dir=tmp_path / "whole")
    replies = []

    def failing(messages, adapter):
        if len(replies) == 12:  # batch 1: 4 summaries and 4 extractions; batch 2: its 4 summaries, then stop
            raise Interrupted("the machine went away")
        replies.append(1)
        return chrono_model(messages)

    with pytest.raises(Interrupted):
        build(config, backend=scripted(script=failing), cache_dir=tmp_path / "split")
    # batch 1 (summaries + extractions, 8 replies) is on disk; batch 2 stopped after its summaries
    folder = next((tmp_path / "split").glob(f"chrono/*/*/{GROUPS}"))
    assert len(folder.read_text().splitlines()) == 4
    with open(folder, "a", encoding="utf-8") as f:
        f.write('{"group": 4, "status": "ok", "summ')  # a line cut off mid-write
    again = scripted()
    with pytest.warns(UserWarning, match="incomplete last line"):
        graph, resumed = build(config, backend=again, cache_dir=tmp_path / "split")
    assert (resumed.resumed, resumed.built) == (4, whole.groups - 4)
    assert resumed.generations == 2 * (whole.groups - 4) == sum(len(c.conversations) for c in again.calls)
    assert resumed.nodes == whole.nodes and graph.pending == 0
    first = {json.loads(line)["group"]: json.loads(line) for line in (whole.folder / GROUPS).read_text().splitlines()}
    assert {json.loads(line)["group"]: json.loads(line) for line in folder.read_text().splitlines()} == first


def test_a_second_build_is_a_cache_hit_and_settings_make_their_own_index(tmp_path):
    _, first = build(cache_dir=tmp_path)
    backend = scripted()
    _, second = build(backend=backend, cache_dir=tmp_path)
    assert backend.calls == [] and (second.calls, second.built, second.resumed) == (0, 0, first.groups)
    assert second.folder == first.folder and second.nodes == first.nodes
    _, other = build(ChronoConfig(chunk_tokens=40, group_chunks=3, summarize=False), cache_dir=tmp_path)
    _, model = build(backend=scripted("another-model"), cache_dir=tmp_path)
    assert len({first.folder, other.folder, model.folder}) == 3 and other.calls > 0 and model.calls > 0
    # query-time settings (retrieval, window, merged key) share the index
    assert build(ChronoConfig(chunk_tokens=40, group_chunks=3, window=2), cache_dir=tmp_path)[1].calls == 0


def test_a_backend_that_cannot_count_tokens_is_an_error_saying_what_to_pass():
    backend = load_backend("openai", "served", base_url="http://127.0.0.1:9/v1")
    with pytest.raises(ChronoError, match="pass --tokenizer"):
        ChronoBuilder(backend, SMALL)


# --- the command -----------------------------------------------------------------------------------


def test_chrono_build_and_query_from_the_command_line(tmp_path, capsys, monkeypatch):
    book = files("clueweaver").joinpath("data", "demo_mystery.md")
    asked = []
    monkeypatch.setattr(
        "clueweaver.cli.chrono.load_backend_from", lambda kind, model, options: asked.append(model) or scripted(model)
    )
    common = [str(book), "--model", "m", "--cache-dir", str(tmp_path / "cache"), "--chrono-chunk-tokens", "40"]
    assert main(["chrono", "build", *common, "--chrono-group-chunks", "3", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["built"] == report["groups"] > 0 and report["failed"] == 0 and report["model"] == "m"
    assert main(["chrono", "build", *common, "--chrono-group-chunks", "3"]) == 0
    assert "0 groups built now" in capsys.readouterr().out

    question = "umbrella Garrow lantern"
    query = ["chrono", "query", *common, "--chrono-group-chunks", "3", question, "--chrono-retrieval", "bm25"]
    assert main([*query, "--max-chapter", "3", "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    last = payload["last_paragraph"]
    assert last == DEMO.last_paragraph_of_chapter(3) and payload["tokens"] <= payload["budget"] == 1500
    assert payload["passages"] and all(i <= last for p in payload["passages"] for i in p["paragraph_ids"])
    assert all(abs(n - p["node"]) == 1 for p in payload["passages"] for n in p["adjacent_nodes"])
    assert (payload["layer"], payload["assembly"]) == ("relation", "relations")
    assert all(p["node"] in p["relations_shown"] for p in payload["passages"][:1])  # the paper's reading shows them
    assert main([*query, "--budget", "200"]) == 0
    assert "of 200 tokens" in capsys.readouterr().out

    assert main(["chrono", "query", *common, question, "--chrono-retrieval", "bm25"]) == 2  # group size 4: no index
    err = capsys.readouterr().err
    assert "no ChronoRAG index" in err and "clueweaver chrono build BOOK --backend hf|vllm|openai --model m " in err
    assert "--chrono-chunk-tokens 40" in err
    assert main(["chrono", "query", *common, question, "--chrono-window", "2", "--chrono-no-neighbours"]) == 2
    assert "exclude each other" in capsys.readouterr().err
    assert main(["chrono", "query", *common, "--chrono-group-chunks", "3", question, "--encoder", "none"]) == 2
    assert "--chrono-retrieval bm25" in capsys.readouterr().err
    assert set(asked) == {"m"}
