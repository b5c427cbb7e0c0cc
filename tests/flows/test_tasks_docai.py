"""The DocAI tasks in real flows: against the embedded service for the happy paths, and
against a scripted fake (respx, loopback passes through to the Prefect API) for faults."""

from __future__ import annotations

import asyncio
import hashlib
import io
import zipfile
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import httpx
import pytest
import respx
from prefect import flow, get_client
from prefect.client.schemas.filters import (
    FlowRunFilter,
    FlowRunFilterId,
    LogFilter,
    LogFilterFlowRunId,
)
from prefect.client.schemas.sorting import TaskRunSort
from prefect.logging.handlers import APILogHandler
from prefect.states import State
from tests.unit.client.echo_engine import ENGINES, pdf
from tests.unit.client.fakes import CLIENT_ID, CLIENT_SECRET, FakeService, fail_times, problem

from prefect_docai.blocks import DocAICredentials
from prefect_docai.client import (
    InsufficientCreditsError,
    JobFailedError,
    RateLimitedError,
    ServiceUnavailableError,
    result_as,
)
from prefect_docai.models import IcrResult, JobResult, TableExtractionResult, Tool
from prefect_docai.server.embedded import EmbeddedService
from prefect_docai.tasks import (
    UploadParameters,
    arun_tool,
    aupload_document,
    document_cache_key,
    get_file_result,
    get_json_result,
    get_zip_result,
    job_cache_key,
    poll_for_result,
    request_access_token,
    retry_transient,
    run_tool,
    upload_document,
)


@pytest.fixture(scope="module")
def service() -> Iterator[EmbeddedService]:
    with EmbeddedService(workers=1, engines=ENGINES, retry_after=1) as svc:
        yield svc


def credentials_for(service: EmbeddedService, credits: int = 100) -> DocAICredentials:
    creds = service.create_client("task-tests", credits=credits)
    return DocAICredentials(
        client_id=creds.client_id,
        client_secret=creds.client_secret,
        base_url=service.base_url,
        token_url=service.token_url,
        requests_per_second=20.0,
    )


def flow_logs(state: State[Any]) -> str:
    APILogHandler().flush()
    flow_run_id = state.state_details.flow_run_id
    assert flow_run_id is not None
    with get_client(sync_client=True) as client:
        logs = client.read_logs(
            LogFilter(flow_run_id=LogFilterFlowRunId(any_=[flow_run_id])), limit=200, offset=0
        )
    return "\n".join(log.message for log in logs)


# --- happy paths against the real service -------------------------------------------------


def test_sync_tasks_in_a_flow(service: EmbeddedService, tmp_path: Path) -> None:
    credentials = credentials_for(service)
    secret = credentials.client_secret.get_secret_value()
    source = tmp_path / "letter.pdf"
    source.write_bytes(pdf("Dear DocAI", "page two"))

    @flow
    def pipeline() -> dict[str, Any]:
        token = request_access_token(credentials)
        receipt = upload_document(credentials, Tool.TABLE_EXTRACTION, source)
        job = poll_for_result(credentials, receipt.job_id, timeout=60, poll_interval=0.2)
        again = get_json_result(credentials, receipt.job_id)
        archive = get_zip_result(credentials, receipt.job_id)
        csv = get_file_result(credentials, receipt.job_id, "CSV")
        icr = run_tool(credentials, "ICR", pdf("run tool"), timeout=60)
        return {
            "token": token,
            "receipt": receipt,
            "job": job,
            "again": again,
            "archive": archive,
            "csv": csv,
            "icr": icr,
        }

    state = pipeline(return_state=True)
    out = state.result()
    assert out["token"].expires_in == 300
    assert out["receipt"].file_name == "letter.pdf"
    assert out["job"].job_id == out["again"].job_id == out["receipt"].job_id
    table = result_as(out["job"], TableExtractionResult)
    assert [c.text for c in table.tables[0].cells] == ["Dear DocAI", "page two"]
    assert "result.json" in zipfile.ZipFile(io.BytesIO(out["archive"].content)).namelist()
    assert out["csv"].content.splitlines() == [b'"Dear DocAI"', b'"page two"']
    assert result_as(out["icr"], IcrResult).text == "run tool"

    token = out["token"].access_token.get_secret_value()
    logs = flow_logs(state)
    assert "letter.pdf" in logs and out["receipt"].job_id in logs  # our log lines arrived
    assert secret not in logs and token not in logs
    # What the Prefect API holds about the task runs (inputs, cache keys, states) is clean too.
    with get_client(sync_client=True) as client:
        runs = client.read_task_runs(
            flow_run_filter=FlowRunFilter(
                id=FlowRunFilterId(any_=[state.state_details.flow_run_id])
            ),
            sort=TaskRunSort.EXPECTED_START_TIME_ASC,
            limit=50,
        )
    assert len(runs) == 7
    recorded = "".join(run.model_dump_json() for run in runs)
    assert secret not in recorded and token not in recorded


def test_the_same_names_in_an_async_flow(service: EmbeddedService) -> None:
    """One name per task: inside async code it hands back the async task's coroutine."""
    credentials = credentials_for(service)

    @flow
    async def pipeline() -> list[Any]:
        token = await request_access_token(credentials)
        receipt = await upload_document(
            credentials, Tool.ICR, pdf("async upload"), UploadParameters(output_formats=["TXT"])
        )
        job = await poll_for_result(credentials, receipt.job_id, timeout=60, poll_interval=0.2)
        fetched = await get_json_result(credentials, receipt.job_id)
        archive = await get_zip_result(credentials, receipt.job_id)
        text = await get_file_result(credentials, receipt.job_id, "TXT")
        many = await asyncio.gather(
            *(run_tool(credentials, Tool.ICR, pdf(f"doc {i}"), timeout=60) for i in range(3))
        )
        return [token, job, fetched, archive, text, many]

    token, job, fetched, archive, text, many = asyncio.run(pipeline())
    assert token.token_type == "Bearer"
    assert job.job_id == fetched.job_id
    assert archive.content.startswith(b"PK")
    assert text.content.strip() == b"async upload"
    assert sorted(result_as(r, IcrResult).text for r in many) == ["doc 0", "doc 1", "doc 2"]
    # The names are the async tasks' dispatchers: one task definition each, not two.
    assert run_tool.aio is arun_tool and upload_document.aio is aupload_document  # type: ignore[attr-defined]


def test_upload_options_are_one_typed_parameter() -> None:
    assert UploadParameters(output_formats=["PDF", "TXT"]).output_formats == ["PDF", "TXT"]
    with pytest.raises(ValueError, match="extra"):
        UploadParameters(languge_hint="de")  # type: ignore[call-arg]
    with pytest.raises(ValueError, match="less than or equal to 1"):
        UploadParameters(threshold=2)
    given = UploadParameters(idempotency_key="mine").client_options()
    assert given["idempotency_key"] == "mine"


def test_rerun_does_not_upload_again(service: EmbeddedService) -> None:
    credentials = credentials_for(service)
    document = pdf("cache me", "two pages")

    @flow
    def once(language: str) -> JobResult:
        return run_tool(
            credentials, Tool.ICR, document, UploadParameters(language_hint=language), timeout=60
        )

    first = once("en")
    second = once("en")
    assert first.job_id == second.job_id
    assert service.credits(credentials.client_id) == 100 - 2
    third = once("de")  # another parameter is another job
    assert third.job_id != first.job_id
    assert service.credits(credentials.client_id) == 100 - 4


async def outcome(state: State[Any]) -> dict[str, Any]:
    """What a test needs of a task's final state, as plain data (a flow that returned a
    failed state would itself fail)."""
    try:
        return {"failed": state.is_failed(), "value": await state.aresult(), "error": None}
    except BaseException as exc:
        return {"failed": state.is_failed(), "value": None, "error": exc}


def test_failed_job_fails_the_task_without_retrying(service: EmbeddedService) -> None:
    credentials = credentials_for(service)

    @flow
    async def pipeline() -> dict[str, Any]:
        state = await arun_tool.with_options(retry_delay_seconds=0)(
            credentials, Tool.ICR, pdf("please FAIL"), timeout=60, return_state=True
        )
        return await outcome(state)

    state = asyncio.run(pipeline(return_state=True))
    result = state.result()
    assert result["failed"] and isinstance(result["error"], JobFailedError)
    logs = flow_logs(state)
    assert "JobFailedError" in logs and "Retry 1/" not in logs


# --- policies -------------------------------------------------------------------------


def test_retry_condition_only_for_transient_failures() -> None:
    def state_of(exc: BaseException) -> Any:
        return SimpleNamespace(data=exc)

    task, run = SimpleNamespace(), SimpleNamespace()
    assert retry_transient(task, run, state_of(ServiceUnavailableError("503")))  # type: ignore[arg-type]
    assert retry_transient(task, run, state_of(RateLimitedError("429")))  # type: ignore[arg-type]
    assert not retry_transient(task, run, state_of(InsufficientCreditsError("400")))  # type: ignore[arg-type]
    assert not retry_transient(task, run, state_of(JobFailedError("x", job_id="j")))  # type: ignore[arg-type]
    assert not retry_transient(task, run, state_of(ValueError("bug")))  # type: ignore[arg-type]
    assert not retry_transient(task, run, SimpleNamespace(data=None))  # type: ignore[arg-type]


def test_cache_keys_use_content_and_client_id_never_the_secret(tmp_path: Path) -> None:
    document = pdf("key")
    path = tmp_path / "k.pdf"
    path.write_bytes(document)
    context = SimpleNamespace(task=SimpleNamespace(name="docai-run-tool"))

    def key(**overrides: Any) -> str | None:
        credentials = DocAICredentials(
            client_id=overrides.pop("client_id", "c1"),
            client_secret=overrides.pop("secret", "secret-one"),
            base_url="http://127.0.0.1:1",
        )
        options = {k: overrides.pop(k) for k in list(overrides) if k in UploadParameters.model_fields}
        parameters = {
            "credentials": credentials,
            "tool": Tool.ICR,
            "document": document,
            "options": UploadParameters(**options),
        }
        return document_cache_key(context, parameters | overrides)  # type: ignore[arg-type]

    base = key()
    assert base is not None
    assert key(secret="another-secret") == base
    assert key(document=path) == base  # same bytes from a path
    assert key(file_name="renamed.pdf") == base
    assert key(client_id="c2") != base
    assert key(tool=Tool.INVOICE) != base
    assert key(language_hint="de") != base
    assert key(output_formats=["TXT", "PDF"]) == key(output_formats=["PDF", "TXT"]) != base
    assert key(idempotency_key="another run") == base
    assert key(document=pdf("other")) != base
    assert "secret-one" not in base and hashlib.sha256(document).hexdigest() not in base
    assert key(document=tmp_path / "missing.pdf") is None  # the task reports the real error

    job_key = job_cache_key(
        SimpleNamespace(task=SimpleNamespace(name="docai-get-file-result")),  # type: ignore[arg-type]
        {
            "credentials": DocAICredentials(
                client_id="c1", client_secret="s", base_url="http://127.0.0.1:1"
            ),
            "job_id": "j1",
            "output_type": "CSV",
        },
    )
    assert job_key is not None and job_key.startswith("docai-")


# --- faults (scripted service; the Prefect API on loopback passes through) ----------------


@pytest.fixture
def fake() -> Iterator[FakeService]:
    service = FakeService()
    host = httpx.URL(service.base_url).host
    with respx.mock(assert_all_called=False) as router:
        router.route(host=host).mock(side_effect=service.handle)
        router.route().pass_through()
        yield service


def fake_credentials(service: FakeService) -> DocAICredentials:
    return DocAICredentials(
        client_id=CLIENT_ID,
        client_secret=CLIENT_SECRET,
        base_url=service.base_url,
        requests_per_second=None,
        max_retries=0,  # every failure reaches Prefect's retries
    )


def test_transient_failures_are_retried_by_prefect_with_one_idempotency_key(
    fake: FakeService,
) -> None:
    credentials = fake_credentials(fake)

    def lost_answer(request: httpx.Request) -> httpx.Response | None:
        # The job is created but the answer is lost, twice.
        if "/Upload/" in request.url.path and len(fake.uploads) < 2:
            fake._upload(request)
            return problem(503, "unavailable", "try again")
        return None

    fake.faults.append(lost_answer)

    @flow
    async def pipeline() -> dict[str, Any]:
        state = await aupload_document.with_options(retry_delay_seconds=0)(
            credentials, Tool.ICR, pdf("retry me"), return_state=True
        )
        return await outcome(state)

    state = asyncio.run(pipeline(return_state=True))
    receipt = state.result()["value"]
    keys = {r.headers["Idempotency-Key"] for r in fake.uploads}
    assert len(fake.uploads) == 3 and len(keys) == 1
    assert keys.pop().startswith("prefect-task-run-")
    assert list(fake.jobs) == [receipt.job_id]
    assert "Retry 2/3" in flow_logs(state)


def test_final_failures_are_not_retried(fake: FakeService) -> None:
    credentials = fake_credentials(fake)
    fake.faults.append(
        fail_times(9, lambda r: problem(400, "insufficient_credits", "no credits"), "/Upload/")
    )

    @flow
    async def pipeline() -> dict[str, Any]:
        state = await aupload_document.with_options(retry_delay_seconds=0)(
            credentials, Tool.ICR, pdf("no money"), return_state=True
        )
        return await outcome(state)

    state = asyncio.run(pipeline(return_state=True))
    result = state.result()
    assert result["failed"] and isinstance(result["error"], InsufficientCreditsError)
    assert "Retry 1/" not in flow_logs(state)
    assert sum("/Upload/" in r.url.path for r in fake.requests) == 1
