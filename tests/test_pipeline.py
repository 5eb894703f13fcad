"""Algorithm 1 end to end with the scripted backend: exact calls, verdicts, packet, tau, fallbacks."""

from __future__ import annotations

import json
import re

import pytest

from clueweaver.backends import SamplingConfig, load_backend
from clueweaver.benchmarks.demo import load_demo
from clueweaver.books.narrative import NarrativeError
from clueweaver.pipeline import STAGES, ClueWeaver, PipelineConfig
from clueweaver.protocol.prompts import calibration_messages, finder_messages, interpreter_messages
from clueweaver.protocol.question import Question
from clueweaver.retrieval import get_index
from clueweaver.segments.packing import pack
from clueweaver.segments.segmenter import Segment, get_preset, segment_narrative

BOOK, DEMO = load_demo()
WHY = DEMO[0].question  # "Why does Hester conclude ...": tau(q) fires on "why"
CLAIM = DEMO[1].question
WHO = Question("Who hid the wages in the signal lantern?", dict(DEMO[0].question.options))  # no tau cue
GOLD = set(DEMO[0].evidence_ids)
YES = "<reason>the clue is in [{ids}]</reason><answer>YES</answer>"
NO = "<reason>about the weather instead</reason><answer>NO</answer>"
ANSWER_C = (
    "<reason>[3] the rain began at eleven; [33] he said he was in bed by ten; [35] the umbrella was "
    "wet</reason><answer>C</answer>"
)
ANSWER_A = "<reason>[12] the clock; [26] the Anchor</reason><answer>A</answer>"
GARBAGE = "I think it is probably something like that."


def segment_ids(messages) -> list[int]:
    return [int(i) for i in re.findall(r"^\[(\d+)\]", messages[-1]["content"], re.MULTILINE)]


def finder_citing_gold(ids: list[int]) -> str:
    """YES citing the gold paragraphs in the segment (and one ID outside it); NO elsewhere."""
    hits = sorted(GOLD & set(ids))
    return YES.format(ids=", ".join(map(str, hits + [999]))) if hits else NO


def run(question, *, finder=finder_citing_gold, interpret=ANSWER_C, calibrate=ANSWER_C, retry=ANSWER_C,
        narrative=BOOK, answer_options=None, backend_options=None, **config):  # fmt: skip
    """Answer with a scripted backend serving both agents through two adapter names."""

    def script(messages, adapter):
        if adapter == "finder":
            return finder(segment_ids(messages))
        assert adapter == "interpreter"
        if messages[0]["content"] == calibration_messages(question, "p", "o")[0]["content"]:
            return calibrate
        return retry if "Reminder:" in messages[-1]["content"] else interpret

    backend = load_backend(
        "scripted", "agents", script=script, adapters=("finder", "interpreter"), **(backend_options or {})
    )
    settings = {"encoder": None, "finder_adapter": "finder", "interpreter_adapter": "interpreter", **config}
    result = ClueWeaver(backend, backend, config=PipelineConfig(**settings)).answer(
        narrative, question, **(answer_options or {})
    )
    return result, backend


def expected_segments(question, preset="detectiveqa", **limits):
    return segment_narrative(BOOK, question, preset, index=get_index(BOOK, None), **limits)


def calls_by_adapter(backend):
    return [(call.adapter, len(call.conversations)) for call in backend.calls]


def test_every_segment_goes_to_the_finder_in_one_batched_call():
    result, backend = run(WHY)
    segments = expected_segments(WHY)
    assert len(segments) > 5
    finder_call = backend.calls[0]
    assert finder_call.adapter == "finder"
    assert finder_call.conversations == [finder_messages(WHY, s.render(BOOK)) for s in segments]
    assert finder_call.sampling == PipelineConfig().finder_sampling
    # then one Interpreter call and one self-calibration call, one conversation each
    assert calls_by_adapter(backend) == [("finder", len(segments)), ("interpreter", 1), ("interpreter", 1)]
    assert [s["paragraph_ids"] for s in result.trace["segments"]] == [list(s.paragraph_ids) for s in segments]
    assert result.trace["finder"]["calls"] == 1


def test_a_finder_batch_reads_the_same_segments_in_several_calls_and_reports_each():
    whole, _ = run(WHY)
    events = []
    result, backend = run(WHY, finder_batch=2, answer_options={"progress_callback": lambda *e: events.append(e)})
    segments = len(expected_segments(WHY))
    finder_calls = [size for adapter, size in calls_by_adapter(backend) if adapter == "finder"]
    assert finder_calls == [2] * (segments // 2) + [1] * (segments % 2)
    # the trace counts the calls made, not one per round
    assert result.trace["finder"]["calls"] == result.trace["tokens"]["finder"]["calls"] == len(finder_calls) > 1
    assert result.trace["finder"]["rounds"][0]["calls"] == len(finder_calls)
    assert result.trace["segments"] == whole.trace["segments"] and result.answer == whole.answer
    progress = [(info["done"], info["total"]) for stage, info in events if info["status"] == "progress"]
    assert progress == [(min(done, segments), segments) for done in range(2, segments + 2, 2)]
    with pytest.raises(ValueError, match="finder_batch must be a positive number"):
        PipelineConfig(finder_batch=0)


def test_yes_segments_keep_their_valid_cited_ids_and_the_packet_follows_narrative_order():
    result, _ = run(WHY)
    segments = expected_segments(WHY)
    kept = [s for s in segments if GOLD & set(s.paragraph_ids)]
    assert GOLD <= {i for s in kept for i in s.paragraph_ids}  # the segmenter found every clue
    assert 0 < len(kept) < len(segments)
    for traced, segment in zip(result.trace["segments"], segments):
        verdict = traced["finder"]
        hits = sorted(GOLD & set(segment.paragraph_ids))
        assert verdict["kept"] == bool(hits)
        assert verdict["verdict"] == ("YES" if hits else "NO")
        assert verdict["status"] == "parsed"
        assert verdict["cited_ids"] == hits
        assert verdict["invalid_ids"] == ([999] if hits else [])
    assert result.trace["finder"]["cited_ids"] == sorted(GOLD)
    assert result.trace["finder"] | {"cited_ids": None} == {
        "ran": True, "calls": 1, "segments": len(segments), "kept": len(kept), "unparseable": 0,
        "prompt_too_long": 0, "yes": len(kept), "no": len(segments) - len(kept), "cited_ids": None, "fallback": None,
        "rounds": [{"round": 1, "segments": len(segments), "kept": len(kept), "cited_ids": sorted(GOLD),
                    "seconds": result.trace["finder"]["rounds"][0]["seconds"], "calls": 1,
                    "tokens": {k: result.trace["tokens"]["finder"][k] for k in ("prompt", "completion")}}],
    }  # fmt: skip
    expected = pack(BOOK, kept, "detectiveqa", cited_ids=sorted(GOLD), max_paragraph=len(BOOK) - 1)
    assert result.packet == expected
    assert list(result.packet.paragraph_ids) == sorted(result.packet.paragraph_ids)
    assert GOLD <= set(result.packet.paragraph_ids)
    assert result.trace["packet"] == {**expected.to_dict(), "found_by_round": {"1": list(expected.paragraph_ids)}}


def test_interpreter_reads_the_packet_and_only_packet_citations_count():
    cites = "<reason>[3] rain; [35] wet umbrella; [50] the lantern; [9999] nowhere</reason><answer>C</answer>"
    result, backend = run(WHY, interpret=cites, calibrate=cites)
    interpreter_call = backend.calls[1]
    assert interpreter_call.conversations == [interpreter_messages(WHY, result.packet.text)]
    assert interpreter_call.sampling == PipelineConfig().interpreter_sampling
    packet_ids = set(result.packet.paragraph_ids)
    assert 50 not in packet_ids  # the solution chapter was never selected
    assert result.citations == tuple(sorted({3, 35} & packet_ids)) == (3, 35)
    assert result.invalid_citations == (50, 9999)
    assert (result.answer, result.rationale, result.format_valid, result.fallback) == (
        "C",
        cites[8 : cites.index("</reason>")],
        True,
        False,
    )


def test_tau_fires_for_claims_and_cue_words_only_and_calibration_sees_the_identical_packet():
    _, no_cue = run(WHO)
    assert calls_by_adapter(no_cue)[1:] == [("interpreter", 1)]

    result, backend = run(
        CLAIM, interpret=ANSWER_A.replace(">A<", ">TRUE<"), calibrate=ANSWER_A.replace(">A<", ">TRUE<")
    )
    assert calls_by_adapter(backend)[1:] == [("interpreter", 1), ("interpreter", 1)]
    provisional_call, calibration_call = backend.calls[1], backend.calls[2]
    provisional_output = result.trace["interpreter"]["provisional"]["attempts"][0]["output"]
    assert calibration_call.conversations == [calibration_messages(CLAIM, result.packet.text, provisional_output)]
    assert result.packet.text in provisional_call.conversations[0][-1]["content"]
    assert result.packet.text in calibration_call.conversations[0][-1]["content"]
    assert result.trace["interpreter"]["calibration_triggered"] is True

    why_result, _ = run(WHY)
    assert why_result.trace["interpreter"]["calibration_cues"] == {"causal": ["why"]}
    assert why_result.trace["interpreter"]["answer_source"] == "calibration"

    off, off_backend = run(CLAIM, self_calibration=False, interpret=ANSWER_A.replace(">A<", ">FALSE<"))
    assert calls_by_adapter(off_backend)[1:] == [("interpreter", 1)]
    assert off.trace["interpreter"]["calibration"] is None and off.trace["timings"]["calibrate"] == 0.0
    assert (off.answer, off.answer_source) == ("FALSE", "provisional")


def test_calibration_can_change_the_answer_and_the_trace_says_so():
    result, _ = run(WHY, interpret=ANSWER_A, calibrate=ANSWER_C)
    assert (result.answer, result.answer_source, result.calibration_changed) == ("C", "calibration", True)
    assert result.trace["interpreter"]["provisional"]["answer"] == "A"
    assert result.trace["interpreter"]["calibration"]["answer"] == "C"
    assert result.trace["interpreter"]["calibration_changed"] is True
    same, _ = run(WHY, interpret=ANSWER_C, calibrate=ANSWER_C)
    assert not same.calibration_changed


def test_an_unreadable_finder_output_keeps_its_segment_and_is_counted():
    segments = expected_segments(WHY)
    garbled = segments[-1].start

    def finder(ids):
        return GARBAGE if ids[0] == garbled else finder_citing_gold(ids)

    result, _ = run(WHY, finder=finder)
    last = result.trace["segments"][-1]["finder"]
    assert (last["status"], last["kept"], last["verdict"], last["output"]) == ("unparseable", True, None, GARBAGE)
    assert result.trace["finder"]["unparseable"] == 1
    assert segments[-1] in result.packet.segments + result.packet.dropped_segments
    assert any("1 of" in w and "kept (recall first)" in w for w in result.trace["warnings"])


def test_when_the_finder_keeps_nothing_the_retrieved_segments_are_packed():
    result, _ = run(WHY, finder=lambda ids: NO)
    segments = expected_segments(WHY)
    assert result.trace["finder"]["kept"] == 0 and result.trace["finder"]["fallback"]
    assert result.packet == pack(BOOK, segments, "detectiveqa", cited_ids=[], max_paragraph=len(BOOK) - 1)
    assert any("kept no segment" in w for w in result.trace["warnings"])
    assert result.answer == "C"


def test_an_unreadable_interpreter_output_is_retried_once_with_a_reminder():
    result, backend = run(WHO, interpret=GARBAGE, retry=ANSWER_C)
    first, second = backend.calls[1], backend.calls[2]
    assert len(backend.calls) == 3
    messages = interpreter_messages(WHO, result.packet.text)
    assert first.conversations == [messages]
    assert second.conversations[0][:-1] == messages[:-1]
    assert second.conversations[0][-1]["content"].startswith(messages[-1]["content"])
    assert "<answer>A/B/C/D</answer>" in second.conversations[0][-1]["content"][len(messages[-1]["content"]) :]
    provisional = result.trace["interpreter"]["provisional"]
    assert provisional["retried"] and [a["format_reminder"] for a in provisional["attempts"]] == [False, True]
    assert (result.answer, result.fallback, result.answer_legal) == ("C", False, True)

    # a claim: self-calibration re-checks the output of the retry
    claim_answer = ANSWER_A.replace(">A<", ">TRUE<")
    claim, claim_backend = run(CLAIM, interpret=GARBAGE, retry=claim_answer, calibrate=claim_answer)
    assert calls_by_adapter(claim_backend)[1:] == [("interpreter", 1)] * 3
    assert claim_backend.calls[3].conversations == [calibration_messages(CLAIM, claim.packet.text, claim_answer)]


def test_without_the_format_retry_an_unreadable_output_is_a_flagged_fallback_at_once():
    result, backend = run(WHO, interpret=GARBAGE, retry=ANSWER_C, format_retry=False)
    assert calls_by_adapter(backend)[1:] == [("interpreter", 1)]
    assert not result.trace["interpreter"]["provisional"]["retried"]
    assert result.fallback and result.trace["config"]["format_retry"] is False


def test_still_unreadable_after_the_retry_gives_a_flagged_fallback():
    result, backend = run(CLAIM, interpret=GARBAGE, retry="<answer>maybe</answer>")
    assert calls_by_adapter(backend)[1:] == [("interpreter", 1), ("interpreter", 1)]  # no calibration of nothing
    assert (result.answer, result.fallback, result.answer_legal, result.answer_source) == (
        "TRUE",
        True,
        False,
        "fallback",
    )
    assert result.citations == () and result.rationale == ""
    assert result.trace["interpreter"]["calibration_skipped"]
    assert any("fallback answer TRUE (flagged)" in w for w in result.trace["warnings"])

    # an unreadable calibration falls back to the provisional answer, not to the flagged fallback
    kept, _ = run(WHY, interpret=ANSWER_A, calibrate=GARBAGE, retry=GARBAGE)
    assert (kept.answer, kept.answer_source, kept.fallback, kept.calibration_changed) == (
        "A",
        "provisional",
        False,
        False,
    )
    assert kept.trace["interpreter"]["calibration"]["retried"]


def test_no_finder_ablation_packs_the_retrieved_segments():
    result, backend = run(WHY, use_finder=False)
    segments = expected_segments(WHY)
    assert calls_by_adapter(backend) == [("interpreter", 1), ("interpreter", 1)]
    assert result.packet == pack(BOOK, segments, "detectiveqa", cited_ids=[], max_paragraph=len(BOOK) - 1)
    assert {s["finder"]["status"] for s in result.trace["segments"]} == {"not_run"}
    assert result.trace["finder"]["ran"] is False and result.trace["timings"]["finder"] == 0.0


def test_a_chapter_limit_holds_end_to_end():
    limit = 4  # the clerk's lie (chapter 5) and the solution (chapter 7) are out of reach
    last = BOOK.last_paragraph_of_chapter(limit)
    cites = "<reason>[3] rain; [26] the Anchor; [35] wet umbrella</reason><answer>C</answer>"
    result, backend = run(WHY, interpret=cites, calibrate=cites, answer_options={"max_chapter": limit})
    segments = expected_segments(WHY, max_chapter=limit)
    assert backend.calls[0].conversations == [finder_messages(WHY, s.render(BOOK)) for s in segments]
    assert max(i for s in result.trace["segments"] for i in s["paragraph_ids"]) <= last
    assert max(result.packet.paragraph_ids) <= last
    assert 35 not in result.citations and 35 in result.invalid_citations
    later = [p.text for p in BOOK.paragraphs[last + 1 :]]
    seen = "\n".join(
        m["content"] for call in backend.calls for conversation in call.conversations for m in conversation
    )
    assert not [text for text in later if text in seen]
    assert result.trace["reading_limit"] == {
        "max_chapter": limit, "max_chapter_label": str(limit), "max_paragraph": None, "last_paragraph": last
    }  # fmt: skip

    by_paragraph, _ = run(WHY, answer_options={"max_paragraph": 20})
    assert max(i for s in by_paragraph.trace["segments"] for i in s["paragraph_ids"]) <= 20
    assert max(by_paragraph.packet.paragraph_ids) <= 20
    with pytest.raises(NarrativeError, match="beyond the book's 7 chapters"):
        run(WHY, answer_options={"max_chapter": 9})


def test_prompts_longer_than_the_window_are_reported_not_truncated():
    # A window too small for any Finder prompt, while the packet prompt still fits... neither fits here:
    result, backend = run(WHY, backend_options={"max_model_len": 400})
    finder = result.trace["finder"]
    assert finder["prompt_too_long"] == finder["segments"] == finder["kept"]
    assert all("exceeds the model window of 400 tokens" in s["finder"]["error"] for s in result.trace["segments"])
    # the Interpreter's prompt does not fit either: no retry (it would be longer), a flagged fallback
    assert calls_by_adapter(backend)[1:] == [("interpreter", 1)]
    assert result.fallback and result.answer == "A"
    warnings = "\n".join(result.trace["warnings"])
    assert "kept unread" in warnings and "interpreter:" in warnings and "exceeds the model window" in warnings


def test_given_segments_replace_the_segmenter_and_must_respect_the_limit():
    segments = [Segment.span(30, 37, "nwm"), Segment.span(0, 6, "nwm")]
    result, backend = run(WHY, answer_options={"segments": segments})
    assert backend.calls[0].conversations == [
        finder_messages(WHY, s.render(BOOK)) for s in sorted(segments, key=lambda s: s.start)
    ]
    assert result.trace["timings"]["segment"] == 0.0
    with pytest.raises(NarrativeError, match="past the reading limit"):
        run(WHY, answer_options={"segments": segments, "max_chapter": 2})


def test_trace_is_json_with_every_stage_timed_and_tokens_counted():
    events = []
    result, backend = run(
        WHY, answer_options={"progress_callback": lambda stage, info: events.append((stage, info["status"]))}
    )
    payload = json.loads(json.dumps(result.to_dict()))
    trace = payload["trace"]
    assert set(trace["timings"]) == {*STAGES, "total"}
    assert trace["timings"]["total"] >= sum(trace["timings"][s] for s in STAGES) > 0
    # every stage but the query writer's, which is off by default (tests/test_query_writer.py)
    assert [stage for stage, status in events if status == "started"] == [s for s in STAGES if s != "query"]
    assert events[-1] == ("done", "done")
    finder_prompts = [backend.count_tokens(m) for m in backend.calls[0].conversations]
    assert trace["tokens"]["finder"]["prompt"] == sum(finder_prompts)
    assert trace["tokens"]["interpret"] == {
        "calls": 1,
        "prompt": backend.count_tokens(backend.calls[1].conversations[0]),
        "completion": len(ANSWER_C.split()),
    }
    assert trace["tokens"]["query"] == {"calls": 0, "prompt": 0, "completion": 0}
    assert trace["tokens"]["total"]["prompt"] == sum(
        trace["tokens"][s]["prompt"] for s in ("finder", "interpret", "calibrate")
    )
    assert payload["answer"] == "C" and payload["citations"] == [3, 33, 35]
    assert trace["config"]["finder_model"] == "agents" and trace["book"]["paragraphs"] == len(BOOK)


def test_the_trace_records_every_setting_and_they_load_back(tmp_path):
    preset = get_preset("focused").with_overrides(char_budget=3000)
    result, _ = run(WHO, preset=preset, cache_dir=str(tmp_path), nwm_dir="nwm")
    recorded = json.loads(json.dumps(result.trace))["config"]
    added = ("finder_model", "interpreter_model", "encoder_used", "language_used")  # what ran, beside the settings
    settings = {name: value for name, value in recorded.items() if name not in added}
    assert set(settings) == set(PipelineConfig.__dataclass_fields__)
    assert (recorded["encoder"], recorded["encoder_used"]) == (None, "none")
    assert (recorded["language"], recorded["language_used"]) == (None, "en")  # detected from the book
    assert settings["segment_source"] == "plain" and settings["nwm_dir"] == "nwm"
    assert settings["cache_dir"] == str(tmp_path) and settings["preset"]["char_budget"] == 3000
    assert PipelineConfig.from_dict(settings) == PipelineConfig.from_dict({
        "preset": {"base": "focused", "char_budget": 3000}, "encoder": None, "finder_adapter": "finder",
        "interpreter_adapter": "interpreter", "cache_dir": str(tmp_path), "nwm_dir": "nwm",
    })  # fmt: skip


def test_two_backends_sampling_and_a_preset_from_configuration():
    finder_backend = load_backend("scripted", "finder-model", default=YES.format(ids=3))
    interpreter_backend = load_backend("scripted", "interpreter-model", default=ANSWER_C)
    config = PipelineConfig.from_dict({
        "preset": {"base": "focused", "char_budget": 3000},
        "finder_sampling": {"max_new_tokens": 40},
        "interpreter_sampling": {"temperature": 0.7, "seed": 5},
        "encoder": None,
    })  # fmt: skip
    assert config.interpreter_sampling == SamplingConfig(temperature=0.7, seed=5, max_new_tokens=320)
    result = ClueWeaver(finder_backend, interpreter_backend, config=config).answer(BOOK, WHO)
    (finder_call,) = finder_backend.calls
    assert finder_call.sampling == SamplingConfig(max_new_tokens=40) and finder_call.adapter is None
    assert [c.sampling for c in interpreter_backend.calls] == [config.interpreter_sampling]
    assert len(finder_call.conversations) == len(
        expected_segments(WHO, get_preset("focused").with_overrides(char_budget=3000))
    )
    assert result.packet.chars <= 3000
    assert result.trace["config"]["interpreter_model"] == "interpreter-model"
    with pytest.raises(ValueError, match="unknown field.*finder_tokens"):
        PipelineConfig.from_dict({"finder_tokens": 3})
    with pytest.raises(ValueError, match="finder_sampling: unknown field.*max_tokens"):
        PipelineConfig.from_dict({"finder_sampling": {"max_tokens": 3}})


def test_inference_reads_off_format_replies_and_the_trace_says_they_were_off_format():
    def chatty(ids):
        reply = finder_citing_gold(ids)
        return f"Sure! {reply} Hope this helps!" if GOLD & set(ids) else reply

    result, _ = run(WHY, finder=chatty, interpret="```\n" + ANSWER_C + "\n```")
    verdicts = [s["finder"] for s in result.trace["segments"]]
    kept = [v for v in verdicts if v["kept"]]
    assert kept and all(v["status"] == "parsed" and v["verdict"] == "YES" for v in kept)  # read all the same
    assert all("text before <reason>" in v["off_format"] for v in kept)
    assert all(v["off_format"] is None for v in verdicts if not v["kept"])
    provisional = result.trace["interpreter"]["provisional"]["attempts"][0]
    assert provisional["answer"] == result.answer == "C" and "text before <reason>" in provisional["off_format"]
