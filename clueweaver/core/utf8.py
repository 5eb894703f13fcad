"""Where a file the project reads as data (JSON Lines, CSV) stops being UTF-8, said one way for all of them."""

from __future__ import annotations


def utf8_failure(data: bytes, exc: UnicodeDecodeError) -> str:
    """'line N: not UTF-8 text (byte M: reason)' for ``exc`` raised decoding ``data``: the line a person
    opens the file at, the byte a hex viewer shows."""
    line = data.count(b"\n", 0, exc.start) + 1
    return f"line {line}: not UTF-8 text (byte {exc.start}: {exc.reason})"
