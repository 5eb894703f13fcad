"""The one family of errors ClueWeaver raises on purpose.

Every error the package means a person to read derives from ``ClueWeaverError`` and carries a
message that names what is wrong and what to do, so a command-line entry point catches the base
once and prints the message without a traceback. The classes live beside the code that raises
them (those raised on several layers live here); each also keeps the builtin base callers
already catch (``ValueError``, ``LookupError``, ``RuntimeError``).
"""

from __future__ import annotations


class ClueWeaverError(Exception):
    """Base of every error ClueWeaver raises on purpose; its message is meant for a person."""


class UsageError(ClueWeaverError):
    """A command-line mistake the user can fix; printed without a traceback."""


class EvalError(ClueWeaverError, ValueError):
    """An evaluation run, or a system it builds, that cannot start or resume as asked (the message
    names the folder, the setting and the conflict)."""
