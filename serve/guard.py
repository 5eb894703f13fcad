"""Who may call the server: the bind check (a bearer token whenever it listens beyond the
loopback interface) and the guard middleware in front of every request (the token on /api,
loopback Host names without one, no writes from other sites, a cap on request bodies, one log
line per request with its status and duration, and the answer to an error no handler took: a 500
logged once, with its traceback)."""

from __future__ import annotations

import hmac
import ipaddress
import logging
import time
from urllib.parse import urlsplit

from fastapi.responses import JSONResponse

from clueweaver.core.errors import ClueWeaverError
from serve.errors import BodyTooLarge, error_response, internal_error_response

log = logging.getLogger("clueweaver.serve")

MAX_JSON_BODY_BYTES = 1 << 20
_MULTIPART_OVERHEAD_BYTES = 1 << 16


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


def has_bearer_token(authorization: str | None, token: str | None) -> bool:
    """Whether an Authorization header carries the server's token (always, when it has none)."""
    if not token:
        return True
    return hmac.compare_digest((authorization or "").encode(), f"Bearer {token}".encode())


class Guard:
    """ASGI middleware: the bearer token on /api; without a token, loopback Host names only (no
    DNS rebinding); no writes from pages of other sites (a form posted to 127.0.0.1); a size cap
    on request bodies, read from Content-Length before anything is received and counted as the
    bytes arrive (a chunked body has no length: it is cut off as soon as it passes the cap); one
    log line per request. An exception no handler took is answered with a 500 here and not raised
    further: raised, it would pass this log line before any status was sent (status 0) and be
    logged again by the server."""

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

        failure = None
        try:
            refusal = self._refusal(scope)
            if refusal is not None:
                await refusal(scope, receive, send_logged)
            else:
                await self.app(scope, self._counted(scope, receive), send_logged)
        except Exception as exc:  # answered here, so that it is logged once, with the status sent
            failure = exc
            if not status["code"]:
                await internal_error_response(exc)(scope, receive, send_logged)
        finally:
            client = scope.get("client") or ("-", 0)
            log.log(
                logging.ERROR if failure else logging.INFO, "%s %s %s -> %d (%.1f ms)", client[0], scope["method"],
                scope["path"], status["code"], (time.perf_counter() - started) * 1000, exc_info=failure,
            )  # fmt: skip

    def _refusal(self, scope) -> JSONResponse | None:
        path = scope["path"]
        headers = {key.decode("latin-1").lower(): value.decode("latin-1") for key, value in scope["headers"]}
        host = headers.get("host", "")
        if not self.token and not is_loopback(urlsplit(f"//{host}").hostname or ""):
            # without a token only this machine may call; a foreign name is DNS rebinding
            return error_response(
                403, "forbidden", f"this server answers only on its loopback address, not as {host!r}"
            )
        origin = headers.get("origin")
        if scope["method"] not in ("GET", "HEAD", "OPTIONS") and origin and urlsplit(origin).netloc != host:
            return error_response(
                403, "cross_site", f"requests from another site ({origin}) may not change the library"
            )
        if path.startswith("/api") and not has_bearer_token(headers.get("authorization"), self.token):
            needed = "this server needs its bearer token: send the header 'Authorization: Bearer TOKEN'"
            response = error_response(401, "unauthorized", needed)
            response.headers["WWW-Authenticate"] = "Bearer"
            return response
        length = headers.get("content-length", "")
        limit, code, what = self._body_limit(scope)
        if length.isdigit() and int(length) > limit:
            return error_response(413, code, f"the request body ({int(length) / 2**20:.1f} MB) is larger than {what}")
        return None

    def _body_limit(self, scope) -> tuple[int, str, str]:
        """The most bytes the request's body may have, the error code past it, and the limit in words."""
        if scope["method"] == "POST" and scope["path"] == "/api/books":
            limit = self.max_upload_bytes + _MULTIPART_OVERHEAD_BYTES
            return limit, "upload_too_large", f"the upload limit of {self.max_upload_bytes / 2**20:g} MB"
        return MAX_JSON_BODY_BYTES, "too_large", f"{MAX_JSON_BODY_BYTES // 1024} KB"

    def _counted(self, scope, receive):
        """``receive`` that counts the body's bytes as they arrive and raises ``BodyTooLarge`` as
        soon as they pass the limit (the error handlers answer 413; nothing more is read)."""
        limit, code, what = self._body_limit(scope)
        received = 0

        async def counted_receive():
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise BodyTooLarge(
                        code, f"the request body is larger than {what}: refused after {received / 2**20:.1f} MB"
                    )
            return message

        return counted_receive
