"""The optional second retrieval round (``hops: 2``): cited paragraphs seed it, its segments go to
the Finder in one more batched call, and the trace says which round found what."""

from __future__ import annotations

import re

import pytest

from clueweaver.backends import load_backend
from clueweaver.books.narrative import from_paragraphs
from clueweaver.pipeline import ClueWeaver, PipelineConfig
from clueweaver.protocol.question import Question
from clueweaver.retrieval import get_index

FILLER = "The fishing boats came back at dusk and the nets were hung to dry along the harbour wall."
HOP_ONE, HOP_TWO = 40, 250  # the key's hiding place, then who owns what hid it
TEXTS = [f"{FILLER} Day {n}." for n in range(300)]
TEXTS[HOP_ONE] = "The inspector found the brass key wrapped in a green Wexford shawl behind the chapel organ."
TEXTS[HOP_TWO] = "Old Mrs. Quill knitted a green Wexford shawl that winter and never let it out of her sight."
BOOK = from_paragraphs(TEXTS, title="the brass key", detect_headings=False)
QUESTION = Question(
    "Who hid the brass key that the inspector found?",
    {"A": "A widow from the village", "B": "The harbour master", "C": "The vicar", "D": "Nobody: it was lost"},
)
GOLD = {HOP_ONE, HOP_TWO}


def finder(messages, adapter):
    """YES citing the gold paragraphs a segment holds; NO otherwise."""
    if adapter == "interpreter":
        return f"<reason>[{HOP_ONE}] the key in the shawl; [{HOP_TWO}] her shawl</reason><answer>A</answer>"
    ids = {int(i) for i in re.findall(r"^\[(\d+)\]", messages[-1]["content"], re.MULTILINE)}
    hits = sorted(GOLD & ids)
    if hits:
        return f"<reason>the key's hiding place [{', '.join(map(str, hits))}]</reason><answer>YES</answer>"
    return "<reason>about the boats</reason><answer>NO</answer>"


def answer(hops: int, script=finder):
    backend = load_backend("scripted", "agents", script=script, adapters=("finder", "interpreter"))
    config = PipelineConfig(encoder=None, preset="focused", hops=hops, finder_adapter="finder",
                            interpreter_adapter="interpreter")  # fmt: skip
    # no pseudo-relevance feedback: the first round alone cannot reach the second hop's words
    index = get_index(BOOK, None, feedback_docs=0)
    return ClueWeaver(backend, config=config).answer(BOOK, QUESTION, index=index), backend


def round_tokens(trace: dict, number: int) -> dict:
    """The Finder tokens of one round's segments, added up from the trace's segments."""
    segments = [s["finder"] for s in trace["segments"] if s["round"] == number]
    return {key: sum(s[f"{key}_tokens"] for s in segments) for key in ("prompt", "completion")}


def test_one_round_never_reads_the_second_hop():
    result, backend = answer(hops=1)
    assert HOP_ONE in result.packet.paragraph_ids and HOP_TWO not in result.packet.paragraph_ids
    assert [call.adapter for call in backend.calls].count("finder") == 1
    (only,) = result.trace["finder"]["rounds"]
    assert only | {"seconds": None} == {
        "round": 1, "segments": result.trace["finder"]["segments"], "kept": 1, "cited_ids": [HOP_ONE],
        "seconds": None, "calls": 1, "tokens": round_tokens(result.trace, 1),
    }  # fmt: skip
    assert 0 < only["seconds"] <= result.trace["timings"]["finder"] + 1e-5  # both rounded to microseconds


def test_the_cited_paragraph_seeds_a_second_round_that_reaches_the_other_hop():
    result, backend = answer(hops=2)
    finder_calls = [call for call in backend.calls if call.adapter == "finder"]
    assert len(finder_calls) == 2  # one batched call per round
    trace = result.trace
    first, second = trace["finder"]["rounds"]
    assert first["round"] == 1 and first["cited_ids"] == [HOP_ONE]
    assert second | {"seconds": None, "tokens": None} == {
        "round": 2, "segments": len(finder_calls[1].conversations), "kept": 1, "cited_ids": [HOP_TWO],
        "seconds": None, "calls": 1, "tokens": None,
    }  # fmt: skip
    # each round's own cost: its seconds inside the finder stage, its tokens from its own segments
    assert first["tokens"] == round_tokens(trace, 1) and second["tokens"] == round_tokens(trace, 2)
    assert second["tokens"]["prompt"] > 0
    assert {k: first["tokens"][k] + second["tokens"][k] for k in ("prompt", "completion")} == {
        k: trace["tokens"]["finder"][k] for k in ("prompt", "completion")
    }
    assert first["seconds"] > 0 and second["seconds"] > 0
    assert first["seconds"] + second["seconds"] <= trace["timings"]["finder"] + 1e-5
    assert trace["finder"]["calls"] == trace["tokens"]["finder"]["calls"] == 2
    # second-round segments hold only paragraphs the first round did not read
    read_first = {i for s in trace["segments"] if s["round"] == 1 for i in s["paragraph_ids"]}
    read_second = {i for s in trace["segments"] if s["round"] == 2 for i in s["paragraph_ids"]}
    assert HOP_TWO in read_second and not read_first & read_second
    assert len(read_second) <= 16 // 2  # half the focused preset's anchors
    found = trace["packet"]["found_by_round"]
    assert HOP_ONE in found["1"] and HOP_TWO in found["2"]
    assert GOLD <= set(result.packet.paragraph_ids) and result.answer == "A"
    assert trace["config"]["hops"] == 2
    assert trace["tokens"]["finder"]["prompt"] == sum(
        s["finder"]["prompt_tokens"] for s in trace["segments"]
    )  # both rounds' tokens counted


def test_a_first_round_that_cites_nothing_leaves_the_second_round_unrun_and_says_so():
    def nothing(messages, adapter):
        if adapter == "interpreter":
            return "<reason>no evidence</reason><answer>D</answer>"
        return "<reason>about the boats</reason><answer>NO</answer>"

    result, backend = answer(hops=2, script=nothing)
    assert [call.adapter for call in backend.calls].count("finder") == 1
    assert len(result.trace["finder"]["rounds"]) == 1
    assert any("second round: not run" in w for w in result.trace["warnings"])


def test_hops_other_than_one_or_two_are_refused():
    with pytest.raises(ValueError, match="hops must be 1 or 2"):
        PipelineConfig(hops=3)


def test_a_second_round_without_the_finder_is_an_error_naming_both_settings(capsys):
    both = r"hops: 2 \(--hops 2\) needs the Finder.*use_finder is false \(--no-finder\)"
    with pytest.raises(ValueError, match=both):
        PipelineConfig(hops=2, use_finder=False)
    PipelineConfig(hops=1, use_finder=False)  # the no-Finder ablation itself stays
    from clueweaver.cli import main
    from tests.test_pipeline_cli import ask

    assert main(ask("--hops", "2", "--no-finder")) == 2
    err = capsys.readouterr().err
    assert "--hops 2" in err and "--no-finder" in err
