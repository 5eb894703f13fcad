"""The ClueWeaver local server: a thin HTTP shell over ``clueweaver.serving.reading_room``.

Routes (JSON unless said otherwise; every error is ``{"error": code, "detail": message}`` with a
4xx status and a message a person can act on):

    GET    /                               the reading room page (serve/static, works offline)
    GET    /health                         status, models; library counts and engine statistics
                                           (with the token, when the server has one)
    GET    /docs, /openapi.json            the API, browsable (Swagger UI served from the
                                           fastapi-offline package: no CDN, works offline)
    GET    /api/presets                    reading presets and the server's limits
    GET    /api/books                      the library
    POST   /api/books                      upload a book (multipart field "file": .txt, .md, .html, .epub,
                                           .fb2, TEI .xml, .docx, .odt, .pdf, .zip;
                                           optional fields "encoding" for a text that is not UTF-8
                                           and "language" to name the book's instead of detecting it)
    GET    /api/books/{book_id}            one book, with its indexing status and progress
    DELETE /api/books/{book_id}            remove a book, its indexes and its past questions
    GET    /api/books/{book_id}/chapters
    GET    /api/books/{book_id}/paragraphs?start=&end=
    GET    /api/books/{book_id}/questions  past questions, newest first
    POST   /api/books/{book_id}/questions  ask (202 + question ID; ?wait=true answers in the response)
    GET    /api/questions/{question_id}    a question with its answer, citations, packet and trace
    GET    /api/questions/{question_id}/events   progress as server-sent events

Everything under /api needs ``Authorization: Bearer TOKEN`` when the server has a token, which it
must have whenever it listens beyond the loopback interface. Every request is logged with its
status and duration.

The routes sit in ``serve.routers`` (books, questions, status) with their bodies in
``serve.models``; they read the reading room from ``app.state`` (``serve.deps``). The guard
middleware and the bind check are in ``serve.guard``, the error handlers in ``serve.errors``.
"""

from __future__ import annotations

import logging
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from fastapi_offline import FastAPIOffline

from clueweaver import __version__
from clueweaver.serving.config import ServeConfig
from clueweaver.serving.reading_room import ReadingRoom
from serve.errors import add_error_handlers
from serve.guard import Guard, UnsafeBind, check_bind, is_loopback
from serve.routers import books, questions, status

__all__ = ["create_app", "run", "check_bind", "UnsafeBind", "is_loopback"]

log = logging.getLogger("clueweaver.serve")

STATIC_DIR = Path(__file__).resolve().parent / "static"


def create_app(room: ReadingRoom, config: ServeConfig, *, close_room: bool = False) -> FastAPI:
    """The FastAPI application over a running ``ReadingRoom``: the caller closes it, or with
    ``close_room`` the server's shutdown does (a server stopped by SIGTERM never returns to its
    caller: uvicorn re-raises the signal once it has shut down)."""

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        yield
        if close_room:
            room.close()

    app: FastAPI = FastAPIOffline(  # /docs with its scripts served here, not from a CDN
        title="ClueWeaver reading room",
        version=__version__,
        description="Ask questions about long texts and check claims, with paragraph-cited evidence. "
        "Errors are JSON objects {error, detail} with a 4xx status.",
        # bodies rendered by json.dumps, as they always were (pydantic's own JSON writes some
        # numbers differently)
        default_response_class=JSONResponse,
        static_url="/static-docs",
        redoc_url=None,  # ReDoc would still fetch its logo from its CDN
        swagger_ui_parameters={"validatorUrl": None},  # Swagger UI would send the schema to an online validator
        lifespan=lifespan,
    )
    app.state.room, app.state.config = room, config
    add_error_handlers(app)
    for router in (status.router, books.router, questions.router):
        app.include_router(router)

    @app.get("/", include_in_schema=False)
    def page():
        return FileResponse(STATIC_DIR / "index.html")

    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
    app.add_middleware(Guard, token=config.resolved_token(), max_upload_bytes=room.library.max_upload_bytes)
    return app


def run(config: ServeConfig, *, room: ReadingRoom | None = None) -> None:
    """Start the server and block until it stops (Ctrl-C); the reading room is closed at the end."""
    import uvicorn  # only here: create_app serves under any ASGI server

    check_bind(config.host, config.resolved_token())
    logging.basicConfig(level=config.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    room = room or ReadingRoom(config)
    try:
        log.info("ClueWeaver reading room: http://%s:%d/ (data in %s; %s)", config.host, config.port,
                 room.library.data_dir, "; ".join(room.agents.notes))  # fmt: skip
        uvicorn.run(
            create_app(room, config, close_room=True), host=config.host, port=config.port, log_level=config.log_level,
            access_log=False, timeout_graceful_shutdown=5,
        )  # fmt: skip
    finally:
        room.close()
