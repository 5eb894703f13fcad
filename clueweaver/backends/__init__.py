"""Generation backends behind one interface: transformers, vLLM, OpenAI-compatible HTTP, scripted.

``load_backend(kind, model, **options)`` builds one; each backend module is imported only when its
kind is asked for, so importing this package loads neither torch nor vLLM.
"""

from __future__ import annotations

import importlib
import inspect

from clueweaver.backends.base import (
    FINISH_LENGTH,
    FINISH_PROMPT_TOO_LONG,
    FINISH_STOP,
    REASON_ANSWER_REGEX,
    BackendError,
    Conversation,
    Generation,
    GenerationBackend,
    SamplingConfig,
)

BACKENDS = {
    "hf": "clueweaver.backends.hf:HFBackend",
    "vllm": "clueweaver.backends.vllm_engine:VLLMBackend",
    "openai": "clueweaver.backends.openai_http:OpenAIBackend",
    "scripted": "clueweaver.backends.scripted:ScriptedBackend",
}


def backend_class(kind: str) -> type[GenerationBackend]:
    if kind not in BACKENDS:
        raise BackendError(f"unknown backend {kind!r}; choose one of: {', '.join(BACKENDS)}")
    module_name, class_name = BACKENDS[kind].split(":")
    return getattr(importlib.import_module(module_name), class_name)


def load_backend(kind: str, model: str, **options) -> GenerationBackend:
    """Build a backend of ``kind`` for ``model``; unknown options are named in the error."""
    cls = backend_class(kind)
    accepted = [name for name, p in inspect.signature(cls.__init__).parameters.items() if p.kind is p.KEYWORD_ONLY]
    unknown = sorted(set(options) - set(accepted))
    if unknown:
        raise BackendError(f"{kind} backend: unknown options {unknown}; accepted: {', '.join(accepted)}")
    return cls(model, **options)


__all__ = [
    "BACKENDS",
    "FINISH_LENGTH",
    "FINISH_PROMPT_TOO_LONG",
    "FINISH_STOP",
    "REASON_ANSWER_REGEX",
    "BackendError",
    "Conversation",
    "Generation",
    "GenerationBackend",
    "SamplingConfig",
    "backend_class",
    "load_backend",
]
