"""The ClueWeaver local server: a thin HTTP shell over ``clueweaver.reading_room``.

Routes (JSON unless said otherwise; every error is ``{"error": code, "detail": message}`` with a
4xx status and a message a person can act on):

    GET    /                               the reading room page (serve/static, works offline)
    GET    /health                         status, models, engine statistics
    GET    /docs, /openapi.json            the API, browsable
    GET    /api/presets                    reading presets and the server's limits
    GET    /api/books                      the library
    POST   /api/books                      upload a book (multipart field "file": .txt, .md, .epub)
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
"""

from __future__ import annotations

import asyncio
import hmac
import ipaddress
import json
import logging
import time
from pathlib import Path
from typing import Literal
from urllib.parse import urlsplit

from fastapi import FastAPI, File, Query, Request, Response, UploadFile
from fastapi.concurrency import run_in_threadpool
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, StreamingResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException

from clueweaver import __version__
from clueweaver.errors import ClueWeaverError
from clueweaver.library import (
    BOOK_SUFFIXES,
    BookNotFound,
    BookNotReady,
    QuestionNotFound,
    UnsupportedFormat,
    UploadTooLarge,
)
from clueweaver.narrative import NarrativeError
from clueweaver.protocol.question import QuestionError
from clueweaver.reading_room import AskRequest, ReadingRoom, TooBusy
from clueweaver.segment import PRESETS
from clueweaver.serve_config import ServeConfig

log = logging.getLogger("clueweaver.serve")

STATIC_DIR = Path(__file__).resolve().parent / "static"
MAX_PARAGRAPHS_PER_REQUEST = 500
MAX_JSON_BODY_BYTES = 1 << 20
_MULTIPART_OVERHEAD_BYTES = 1 << 16
_SSE_POLL_S = 0.05
_SSE_KEEPALIVE_S = 15.0
# Exceptions of the library and what they become over HTTP.
_ERRORS = (
    (BookNotFound, 404, "book_not_found"),
    (QuestionNotFound, 404, "question_not_found"),
    (UploadTooLarge, 413, "upload_too_large"),
    (UnsupportedFormat, 415, "unsupported_format"),
    (BookNotReady, 409, "book_not_ready"),
    (TooBusy, 429, "too_busy"),
    (QuestionError, 422, "bad_question"),
)
_STATUS_CODES = {
    400: "bad_request",
    401: "unauthorized",
    404: "not_found",
    405: "method_not_allowed",
    413: "too_large",
}


class ApiError(ClueWeaverError):
    def __init__(self, status: int, code: str, detail: str) -> None:
        super().__init__(detail)
        self.status, self.code, self.detail = status, code, detail


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class UnsafeBind(ClueWeaverError, ValueError):
    """Listening beyond this machine without a bearer token."""


def check_bind(host: str, token: str | None) -> None:
    """Refuse to listen beyond this machine without a bearer token."""
    if not is_loopback(host) and not token:
        raise UnsafeBind(
            f"listening on {host} exposes the library to the network: set a bearer token (the CLUEWEAVER_TOKEN "
            "environment variable, or token in the configuration), or listen on 127.0.0.1"
        )


def _error(status: int, code: str, detail: str, **extra) -> JSONResponse:
    return JSONResponse({"error": code, "detail": detail, **extra}, status_code=status)


class _Guard:
    """ASGI middleware: the bearer token on /api; without a token, loopback Host names only (no
    DNS rebinding); no writes from pages of other sites (a form posted to 127.0.0.1); a size cap
    on request bodies (read from Content-Length before anything is received); one log line per
    request."""

    def __init__(self, app, *, token: str | None, max_upload_bytes: int) -> None:
        self.app = app
        self.token = token
        self.max_upload_bytes = max_upload_bytes

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        started = time.perf_counter()
        status = {"code": 0}

        async def send_logged(message) -> None:
            if message["type"] == "http.response.start":
                status["code"] = message["status"]
            await send(message)

        try:
            refusal = self._refusal(scope)
            if refusal is not None:
                await refusal(scope, receive, send_logged)
            else:
                await self.app(scope, receive, send_logged)
        finally:
            client = scope.get("client") or ("-", 0)
            log.info(
                "%s %s %s -> %d (%.1f ms)", client[0], scope["method"], scope["path"], status["code"],
                (time.perf_counter() - started) * 1000,
            )  # fmt: skip

    def _refusal(self, scope) -> JSONResponse | None:
        path = scope["path"]
        headers = {key.decode("latin-1").lower(): value.decode("latin-1") for key, value in scope["headers"]}
        host = headers.get("host", "")
        if not self.token and not is_loopback(urlsplit(f"//{host}").hostname or ""):
            # without a token only this machine may call; a foreign name is DNS rebinding
            return _error(403, "forbidden", f"this server answers only on its loopback address, not as {host!r}")
        origin = headers.get("origin")
        if scope["method"] not in ("GET", "HEAD", "OPTIONS") and origin and urlsplit(origin).netloc != host:
            return _error(403, "cross_site", f"requests from another site ({origin}) may not change the library")
        if self.token and path.startswith("/api"):
            given = headers.get("authorization", "")
            if not hmac.compare_digest(given.encode(), f"Bearer {self.token}".encode()):
                response = _error(
                    401,
                    "unauthorized",
                    "this server needs its bearer token: send the header 'Authorization: Bearer TOKEN'",
                )
                response.headers["WWW-Authenticate"] = "Bearer"
                return response
        length = headers.get("content-length", "")
        if length.isdigit():
            upload = scope["method"] == "POST" and path == "/api/books"
            limit = self.max_upload_bytes + _MULTIPART_OVERHEAD_BYTES if upload else MAX_JSON_BODY_BYTES
            if int(length) > limit:
                what = f"the upload limit of {self.max_upload_bytes / 2**20:g} MB" if upload else f"{limit // 1024} KB"
                return _error(
                    413,
                    "upload_too_large" if upload else "too_large",
                    f"the request body ({int(length) / 2**20:.1f} MB) is larger than {what}",
                )
        return None


class AskBody(BaseModel):
    """A question with options, or a claim to check."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["mcq", "claim"] = Field(
        "mcq", description="mcq: a question with options A-D; claim: a TRUE/FALSE claim"
    )
    question: str = Field(..., description="the question, or the claim's text")
    options: dict[str, str] = Field(
        default_factory=dict, description='for mcq: {"A": "...", "B": "..."}, two to four of A-D'
    )
    preset: str | None = Field(None, description="reading preset (GET /api/presets); default: the server's")
    max_chapter: int | None = Field(
        None, ge=0, description="read chapters 1..N only (spoiler-free); default: the whole book"
    )
    self_calibration: bool | None = Field(None, description="re-check risky answers; default: the server's setting")

    def request(self) -> AskRequest:
        return AskRequest(
            self.question, dict(self.options), self.kind, self.preset, self.max_chapter, self.self_calibration
        )


def _validation_message(exc: RequestValidationError) -> tuple[int, str]:
    parts = []
    for error in exc.errors():
        if error.get("type") == "json_invalid":
            reason = (error.get("ctx") or {}).get("error", "")
            return 400, f"the request body is not valid JSON ({reason}); send a JSON object"
        where = [str(part) for part in error.get("loc", ()) if part != "body"]
        if where == ["file"]:
            parts.append("send the book as a multipart form field named 'file'")
        elif not where:
            parts.append(
                "the request needs a body: a JSON object"
                if error.get("type") == "missing"
                else "the request body must be a JSON object"
            )
        else:
            parts.append(f"{'.'.join(where)}: {error.get('msg')}")
    return 422, "; ".join(parts) or "the request is not valid"


def _sse(event: str, data: dict) -> str:
    return f"event: {event}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n"


def create_app(room: ReadingRoom, config: ServeConfig) -> FastAPI:
    """The FastAPI application over a running ``ReadingRoom`` (which the caller closes)."""
    app = FastAPI(
        title="ClueWeaver reading room",
        version=__version__,
        description="Ask questions about long texts and check claims, with paragraph-cited evidence. "
        "Errors are JSON objects {error, detail} with a 4xx status.",
    )
    library = room.library

    # -- errors --------------------------------------------------------------------------------

    @app.exception_handler(ApiError)
    async def api_error(request: Request, exc: ApiError):
        return _error(exc.status, exc.code, exc.detail)

    for exception, status, code in _ERRORS:
        app.add_exception_handler(
            exception, lambda request, exc, status=status, code=code: _error(status, code, str(exc))
        )

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, exc: RequestValidationError):
        status, message = _validation_message(exc)
        return _error(status, "invalid_json" if status == 400 else "invalid_request", message)

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException):
        detail = (
            exc.detail if exc.status_code != 404 else f"no such route: {request.method} {request.url.path}; see /docs"
        )
        return _error(exc.status_code, _STATUS_CODES.get(exc.status_code, "error"), str(detail))

    @app.exception_handler(Exception)
    async def internal_error(request: Request, exc: Exception):
        log.exception("unhandled error on %s %s", request.method, request.url.path)
        return _error(500, "internal", f"internal error ({type(exc).__name__}); the server log has the details")

    # -- page and status -------------------------------------------------------------------------

    @app.get("/", include_in_schema=False)
    def page():
        return FileResponse(STATIC_DIR / "index.html")

    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")

    @app.get("/health", tags=["status"])
    def health():
        return room.health()

    @app.get("/api/presets", tags=["status"])
    def presets():
        default = room.pipeline_config
        return {
            "presets": {name: {k: v for k, v in vars(p).items() if k != "name"} for name, p in PRESETS.items()},
            "default_preset": default.preset.name,
            "self_calibration": default.self_calibration,
            "limits": {
                "max_upload_mb": config.limits.max_upload_mb,
                "max_question_chars": config.limits.max_question_chars,
                "max_option_chars": config.limits.max_option_chars,
                "formats": list(BOOK_SUFFIXES),
            },
            "models": room.agents.notes,
        }

    # -- books ---------------------------------------------------------------------------------

    @app.get("/api/books", tags=["books"])
    def list_books():
        return {"books": [book.to_dict() for book in library.books()]}

    @app.post(
        "/api/books",
        status_code=201,
        tags=["books"],
        responses={200: {"description": "the book was already in the library"}},
    )
    def upload_book(response: Response, file: UploadFile = File(..., description="a .txt, .md or .epub file")):
        """Add a book. The same text uploaded again returns the book already there (200)."""
        with library.receive(file.filename or "") as upload:
            while chunk := file.file.read(1 << 20):
                upload.write(chunk)
            try:
                record, created = upload.register()
            except NarrativeError as exc:
                raise ApiError(422, "unreadable_book", f"{exc}; upload a UTF-8 text, Markdown or EPUB file") from None
        response.status_code = 201 if created else 200
        return {**record.to_dict(), "created": created}

    @app.get("/api/books/{book_id}", tags=["books"])
    def get_book(book_id: str):
        return library.book(book_id).to_dict()

    @app.delete("/api/books/{book_id}", tags=["books"])
    def delete_book(book_id: str):
        library.delete(book_id)
        return {"deleted": book_id}

    def narrative(book_id: str):
        try:
            return library.narrative(book_id)
        except NarrativeError as exc:
            raise ApiError(409, "unreadable_book", f"{exc}; delete the book and upload it again") from None

    @app.get("/api/books/{book_id}/chapters", tags=["reading"])
    def chapters(book_id: str):
        book = narrative(book_id)
        return {
            "book_id": book_id,
            "chapters": [
                {
                    "number": c.number,
                    "title": c.title,
                    "first_paragraph": c.first_paragraph,
                    "last_paragraph": c.last_paragraph,
                }
                for c in book.chapters
            ],
        }

    @app.get("/api/books/{book_id}/paragraphs", tags=["reading"])
    def paragraphs(
        book_id: str,
        start: int = Query(0, ge=0, description="first paragraph ID"),
        end: int | None = Query(
            None,
            ge=0,
            description=(
                f"last paragraph ID (inclusive; default start + 99; at most {MAX_PARAGRAPHS_PER_REQUEST} at once)"
            ),
        ),
    ):
        book = narrative(book_id)
        last = len(book) - 1
        if start > last:
            raise ApiError(
                422, "bad_range", f"the book has {len(book)} paragraphs (IDs 0-{last}); start {start} is beyond them"
            )
        end = min(last, start + 99 if end is None else end)
        if end < start:
            raise ApiError(422, "bad_range", f"end {end} is before start {start}")
        if end - start + 1 > MAX_PARAGRAPHS_PER_REQUEST:
            raise ApiError(
                422,
                "bad_range",
                f"ask for at most {MAX_PARAGRAPHS_PER_REQUEST} paragraphs at a time (asked {end - start + 1})",
            )
        return {
            "book_id": book_id,
            "total": len(book),
            "start": start,
            "end": end,
            "paragraphs": [
                {"id": p.id, "text": p.text, "chapter": p.chapter, "is_heading": p.is_heading, "offset": p.start}
                for p in book.paragraphs[start : end + 1]
            ],
        }

    # -- questions -----------------------------------------------------------------------------

    @app.get("/api/books/{book_id}/questions", tags=["questions"])
    def past_questions(book_id: str):
        return {"book_id": book_id, "questions": library.questions(book_id)}

    @app.post(
        "/api/books/{book_id}/questions",
        status_code=202,
        tags=["questions"],
        responses={200: {"description": "answered (wait=true)"}},
    )
    async def ask(
        book_id: str,
        body: AskBody,
        response: Response,
        wait: bool = Query(False, description="answer in this response"),
    ):
        """Ask a question or check a claim. The answer comes in GET /api/questions/{id} (progress in
        its /events stream), or in this response with wait=true."""
        try:
            job = await run_in_threadpool(room.ask, book_id, body.request())
        except NarrativeError as exc:
            raise ApiError(422, "bad_chapter_limit", str(exc)) from None
        if not wait:
            return {
                "question_id": job.id,
                "book_id": book_id,
                "status": "queued",
                "url": f"/api/questions/{job.id}",
                "events_url": f"/api/questions/{job.id}/events",
            }
        while not job.finished.is_set():
            await asyncio.sleep(_SSE_POLL_S)
        response.status_code = 200
        return await run_in_threadpool(library.question, job.id)

    @app.get("/api/questions/{question_id}", tags=["questions"])
    def get_question(question_id: str):
        return library.question(question_id)

    @app.get("/api/questions/{question_id}/events", tags=["questions"], response_class=StreamingResponse)
    async def question_events(question_id: str):
        """Server-sent events: queued, running, stage (each pipeline stage started/done, with
        timings), then done or failed. Past events are replayed first."""
        record = await run_in_threadpool(library.question, question_id)
        job = room.job(question_id)

        async def stream():
            if job is None:  # answered before this server started
                if record["status"] == "done":
                    yield _sse("done", {"question_id": question_id, "answer": record["result"]["answer"]})
                else:
                    yield _sse("failed", {"question_id": question_id, "error": record["error"] or record["status"]})
                return
            seq, beat = -1, time.monotonic()
            while True:
                for event in job.events_after(seq):
                    seq = event["seq"]
                    yield _sse(event["event"], event["data"])
                    if event["event"] in ("done", "failed"):
                        return
                if time.monotonic() - beat > _SSE_KEEPALIVE_S:
                    beat = time.monotonic()
                    yield ": keep-alive\n\n"
                await asyncio.sleep(_SSE_POLL_S)

        return StreamingResponse(
            stream(), media_type="text/event-stream", headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
        )

    app.add_middleware(_Guard, token=config.resolved_token(), max_upload_bytes=library.max_upload_bytes)
    return app


def run(config: ServeConfig, *, room: ReadingRoom | None = None) -> None:
    """Start the server and block until it stops (Ctrl-C); the reading room is closed at the end."""
    import uvicorn

    check_bind(config.host, config.resolved_token())
    logging.basicConfig(level=config.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    room = room or ReadingRoom(config)
    try:
        log.info("ClueWeaver reading room: http://%s:%d/ (data in %s; %s)", config.host, config.port,
                 room.library.data_dir, "; ".join(room.agents.notes))  # fmt: skip
        uvicorn.run(
            create_app(room, config), host=config.host, port=config.port, log_level=config.log_level,
            access_log=False, timeout_graceful_shutdown=5,
        )  # fmt: skip
    finally:
        room.close()
