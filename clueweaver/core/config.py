"""Configuration as data: a YAML file read into a dataclass, and any field overridable on the
command line.

``load_config(Cls, "recipe.yaml", {"teacher.model": "x"})`` reads the file, applies overrides by
dotted path and checks every value against the dataclass's field types (nested dataclasses and
lists of them included), so a typo in a key or a wrong type fails with the field's full name
instead of surfacing later as a strange result. ``parse_config(Cls, argv)`` builds the command
line: ``--config FILE`` plus one flag per field (``--max-prompt-tokens 4096``,
``--teacher.model NAME``, a bare ``--skip-bad`` for booleans); flag values are read as YAML, so
``--sources '[{name: nocha}]'`` and ``--encoder null`` work.

A field whose default is a dataclass instance takes a mapping of overrides on top of that default
(``finder_sampling: {temperature: 0.7}`` keeps the default's other settings, not the class's); a
field marked ``named(lookup)`` also takes a name, or a mapping of overrides on top of the instance
its ``base`` key names (``preset: {base: focused, char_budget: 3000}``).
"""

from __future__ import annotations

import argparse
import dataclasses
import types
import typing
from pathlib import Path
from typing import Any, Callable, Sequence, TypeVar

import yaml

from clueweaver.core.errors import ClueWeaverError

T = TypeVar("T")
_MISSING = object()
_NAMED = "clueweaver.core.config.named"  # field metadata key: the lookup of a value given by name


class ConfigError(ClueWeaverError, ValueError):
    """A configuration file or override that does not fit its dataclass; names the field."""


def _type_name(tp: Any) -> str:
    return getattr(tp, "__name__", None) or str(tp).replace("typing.", "")


def _coerce(value: Any, tp: Any, where: str) -> Any:
    """``value`` checked (and, for dataclasses, built) against the annotation ``tp``."""
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if tp is Any:
        return value
    if origin in (typing.Union, types.UnionType):
        if value is None and type(None) in args:
            return None
        errors = []
        for option in (a for a in args if a is not type(None)):
            try:
                return _coerce(value, option, where)
            except ConfigError as exc:
                errors.append(str(exc))
        raise ConfigError(errors[0] if len(errors) == 1 else f"{where}: {value!r} fits none of {_type_name(tp)}")
    if dataclasses.is_dataclass(tp):
        if isinstance(value, tp):
            return value
        return config_from_dict(tp, value, where)
    if origin in (list, tuple, Sequence) or tp in (list, tuple):
        if not isinstance(value, (list, tuple)):
            raise ConfigError(f"{where}: expected a list, got {value!r}")
        item_type = args[0] if args else Any
        items = [_coerce(v, item_type, f"{where}[{i}]") for i, v in enumerate(value)]
        return tuple(items) if (origin or tp) is tuple else items
    if origin is dict or tp is dict:
        if not isinstance(value, dict):
            raise ConfigError(f"{where}: expected a mapping, got {value!r}")
        value_type = args[1] if len(args) == 2 else Any
        return {k: _coerce(v, value_type, f"{where}.{k}") for k, v in value.items()}
    if tp is bool:
        if not isinstance(value, bool):
            raise ConfigError(f"{where}: expected true or false, got {value!r}")
        return value
    if tp is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ConfigError(f"{where}: expected an integer, got {value!r}")
        return value
    if tp is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ConfigError(f"{where}: expected a number, got {value!r}")
        return float(value)
    if tp is str:
        if not isinstance(value, str):
            raise ConfigError(f"{where}: expected a string, got {value!r}")
        return value
    if tp is type(None):
        if value is not None:
            raise ConfigError(f"{where}: expected null, got {value!r}")
        return None
    raise ConfigError(f"{where}: unsupported field type {_type_name(tp)}")


def named(lookup: Callable[[str], Any]) -> dict:
    """Field metadata for a value chosen by name: ``lookup(name)`` gives the instance; a mapping
    overrides the fields of the instance its ``base`` key names (the field's default when left
    out). ``field(default="detectiveqa", metadata=named(get_preset))``."""
    return {_NAMED: lookup}


def config_from_dict(cls: type[T], data: Any, where: str = "config", *, base: T | None = None) -> T:
    """Build dataclass ``cls`` from a mapping; unknown keys, missing required fields and wrong
    types raise a ConfigError naming the field. With ``base`` (an instance of ``cls``) the mapping
    overrides base's fields instead of the class defaults."""
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise ConfigError(f"{where}: expected a mapping of {cls.__name__} fields, got {data!r}")
    hints = typing.get_type_hints(cls)
    fields = {f.name: f for f in dataclasses.fields(cls) if f.init}
    unknown = sorted(set(data) - set(fields))
    if unknown:
        raise ConfigError(f"{where}: unknown field(s) {', '.join(unknown)}; {cls.__name__} has {', '.join(fields)}")
    values = {}
    for name, field in fields.items():
        if name in data:
            label = f"{where}.{name}" if where != "config" else name
            values[name] = _field_value(data[name], hints[name], field, label)
        elif base is None and field.default is dataclasses.MISSING and field.default_factory is dataclasses.MISSING:
            raise ConfigError(f"{where}: the field {name!r} is required")
    try:
        return dataclasses.replace(base, **values) if base is not None else cls(**values)
    except (TypeError, ValueError) as exc:
        raise ConfigError(f"{where}: {exc}") from exc


def _field_value(value: Any, tp: Any, field: dataclasses.Field, where: str) -> Any:
    """``value`` for ``field``: by name where the field is ``named``; a mapping on top of the
    field's default where that default is a dataclass instance; else checked against ``tp``."""
    lookup = field.metadata.get(_NAMED)
    if lookup is not None and isinstance(value, (str, dict)):
        return _named_value(lookup, value, field.default, where)
    default = field.default
    if isinstance(value, dict) and dataclasses.is_dataclass(default) and not isinstance(default, type):
        return config_from_dict(type(default), value, where, base=default)
    return _coerce(value, tp, where)


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


def _flag_fields(cls: type, prefix: str = "") -> list[tuple[str, Any]]:
    """(dotted name, type) of every field, nested dataclass fields included under their parent."""
    hints = typing.get_type_hints(cls)
    found = []
    for field in dataclasses.fields(cls):
        name, tp = prefix + field.name, hints[field.name]
        if dataclasses.is_dataclass(tp):
            found.extend(_flag_fields(tp, name + "."))
        else:
            found.append((name, tp))
    return found


def _yaml_value(text: str) -> Any:
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError:
        return text


def add_config_arguments(parser: argparse.ArgumentParser, cls: type) -> None:
    """``--config FILE`` and one override flag per field of ``cls`` (see the module docstring)."""
    parser.add_argument("--config", help=f"YAML file of {cls.__name__} fields")
    group = parser.add_argument_group("overrides (any field of the config; values are read as YAML)")
    for name, tp in _flag_fields(cls):
        flags = [f"--{name.replace('_', '-')}"] + ([f"--{name}"] if "_" in name else [])
        kwargs: dict[str, Any] = {"dest": f"override:{name}", "default": _MISSING, "metavar": "VALUE"}
        if tp is bool:
            kwargs.update(nargs="?", const=True)
        group.add_argument(*flags, type=_yaml_value, **kwargs)


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
