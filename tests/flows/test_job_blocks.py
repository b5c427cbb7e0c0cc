"""The job blocks (issue 19.7): prefect-dbt's ``trigger()`` → ``wait_for_completion()`` →
``fetch_result()``, one name each for sync and async code, against the embedded service."""

from __future__ import annotations

import asyncio
import uuid
from abc import ABC
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.unit.client.echo_engine import ENGINES, pdf

from prefect_docai.blocks import (
    JOB_BLOCKS,
    DocAICredentials,
    DocAIIcrJob,
    DocAIJob,
    DocAITableExtractionJob,
    UploadParameters,
)
from prefect_docai.client import JobFailedError
from prefect_docai.models import IcrResult, JobResult, TableExtractionResult, Tool
from prefect_docai.server.embedded import EmbeddedService

pytestmark = [pytest.mark.flows, pytest.mark.timeout(300)]


@pytest.fixture(scope="module")
def credentials() -> Iterator[DocAICredentials]:
    with EmbeddedService(workers=1, engines=ENGINES, retry_after=1) as service:
        creds = service.create_client("job-blocks", credits=100)
        yield DocAICredentials(
            client_id=creds.client_id,
            client_secret=creds.client_secret,
            base_url=service.base_url,
            token_url=service.token_url,
            requests_per_second=20.0,
        )


def test_one_block_type_per_tool() -> None:
    assert sorted(b.tool for b in JOB_BLOCKS) == sorted(Tool)
    assert len({b.get_block_type_slug() for b in JOB_BLOCKS}) == len(Tool)
    # The tool-less base is no block type of its own: Prefect skips classes based on ABC.
    assert ABC in DocAIJob.__bases__ and all(ABC not in b.__bases__ for b in JOB_BLOCKS)


def test_sync_trigger_wait_fetch_and_a_saved_block(
    credentials: DocAICredentials, tmp_path: Path
) -> None:
    path = tmp_path / "letter.pdf"
    path.write_bytes(pdf("Dear DocAI"))
    name = f"letter-{uuid.uuid4().hex[:8]}"
    DocAIIcrJob(credentials=credentials, document=str(path), poll_interval=0.2).save(name)
    job = DocAIIcrJob.load(name)  # credentials nested, secret kept
    run = job.trigger()
    run.wait_for_completion()
    envelope = run.fetch_result()
    assert isinstance(envelope, JobResult) and envelope.job_id == run.job_id
    assert envelope.status == "succeeded"
    text = run.fetch_tool_result()
    assert isinstance(text, IcrResult) and text.text == "Dear DocAI"


def test_the_same_names_await_in_async_code(credentials: DocAICredentials) -> None:
    async def main() -> tuple[JobResult, object]:
        job = DocAITableExtractionJob(
            credentials=credentials,
            document="memory://cells.pdf",
            options=UploadParameters(output_formats=["CSV"]),
            poll_interval=0.2,
        )
        run = await job.trigger()
        await run.wait_for_completion()
        return await run.fetch_result(), await run.fetch_tool_result()

    import fsspec

    with fsspec.open("memory://cells.pdf", "wb") as f:
        f.write(pdf("a cell", "another"))
    envelope, tables = asyncio.run(main())
    assert envelope.tool.endswith("TableExtraction")
    assert isinstance(tables, TableExtractionResult)
    assert [c.text for c in tables.tables[0].cells] == ["a cell", "another"]


def test_a_failed_job_raises_when_waited_for(credentials: DocAICredentials) -> None:
    import fsspec

    with fsspec.open("memory://fail.pdf", "wb") as f:
        f.write(pdf("please FAIL"))
    run = DocAIIcrJob(
        credentials=credentials, document="memory://fail.pdf", poll_interval=0.2
    ).trigger()
    with pytest.raises(JobFailedError, match="test_failure"):
        run.wait_for_completion()
