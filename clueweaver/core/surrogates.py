"""Half of a UTF-16 pair alone: a "character" no encoding writes, so nothing after can encode it.

Python keeps a byte that is not UTF-8 in a command line's arguments as one (surrogateescape), and JSON's
"\\ud800" escape gives one; every place text comes in as text (a question, a JSON record, a config) finds
them here and says where.
"""

from __future__ import annotations

import re

LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def lone_surrogate_at(text: str) -> str | None:
    """Where ``text`` holds its first lone surrogate (``LONE_SURROGATE``), for a message: the code point,
    its position and the characters around it; None when it holds none."""
    found = LONE_SURROGATE.search(text)
    if found is None:
        return None
    start = found.start()
    around = LONE_SURROGATE.sub("\ufffd", text[max(0, start - 20) : start + 21])
    return f'U+{ord(found.group()):04X}, character {start + 1}: "{around}"'
