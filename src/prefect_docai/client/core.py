"""The async DocAI client: token, pacing and bounded retries around every call."""

from __future__ import annotations

import logging
import time
import uuid
from collections.abc import Awaitable, Callable, Iterable
from types import TracebackType
from typing import Any, Self, TypedDict, Unpack
from urllib.parse import quote

import anyio
import anyio.to_thread
import httpx
from pydantic import SecretStr

from prefect_docai.client.auth import AccessToken, TokenManager, shared_token_manager
from prefect_docai.client.backoff import backoff_delay, jittered
from prefect_docai.client.config import ClientConfig
from prefect_docai.client.documents import DocumentInput, load_document
from prefect_docai.client.errors import (
    AuthenticationError,
    DocAITransportError,
    JobFailedError,
    RateLimitedError,
    ResultNotReadyError,
    ResultTimeoutError,
    ServiceUnavailableError,
    TransientError,
    error_from_response,
    problem_of,
    retry_after_of,
)
from prefect_docai.client.ratelimit import RateLimiter, shared_limiter
from prefect_docai.client.results import ResultFile, UploadReceipt
from prefect_docai.models import JobResult, Tool

logger = logging.getLogger("prefect_docai.client")

BeforeRequest = Callable[[], Awaitable[None]]
"""Called before every paced request (e.g. a fleet-wide Prefect rate limit)."""

_RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})


class UploadOptions(TypedDict, total=False):
    """The optional upload parameters every upload-shaped call takes as keywords."""

    file_name: str | None
    """Name sent with the file (default: from the path/URL, else ``document``)."""
    email: str | None
    """Mail the result to this address when the job is done."""
    output_formats: Iterable[str] | str | None
    """ICR output formats, e.g. ``["PDF", "TXT"]``."""
    language_hint: str | None
    """ISO 639-1 code(s) or ``auto``."""
    threshold: float | None
    """Drop values below this confidence."""
    idempotency_key: str | None
    """Names this logical upload for the service (same key, same job)."""


def _tool(tool: Tool | str) -> Tool:
    if isinstance(tool, Tool):
        return tool
    found = Tool.from_suffix(tool) or Tool.from_suffix(tool.removeprefix("Tool"))
    if found is None:
        raise ValueError(f"unknown tool {tool!r}; one of {[t.value for t in Tool]}")
    return found


def _upload_fields(options: UploadOptions) -> dict[str, str]:
    fields: dict[str, str] = {}
    if email := options.get("email"):
        fields["email"] = email
    if formats := options.get("output_formats"):
        fields["outputFormats"] = ",".join([formats] if isinstance(formats, str) else formats)
    if language_hint := options.get("language_hint"):
        fields["languageHint"] = language_hint
    if (threshold := options.get("threshold")) is not None:
        fields["threshold"] = repr(float(threshold))
    return fields


class DocAIClient:
    """Async client of one DocAI service for one set of API client credentials.

    Tokens and request pacing are shared by every client built from the same credentials in
    this process (``share_state=True``), so many tasks each holding their own client still
    make one token request at a time and keep the service's request rate together.
    """

    def __init__(
        self,
        config: ClientConfig,
        *,
        transport: httpx.AsyncBaseTransport | None = None,
        before_request: BeforeRequest | None = None,
        share_state: bool = True,
    ) -> None:
        self.config = config
        self._http = httpx.AsyncClient(
            transport=transport,
            timeout=httpx.Timeout(config.timeout),
            headers={"User-Agent": "prefect-docai-client"},
        )
        self._before_request = before_request
        key = (config.base_url, config.client_id)
        slow = 1.0 + config.pace_margin
        rate = config.requests_per_second / slow if config.requests_per_second else None
        tool_rates = {s: r / slow for s, r in config.tool_requests_per_second.items() if r}
        if share_state:
            self.tokens = shared_token_manager(
                config.credentials_key(), config.token_refresh_margin
            )
            self.limiter: RateLimiter | None = shared_limiter(key, rate) if rate else None
            self._tool_limiters = {
                suffix: shared_limiter((*key, suffix), r) for suffix, r in tool_rates.items()
            }
        else:
            self.tokens = TokenManager(config.token_refresh_margin)
            self.limiter = RateLimiter(rate) if rate else None
            self._tool_limiters = {suffix: RateLimiter(r) for suffix, r in tool_rates.items()}

    # --- lifecycle --------------------------------------------------------------------

    async def aclose(self) -> None:
        await self._http.aclose()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()

    # --- public API -------------------------------------------------------------------

    async def request_access_token(self) -> AccessToken:
        """The current access token, fetched if there is none or it is about to expire."""
        return await self.tokens.get(self._fetch_token)

    async def upload(
        self, tool: Tool | str, document: DocumentInput, **options: Unpack[UploadOptions]
    ) -> UploadReceipt:
        """Upload a document to a tool; the returned receipt carries the job id.

        One ``Idempotency-Key`` covers every retry of this call, so a retried upload never
        creates (or pays for) a second job. Pass your own key to extend that across calls.
        """
        tool = _tool(tool)
        doc = await anyio.to_thread.run_sync(load_document, document, options.get("file_name"))
        key = options.get("idempotency_key") or uuid.uuid4().hex
        fields = _upload_fields(options)
        url = (
            f"{self.config.base_url}/api/FileUpload/v1/Upload/{self.config.tool_prefix}{tool.value}"
        )
        response = await self._send(
            "POST",
            url,
            tool=tool,
            headers={"Idempotency-Key": key},
            files={"file": (doc.file_name, doc.content, doc.media_type)},
            data=fields,
        )
        if response.status_code not in (200, 201, 202):
            raise error_from_response(response)
        body = response.json()
        job_id = body.get("jobId") or body.get("job_id") if isinstance(body, dict) else None
        if not isinstance(job_id, str) or not job_id:
            raise ServiceUnavailableError(
                f"upload answered {response.status_code} without a job id",
                status=response.status_code,
            )
        logger.debug("uploaded %s to %s as job %s", doc.file_name, tool.value, job_id)
        return UploadReceipt(
            job_id=job_id,
            tool=tool,
            file_name=doc.file_name,
            sha256=doc.sha256,
            size=doc.size,
            idempotency_key=key,
        )

    async def get_json_result(self, job_id: str, *, raise_on_failure: bool = True) -> JobResult:
        """The job's result envelope; ``ResultNotReadyError`` while it is still running."""
        response = await self._send("GET", self._result_url(job_id, "json"))
        if response.status_code != 200:
            raise error_from_response(response, job_id=job_id)
        job = JobResult.model_validate(response.json())
        if raise_on_failure and job.status == "failed":
            error = job.error
            raise JobFailedError(
                f"job {job_id} failed"
                + (f": {error.code}: {error.detail}" if error is not None else ""),
                job_id=job_id,
                result=job,
                code=error.code if error is not None else None,
                detail=error.detail if error is not None else None,
            )
        return job

    async def get_zip_result(self, job_id: str) -> ResultFile:
        """The ZIP archive of a finished job (e.g. ICR: searchable PDF + text)."""
        return await self._get_file(job_id, "zip", None)

    async def get_file_result(self, job_id: str, output_type: str = "CSV") -> ResultFile:
        """One result file of a finished job (``CSV`` for table extraction)."""
        return await self._get_file(job_id, "file", {"outputType": output_type})

    async def wait_for_result(
        self,
        job_id: str,
        *,
        timeout: float = 600.0,
        poll_interval: float = 1.0,
        max_poll_interval: float = 15.0,
        raise_on_failure: bool = True,
    ) -> JobResult:
        """Poll until the job is done; backoff with jitter, never earlier than ``Retry-After``.

        A 404 saying the job is pending means "not yet" and polling goes on; a 404 saying
        unknown or expired means "never" and raises ``JobNotFoundError`` at once. A
        transient failure of a poll (service unreachable or overloaded beyond the client's
        own retries) does not end the wait either: it is raised only if it is still
        happening when the timeout runs out.
        """
        deadline = time.monotonic() + timeout
        interval = poll_interval
        while True:
            try:
                return await self.get_json_result(job_id, raise_on_failure=raise_on_failure)
            except ResultNotReadyError as exc:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise ResultTimeoutError(
                        f"job {job_id} not done after {timeout:g} s"
                        + (f" (status {exc.job_status})" if exc.job_status else ""),
                        job_id=job_id,
                        last_status=exc.job_status,
                    ) from exc
                hint = exc.retry_after
            except TransientError as exc:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise
                logger.info("polling job %s: %s; polling on", job_id, exc)
                hint = getattr(exc, "retry_after", None)
            delay = max(hint or 0.0, jittered(interval))
            await anyio.sleep(min(delay, remaining))
            interval = min(interval * 1.5, max_poll_interval)

    async def run_tool(
        self,
        tool: Tool | str,
        document: DocumentInput,
        *,
        timeout: float = 600.0,
        **options: Unpack[UploadOptions],
    ) -> JobResult:
        """Upload, wait for the job and return its result envelope."""
        receipt = await self.upload(tool, document, **options)
        return await self.wait_for_result(receipt.job_id, timeout=timeout)

    async def get_credits(self) -> int:
        """The account's credit balance (``GET /api/Account/v1/Credits``)."""
        response = await self._send("GET", f"{self.config.base_url}/api/Account/v1/Credits")
        if response.status_code != 200:
            raise error_from_response(response)
        body = response.json()
        if isinstance(body, int):
            return body
        for name in ("credits", "balance", "remaining"):
            value = body.get(name) if isinstance(body, dict) else None
            if isinstance(value, int):
                return value
        raise ServiceUnavailableError(f"credits response without a balance: {body!r}")

    # --- internals --------------------------------------------------------------------

    def _result_url(self, job_id: str, kind: str) -> str:
        return f"{self.config.base_url}/api/Result/v1/JobResults/{quote(job_id, safe='')}/{kind}"

    async def _get_file(self, job_id: str, kind: str, params: dict[str, str] | None) -> ResultFile:
        response = await self._send("GET", self._result_url(job_id, kind), params=params)
        if response.status_code != 200:
            raise error_from_response(response, job_id=job_id)
        disposition = response.headers.get("Content-Disposition", "")
        file_name = None
        if "filename=" in disposition:
            file_name = disposition.split("filename=", 1)[1].split(";")[0].strip().strip('"')
        return ResultFile(
            job_id=job_id,
            content=response.content,
            media_type=response.headers.get("Content-Type", "application/octet-stream"),
            file_name=file_name,
        )

    def _auth_headers(self, token: AccessToken) -> dict[str, str]:
        value = token.access_token.get_secret_value()
        style = self.config.token_header
        headers: dict[str, str] = {}
        if style in ("accessToken", "both"):
            headers["accessToken"] = value
        if style in ("authorization", "both"):
            headers["Authorization"] = f"Bearer {value}"
        return headers

    async def _pace(self, tool: Tool | None) -> None:
        if tool is not None and (limiter := self._tool_limiters.get(tool.value)) is not None:
            await limiter.acquire()
        if self.limiter is not None:
            await self.limiter.acquire()
        if self._before_request is not None:
            await self._before_request()

    def _defer(self, seconds: float, tool: Tool | None) -> None:
        if self.limiter is not None:
            self.limiter.defer(seconds)
        if tool is not None and (limiter := self._tool_limiters.get(tool.value)) is not None:
            limiter.defer(seconds)

    async def _fetch_token(self) -> AccessToken:
        config = self.config
        secret = config.client_secret.get_secret_value()
        data = {"grant_type": "client_credentials"}
        auth: httpx.BasicAuth | None = None
        if config.auth_method == "client_secret_basic":
            auth = httpx.BasicAuth(config.client_id, secret)
        else:
            data |= {"client_id": config.client_id, "client_secret": secret}
        response = await self._send(
            "POST", config.resolved_token_url, authenticated=False, data=data, auth=auth
        )
        if response.status_code != 200:
            error = error_from_response(response)
            if response.status_code < 500 and response.status_code != 429:
                raise AuthenticationError(
                    f"token request refused: {error.detail}",
                    status=error.status,
                    code=error.code,
                    detail=error.detail,
                    problem=error.problem,
                )
            raise error
        body = response.json()
        token = body.get("access_token") if isinstance(body, dict) else None
        if not isinstance(token, str) or not token:
            raise AuthenticationError("token endpoint answered without an access_token")
        logger.debug("new access token for client %s", config.client_id)
        return AccessToken(
            access_token=SecretStr(token),
            expires_in=float(body.get("expires_in") or 300),
            token_type=str(body.get("token_type") or "Bearer"),
            scope=str(body.get("scope") or ""),
        )

    async def _send(
        self,
        method: str,
        url: str,
        *,
        tool: Tool | None = None,
        authenticated: bool = True,
        headers: dict[str, str] | None = None,
        **kwargs: Any,
    ) -> httpx.Response:
        """One logical request: retries transport errors, 429 and 5xx (bounded), refreshes
        the token once on 401. Returns the last response; callers map errors."""
        config = self.config
        attempt = 0
        stale: SecretStr | None = None
        refreshed = False
        path = httpx.URL(url).path
        while True:
            request_headers = dict(headers or {})
            if authenticated:
                token = await self.tokens.get(self._fetch_token, stale=stale)
                request_headers |= self._auth_headers(token)
                await self._pace(tool)
            try:
                response = await self._http.request(method, url, headers=request_headers, **kwargs)
            except httpx.TransportError as exc:
                if attempt >= config.max_retries:
                    raise DocAITransportError(
                        f"{method} {path} failed after {attempt + 1} attempts: {exc!r}"
                    ) from exc
                attempt += 1
                delay = backoff_delay(attempt, config.backoff_base, config.backoff_max)
                logger.info("%s %s: %r; retry %d in %.2f s", method, path, exc, attempt, delay)
                await anyio.sleep(delay)
                continue
            status = response.status_code
            if status == 401 and authenticated and not refreshed:
                # A token can be revoked or expire early (clock skew): fetch one new token,
                # once; a second 401 means the credentials themselves are refused.
                refreshed = True
                stale = token.access_token
                logger.info("%s %s: 401, refreshing the access token", method, path)
                continue
            if status in _RETRY_STATUSES:
                retry_after = retry_after_of(response)
                if retry_after is not None and status in (429, 503):
                    self._defer(retry_after, tool)
                if attempt >= config.max_retries:
                    return response
                if retry_after is not None and retry_after > config.backoff_max:
                    # Waiting that long inside one call would look like a hang: give the
                    # caller (or the Prefect task's retries) the decision instead.
                    error = error_from_response(response)
                    if isinstance(error, RateLimitedError):
                        raise error
                    return response
                attempt += 1
                delay = max(
                    retry_after or 0.0,
                    backoff_delay(attempt, config.backoff_base, config.backoff_max),
                )
                logger.info(
                    "%s %s: %d %s; retry %d in %.2f s",
                    method,
                    path,
                    status,
                    problem_of(response).get("code", ""),
                    attempt,
                    delay,
                )
                await anyio.sleep(delay)
                continue
            return response
