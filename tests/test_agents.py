"""Loading the agents: one backend when both agents share a model, adapters per agent, and an exact
message for every model that cannot be loaded."""

from __future__ import annotations

import importlib.util

import pytest

from clueweaver.backends import load_backend
from clueweaver.backends.hf import OFFLINE_SMOKE_MODEL
from clueweaver.pipeline import models as agents_module
from clueweaver.pipeline.models import DEFAULT_MODEL, ModelUnavailable, load_agents, model_problem


@pytest.fixture
def built(monkeypatch):
    """Record what load_agents asks of load_backend; hand back scripted backends."""
    calls = []

    def fake_load_backend(kind, model, **options):
        calls.append((kind, model, options))
        adapters = options.get("adapters", ())
        return load_backend("scripted", model, adapters=tuple(adapters))

    monkeypatch.setattr(agents_module, "load_backend", fake_load_backend)
    return calls


@pytest.fixture
def offline(monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")


def test_a_missing_folder_and_an_uncached_hub_id_are_named_with_the_reason(offline, tmp_path):
    assert model_problem(str(tmp_path / "nope")) == "no such file or folder"
    assert model_problem("./relative/nope/model") == "no such file or folder"
    assert "not in the local Hugging Face cache" in model_problem("nobody/no-such-model")
    assert "HF_HUB_OFFLINE is set" in model_problem("nobody/no-such-model")
    assert model_problem(str(tmp_path)) is None  # exists: the backend checks what is inside


def test_no_network_is_said_as_such(monkeypatch):
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.delenv("TRANSFORMERS_OFFLINE", raising=False)
    monkeypatch.setenv("HF_ENDPOINT", "http://127.0.0.1:9")  # nothing listens there
    assert model_problem("nobody/no-such-model") == (
        "not in the local Hugging Face cache and no network (cannot reach the Hugging Face Hub)"
    )


def test_unloadable_defaults_fail_with_what_to_do_when_no_smoke_model_is_installed(offline, monkeypatch, built):
    monkeypatch.setattr(agents_module, "smoke_model_installed", lambda: False)
    with pytest.raises(ModelUnavailable) as caught:
        load_agents(smoke_fallback=True)
    message = str(caught.value)
    assert message.startswith(f"cannot load {DEFAULT_MODEL}: ")
    assert "not in the local Hugging Face cache" in message
    assert "pass --finder/--interpreter (or --model) PATH" in message and "pip install 'clueweaver[demo]'" in message
    assert message.count(DEFAULT_MODEL) == 1  # one model shared by both agents, named once
    assert built == []


def test_unloadable_defaults_fall_back_to_the_smoke_model_with_a_warning(offline, monkeypatch, built):
    monkeypatch.setattr(agents_module, "smoke_model_installed", lambda: True)
    warnings = []
    loaded = load_agents(smoke_fallback=True, warn=warnings.append)
    assert built == [("hf", OFFLINE_SMOKE_MODEL, {})]
    assert loaded.smoke and loaded.finder is loaded.interpreter
    assert warnings[0].startswith(f"warning: cannot load {DEFAULT_MODEL}")
    assert "smoke test of the pipeline only" in warnings[1]
    # a model the user named is never replaced
    with pytest.raises(ModelUnavailable, match="cannot load nobody/model"):
        load_agents("nobody/model", "nobody/model", smoke_fallback=False)


def test_one_shared_backend_with_two_adapters(tmp_path, built):
    base = tmp_path / "base"
    base.mkdir()
    folders = {}
    for role in ("finder", "interpreter"):
        folders[role] = tmp_path / f"{role}-lora"
        folders[role].mkdir()
        (folders[role] / "adapter_config.json").write_text("{}")
    loaded = load_agents(str(base), str(base), finder_adapter=str(folders["finder"]),
                         interpreter_adapter=str(folders["interpreter"]), options={"device": "cpu"})  # fmt: skip
    assert built == [
        (
            "hf",
            str(base),
            {
                "device": "cpu",
                "adapters": {"finder": str(folders["finder"]), "interpreter": str(folders["interpreter"])},
            },
        )
    ]
    assert loaded.finder is loaded.interpreter
    assert (loaded.finder_adapter, loaded.interpreter_adapter) == ("finder", "interpreter")
    pipeline = loaded.pipeline(encoder=None)
    assert (pipeline.config.finder_adapter, pipeline.config.interpreter_adapter) == ("finder", "interpreter")
    with pytest.raises(ModelUnavailable, match="cannot load the finder adapter .*: not a LoRA adapter folder"):
        load_agents(str(base), str(base), finder_adapter=str(base))


def test_two_models_two_backends_and_served_adapter_names(tmp_path, built):
    finder, interpreter = tmp_path / "f", tmp_path / "i"
    finder.mkdir(), interpreter.mkdir()
    loaded = load_agents(str(finder), str(interpreter))
    assert [(kind, model) for kind, model, _ in built] == [("hf", str(finder)), ("hf", str(interpreter))]
    assert loaded.finder is not loaded.interpreter and loaded.finder_adapter is None
    built.clear()
    served = load_agents(
        "base",
        "base",
        backend="openai",
        finder_adapter="cw-finder",
        interpreter_adapter="cw-interpreter",
        options={"base_url": "http://127.0.0.1:8000/v1"},
    )
    assert built == [
        ("openai", "base", {"base_url": "http://127.0.0.1:8000/v1", "adapters": ("cw-finder", "cw-interpreter")})
    ]
    assert (served.finder_adapter, served.interpreter_adapter) == ("cw-finder", "cw-interpreter")


@pytest.mark.skipif(importlib.util.find_spec("vllm") is not None, reason="vLLM is installed here")
def test_a_backend_that_cannot_start_is_reported_by_name(tiny_qwen3_path):
    with pytest.raises(
        ModelUnavailable, match=f"cannot load {tiny_qwen3_path} with the vllm backend: .*vLLM is not installed"
    ):
        load_agents(str(tiny_qwen3_path), str(tiny_qwen3_path), backend="vllm")


def test_each_agent_gets_its_own_options_and_sequential_loading_offloads_the_finder_first(monkeypatch, tmp_path):
    from clueweaver.backends.scripted import ScriptedBackend

    events = []

    class Offloadable(ScriptedBackend):
        def offload(self):
            events.append(("offload", self.model))

    def fake_load_backend(kind, model, **options):
        events.append(("load", model, options))
        return Offloadable(model)

    monkeypatch.setattr(agents_module, "load_backend", fake_load_backend)
    finder, interpreter = tmp_path / "finder", tmp_path / "interpreter"
    finder.mkdir(), interpreter.mkdir()
    loaded = load_agents(
        str(finder), str(interpreter), backend="hf", options={"dtype": "bfloat16"},
        role_options={"finder": {"device": "cuda:0"}, "interpreter": {"device": "cuda:1"}}, sequential=True,
    )  # fmt: skip
    assert events == [
        ("load", str(finder), {"dtype": "bfloat16", "device": "cuda:0"}),
        ("offload", str(finder)),
        ("load", str(interpreter), {"dtype": "bfloat16", "device": "cuda:1"}),
    ]
    assert loaded.finder.model == str(finder) and loaded.interpreter.model == str(interpreter)
    with pytest.raises(ModelUnavailable, match="unknown agents"):
        load_agents(str(finder), backend="hf", role_options={"reader": {}})
