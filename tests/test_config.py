"""YAML configs as dataclasses with command-line overrides of any field."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Literal

import pytest

from clueweaver.backends.base import SamplingConfig
from clueweaver.core.config import ConfigError, config_from_dict, config_to_dict, load_config, parse_config
from clueweaver.serving.config import ServeConfig
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


class Tone(enum.Enum):
    DRY = "dry"
    WARM = "warm"


@dataclass(frozen=True)
class Voice:
    name: str
    pitch: float = 1.0


@dataclass
class Recital:
    lead: Voice
    chorus: list[Voice] = field(default_factory=list)
    bars: tuple[int, ...] = ()
    encore: int | None = None
    mood: Literal["calm", "tense"] = "calm"
    tone: Tone = Tone.DRY
    tempo: Voice = Voice("metronome", pitch=2.0)  # a mapping overrides this instance, not the class


def test_values_are_built_into_nested_optional_listed_literal_and_enum_fields():
    recital = config_from_dict(Recital, {
        "lead": {"name": "Ada"}, "chorus": [{"name": "Bram", "pitch": 2}], "bars": [3, 4], "encore": None,
        "mood": "tense", "tone": "warm", "tempo": {"name": "click"},
    })  # fmt: skip
    assert recital == Recital(
        Voice("Ada"), [Voice("Bram", 2.0)], (3, 4), None, "tense", Tone.WARM, Voice("click", pitch=2.0)
    )
    assert isinstance(recital.chorus[0].pitch, float)


@pytest.mark.parametrize("data, message", [
    ({"lead": {"name": 7}}, "lead.name: expected a string, got 7"),
    ({"lead": {"name": "Ada"}, "chorus": [{"name": "B"}, {"name": "C", "pitch": True}]},
     r"chorus\[1\]\.pitch: expected a number, got True"),
    ({"lead": {"name": "Ada"}, "bars": [1, "2"]}, r"bars\[1\]: expected an integer, got '2'"),
    ({"lead": {"name": "Ada"}, "encore": 1.5}, "encore: expected an integer, got 1.5"),
    ({"lead": {"name": "Ada"}, "mood": "giddy"}, "mood: 'giddy' is not one of 'calm' or 'tense'"),
    ({"lead": {"name": "Ada"}, "tone": "cold"}, "tone: 'cold' is not one of 'dry' or 'warm'"),
    ({"lead": {"name": "Ada"}, "tempo": {"nam": "x"}}, r"tempo: unknown field\(s\) nam"),
    ({"lead": "Ada"}, "lead: expected a mapping of Voice fields, got 'Ada'"),
    ({}, r"lead: missing \(a required field\)"),
])  # fmt: skip
def test_a_wrong_value_is_refused_under_its_field_path(data, message):
    with pytest.raises(ConfigError, match=message):
        config_from_dict(Recital, data)


def test_a_value_of_a_union_names_every_type_it_could_have_had():
    with pytest.raises(ConfigError, match="structured_output: expected true or false or a string, got 5"):
        SamplingConfig.from_dict({"structured_output": 5})


def test_a_text_flag_takes_its_text_as_given_and_help_shows_each_fields_description(capsys):
    config = parse_config(ServeConfig, ["--host", "::", "--token", "123456", "--models.backend", "true"])
    assert (config.host, config.token, config.models.backend) == ("::", "123456", "true")
    assert parse_config(ServeConfig, ["--token", "null", "--port", "8080"]).token is None  # null clears optional text
    with pytest.raises(SystemExit):
        parse_config(ServeConfig, ["--help"])
    assert "bearer token for /api" in " ".join(capsys.readouterr().out.split())
