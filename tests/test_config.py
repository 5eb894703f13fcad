"""YAML configs as dataclasses with command-line overrides of any field."""

from __future__ import annotations

import pytest

from clueweaver.core.config import ConfigError, config_to_dict, load_config, parse_config
from clueweaver.training_data import FinderDataConfig, InterpreterDataConfig, SourceConfig
from tests.conftest import REPO_ROOT

CONFIGS = REPO_ROOT / "configs" / "data"


@pytest.mark.parametrize("name, cls", [
    ("finder.yaml", FinderDataConfig), ("finder_small.yaml", FinderDataConfig),
    ("interpreter.yaml", InterpreterDataConfig), ("interpreter_small.yaml", InterpreterDataConfig),
])  # fmt: skip
def test_shipped_data_configs_load(name, cls):
    config = load_config(cls, CONFIGS / name)
    assert all(isinstance(s, SourceConfig) for s in config.sources)
    assert load_config(cls, None, config_to_dict(config)) == config  # round trip


def test_full_configs_carry_the_papers_numbers():
    finder = load_config(FinderDataConfig, CONFIGS / "finder.yaml")
    assert (finder.target_samples, finder.max_prompt_tokens, finder.tokenizer) == (12000, 9216, "qwen3")
    interpreter = load_config(InterpreterDataConfig, CONFIGS / "interpreter.yaml")
    assert (interpreter.num_samples, interpreter.hard_share, interpreter.max_prompt_tokens) == (1000, 0.275, 9216)


def test_cli_overrides_any_field_nested_and_listed():
    config = parse_config(FinderDataConfig, [
        "--config", str(CONFIGS / "finder_small.yaml"),
        "--target-samples", "100", "--teacher.model", "Qwen/Qwen3-32B", "--teacher.backend", "openai",
        "--teacher.options", "{base_url: 'http://127.0.0.1:9000/v1'}", "--skip-bad",
        "--sources", "[{name: gutenqa, limit: 3}]", "--encoder", "null", "--hard_negative_share", "0.25",
    ])  # fmt: skip
    assert config.target_samples == 100 and config.skip_bad is True and config.encoder is None
    assert config.teacher.model == "Qwen/Qwen3-32B" and config.teacher.options == {
        "base_url": "http://127.0.0.1:9000/v1"
    }
    assert config.sources == [SourceConfig("gutenqa", limit=3)] and config.hard_negative_share == 0.25
    assert config.random_negatives_per_case == 2  # from the file


def test_bad_values_name_the_field(tmp_path, capsys):
    with pytest.raises(SystemExit):
        parse_config(FinderDataConfig, ["--target-samples", "many"])
    assert "target_samples: expected an integer" in capsys.readouterr().err
    bad = tmp_path / "bad.yaml"
    bad.write_text("sources: [{name: bmds, limt: 3}]\n")
    with pytest.raises(ConfigError, match=r"bad\.yaml: sources\[0\]: unknown field\(s\) limt"):
        load_config(FinderDataConfig, bad)
    bad.write_text("synthetic: {edits: [swap]}\n")
    with pytest.raises(ConfigError, match="unknown edit"):
        load_config(InterpreterDataConfig, bad)
    bad.write_text("split_fractions: {train: 0.5}\n")
    with pytest.raises(ConfigError, match="sum to 1"):
        load_config(FinderDataConfig, bad)
    with pytest.raises(ConfigError, match="does not exist"):
        load_config(FinderDataConfig, tmp_path / "none.yaml")
