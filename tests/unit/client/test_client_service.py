"""The client against the real service on loopback (uvicorn, SQLite, worker processes)."""

from __future__ import annotations

import asyncio
import io
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.unit.client.echo_engine import ENGINES, pdf

from prefect_docai.client import (
    AuthenticationError,
    ClientConfig,
    DocAIClient,
    InsufficientCreditsError,
    JobFailedError,
    JobNotFoundError,
    RequestRejectedError,
    SyncDocAIClient,
    result_as,
    tool_result,
)
from prefect_docai.models import IcrResult, TableExtractionResult, Tool
from prefect_docai.server.embedded import EmbeddedService


@pytest.fixture(scope="module")
def service() -> Iterator[EmbeddedService]:
    with EmbeddedService(workers=1, engines=ENGINES, retry_after=1) as svc:
        yield svc


def config_for(service: EmbeddedService, credits: int = 100, **overrides: object) -> ClientConfig:
    creds = service.create_client("client-tests", credits=credits)
    values: dict[str, object] = {
        "base_url": service.base_url,
        "token_url": service.token_url,
        "client_id": creds.client_id,
        "client_secret": creds.client_secret,
        "requests_per_second": 20.0,
    }
    return ClientConfig(**(values | overrides))  # type: ignore[arg-type]


def test_run_tool_end_to_end_with_typed_result(service: EmbeddedService, tmp_path: Path) -> None:
    config = config_for(service)
    source = tmp_path / "two-pages.pdf"
    source.write_bytes(pdf("Hello DocAI", "Second page"))
    with SyncDocAIClient(config) as client:
        receipt = client.upload(
            Tool.ICR, source, output_formats=["JSON", "TXT"], language_hint="de"
        )
        job = client.wait_for_result(receipt.job_id, timeout=60, poll_interval=0.2)
        archive = client.get_zip_result(receipt.job_id)
        text = client.get_file_result(receipt.job_id, "TXT")
        with pytest.raises(RequestRejectedError) as info:
            client.get_file_result(receipt.job_id, "PDF")  # produced only when requested
        assert info.value.code == "file_not_found"
        assert client.get_credits() == 100 - 2
    assert job.status == "succeeded" and job.page_count == 2
    assert job.document.sha256 == receipt.sha256 and job.document.file_name == "two-pages.pdf"
    icr = result_as(job, IcrResult)
    assert isinstance(tool_result(job), IcrResult)
    assert icr.pages[0].text == "Hello DocAI" and icr.language == "deu"
    assert b"Second page" in text.content
    assert "document.txt" in zipfile.ZipFile(io.BytesIO(archive.content)).namelist()
    with pytest.raises(TypeError):
        result_as(job, TableExtractionResult)


@pytest.mark.parametrize(
    ("auth_method", "token_header"),
    [("client_secret_basic", "authorization"), ("client_secret_post", "accessToken")],
)
def test_auth_styles_against_the_service(
    service: EmbeddedService, auth_method: str, token_header: str
) -> None:
    config = config_for(service, auth_method=auth_method, token_header=token_header)

    async def main() -> None:
        async with DocAIClient(config) as client:
            job = await client.run_tool(Tool.TABLE_EXTRACTION, pdf("a cell"), timeout=60)
            table = result_as(job, TableExtractionResult)
            assert table.tables[0].cells[0].text == "a cell"
            csv = await client.get_file_result(job.job_id, "CSV")
            assert csv.content.strip() == b'"a cell"'

    asyncio.run(main())


def test_idempotency_key_makes_a_repeated_upload_the_same_job(service: EmbeddedService) -> None:
    config = config_for(service)
    document = pdf("only once")
    with SyncDocAIClient(config) as client:
        first = client.upload(Tool.ICR, document, idempotency_key="logical-upload-1")
        again = client.upload(Tool.ICR, document, idempotency_key="logical-upload-1")
        other = client.upload(Tool.ICR, document)
        assert first.job_id == again.job_id != other.job_id
        assert client.get_credits() == 100 - 2


def test_final_errors_from_the_service(service: EmbeddedService) -> None:
    config = config_for(service, credits=1)
    with SyncDocAIClient(config) as client:
        with pytest.raises(InsufficientCreditsError):
            client.upload(Tool.ICR, pdf("one", "two"))
        with pytest.raises(RequestRejectedError) as rejected:
            client.upload(Tool.ICR, pdf("x"), threshold=7)
        assert rejected.value.status == 400 and rejected.value.detail
        with pytest.raises(RequestRejectedError) as no_engine:
            client.upload(Tool.RECEIPT, pdf("x"))
        assert no_engine.value.status == 501
        with pytest.raises(JobNotFoundError):
            client.wait_for_result("does-not-exist")
        failed = client.upload(Tool.ICR, pdf("please FAIL"))
        with pytest.raises(JobFailedError) as info:
            client.wait_for_result(failed.job_id, timeout=60, poll_interval=0.2)
        assert info.value.code == "test_failure"
        with pytest.raises(JobFailedError):
            client.get_zip_result(failed.job_id)
        assert client.get_credits() == 1  # the failed job's credit was refunded
    wrong = ClientConfig(**(config.model_dump() | {"client_secret": "not-the-secret"}))
    with SyncDocAIClient(wrong, share_state=False) as client, pytest.raises(AuthenticationError):
        client.get_credits()


def test_pending_jobs_are_polled_until_done(service: EmbeddedService) -> None:
    config = config_for(service)
    with SyncDocAIClient(config) as client:
        receipt = client.upload(Tool.ICR, pdf("SLEEP 1.5"))
        started = time.monotonic()
        job = client.wait_for_result(receipt.job_id, timeout=60, poll_interval=0.2)
    assert job.status == "succeeded"
    assert time.monotonic() - started >= 1.0
