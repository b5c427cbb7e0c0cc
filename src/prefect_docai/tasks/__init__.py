"""Prefect tasks of prefect-docai: thin wrappers over the client with retries and caching."""

from prefect_docai.tasks.docai import (
    aget_file_result,
    aget_json_result,
    aget_zip_result,
    arequest_access_token,
    arun_tool,
    aupload_document,
    await_for_result,
    get_file_result,
    get_json_result,
    get_zip_result,
    request_access_token,
    run_tool,
    upload_document,
    wait_for_result,
)
from prefect_docai.tasks.policies import document_cache_key, job_cache_key, retry_transient

__all__ = [
    "aget_file_result",
    "aget_json_result",
    "aget_zip_result",
    "arequest_access_token",
    "arun_tool",
    "aupload_document",
    "await_for_result",
    "document_cache_key",
    "get_file_result",
    "get_json_result",
    "get_zip_result",
    "job_cache_key",
    "request_access_token",
    "retry_transient",
    "run_tool",
    "upload_document",
    "wait_for_result",
]
