"""The harness on the real inference engine.

With the engine's scripted backend: what a pipeline Result becomes in a record (citations split
against the packet, stage timings, a flagged fallback scored as no answer). With a tiny random
Qwen3 (real tokenizer and chat template) on CPU over small subsets of the shared NoCha and QuALITY
data: every number of the summary recomputes from the per-item file, an interrupted run resumes
to the same summary, and every system runs end to end. The tiny model's answers mean nothing."""

from __future__ import annotations

import json

import pytest

from clueweaver.backends.scripted import ScriptedBackend
from clueweaver.cli import main
from clueweaver.evaluation.predictions import PREDICTIONS_FILE, read_predictions
from clueweaver.evaluation.report import summarize
from clueweaver.evaluation.runner import EvalConfig, run_evaluation
from clueweaver.evaluation.systems import build_reader
from clueweaver.pipeline import STAGES, ClueWeaver
from clueweaver.protocol.calibration import needs_self_calibration
from clueweaver.protocol.question import Question
from clueweaver.systems.base import RetrievalReader, interpreter_stage, reader_output
from tests.conftest import shared_path
from tests.test_evaluation_runner import ITEMS, recompute, without_latency, write_benchmark

FINDER_YES = "<reason>The key is here [14].</reason><answer>YES</answer>"


def _scripted_pipeline(interpreter_reply: str, **config) -> ClueWeaver:
    def reply(messages, adapter):
        system = messages[0]["content"]
        if system.startswith("You are the Finder"):
            return FINDER_YES if "[14]" in messages[-1]["content"] else "<reason>Nothing.</reason><answer>NO</answer>"
        return interpreter_reply

    return ClueWeaver(ScriptedBackend(script=reply), encoder=None, preset="focused", **config)


def _reader(pipeline):
    def answer(narrative, question, *, max_paragraph=None):
        return reader_output(pipeline.answer(narrative, question, max_paragraph=max_paragraph))

    return answer


def test_a_pipeline_result_becomes_a_record(tmp_path):
    bench = write_benchmark(tmp_path, ITEMS[:1])  # q1: who darkened the lantern? (B)
    pipeline = _scripted_pipeline(
        "<reason>His coat held the key [14]; see [999].</reason><answer>B</answer>", self_calibration=False
    )
    config = EvalConfig(
        benchmark="jsonl", system="clueweaver", path=str(bench), output=str(tmp_path / "run"), encoder=None
    )
    run_evaluation(config, _reader(pipeline), progress=False)
    [record] = read_predictions(tmp_path / "run")
    assert record["prediction"] == "B" and record["correct"] and record["format_valid"] and record["answer_legal"]
    assert record["cited_ids"] == [14] and record["invalid_ids"] == [999] and 14 in record["packet_ids"]
    assert list(record["timings"]) == [*STAGES, "total"]
    assert record["details"]["finder"]["kept"] >= 1 and record["details"]["answer_source"] == "provisional"
    assert record["outputs"] == {
        "interpreter": "<reason>His coat held the key [14]; see [999].</reason><answer>B</answer>"
    }


def test_a_flagged_fallback_answer_is_scored_as_no_answer(tmp_path):
    bench = write_benchmark(tmp_path, ITEMS[4:6])  # the TRUE and FALSE claims of pair p2
    pipeline = _scripted_pipeline("I cannot tell.")
    config = EvalConfig(
        benchmark="jsonl", system="clueweaver", path=str(bench), output=str(tmp_path / "run"), encoder=None
    )
    result = run_evaluation(config, _reader(pipeline), progress=False)
    records = read_predictions(tmp_path / "run")
    # the pipeline falls back to the first label, TRUE; counting it would score the TRUE claim right
    assert [r["details"]["fallback_answer"] for r in records] == ["TRUE", "TRUE"]
    assert all(
        r["prediction"] is None and not r["correct"] and r["details"]["answer_source"] == "fallback" for r in records
    )
    assert all(r["details"]["retried"] == ["provisional"] for r in records)  # one retry with a format reminder
    assert result.summary["overall"]["correct"] == 0 and result.summary["format_audit"]["answer_legal"] == 0


def test_rag_baseline_uses_the_pipeline_interpreter_stage(tmp_path):
    bench = write_benchmark(tmp_path, ITEMS[2:4])  # claims of pair p1
    pipeline = _scripted_pipeline("<reason>Found in his coat [14].</reason><answer>TRUE</answer>")
    reader = RetrievalReader("bm25", "focused", interpreter_stage(pipeline, "rag-bm25"), encoder=None)
    config = EvalConfig(
        benchmark="jsonl", system="rag-bm25", path=str(bench), output=str(tmp_path / "run"), encoder=None
    )
    run_evaluation(config, reader, progress=False)
    records = read_predictions(tmp_path / "run")
    assert [r["correct"] for r in records] == [True, False]  # TRUE claim right, FALSE claim wrong
    assert all(set(r["timings"]) == {"retrieve", "interpret", "calibrate", "total"} for r in records)
    assert all("finder" not in r["details"] for r in records)  # no Finder ran
    # self-calibration runs exactly where tau(q) fires, over the same packet
    for record, (item, _) in zip(records, ITEMS[2:4]):
        fires = needs_self_calibration(Question.claim(item["question"]["text"]))
        assert record["details"]["calibration_triggered"] == fires
        assert ("calibration" in record["outputs"]) == fires


# --- the tiny model ------------------------------------------------------------------------------

# one NoCha pair about The Great Gatsby, the shortest of the four books
NOCHA_ITEMS = ("nocha:295:TRUE", "nocha:295:FALSE")
# a random model writes until the token limit: short limits keep CPU runs bounded
SHORT_OUTPUTS = {"finder_sampling": {"max_new_tokens": 8}, "interpreter_sampling": {"max_new_tokens": 24}}


def _config(tmp_path, name: str, model, **overrides) -> EvalConfig:
    settings = {
        "encoder": None,
        "model": str(model),
        "device": "cpu",
        "output": str(tmp_path / name),
        "pipeline": SHORT_OUTPUTS,
        **overrides,
    }
    return EvalConfig(**settings)


def _check_recomputes(summary: dict, records: list[dict]) -> None:
    expected = recompute(records)
    assert summary["overall"]["items"] == expected["items"] and summary["overall"]["correct"] == expected["correct"]
    c, f = summary["citation_audit"], summary["format_audit"]
    assert (c["citation_bearing"], c["cited_ids"], c["valid_ids"], c["all_valid"]) == (
        expected["citation_bearing"],
        expected["cited_ids"],
        expected["valid_ids"],
        expected["all_valid"],
    )
    assert (f["format_valid"], f["answer_legal"]) == (expected["format_valid"], expected["answer_legal"])
    assert summary["latency"]["total"]["mean"] == pytest.approx(expected["mean_total"])
    for record in records:
        assert set(record["cited_ids"]) <= set(record["packet_ids"])
        assert not set(record["invalid_ids"]) & set(record["packet_ids"])


@pytest.mark.slow
def test_clueweaver_on_nocha_pairs_recomputes_and_resumes(tiny_qwen3_path, tmp_path):
    nocha = str(shared_path("nocha", "data_sample"))
    base = {"benchmark": "nocha", "system": "clueweaver", "path": nocha, "item_ids": NOCHA_ITEMS}
    whole = run_evaluation(_config(tmp_path, "whole", tiny_qwen3_path, **base), progress=False)
    records = read_predictions(tmp_path / "whole")
    assert [r["item_id"] for r in records] == list(NOCHA_ITEMS)
    _check_recomputes(whole.summary, records)
    pairs = whole.summary["datasets"]["nocha"]["pair_accuracy"]
    assert pairs["pairs"] == 1 and pairs["incomplete_pairs"] == 0
    first = records[0]
    assert set(first["timings"]) >= {"segment", "finder", "pack", "interpret", "calibrate", "total"}
    assert first["details"]["finder"]["segments"] >= 1 and first["outputs"]["interpreter"]
    assert first["packet_ids"] and first["details"]["packet_chars"] <= 16000  # the nocha preset's B_c

    class Interrupted(Exception):
        pass

    def interrupted_after_one(config):
        reader, calls = build_reader(config), []

        def answer(narrative, question, *, max_paragraph=None):
            if len(calls) == 1:
                raise Interrupted
            calls.append(question)
            return reader(narrative, question, max_paragraph=max_paragraph)

        answer.close = reader.close
        return answer

    split = _config(tmp_path, "split", tiny_qwen3_path, **base)
    with pytest.raises(Interrupted):
        run_evaluation(split, reader_factory=interrupted_after_one, progress=False)
    assert len(read_predictions(tmp_path / "split")) == 1
    resumed = run_evaluation(split, progress=False)
    assert (resumed.resumed_records, resumed.new_records) == (1, 1)
    assert without_latency(resumed.summary) == without_latency(whole.summary)
    assert without_latency(summarize(read_predictions(tmp_path / "split"))) == without_latency(whole.summary)


@pytest.mark.slow
def test_quality_systems_end_to_end_and_compare(tiny_qwen3_path, tmp_path, capsys):
    quality = str(shared_path("quality_leval", "quality.jsonl"))
    runs = {}
    for system in ("direct", "rag-bm25"):
        result = run_evaluation(
            _config(
                tmp_path, system, tiny_qwen3_path, benchmark="quality_leval", system=system, path=quality, limit=2
            ),
            progress=False,
        )
        records = read_predictions(tmp_path / system)
        assert len(records) == 2 and all(r["system"] == system for r in records)
        _check_recomputes(result.summary, records)
        runs[system] = records
    direct = runs["direct"][0]
    # the story (about 6k tokens) fits the direct reader's budget: it reads every paragraph
    assert direct["details"]["truncation"]["complete"] and len(direct["packet_ids"]) == 166
    assert set(direct["timings"]) == {"truncate", "interpret", "total"}
    rag = runs["rag-bm25"][0]
    assert set(rag["timings"]) == {"retrieve", "interpret", "calibrate", "total"}
    assert rag["details"]["packet_chars"] <= 15000  # the broader preset's B_c
    # the direct reader's output length follows the Interpreter's setting (24 tokens here)
    assert direct["details"]["tokens"]["completion"] <= 24

    assert main(["eval-compare", str(tmp_path / "direct"), str(tmp_path / "rag-bm25"), "--json"]) == 0
    comparison = json.loads(capsys.readouterr().out)
    assert comparison["items"] == 2
    t = comparison["transitions"]
    assert t["fixed"] + t["broken"] + t["both_right"] + t["both_wrong"] == 2
    assert main(["eval-report", *(str(tmp_path / s) for s in runs), "--output", str(tmp_path / "report")]) == 0
    assert (tmp_path / "report" / "accuracy_latency.png").stat().st_size > 0
    assert (tmp_path / "direct" / PREDICTIONS_FILE).is_file()


@pytest.mark.slow
def test_cli_eval_with_a_config_yaml_runs_and_resumes(tiny_qwen3_path, tmp_path, capsys):
    settings = tmp_path / "short.yaml"
    settings.write_text("interpreter_sampling: {max_new_tokens: 24}\nself_calibration: false\n", encoding="utf-8")
    command = [
        "eval",
        "--benchmark",
        "quality_leval",
        "--path",
        str(shared_path("quality_leval", "quality.jsonl")),
        "--limit",
        "1",
        "--system",
        "rag-dense",
        "--encoder",
        "minilm",
        "--model",
        str(tiny_qwen3_path),
        "--device",
        "cpu",
        "--config",
        str(settings),
        "--output",
        str(tmp_path / "run"),
    ]
    assert main(command) == 0
    out, err = capsys.readouterr()
    label = 'rag-dense no-self-cal interpreter_sampling={"max_new_tokens": 24} model=tiny-qwen3'  # the settings
    assert f"| {label} |" in out and "(1 new, 0 resumed)" in err
    run = json.loads((tmp_path / "run" / "run.json").read_text())
    # the YAML's own-field setting lands in its field, the rest in the pipeline settings
    assert run["config"]["self_calibration"] is False and run["config"]["pipeline"] == {
        "interpreter_sampling": {"max_new_tokens": 24}
    }
    [record] = read_predictions(tmp_path / "run")
    assert record["timings"]["calibrate"] == 0.0 and record["details"]["packet_chars"] <= 15000
    assert main(command) == 0
    assert "(0 new, 1 resumed)" in capsys.readouterr().err
    # another setting on the same folder is refused, naming the difference
    assert main([*command, "--preset", "focused"]) == 2
    assert "preset: 'broader' there, 'focused' now" in capsys.readouterr().err
