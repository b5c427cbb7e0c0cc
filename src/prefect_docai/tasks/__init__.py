"""Prefect tasks of prefect-docai: thin wrappers over the client with retries and caching.

Every task has one name for sync and async flows (``run_tool``); its ``a``-prefixed twin
(``arun_tool``) is the async task the name dispatches to inside async code.
"""

from prefect_docai.blocks.upload import UploadParameters
from prefect_docai.tasks.docai import (
    aget_file_result,
    aget_json_result,
    aget_zip_result,
    apoll_for_result,
    arequest_access_token,
    arun_tool,
    aupload_document,
    get_file_result,
    get_json_result,
    get_zip_result,
    poll_for_result,
    request_access_token,
    run_tool,
    upload_document,
)
from prefect_docai.tasks.policies import document_cache_key, job_cache_key, retry_transient

__all__ = [
    "UploadParameters",
    "aget_file_result",
    "aget_json_result",
    "aget_zip_result",
    "apoll_for_result",
    "arequest_access_token",
    "arun_tool",
    "aupload_document",
    "document_cache_key",
    "get_file_result",
    "get_json_result",
    "get_zip_result",
    "job_cache_key",
    "poll_for_result",
    "request_access_token",
    "retry_transient",
    "run_tool",
    "upload_document",
]
