"""Errors over HTTP: every error is ``{"error": code, "detail": message}`` with a 4xx status and
a message a person can act on (a 500 names the exception and points to the server log). The
library's exceptions become their status here, so the routes just let them rise."""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from clueweaver.core.errors import ClueWeaverError
from clueweaver.protocol.question import QuestionError
from clueweaver.serving.library import (
    BookNotFound,
    BookNotReady,
    QuestionNotFound,
    UnsupportedFormat,
    UnsupportedLanguage,
    UploadTooLarge,
)
from clueweaver.serving.reading_room import TooBusy
from serve.models import ApiErrorBody

# Exceptions of the library and what they become over HTTP.
_ERRORS = {
    BookNotFound: (404, "book_not_found"),
    QuestionNotFound: (404, "question_not_found"),
    UploadTooLarge: (413, "upload_too_large"),
    UnsupportedFormat: (415, "unsupported_format"),
    UnsupportedLanguage: (422, "unsupported_language"),
    BookNotReady: (409, "book_not_ready"),
    TooBusy: (429, "too_busy"),
    QuestionError: (422, "bad_question"),
}
_STATUS_CODES = {
    400: "bad_request",
    401: "unauthorized",
    404: "not_found",
    405: "method_not_allowed",
    413: "too_large",
}
# For the routers' OpenAPI entries: the shape of every error response.
ERROR_RESPONSES = {"4XX": {"model": ApiErrorBody, "description": "the request was refused; detail says why"}}


class ApiError(ClueWeaverError):
    """A refusal a route decides itself (the library's own errors map through ``_ERRORS``)."""

    def __init__(self, status: int, code: str, detail: str) -> None:
        super().__init__(detail)
        self.status, self.code, self.detail = status, code, detail


class BodyTooLarge(HTTPException):
    """A request body that passed its size limit while it arrived. Raised from the guard's
    ``receive``: FastAPI passes an HTTPException on (any other error there would become a 400)."""

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(413, detail)
        self.code = code


def error_response(status: int, code: str, detail: str) -> JSONResponse:
    """The error body; a lone surrogate a message quotes from the request shows as ``\\ud800``
    (UTF-8 cannot carry it)."""
    detail = detail.encode("utf-8", "backslashreplace").decode("utf-8")
    return JSONResponse({"error": code, "detail": detail}, status_code=status)


def add_error_handlers(app: FastAPI) -> None:
    app.add_exception_handler(ApiError, _api_error)
    for exception in _ERRORS:
        app.add_exception_handler(exception, _library_error)
    app.add_exception_handler(RequestValidationError, _invalid_request)
    app.add_exception_handler(HTTPException, _http_error)
    app.add_exception_handler(BodyTooLarge, _body_too_large)


async def _api_error(request: Request, exc: ApiError) -> JSONResponse:
    return error_response(exc.status, exc.code, exc.detail)


async def _library_error(request: Request, exc: Exception) -> JSONResponse:
    status, code = next(mapped for exception, mapped in _ERRORS.items() if isinstance(exc, exception))
    return error_response(status, code, str(exc))


async def _invalid_request(request: Request, exc: RequestValidationError) -> JSONResponse:
    status, message = _validation_message(exc)
    return error_response(status, "invalid_json" if status == 400 else "invalid_request", message)


async def _http_error(request: Request, exc: HTTPException) -> JSONResponse:
    detail = exc.detail if exc.status_code != 404 else f"no such route: {request.method} {request.url.path}; see /docs"
    return error_response(exc.status_code, _STATUS_CODES.get(exc.status_code, "error"), str(detail))


async def _body_too_large(request: Request, exc: BodyTooLarge) -> JSONResponse:
    return error_response(413, exc.code, exc.detail)


def internal_error_response(exc: Exception) -> JSONResponse:
    """The answer to an exception no handler took (``serve.guard.Guard`` sends it and logs it)."""
    return error_response(500, "internal", f"internal error ({type(exc).__name__}); the server log has the details")


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
