"""Structured (JSON) outputs on any backend: a JSON schema attached where the backend can constrain
decoding to it, and the JSON object read back from a reply in every case.

Constrained decoding is only available on vLLM (offline and ``vllm serve``); elsewhere the model
writes free text, so every reply is read and checked the same way, and an output that does not fit
is an ``OutputRejected`` whose message can be shown back to the model for a retry. Used by the world
model's extractor (``clueweaver.nwm.publish``) and ChronoRAG's index builder (``clueweaver.chrono``).
"""

from __future__ import annotations

import dataclasses
import json
import re
from typing import Any

from clueweaver.backends.base import BackendError, SamplingConfig
from clueweaver.errors import ClueWeaverError

_THINK = re.compile(r"<think>.*?</think>", re.DOTALL)


class OutputRejected(ClueWeaverError, ValueError):
    """A model output that does not fit the shape asked for; the message says what is wrong, for
    the model to read on a retry."""


def constrained(backend, sampling: SamplingConfig, schema: dict) -> SamplingConfig:
    """``sampling`` with the JSON ``schema`` attached when the backend can constrain decoding to it
    (vLLM, ``vllm serve``); unchanged otherwise. The output is validated either way."""
    candidate = dataclasses.replace(sampling, structured_output=False, json_schema=json.dumps(schema))
    try:
        backend.check_sampling(candidate)
    except BackendError:
        return sampling
    return candidate


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
