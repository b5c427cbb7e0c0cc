"""ASGI middleware: upload size guard and an access log without secrets."""

from __future__ import annotations

import json
import logging
import time
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from prefect_docai.server.logsafe import escape
from prefect_docai.server.problems import PROBLEM_MEDIA_TYPE, PROBLEM_TYPE_BASE

access_log = logging.getLogger("prefect_docai.access")

# Multipart framing and the small text fields around the file.
_MULTIPART_SLACK = 64 * 1024


class BodyTooLarge(Exception):
    """The request body grew past the limit while streaming in."""


class UploadSizeLimit:
    """Refuses an upload larger than the limit before it is read (Content-Length) or as
    soon as it grows past it (chunked), so a huge body never lands on disk."""

    def __init__(self, app: ASGIApp, limit: int, path_prefix: str = "/api/FileUpload/") -> None:
        self.app = app
        self.max_body = limit + _MULTIPART_SLACK
        self.limit = limit
        self.path_prefix = path_prefix

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not str(scope.get("path", "")).startswith(self.path_prefix):
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        length = headers.get(b"content-length")
        if length is not None and length.isdigit() and int(length) > self.max_body:
            await self._too_large(send)
            return
        received = 0

        async def limited_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_body:
                    raise BodyTooLarge()
            return message

        await self.app(scope, limited_receive, send)

    async def _too_large(self, send: Send) -> None:
        body = json.dumps(
            {
                "type": PROBLEM_TYPE_BASE + "file-too-large",
                "title": "Content Too Large",
                "status": 413,
                "detail": f"The file is larger than {self.limit} bytes.",
                "code": "file_too_large",
                "limit": self.limit,
            }
        ).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", PROBLEM_MEDIA_TYPE.encode()),
                    (b"content-length", str(len(body)).encode()),
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


class AccessLog:
    """One line per request: client address, method, path (never the query string, never
    headers: tokens and e-mail addresses stay out of logs), status, duration."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status: dict[str, Any] = {"code": 500}

        async def capture(message: Message) -> None:
            if message["type"] == "http.response.start":
                status["code"] = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, capture)
        finally:
            client = scope.get("client") or ("-", 0)
            # The path is decoded (%0a is a newline): escaped, it cannot forge a line.
            access_log.info(
                '%s "%s %s" %s %.1fms',
                escape(client[0]),
                escape(scope.get("method", "-")),
                escape(scope.get("path", "-")),
                status["code"],
                (time.perf_counter() - started) * 1000,
            )
