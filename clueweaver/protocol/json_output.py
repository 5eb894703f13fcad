"""A JSON object read back from a model's reply, and the error that tells the model what was wrong.

Part of the protocol because what counts as a readable structured reply is the same for every
backend and every extractor (the world model's, ChronoRAG's); backends only decide whether
decoding can be constrained (``clueweaver.backends.structured``).
"""

from __future__ import annotations

import json
import re
from typing import Any

from clueweaver.core.errors import ClueWeaverError

_THINK = re.compile(r"<think>.*?</think>", re.DOTALL)


class OutputRejected(ClueWeaverError, ValueError):
    """A model output that does not fit the shape asked for; the message says what is wrong, for
    the model to read on a retry."""


def json_object(text: str) -> Any:
    """The outermost ``{...}`` of a reply (a thinking block dropped), parsed; an OutputRejected
    when there is none or it is not JSON."""
    body = _THINK.sub("", text)
    start, end = body.find("{"), body.rfind("}")
    if start < 0 or end < start:
        raise OutputRejected("the output holds no JSON object")
    try:
        return json.loads(body[start : end + 1])
    except json.JSONDecodeError as exc:
        raise OutputRejected(f"the output is not valid JSON ({exc.msg} at character {exc.pos})") from None
