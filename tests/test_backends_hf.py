"""The transformers backend on the tiny Qwen3 model, on CPU."""

from __future__ import annotations

import logging
import os

import pytest

from clueweaver.backends import (
    FINISH_LENGTH,
    FINISH_PROMPT_TOO_LONG,
    FINISH_STOP,
    BackendError,
    SamplingConfig,
    load_backend,
)

pytestmark = pytest.mark.models  # loads or trains models: left out of the edit-test loop

QUESTIONS = [
    "Who hid the letter?",
    "In chapter three, why does the gardener lie about the night of the storm and the broken gate?",
    "Yes or no?",
    "Which paragraph first mentions the brass key that the housekeeper keeps on her belt?",
]
CONVERSATIONS = [[{"role": "system", "content": "Answer briefly."}, {"role": "user", "content": q}] for q in QUESTIONS]
SHORT = SamplingConfig(max_new_tokens=8)


@pytest.fixture(scope="module")
def backend(tiny_qwen3_path):
    with load_backend("hf", str(tiny_qwen3_path)) as loaded:
        yield loaded


@pytest.fixture(scope="module")
def batched(backend):
    return backend.generate(CONVERSATIONS, SHORT)


def test_defaults_on_cpu(backend):
    assert backend.device.type == "cpu"
    assert not backend.fast_decode
    assert backend.network.dtype.is_floating_point and str(backend.network.dtype) == "torch.float32"
    assert backend.max_model_len == 32768
    assert backend.chat_format == "template"


def test_batch_with_left_padding_matches_each_prompt_alone(backend, batched):
    lengths = {backend.count_tokens(messages) for messages in CONVERSATIONS}
    assert len(lengths) == len(CONVERSATIONS)  # really different lengths, so rows are padded
    alone = [backend.generate([messages], SHORT)[0] for messages in CONVERSATIONS]
    assert batched == alone
    # The model answers each prompt differently, so equality above is not a coincidence.
    assert len({g.text for g in batched}) == len(CONVERSATIONS)


def test_small_batches_sorted_by_length_keep_input_order(tiny_qwen3_path, batched):
    with load_backend("hf", str(tiny_qwen3_path), max_batch_size=3) as small:
        assert small.generate(CONVERSATIONS, SHORT) == batched


def test_static_cache_fast_path_gives_the_same_greedy_output(tiny_qwen3_path, batched):
    with load_backend("hf", str(tiny_qwen3_path), fast_decode=True) as fast:
        assert fast.fast_decode
        assert fast.generate(CONVERSATIONS, SHORT) == batched


def test_greedy_stays_greedy_when_the_checkpoint_prefers_sampling(tiny_qwen3_path, tmp_path, batched):
    import json
    import shutil

    # Released Qwen3 checkpoints ship sampling defaults; evaluation must still decode greedily.
    folder = shutil.copytree(tiny_qwen3_path, tmp_path / "sampling-defaults")
    settings = json.loads((folder / "generation_config.json").read_text())
    settings.update(do_sample=True, temperature=0.7, top_p=0.8, top_k=20)
    (folder / "generation_config.json").write_text(json.dumps(settings))
    with load_backend("hf", str(folder)) as sampler_by_default:
        assert sampler_by_default.generate(CONVERSATIONS, SHORT) == batched


def test_token_counts_are_exact(backend, batched):
    tokenizer = backend.tokenizer
    for messages, generation in zip(CONVERSATIONS, batched):
        ids = tokenizer.apply_chat_template(messages, add_generation_prompt=True, enable_thinking=False, tokenize=True)
        ids = ids["input_ids"] if isinstance(ids, dict) or hasattr(ids, "keys") else ids
        assert generation.prompt_tokens == len(ids) == backend.count_tokens(messages)
        assert generation.finish_reason == FINISH_LENGTH  # random weights never say <|im_end|> this early
        assert generation.completion_tokens == SHORT.max_new_tokens


def test_the_backends_own_stop_criterion_ends_each_row_at_its_stop_string():
    import torch

    from clueweaver.backends.hf import _StopStrings

    class Letters:  # token i is the letter chr(ord("a") + i); 0 is padding
        def batch_decode(self, rows, skip_special_tokens=True):
            return ["".join(chr(ord("a") + t - 1) for t in row if t) for row in rows]

    prompt = [[0, 9, 9], [9, 9, 9]]  # two prompts, left-padded to width 3, that hold the stop string "ii"
    criterion = _StopStrings(Letters(), ("ii", "cd"), prompt_width=3)
    new = [[1, 9, 9], [3, 4, 1]]  # row 0 writes "aii", row 1 "cda"
    ids = torch.tensor([p + n for p, n in zip(prompt, new)])
    assert criterion(ids[:, :4], None).tolist() == [False, False]  # the prompt's own "ii" never counts
    assert criterion(ids[:, :5], None).tolist() == [False, True]  # row 1 wrote "cd"
    assert criterion(ids, None).tolist() == [True, True]


def test_stop_string_cuts_the_output(backend):
    free = backend.generate(CONVERSATIONS[:1], SamplingConfig(max_new_tokens=12))[0]
    stop = free.text[len(free.text) // 2 :][:3]
    assert stop.strip(), free.text
    stopped = backend.generate(CONVERSATIONS[:1], SamplingConfig(max_new_tokens=12, stop=(stop,)))[0]
    assert stopped.finish_reason == FINISH_STOP
    assert stop not in stopped.text
    assert free.text.startswith(stopped.text)
    assert stopped.text == free.text[: free.text.index(stop)]
    assert stopped.completion_tokens < free.completion_tokens


def test_sampling_is_reproducible_with_a_seed(backend):
    def sample(seed):
        return backend.generate(
            CONVERSATIONS[:2], SamplingConfig(temperature=1.0, top_k=50, max_new_tokens=8, seed=seed)
        )

    assert sample(7) == sample(7)
    assert [g.text for g in sample(7)] != [g.text for g in sample(8)]


def test_over_long_prompt_is_reported_and_the_rest_generated(tiny_qwen3_path, batched, caplog):
    with load_backend("hf", str(tiny_qwen3_path), max_model_len=40) as narrow:
        long_messages = [{"role": "user", "content": "The rain kept falling on the moor. " * 20}]
        with caplog.at_level(logging.WARNING, logger="clueweaver.backends"):
            short, long = narrow.generate([CONVERSATIONS[0], long_messages], SHORT)
    assert short == batched[0]
    assert long.finish_reason == FINISH_PROMPT_TOO_LONG and not long.ok
    assert long.text == "" and long.completion_tokens == 0
    assert long.prompt_tokens == narrow.count_tokens(long_messages) > 40
    assert "exceeds the model window of 40 tokens" in long.error
    assert long.error in caplog.text


def test_prompt_plus_output_must_fit(tiny_qwen3_path):
    with load_backend("hf", str(tiny_qwen3_path), max_model_len=40) as narrow:
        n = narrow.count_tokens(CONVERSATIONS[0])
        assert narrow.generate(CONVERSATIONS[:1], SamplingConfig(max_new_tokens=40 - n))[0].ok
        assert not narrow.generate(CONVERSATIONS[:1], SamplingConfig(max_new_tokens=41 - n))[0].ok


def test_setup_errors_are_clear(backend, tiny_qwen3_path):
    with pytest.raises(BackendError, match="structured_output"):
        backend.generate(CONVERSATIONS[:1], SamplingConfig(structured_output=True))
    with pytest.raises(BackendError, match="unknown adapter 'finder'.*none loaded"):
        backend.generate(CONVERSATIONS[:1], adapter="finder")
    with pytest.raises(ValueError, match="conversation 1, message 0"):
        backend.generate([CONVERSATIONS[0], [{"role": "user"}]])
    with pytest.raises(BackendError, match="unknown options \\['batch_size'\\]"):
        load_backend("hf", str(tiny_qwen3_path), batch_size=4)
    with pytest.raises(BackendError, match="unknown backend 'tgi'"):
        load_backend("tgi", str(tiny_qwen3_path))
    with pytest.raises(ValueError, match="max_model_len must be in 1..32768"):
        load_backend("hf", str(tiny_qwen3_path), max_model_len=10**6)


def _make_lora(base_path, folder, seed):
    import torch
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM

    torch.manual_seed(seed)
    base = AutoModelForCausalLM.from_pretrained(base_path)
    config = LoraConfig(r=4, lora_alpha=16, target_modules=["q_proj", "v_proj", "down_proj"], init_lora_weights=False)
    get_peft_model(base, config).save_pretrained(folder)
    return str(folder)


@pytest.fixture(scope="module")
def lora_paths(tiny_qwen3_path, tmp_path_factory):
    root = tmp_path_factory.mktemp("lora")
    return {
        "finder": _make_lora(tiny_qwen3_path, root / "finder", 1),
        "interpreter": _make_lora(tiny_qwen3_path, root / "interpreter", 2),
    }


def test_lora_adapters_are_selected_per_call(tiny_qwen3_path, lora_paths, batched):
    import torch
    from peft import PeftModel
    from transformers import AutoModelForCausalLM

    with load_backend("hf", str(tiny_qwen3_path), adapters=lora_paths) as agents:
        assert agents.adapters == ("finder", "interpreter")
        finder = agents.generate(CONVERSATIONS, SHORT, adapter="finder")
        interpreter = agents.generate(CONVERSATIONS, SHORT, adapter="interpreter")
        base = agents.generate(CONVERSATIONS, SHORT)
        prompt = agents.tokenizer.apply_chat_template(
            CONVERSATIONS[1], add_generation_prompt=True, enable_thinking=False, tokenize=False
        )
    assert base == batched  # no adapter = the base model, untouched by loading adapters
    assert [g.text for g in finder] != [g.text for g in base]
    assert [g.text for g in interpreter] != [g.text for g in finder]

    # The finder adapter's output is what PEFT itself generates with that adapter.
    reference = PeftModel.from_pretrained(
        AutoModelForCausalLM.from_pretrained(tiny_qwen3_path), lora_paths["finder"]
    ).eval()
    tokenizer = agents.tokenizer
    ids = tokenizer(prompt, add_special_tokens=False, return_tensors="pt")
    with torch.inference_mode():
        out = reference.generate(**ids, max_new_tokens=SHORT.max_new_tokens, do_sample=False)
    assert tokenizer.decode(out[0, ids.input_ids.shape[1] :], skip_special_tokens=True) == finder[1].text


def test_model_folders_that_are_not_checkpoints_are_named(tmp_path):
    with pytest.raises(BackendError, match=f"model folder {tmp_path} has no config.json"):
        load_backend("hf", str(tmp_path))
    with pytest.raises(BackendError, match="model folder .*/absent does not exist"):
        load_backend("hf", str(tmp_path / "absent"))


def test_missing_adapter_folder_is_named(tiny_qwen3_path, tmp_path):
    with pytest.raises(BackendError, match="adapter .finder.: no adapter_config.json"):
        load_backend("hf", str(tiny_qwen3_path), adapters={"finder": str(tmp_path)})


@pytest.mark.slow
@pytest.mark.skipif(
    os.environ.get("CLUEWEAVER_SLOW") != "1", reason="loads Gemma-3-270M from GGUF (~2 min); set CLUEWEAVER_SLOW=1"
)
def test_offline_gemma_smoke_model_gets_bos_and_plain_prompts():
    from clueweaver.backends.hf import OFFLINE_SMOKE_MODEL

    with load_backend("hf", OFFLINE_SMOKE_MODEL) as gemma:
        assert gemma.chat_format == "plain"
        messages = [{"role": "user", "content": "Complete the sentence: The capital of France is"}]
        ids = gemma.tokenizer(
            "User: Complete the sentence: The capital of France is\n\nAssistant:", add_special_tokens=False
        ).input_ids
        assert gemma.count_tokens(messages) == len(ids) + 1  # BOS prepended, once
        generation = gemma.generate([messages], SamplingConfig(max_new_tokens=16))[0]
    assert generation.ok and generation.text.strip()
    assert generation.prompt_tokens == len(ids) + 1
