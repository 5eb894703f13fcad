"""The scripted test double behaves like a backend: rules, limits, flags and a call log."""

from __future__ import annotations

import pytest

from clueweaver.backends import (
    FINISH_LENGTH,
    FINISH_PROMPT_TOO_LONG,
    FINISH_STOP,
    BackendError,
    SamplingConfig,
    load_backend,
)

FINDER = [
    {"role": "system", "content": "You are the Finder."},
    {"role": "user", "content": "[4] The key was in the vase."},
]
INTERPRETER = [
    {"role": "system", "content": "You are the Interpreter."},
    {"role": "user", "content": "Who took the key?"},
]


def test_rules_in_order_then_default_and_call_log():
    backend = load_backend(
        "scripted",
        "agents",
        script=[
            (r"Finder", "<reason>[4] mentions it</reason><answer>YES</answer>"),
            (r"key", lambda m: f"{len(m)} messages"),
        ],
        default="<answer>NO</answer>",
        adapters=("finder",),
    )
    other = [{"role": "user", "content": "Describe the weather."}]
    results = backend.generate([FINDER, INTERPRETER, other], adapter="finder")
    assert [g.text for g in results] == [
        "<reason>[4] mentions it</reason><answer>YES</answer>",
        "2 messages",
        "<answer>NO</answer>",
    ]
    assert results[0].prompt_tokens == backend.count_tokens(FINDER) == 11
    assert results[0].completion_tokens == 3 and results[0].finish_reason == FINISH_STOP
    (call,) = backend.calls
    assert call.conversations == [FINDER, INTERPRETER, other] and call.adapter == "finder"
    assert call.sampling == SamplingConfig()


def test_callable_script_sees_the_adapter():
    backend = load_backend(
        "scripted",
        "agents",
        script=lambda messages, adapter: f"{adapter}:{messages[-1]['content']}",
        adapters=("interpreter",),
    )
    assert backend.generate([INTERPRETER], adapter="interpreter")[0].text == "interpreter:Who took the key?"
    with pytest.raises(BackendError, match="unknown adapter 'finder'"):
        backend.generate([INTERPRETER], adapter="finder")


def test_limits_behave_like_a_model():
    backend = load_backend("scripted", "agents", default="one two three four five </answer> six", max_model_len=16)
    (cut,) = backend.generate([INTERPRETER], SamplingConfig(max_new_tokens=3))
    assert (cut.text, cut.completion_tokens, cut.finish_reason) == ("one two three", 3, FINISH_LENGTH)
    (stopped,) = backend.generate([INTERPRETER], SamplingConfig(max_new_tokens=7, stop=("</answer>",)))
    assert stopped.text == "one two three four five " and stopped.finish_reason == FINISH_STOP
    (flagged,) = backend.generate([INTERPRETER], SamplingConfig(max_new_tokens=9))
    assert flagged.finish_reason == FINISH_PROMPT_TOO_LONG and flagged.prompt_tokens == 8 and not flagged.ok
