"""Request pacing across callers, threads and loops; the blocking facade; document inputs."""

from __future__ import annotations

import asyncio
import io
import threading
import time
from pathlib import Path

import fsspec
import httpx
import pytest
from tests.unit.client.fakes import FakeService, fail_times, problem

from prefect_docai.client import (
    DocAIClient,
    JobNotFoundError,
    RateLimiter,
    SyncDocAIClient,
    document_sha256,
    load_document,
)
from prefect_docai.models import Tool

PDF = b"%PDF-1.4\n% pacing test\n"


def test_limiter_spaces_slots_and_defers() -> None:
    now = [100.0]
    limiter = RateLimiter(2.0, clock=lambda: now[0])
    assert [limiter.reserve() for _ in range(4)] == [0.0, 0.5, 1.0, 1.5]
    now[0] = 110.0
    assert limiter.reserve() == 0.0
    limiter.defer(3.0)
    assert limiter.reserve() == 3.0
    with pytest.raises(ValueError):
        RateLimiter(0)


def test_pace_margin_spaces_slots_wider_than_the_rate() -> None:
    service = FakeService()
    client = DocAIClient(
        service.config(requests_per_second=4.0, pace_margin=0.25), share_state=False
    )
    assert client.limiter is not None and client.limiter.rate == pytest.approx(4.0 / 1.25)
    exact = DocAIClient(service.config(requests_per_second=4.0, pace_margin=0), share_state=False)
    assert exact.limiter is not None and exact.limiter.rate == pytest.approx(4.0)


@pytest.mark.parametrize("n", [6])
def test_concurrent_uploads_keep_the_rate(n: int) -> None:
    rate = 10.0
    service = FakeService()

    async def main() -> float:
        clients = [
            DocAIClient(service.config(requests_per_second=rate), transport=service.transport())
            for _ in range(2)
        ]
        started = time.monotonic()
        await asyncio.gather(*(clients[i % 2].upload(Tool.ICR, PDF) for i in range(n)))
        elapsed = time.monotonic() - started
        for c in clients:
            await c.aclose()
        return elapsed

    elapsed = asyncio.run(main())
    assert elapsed >= (n - 1) / rate
    assert len(service.token_requests) == 1


def test_per_tool_rate_applies_to_that_tool_only() -> None:
    service = FakeService()
    config = service.config(requests_per_second=None, tool_requests_per_second={"ICR": 2.0})

    async def main() -> tuple[float, float]:
        async with DocAIClient(config, transport=service.transport()) as client:
            t0 = time.monotonic()
            await asyncio.gather(*(client.upload(Tool.ICR, PDF) for _ in range(3)))
            t1 = time.monotonic()
            await asyncio.gather(*(client.upload(Tool.CLASSIFY, PDF) for _ in range(3)))
            return t1 - t0, time.monotonic() - t1

    icr, classify = asyncio.run(main())
    assert icr >= 2 / 2.0
    assert classify < 0.6


def test_retry_after_holds_back_every_caller_of_the_credentials() -> None:
    service = FakeService()
    refused_at: list[float] = []

    def refuse(request: object) -> httpx.Response:
        refused_at.append(time.monotonic())
        return problem(429, "rate_limited", "wait", retry_after=0.5)

    service.faults.append(fail_times(1, refuse, "/Upload/"))
    config = service.config(requests_per_second=100.0, backoff_max=2.0)

    async def main() -> None:
        async with DocAIClient(config, transport=service.transport()) as client:
            await asyncio.gather(*(client.upload(Tool.ICR, PDF) for _ in range(4)))

    asyncio.run(main())
    assert len(refused_at) == 1 and len(service.upload_times) == 4
    # Every caller of these credentials waited for the server's Retry-After, not just the
    # one that was refused (a caller that had already taken its slot may go first).
    late = [t for t in service.upload_times if t - refused_at[0] >= 0.45]
    assert len(late) >= 3


def test_sync_client_from_threads_shares_token_and_pace() -> None:
    service = FakeService(token_delay=0.1)
    config = service.config(requests_per_second=20.0)
    errors: list[BaseException] = []

    def worker() -> None:
        try:
            with SyncDocAIClient(config, transport=service.transport()) as client:
                receipt = client.upload(Tool.ICR, PDF, file_name="t.pdf")
                job = client.wait_for_result(receipt.job_id, poll_interval=0.01)
                assert job.job_id == receipt.job_id
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=worker) for _ in range(4)]
    started = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert not errors, errors
    assert len(service.token_requests) == 1
    # 4 uploads + 4 result fetches, all through one pace of 20/s
    assert time.monotonic() - started >= 7 / 20.0


def test_sync_client_inside_a_running_loop_and_errors_cross_the_portal() -> None:
    service = FakeService()

    async def main() -> None:
        with SyncDocAIClient(service.config(), transport=service.transport()) as client:
            assert client.get_credits() == 42
            with pytest.raises(JobNotFoundError):
                client.get_json_result("missing")
            assert client.request_access_token().expires_in == 300
            result = client.run_tool("ICR", PDF, timeout=5)
            assert result.status == "succeeded"
            assert client.get_zip_result(result.job_id).content.startswith(b"PK")
            assert client.get_file_result(result.job_id).content.startswith(b"a,b")

    asyncio.run(main())


def test_document_inputs(tmp_path: Path) -> None:
    path = tmp_path / "scan.pdf"
    path.write_bytes(PDF)
    with fsspec.open("memory://inbox/mem.png", "wb") as handle:
        handle.write(PDF)
    expected = load_document(PDF).sha256

    from_bytes = load_document(PDF, "given.pdf")
    assert (from_bytes.file_name, from_bytes.media_type) == ("given.pdf", "application/pdf")
    from_path = load_document(path)
    assert from_path.file_name == "scan.pdf" and from_path.sha256 == expected
    from_str = load_document(str(path))
    assert from_str.content == PDF
    from_url = load_document("memory://inbox/mem.png")
    assert (from_url.file_name, from_url.media_type) == ("mem.png", "image/png")
    from_openfile = load_document(fsspec.open("memory://inbox/mem.png"))
    assert from_openfile.file_name == "mem.png" and from_openfile.sha256 == expected

    stream = io.BytesIO(PDF)
    assert document_sha256(stream) == expected
    assert load_document(stream).content == PDF  # hashing did not consume the stream
    assert document_sha256(path) == expected
    assert load_document(b"\x00", "x.unknownext").media_type == "application/octet-stream"


def test_an_unclosed_sync_client_does_not_block_interpreter_exit() -> None:
    import subprocess
    import sys

    code = (
        "from prefect_docai.client import ClientConfig, SyncDocAIClient\n"
        "c = SyncDocAIClient(ClientConfig(base_url='http://127.0.0.1:9', client_id='a',"
        " client_secret='b'))\n"
        "print('started')\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=30, check=True
    )
    assert out.stdout.strip() == "started"


def test_closing_twice_and_after_use_is_harmless() -> None:
    service = FakeService()
    client = SyncDocAIClient(service.config(), transport=service.transport())
    assert client.get_credits() == 42
    client.close()
    client.close()
    with pytest.raises(RuntimeError):
        client.get_credits()
