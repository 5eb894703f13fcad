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


def load_tokenizer(name_or_path: str, *, gguf_file: str | None = None):
    """A Hugging Face tokenizer set up for batched generation (left padding, a pad token)."""
    from transformers import AutoTokenizer

    options = {"gguf_file": gguf_file} if gguf_file else {}
    tokenizer = AutoTokenizer.from_pretrained(name_or_path, **options)
    tokenizer.padding_side = "left"
    if tokenizer.pad_token_id is None:
        tokenizer.pad_token = tokenizer.eos_token
    return tokenizer
