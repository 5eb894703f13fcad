"""Each backend declares itself once, in its own module: its name, how it is built, the command-line
flags it takes and what the layers above must do differently for it.

The command line's ``--backend`` choices and backend flags (``clueweaver.cli.common``) and the agents'
loader (``clueweaver.pipeline.models``) read these declarations instead of naming backends, so a new
backend is one class and one ``register_backend`` call.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from clueweaver.backends.base import BackendError, GenerationBackend
from clueweaver.core.registry import Registry, RegistryError


@dataclass(frozen=True)
class BackendOption:
    """A backend option a person may give on the command line: ``name`` (``base_url``) is both the
    flag (``--base-url``) and the keyword the backend is built with. Backends that take the same
    option share one declaration, so the flag has one help text. ``repeatable``: the flag may be
    given several times and the backend gets the list (several servers)."""

    name: str
    help: str
    metavar: str | None = None
    repeatable: bool = False

    @property
    def flag(self) -> str:
        return "--" + self.name.replace("_", "-")


# The one option two backends share: declared here, so ``--tokenizer`` has one help text.
TOKENIZER_OPTION = BackendOption(
    "tokenizer",
    "the model's tokenizer when it is not beside the model (a local folder, or a Hugging Face id in the local "
    "cache); with --backend openai it counts tokens before sending, which the direct reader needs",
    metavar="NAME|PATH",
)


@dataclass(frozen=True)
class BackendSpec:
    """One backend as the rest of ClueWeaver sees it.

    ``build(model, **options)`` makes it (its keyword-only parameters are the options it accepts).
    ``serves_by_name``: the model and LoRA adapters are names a server already serves, so nothing is
    checked on this machine and an agent's adapter is asked for by its served name; otherwise the
    model is a checkpoint loaded here and adapters are folders applied to it, one per agent.
    ``offline_smoke_model``: the offline smoke model may stand in for models that cannot be loaded.
    ``offload_options``: options that let it offload its weights when two models take turns.
    ``on_command_line``: offered as ``--backend`` (a test double is not).
    ``item_concurrency``: how many benchmark items ``eval`` answers at once by default: a server or an
    engine that batches concurrent calls is kept busy by several, a model on one device by one.
    """

    name: str
    build: Callable[..., GenerationBackend]
    options: tuple[BackendOption, ...] = ()
    serves_by_name: bool = False
    offline_smoke_model: bool = False
    offload_options: Mapping[str, Any] = field(default_factory=dict)
    on_command_line: bool = True
    item_concurrency: int = 1


BACKENDS: Registry[BackendSpec] = Registry("backend")


def register_backend(spec: BackendSpec) -> None:
    """Make ``spec`` a backend under its name (a name taken twice is an error)."""
    BACKENDS.register(spec.name, spec)


def backend_spec(kind: str) -> BackendSpec:
    """The declaration of backend ``kind``; an unknown one is a ``BackendError`` naming the known ones."""
    try:
        return BACKENDS.get(kind)
    except RegistryError as exc:
        raise BackendError(str(exc)) from None


def command_line_backends() -> tuple[str, ...]:
    """The backends a person may choose with ``--backend``, in registration order."""
    return tuple(name for name in BACKENDS.names() if BACKENDS.get(name).on_command_line)


def command_line_options() -> dict[BackendOption, tuple[str, ...]]:
    """Each command-line backend option and the backends that take it (sorted, for messages)."""
    takers: dict[BackendOption, list[str]] = {}
    for name in command_line_backends():
        for option in BACKENDS.get(name).options:
            takers.setdefault(option, []).append(name)
    return {option: tuple(sorted(names)) for option, names in takers.items()}
