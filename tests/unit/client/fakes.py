"""A scriptable in-memory DocAI service behind ``httpx.MockTransport`` for fault injection.

Happy paths are tested against the real service on loopback; this fake exists to produce
the failures a real service rarely shows on demand (429 storms, 5xx bursts, timeouts,
revoked tokens) and to observe exactly what the client sent.
"""

from __future__ import annotations

import asyncio
import base64
import itertools
import json
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs

import httpx

from prefect_docai.client import ClientConfig

CLIENT_ID = "client-123"
CLIENT_SECRET = "s3cr3t-value-never-logged"

Fault = Callable[[httpx.Request], httpx.Response | None]
"""Returns a response to short-circuit the request, or None to let it through."""


def problem(status: int, code: str, detail: str, /, **extra: Any) -> httpx.Response:
    headers = {"Content-Type": "application/problem+json"}
    if "retry_after" in extra:
        headers["Retry-After"] = str(extra.pop("retry_after"))
    body = {"type": "about:blank", "title": code, "status": status, "detail": detail, "code": code}
    return httpx.Response(status, json=body | extra, headers=headers)


def envelope(job_id: str, tool: str = "ICR", status: str = "succeeded") -> dict[str, Any]:
    body: dict[str, Any] = {
        "jobId": job_id,
        "tool": tool,
        "status": status,
        "pageCount": 1,
        "creditsCharged": 1,
        "createdAt": "2026-01-01T00:00:00Z",
        "completedAt": "2026-01-01T00:00:01Z",
        "document": {"fileName": "a.pdf", "sha256": "0" * 64, "mediaType": "application/pdf"},
        "warnings": [],
    }
    if status == "succeeded":
        body["result"] = {"language": "en", "text": "hello", "pages": []}
    else:
        body["error"] = {"code": "corrupt_document", "detail": "cannot read page 1"}
    return body


@dataclass
class FakeService:
    base_url: str = field(default_factory=lambda: f"http://docai-{uuid.uuid4().hex[:8]}.test")
    expires_in: int = 300
    token_delay: float = 0.0
    polls_until_done: int = 0
    job_status: str = "succeeded"
    faults: list[Fault] = field(default_factory=list)
    # observations
    requests: list[httpx.Request] = field(default_factory=list)
    token_requests: list[httpx.Request] = field(default_factory=list)
    uploads: list[httpx.Request] = field(default_factory=list)
    upload_times: list[float] = field(default_factory=list)
    tokens_inflight: int = 0
    max_tokens_inflight: int = 0
    rejected_tokens: int = 0
    jobs: dict[str, int] = field(default_factory=dict)
    jobs_by_key: dict[str, str] = field(default_factory=dict)
    _issued: dict[str, float] = field(default_factory=dict)
    _counter: itertools.count[int] = field(default_factory=itertools.count)

    @property
    def token_url(self) -> str:
        return f"{self.base_url}/oauth/token"

    def config(self, **overrides: Any) -> ClientConfig:
        values: dict[str, Any] = {
            "base_url": self.base_url,
            "client_id": CLIENT_ID,
            "client_secret": CLIENT_SECRET,
            "requests_per_second": None,
            "backoff_base": 0.01,
            "backoff_max": 0.05,
            "max_retries": 4,
        }
        return ClientConfig(**(values | overrides))

    def transport(self) -> httpx.MockTransport:
        return httpx.MockTransport(self.handle)

    def revoke_all_tokens(self) -> None:
        self._issued.clear()

    # --- handlers ---------------------------------------------------------------------

    async def handle(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        for fault in list(self.faults):
            response = fault(request)
            if response is not None:
                return response
        path = request.url.path
        if path == "/oauth/token":
            return await self._token(request)
        token = request.headers.get("accessToken") or request.headers.get(
            "Authorization", ""
        ).removeprefix("Bearer ")
        issued = self._issued.get(token)
        if issued is None or time.monotonic() > issued + self.expires_in:
            self.rejected_tokens += 1
            return problem(401, "invalid_token", "token missing, expired or revoked")
        if path.startswith("/api/FileUpload/v1/Upload/"):
            return self._upload(request)
        if path.startswith("/api/Result/v1/JobResults/"):
            return self._result(request)
        if path == "/api/Account/v1/Credits":
            return httpx.Response(200, json={"clientId": CLIENT_ID, "credits": 42})
        return problem(404, "not_found", "no such route")

    async def _token(self, request: httpx.Request) -> httpx.Response:
        self.token_requests.append(request)
        self.tokens_inflight += 1
        self.max_tokens_inflight = max(self.max_tokens_inflight, self.tokens_inflight)
        try:
            if self.token_delay:
                await asyncio.sleep(self.token_delay)
            form = {k: v[0] for k, v in parse_qs(request.content.decode()).items()}
            auth = request.headers.get("Authorization", "")
            if auth.startswith("Basic "):
                user, _, password = base64.b64decode(auth[6:]).decode().partition(":")
                form |= {"client_id": user, "client_secret": password}
            if form.get("grant_type") != "client_credentials":
                return httpx.Response(400, json={"error": "unsupported_grant_type"})
            if form.get("client_id") != CLIENT_ID or form.get("client_secret") != CLIENT_SECRET:
                return httpx.Response(
                    401, json={"error": "invalid_client", "error_description": "bad client"}
                )
            token = f"jwt-{next(self._counter)}-{uuid.uuid4().hex}"
            self._issued[token] = time.monotonic()
            return httpx.Response(
                200,
                json={
                    "access_token": token,
                    "expires_in": self.expires_in,
                    "refresh_expires_in": 0,
                    "token_type": "Bearer",
                    "not-before-policy": 0,
                    "scope": "accounting consumption",
                },
            )
        finally:
            self.tokens_inflight -= 1

    def _upload(self, request: httpx.Request) -> httpx.Response:
        self.uploads.append(request)
        self.upload_times.append(time.monotonic())
        if b'name="file"' not in request.content:
            return problem(400, "file_missing", "no file part")
        key = request.headers.get("Idempotency-Key")
        if key and key in self.jobs_by_key:
            return httpx.Response(201, json={"jobId": self.jobs_by_key[key]})
        job_id = f"job-{next(self._counter)}"
        self.jobs[job_id] = 0
        if key:
            self.jobs_by_key[key] = job_id
        return httpx.Response(201, json={"jobId": job_id})

    def _result(self, request: httpx.Request) -> httpx.Response:
        _, _, rest = request.url.path.partition("/api/Result/v1/JobResults/")
        job_id, _, kind = rest.partition("/")
        if job_id not in self.jobs:
            return problem(404, "job_not_found", f"no job {job_id}")
        self.jobs[job_id] += 1
        if self.jobs[job_id] <= self.polls_until_done:
            return problem(
                404, "job_pending", "job is still processing", jobStatus="processing", retry_after=0
            )
        if kind == "json":
            return httpx.Response(200, json=envelope(job_id, status=self.job_status))
        if kind == "zip":
            return httpx.Response(
                200,
                content=b"PK\x05\x06" + b"\x00" * 18,
                headers={
                    "Content-Type": "application/zip",
                    "Content-Disposition": f'attachment; filename="{job_id}.zip"',
                },
            )
        output_type = request.url.params.get("outputType", "")
        if output_type != "CSV":
            return problem(400, "output_type_not_available", f"no {output_type} output")
        return httpx.Response(200, content=b"a,b\n1,2\n", headers={"Content-Type": "text/csv"})


def fail_times(
    n: int, make: Callable[[httpx.Request], httpx.Response], path_part: str = "/api/"
) -> Fault:
    """A fault answering ``make(request)`` for the first ``n`` matching requests."""
    remaining = [n]

    def fault(request: httpx.Request) -> httpx.Response | None:
        if path_part in request.url.path and remaining[0] > 0:
            remaining[0] -= 1
            return make(request)
        return None

    return fault


def raise_times(n: int, exc: type[httpx.TransportError], path_part: str = "/api/") -> Fault:
    remaining = [n]

    def fault(request: httpx.Request) -> httpx.Response | None:
        if path_part in request.url.path and remaining[0] > 0:
            remaining[0] -= 1
            raise exc("injected", request=request)
        return None

    return fault


def form_fields(request: httpx.Request) -> dict[str, str]:
    """Non-file fields of a multipart request (enough for assertions)."""
    fields: dict[str, str] = {}
    for part in request.content.split(b"--")[1:]:
        head, _, body = part.partition(b"\r\n\r\n")
        if b'name="' in head and b"filename=" not in head:
            name = head.split(b'name="', 1)[1].split(b'"', 1)[0].decode()
            fields[name] = body.rstrip(b"\r\n").decode()
    return fields


def json_body(response: httpx.Response) -> Any:
    return json.loads(response.content)
