"""Generation backends behind one interface: transformers, vLLM, OpenAI-compatible HTTP, scripted.

``load_backend(kind, model, **options)`` builds one. Each backend module declares itself
(``clueweaver.backends.registry``); the built-in ones are imported here for that, and import torch,
transformers or vLLM only when a backend is built, so importing this package loads none of them.
"""

from __future__ import annotations

import inspect

from clueweaver.backends import hf, openai_http, scripted, vllm_engine  # noqa: F401 (each registers itself)
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
from clueweaver.backends.registry import BACKENDS, BackendOption, BackendSpec, backend_spec, register_backend


def load_backend(kind: str, model: str, **options) -> GenerationBackend:
    """Build a backend of ``kind`` for ``model``; unknown options are named in the error."""
    build = backend_spec(kind).build
    accepted = [name for name, p in inspect.signature(build).parameters.items() if p.kind is p.KEYWORD_ONLY]
    unknown = sorted(set(options) - set(accepted))
    if unknown:
        raise BackendError(f"{kind} backend: unknown options {unknown}; accepted: {', '.join(accepted)}")
    return build(model, **options)


__all__ = [
    "BACKENDS",
    "FINISH_LENGTH",
    "FINISH_PROMPT_TOO_LONG",
    "FINISH_STOP",
    "REASON_ANSWER_REGEX",
    "BackendError",
    "BackendOption",
    "BackendSpec",
    "Conversation",
    "Generation",
    "GenerationBackend",
    "SamplingConfig",
    "backend_spec",
    "load_backend",
    "register_backend",
]
