"""Append-only JSONL files that an interrupted run may have left with a torn last line.

Evaluation predictions, training-data teacher caches and ChronoRAG's group log are all appended
one record a line; a run killed mid-write leaves a partial last line. These two readers are the
one place that line is recognised (on bytes, since the cut may fall inside a UTF-8 character).
"""

from __future__ import annotations

import warnings
from pathlib import Path


def split_torn_tail(path: Path) -> tuple[list[str], int]:
    """The file's complete lines, and the length in bytes of a last line cut off by an
    interruption (0 when there is none). Split on bytes: a cut may fall inside a UTF-8 character,
    which only the complete lines must decode."""
    data = path.read_bytes()
    if not data or data.endswith(b"\n"):
        return data.decode("utf-8").splitlines(), 0
    head, newline, tail = data.rpartition(b"\n")
    return head.decode("utf-8").splitlines(), len(tail)


def complete_lines(path: Path) -> list[str]:
    """The complete lines of an append-only file. A last line cut off by an interrupted run is
    also cut from the file (with a warning), so that the next append starts a line of its own."""
    lines, torn = split_torn_tail(path)
    if torn:
        warnings.warn(f"{path}: dropping an incomplete last line left by an interrupted run")
        with open(path, "r+b") as f:
            f.truncate(path.stat().st_size - torn)
    return lines
