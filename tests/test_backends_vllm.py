"""The vLLM backend against a stand-in ``vllm`` package that records what it receives.

vLLM cannot run here. The stand-in mirrors the real API the backend uses (vLLM 0.31:
``LLM(**engine_args).generate(prompts, sampling_params, *, use_tqdm, lora_request)``,
``SamplingParams`` fields, ``vllm.sampling_params.StructuredOutputsParams``,
``vllm.lora.request.LoRARequest``), and its ``SamplingParams`` rejects names it does not have, as
the real msgspec struct does, so a constraint passed under an old name would fail here.
"""

from __future__ import annotations

import json
import re
import sys
import types
from dataclasses import dataclass

import pytest

from clueweaver.backends import (
    FINISH_LENGTH,
    FINISH_PROMPT_TOO_LONG,
    FINISH_STOP,
    REASON_ANSWER_REGEX,
    BackendError,
    SamplingConfig,
    load_backend,
)
from clueweaver.backends.prompting import encode_prompt

pytestmark = pytest.mark.models  # loads or trains models: left out of the edit-test loop


# SamplingParams fields of vLLM 0.31 that a caller may set (vllm/sampling_params.py).
SAMPLING_FIELDS = {
    "n", "presence_penalty", "frequency_penalty", "repetition_penalty", "temperature", "top_p", "top_k",
    "min_p", "seed", "stop", "stop_token_ids", "ignore_eos", "max_tokens", "min_tokens", "logprobs",
    "prompt_logprobs", "detokenize", "skip_special_tokens", "spaces_between_special_tokens",
    "include_stop_str_in_output", "output_kind", "structured_outputs", "logit_bias", "allowed_token_ids",
    "extra_args", "bad_words", "thinking_token_budget",
}  # fmt: skip


class FakeSamplingParams:
    def __init__(self, **kwargs):
        unknown = set(kwargs) - SAMPLING_FIELDS
        if unknown:
            raise TypeError(f"Unexpected keyword arguments {sorted(unknown)}")
        self.kwargs = kwargs


@dataclass
class FakeStructuredOutputsParams:
    json: object = None
    regex: str | None = None
    choice: list | None = None
    grammar: str | None = None


@dataclass
class FakeLoRARequest:
    lora_name: str
    lora_int_id: int
    lora_path: str


class FakeLLM:
    instances: list[FakeLLM] = []

    def __init__(self, **engine_args):
        self.engine_args = engine_args
        self.calls = []
        window = engine_args.get("max_model_len", 2048)
        self.llm_engine = types.SimpleNamespace(model_config=types.SimpleNamespace(max_model_len=window))
        FakeLLM.instances.append(self)

    def generate(self, prompts, sampling_params=None, *, use_tqdm=True, lora_request=None, priority=None):
        self.calls.append({"prompts": prompts, "sampling_params": sampling_params, "lora_request": lora_request})
        max_tokens = sampling_params.kwargs["max_tokens"]
        return [
            types.SimpleNamespace(
                prompt_token_ids=prompt["prompt_token_ids"],
                outputs=[
                    types.SimpleNamespace(
                        text=f"<reason>{len(prompt['prompt_token_ids'])} tokens</reason><answer>A</answer>",
                        token_ids=list(range(min(5, max_tokens))),
                        finish_reason="length" if max_tokens <= 5 else "stop",
                    )
                ],
            )
            for prompt in prompts
        ]


def _install_fake_vllm(monkeypatch, *, structured_outputs=True):
    FakeLLM.instances = []
    vllm = types.ModuleType("vllm")
    vllm.LLM, vllm.SamplingParams = FakeLLM, FakeSamplingParams
    sampling_params = types.ModuleType("vllm.sampling_params")
    sampling_params.SamplingParams = FakeSamplingParams
    if structured_outputs:
        sampling_params.StructuredOutputsParams = FakeStructuredOutputsParams
    else:  # a vLLM from before the rename
        sampling_params.GuidedDecodingParams = FakeStructuredOutputsParams
    lora = types.ModuleType("vllm.lora")
    lora_request = types.ModuleType("vllm.lora.request")
    lora_request.LoRARequest = FakeLoRARequest
    for name, module in {
        "vllm": vllm,
        "vllm.sampling_params": sampling_params,
        "vllm.lora": lora,
        "vllm.lora.request": lora_request,
    }.items():
        monkeypatch.setitem(sys.modules, name, module)


@pytest.fixture
def fake_vllm(monkeypatch):
    _install_fake_vllm(monkeypatch)
    return FakeLLM


def _adapter(folder, rank):
    folder.mkdir()
    (folder / "adapter_config.json").write_text(json.dumps({"r": rank, "peft_type": "LORA"}))
    return str(folder)


CONVERSATIONS = [
    [{"role": "user", "content": "Does this segment mention the key? [3] She locked the door."}],
    [{"role": "user", "content": "Who lied?"}],
]


def test_engine_gets_prefix_caching_memory_and_window(fake_vllm, tiny_qwen3_path):
    backend = load_backend("vllm", str(tiny_qwen3_path), max_model_len=4096, gpu_memory_utilization=0.4)
    (engine,) = fake_vllm.instances
    assert engine.engine_args["enable_prefix_caching"] is True
    assert engine.engine_args["gpu_memory_utilization"] == 0.4
    assert engine.engine_args["max_model_len"] == 4096
    assert engine.engine_args["model"] == str(tiny_qwen3_path)
    assert "enable_lora" not in engine.engine_args
    assert backend.max_model_len == 4096


def test_window_defaults_to_what_the_engine_settled_on(fake_vllm, tiny_qwen3_path):
    assert load_backend("vllm", str(tiny_qwen3_path)).max_model_len == 2048


def test_structured_output_reaches_sampling_params_under_its_current_name(fake_vllm, tiny_qwen3_path):
    backend = load_backend("vllm", str(tiny_qwen3_path))
    backend.generate(CONVERSATIONS, SamplingConfig(structured_output=True))
    backend.generate(CONVERSATIONS[:1], SamplingConfig(structured_output=r"<answer>[A-D]</answer>"))
    backend.generate(CONVERSATIONS[:1])
    forced, custom, free = (call["sampling_params"].kwargs for call in fake_vllm.instances[0].calls)
    assert isinstance(forced["structured_outputs"], FakeStructuredOutputsParams)
    assert forced["structured_outputs"].regex == REASON_ANSWER_REGEX
    assert custom["structured_outputs"].regex == r"<answer>[A-D]</answer>"
    assert "structured_outputs" not in free
    assert not {"guided_decoding", "guided_regex"} & set(forced)


def test_old_vllm_without_structured_outputs_raises_instead_of_ignoring(monkeypatch, tiny_qwen3_path):
    _install_fake_vllm(monkeypatch, structured_outputs=False)
    backend = load_backend("vllm", str(tiny_qwen3_path))
    with pytest.raises(BackendError, match="StructuredOutputsParams"):
        backend.generate(CONVERSATIONS, SamplingConfig(structured_output=True))
    assert FakeLLM.instances[0].calls == []


def test_reason_answer_regex_accepts_only_the_agent_shape():
    assert re.fullmatch(REASON_ANSWER_REGEX, "<reason>The maid had the key [4], [7].</reason>\n<answer>B</answer>")
    assert not re.fullmatch(REASON_ANSWER_REGEX, "<answer>B</answer>")
    assert not re.fullmatch(REASON_ANSWER_REGEX, "<reason>x</reason><answer>B</answer> and more")


def test_sampling_settings_are_translated(fake_vllm, tiny_qwen3_path):
    backend = load_backend("vllm", str(tiny_qwen3_path))
    backend.generate(CONVERSATIONS[:1])
    backend.generate(
        CONVERSATIONS[:1],
        SamplingConfig(temperature=1.0, top_p=0.9, top_k=20, max_new_tokens=5, seed=3, stop=("</answer>",)),
    )
    greedy, sampled = (call["sampling_params"].kwargs for call in fake_vllm.instances[0].calls)
    assert greedy["temperature"] == 0.0 and greedy["top_k"] == -1 and greedy["max_tokens"] == 256
    assert greedy["stop"] is None and greedy["seed"] is None
    assert sampled == {
        "temperature": 1.0,
        "top_p": 0.9,
        "top_k": 20,
        "max_tokens": 5,
        "seed": 3,
        "stop": ["</answer>"],
    }


def test_ignore_eos_is_a_sampling_param(fake_vllm, tiny_qwen3_path):
    backend = load_backend("vllm", str(tiny_qwen3_path))
    backend.generate(CONVERSATIONS[:1], SamplingConfig(max_new_tokens=8, ignore_eos=True))
    (call,) = fake_vllm.instances[0].calls
    assert call["sampling_params"].kwargs["ignore_eos"] is True


def test_prompts_go_as_token_ids_in_one_call_and_results_keep_order(fake_vllm, tiny_qwen3_path):
    backend = load_backend("vllm", str(tiny_qwen3_path), max_model_len=60)
    long = [{"role": "user", "content": "The rain kept falling on the moor. " * 20}]
    results = backend.generate([CONVERSATIONS[0], long, CONVERSATIONS[1]], SamplingConfig(max_new_tokens=8))
    (call,) = fake_vllm.instances[0].calls
    expected = [
        encode_prompt(backend.tokenizer, messages, "template") for messages in (CONVERSATIONS[0], CONVERSATIONS[1])
    ]
    assert [prompt["prompt_token_ids"] for prompt in call["prompts"]] == expected
    assert call["lora_request"] is None
    first, flagged, last = results
    assert first.text == f"<reason>{len(expected[0])} tokens</reason><answer>A</answer>"
    assert (first.prompt_tokens, first.completion_tokens, first.finish_reason) == (len(expected[0]), 5, FINISH_STOP)
    assert last.prompt_tokens == len(expected[1])
    assert flagged.finish_reason == FINISH_PROMPT_TOO_LONG and flagged.prompt_tokens == backend.count_tokens(long)
    short = backend.generate(CONVERSATIONS[:1], SamplingConfig(max_new_tokens=5))[0]
    assert short.finish_reason == FINISH_LENGTH


def test_two_agents_as_lora_adapters_of_one_engine(fake_vllm, tiny_qwen3_path, tmp_path):
    adapters = {"finder": _adapter(tmp_path / "finder", 8), "interpreter": _adapter(tmp_path / "interpreter", 12)}
    backend = load_backend("vllm", str(tiny_qwen3_path), adapters=adapters)
    (engine,) = fake_vllm.instances
    assert engine.engine_args["enable_lora"] is True
    assert engine.engine_args["max_loras"] == 2
    assert engine.engine_args["max_lora_rank"] == 16  # the smallest vLLM slot that holds rank 12
    assert backend.adapters == ("finder", "interpreter")
    backend.generate(CONVERSATIONS, adapter="interpreter")
    backend.generate(CONVERSATIONS, adapter="finder")
    backend.generate(CONVERSATIONS)
    interpreter, finder, base = (call["lora_request"] for call in engine.calls)
    assert interpreter == FakeLoRARequest("interpreter", 2, adapters["interpreter"])
    assert finder == FakeLoRARequest("finder", 1, adapters["finder"])
    assert base is None
    with pytest.raises(BackendError, match="unknown adapter 'judge'"):
        backend.generate(CONVERSATIONS, adapter="judge")


def test_missing_vllm_is_a_clear_error(monkeypatch, tiny_qwen3_path):
    monkeypatch.setitem(sys.modules, "vllm", None)
    with pytest.raises(BackendError, match="vLLM is not installed"):
        load_backend("vllm", str(tiny_qwen3_path))


def test_missing_adapter_config_is_named(fake_vllm, tiny_qwen3_path, tmp_path):
    with pytest.raises(BackendError, match="adapter 'finder': no adapter_config.json"):
        load_backend("vllm", str(tiny_qwen3_path), adapters={"finder": str(tmp_path)})
    assert fake_vllm.instances == []


def test_sleep_mode_offloads_and_restores_the_engine(fake_vllm, tiny_qwen3_path, monkeypatch):
    calls = []
    monkeypatch.setattr(FakeLLM, "reset_prefix_cache", lambda self: calls.append("reset_prefix_cache"), raising=False)
    monkeypatch.setattr(FakeLLM, "sleep", lambda self, level=1: calls.append(f"sleep {level}"), raising=False)
    monkeypatch.setattr(FakeLLM, "wake_up", lambda self, tags=None: calls.append("wake_up"), raising=False)
    backend = load_backend("vllm", str(tiny_qwen3_path), enable_sleep_mode=True)
    assert fake_vllm.instances[0].engine_args["enable_sleep_mode"] is True
    backend.offload()
    backend.offload()  # idempotent
    backend.restore()
    backend.restore()
    assert calls == ["reset_prefix_cache", "sleep 1", "wake_up"]
    plain = load_backend("vllm", str(tiny_qwen3_path))
    assert "enable_sleep_mode" not in fake_vllm.instances[1].engine_args
    with pytest.raises(BackendError, match="enable_sleep_mode"):
        plain.offload()
