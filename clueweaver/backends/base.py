"""The one generation interface every stage talks to, and the records it returns.

A backend turns a batch of chat conversations into one ``Generation`` each, in order. The pipeline
hands it every Finder segment in ONE call so the backend can batch them (vLLM schedules them
together, transformers pads them into batches, HTTP sends them concurrently).

Two kinds of failure are kept apart on purpose:
- model output never raises: whatever the model writes comes back as text, and a prompt that does
  not fit the model's window comes back as a flagged ``Generation`` (``finish_reason ==
  "prompt_too_long"``, empty text, the real prompt length) so one oversized segment does not sink
  the other fifteen, and the trace can show it;
- a broken setup raises ``BackendError`` (unknown adapter, unreachable server, unsupported option),
  with a message that names the thing and the problem.
"""

from __future__ import annotations

import gc
import json
import logging
import re
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from clueweaver.core.config import config_from_dict
from clueweaver.core.errors import ClueWeaverError

logger = logging.getLogger("clueweaver.backends")

# The agents' output shape. ``[^<]*`` rather than a lazy ``.*?``: constrained-decoding engines
# compile the regex to an automaton, and excluding '<' inside the fields keeps the tags unambiguous.
REASON_ANSWER_REGEX = r"<reason>[^<]*</reason>\s*<answer>[^<]*</answer>"

FINISH_STOP = "stop"  # end of turn, EOS or a stop string
FINISH_LENGTH = "length"  # ran into max_new_tokens
FINISH_PROMPT_TOO_LONG = "prompt_too_long"  # not generated: prompt + max_new_tokens > window

# The offline smoke model (Gemma-3-270M base, shipped as GGUF chunks by a PyPI package; the hf
# backend loads it): it generates, but stands in for the agents' models rather than being one.
OFFLINE_SMOKE_MODEL = "offline:gemma-3-270m"
SMOKE_STAND_IN = f"the offline smoke model ({OFFLINE_SMOKE_MODEL}, a base model not instruction-tuned)"


class BackendError(ClueWeaverError, RuntimeError):
    """A generation backend that cannot do what was asked (setup, server or option problem)."""


Conversation = list[dict[str, str]]


@dataclass(frozen=True)
class SamplingConfig:
    """How to decode. The default is greedy, the setting used for evaluation.

    ``top_k=0`` means no top-k cut. ``structured_output`` forces the output shape where the
    backend can constrain decoding (vLLM offline and ``vllm serve``): ``True`` forces
    ``<reason>...</reason><answer>...</answer>``, a string is used as the regex itself.
    ``json_schema`` (a JSON schema as JSON text, so the settings stay hashable) constrains the
    output to JSON following it, on the same backends; it excludes ``structured_output``.
    ``ignore_eos`` decodes exactly ``max_new_tokens`` tokens (end-of-turn tokens are suppressed):
    benchmarks with random weights use it to force the output lengths they measure.
    """

    temperature: float = 0.0
    top_p: float = 1.0
    top_k: int = 0
    max_new_tokens: int = 256
    seed: int | None = None
    stop: tuple[str, ...] = ()
    structured_output: bool | str = False
    json_schema: str | None = None
    ignore_eos: bool = False

    def __post_init__(self) -> None:
        if isinstance(self.stop, str):
            object.__setattr__(self, "stop", (self.stop,))
        else:
            object.__setattr__(self, "stop", tuple(self.stop))
        problems = []
        if self.temperature < 0:
            problems.append(f"temperature must be >= 0, got {self.temperature}")
        if not 0 < self.top_p <= 1:
            problems.append(f"top_p must be in (0, 1], got {self.top_p}")
        if self.top_k < 0:
            problems.append(f"top_k must be >= 0 (0 = no cut), got {self.top_k}")
        if self.max_new_tokens < 1:
            problems.append(f"max_new_tokens must be >= 1, got {self.max_new_tokens}")
        if any(not isinstance(s, str) or not s for s in self.stop):
            problems.append(f"stop must hold non-empty strings, got {self.stop!r}")
        if isinstance(self.structured_output, str):
            try:
                re.compile(self.structured_output)
            except re.error as exc:
                problems.append(f"structured_output is not a valid regex ({exc}): {self.structured_output!r}")
        if self.json_schema is not None:
            try:
                schema = json.loads(self.json_schema)
            except (TypeError, json.JSONDecodeError) as exc:
                schema = None
                problems.append(f"json_schema must be JSON text of a schema object ({exc})")
            if schema is not None and not isinstance(schema, dict):
                problems.append(f"json_schema must be a JSON object, got {type(schema).__name__}")
            if self.structured_output:
                problems.append("json_schema and structured_output are exclusive; set one")
        if problems:
            raise ValueError("SamplingConfig: " + "; ".join(problems))

    @property
    def greedy(self) -> bool:
        return self.temperature == 0

    @property
    def output_regex(self) -> str | None:
        """The regex decoding must follow, or None when decoding is free."""
        if self.structured_output is True:
            return REASON_ANSWER_REGEX
        return self.structured_output or None

    @property
    def output_json_schema(self) -> dict | None:
        """The JSON schema decoding must follow, or None."""
        return json.loads(self.json_schema) if self.json_schema is not None else None

    @classmethod
    def from_dict(cls, values: dict[str, Any] | None) -> SamplingConfig:
        """Build from a YAML/CLI mapping through the project's dataclass loader: unknown keys and
        wrong types are named."""
        return config_from_dict(cls, values, "SamplingConfig")


@dataclass(frozen=True)
class Generation:
    """One conversation's result. Token counts are the backend's own (exact for hf and vllm)."""

    text: str
    prompt_tokens: int
    completion_tokens: int
    finish_reason: str  # FINISH_STOP | FINISH_LENGTH | FINISH_PROMPT_TOO_LONG
    error: str | None = None  # why it was not generated, for flagged generations

    @property
    def ok(self) -> bool:
        return self.finish_reason != FINISH_PROMPT_TOO_LONG


def prompt_too_long(prompt_tokens: int, max_new_tokens: int, max_model_len: int, *, model: str) -> Generation:
    """The flagged result for a prompt that leaves no room for the requested output; logged."""
    message = (
        f"{model}: prompt of {prompt_tokens} tokens + {max_new_tokens} new tokens exceeds the "
        f"model window of {max_model_len} tokens; not generated"
    )
    logger.warning(message)
    return Generation("", prompt_tokens, 0, FINISH_PROMPT_TOO_LONG, error=message)


def fits(prompt_tokens: int, sampling: SamplingConfig, max_model_len: int) -> bool:
    """The window must hold the prompt and the whole requested output."""
    return prompt_tokens + sampling.max_new_tokens <= max_model_len


def check_conversations(conversations: list[Conversation]) -> None:
    """Reject malformed input before any model time is spent, naming the bad conversation."""
    if not isinstance(conversations, (list, tuple)):
        raise TypeError(f"conversations must be a list of message lists, got {type(conversations).__name__}")
    for index, messages in enumerate(conversations):
        if not isinstance(messages, (list, tuple)) or not messages:
            raise ValueError(f"conversation {index}: expected a non-empty list of messages, got {messages!r:.80}")
        for position, message in enumerate(messages):
            if (
                not isinstance(message, dict)
                or not isinstance(message.get("role"), str)
                or not isinstance(message.get("content"), str)
            ):
                raise ValueError(
                    f"conversation {index}, message {position}: expected {{'role': str, 'content': str}}, "
                    f"got {message!r:.80}"
                )


def trim_at_stop(text: str, stop: tuple[str, ...]) -> tuple[str, bool]:
    """Cut ``text`` before the earliest stop string (which is not returned, as in vLLM)."""
    cuts = [text.find(s) for s in stop if s in text]
    if not cuts:
        return text, False
    return text[: min(cuts)], True


def adapter_config(name: str, path: str) -> dict:
    """The PEFT ``adapter_config.json`` of adapter ``name``, or a BackendError naming the folder."""
    config_file = Path(path) / "adapter_config.json"
    if not config_file.is_file():
        raise BackendError(f"adapter {name!r}: no adapter_config.json in {path}")
    return json.loads(config_file.read_text())


def check_model_source(model: str, *, gguf_file: str | None = None) -> None:
    """Fail early, by name, on a local model path that is not a checkpoint (hub ids pass through)."""
    path = Path(model).expanduser()
    looks_local = path.is_absolute() or model.startswith((".", "~"))
    if looks_local and not path.is_dir():
        raise BackendError(f"model folder {model} does not exist")
    if path.is_dir() and not (path / (gguf_file or "config.json")).is_file():
        raise BackendError(f"model folder {model} has no {gguf_file or 'config.json'}; is it a checkpoint folder?")


def release_accelerator_memory() -> None:
    """Return cached GPU memory after a model is dropped, so the next model can load."""
    import torch

    gc.collect()
    if torch.cuda.is_available():
        torch.cuda.empty_cache()


class GenerationBackend(ABC):
    """Batched chat generation over one model (and optionally its LoRA adapters).

    ``generate`` returns one ``Generation`` per conversation, in input order. ``adapter`` selects a
    loaded adapter by name for the whole call (None = the base model). ``count_tokens`` is the exact
    prompt length the backend would see, chat template and generation prompt included.

    Subclasses implement ``_prepare`` (a conversation -> its prompt tokens, or None when they cannot
    be known locally) and ``_generate`` (the prompts that fit -> generations); the checks, the window
    rule and the ordering live here once.
    """

    kind: str = ""
    model: str = ""
    _max_model_len: int | None = None
    _adapter_names: tuple[str, ...] = ()

    @property
    def max_model_len(self) -> int:
        """The window in tokens: prompt plus generated tokens must fit in it."""
        return self._max_model_len

    @property
    def adapters(self) -> tuple[str, ...]:
        """Names accepted by ``generate(adapter=...)``."""
        return self._adapter_names

    @property
    def stand_in(self) -> str | None:
        """What this backend is, when it only stands in for a model (a test double, the offline
        smoke model); None for a model. A stage that needs a model's judgment rather than the
        agents' output format (the query writer) refuses a stand-in, naming it, instead of running
        on replies that mean nothing."""
        return SMOKE_STAND_IN if self.model == OFFLINE_SMOKE_MODEL else None

    @abstractmethod
    def _prepare(self, messages: Conversation) -> list | None:
        """The prompt as the model will see it (token IDs, or anything whose len() is its length)."""

    @abstractmethod
    def _generate(
        self, conversations: list[Conversation], prompts: list, sampling: SamplingConfig, adapter: str | None
    ) -> list[Generation]:
        """Generate for prompts already known to fit, in order."""

    def check_sampling(self, sampling: SamplingConfig) -> None:
        """Raise BackendError for settings this backend cannot honour (never ignore them)."""

    def check_counting(self) -> None:
        """Raise BackendError when prompts cannot be counted here before they are sent (a reader
        that cuts text to a token budget needs it)."""

    def check_adapter(self, adapter: str | None) -> None:
        if adapter is not None and adapter not in self.adapters:
            available = ", ".join(self.adapters) or "none loaded"
            raise BackendError(
                f"{self.kind} backend for {self.model}: unknown adapter {adapter!r} (available: {available})"
            )

    def count_tokens(self, messages: Conversation) -> int:
        """Prompt tokens of one conversation as this backend renders it."""
        return len(self._prepare(messages))

    def generate(
        self,
        conversations: list[Conversation],
        sampling: SamplingConfig | None = None,
        *,
        adapter: str | None = None,
    ) -> list[Generation]:
        """One generation per conversation, in order; prompts that do not fit come back flagged."""
        check_conversations(conversations)
        self.check_adapter(adapter)
        sampling = sampling or SamplingConfig()
        self.check_sampling(sampling)
        prompts = [self._prepare(messages) for messages in conversations]
        results: list[Generation | None] = [None] * len(prompts)
        runnable = []
        for index, prompt in enumerate(prompts):
            if prompt is None or fits(len(prompt), sampling, self.max_model_len):
                runnable.append(index)
            else:
                results[index] = prompt_too_long(
                    len(prompt), sampling.max_new_tokens, self.max_model_len, model=self.model
                )
        if runnable:
            chosen = [conversations[i] for i in runnable], [prompts[i] for i in runnable]
            for index, generation in zip(runnable, self._generate(*chosen, sampling, adapter)):
                results[index] = generation
        return results

    def offload(self) -> None:
        """Free the accelerator memory the model holds (weights to host memory) until ``restore``,
        so two models can take turns on one GPU (the serving engine's sequential mode). Both calls
        are idempotent. Backends that cannot do it say so."""
        raise BackendError(f"the {self.kind} backend cannot offload its model; load both agents on the device instead")

    def restore(self) -> None:
        """Bring an offloaded model back onto its device (a no-op when it is there)."""
        raise BackendError(f"the {self.kind} backend cannot offload its model; load both agents on the device instead")

    def close(self) -> None:
        """Release the model and its memory; the backend is unusable afterwards."""

    def __enter__(self) -> GenerationBackend:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()


def evidence_tokens(backend: GenerationBackend) -> Callable[[str], int]:
    """The tokens an evidence text costs in ``backend``'s prompts (the chat template's fixed
    overhead of a one-message conversation left out)."""
    empty = backend.count_tokens([{"role": "user", "content": ""}])
    return lambda text: backend.count_tokens([{"role": "user", "content": text}]) - empty


def evidence_token_budget(backend: GenerationBackend, tokens: int | None) -> tuple[int, Callable[[str], int]] | None:
    """The packer's ``token_budget`` for a context budget of ``tokens`` (None: the preset's B_c)."""
    return None if tokens is None else (tokens, evidence_tokens(backend))
