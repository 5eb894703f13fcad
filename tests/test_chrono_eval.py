"""ChronoRAG offered two ways: as the pipeline's segment source (``--segment-source chrono``, with
the missing-index error and the fallback), and as ``clueweaver eval --system chronorag`` end to
end on a tiny benchmark with the scripted backend, then in one ``eval-report`` table beside
rag-bm25."""

from __future__ import annotations

import json
import re
from importlib.resources import files

import pytest

from clueweaver.backends.scripted import ScriptedBackend
from clueweaver.chrono.chunks import chunk_groups, chunk_narrative
from clueweaver.chrono.config import ChronoConfig
from clueweaver.chrono.store import IndexFolder
from clueweaver.cli import main
from clueweaver.evaluation.predictions import RUN_FILE, TRACES_FILE, read_predictions
from clueweaver.pipeline import ClueWeaver, PipelineConfig
from clueweaver.pipeline import models as agents_module
from clueweaver.protocol.chrono_prompts import EXTRACTION_SYSTEM, SUMMARY_SYSTEM
from clueweaver.retrieval import load_encoder
from clueweaver.sources import SegmentSourceError
from clueweaver.systems.base import reader_output
from tests.encoder_standins import word_vectors
from tests.test_chrono import DEMO, DEMO_QUESTIONS, SMALL, build, chrono_model, words
from tests.test_evaluation_runner import ITEMS, PARAGRAPHS, SCRIPT, write_benchmark

BOOK_FILE = str(files("clueweaver").joinpath("data", "demo_mystery.md"))
CHRONO_FLAGS = ["--chrono-chunk-tokens", "40", "--chrono-group-chunks", "3", "--chrono-retrieval", "bm25"]
_CASE = re.compile(r"^(?:Question|Claim): (.*)$", re.MULTILINE)


def agents_model(messages, adapter=None) -> str:
    """One scripted model for every prompt: the builder's (``chrono_model``), the Finder (keeps every
    segment) and the Interpreter (the benchmark's scripted reply, or a TRUE claim)."""
    system = messages[0]["content"]
    if system in (SUMMARY_SYSTEM, EXTRACTION_SYSTEM):
        return chrono_model(messages)
    if system.startswith("You are the Finder"):
        return "<reason>A clue [2].</reason><answer>YES</answer>"
    case = _CASE.search(messages[1]["content"])
    return SCRIPT.get(case.group(1) if case else None) or "<reason>It says so [3].</reason><answer>TRUE</answer>"


def answer(tmp_path, question=DEMO_QUESTIONS[1].question, **settings):
    config = PipelineConfig(
        segment_source="chrono", chrono=SMALL, cache_dir=str(tmp_path), encoder=None, **settings
    )  # fmt: skip
    return ClueWeaver(ScriptedBackend("agents", script=agents_model), config=config).answer(DEMO, question)


def test_the_passages_of_a_chrono_index_become_finder_segments(tmp_path):
    build(cache_dir=tmp_path)
    result = answer(tmp_path)
    trace = result.trace
    count = len(trace["segments"])
    assert trace["segment_source"] == {
        "requested": "chrono", "used": "chrono", "fallback": None, "segments_by_source": {"chrono": count}
    }  # fmt: skip
    assert count > 1 and {(s["kind"], s["source"]) for s in trace["segments"]} == {("chrono", "chrono")}
    read = [i for s in trace["segments"] for i in s["paragraph_ids"]]
    assert len(read) == len(set(read))  # no paragraph read twice
    assert reader_output(result).details["segment_source"]["segments"] == ["chrono"] * count
    assert trace["config"]["chrono"]["chunk_tokens"] == 40 and result.answer == "TRUE"
    # a chapter limit holds for the segments and the packet
    limited = ClueWeaver(
        ScriptedBackend("agents", script=agents_model),
        config=PipelineConfig(segment_source="chrono", chrono=SMALL, cache_dir=str(tmp_path), encoder=None),
    ).answer(DEMO, DEMO_QUESTIONS[1].question, max_chapter=3)
    last = DEMO.last_paragraph_of_chapter(3)
    assert all(s["span"][1] <= last for s in limited.trace["segments"]) and max(limited.packet.paragraph_ids) <= last


def test_a_missing_or_unfinished_index_says_how_to_build_it_or_falls_back(tmp_path):
    with pytest.raises(SegmentSourceError, match=r"no ChronoRAG index of .*'clueweaver chrono build BOOK .*"
                       r"--chrono-chunk-tokens 40 --chrono-group-chunks 3'.*--segment-fallback"):  # fmt: skip
        answer(tmp_path)
    result = answer(tmp_path, segment_fallback=True)
    assert result.trace["segment_source"]["used"] == "plain"
    assert any(w.startswith("segment source chrono: no ChronoRAG index") for w in result.trace["warnings"])
    chunks = chunk_narrative(DEMO, words, 40)
    IndexFolder.for_model(DEMO, "m", SMALL, tmp_path).save_layer0(DEMO, chunks, chunk_groups(DEMO, chunks, 3))
    with pytest.raises(SegmentSourceError, match="is unfinished .* groups to go.*--model m"):
        answer(tmp_path)


def test_segment_command_reads_through_a_chrono_index(tmp_path, capsys):
    claim = ["segment", BOOK_FILE, "--claim", DEMO_QUESTIONS[1].question.text, "--encoder", "none"]
    source = ["--segment-source", "chrono", "--cache-dir", str(tmp_path), *CHRONO_FLAGS]
    assert main([*claim, *source]) == 2
    assert "no ChronoRAG index" in capsys.readouterr().err
    build(cache_dir=tmp_path)
    assert main([*claim, *source, "--max-chapter", "3", "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["segment_source"]["used"] == "chrono" and payload["segments"]
    last = DEMO.last_paragraph_of_chapter(3)
    assert all(s["source"] == "chrono" and s["span"][1] <= last for s in payload["segments"])
    assert main([*claim, *source]) == 0
    assert "chrono     a ChronoRAG passage" in capsys.readouterr().out


def test_ask_reads_through_a_chrono_index_with_settings_from_yaml_and_flags(tmp_path, scripted_engine, capsys):
    build(cache_dir=tmp_path)
    settings = tmp_path / "pipeline.yaml"
    settings.write_text("chrono: {chunk_tokens: 40, retrieval: bm25, group_chunks: 4}\n")
    ask = ["ask", BOOK_FILE, "--claim", DEMO_QUESTIONS[1].question.text, "--backend", "openai", "--model", "agents"]
    ask += ["--encoder", "none", "--cache-dir", str(tmp_path), "--segment-source", "chrono", "--config", str(settings)]
    assert main([*ask, "--chrono-group-chunks", "3", "--json"]) == 0  # the flag over the YAML's 4
    trace = json.loads(capsys.readouterr().out)["trace"]
    assert trace["segment_source"]["used"] == "chrono" and trace["config"]["chrono"]["retrieval"] == "bm25"
    assert {s["source"] for s in trace["segments"]} == {"chrono"}


def test_ask_checks_the_index_and_encoder_before_models_load_and_names_failed_groups(tmp_path, scripted_engine,
                                                                                    capsys):  # fmt: skip
    ask = ["ask", BOOK_FILE, "--claim", DEMO_QUESTIONS[1].question.text, "--backend", "openai", "--model", "agents"]
    ask += ["--cache-dir", str(tmp_path), "--segment-source", "chrono", *CHRONO_FLAGS]
    assert main([*ask, "--encoder", "none"]) == 2
    assert "no ChronoRAG index" in capsys.readouterr().err and scripted_engine == []
    flaky = ScriptedBackend(
        "m", script=lambda m, a: '{"summary": ""}' if "Garrow" in m[1]["content"] else agents_model(m)
    )
    graph, report = build(backend=flaky, cache_dir=tmp_path)
    assert 0 < report.failed < report.groups
    dense = [a for a in ask if a not in ("--chrono-retrieval", "bm25")]
    assert main([*dense, "--encoder", "none"]) == 2
    assert "has no dense encoder" in capsys.readouterr().err and scripted_engine == []
    assert main([*ask, "--encoder", "none", "--json"]) == 0
    warnings = json.loads(capsys.readouterr().out)["trace"]["warnings"]
    assert f"{report.failed} of {report.groups} groups of this ChronoRAG index failed" in " ".join(warnings)


class Words:
    """The word-vector stand-in encoder for dense retrieval over Layer 1."""

    name = "test:words"

    def encode(self, texts, *, is_query=False, show_progress=False):
        return word_vectors(texts)


@pytest.fixture
def scripted_engine(monkeypatch):
    """``--backend openai`` answered by one scripted model; ``--encoder words`` is the stand-in."""
    built: list[ScriptedBackend] = []

    def load(kind, model, **options):
        built.append(ScriptedBackend(model, script=agents_model))
        return built[-1]

    monkeypatch.setattr(agents_module, "load_backend", load)
    monkeypatch.setattr(
        "clueweaver.chrono.graph.load_encoder", lambda spec: Words() if spec == "words" else load_encoder(spec)
    )
    return built


def _eval(bench, system: str, output, *extra: str) -> int:
    return main(
        ["eval", "--benchmark", "jsonl", "--path", str(bench), "--system", system, "--backend", "openai",
         "--base-url", "http://127.0.0.1:9/v1", "--model", "scripted", "--output", str(output), *extra]
    )  # fmt: skip


def _traces(run) -> list[dict]:
    return [json.loads(line)["trace"] for line in (run / TRACES_FILE).read_text().splitlines()]


def _generations(backend: ScriptedBackend, system: str) -> int:
    return sum(c[0]["content"] == system for call in backend.calls for c in call.conversations)


def test_eval_chronorag_end_to_end_and_in_one_report_with_rag(tmp_path, scripted_engine, capsys):
    bench = write_benchmark(tmp_path)
    chrono = ["--encoder", "words", "--cache-dir", str(tmp_path / "cache"), "--context-budget", "60", "--save-traces"]
    chrono += ["--chrono-chunk-tokens", "20", "--chrono-group-chunks", "2"]
    assert _eval(bench, "chronorag", tmp_path / "chrono", *chrono) == 0
    [engine] = scripted_engine
    groups = _generations(engine, SUMMARY_SYSTEM)
    assert groups == _generations(engine, EXTRACTION_SYSTEM) > 1  # the book was indexed once for all items
    records = {r["item_id"]: r for r in read_predictions(tmp_path / "chrono")}
    scored = [r for r in records.values() if r["skipped"] is None]
    assert len(scored) == len(ITEMS) - 1  # the open question has no label
    for record in scored:
        details = record["details"]["chrono"]
        assert details["passages"] >= 1 and details["tokens"] <= details["budget"] == 60
        assert record["packet_ids"] and max(record["packet_ids"]) < len(PARAGRAPHS)
        assert record["timings"]["retrieve"] > 0 and details["failed_groups"] == 0
    assert records["q1"]["prediction"] == "B" and records["q1"]["correct"]
    assert records["c1f"]["prediction"] is None and not records["c1f"]["format_valid"]  # no tags
    run = json.loads((tmp_path / "chrono" / RUN_FILE).read_text())
    assert run["label"].startswith("chronorag ") and "chrono.chunk_tokens=20 chrono.group_chunks=2" in run["label"]

    # an ablation reads the same index: no build call, its own label
    assert _eval(bench, "chronorag", tmp_path / "no-neighbours", *chrono, "--chrono-no-neighbours") == 0
    assert _generations(scripted_engine[-1], SUMMARY_SYSTEM) == 0
    label = json.loads((tmp_path / "no-neighbours" / RUN_FILE).read_text())["label"]
    assert "chrono.window=0" in label

    # the paper's assembly: each retrieved relation shown with the relations beside it in Layer 1; window 0 alone
    def shown(run) -> list:
        return [n for r in read_predictions(run) if r["skipped"] is None for n in r["details"]["chrono"]["shown"]]

    shown, alone = shown(tmp_path / "chrono"), shown(tmp_path / "no-neighbours")
    assert any(len(nodes) > 1 for nodes in shown) and alone and all(len(nodes) == 1 for nodes in alone)
    # the chunks reading: neighbour chunks around the retrieved ones, none with window 0
    for name, extra in (("chunks", ()), ("chunks-alone", ("--chrono-no-neighbours",))):
        assert _eval(bench, "chronorag", tmp_path / name, *chrono, "--chrono-assembly", "chunks", *extra) == 0
    with_neighbours = [s for t in _traces(tmp_path / "chunks") for s in t["packet"]["segments"]]
    without = [s for t in _traces(tmp_path / "chunks-alone") for s in t["packet"]["segments"]]
    assert any(set(s["paragraph_ids"]) > set(s["anchor_ids"]) for s in with_neighbours)
    assert without and all(s["paragraph_ids"] == s["anchor_ids"] for s in without)  # the retrieved chunks alone
    assert "chrono.assembly=chunks" in json.loads((tmp_path / "chunks" / RUN_FILE).read_text())["label"]
    # the ablations without relation extraction and with the paper's merged key read the same index
    ablations = {"no-relations": ("--chrono-no-relations",), "merged": ("--chrono-merged-key", "neighbours")}
    for name, extra in ablations.items():
        assert _eval(bench, "chronorag", tmp_path / name, *chrono, *extra) == 0
    assert _generations(scripted_engine[-1], SUMMARY_SYSTEM) == 0
    no_relations = [r for r in read_predictions(tmp_path / "no-relations") if r["skipped"] is None]
    assert {r["details"]["chrono"]["layer"] for r in no_relations} == {"summary"}
    assert "chrono.merged_key=neighbours" in json.loads((tmp_path / "merged" / RUN_FILE).read_text())["label"]

    assert _eval(bench, "rag-bm25", tmp_path / "rag", "--encoder", "none") == 0
    capsys.readouterr()
    assert main(["eval-report", str(tmp_path / "chrono"), str(tmp_path / "rag"), "--output", str(tmp_path / "r")]) == 0
    table = capsys.readouterr().out
    accuracy = table.split("## Accuracy")[1].split("## Citation")[0]
    assert f"| {run['label']} |" in accuracy and "| rag-bm25" in accuracy
    assert table.strip() == (tmp_path / "r" / "summary.md").read_text().strip()


def test_eval_chronorag_refuses_what_it_cannot_honour(tmp_path, scripted_engine, capsys):
    bench = write_benchmark(tmp_path, ITEMS[:1])
    assert _eval(bench, "chronorag", tmp_path / "a", "--encoder", "none") == 2  # dense Layer 1, no encoder
    err = capsys.readouterr().err
    assert "--chrono-retrieval bm25" in err and "--encoder minilm" in err and "has no dense encoder" in err
    # another model's missing index: both refused before any model loaded
    assert _eval(bench, "chronorag", tmp_path / "c", "--chrono-retrieval", "bm25", "--chrono-model", "other") == 2
    assert "no ChronoRAG index of 'The Lantern at Gull Point' built by other" in capsys.readouterr().err
    assert scripted_engine == []
    bm25 = ("--chrono-retrieval", "bm25")
    assert _eval(bench, "chronorag", tmp_path / "b", "--encoder", "none", *bm25, "--context-budget", "50") == 2
    assert "holds no chunk of 128 tokens" in capsys.readouterr().err
    assert ChronoConfig(model="other").build_command("other").endswith("--model other")


def test_run_labels_leave_out_settings_the_system_does_not_read():
    from clueweaver.evaluation.runner import EvalConfig

    finder = {"pipeline": {"hops": 2, "segment_source": "chrono", "chrono": {"window": 2}}, "finder": "f-model"}
    assert EvalConfig("jsonl", "clueweaver", **finder).default_label() == (
        "clueweaver hops=2 segment_source=chrono chrono.window=2 finder=f-model"
    )
    for system in ("rag-bm25", "direct", "react"):
        assert EvalConfig("jsonl", system, **finder).default_label() == system  # no Finder: none of them
    assert EvalConfig("jsonl", "chronorag", **finder).default_label() == "chronorag chrono.window=2"
    plain = {"pipeline": {"chrono": {"window": 2}}}
    assert EvalConfig("jsonl", "clueweaver", **plain).default_label() == "clueweaver"  # plain segments: no chrono


def test_eval_chronorag_refuses_an_index_whose_groups_all_failed(tmp_path, monkeypatch, capsys):
    def never(messages, adapter=None):
        return '{"summary": ""}' if messages[0]["content"] == SUMMARY_SYSTEM else agents_model(messages)

    monkeypatch.setattr(
        agents_module, "load_backend", lambda kind, model, **options: ScriptedBackend(model, script=never)
    )
    bench = write_benchmark(tmp_path, ITEMS[:1])
    flags = ["--cache-dir", str(tmp_path / "cache"), "--chrono-retrieval", "bm25", "--chrono-chunk-tokens", "20"]
    assert _eval(bench, "chronorag", tmp_path / "run", *flags) == 2
    err = capsys.readouterr().err
    assert re.search(r"(\d+) of \1 groups of this ChronoRAG index failed", err)
    assert 'commonest reason: summary: "summary" must be a non-empty string' in err and "--max-attempts" in err
