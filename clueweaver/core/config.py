"""Configuration as data: a YAML file read into a dataclass, and any field overridable on the
command line.

``load_config(Cls, "recipe.yaml", {"teacher.model": "x"})`` reads the file, applies overrides by
dotted path and has pydantic check every value against the dataclass's field types (nested
dataclasses and lists of them included), so a typo in a key or a wrong type fails with the field's
full name instead of surfacing later as a strange result. ``parse_config(Cls, argv)`` builds the
command line: ``--config FILE`` plus one flag per field (``--max-prompt-tokens 4096``,
``--teacher.model NAME``, a bare ``--skip-bad`` for booleans), with the field's description as its
help. A text field takes the flag's text as given (``--host ::``, ``--token 123456``); other flag
values are read as YAML, so ``--sources '[{name: nocha}]'`` and ``--encoder null`` work.

A field whose default is a dataclass instance takes a mapping of overrides on top of that default
(``finder_sampling: {temperature: 0.7}`` keeps the default's other settings, not the class's); a
field marked ``named(lookup)`` also takes a name, or a mapping of overrides on top of the instance
its ``base`` key names (``preset: {base: focused, char_budget: 3000}``).
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import typing
from pathlib import Path
from typing import Any, Callable, Sequence, TypeVar

import yaml
from pydantic import ConfigDict, TypeAdapter, ValidationError

from clueweaver.core.errors import ClueWeaverError
from clueweaver.core.validation import describe_errors, join_path, validate_plain

T = TypeVar("T")
_ROOT = "config"  # the ``where`` of a whole config: its fields are named bare (``target_samples``)
_MISSING = object()
_NAMED = "clueweaver.core.config.named"  # field metadata key: the lookup of a value given by name


class ConfigError(ClueWeaverError, ValueError):
    """A configuration file or override that does not fit its dataclass; names the field."""


@functools.cache
def _adapter(cls: type) -> TypeAdapter:
    """pydantic's validator of ``cls`` that refuses unknown keys at every level. TypeAdapter takes
    settings only for a type that cannot carry its own, which a dataclass can and its Optional
    cannot; ``config_from_dict`` reads None as no settings before it gets here."""
    return TypeAdapter(cls | None, config=ConfigDict(extra="forbid"))


def _prefix(where: str) -> str:
    """The path the fields under ``where`` are named from: none for a whole config."""
    return "" if where == _ROOT else where


def named(lookup: Callable[[str], Any]) -> dict:
    """Field metadata for a value chosen by name: ``lookup(name)`` gives the instance; a mapping
    overrides the fields of the instance its ``base`` key names (the field's default when left
    out). ``field(default="detectiveqa", metadata=named(get_preset))``."""
    return {_NAMED: lookup}


def config_from_dict(cls: type[T], data: Any, where: str = _ROOT, *, base: T | None = None) -> T:
    """Build dataclass ``cls`` from a mapping; unknown keys, missing required fields and wrong
    types raise a ConfigError naming the field. With ``base`` (an instance of ``cls``) the mapping
    overrides base's fields instead of the class defaults."""
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise ConfigError(f"{where}: expected a mapping of {cls.__name__} fields, got {data!r}")
    fields = {f.name: f for f in dataclasses.fields(cls) if f.init}
    settings = _init_values(base)
    for name, value in data.items():  # an unknown name goes to pydantic as given, to be named with the others
        settings[name] = _field_value(value, fields[name], where) if name in fields else value
    try:
        return validate_plain(_adapter(cls), settings)
    except ValidationError as exc:
        raise ConfigError(describe_errors(exc, settings, where, prefix=_prefix(where))) from None
    except (TypeError, ValueError) as exc:  # a __post_init__'s TypeError, or a value with no plain-data form
        raise ConfigError(f"{where}: {exc}") from exc


def _init_values(instance: Any) -> dict:
    """The fields ``instance`` was built from (none for None)."""
    if instance is None:
        return {}
    return {f.name: getattr(instance, f.name) for f in dataclasses.fields(instance) if f.init}


def _field_value(value: Any, field: dataclasses.Field, where: str) -> Any:
    """``value`` for ``field``: the instance it names where the field is ``named``; a mapping on
    top of the field's default where that default is a dataclass instance; else as given, for
    pydantic to check."""
    label = join_path(_prefix(where), field.name)
    lookup = field.metadata.get(_NAMED)
    if lookup is not None and isinstance(value, (str, dict)):
        return _named_value(lookup, value, field.default, label)
    default = field.default
    if isinstance(value, dict) and dataclasses.is_dataclass(default) and not isinstance(default, type):
        return config_from_dict(type(default), value, label, base=default)
    return value


def _named_value(lookup: Callable[[str], Any], value: str | dict, default: Any, where: str) -> Any:
    """The instance ``value`` names, or the one its ``base`` names (``default`` when left out)
    with its other keys as overrides."""
    overrides = dict(value) if isinstance(value, dict) else {"base": value}
    try:
        instance = lookup(overrides.pop("base", default))
    except (TypeError, ValueError) as exc:
        raise ConfigError(f"{where}: {exc}") from exc
    return config_from_dict(type(instance), overrides, where, base=instance) if overrides else instance


def config_to_dict(config: Any) -> dict:
    """Plain data (YAML-writable) of a config dataclass."""
    return dataclasses.asdict(config)


def _set_dotted(data: dict, dotted: str, value: Any) -> None:
    *parents, last = dotted.split(".")
    node = data
    for part in parents:
        child = node.get(part)
        if child is None:
            child = node[part] = {}
        if not isinstance(child, dict):
            raise ConfigError(f"override {dotted}: {part!r} is not a mapping")
        node = child
    node[last] = value


def read_yaml_mapping(path: str | Path, what: str) -> dict:
    """The mapping at the top of the YAML file ``path`` (empty for an empty file); a ConfigError
    that names the file when it is missing, not YAML, or not a mapping of ``what``."""
    path = Path(path)
    if not path.is_file():
        raise ConfigError(f"config file {path} does not exist")
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except yaml.YAMLError as exc:
        raise ConfigError(f"{path}: not valid YAML ({exc})") from exc
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: expected a mapping of {what} at the top level")
    return data


def load_config(cls: type[T], path: str | Path | None = None, overrides: dict[str, Any] | None = None) -> T:
    """``cls`` from the YAML file ``path`` (its fields' defaults when None), with ``overrides``
    (dotted field paths to values) applied on top."""
    data = read_yaml_mapping(path, f"{cls.__name__} fields") if path is not None else {}
    for dotted, value in (overrides or {}).items():
        _set_dotted(data, dotted, value)
    try:
        return config_from_dict(cls, data)
    except ConfigError as exc:
        raise ConfigError(f"{Path(path)}: {exc}" if path else str(exc)) from exc


def _flag_fields(cls: type, prefix: str = "") -> list[tuple[str, Any, dataclasses.Field]]:
    """(dotted name, type, field) of every field, nested dataclass fields included under their parent."""
    hints = typing.get_type_hints(cls)
    found = []
    for field in dataclasses.fields(cls):
        name, tp = prefix + field.name, hints[field.name]
        if dataclasses.is_dataclass(tp):
            found.extend(_flag_fields(tp, name + "."))
        else:
            found.append((name, tp, field))
    return found


def _yaml_value(text: str) -> Any:
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError:
        return text


def _text_or_null(text: str) -> str | None:
    return None if _yaml_value(text) is None else text


def _flag_reader(tp: Any) -> Callable[[str], Any]:
    """How a flag's text becomes the value of a field of type ``tp``. A text field takes it as
    given: read as YAML, ``::`` is not text and ``123456`` is a number. ``null`` still clears an
    optional text field; any other field reads the text as YAML (numbers, lists, mappings)."""
    if tp is str:
        return str
    if tp == str | None:
        return _text_or_null
    return _yaml_value


def add_config_arguments(parser: argparse.ArgumentParser, cls: type) -> None:
    """``--config FILE`` and one override flag per field of ``cls`` (see the module docstring)."""
    parser.add_argument("--config", help=f"YAML file of {cls.__name__} fields")
    group = parser.add_argument_group("overrides (any field of the config; text as given, other values as YAML)")
    for name, tp, field in _flag_fields(cls):
        flags = [f"--{name.replace('_', '-')}"] + ([f"--{name}"] if "_" in name else [])
        kwargs: dict[str, Any] = {"dest": f"override:{name}", "default": _MISSING, "metavar": "VALUE"}
        if tp is bool:
            kwargs.update(nargs="?", const=True)
        group.add_argument(*flags, type=_flag_reader(tp), help=field.metadata.get("description"), **kwargs)


def config_from_args(cls: type[T], args: argparse.Namespace) -> T:
    overrides = {
        key.partition(":")[2]: value
        for key, value in vars(args).items()
        if key.startswith("override:") and value is not _MISSING
    }
    return load_config(cls, args.config, overrides)


def parse_config(cls: type[T], argv: Sequence[str] | None = None, *, description: str | None = None) -> T:
    """Parse ``--config FILE`` and field overrides from ``argv`` into ``cls``; a bad value exits
    with a usage error naming the field."""
    parser = argparse.ArgumentParser(description=description)
    add_config_arguments(parser, cls)
    args = parser.parse_args(argv)
    try:
        return config_from_args(cls, args)
    except ConfigError as exc:
        parser.error(str(exc))
