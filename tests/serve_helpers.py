"""A real uvicorn server on 127.0.0.1 (a free port), started in a thread and stopped at the end,
over a reading room with a chosen backend, for the API and browser tests."""

from __future__ import annotations

import socket
import threading
import time
from contextlib import contextmanager
from pathlib import Path

import httpx

from clueweaver.backends.stand_ins import scripted_reader_backend
from clueweaver.core.config import config_from_dict
from clueweaver.pipeline.models import Agents
from clueweaver.serving.config import ServeConfig
from clueweaver.serving.reading_room import ReadingRoom

DEMO_BOOK = Path(__file__).resolve().parents[1] / "clueweaver" / "data" / "demo_mystery.md"


def serve_config(data_dir: Path, **values) -> ServeConfig:
    """A config for tests: BM25 alone (no encoder to load), a short engine wait, small limits."""
    settings = {"data_dir": str(data_dir), "encoder": None, "batching": {"max_wait_ms": 20}, **values}
    return config_from_dict(ServeConfig, settings)


def scripted_room(data_dir: Path, *, calibration: str = "keep", backend=None, **values) -> ReadingRoom:
    backend = backend or scripted_reader_backend(calibration)
    return ReadingRoom(serve_config(data_dir, **values), agents=Agents(backend, backend, notes=["scripted reader"]))


@contextmanager
def running_server(room: ReadingRoom, *, close_room: bool = True, timeout: float = 20.0):
    """Yield the base URL of a uvicorn server over ``room``; stop it (and close the room) after."""
    import uvicorn

    from serve.app import create_app

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(
        create_app(room, room.config), log_level="warning", access_log=False, timeout_graceful_shutdown=2
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + timeout
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the test server did not start")
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout)
        sock.close()
        if close_room:
            room.close()
        assert not thread.is_alive(), "the test server did not stop"


def upload(
    client: httpx.Client,
    path: Path = DEMO_BOOK,
    *,
    name: str | None = None,
    content: bytes | None = None,
    encoding: str | None = None,
    language: str | None = None,
) -> httpx.Response:
    data = path.read_bytes() if content is None else content
    fields = {name: value for name, value in (("encoding", encoding), ("language", language)) if value}
    return client.post(
        "/api/books",
        files={"file": (name or path.name, data, "application/octet-stream")},
        data=fields or None,
    )


def wait_until_ready(client: httpx.Client, book_id: str, timeout: float = 30.0) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        book = client.get(f"/api/books/{book_id}").json()
        if book["index_status"] in ("ready", "failed"):
            return book
        if time.monotonic() > deadline:
            raise TimeoutError(f"{book_id} not indexed: {book}")
        time.sleep(0.02)
