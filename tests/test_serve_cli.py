"""`clueweaver serve`: the shipped configurations load into the models they describe, bad settings
are clean errors, and the command starts a real server and stops on Ctrl-C."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from conftest import REPO_ROOT
from serve_helpers import DEMO_BOOK
from test_backends_vllm import FakeLLM, _install_fake_vllm

from clueweaver.backends.prompting import qwen3_tokenizer_dir
from clueweaver.cli import build_parser, main
from clueweaver.core.config import load_config
from clueweaver.pipeline import PipelineConfig
from clueweaver.serving.config import ServeConfig
from clueweaver.serving.reading_room import load_models

pytestmark = pytest.mark.models  # loads or trains models: left out of the edit-test loop


def _adapter(folder):
    folder.mkdir()
    (folder / "adapter_config.json").write_text(json.dumps({"r": 64, "peft_type": "LORA"}))
    return str(folder)


def test_the_one_gpu_configuration_loads_both_adapters_into_one_vllm_engine(monkeypatch, tmp_path, tiny_qwen3_path):
    _install_fake_vllm(monkeypatch)
    config = load_config(ServeConfig, REPO_ROOT / "configs" / "serve.yaml")
    assert config.host == "127.0.0.1" and config.encoder == "bge-m3" and config.limits.max_upload_mb == 20
    assert PipelineConfig.from_dict(config.pipeline).preset.name == "detectiveqa"
    models = config.models
    models.finder = models.interpreter = str(tiny_qwen3_path)  # the base, here tiny; adapters over it
    models.finder_adapter, models.interpreter_adapter = (
        _adapter(tmp_path / "finder"),
        _adapter(tmp_path / "interpreter"),
    )
    agents = load_models(models)
    (engine,) = FakeLLM.instances  # one engine, one copy of the base weights
    assert agents.finder is agents.interpreter and (agents.finder_adapter, agents.interpreter_adapter) == (
        "finder",
        "interpreter",
    )
    assert engine.engine_args["enable_lora"] is True and engine.engine_args["max_loras"] == 2
    assert engine.engine_args["gpu_memory_utilization"] == 0.80 and engine.engine_args["max_model_len"] == 32768


def test_two_full_checkpoints_on_one_gpu_take_turns_in_sleep_mode(monkeypatch, tmp_path, tiny_qwen3_path):
    _install_fake_vllm(monkeypatch)
    asleep = []
    monkeypatch.setattr(FakeLLM, "reset_prefix_cache", lambda self: None, raising=False)
    monkeypatch.setattr(
        FakeLLM, "sleep", lambda self, level=1: asleep.append(FakeLLM.instances.index(self)), raising=False
    )
    config = load_config(ServeConfig, REPO_ROOT / "configs" / "serve.yaml", {"models.sequential": True})
    models = config.models
    second = tmp_path / "interpreter-model"
    second.symlink_to(tiny_qwen3_path, target_is_directory=True)
    models.finder, models.interpreter = str(tiny_qwen3_path), str(second)
    models.finder_adapter = models.interpreter_adapter = None
    agents = load_models(models)
    assert agents.finder is not agents.interpreter
    assert [llm.engine_args["enable_sleep_mode"] for llm in FakeLLM.instances] == [True, True]
    assert asleep == [0] and len(FakeLLM.instances) == 2  # the Finder slept before the Interpreter loaded


def test_the_two_gpu_configuration_gives_each_agent_its_server(monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    tokenizer = {"models.options.tokenizer": str(qwen3_tokenizer_dir())}  # the real one, without the hub
    config = load_config(ServeConfig, REPO_ROOT / "configs" / "serve_2gpu.yaml", tokenizer)
    agents = load_models(config.models)
    assert agents.finder is not agents.interpreter
    assert (agents.finder.model, agents.interpreter.model) == ("finder", "interpreter")
    assert agents.finder.base_url.startswith("http://127.0.0.1:8001") and agents.interpreter.base_url.startswith(
        "http://127.0.0.1:8002"
    )
    agents.close()


def test_bad_settings_are_clean_errors(tmp_path, capsys):
    data = str(tmp_path / "data")
    assert (
        main(
            [
                "serve",
                "--data-dir",
                data,
                "--models.backend",
                "scripted",
                "--models.options",
                "{gpu_memory_utilization: 0.8}",
            ]
        )
        == 2
    )
    assert "do not apply to the scripted backend" in capsys.readouterr().err
    assert main(["serve", "--data-dir", data, "--models.backend", "scripted", "--pipeline", "{preset: fastest}"]) == 2
    assert "unknown preset 'fastest'" in capsys.readouterr().err
    assert main(["serve", "--data-dir", data, "--models.backend", "scripted", "--pipeline", "{encoder: none}"]) == 2
    assert "set by the server" in capsys.readouterr().err
    assert main(["serve", "--config", str(tmp_path / "missing.yaml")]) == 2
    assert "does not exist" in capsys.readouterr().err
    assert main(["serve", "--port", "eighty"]) == 2
    assert "port" in capsys.readouterr().err


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_the_command_serves_until_interrupted(tmp_path):
    port = _free_port()
    data = tmp_path / "data"
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    env.pop("CLUEWEAVER_TOKEN", None)
    command = [sys.executable, "-m", "clueweaver", "serve", "--port", str(port), "--data-dir", str(data),
               "--encoder", "none", "--models.backend", "scripted"]  # fmt: skip
    process = subprocess.Popen(
        command, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                health = httpx.get(f"http://127.0.0.1:{port}/health", timeout=1).json()
                break
            except httpx.HTTPError:
                assert process.poll() is None and time.monotonic() < deadline, (
                    process.stdout.read() if process.poll() is not None else "no server"
                )
                time.sleep(0.1)
        assert health["status"] == "ok" and health["backend"] == "scripted"
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as http:
            book = http.post("/api/books", files={"file": (DEMO_BOOK.name, DEMO_BOOK.read_bytes())}).json()
            assert book["created"] and book["paragraphs"] == 53
    finally:
        process.send_signal(signal.SIGINT)
        output, _ = process.communicate(timeout=30)
    assert process.returncode == 0, output
    assert "POST /api/books -> 201" in output  # the request log
    assert (data / "library.sqlite").is_file() and (data / "books" / book["book_id"]).is_dir()


@pytest.mark.parametrize("host", ["0.0.0.0", "10.1.2.3"])
def test_a_token_in_the_environment_allows_other_addresses(host, monkeypatch):
    from serve.app import check_bind

    monkeypatch.setenv("CLUEWEAVER_TOKEN", "t0ken")
    check_bind(host, ServeConfig(host=host).resolved_token())


def _children(pid: int) -> list[int]:
    """Processes whose parent is ``pid`` (Linux /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # the process ended meanwhile
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from Linux /proc")
def test_a_server_stopped_by_sigterm_takes_its_indexing_process_with_it(tmp_path):
    from clueweaver.retrieval.dense import offline_minilm_path

    if offline_minilm_path() is None:
        pytest.skip("the offline MiniLM encoder is not installed (pip install 'clueweaver[offline]')")
    book = tmp_path / "long.txt"  # about a minute of MiniLM on two cores: still indexing when the signal comes
    book.write_text("\n\n".join(f"Paragraph {i} tells of the lighthouse keeper and the storm." for i in range(6000)))
    port = _free_port()
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    env.pop("CLUEWEAVER_TOKEN", None)
    command = [sys.executable, "-m", "clueweaver", "serve", "--port", str(port), "--data-dir", str(tmp_path / "data"),
               "--encoder", "minilm", "--models.backend", "scripted"]  # fmt: skip
    process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + 60
        while not _children(process.pid):
            try:
                httpx.post(f"http://127.0.0.1:{port}/api/books", files={"file": (book.name, book.read_bytes())})
            except httpx.HTTPError:
                pass
            assert process.poll() is None and time.monotonic() < deadline, "the server never started indexing"
            time.sleep(0.2)
        [indexer] = _children(process.pid)
    finally:
        process.send_signal(signal.SIGTERM)
        output, _ = process.communicate(timeout=30)
    deadline = time.monotonic() + 10
    while _alive(indexer) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _alive(indexer), "the indexing process outlived its server"
    assert "Traceback" not in output, output


def test_every_serve_flag_has_a_description(capsys):
    with pytest.raises(SystemExit):
        main(["serve", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    serve = next(
        parser
        for action in build_parser()._subparsers._group_actions
        for name, parser in action.choices.items()
        if name == "serve"
    )
    flags = [action for action in serve._actions if action.option_strings and action.dest != "help"]
    assert len(flags) == 1 + 25  # --config, and one flag per field of ServeConfig and of its sections
    for action in flags:
        assert action.help and len(action.help) > 10, action.option_strings
        assert " ".join(action.help.split()) in text
