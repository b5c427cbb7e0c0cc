"""Typed errors of the DocAI client, built from the server's problem+json / OAuth bodies.

Split into transient errors (worth retrying later: transport failures, 429, 5xx, a result
not ready yet) and final ones (bad request, auth, credits, failed or unknown job). The
Prefect tasks' retry condition relies on :func:`is_transient`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import httpx

if TYPE_CHECKING:
    from prefect_docai.models import JobResult


class DocAIError(Exception):
    """Base class of every error the client raises."""

    def __init__(
        self,
        message: str,
        *,
        status: int | None = None,
        code: str | None = None,
        detail: str | None = None,
        problem: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.detail = detail
        self.problem: dict[str, Any] = problem or {}


class TransientError(DocAIError):
    """A failure that may succeed when tried again later."""


class DocAITransportError(TransientError):
    """The service could not be reached (connect/read/write error or timeout)."""


class ServiceUnavailableError(TransientError):
    """The service answered 5xx (other than 501) after the client's own retries."""


class RateLimitedError(TransientError):
    """429 after the client's own retries; ``retry_after`` is the server's last hint."""

    def __init__(self, message: str, *, retry_after: float | None = None, **kw: Any) -> None:
        super().__init__(message, **kw)
        self.retry_after = retry_after


class ResultNotReadyError(TransientError):
    """The job exists but has not finished; ask again after ``retry_after`` seconds."""

    def __init__(
        self,
        message: str,
        *,
        job_id: str,
        job_status: str | None = None,
        retry_after: float | None = None,
        **kw: Any,
    ) -> None:
        super().__init__(message, **kw)
        self.job_id = job_id
        self.job_status = job_status
        self.retry_after = retry_after


class AuthenticationError(DocAIError):
    """Credentials refused, or a fresh token refused (401/403 after one refresh)."""


class RequestRejectedError(DocAIError):
    """The server refused the request (4xx, or 501 for a tool without an engine)."""


class InsufficientCreditsError(RequestRejectedError):
    """The upload needs more credits than the account holds (400 insufficient_credits)."""


class JobNotFoundError(DocAIError):
    """The job is unknown, belongs to another client, or its result expired: it never will be."""

    def __init__(self, message: str, *, job_id: str, expired: bool = False, **kw: Any) -> None:
        super().__init__(message, **kw)
        self.job_id = job_id
        self.expired = expired


class JobFailedError(DocAIError):
    """The job ended in ``failed``; ``result`` is its envelope when the server sent one."""

    def __init__(
        self, message: str, *, job_id: str, result: JobResult | None = None, **kw: Any
    ) -> None:
        super().__init__(message, **kw)
        self.job_id = job_id
        self.result = result


class ResultTimeoutError(DocAIError):
    """``wait_for_result`` gave up: the job was still not done when the timeout ran out."""

    def __init__(self, message: str, *, job_id: str, last_status: str | None = None) -> None:
        super().__init__(message)
        self.job_id = job_id
        self.last_status = last_status


def is_transient(exc: BaseException) -> bool:
    """Whether trying the same call again later can succeed."""
    return isinstance(exc, TransientError)


_PENDING_STATUSES = frozenset({"queued", "processing", "pending", "running"})


def problem_of(response: httpx.Response) -> dict[str, Any]:
    """The JSON error body (problem+json or RFC 6749), or ``{}`` when there is none."""
    try:
        body = response.json()
    except ValueError:
        return {}
    return body if isinstance(body, dict) else {}


def retry_after_of(response: httpx.Response) -> float | None:
    """``Retry-After`` in seconds (delta-seconds or HTTP-date), else the body's hint."""
    from email.utils import parsedate_to_datetime

    raw = response.headers.get("Retry-After")
    if raw is not None:
        raw = raw.strip()
        try:
            return max(0.0, float(raw))
        except ValueError:
            pass
        try:
            when = parsedate_to_datetime(raw)
        except (TypeError, ValueError):
            when = None
        if when is not None:
            from datetime import UTC, datetime

            return max(0.0, (when - datetime.now(UTC)).total_seconds())
    value = problem_of(response).get("retryAfter")
    if isinstance(value, int | float):
        return max(0.0, float(value))
    return None


def _message(response: httpx.Response, problem: dict[str, Any]) -> tuple[str | None, str]:
    code = problem.get("code") or problem.get("error")
    detail = (
        problem.get("detail")
        or problem.get("error_description")
        or problem.get("title")
        or response.reason_phrase
        or f"HTTP {response.status_code}"
    )
    return (str(code) if code is not None else None), str(detail)


def error_from_response(response: httpx.Response, *, job_id: str | None = None) -> DocAIError:
    """Map a non-2xx response to the matching typed error, keeping the server's message."""
    status = response.status_code
    problem = problem_of(response)
    code, detail = _message(response, problem)
    where = f"{response.request.method} {response.request.url.path}"
    message = f"{where} → {status}" + (f" {code}" if code else "") + f": {detail}"
    kw: dict[str, Any] = {"status": status, "code": code, "detail": detail, "problem": problem}

    if status in (401, 403):
        return AuthenticationError(message, **kw)
    if status == 429:
        return RateLimitedError(message, retry_after=retry_after_of(response), **kw)
    if status == 404 and job_id is not None:
        # The job's state rides next to the problem's numeric ``status``.
        raw_status = problem.get("jobStatus", problem.get("status"))
        job_status = raw_status if isinstance(raw_status, str) else None
        pending = code in {"job_pending", "job_not_ready", "result_not_ready"} or (
            job_status in _PENDING_STATUSES
        )
        if not pending and code is None and "Retry-After" in response.headers:
            pending = True
        if pending:
            return ResultNotReadyError(
                message,
                job_id=job_id,
                job_status=job_status,
                retry_after=retry_after_of(response),
                **kw,
            )
        if code in (None, "job_not_found", "job_expired", "not_found"):
            expired = code == "job_expired" or job_status == "expired"
            return JobNotFoundError(message, job_id=job_id, expired=expired, **kw)
        # e.g. ``file_not_found``: the job is fine, that output was just never requested.
    if code == "job_failed" and job_id is not None:
        return JobFailedError(message, job_id=job_id, **kw)
    if code == "insufficient_credits":
        return InsufficientCreditsError(message, **kw)
    if status >= 500 and status != 501:
        return ServiceUnavailableError(message, **kw)
    return RequestRejectedError(message, **kw)
