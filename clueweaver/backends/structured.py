"""Structured (JSON) outputs on any backend: a JSON schema attached where the backend can constrain
decoding to it (the reply is read back by ``clueweaver.protocol.json_output`` in every case).

Constrained decoding is only available on vLLM (offline and ``vllm serve``); elsewhere the model
writes free text, so every reply is read and checked the same way, and an output that does not fit
is an ``OutputRejected`` whose message can be shown back to the model for a retry. Used by the world
model's extractor (``clueweaver.nwm.publish``) and ChronoRAG's index builder (``clueweaver.chrono``).
"""

from __future__ import annotations

import dataclasses
import json

from clueweaver.backends.base import BackendError, SamplingConfig


def constrained(backend, sampling: SamplingConfig, schema: dict) -> SamplingConfig:
    """``sampling`` with the JSON ``schema`` attached when the backend can constrain decoding to it
    (vLLM, ``vllm serve``); unchanged otherwise. The output is validated either way."""
    candidate = dataclasses.replace(sampling, structured_output=False, json_schema=json.dumps(schema))
    try:
        backend.check_sampling(candidate)
    except BackendError:
        return sampling
    return candidate
