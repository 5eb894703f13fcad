"""The server over a real model: the tiny random Qwen3 (real tokenizer and chat template) on the
transformers backend, loaded from its folder by the server's own model loading, through a real
uvicorn server. Random weights write noise, so answers are flagged fallbacks; what is checked is
the plumbing: real prompts, one engine merging the questions' calls, every question its own."""

from __future__ import annotations

import threading

import httpx
import pytest
from serve_helpers import running_server, serve_config, upload, wait_until_ready

from clueweaver.serving.reading_room import ReadingRoom

QUESTIONS = [
    {"question": "Who hid the wages in the signal lantern?", "options": {"A": "Tobias Wren", "B": "Silas Garrow"}},
    {
        "question": "Where was the umbrella left to dry?",
        "options": {"A": "In the hall", "B": "On the quay", "C": "At the Anchor"},
    },
    {"kind": "claim", "question": "The church clock struck eleven when the rain began.", "max_chapter": 3},
]


@pytest.mark.slow
def test_questions_on_the_tiny_model_share_the_engine_and_keep_their_own_answers(tmp_path, tiny_qwen3_path):
    config = serve_config(
        tmp_path / "data",
        models={
            "backend": "hf",
            "finder": str(tiny_qwen3_path),
            "interpreter": str(tiny_qwen3_path),
            "options": {"device": "cpu"},
        },
        pipeline={
            "preset": "focused",
            "finder_sampling": {"max_new_tokens": 8},
            "interpreter_sampling": {"max_new_tokens": 8},
        },
        batching={"max_wait_ms": 400},  # long enough for all three questions' Finder calls to meet
    )
    room = ReadingRoom(config)
    assert room.agents.finder is room.agents.interpreter and room.agents.finder.kind == "hf"
    with running_server(room) as url, httpx.Client(base_url=url, timeout=120) as http:
        book_id = wait_until_ready(http, upload(http).json()["book_id"])["book_id"]
        responses = {}

        def ask(n: int) -> None:
            with httpx.Client(base_url=url, timeout=120) as own:
                responses[n] = own.post(f"/api/books/{book_id}/questions", params={"wait": "true"}, json=QUESTIONS[n])

        threads = [threading.Thread(target=ask, args=(n,)) for n in range(len(QUESTIONS))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(180)
        assert not any(thread.is_alive() for thread in threads)

    for n, question in enumerate(QUESTIONS):
        record = responses[n].json()
        assert responses[n].status_code == 200 and record["status"] == "done", record
        result, trace = record["result"], record["result"]["trace"]
        assert trace["question"]["text"] == question["question"]
        labels = ("TRUE", "FALSE") if question.get("kind") == "claim" else tuple(question["options"])
        assert result["answer"] in labels
        assert result["fallback"] == (not result["answer_legal"])
        assert trace["config"]["finder_model"] == str(tiny_qwen3_path)
        # real chat-templated prompts, outputs capped by the configured sampling
        assert all(
            s["finder"]["prompt_tokens"] > 300 and s["finder"]["completion_tokens"] <= 8 for s in trace["segments"]
        )
    assert responses[2].json()["result"]["trace"]["reading_limit"]["max_chapter"] == 3
    stats = room.engine.stats
    assert stats.merged_calls >= 1 and stats.calls < stats.requests
    finder_call = max(room.engine.recent_calls, key=lambda call: call.conversations)
    assert len(set(finder_call.tags)) >= 2  # one generate call held segments of several questions
