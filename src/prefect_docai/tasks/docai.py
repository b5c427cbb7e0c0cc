"""Prefect tasks over the DocAI client: one name per task for sync and async flows.

Each task is an ``a``-prefixed async task plus a sync task of the plain name that
dispatches to it (Prefect's ``async_dispatch``, the pattern of prefect-aws' ``s3.py``):
called from an async flow or task, ``upload_document(...)`` returns the coroutine of
``aupload_document``, so ``await upload_document(...)`` works; from a sync flow it runs the
sync task. ``upload_document.aio`` is the async task (``.with_options``, ``.submit``).

Each task opens a client from the credentials block for its own call. That is cheap: the
access token and the request pace live per credentials in the process, not per client.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from prefect import get_run_logger, task
from prefect._internal.compatibility.async_dispatch import async_dispatch
from prefect.cache_policies import NO_CACHE
from prefect.runtime import task_run as runtime_task_run

from prefect_docai.blocks import DocAICredentials, UploadParameters
from prefect_docai.client import (
    AccessToken,
    DocumentInput,
    ResultFile,
    UploadReceipt,
)
from prefect_docai.models import JobResult, Tool
from prefect_docai.tasks.policies import (
    RETRIES,
    RETRY_DELAY_SECONDS,
    RETRY_JITTER_FACTOR,
    document_cache_key,
    job_cache_key,
    retry_transient,
)

JOB_CACHE_EXPIRATION = timedelta(hours=12)
"""Job ids are kept shorter than the service's result retention (24 h by default)."""
RESULT_CACHE_EXPIRATION = timedelta(days=7)

_RETRY: dict[str, Any] = {
    "retries": RETRIES,
    "retry_delay_seconds": RETRY_DELAY_SECONDS,
    "retry_jitter_factor": RETRY_JITTER_FACTOR,
    "retry_condition_fn": retry_transient,
}
_UPLOAD: dict[str, Any] = _RETRY | {
    "cache_key_fn": document_cache_key,
    "cache_expiration": JOB_CACHE_EXPIRATION,
}
_RESULT: dict[str, Any] = _RETRY | {
    "cache_key_fn": job_cache_key,
    "cache_expiration": RESULT_CACHE_EXPIRATION,
}
_RUN_TOOL: dict[str, Any] = _RETRY | {
    "cache_key_fn": document_cache_key,
    "cache_expiration": RESULT_CACHE_EXPIRATION,
}
# The token is a secret: never cached, never persisted as a task result.
_TOKEN: dict[str, Any] = _RETRY | {"cache_policy": NO_CACHE, "persist_result": False}


_NO_PARAMETERS = UploadParameters()


def _idempotency_key() -> str | None:
    """One key per task run: Prefect's retries of the run reuse it, so a retried upload
    returns the job the first attempt created instead of paying for a second one."""
    run_id = runtime_task_run.id
    return f"prefect-task-run-{run_id}" if run_id else None


def _log_upload(receipt: UploadReceipt) -> None:
    get_run_logger().info(
        "%s (%d bytes, sha256 %s…) → %s job %s",
        receipt.file_name,
        receipt.size,
        receipt.sha256[:12],
        receipt.tool.value,
        receipt.job_id,
    )


# --- access token ---------------------------------------------------------------------


@task(name="docai-request-access-token", **_TOKEN)
async def arequest_access_token(credentials: DocAICredentials) -> AccessToken:
    """The current access token of the credentials (cached process-wide until near expiry)."""
    async with credentials.get_client() as client:
        return await client.request_access_token()


@async_dispatch(arequest_access_token)
@task(name="docai-request-access-token", **_TOKEN)
def request_access_token(credentials: DocAICredentials) -> AccessToken:
    """The current access token of the credentials (cached process-wide until near expiry)."""
    with credentials.get_sync_client() as client:
        return client.request_access_token()


# --- upload ---------------------------------------------------------------------------


@task(name="docai-upload-document", task_run_name="upload-{tool}", **_UPLOAD)
async def aupload_document(
    credentials: DocAICredentials,
    tool: Tool | str,
    document: DocumentInput,
    options: UploadParameters = _NO_PARAMETERS,
) -> UploadReceipt:
    """Upload a document (bytes, path, fsspec URL or file) to a tool; returns the job."""
    async with credentials.get_client() as client:
        receipt = await client.upload(tool, document, **options.client_options(_idempotency_key()))
    _log_upload(receipt)
    return receipt


@async_dispatch(aupload_document)
@task(name="docai-upload-document", task_run_name="upload-{tool}", **_UPLOAD)
def upload_document(
    credentials: DocAICredentials,
    tool: Tool | str,
    document: DocumentInput,
    options: UploadParameters = _NO_PARAMETERS,
) -> UploadReceipt:
    """Upload a document (bytes, path, fsspec URL or file) to a tool; returns the job."""
    with credentials.get_sync_client() as client:
        receipt = client.upload(tool, document, **options.client_options(_idempotency_key()))
    _log_upload(receipt)
    return receipt


# --- results --------------------------------------------------------------------------


@task(name="docai-get-json-result", **_RESULT)
async def aget_json_result(credentials: DocAICredentials, job_id: str) -> JobResult:
    """The job's result envelope; fails with a transient error while the job is running."""
    async with credentials.get_client() as client:
        return await client.get_json_result(job_id)


@async_dispatch(aget_json_result)
@task(name="docai-get-json-result", **_RESULT)
def get_json_result(credentials: DocAICredentials, job_id: str) -> JobResult:
    """The job's result envelope; fails with a transient error while the job is running."""
    with credentials.get_sync_client() as client:
        return client.get_json_result(job_id)


@task(name="docai-get-zip-result", **_RESULT)
async def aget_zip_result(credentials: DocAICredentials, job_id: str) -> ResultFile:
    """The job's ZIP archive (ICR: searchable PDF + text; PaperFlow: one PDF per document)."""
    async with credentials.get_client() as client:
        return await client.get_zip_result(job_id)


@async_dispatch(aget_zip_result)
@task(name="docai-get-zip-result", **_RESULT)
def get_zip_result(credentials: DocAICredentials, job_id: str) -> ResultFile:
    """The job's ZIP archive (ICR: searchable PDF + text; PaperFlow: one PDF per document)."""
    with credentials.get_sync_client() as client:
        return client.get_zip_result(job_id)


@task(name="docai-get-file-result", **_RESULT)
async def aget_file_result(
    credentials: DocAICredentials, job_id: str, output_type: str = "CSV"
) -> ResultFile:
    """One result file of the job (``CSV`` for table extraction)."""
    async with credentials.get_client() as client:
        return await client.get_file_result(job_id, output_type)


@async_dispatch(aget_file_result)
@task(name="docai-get-file-result", **_RESULT)
def get_file_result(
    credentials: DocAICredentials, job_id: str, output_type: str = "CSV"
) -> ResultFile:
    """One result file of the job (``CSV`` for table extraction)."""
    with credentials.get_sync_client() as client:
        return client.get_file_result(job_id, output_type)


@task(name="docai-poll-for-result", **_RESULT)
async def apoll_for_result(
    credentials: DocAICredentials,
    job_id: str,
    timeout: float = 600.0,
    poll_interval: float = 1.0,
) -> JobResult:
    """Poll until the job is done (or ``timeout``); a failed or unknown job fails at once."""
    async with credentials.get_client() as client:
        return await client.wait_for_result(job_id, timeout=timeout, poll_interval=poll_interval)


@async_dispatch(apoll_for_result)
@task(name="docai-poll-for-result", **_RESULT)
def poll_for_result(
    credentials: DocAICredentials,
    job_id: str,
    timeout: float = 600.0,
    poll_interval: float = 1.0,
) -> JobResult:
    """Poll until the job is done (or ``timeout``); a failed or unknown job fails at once."""
    with credentials.get_sync_client() as client:
        return client.wait_for_result(job_id, timeout=timeout, poll_interval=poll_interval)


# --- upload + wait --------------------------------------------------------------------


@task(name="docai-run-tool", task_run_name="run-{tool}", **_RUN_TOOL)
async def arun_tool(
    credentials: DocAICredentials,
    tool: Tool | str,
    document: DocumentInput,
    options: UploadParameters = _NO_PARAMETERS,
    timeout: float = 600.0,
) -> JobResult:
    """Upload a document to a tool, wait for the job and return its result envelope."""
    async with credentials.get_client() as client:
        receipt = await client.upload(tool, document, **options.client_options(_idempotency_key()))
        _log_upload(receipt)
        return await client.wait_for_result(receipt.job_id, timeout=timeout)


@async_dispatch(arun_tool)
@task(name="docai-run-tool", task_run_name="run-{tool}", **_RUN_TOOL)
def run_tool(
    credentials: DocAICredentials,
    tool: Tool | str,
    document: DocumentInput,
    options: UploadParameters = _NO_PARAMETERS,
    timeout: float = 600.0,
) -> JobResult:
    """Upload a document to a tool, wait for the job and return its result envelope."""
    with credentials.get_sync_client() as client:
        receipt = client.upload(tool, document, **options.client_options(_idempotency_key()))
        _log_upload(receipt)
        return client.wait_for_result(receipt.job_id, timeout=timeout)
