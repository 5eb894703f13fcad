"""Every system side by side, as a researcher runs them: ``clueweaver eval`` for clueweaver,
direct, rag-bm25, chronorag and the four agentic baselines against one stand-in OpenAI-compatible
server on 127.0.0.1 (one scripted model for every prompt, tokens counted with the real Qwen3
tokenizer where a system cuts text to a budget), then ``clueweaver eval-report`` over the eight run
folders: one comparison table, every number recomputable from the records."""

from __future__ import annotations

import json
import re

import pytest

from clueweaver.backends.prompting import qwen3_tokenizer_dir
from clueweaver.cli import main
from clueweaver.evaluation.predictions import TRACES_FILE, read_predictions
from clueweaver.evaluation.runner import EvalConfig, run_evaluation
from clueweaver.protocol.chrono_prompts import EXTRACTION_SYSTEM, SUMMARY_SYSTEM
from clueweaver.protocol.prompts import TEMPLATES
from tests.openai_standin import OpenAIStandIn
from tests.test_agentic import FAMILIES, family
from tests.test_chrono import chrono_model
from tests.test_evaluation_runner import ITEMS, SCRIPT, recompute, write_benchmark

SYSTEMS = ("clueweaver", "direct", "rag-bm25", "chronorag", "react", "ircot", "self-ask", "chain-of-agents")
AGENTIC = SYSTEMS[4:]
COUNTING = ("direct", "chronorag")  # systems that cut text to a token budget: they need the tokenizer
_CASE = re.compile(r"^(?:Question|Claim): (.*)$", re.MULTILINE)


def scripted_model(messages, model=None) -> str:
    """One model for every prompt: the Finder keeps every segment; every final output (the
    Interpreter's, a forced one, the manager's) is the item's scripted reply from
    test_evaluation_runner (right, wrong, an invalid citation, no tags, an illegal answer); agents
    take one step of their own before it."""
    system, user = messages[0]["content"], messages[-1]["content"]
    if system in (SUMMARY_SYSTEM, EXTRACTION_SYSTEM):  # ChronoRAG's index of the book
        return chrono_model(messages)
    reply = SCRIPT.get(_CASE.search(messages[1]["content"]).group(1))  # none for an intermediate question
    if system.startswith(TEMPLATES["finder", "mcq"].system.split("{")[0][:40]):
        return "<reason>A clue [2].</reason><answer>YES</answer>"
    if not system.startswith(tuple(t.split("{")[0] for t in FAMILIES.values())):  # the Interpreter
        return reply
    kind = family(messages)
    first_step = {
        "react": len(messages) == 2,
        "ircot": "Reasoning so far:\n(none yet)" in user,
        "self-ask": "Follow-up questions so far:\n(none yet)" in user,
    }
    if kind == "intermediate":
        return "The key was in his coat [14]."
    if kind == "worker":
        return "The key was in Tobias's coat [14]; the schooner struck the rocks [8]."
    if kind != "manager" and first_step[kind] and "Give the final output now" not in user:
        return {
            "react": "Thought: the key.\nAction: search[brass key coat]",
            "ircot": "The brass key was found in a sea coat.",
            "self-ask": "Follow up: Where was the brass key found?",
        }[kind]
    return reply


def _eval(bench, server, system: str, output) -> int:
    agent_limits = ["--agent-steps", "3"] if system in ("react", "ircot", "self-ask") else []
    agent_limits += ["--agent-chunk-chars", "400", "--save-traces"] if system == "chain-of-agents" else []
    agent_limits += ["--tokenizer", str(qwen3_tokenizer_dir())] if system in COUNTING else []
    agent_limits += ["--chrono-retrieval", "bm25", "--chrono-chunk-tokens", "60"] if system == "chronorag" else []
    return main(
        ["eval", "--benchmark", "jsonl", "--path", str(bench), "--encoder", "none", "--system", system,
         "--backend", "openai", "--base-url", server.base_url, "--model", "scripted", "--output", str(output),
         "--label", system, *agent_limits]
    )  # fmt: skip


@pytest.mark.slow
def test_every_system_in_one_comparison_table(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("CLUEWEAVER_CACHE", str(tmp_path / "cache"))  # ChronoRAG's index of the book
    bench = write_benchmark(tmp_path)
    with OpenAIStandIn() as server:
        server.reader = scripted_model
        for system in SYSTEMS:
            assert _eval(bench, server, system, tmp_path / system) == 0
    runs = {system: read_predictions(tmp_path / system) for system in SYSTEMS}
    capsys.readouterr()
    assert main(["eval-report", *(str(tmp_path / s) for s in SYSTEMS), "--output", str(tmp_path / "report")]) == 0
    table = capsys.readouterr().out
    assert table.strip() == (tmp_path / "report" / "summary.md").read_text().strip()

    accuracy = table.split("## Accuracy")[1].split("## Citation")[0]
    cost = table.split("## Cost (mean per item)")[1]
    for system in SYSTEMS:
        scored = [r for r in runs[system] if r["skipped"] is None]
        expected = recompute(runs[system])
        assert len(scored) == len(ITEMS) - 1  # the open question has no label
        assert f"| {system} |" in accuracy and f"{100 * expected['correct'] / expected['items']:.1f}" in accuracy
        [row] = [line for line in cost.splitlines() if line.startswith(f"| {system} |")]
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        prompt_tokens = sum(r["details"]["tokens"]["prompt"] for r in scored) / len(scored)
        assert cells[1] == str(len(scored)) and cells[2] == f"{prompt_tokens:,.1f}"
        if system in AGENTIC:
            forced = sum(r["details"]["agent"]["forced_final"] for r in scored)
            assert cells[5] == str(forced)
        else:
            assert cells[4:] == ["–", "–"]

    # the scripted replies go the same way through every system's parser
    for system in SYSTEMS:
        by_item = {r["item_id"]: r for r in runs[system]}
        assert by_item["q1"]["prediction"] == "B" and by_item["q1"]["correct"]
        assert by_item["q3"]["prediction"] is None and not by_item["q3"]["answer_legal"]  # answer "E"
        assert by_item["c1f"]["prediction"] is None and not by_item["c1f"]["format_valid"]  # no tags
    chrono = [r["details"]["chrono"] for r in runs["chronorag"] if r["skipped"] is None]
    assert all(c["failed_groups"] == 0 for c in chrono) and any(c["passages"] for c in chrono)  # a whole index read
    for system in AGENTIC:
        endings = {r["item_id"]: r["details"]["agent"]["ending"] for r in runs[system] if r["skipped"] is None}
        limit_ending = "answered" if system == "chain-of-agents" else "step_limit"
        assert endings["q1"] == "answered" and endings["q3"] == limit_ending
        # tokens are the server's own counts, call by call
        record = next(r for r in runs[system] if r["item_id"] == "q1")
        calls = record["details"]["agent"]["calls"]
        assert record["details"]["tokens"]["prompt"] == sum(c["prompt_tokens"] for c in calls) > 0
        assert record["details"]["agent"]["limits"]["max_steps"] == (64 if system == "chain-of-agents" else 3)
        assert all(
            r["details"]["agent"]["retrieval"].startswith("BM25 alone") for r in runs[system] if r["skipped"] is None
        )
    assert len(server.requests) > len(SYSTEMS) * len(ITEMS)
    # with --save-traces, the trace holds every call's output: the transcript of the reading
    traces = [json.loads(line) for line in (tmp_path / "chain-of-agents" / TRACES_FILE).read_text().splitlines()]
    trace = next(t["trace"] for t in traces if t["item_id"] == "q1")
    outputs = [call["output"] for call in trace["agent"]["calls"]]
    assert outputs[:-1] == ["The key was in Tobias's coat [14]; the schooner struck the rocks [8]."] * 3
    assert outputs[-1] == SCRIPT["Who darkened the lantern?"] and trace["reading_limit"]["last_paragraph"] == 16


def test_agent_limits_on_the_command_line_are_checked_before_anything_runs(tmp_path, capsys):
    bench = write_benchmark(tmp_path, ITEMS[:1])
    common = ["eval", "--benchmark", "jsonl", "--path", str(bench), "--encoder", "none"]
    common += ["--output", str(tmp_path / "r")]
    assert main([*common, "--system", "rag-bm25", "--agent-steps", "3"]) == 2
    assert "agent limits (max_steps) apply to the agentic systems only" in capsys.readouterr().err
    assert main([*common, "--system", "react", "--agent-tokens", "0"]) == 2
    assert "agent limit max_tokens must be a whole number >= 1, got 0" in capsys.readouterr().err
    assert main([*common, "--system", "ircot", "--agent-chunk-chars", "100"]) == 2
    assert "chunk_chars do not apply to ircot" in capsys.readouterr().err
    assert not (tmp_path / "r").exists()


@pytest.mark.slow
@pytest.mark.parametrize("system", AGENTIC)
def test_every_agent_runs_on_a_real_model_within_its_token_budgets(system, tiny_qwen3_path, tmp_path):
    """The tiny random Qwen3 through the hf backend (the real chat template, multi-turn for ReAct):
    its answers mean nothing, but every call stays within its new-token budget and is counted."""
    bench = write_benchmark(tmp_path, ITEMS[:2])
    agent = {"max_steps": 2, "step_tokens": 12, **({"chunk_chars": 400} if system == "chain-of-agents" else {})}
    config = EvalConfig(
        benchmark="jsonl", system=system, path=str(bench), model=str(tiny_qwen3_path), device="cpu", encoder=None,
        output=str(tmp_path / "run"), pipeline={"interpreter_sampling": {"max_new_tokens": 24}}, agent=agent,
    )  # fmt: skip
    run_evaluation(config, progress=False)
    for record in read_predictions(tmp_path / "run"):
        calls = record["details"]["agent"]["calls"]
        assert record["details"]["agent"]["steps"] == 2 and record["details"]["agent"]["ending"] == "step_limit"
        assert all(c["completion_tokens"] <= (24 if c["role"] == "final" else 12) for c in calls)
        assert all(c["prompt_tokens"] > 0 for c in calls)
        assert record["details"]["tokens"]["completion"] == sum(c["completion_tokens"] for c in calls)
