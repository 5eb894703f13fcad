"""Backends declare themselves: a new one is one class and one registration, and then loading it by
name, the command line's ``--backend`` and its flags, and the agents' loader all take it."""

from __future__ import annotations

import pytest

from clueweaver.backends import BACKENDS, BackendError, BackendOption, BackendSpec, load_backend, register_backend
from clueweaver.backends.scripted import ScriptedBackend
from clueweaver.cli import build_parser
from clueweaver.cli.common import backend_options_from_args, load_agents_from_args
from clueweaver.core.errors import UsageError
from clueweaver.core.registry import RegistryError
from clueweaver.pipeline.models import DEFAULT_MODEL, load_agents


class ParrotBackend(ScriptedBackend):
    """The toy backend: every reply is its ``reply`` option."""

    kind = "parrot"

    def __init__(self, model: str, *, reply: str = "", adapters: tuple[str, ...] = ()) -> None:
        super().__init__(model, default=reply, adapters=adapters)


PARROT = BackendSpec(
    "parrot", ParrotBackend, options=(BackendOption("reply", "what every reply says"),), serves_by_name=True
)


@pytest.fixture
def parrot():
    register_backend(PARROT)
    yield
    BACKENDS.unregister("parrot")


def parse(*argv: str):
    return build_parser().parse_args(["ask", "book.txt", "--claim", "The lamp went dark.", *argv])


def test_a_registered_backend_is_loaded_by_name(parrot):
    backend = load_backend("parrot", "m", reply="squawk")
    assert isinstance(backend, ParrotBackend) and backend.generate([[{"role": "user", "content": "hi"}]])[0].text == (
        "squawk"
    )
    with pytest.raises(RegistryError, match="backend 'parrot' is already registered"):
        register_backend(PARROT)


def test_its_name_and_its_flags_reach_the_command_line(parrot):
    args = parse("--backend", "parrot", "--reply", "squawk")
    assert backend_options_from_args(args) == {"reply": "squawk"}
    with pytest.raises(UsageError, match="--device applies to --backend hf only"):
        backend_options_from_args(parse("--backend", "parrot", "--device", "cpu"))
    with pytest.raises(UsageError, match="--reply applies to --backend parrot only"):
        backend_options_from_args(parse("--backend", "hf", "--reply", "squawk"))
    agents = load_agents_from_args(args)  # a served model: nothing is looked for on this machine
    assert isinstance(agents.finder, ParrotBackend) and agents.finder.model == DEFAULT_MODEL


def test_the_agents_loader_follows_its_declaration(parrot):
    agents = load_agents("m", "m", backend="parrot", finder_adapter="cw-finder", interpreter_adapter="cw-interpreter")
    assert agents.finder is agents.interpreter and agents.finder.adapters == ("cw-finder", "cw-interpreter")
    assert (agents.finder_adapter, agents.interpreter_adapter) == ("cw-finder", "cw-interpreter")


def test_an_unregistered_backend_is_gone_everywhere():
    with pytest.raises(BackendError, match="unknown backend .parrot."):
        load_backend("parrot", "m")
    with pytest.raises(SystemExit):
        parse("--backend", "parrot")
    with pytest.raises(SystemExit):  # a test double is not offered on the command line
        parse("--backend", "scripted")
