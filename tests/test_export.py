"""Exporting checkpoints to Hub-ready folders, the model card, and pushing through the real
huggingface_hub client to a local stand-in (the full train -> export round trips are in
test_training_runs.py)."""

from __future__ import annotations

import json
import shutil

import pytest

from clueweaver.cli import main as cli_main
from clueweaver.training.export import ExportError, export_checkpoint, last_logged_rewards, model_card
from clueweaver.training.hub import RECIPE_FILE, base_model_identity, push_folder
from tests.hub_standin import HubStandIn
from tests.training_fixtures import build_tiny_model, finder_rows

pytestmark = pytest.mark.models  # loads or trains models: left out of the edit-test loop


@pytest.fixture(scope="module")
def checkpoint(tmp_path_factory):
    """A tiny model folder standing for a full-weight checkpoint, with a training record and log."""
    folder = build_tiny_model(tmp_path_factory.mktemp("export") / "checkpoint-2")
    recipe = {
        "agent": "finder",
        "base_model": "/scratch/models/qwen3-4b",  # a local copy: the card must name the Hub id instead
        "base_model_hub_id": "Qwen/Qwen3-4B-Instruct-2507",
        "base_model_license": "apache-2.0",
        "objective": "paper",
        "batch": {"processes": 8, "global_batch_completions": 512, "prompts_per_step": 64, "epochs": 0.8},
        "grpo": {
            "learning_rate": 5e-7,
            "num_generations": 8,
            "loss_type": "grpo",
            "scale_rewards": "group",
            "beta": 0.04,
        },
        "model": {"use_peft": False},
        "reward": {
            "functions": {"finder_format": 1.0, "finder_verdict": 1.0},
            "config": {"positive_yes": 1.5},
            "max_total": 4.5,
        },
        "data": {
            "source": "data/finder/hf",
            "split": "train",
            "rows": 12000,
            "prompt_tokens": {"mean_tokens": 3000.0, "max_tokens": 9100, "limit": 9216, "overlong_rows": []},
        },
        "versions": {"trl": "1.16.0", "transformers": "5.17.0"},
    }
    (folder / RECIPE_FILE).write_text(json.dumps(recipe))
    log = [
        {"step": 1, "reward": 1.0, "rewards/finder_format/mean": 0.5},
        {"step": 2, "loss": 0.1},
        {"step": 2, "reward": 2.25, "rewards/finder_format/mean": 1.0, "rewards/finder_verdict/mean": 1.25},
    ]
    (folder / "trainer_state.json").write_text(json.dumps({"log_history": log}))
    return folder


@pytest.mark.slow
def test_export_writes_a_loadable_folder_with_its_card(checkpoint, tmp_path):
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    out = export_checkpoint(
        checkpoint, tmp_path / "out", eval_results={"DetectiveQA": {"accuracy": 0.61}, "NoCha": 0.5}
    )
    names = {p.name for p in out.iterdir()}
    assert {
        "model.safetensors",
        "config.json",
        "generation_config.json",
        "tokenizer.json",
        "README.md",
        RECIPE_FILE,
    } <= names
    model = AutoModelForCausalLM.from_pretrained(str(out))
    original = AutoModelForCausalLM.from_pretrained(str(checkpoint))
    assert all(torch.equal(a, b) for a, b in zip(model.state_dict().values(), original.state_dict().values()))
    tokenizer = AutoTokenizer.from_pretrained(str(out))
    assert tokenizer.chat_template == AutoTokenizer.from_pretrained(str(checkpoint)).chat_template
    assert 151645 in model.generation_config.eos_token_id  # <|im_end|> ends a reply
    prompt = tokenizer.apply_chat_template(
        finder_rows()[0]["prompt"],
        add_generation_prompt=True,
        return_tensors="pt",
        return_dict=True,
        enable_thinking=False,
    )
    assert model.generate(**prompt, max_new_tokens=4, do_sample=False).shape[1] > prompt["input_ids"].shape[1]

    card = (out / "README.md").read_text()
    assert card.startswith("---\n") and "base_model: Qwen/Qwen3-4B-Instruct-2507" in card and "- finder" in card
    assert "license: apache-2.0" in card and "/scratch" not in card
    for expected in (
        "(license: apache-2.0, which this model inherits)",
        "| objective | paper |",
        "| processes | 8 |",
        "| global batch (completions per optimizer step) | 512 |",
        "| prompts per optimizer step | 64 |",
        "| epochs over the training data | 0.8 |",
        "**Finder**",
        "| learning_rate | 5e-07 |",
        "| loss_type | grpo |",
        "| finder_verdict | 1.0 |",
        "| positive_yes | 1.5 |",
        "maximum 4.5",
        "`data/finder/hf` (split `train`), 12000 training prompts",
        "last logged step (2)",
        "| reward | 2.2500 |",
        "| DetectiveQA / accuracy | 0.61 |",
        "| NoCha | 0.5 |",
        "enable_thinking=False",
        "full weights",
    ):
        assert expected in card, expected


def test_export_refuses_what_it_cannot_do(checkpoint, tmp_path):
    (tmp_path / "busy").mkdir()
    (tmp_path / "busy" / "keep.txt").write_text("mine")
    with pytest.raises(ExportError, match="not empty; choose another or pass --overwrite"):
        export_checkpoint(checkpoint, tmp_path / "busy")
    assert (tmp_path / "busy" / "keep.txt").read_text() == "mine"  # nothing lost
    with pytest.raises(ExportError, match="not a checkpoint folder"):
        export_checkpoint(tmp_path / "busy", tmp_path / "out")
    with pytest.raises(ExportError, match="holds full weights, not a LoRA adapter"):
        export_checkpoint(checkpoint, tmp_path / "out", merge_lora=True)
    no_template = tmp_path / "no-template"
    shutil.copytree(checkpoint, no_template)
    (no_template / "chat_template.jinja").unlink(missing_ok=True)
    config = json.loads((no_template / "tokenizer_config.json").read_text())
    config.pop("chat_template", None)
    (no_template / "tokenizer_config.json").write_text(json.dumps(config))
    with pytest.raises(ExportError, match="no chat template"):
        export_checkpoint(no_template, tmp_path / "out2")


def test_the_card_needs_the_base_models_hub_id_and_license(checkpoint, tmp_path):
    unknown = tmp_path / "checkpoint-unknown"
    shutil.copytree(checkpoint, unknown)
    recipe = json.loads((unknown / RECIPE_FILE).read_text())
    recipe.update(base_model=str(tmp_path / "local-base"), base_model_hub_id=None, base_model_license=None)
    (unknown / RECIPE_FILE).write_text(json.dumps(recipe))
    with pytest.raises(ExportError, match="needs the base model's Hub id and license.*--base-model-id and --base"):
        export_checkpoint(unknown, tmp_path / "out")
    assert not (tmp_path / "out").exists()  # refused before writing anything
    out = export_checkpoint(
        unknown, tmp_path / "out", base_model_id="Qwen/Qwen3-4B-Instruct-2507", base_model_license="apache-2.0"
    )
    assert "base_model: Qwen/Qwen3-4B-Instruct-2507" in (out / "README.md").read_text()


def test_base_model_identity_from_a_hub_id_a_cache_folder_or_a_readme(tmp_path, monkeypatch):
    assert base_model_identity("Qwen/Qwen3-4B-Instruct-2507", license="apache-2.0") == {
        "hub_id": "Qwen/Qwen3-4B-Instruct-2507",
        "license": "apache-2.0",
    }
    snapshot = tmp_path / "hub" / "models--Qwen--Qwen3-4B-Instruct-2507" / "snapshots" / "abc123"
    snapshot.mkdir(parents=True)
    (snapshot / "README.md").write_text("---\nlicense: apache-2.0\npipeline_tag: text-generation\n---\n# Qwen3\n")
    assert base_model_identity(str(snapshot)) == {"hub_id": "Qwen/Qwen3-4B-Instruct-2507", "license": "apache-2.0"}
    plain = tmp_path / "my-model"
    plain.mkdir()
    assert base_model_identity(str(plain)) == {"hub_id": None, "license": None}
    assert base_model_identity(str(plain), hub_id="lab/base")["hub_id"] == "lab/base"
    (tmp_path / "models" / "qwen3-local").mkdir(parents=True)  # a relative folder looks like ORG/NAME
    monkeypatch.chdir(tmp_path)
    assert base_model_identity("models/qwen3-local") == {"hub_id": None, "license": None}


def test_cli_errors_are_clean(checkpoint, tmp_path, capsys):
    assert cli_main(["export", str(tmp_path), str(tmp_path / "out")]) == 2
    assert "not a checkpoint folder" in capsys.readouterr().err
    (tmp_path / "results.json").write_text("[1, 2]")
    assert (
        cli_main(["export", str(checkpoint), str(tmp_path / "out"), "--eval-results", str(tmp_path / "results.json")])
        == 2
    )
    assert "expected a JSON object" in capsys.readouterr().err


def test_card_without_a_training_record_still_names_the_model():
    card = model_card({}, base_model=None, merged_lora=False, adapter_only=False, rewards={})
    assert "# ClueWeaver agent" in card and "fine-tuned from a base model whose Hub id is unknown" in card
    assert "whose license is unknown" in card and "license:" not in card.split("---")[1]
    assert "base_model:" not in card  # no front-matter entry the Hub would take for a model id


def test_last_logged_rewards_reads_the_last_reward_entry(checkpoint, tmp_path):
    assert last_logged_rewards(checkpoint) == {
        "step": 2,
        "reward": 2.25,
        "rewards/finder_format/mean": 1.0,
        "rewards/finder_verdict/mean": 1.25,
    }
    assert last_logged_rewards(tmp_path) == {}


def test_push_creates_the_repo_and_uploads_through_huggingface_hub(checkpoint, tmp_path):
    out = export_checkpoint(checkpoint, tmp_path / "out")
    with HubStandIn() as hub:
        url = push_folder(out, "lab/clueweaver-finder", private=True, token="hf_test", endpoint=hub.url)
    assert url.startswith(hub.url + "/lab/clueweaver-finder/commit/")
    repo = hub.repos["lab/clueweaver-finder"]
    assert repo["private"]
    uploaded = repo["branches"]["main"]
    assert uploaded["model.safetensors"] == (out / "model.safetensors").read_bytes()
    assert set(uploaded) == {p.name for p in out.iterdir()}
    assert [p.rsplit("/", 1)[-1] for _, p in hub.requests] == [
        "create",
        "validate-yaml",
        "main",
        "main",
    ]  # no branch for main
    assert hub.cards[0]["base_model"] == "Qwen/Qwen3-4B-Instruct-2507" and "finder" in hub.cards[0]["tags"]
