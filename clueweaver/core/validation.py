"""Plain data (YAML settings, parsed JSON records) checked against dataclasses by pydantic, and
pydantic's complaints turned into one line a person can act on: each problem under the full
path of the field it is about (``sources[0].limit: expected an integer, got 'three'``).
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

from pydantic import TypeAdapter, ValidationError
from pydantic_core import PydanticCustomError, to_json, to_jsonable_python

from clueweaver.core.surrogates import lone_surrogate_at

T = TypeVar("T")

# What a field of each pydantic type check wanted, for "expected ..., got ...".
_EXPECTED = {
    "int_type": "an integer",
    "float_type": "a number",
    "bool_type": "true or false",
    "string_type": "a string",
    "list_type": "a list",
    "tuple_type": "a list",
    "dict_type": "a mapping",
    "none_required": "null",
}
_BOUNDS = {
    "greater_than_equal": ("ge", ">="),
    "greater_than": ("gt", ">"),
    "less_than_equal": ("le", "<="),
    "less_than": ("lt", "<"),
}
_MISSING = {"missing", "missing_keyword_only_argument", "missing_argument"}
_UNKNOWN = {"unexpected_keyword_argument", "extra_forbidden"}


def described(text: str, default: Any = dataclasses.MISSING, *, factory: Any = dataclasses.MISSING, **metadata):
    """A dataclass field with a description, which pydantic puts in the schema and a config's
    command line shows as the flag's help: ``port: int = described("port to listen on", 8000)``."""
    return dataclasses.field(default=default, default_factory=factory, metadata={"description": text, **metadata})


def validate_plain(adapter: TypeAdapter[T], data: Any) -> T:
    """``data`` checked and built as ``adapter``'s type with JSON's types: an integer field refuses
    "3", true and 3.5, a number field refuses true, a text field refuses 7. That is pydantic's strict
    mode on JSON text; on Python objects strict mode would also refuse a mapping for a dataclass
    and a list for a tuple, which is all YAML and JSON can give, so the data goes through JSON."""
    message = "holds a lone surrogate ({where}), half of a character"
    refused = [
        {"type": PydanticCustomError("lone_surrogate", message, {"where": where}), "loc": loc, "input": value}
        for loc, value, where in _lone_surrogates(data)
    ]
    if refused:  # JSON cannot hold them: to_json would fail on them, naming no field
        raise ValidationError.from_exception_data("plain data", refused)
    return adapter.validate_json(to_json(data), strict=True)


def _lone_surrogates(data: Any, loc: tuple = ()) -> list[tuple[tuple, str, str]]:
    """(loc, text, where) of each key or text in plain data that holds a lone surrogate."""
    if isinstance(data, str):
        where = lone_surrogate_at(data)
        return [(loc, data, where)] if where else []
    if isinstance(data, dict):
        keys = [(loc + (key,), key, lone_surrogate_at(key)) for key in data if isinstance(key, str)]
        found = [entry for entry in keys if entry[2]]
        return found + [entry for key, value in data.items() for entry in _lone_surrogates(value, loc + (key,))]
    if isinstance(data, (list, tuple)):
        return [entry for index, value in enumerate(data) for entry in _lone_surrogates(value, loc + (index,))]
    return []


def join_path(prefix: str, *parts: str | int) -> str:
    """``prefix`` followed by field names (``.name``) and list positions (``[2]``)."""
    path = prefix
    for part in parts:
        path += f"[{part}]" if isinstance(part, int) else f".{part}" if path else str(part)
    return path


def describe_errors(error: ValidationError, data: Any, where: str, *, prefix: str | None = None) -> str:
    """Every problem pydantic found in ``data``, ``"; "``-joined, each as ``path: what is wrong``.
    Paths start at ``prefix`` (``where`` when None; "" for bare field names); a problem with the
    whole value (a cross-field rule, not a mapping) is put under ``where``. The unknown keys of one
    mapping are named together, and so are the types a value of a union could have had."""
    prefix = where if prefix is None else prefix
    try:
        plain = to_jsonable_python(data)
    except UnicodeEncodeError:  # a key with a lone surrogate (``validate_plain`` names it): already plain data
        plain = data
    unknown: dict[str, list[str]] = {}
    wanted: dict[str, tuple[Any, list[str]]] = {}
    lines = []
    for item in error.errors():
        parts = _data_path(item["loc"], plain, keep_last=item["type"] in _MISSING | _UNKNOWN)
        path = join_path(prefix, *parts) or where
        if item["type"] in _UNKNOWN:
            unknown.setdefault(join_path(prefix, *parts[:-1]) or where, []).append(str(parts[-1]))
        elif (expected := _wanted(item)) is not None:
            wanted.setdefault(path, (item["input"], []))[1].append(expected)
        else:
            lines.append(f"{path}: {_problem(item)}")
    lines[:0] = [f"{path}: expected {' or '.join(types)}, got {got!r}" for path, (got, types) in wanted.items()]
    lines[:0] = [f"{path}: unknown field(s) {', '.join(names)}" for path, names in unknown.items()]
    return "; ".join(lines)


def _data_path(loc: tuple, data: Any, *, keep_last: bool) -> list[str | int]:
    """The field names and list positions of ``loc`` in ``data``. An error inside a union has the
    member type's name in its loc (``('preset', 'str')``); that name is no key of the data and is
    left out. The last part of a missing or unknown field's loc is the field itself."""
    path: list[str | int] = []
    for index, part in enumerate(loc):
        if isinstance(part, int) and isinstance(data, list) and part < len(data):
            path.append(part)
            data = data[part]
        elif isinstance(data, dict) and part in data:
            path.append(part)
            data = data[part]
        elif keep_last and index == len(loc) - 1:
            path.append(part)
    return path


def _wanted(item: dict) -> str | None:
    """What a value of the wrong type should have been, in words; None for other problems."""
    if item["type"] == "dataclass_type":
        return f"a mapping of {item['ctx']['class_name']} fields"
    return _EXPECTED.get(item["type"])


def _problem(item: dict) -> str:
    """What is wrong with a value of the right type, in words."""
    kind, got, ctx = item["type"], item.get("input"), item.get("ctx") or {}
    if kind in _BOUNDS:
        key, sign = _BOUNDS[kind]
        return f"must be {sign} {ctx[key]}, got {got!r}"
    if kind in _MISSING:
        return "missing (a required field)"
    if kind in ("literal_error", "enum"):
        return f"{got!r} is not one of {ctx['expected']}"
    if kind == "string_too_short" and ctx.get("min_length") == 1:
        return "must not be empty"
    if kind in ("value_error", "assertion_error"):
        return str(ctx["error"])
    if kind == "lone_surrogate":
        return item["msg"]
    return f"{item['msg']}, got {got!r}"
