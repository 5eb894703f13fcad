"""The tiny Qwen3 fixture loads like a real checkpoint, with Qwen3's real tokenizer and template."""

from __future__ import annotations

import json

import pytest

from clueweaver.backends.prompting import qwen3_tokenizer
from clueweaver.backends.stand_ins import QWEN3_IM_END_TOKEN_ID, QWEN3_VOCAB_SIZE, build_tiny_qwen3

pytestmark = pytest.mark.models  # loads or trains models: left out of the edit-test loop


def test_tiny_model_loads_by_path_like_a_real_checkpoint(tiny_qwen3_path):
    from transformers import AutoConfig, AutoModelForCausalLM, AutoTokenizer, GenerationConfig

    config = AutoConfig.from_pretrained(tiny_qwen3_path)
    assert config.model_type == "qwen3"
    assert (config.num_hidden_layers, config.hidden_size, config.num_attention_heads) == (2, 64, 4)
    assert (config.num_key_value_heads, config.head_dim, config.intermediate_size) == (2, 16, 128)
    assert config.vocab_size == QWEN3_VOCAB_SIZE and config.tie_word_embeddings

    model = AutoModelForCausalLM.from_pretrained(tiny_qwen3_path)
    assert type(model).__name__ == "Qwen3ForCausalLM"
    assert model.get_input_embeddings().weight.data_ptr() == model.get_output_embeddings().weight.data_ptr()
    assert GenerationConfig.from_pretrained(tiny_qwen3_path).eos_token_id[0] == QWEN3_IM_END_TOKEN_ID

    saved = AutoTokenizer.from_pretrained(tiny_qwen3_path)
    real = qwen3_tokenizer()
    assert len(saved) == len(real) == 151669
    assert saved.chat_template == real.chat_template
    text = "Who hid the letter? [12] The maid, in chapter 3."
    assert saved(text).input_ids == real(text).input_ids
    rendered = saved.apply_chat_template(
        [{"role": "user", "content": "hi"}], tokenize=False, add_generation_prompt=True, enable_thinking=False
    )
    assert rendered == "<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n<think>\n\n</think>\n\n"


def test_rebuilding_the_same_model_reuses_the_folder(tiny_qwen3_path):
    weights = tiny_qwen3_path / "model.safetensors"
    before = weights.stat().st_mtime_ns
    assert build_tiny_qwen3(tiny_qwen3_path) == tiny_qwen3_path
    assert weights.stat().st_mtime_ns == before


def test_another_seed_rebuilds_with_other_weights(tmp_path):
    from safetensors.torch import load_file

    folder = build_tiny_qwen3(tmp_path / "m", seed=1, num_hidden_layers=1)
    first = load_file(folder / "model.safetensors")["model.layers.0.mlp.up_proj.weight"].clone()
    build_tiny_qwen3(folder, seed=2, num_hidden_layers=1)
    second = load_file(folder / "model.safetensors")["model.layers.0.mlp.up_proj.weight"]
    assert json.loads((folder / "config.json").read_text())["num_hidden_layers"] == 1
    assert not first.equal(second)
    assert [p.name for p in tmp_path.iterdir()] == ["m"]  # no staging folders left behind


def test_refuses_to_overwrite_an_unrelated_folder(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(FileExistsError, match="not a tiny test model"):
        build_tiny_qwen3(tmp_path)
    assert (tmp_path / "notes.txt").read_text() == "mine"


def test_unknown_override_is_named(tmp_path):
    with pytest.raises(TypeError, match="num_layers"):
        build_tiny_qwen3(tmp_path / "m", num_layers=3)


def test_interrupted_build_leaves_nothing(tmp_path, monkeypatch):
    import transformers

    def fail(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(transformers.PreTrainedTokenizerBase, "save_pretrained", fail)
    with pytest.raises(OSError, match="disk full"):
        build_tiny_qwen3(tmp_path / "m", num_hidden_layers=1)
    assert list(tmp_path.iterdir()) == []


def test_weights_can_be_stored_in_bfloat16(tmp_path):
    from safetensors.torch import load_file

    folder = build_tiny_qwen3(tmp_path / "m", dtype="bfloat16", num_hidden_layers=1)
    weights = load_file(folder / "model.safetensors")
    assert {str(w.dtype) for w in weights.values()} == {"torch.bfloat16"}
    assert build_tiny_qwen3(folder, num_hidden_layers=1) == folder  # float32 is another model: rebuilt
    assert {str(w.dtype) for w in load_file(folder / "model.safetensors").values()} == {"torch.float32"}
