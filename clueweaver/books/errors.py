"""The error every book loader raises, apart so that the loaders and the decoding of their bytes
(``encoding.py``) share it without importing each other."""

from __future__ import annotations

from clueweaver.core.errors import ClueWeaverError


class NarrativeError(ClueWeaverError, ValueError):
    """A book that cannot be read; the message names the file and the problem."""
