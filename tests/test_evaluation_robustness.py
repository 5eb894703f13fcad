"""Evaluation runs a researcher can trust at the edges: the direct reader over an OpenAI-compatible
server (stand-in on 127.0.0.1) with a local tokenizer, reports at 0% and 100%, per-dataset audit
rows, run folders after a model fails to load, torn traces, warnings in rag-* records and
``--model tiny``."""

from __future__ import annotations

import json

import pytest

from clueweaver.backends.scripted import ScriptedBackend
from clueweaver.cli import main
from clueweaver.core.errors import EvalError
from clueweaver.core.jsonl import JsonlError
from clueweaver.evaluation.metrics import wilson_interval
from clueweaver.evaluation.predictions import RUN_FILE, TRACES_FILE, read_predictions
from clueweaver.evaluation.report import error_bar, markdown, summarize
from clueweaver.evaluation.runner import EvalConfig, run_evaluation
from clueweaver.pipeline import ClueWeaver
from clueweaver.systems.base import RetrievalReader, interpreter_stage
from tests.test_backends_openai import ChatServer
from tests.test_evaluation_runner import ITEMS, PARAGRAPHS, write_benchmark

CLAIMS = ITEMS[2:6]  # pairs p1 and p2: two TRUE and two FALSE claims


def _eval(tmp_path, bench, *extra) -> int:
    return main(["eval", "--benchmark", "jsonl", "--path", str(bench), "--encoder", "none", *extra])


# --- the direct reader over an OpenAI-compatible server ------------------------------------------


@pytest.fixture
def server():
    running = ChatServer()
    running.models = {"data": [{"id": "qwen3", "max_model_len": 4096}]}
    running.reply = lambda body: "<reason>The key was in his coat [14].</reason><answer>TRUE</answer>"
    yield running.start()
    running.stop()


def test_direct_reader_runs_over_an_openai_server_with_a_local_tokenizer(server, tmp_path, capsys):
    from clueweaver.backends.prompting import qwen3_tokenizer, qwen3_tokenizer_dir

    try:
        tokenizer_dir = qwen3_tokenizer_dir()
    except (ModuleNotFoundError, FileNotFoundError) as exc:
        pytest.skip(str(exc))
    bench = write_benchmark(tmp_path, CLAIMS)
    output = tmp_path / "run"
    common = ["--system", "direct", "--backend", "openai", "--base-url", server.base_url, "--model", "qwen3"]
    common += ["--item-concurrency", "1"]  # one item at a time: the server's requests come in the records' order
    assert _eval(tmp_path, bench, *common, "--tokenizer", str(tokenizer_dir), "--output", str(output)) == 0
    records = read_predictions(output)
    assert [r["prediction"] for r in records] == ["TRUE"] * 4 and [r["correct"] for r in records] == [
        True,
        False,
        True,
        False,
    ]
    # the whole short book fits; the prompt was counted locally, exactly as the served model counts it
    asked = [r["body"] for r in server.requests if r["path"].endswith("/chat/completions")]
    tokenizer = qwen3_tokenizer()
    for record, body in zip(records, asked):
        truncation = record["details"]["truncation"]
        assert truncation["complete"] and record["packet_ids"] == list(range(len(PARAGRAPHS)))
        counted = tokenizer.apply_chat_template(
            body["messages"], add_generation_prompt=True, enable_thinking=False, return_dict=True
        )["input_ids"]
        assert truncation["prompt_tokens"] == len(counted)
    assert json.loads((output / RUN_FILE).read_text())["config"]["tokenizer"] == str(tokenizer_dir)


def test_direct_reader_over_openai_without_a_tokenizer_says_what_to_pass(server, tmp_path, capsys):
    bench = write_benchmark(tmp_path, CLAIMS)
    common = ["--system", "direct", "--backend", "openai", "--base-url", server.base_url, "--model", "qwen3"]
    assert _eval(tmp_path, bench, *common, "--output", str(tmp_path / "run")) == 2
    assert "pass --tokenizer NAME|PATH" in capsys.readouterr().err
    assert not (tmp_path / "run").exists() and server.requests == []
    # a tokenizer that cannot be loaded is named, and the run folder stays free
    assert _eval(tmp_path, bench, *common, "--tokenizer", str(tmp_path / "nope"), "--output", str(tmp_path / "r")) == 2
    assert "cannot load the tokenizer" in capsys.readouterr().err and not (tmp_path / "r" / RUN_FILE).exists()
    assert _eval(tmp_path, bench, "--system", "direct", "--tokenizer", "x", "--output", str(tmp_path / "hf")) == 2
    assert "--tokenizer applies to --backend openai or vllm only" in capsys.readouterr().err


# --- reports at 0% and 100% ---------------------------------------------------------------------


def test_error_bars_are_never_negative_at_0_and_100_percent():
    for n in range(1, 501):
        for right in (0, n):
            interval = wilson_interval(right, n)
            _, ((below,), (above,)) = error_bar({"accuracy": right / n, "wilson95": list(interval)})
            assert below >= 0 and above >= 0


@pytest.mark.parametrize("reply, n", [("TRUE", 10), ("FALSE", 3)])
def test_eval_report_writes_its_plot_for_a_run_at_an_extreme(tmp_path, capsys, reply, n):
    # n TRUE claims, all right (10/10) or all wrong (0/3): both used to crash the plot
    items = [(dict(ITEMS[2][0], item_id=f"t{k}", pair_id=None), None) for k in range(n)]
    bench = write_benchmark(tmp_path, items)
    answer = f"<reason>See [14].</reason><answer>{reply}</answer>"
    run_evaluation(_config(bench, tmp_path / "run"), _rag_reader(answer), progress=False)
    assert main(["eval-report", str(tmp_path / "run"), "--output", str(tmp_path / "report")]) == 0
    assert (tmp_path / "report" / "accuracy_latency.png").read_bytes().startswith(b"\x89PNG")
    expected = "100.0 [72.2, 100.0] n=10" if reply == "TRUE" else "0.0 [0.0, 56.1] n=3"
    assert expected in capsys.readouterr().out


# --- the audit table ------------------------------------------------------------------------------


def test_audit_table_has_a_row_per_dataset_and_every_denominator(tmp_path):
    bench = write_benchmark(tmp_path, ITEMS)
    other = tmp_path / "other"
    other.mkdir()
    second = write_benchmark(other, CLAIMS)
    second.write_text(second.read_text().replace('"gull"', '"gull2"'))
    from tests.test_evaluation_runner import scripted_reader

    run_evaluation(_config(bench, tmp_path / "a", label="X"), scripted_reader(), progress=False)
    run_evaluation(_config(second, tmp_path / "b", label="X"), scripted_reader(), progress=False)
    records = read_predictions(tmp_path / "a") + read_predictions(tmp_path / "b")
    summary = summarize(records)
    for name in ("gull", "gull2"):
        rows = [r for r in records if r["benchmark"] == name and r["skipped"] is None]
        audit = summary["datasets"][name]["citation_audit"]
        assert audit["outputs"] == len(rows)
        assert audit["citation_bearing"] == sum(bool(r["cited_ids"] or r["invalid_ids"]) for r in rows)
    table = markdown({"X": summary})
    audit_section = table.split("## Citation and format audit")[1].split("## Latency")[0]
    audit_lines = [line for line in audit_section.splitlines() if line.startswith("| X | ")]
    assert [line.split(" | ")[1] for line in audit_lines] == ["gull", "gull2", "all"]
    c, f = summary["citation_audit"], summary["format_audit"]
    all_row = audit_lines[-1].split(" | ")
    assert all_row[3].startswith(f"{c['citation_bearing']}/{c['outputs']} (")
    assert all_row[5].startswith(f"{c['all_valid']}/{c['citation_bearing']} (")
    assert all_row[6].startswith(f"{f['format_valid']}/{f['outputs']} (")


# --- run folders, traces and records --------------------------------------------------------------


def test_a_run_whose_model_fails_to_load_leaves_no_run_file(tmp_path, capsys):
    bench = write_benchmark(tmp_path, CLAIMS)
    output = tmp_path / "run"
    assert (
        _eval(tmp_path, bench, "--system", "rag-bm25", "--model", str(tmp_path / "nope"), "--output", str(output)) == 2
    )
    assert "cannot load" in capsys.readouterr().err
    assert not (output / RUN_FILE).exists()
    # the folder is not locked to the failed settings: another run takes it
    run_evaluation(_config(bench, output, preset="broader"), _rag_reader("<answer>TRUE</answer>"), progress=False)
    assert json.loads((output / RUN_FILE).read_text())["config"]["preset"] == "broader"


def test_a_torn_last_trace_line_is_cut_before_a_resumed_run_appends(tmp_path):
    bench = write_benchmark(tmp_path, CLAIMS)
    output = tmp_path / "run"
    reader = _rag_reader("<reason>See [14].</reason><answer>TRUE</answer>")
    run_evaluation(_config(bench, output, limit=2, save_traces=True), reader, progress=False)
    traces = output / TRACES_FILE
    traces.write_text(traces.read_text() + '{"item_id": "c2t", "trace": {"sys', encoding="utf-8")  # interrupted
    with pytest.warns(UserWarning, match="incomplete last line"):
        run_evaluation(_config(bench, output, save_traces=True), reader, progress=False)
    lines = [json.loads(line) for line in traces.read_text().splitlines()]
    assert [line["item_id"] for line in lines] == [item["item_id"] for item, _ in CLAIMS]


def test_a_record_torn_inside_a_utf8_character_is_cut_and_the_run_resumes(tmp_path):
    bench = write_benchmark(tmp_path, CLAIMS)
    output = tmp_path / "run"
    reader = _rag_reader("<reason>Tobias’s coat — see [14].</reason><answer>TRUE</answer>")
    run_evaluation(_config(bench, output, limit=2), reader, progress=False)
    predictions = output / "predictions.jsonl"
    whole = predictions.read_bytes()
    last_start = whole.rstrip(b"\n").rfind(b"\n") + 1
    cut = whole.index("’".encode(), last_start) + 1  # inside the three bytes of the apostrophe
    predictions.write_bytes(whole[:cut])
    with pytest.warns(UserWarning, match="incomplete last line"):
        assert len(read_predictions(output)) == 1
    with pytest.warns(UserWarning, match="incomplete last line"):
        run_evaluation(_config(bench, output), reader, progress=False)
    records = read_predictions(output)
    assert [r["item_id"] for r in records] == [item["item_id"] for item, _ in CLAIMS]
    assert records[1]["rationale"].startswith("Tobias’s coat")


def test_a_record_holding_a_line_separator_resumes_as_one_record(tmp_path):
    # JSON keeps U+2028, U+2029 and U+0085 (Latin-1's reading of cp1252's "…") raw inside its strings
    bench = write_benchmark(tmp_path, CLAIMS)
    output = tmp_path / "run"
    reader = _rag_reader("<reason>The note\u2028said\x85see [14].</reason><answer>TRUE</answer>")
    run_evaluation(_config(bench, output, limit=2), reader, progress=False)
    run_evaluation(_config(bench, output), reader, progress=False)  # resumed: it reads the records back
    records = read_predictions(output)
    assert [r["item_id"] for r in records] == [item["item_id"] for item, _ in CLAIMS]
    assert records[0]["rationale"].startswith("The note\u2028said\x85see")


def test_a_damaged_run_folder_is_an_error_that_names_the_file_not_a_traceback(tmp_path, capsys):
    bench = write_benchmark(tmp_path, CLAIMS)
    output = tmp_path / "run"
    run_evaluation(_config(bench, output, limit=2), _rag_reader("<answer>TRUE</answer>"), progress=False)
    predictions = output / "predictions.jsonl"
    whole = predictions.read_bytes()
    predictions.write_bytes(whole[:5] + b"\xff" + whole[6:])
    with pytest.raises(JsonlError, match=r"predictions.jsonl, line 1: not UTF-8 text \(byte 5: invalid start byte\)"):
        read_predictions(output)
    predictions.write_bytes(whole)
    run_file = output / RUN_FILE
    run_file.write_text(run_file.read_text()[:-9], encoding="utf-8")  # cut short
    with pytest.raises(EvalError, match=r"run.json is not valid JSON \(.*\): restore it, or choose another --output"):
        run_evaluation(_config(bench, output), _rag_reader("<answer>TRUE</answer>"), progress=False)
    assert main(["eval-report", str(output)]) == 2
    assert "run.json is not valid JSON" in capsys.readouterr().err


def test_run_json_names_how_a_book_not_in_plain_utf_8_was_read(tmp_path):
    book = tmp_path / "gull.txt"
    text = "\n\n".join(PARAGRAPHS).replace("Mrs. Hale", "Mrs. Hal\u00e9")  # one accented name, in Latin-1
    book.write_bytes(text.encode("utf-8").replace("\u00e9".encode("utf-8"), b"\xe9", 1))  # one stray byte
    bench = tmp_path / "gull.jsonl"
    rows = [{"record": "narrative", "book_id": "gull", "path": "gull.txt"}]
    rows += [{"record": "item", "benchmark": "gull", "book_id": "gull", **item} for item, _ in CLAIMS]
    bench.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    run_evaluation(_config(bench, tmp_path / "run"), _rag_reader("<answer>TRUE</answer>"), progress=False)
    reading = json.loads((tmp_path / "run" / RUN_FILE).read_text())["readings"]["gull"]
    assert reading["encoding"] == "utf-8" and not reading["detected"]
    assert reading["replaced"].startswith(f"{book}: 1 byte is not UTF-8")
    book.write_bytes(text.encode("cp1252"))  # the whole book in another encoding, the benchmark file unchanged
    run_evaluation(_config(bench, tmp_path / "run2"), _rag_reader("<answer>TRUE</answer>"), progress=False)
    reading = json.loads((tmp_path / "run2" / RUN_FILE).read_text())["readings"]["gull"]
    assert reading == {"encoding": "cp1252", "detected": True, "replaced": None}, reading


def test_rag_records_carry_the_interpreter_warnings(tmp_path):
    bench = write_benchmark(tmp_path, CLAIMS[:1])
    run_evaluation(_config(bench, tmp_path / "run"), _rag_reader("I cannot tell."), progress=False)
    [record] = read_predictions(tmp_path / "run")
    assert record["details"]["answer_source"] == "fallback"
    warnings = record["details"]["warnings"]
    assert any("retried with a format reminder" in w for w in warnings)
    assert any("fallback answer TRUE (flagged)" in w for w in warnings)


@pytest.mark.slow
def test_eval_and_ask_take_the_tiny_model(tiny_qwen3_path, tmp_path, capsys, monkeypatch):
    from clueweaver.backends import stand_ins

    monkeypatch.setattr(stand_ins, "build_tiny_qwen3", lambda path: tiny_qwen3_path)
    bench = write_benchmark(tmp_path, CLAIMS[:2])
    output = tmp_path / "run"
    assert _eval(tmp_path, bench, "--system", "rag-bm25", "--model", "tiny", "--output", str(output)) == 0
    assert "tiny RANDOM model" in capsys.readouterr().err
    run = json.loads((output / RUN_FILE).read_text())["config"]
    assert run["model"] == str(tiny_qwen3_path) and run["pipeline"]["interpreter_sampling"] == {"max_new_tokens": 16}
    assert len(read_predictions(output)) == 2
    book = tmp_path / "gull.md"
    book.write_text("\n\n".join(PARAGRAPHS), encoding="utf-8")
    claim = CLAIMS[0][0]["question"]["text"]
    assert main(["ask", str(book), "--claim", claim, "--model", "tiny", "--encoder", "none", "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["trace"]["config"]["interpreter_sampling"]["max_new_tokens"] == 16


# --- helpers --------------------------------------------------------------------------------------


def _config(bench, output, **overrides) -> EvalConfig:
    settings = {"preset": "focused", **overrides}
    return EvalConfig(
        benchmark="jsonl", system="rag-bm25", path=str(bench), encoder=None, output=str(output), **settings
    )


def _rag_reader(reply: str) -> RetrievalReader:
    """The rag-bm25 reader over the pipeline's real Interpreter stage, the model replying ``reply``."""
    pipeline = ClueWeaver(ScriptedBackend(script=lambda messages, adapter: reply), encoder=None, preset="focused")
    return RetrievalReader("bm25", "focused", interpreter_stage(pipeline, "rag-bm25"), encoder=None)


# --- a segment source that cannot run ---------------------------------------------------------------


def _nwm_config(bench, tmp_path, **pipeline) -> EvalConfig:
    settings = {"segment_source": "nwm", "nwm_dir": str(tmp_path / "stores"), **pipeline}
    output = str(tmp_path / "run")
    return EvalConfig("jsonl", "clueweaver", path=str(bench), encoder=None, output=output, pipeline=settings)


def _fallback_reader(config):
    """What the clueweaver system records when the plain segments stood in for the world model."""
    from clueweaver.systems.base import ReaderOutput

    source = {"requested": "nwm", "used": "plain", "fallback": "no world model", "segments": ["plain"]}
    return lambda narrative, question, max_paragraph=None: ReaderOutput(
        "TRUE", True, True, "So it says [1].", (1,), (), (1,), details={"segment_source": source}
    )


def test_an_nwm_run_without_a_world_model_stops_before_any_model_or_run_file(tmp_path):
    from clueweaver.sources import SegmentSourceError

    bench = write_benchmark(tmp_path, CLAIMS)

    def no_models(config):
        raise AssertionError("no model may load for a run that cannot read its books")

    with pytest.raises(SegmentSourceError, match="no world model of 'The Lantern at Gull Point'.*--segment-fallback"):
        run_evaluation(_nwm_config(bench, tmp_path), reader_factory=no_models, progress=False)
    assert not (tmp_path / "run").exists()
    assert not (tmp_path / "stores").exists()
    fallback = _nwm_config(bench, tmp_path, segment_fallback=True)
    result = run_evaluation(fallback, reader_factory=_fallback_reader, progress=False)  # the same folder is free
    assert result.summary["segment_fallbacks"] == len(CLAIMS)
    assert result.label == "clueweaver segment_fallback=True segment_source=nwm"
    assert "(the plain segments stood in): clueweaver segment_fallback=True segment_source=nwm: 4" in markdown(
        {result.label: result.summary}
    )


def test_a_chrono_run_without_an_index_stops_before_any_model_or_run_file(tmp_path):
    from clueweaver.sources import SegmentSourceError

    bench = write_benchmark(tmp_path, CLAIMS)
    config = EvalConfig("jsonl", "clueweaver", path=str(bench), encoder=None, output=str(tmp_path / "run"),
                        cache_dir=str(tmp_path / "cache"), pipeline={"segment_source": "chrono"})  # fmt: skip

    def no_models(config):
        raise AssertionError("no model may load for a run that cannot read its books")

    with pytest.raises(SegmentSourceError, match="no ChronoRAG index of 'The Lantern at Gull Point'.*chrono build"):
        run_evaluation(config, reader_factory=no_models, progress=False)
    assert not (tmp_path / "run").exists()


def test_auto_is_recorded_as_the_encoder_it_picks_so_a_gpu_never_resumes_a_cpu_run(tmp_path, monkeypatch):
    from clueweaver.evaluation.predictions import EvalError
    from clueweaver.retrieval import dense

    bench = write_benchmark(tmp_path, CLAIMS[:1])
    output = tmp_path / "run"
    monkeypatch.setattr(dense, "gpu_available", lambda: False)
    on_cpu = EvalConfig("jsonl", "rag-bm25", path=str(bench), encoder="auto", output=str(output))
    assert on_cpu.encoder == "none"
    run_evaluation(on_cpu, _rag_reader("<reason>See [14].</reason><answer>TRUE</answer>"), progress=False)
    assert json.loads((output / RUN_FILE).read_text())["config"]["encoder"] == "none"
    monkeypatch.setattr(dense, "gpu_available", lambda: True)
    on_gpu = EvalConfig("jsonl", "rag-bm25", path=str(bench), encoder="auto", output=str(output))
    assert on_gpu.encoder == "bge-m3"
    with pytest.raises(EvalError, match="encoder: 'none' there, 'bge-m3' now"):
        run_evaluation(on_gpu, _rag_reader("<answer>TRUE</answer>"), progress=False)
