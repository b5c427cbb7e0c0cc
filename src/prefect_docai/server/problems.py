"""RFC 9457 problem details for every API error (the token endpoint uses RFC 6749 instead)."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy.exc import OperationalError
from starlette.exceptions import HTTPException as StarletteHTTPException

from prefect_docai.server.diskspace import is_disk_full

PROBLEM_MEDIA_TYPE = "application/problem+json"
PROBLEM_TYPE_BASE = "https://prefect-docai.dev/problems/"


class Problem(Exception):
    """Raise anywhere in a request to answer with ``application/problem+json``.

    ``code`` is stable snake_case; clients branch on it, never on ``detail``.
    """

    def __init__(
        self,
        status: int,
        code: str,
        detail: str,
        *,
        title: str | None = None,
        headers: dict[str, str] | None = None,
        **extra: Any,
    ) -> None:
        super().__init__(detail)
        self.status = status
        self.code = code
        self.detail = detail
        self.title = title or HTTPStatus(status).phrase
        self.headers = headers or {}
        self.extra = extra

    def body(self) -> dict[str, Any]:
        return {
            "type": PROBLEM_TYPE_BASE + self.code.replace("_", "-"),
            "title": self.title,
            "status": self.status,
            "detail": self.detail,
            "code": self.code,
            **self.extra,
        }

    def response(self) -> JSONResponse:
        return JSONResponse(
            self.body(),
            status_code=self.status,
            headers=self.headers,
            media_type=PROBLEM_MEDIA_TYPE,
        )


class OAuthError(Exception):
    """An RFC 6749 §5.2 error of the token endpoint."""

    def __init__(
        self, status: int, error: str, description: str, *, retry_after: int | None = None
    ) -> None:
        super().__init__(description)
        self.status = status
        self.error = error
        self.description = description
        self.retry_after = retry_after

    def response(self) -> JSONResponse:
        headers = {"Cache-Control": "no-store", "Pragma": "no-cache"}
        if self.status == 401:
            headers["WWW-Authenticate"] = 'Basic realm="prefect-docai"'
        if self.retry_after is not None:
            headers["Retry-After"] = str(self.retry_after)
        return JSONResponse(
            {"error": self.error, "error_description": self.description},
            status_code=self.status,
            headers=headers,
        )


def storage_full(retry_after: int) -> Problem:
    return Problem(
        507,
        "storage_full",
        "The service is out of storage space; nothing was charged. Retry later.",
        headers={"Retry-After": str(retry_after)},
        retryAfter=retry_after,
    )


_HTTP_CODES = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    406: "not_acceptable",
    413: "payload_too_large",
    415: "unsupported_media_type",
    429: "too_many_requests",
}


def problem_schema() -> dict[str, Any]:
    """OpenAPI schema of a problem body (shared by every documented error response)."""
    return {
        "type": "object",
        "required": ["type", "title", "status", "detail", "code"],
        "properties": {
            "type": {"type": "string"},
            "title": {"type": "string"},
            "status": {"type": "integer"},
            "detail": {"type": "string"},
            "code": {"type": "string"},
        },
        "additionalProperties": True,
    }


def problem_response(description: str) -> dict[str, Any]:
    return {
        "description": description,
        "content": {PROBLEM_MEDIA_TYPE: {"schema": problem_schema()}},
    }


def install_handlers(app: FastAPI) -> None:
    async def on_problem(_: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, Problem)
        return exc.response()

    async def on_oauth(_: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, OAuthError)
        return exc.response()

    async def on_http(_: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, StarletteHTTPException)
        status = exc.status_code
        code = _HTTP_CODES.get(status, f"http_{status}")
        detail = exc.detail if isinstance(exc.detail, str) else HTTPStatus(status).phrase
        headers = dict(exc.headers or {})
        return Problem(status, code, detail, headers=headers).response()

    async def on_validation(_: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        errors = [
            {
                "loc": [str(part) for part in error.get("loc", ())],
                "msg": str(error.get("msg", "")),
                "type": str(error.get("type", "")),
            }
            for error in exc.errors()
        ]
        where = "; ".join(f"{'.'.join(e['loc'])}: {e['msg']}" for e in errors) or "invalid request"
        return Problem(400, "invalid_request", where, errors=errors).response()

    async def on_storage(request: Request, exc: Exception) -> JSONResponse:
        # Registered for OSError and database errors: only "no space left" is answered
        # here (once, quietly); anything else goes on to the 500 handler and the log.
        if not is_disk_full(exc):
            raise exc
        guard = request.app.state.resources.storage_guard
        guard.report(exc)
        return storage_full(guard.retry_after).response()

    async def on_unexpected(_: Request, exc: Exception) -> JSONResponse:
        # The traceback goes to the server log via uvicorn; the client gets no internals.
        return Problem(500, "internal_error", "The server failed to handle the request.").response()

    app.add_exception_handler(Problem, on_problem)
    app.add_exception_handler(OAuthError, on_oauth)
    app.add_exception_handler(StarletteHTTPException, on_http)
    app.add_exception_handler(RequestValidationError, on_validation)
    app.add_exception_handler(OSError, on_storage)
    app.add_exception_handler(OperationalError, on_storage)
    app.add_exception_handler(Exception, on_unexpected)
