"""``eval --item-concurrency``: items answered together give the records and the summary of a serial
run, survive kill -9 mid-run without a record lost or written twice, merge their calls into one
in-process engine's batches, and spread over several servers, each record naming the ones it used.

Servers are stand-ins on 127.0.0.1 that stop by themselves; every wait is bounded."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from clueweaver.backends import backend_spec
from clueweaver.backends.registry import BACKENDS, BackendSpec, register_backend
from clueweaver.backends.scripted import ScriptedBackend
from clueweaver.backends.stand_ins import ScriptedReader
from clueweaver.cli import main
from clueweaver.evaluation.predictions import read_predictions
from clueweaver.evaluation.report import summarize
from clueweaver.evaluation.runner import EvalConfig, run_evaluation
from clueweaver.measure.concurrency import demo_benchmark
from clueweaver.measure.openai_standin import OpenAIStandIn
from tests.test_evaluation_runner import ITEMS, config, scripted_reader, write_benchmark

REPO = Path(__file__).resolve().parents[1]
VARYING = ("timings", "servers")  # what two runs of the same items may differ in


def content(records: list[dict]) -> list[dict]:
    """The records in item order without what varies between runs."""
    return sorted(({k: v for k, v in r.items() if k not in VARYING} for r in records), key=lambda r: r["item_id"])


def without_latency(summary: dict) -> dict:
    return {k: v for k, v in summary.items() if k != "latency"}


def test_backends_declare_their_default_item_concurrency():
    assert backend_spec("hf").item_concurrency == 1  # one model on one device: one item at a time
    assert backend_spec("openai").item_concurrency > 1 and backend_spec("vllm").item_concurrency > 1
    assert EvalConfig(benchmark="jsonl", system="rag-bm25", backend="openai", encoder=None).workers() == 16
    assert EvalConfig(benchmark="jsonl", system="rag-bm25", encoder=None, item_concurrency=3).workers() == 3
    with pytest.raises(ValueError, match="item concurrency must be 1 or more"):
        EvalConfig(benchmark="jsonl", system="rag-bm25", encoder=None, item_concurrency=0)


def test_concurrent_items_give_the_records_and_summary_of_a_serial_run(tmp_path):
    bench = write_benchmark(tmp_path)
    reader, in_flight, peak, lock = scripted_reader(), [0], [0], threading.Lock()
    order = {item["question"]["text"]: n for n, (item, _) in enumerate(ITEMS)}

    def slow_reader(narrative, question, *, max_paragraph=None):
        with lock:
            in_flight[0] += 1
            peak[0] = max(peak[0], in_flight[0])
        time.sleep(0.05 * (len(ITEMS) - order[question.text]))  # later items finish first
        with lock:
            in_flight[0] -= 1
        return reader(narrative, question, max_paragraph=max_paragraph)

    serial = run_evaluation(config(bench, tmp_path / "serial", item_concurrency=1), slow_reader, progress=False)
    peak[0] = 0
    together = run_evaluation(config(bench, tmp_path / "together", item_concurrency=4), slow_reader, progress=False)
    assert peak[0] == 4
    serial_records, together_records = read_predictions(serial.output), read_predictions(together.output)
    assert [r["item_id"] for r in together_records] != [r["item_id"] for r in serial_records]  # order may differ
    assert content(together_records) == content(serial_records)
    assert without_latency(together.summary) == without_latency(serial.summary)
    # the report depends on the records, not on the order they were written in
    assert summarize(reversed(serial_records)) == summarize(serial_records)
    assert (together.output / "summary.md").read_text().split("## Latency")[0] == (
        (serial.output / "summary.md").read_text().split("## Latency")[0]
    )


def test_a_failing_item_keeps_the_work_of_those_already_running(tmp_path):
    bench = write_benchmark(tmp_path)
    reader = scripted_reader()

    def failing(narrative, question, *, max_paragraph=None):
        if question.text == ITEMS[3][0]["question"]["text"]:
            time.sleep(0.2)
            raise RuntimeError("the server went away")
        return reader(narrative, question, max_paragraph=max_paragraph)

    with pytest.raises(RuntimeError, match="went away"):
        run_evaluation(config(bench, tmp_path / "run", item_concurrency=3), failing, progress=False)
    kept = {r["item_id"] for r in read_predictions(tmp_path / "run")}
    assert kept == {item["item_id"] for item, _ in ITEMS} - {ITEMS[3][0]["item_id"]}  # the others finished meanwhile
    kept = read_predictions(tmp_path / "run")
    resumed = run_evaluation(config(bench, tmp_path / "run", item_concurrency=3), reader, progress=False)
    assert resumed.resumed_records == len(kept) and len(read_predictions(resumed.output)) == len(ITEMS)


def _eval_command(bench: Path, output: Path, urls: list[str], concurrency: int) -> list[str]:
    command = ["eval", "--benchmark", "jsonl", "--path", str(bench), "--system", "rag-bm25", "--encoder", "none",
               "--backend", "openai", "--model", "scripted", "--output", str(output),
               "--item-concurrency", str(concurrency)]  # fmt: skip
    for url in urls:
        command += ["--base-url", url]
    return command


def _wait_for_records(path: Path, count: int, process: subprocess.Popen, limit_s: float = 90.0) -> None:
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline and process.poll() is None:
        if path.exists() and path.read_bytes().count(b"\n") >= count:
            return
        time.sleep(0.05)
    raise AssertionError(f"the run wrote fewer than {count} records in {limit_s} s (exit code {process.poll()})")


@pytest.mark.slow
def test_kill_9_mid_run_then_resume_loses_and_repeats_nothing(tmp_path):
    items = 40
    bench = demo_benchmark(tmp_path / "demo.jsonl", items)
    run = tmp_path / "run"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    with OpenAIStandIn(delay=0.1, lifetime=240) as server:
        process = subprocess.Popen(
            [sys.executable, "-m", "clueweaver", *_eval_command(bench, run, [server.base_url], 4)],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        try:
            _wait_for_records(run / "predictions.jsonl", 6, process)
            process.send_signal(signal.SIGKILL)
        finally:
            process.kill()
            process.wait(timeout=30)
        assert process.returncode == -signal.SIGKILL
        before = read_predictions(run)
        assert 6 <= len(before) < items
        with open(run / "predictions.jsonl", "ab") as f:  # as if the kill had cut a record mid-write
            f.write(b'{"item_id": "mcq-7", "benchmark": "de')
        with pytest.warns(UserWarning, match="incomplete last line"):
            assert main(_eval_command(bench, run, [server.base_url], 4)) == 0
        assert main(_eval_command(bench, tmp_path / "serial", [server.base_url], 1)) == 0
    resumed, serial = read_predictions(run), read_predictions(tmp_path / "serial")  # a repeated item raises
    assert len(resumed) == items and {r["item_id"] for r in resumed} == {r["item_id"] for r in serial}
    assert [r for r in resumed[: len(before)]] == before  # the records written before the kill are kept as they were
    assert content(resumed) == content(serial)
    assert without_latency(summarize(resumed)) == without_latency(summarize(serial))


def test_calls_spread_over_several_servers_and_each_record_names_its_own(tmp_path):
    bench = write_benchmark(tmp_path, ITEMS[:7])
    dead = "http://127.0.0.1:9/v1"  # the discard port: nothing answers there
    with OpenAIStandIn(lifetime=120) as first, OpenAIStandIn(lifetime=120) as second:
        urls = [first.base_url, dead, second.base_url]
        assert main(_eval_command(bench, tmp_path / "run", urls, 4)) == 0
        answered = {first.base_url: len(first.requests), second.base_url: len(second.requests)}
    records = [r for r in read_predictions(tmp_path / "run") if r["skipped"] is None]
    assert all(r["servers"] for r in records)
    counted = {url: sum(r["servers"].get(url, 0) for r in records) for url in answered}
    assert counted == answered and min(answered.values()) > 0  # both served; the dead server's turns went on
    assert json.loads((tmp_path / "run" / "run.json").read_text())["config"]["base_url"] == urls


class MergeProbe(ScriptedBackend):
    """An in-process model (as vLLM is): records the size of each generate call and its thread."""

    kind = "merge-probe"

    def __init__(self, model: str, **options) -> None:
        super().__init__(model, script=ScriptedReader())
        self.batches: list[tuple[int, str]] = []

    def _generate(self, conversations, prompts, sampling, adapter):
        self.batches.append((len(conversations), threading.current_thread().name))
        time.sleep(0.05)  # a forward pass: callers arriving meanwhile join the next call
        return super()._generate(conversations, prompts, sampling, adapter)


@pytest.fixture
def merge_probe():
    built: list[MergeProbe] = []

    def build(model: str, **options) -> MergeProbe:
        built.append(MergeProbe(model, **options))
        return built[-1]

    register_backend(BackendSpec("merge-probe", build, on_command_line=False, item_concurrency=4))
    yield built
    BACKENDS.unregister("merge-probe")


def test_in_process_models_get_the_calls_of_concurrent_items_merged_into_batches(tmp_path, merge_probe):
    bench = demo_benchmark(tmp_path / "demo.jsonl", 8)
    common = {"benchmark": "jsonl", "path": str(bench), "system": "rag-bm25", "encoder": None,
              "backend": "merge-probe", "model": str(tmp_path)}  # fmt: skip
    together = run_evaluation(EvalConfig(**common, output=str(tmp_path / "together")), progress=False)
    [probe] = merge_probe
    assert {thread for _, thread in probe.batches} == {"generation-engine"}  # the engine is the model's only caller
    assert max(size for size, _ in probe.batches) > 1  # one item sends one conversation a call: these merged
    assert len(probe.batches) < 16  # 8 items x (answer + self-calibration), fewer calls
    serial = run_evaluation(EvalConfig(**common, output=str(tmp_path / "serial"), item_concurrency=1), progress=False)
    assert {thread for _, thread in merge_probe[1].batches} == {"MainThread"} and len(merge_probe[1].batches) == 16
    assert content(read_predictions(together.output)) == content(read_predictions(serial.output))
    assert without_latency(together.summary) == without_latency(serial.summary)


def test_bench_eval_concurrency_prints_items_per_minute_and_the_ratio(capsys):
    assert main(["bench", "eval-concurrency", "--levels", "1,4", "--delay", "0.2", "--items-per-worker", "2"]) == 0
    table = capsys.readouterr().out
    rows = [line.strip("|").split("|") for line in table.splitlines() if line.startswith("| ") and "---" not in line]
    header, serial, four = rows
    assert "items/min" in header[3] and serial[0].strip() == "1" and four[0].strip() == "4"
    # four items at once against a server that only waits: well above serial (about 2.5 on an idle machine, the
    # book's first item alone; 1.0 if the items ran one by one), with room for a machine busy with other tests
    assert float(four[4]) > 1.5
    assert serial[5].strip() == four[5].strip() == "yes"
