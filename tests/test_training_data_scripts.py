"""The data_prep entry scripts build both datasets from the shared data on the small configs,
exactly as CI and users run them."""

from __future__ import annotations

import importlib.util
import json

import pytest

from tests.conftest import REPO_ROOT, shared_path


def run_script(name: str, argv: list[str]) -> int:
    spec = importlib.util.spec_from_file_location(name, REPO_ROOT / "data_prep" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.main(argv)


@pytest.mark.slow
@pytest.mark.parametrize("script, config, label", [
    ("build_finder_data", "finder_small.yaml", "label"),
    ("build_interpreter_data", "interpreter_small.yaml", "answer"),
])  # fmt: skip
def test_build_script_writes_datasets_jsonl_and_cards(tmp_path, capsys, script, config, label):
    from datasets import load_from_disk

    shared_path("bmds")
    shared_path("quality_leval")
    out = tmp_path / "out"
    argv = ["--config", str(REPO_ROOT / "configs" / "data" / config), "--output-dir", str(out)]
    assert run_script(script, argv + ["--index-cache-dir", str(tmp_path / "cache")]) == 0
    summary = json.loads(capsys.readouterr().out)
    data = load_from_disk(str(out / "hf"))
    assert set(data) == {"train", "validation", "test"}
    assert {split: len(data[split]) for split in data} == {s: v["examples"] for s, v in summary["splits"].items()}
    assert sum(len(data[split]) for split in data) == summary["examples"] > 0
    for split in data:
        lines = (out / "jsonl" / f"{split}.jsonl").read_text().splitlines()
        assert [json.loads(line)[label] for line in lines] == data[split][label]
    card = (out / "hf" / "README.md").read_text()
    assert card == (out / "jsonl" / "README.md").read_text()
    for heading in (
        "## Splits",
        "## Label provenance",
        "## Token lengths",
        "## Dropped along the way",
        "## Configuration",
    ):
        assert heading in card
    assert (
        "over-long prompts were dropped" in card
        and json.loads((out / "stats.json").read_text())["examples"] == summary["examples"]
    )


def test_bad_data_exits_with_a_message_naming_the_row(tmp_path, capsys):
    bench = tmp_path / "bench.jsonl"
    bench.write_text(
        json.dumps({"record": "narrative", "book_id": "b", "paragraphs": ["One.", "Two."]}) + "\n"
        + json.dumps({"record": "item", "item_id": "q", "benchmark": "m", "book_id": "b",
                      "question": {"text": "Is it?", "kind": "claim"}, "answer": "TRUE", "gold_evidence": [5]}) + "\n"
    )  # fmt: skip
    argv = [
        "--sources",
        f"[{{name: jsonl, path: '{bench}'}}]",
        "--output-dir",
        str(tmp_path / "out"),
        "--encoder",
        "none",
    ]
    assert run_script("build_finder_data", argv) == 2
    assert "bench.jsonl, line 2" in capsys.readouterr().err and not (tmp_path / "out").exists()
