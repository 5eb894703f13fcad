"""Questions never wait on another book's indexing: a real server on 127.0.0.1 answers questions on
a short book while a long one is being indexed with an encoder that holds the CPU (and the GIL)
for every paragraph, as a real encoder on a CPU does."""

from __future__ import annotations

import dataclasses
import time

import httpx
import pytest
from encoder_standins import BusyEncoder
from serve_helpers import running_server, serve_config, upload, wait_until_ready

from clueweaver.backends.stand_ins import scripted_reader_backend
from clueweaver.pipeline.models import Agents
from clueweaver.serving.reading_room import ReadingRoom

QUESTION = {
    "question": "Why does Hester conclude that Silas Garrow lied about spending the night of the storm at home?",
    "options": {
        "A": "Mrs. Pell saw him drinking in the back room of the Anchor after midnight.",
        "B": "His umbrella was still wet although he claimed to have been in bed before the rain began.",
    },
}
SECONDS_PER_PARAGRAPH = 0.008
LONG_BOOK_PARAGRAPHS = 1024  # at least 8 s of indexing: four of the old indexer's 256-paragraph chunks
QUESTIONS = 8


def long_book() -> bytes:
    paragraphs = [
        f"Chapter {n // 64 + 1}, scene {n}: the harbour master counted {n * 7} barrels and wrote the number "
        f"in ledger {n % 13} while the tide turned."
        for n in range(LONG_BOOK_PARAGRAPHS)
    ]
    return "\n\n".join(paragraphs).encode()


@pytest.mark.slow  # a fresh interpreter (or a second indexing process) starts: seconds
def test_questions_on_one_book_never_wait_on_another_books_indexing(tmp_path):
    config = dataclasses.replace(serve_config(tmp_path / "data"), encoder=BusyEncoder(SECONDS_PER_PARAGRAPH))
    backend = scripted_reader_backend("keep")
    room = ReadingRoom(config, agents=Agents(backend, backend, notes=["scripted reader"]))
    with running_server(room) as url, httpx.Client(base_url=url, timeout=120) as http:
        short = wait_until_ready(http, upload(http).json()["book_id"], timeout=60)
        long = upload(http, name="ledger.txt", content=long_book()).json()
        deadline = time.monotonic() + 60
        while http.get(f"/api/books/{long['book_id']}").json()["index_status"] != "indexing":
            assert time.monotonic() < deadline, "the long book never started indexing"
            time.sleep(0.02)
        latencies = []
        for _ in range(QUESTIONS):
            started = time.perf_counter()
            answered = http.post(f"/api/books/{short['book_id']}/questions", params={"wait": "true"}, json=QUESTION)
            latencies.append(round(time.perf_counter() - started, 2))
            assert answered.status_code == 200 and answered.json()["status"] == "done", answered.text
        long_now = http.get(f"/api/books/{long['book_id']}").json()
        # every question was answered while the long book was still being indexed
        assert long_now["index_status"] == "indexing", (long_now, latencies)
