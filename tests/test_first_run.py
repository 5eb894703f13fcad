"""The first ten minutes: the README's main command on a fresh clone (nothing beside it), the
readable `segment` output, `--encoding` on the commands that read a book, and what `demo` says and
shows while it works with the offline smoke model."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys

import pytest

from clueweaver.backends.stand_ins import scripted_reader_backend
from clueweaver.benchmarks.demo import load_demo
from clueweaver.cli import demo as demo_cli
from clueweaver.cli import main
from clueweaver.cli import reading as reading_cli
from clueweaver.cli.demo import REAL_MODEL_ROUTES, SMOKE_NOTE
from clueweaver.pipeline.models import Agents
from tests.conftest import REPO_ROOT

BOOK, DEMO = load_demo()


def readme_main_command() -> str:
    """The `clueweaver ...` part of the README's "Main job" command."""
    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"Main job.*?```bash\n(.*?)\n```", readme, re.S).group(1)
    (command,) = [part.strip() for part in block.split("&&") if part.strip().startswith("clueweaver ")]
    return command


def fresh_clone(target) -> None:
    """The repository's files as a clone has them (tracked and new, nothing ignored)."""
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
        cwd=REPO_ROOT, capture_output=True, text=True, check=True,
    ).stdout.split("\n")  # fmt: skip
    for name in filter(None, listed):
        if (REPO_ROOT / name).is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO_ROOT / name, target / name)


@pytest.mark.slow
def test_the_readme_main_command_runs_on_a_fresh_clone_and_reads_like_a_page(tmp_path):
    command = readme_main_command()
    assert "shared" not in command and "clueweaver/data/demo_mystery.md" in command
    clone = tmp_path / "clone"
    fresh_clone(clone)
    environment = {
        **os.environ,
        "PYTHONPATH": str(clone),
        "CLUEWEAVER_SHARED_DATA": str(tmp_path / "no-shared-data"),
        "CLUEWEAVER_CACHE": str(tmp_path / "cache"),
    }
    arguments = [sys.executable, "-m", "clueweaver", *shlex.split(command)[1:]]
    done = subprocess.run(arguments, cwd=clone, env=environment, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    out = done.stdout
    passages = re.findall(r"^Passage (\d+) of (\d+) · (window|retrieval) · paragraphs [^·]+ · ([^\n]+)$", out, re.M)
    assert passages and len(passages) == int(passages[0][1])
    assert all("Chapter" in where for *_, where in passages)  # each passage with its chapter(s)
    assert "  window     a run of consecutive paragraphs" in out and "  retrieval  best-matching paragraphs" in out
    packet = out.split("Evidence packet for the Interpreter", 1)[1]
    assert DEMO[0].question.text in out and "[35]" in packet  # the wet umbrella, word for word
    assert BOOK[35].text in packet


def test_segment_prints_chapters_legend_and_packet_and_keeps_its_json(capsys):
    book = str(REPO_ROOT / "clueweaver" / "data" / "demo_mystery.md")
    claim = ["segment", book, "--claim", DEMO[1].question.text, "--encoder", "none", "--max-chapter", "6"]
    assert main(claim) == 0
    out = capsys.readouterr().out
    assert "Claim: Tobias Wren was at the Anchor" in out
    heads = re.findall(r"^Passage \d+ of \d+ · \w+ · .*$", out, re.M)
    assert heads and not any("Chapter 7" in head for head in heads)  # the chapter limit holds
    assert "Evidence packet for the Interpreter" in out and "up to 10 (N_E)" in out
    assert main([*claim, "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["kind"] == "claim" and len(payload["segments"]) == len(heads)


def test_commands_that_read_a_book_take_its_encoding(tmp_path, capsys):
    latin = tmp_path / "dantes.txt"
    latin.write_bytes("Dantès met Mercédès at the café.\n\nThe Château d'If stood in the bay.".encode("latin-1"))
    assert main(["index", str(latin), "--encoder", "none", "--json"]) == 0
    captured = capsys.readouterr()
    assert "read as cp1252 (detected); --encoding names another" in captured.err
    assert json.loads(captured.out)["paragraphs"] == 2
    russian = tmp_path / "prologue.txt"
    russian.write_bytes("Пролог\n\nФонарь висел у двери.".encode("koi8-r"))
    claim = ["segment", str(russian), "--claim", "Фонарь висел", "--encoder", "none", "--encoding", "koi8-r"]
    assert main(claim) == 0
    captured = capsys.readouterr()
    assert "[1] Фонарь висел у двери." in captured.out and "detected" not in captured.err
    assert main(["segment", str(russian), "--claim", "x", "--encoder", "none", "--encoding", "ascii"]) == 2
    assert "cannot decode as ascii" in capsys.readouterr().err
    stray = tmp_path / "pg1234.txt"
    data = "He said “no” twice—then left the café.\n\nIt rained.".encode("utf-8").replace(b"\xc3\xa9", b"\xe9")
    stray.write_bytes(data)  # UTF-8 with one Latin-1 byte
    assert main(["index", str(stray), "--encoder", "none", "--json"]) == 0
    captured = capsys.readouterr()
    offset = data.index(b"\xe9")
    assert f"warning: {stray}: 1 byte is not UTF-8 (byte {offset}, line 1)" in captured.err
    assert "detected" not in captured.err


def test_the_demo_with_the_smoke_model_reads_less_says_so_and_shows_each_stage(monkeypatch, capsys):
    """The smoke model is stood in for by the scripted reader (flagged as the smoke model): what is
    checked is what the demo does with it, not the model's speed (a benchmark measures that)."""
    backend = scripted_reader_backend("keep")
    smoke = Agents(backend, backend, smoke=True, notes=["both agents: offline:gemma-3-270m (stand-in)"])
    monkeypatch.setattr(demo_cli, "load_agents_from_args", lambda args, model=None: smoke)
    assert main(["demo", "--encoder", "none", "--json"]) == 0
    captured = capsys.readouterr()
    payload = json.loads(captured.out)
    assert payload["smoke_model"] and payload["smoke_note"] == SMOKE_NOTE
    for question in payload["questions"]:
        config = question["trace"]["config"]
        assert config["preset"]["name"] == "smoke" and not config["self_calibration"]
        assert config["preset"]["char_budget"] == 3000 and config["preset"]["window_paragraphs"] == 4
        assert config["finder_sampling"]["max_new_tokens"] == config["interpreter_sampling"]["max_new_tokens"] == 32
        packet = question["trace"]["packet"]
        assert len(packet["segments"]) <= 3 and packet["chars"] <= 3000
    for stage in ("segment", "finder", "pack", "interpret"):  # a line as each stage starts and ends
        assert captured.err.count(f"  {stage} …") == 2 and len(re.findall(rf"  {stage}: [\d.]+ s", captured.err)) == 2
    assert "Question 1 of 2 (umbrella):" in captured.err and f"note: {SMOKE_NOTE}" in captured.err
    # inside the Finder's stage, each passage as it is read: one Finder call per segment
    for question in payload["questions"]:
        assert question["trace"]["config"]["finder_batch"] == 1
        segments = question["trace"]["finder"]["segments"]
        assert question["trace"]["finder"]["calls"] == segments > 1  # one generate call per segment
    counts = re.findall(r"  finder: (\d+) of (\d+) segments …", captured.err)
    first = [int(done) for done, total in counts[: int(counts[0][1])]]
    assert first == list(range(1, len(first) + 1))

    assert main(["demo", "--encoder", "none", "--preset", "nocha", "--json"]) == 0  # a flag the user gives wins
    assert json.loads(capsys.readouterr().out)["questions"][0]["trace"]["config"]["preset"]["name"] == "nocha"
    assert main(["demo", "--encoder", "none"]) == 0
    out = capsys.readouterr().out
    assert f"This was a {SMOKE_NOTE}." in out and out.rstrip().endswith(REAL_MODEL_ROUTES)
    assert "--backend openai --base-url http://127.0.0.1:8080/v1" in out and "Done in" in out


def test_ask_with_the_smoke_model_reads_less_like_the_demo_says_so_and_shows_the_finder_progress(
    monkeypatch, capsys, tmp_path
):
    backend = scripted_reader_backend("keep")
    smoke = Agents(backend, backend, smoke=True, notes=["both agents: offline:gemma-3-270m (stand-in)"])
    monkeypatch.setattr(reading_cli, "load_agents_from_args", lambda args, model=None: smoke)
    narrative, questions = load_demo()
    book = tmp_path / "lantern.jsonl"
    narrative.to_jsonl(book)
    ask = ["ask", str(book), "--claim", "Tobias Wren was at the Anchor.", "--encoder", "none", "--json"]
    ask += ["--cache-dir", str(tmp_path / "cache")]
    assert main(ask) == 0
    captured = capsys.readouterr()
    config = json.loads(captured.out)["trace"]["config"]
    assert config["preset"]["name"] == "smoke" and config["finder_batch"] == 1 and not config["self_calibration"]
    assert f"note: {SMOKE_NOTE}" in captured.err and "  finder: 1 of " in captured.err
    assert main([*ask, "--preset", "nocha"]) == 0  # a flag the user gives wins
    assert json.loads(capsys.readouterr().out)["trace"]["config"]["preset"]["name"] == "nocha"
