"""Append-only JSONL files that an interrupted run may have left with a torn last line.

Evaluation predictions, training-data teacher caches and ChronoRAG's group log are all appended
one record a line; a run killed mid-write leaves a partial last line. These two readers are the
one place that line is recognised (on bytes, since the cut may fall inside a UTF-8 character).
"""

from __future__ import annotations

import warnings
from pathlib import Path

from clueweaver.core.errors import ClueWeaverError
from clueweaver.core.utf8 import utf8_failure


class JsonlError(ClueWeaverError, ValueError):
    """An append-only JSONL file whose complete lines are not UTF-8: changed after it was written."""


def jsonl_lines(text: str) -> list[str]:
    """A JSONL text's lines, split at "\\n" only: JSON written with ``ensure_ascii=False`` keeps U+2028,
    U+2029 and U+0085 raw inside its strings, where ``str.splitlines`` would cut a record in two."""
    lines = text.split("\n")
    return lines[:-1] if lines[-1] == "" else lines


def split_torn_tail(path: Path) -> tuple[list[str], int]:
    """The file's complete lines, and the length in bytes of a last line cut off by an
    interruption (0 when there is none). Split on bytes: a cut may fall inside a UTF-8 character,
    which only the complete lines must decode."""
    data = path.read_bytes()
    if not data or data.endswith(b"\n"):
        return jsonl_lines(_decoded(path, data)), 0
    head, newline, tail = data.rpartition(b"\n")
    return jsonl_lines(_decoded(path, head + newline)), len(tail)


def _decoded(path: Path, data: bytes) -> str:
    """Complete lines' bytes as text; bytes that are not UTF-8 were not written by the run."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise JsonlError(
            f"{path}, {utf8_failure(data, exc)}: the file was changed after it was written; restore it, or remove "
            "that line"
        ) from exc


def complete_lines(path: Path) -> list[str]:
    """The complete lines of an append-only file. A last line cut off by an interrupted run is
    also cut from the file (with a warning), so that the next append starts a line of its own."""
    lines, torn = split_torn_tail(path)
    if torn:
        warnings.warn(f"{path}: dropping an incomplete last line left by an interrupted run")
        with open(path, "r+b") as f:
            f.truncate(path.stat().st_size - torn)
    return lines
