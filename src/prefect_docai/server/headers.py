"""Security headers on every response (ASGI middleware).

* ``X-Content-Type-Options: nosniff``: a browser never runs an uploaded-then-returned file
  as something other than its declared type;
* ``Content-Security-Policy``: API answers are data, so nothing may load or run
  (``default-src 'none'``); pages that need more (the API docs) set their own policy;
* ``Cache-Control: no-store``: results, tokens and balances are private and must not stay
  in a browser or proxy cache; only responses that chose their own caching keep it;
* ``Referrer-Policy: no-referrer`` and ``X-Frame-Options: DENY``.
"""

from __future__ import annotations

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

API_POLICY = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"


class SecurityHeaders:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                headers["X-Content-Type-Options"] = "nosniff"
                headers["Referrer-Policy"] = "no-referrer"
                headers["X-Frame-Options"] = "DENY"
                if "content-security-policy" not in headers:
                    headers["Content-Security-Policy"] = API_POLICY
                if "cache-control" not in headers:
                    headers["Cache-Control"] = "no-store"
            await send(message)

        await self.app(scope, receive, with_headers)
