"""Fault injection against the client: retries, token handling, typed errors, idempotency."""

from __future__ import annotations

import asyncio
import logging
import time

import httpx
import pytest
from tests.unit.client.fakes import (
    CLIENT_SECRET,
    FakeService,
    fail_times,
    form_fields,
    problem,
    raise_times,
)

from prefect_docai.client import (
    AuthenticationError,
    DocAIClient,
    DocAITransportError,
    InsufficientCreditsError,
    JobFailedError,
    JobNotFoundError,
    RateLimitedError,
    RequestRejectedError,
    ResultTimeoutError,
    ServiceUnavailableError,
    is_transient,
)
from prefect_docai.models import Tool

pytestmark = pytest.mark.anyio

PDF = b"%PDF-1.4\n%fake but the fake service does not care\n"


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def client_for(service: FakeService, **overrides: object) -> DocAIClient:
    return DocAIClient(service.config(**overrides), transport=service.transport())


async def test_happy_path_uses_one_token_and_both_headers() -> None:
    service = FakeService()
    async with client_for(service) as client:
        receipt = await client.upload(
            Tool.ICR,
            PDF,
            file_name="a.pdf",
            email="x@example.com",
            output_formats=["PDF", "JSON"],
            language_hint="de",
            threshold=0.5,
        )
        job = await client.wait_for_result(receipt.job_id)
        assert await client.get_credits() == 42
    assert job.job_id == receipt.job_id and job.status == "succeeded"
    assert len(service.token_requests) == 1
    upload = service.uploads[0]
    assert upload.url.path == "/api/FileUpload/v1/Upload/ToolICR"
    assert upload.headers["accessToken"]
    assert upload.headers["Authorization"] == f"Bearer {upload.headers['accessToken']}"
    assert form_fields(upload) == {
        "email": "x@example.com",
        "outputFormats": "PDF,JSON",
        "languageHint": "de",
        "threshold": "0.5",
    }
    assert receipt.size == len(PDF) and len(receipt.sha256) == 64


@pytest.mark.parametrize("style", ["accessToken", "authorization"])
async def test_single_header_styles(style: str) -> None:
    service = FakeService()
    async with client_for(service, token_header=style, tool_prefix="Acme") as client:
        await client.upload("Classify", PDF)
    upload = service.uploads[0]
    assert upload.url.path == "/api/FileUpload/v1/Upload/AcmeClassify"
    assert ("accessToken" in upload.headers) == (style == "accessToken")
    assert ("Authorization" in upload.headers) == (style == "authorization")


async def test_client_secret_basic_sends_credentials_in_header_only() -> None:
    service = FakeService()
    async with client_for(service, auth_method="client_secret_basic") as client:
        await client.request_access_token()
    request = service.token_requests[0]
    assert request.headers["Authorization"].startswith("Basic ")
    assert b"client_secret" not in request.content


async def test_refused_credentials_fail_fast_with_server_message() -> None:
    service = FakeService()
    async with client_for(service, client_secret="wrong") as client:
        with pytest.raises(AuthenticationError, match="bad client") as info:
            await client.upload(Tool.ICR, PDF)
    assert len(service.token_requests) == 1
    assert not is_transient(info.value)


async def test_401_refreshes_once_then_succeeds() -> None:
    service = FakeService()
    async with client_for(service) as client:
        await client.upload(Tool.ICR, PDF)
        service.revoke_all_tokens()
        await client.upload(Tool.ICR, PDF)
    assert len(service.token_requests) == 2
    assert service.rejected_tokens == 1
    assert len(service.uploads) == 2


async def test_401_after_refresh_is_an_authentication_error() -> None:
    service = FakeService()
    service.faults.append(
        fail_times(99, lambda r: problem(401, "invalid_token", "nope"), "/Upload/")
    )
    async with client_for(service) as client:
        with pytest.raises(AuthenticationError):
            await client.upload(Tool.ICR, PDF)
    assert len(service.token_requests) == 2  # the first and exactly one refresh


async def test_token_expiry_in_the_middle_of_a_batch_never_sends_an_expired_token() -> None:
    service = FakeService(expires_in=1)
    async with client_for(service) as client:
        started = time.monotonic()
        while time.monotonic() - started < 2.6:
            await client.upload(Tool.ICR, PDF)
            await asyncio.sleep(0.1)
    # Refreshed ahead of expiry (margin = a fifth of the lifetime), so the server never
    # had to refuse one.
    assert service.rejected_tokens == 0
    assert len(service.token_requests) >= 3


async def test_many_concurrent_callers_share_one_token_fetch() -> None:
    service = FakeService(token_delay=0.2)
    clients = [client_for(service) for _ in range(3)]
    try:
        await asyncio.gather(*(c.upload(Tool.ICR, PDF) for c in clients for _ in range(5)))
        service.revoke_all_tokens()
        await asyncio.gather(*(c.upload(Tool.ICR, PDF) for c in clients for _ in range(5)))
    finally:
        for c in clients:
            await c.aclose()
    assert service.max_tokens_inflight == 1
    assert len(service.token_requests) == 2
    # Every caller of the second round was refused once and then got the one new token.
    assert service.rejected_tokens == 15
    assert len(service.uploads) == 30


async def test_429_storm_honours_retry_after_and_reuses_idempotency_key() -> None:
    service = FakeService()
    service.faults.append(
        fail_times(3, lambda r: problem(429, "rate_limited", "slow down", retry_after=0.2))
    )
    async with client_for(service, backoff_max=1.0) as client:
        started = time.monotonic()
        receipt = await client.upload(Tool.INVOICE, PDF)
        elapsed = time.monotonic() - started
    assert elapsed >= 0.6
    keys = {r.headers["Idempotency-Key"] for r in service.requests if "/Upload/" in r.url.path}
    assert keys == {receipt.idempotency_key}
    assert len(service.jobs) == 1


async def test_persistent_429_becomes_rate_limited_error() -> None:
    service = FakeService()
    service.faults.append(
        fail_times(99, lambda r: problem(429, "rate_limited", "x", retry_after=0))
    )
    async with client_for(service, max_retries=2) as client:
        with pytest.raises(RateLimitedError) as info:
            await client.upload(Tool.ICR, PDF)
    assert is_transient(info.value)
    assert sum("/Upload/" in r.url.path for r in service.requests) == 3


async def test_retry_after_beyond_backoff_max_is_left_to_the_caller() -> None:
    service = FakeService()
    service.faults.append(
        fail_times(99, lambda r: problem(429, "rate_limited", "x", retry_after=60))
    )
    async with client_for(service) as client:
        started = time.monotonic()
        with pytest.raises(RateLimitedError) as info:
            await client.upload(Tool.ICR, PDF)
    assert time.monotonic() - started < 1
    assert info.value.retry_after == pytest.approx(60)


async def test_5xx_burst_is_retried_and_same_job_returned() -> None:
    service = FakeService()

    def flaky_after_create(request: httpx.Request) -> httpx.Response | None:
        # The server created the job but the answer was lost: the retry must not create
        # a second one.
        if "/Upload/" in request.url.path and len(service.uploads) < 2:
            service._upload(request)
            return problem(502, "bad_gateway", "upstream hiccup")
        return None

    service.faults.append(flaky_after_create)
    service.faults.append(fail_times(2, lambda r: problem(503, "unavailable", "busy"), "/Result/"))
    async with client_for(service) as client:
        receipt = await client.upload(Tool.ICR, PDF)
        job = await client.get_json_result(receipt.job_id)
    assert len(service.jobs) == 1 and job.job_id == receipt.job_id
    assert len({r.headers["Idempotency-Key"] for r in service.uploads}) == 1


async def test_persistent_5xx_is_bounded() -> None:
    service = FakeService()
    service.faults.append(fail_times(99, lambda r: problem(500, "internal_error", "boom")))
    async with client_for(service, max_retries=3) as client:
        with pytest.raises(ServiceUnavailableError, match="boom"):
            await client.upload(Tool.ICR, PDF)
    assert sum("/Upload/" in r.url.path for r in service.requests) == 4


async def test_timeouts_are_retried_then_surface_as_transport_error() -> None:
    service = FakeService()
    service.faults.append(raise_times(2, httpx.ReadTimeout))
    async with client_for(service) as client:
        await client.upload(Tool.ICR, PDF)
    service.faults.append(raise_times(99, httpx.ConnectError))
    async with client_for(service, max_retries=1) as client:
        with pytest.raises(DocAITransportError) as info:
            await client.upload(Tool.ICR, PDF)
    assert is_transient(info.value)


async def test_insufficient_credits_fails_fast() -> None:
    service = FakeService()
    service.faults.append(
        fail_times(
            99,
            lambda r: problem(400, "insufficient_credits", "needs 3 credits, 1 left"),
            "/Upload/",
        )
    )
    async with client_for(service) as client:
        with pytest.raises(InsufficientCreditsError, match="needs 3 credits") as info:
            await client.upload(Tool.ICR, PDF)
    assert sum("/Upload/" in r.url.path for r in service.requests) == 1
    assert info.value.status == 400 and info.value.code == "insufficient_credits"
    assert not is_transient(info.value)


async def test_bad_request_carries_problem_detail() -> None:
    service = FakeService()
    service.faults.append(
        fail_times(1, lambda r: problem(400, "invalid_threshold", "threshold must be in [0, 1]"))
    )
    async with client_for(service) as client:
        with pytest.raises(RequestRejectedError) as info:
            await client.upload(Tool.ICR, PDF, threshold=2)
    assert info.value.code == "invalid_threshold"
    assert "threshold must be in [0, 1]" in str(info.value)
    assert not isinstance(info.value, InsufficientCreditsError)


async def test_engine_not_available_fails_fast() -> None:
    service = FakeService()
    service.faults.append(fail_times(9, lambda r: problem(501, "engine_not_available", "no")))
    async with client_for(service) as client:
        with pytest.raises(RequestRejectedError) as info:
            await client.upload(Tool.RECEIPT, PDF)
    assert info.value.status == 501
    assert sum("/Upload/" in r.url.path for r in service.requests) == 1


async def test_wait_tells_not_yet_from_never() -> None:
    service = FakeService(polls_until_done=3)
    async with client_for(service) as client:
        receipt = await client.upload(Tool.ICR, PDF)
        job = await client.wait_for_result(receipt.job_id, poll_interval=0.01)
        assert job.status == "succeeded"
        assert service.jobs[receipt.job_id] == 4

        polls_before = len(service.requests)
        with pytest.raises(JobNotFoundError) as info:
            await client.wait_for_result("no-such-job", poll_interval=0.01)
        assert len(service.requests) == polls_before + 1  # "never" is not polled again
        assert not info.value.expired

    expired = FakeService()
    expired.faults.append(
        fail_times(
            1, lambda r: problem(404, "job_expired", "gone", jobStatus="expired"), "/Result/"
        )
    )
    async with client_for(expired) as client:
        with pytest.raises(JobNotFoundError) as info:
            await client.wait_for_result("old-job")
        assert info.value.expired


async def test_wait_times_out_with_last_status() -> None:
    service = FakeService(polls_until_done=10_000)
    async with client_for(service) as client:
        receipt = await client.upload(Tool.ICR, PDF)
        started = time.monotonic()
        with pytest.raises(ResultTimeoutError) as info:
            await client.wait_for_result(receipt.job_id, timeout=0.5, poll_interval=0.05)
    assert 0.5 <= time.monotonic() - started < 3
    assert info.value.last_status == "processing"


async def test_failed_job_raises_with_envelope() -> None:
    service = FakeService(job_status="failed")
    async with client_for(service) as client:
        receipt = await client.upload(Tool.ICR, PDF)
        with pytest.raises(JobFailedError, match="corrupt_document") as info:
            await client.wait_for_result(receipt.job_id)
        assert info.value.result is not None and info.value.result.status == "failed"
        job = await client.get_json_result(receipt.job_id, raise_on_failure=False)
        assert job.error is not None


async def test_zip_and_file_results() -> None:
    service = FakeService()
    async with client_for(service) as client:
        receipt = await client.upload(Tool.TABLE_EXTRACTION, PDF)
        archive = await client.get_zip_result(receipt.job_id)
        csv = await client.get_file_result(receipt.job_id, "CSV")
        with pytest.raises(RequestRejectedError):
            await client.get_file_result(receipt.job_id, "XLSX")
    assert archive.content.startswith(b"PK") and archive.file_name == f"{receipt.job_id}.zip"
    assert csv.content == b"a,b\n1,2\n" and csv.media_type.startswith("text/csv")


async def test_secrets_stay_out_of_logs_and_reprs(caplog: pytest.LogCaptureFixture) -> None:
    service = FakeService()
    service.faults.append(fail_times(1, lambda r: problem(503, "busy", "x", retry_after=0)))
    caplog.set_level(logging.DEBUG)
    async with client_for(service) as client:
        token = await client.request_access_token()
        await client.upload(Tool.ICR, PDF)
        service.revoke_all_tokens()
        await client.upload(Tool.ICR, PDF)
        text = caplog.text + repr(client.config) + str(client.config) + repr(token)
    assert CLIENT_SECRET not in text
    assert token.access_token.get_secret_value() not in text
    assert "retry 1" in caplog.text  # the logs were captured at all


async def test_wait_rides_out_an_outage_longer_than_the_client_retries() -> None:
    service = FakeService()
    async with client_for(service, max_retries=1) as client:
        receipt = await client.upload(Tool.ICR, PDF)
        service.faults.append(
            fail_times(5, lambda r: problem(503, "unavailable", "restarting"), "/Result/")
        )
        job = await client.wait_for_result(receipt.job_id, poll_interval=0.01)
        assert job.status == "succeeded"

        service.faults.append(
            fail_times(10_000, lambda r: problem(502, "bad_gateway", "down"), "/Result/")
        )
        with pytest.raises(ServiceUnavailableError):
            await client.wait_for_result(receipt.job_id, timeout=0.3, poll_interval=0.01)
