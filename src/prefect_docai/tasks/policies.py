"""Retry and cache policies of the DocAI tasks."""

from __future__ import annotations

import hashlib
import json
import logging
from typing import Any

from prefect import Task
from prefect.client.schemas.objects import State, TaskRun
from prefect.context import TaskRunContext
from prefect.tasks import exponential_backoff

from prefect_docai.client import document_sha256, is_transient

logger = logging.getLogger("prefect_docai.tasks")

RETRIES = 3
RETRY_DELAY_SECONDS = exponential_backoff(backoff_factor=2)
"""2, 4, 8 s — on top of the client's own quick retries, for outages that outlast those."""
RETRY_JITTER_FACTOR = 0.5


def retry_transient(task: Task[..., Any], task_run: TaskRun, state: State[Any]) -> bool:
    """Retry only what can succeed later: transport errors, 429, 5xx, a result not ready.

    Never a refused request (400), refused credentials (401 after the client's refresh),
    insufficient credits, an unknown or failed job, or a missing concurrency limit.
    """
    exc = state.data if isinstance(state.data, BaseException) else None
    return exc is not None and is_transient(exc)


def _digest(parts: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()


def _service(parameters: dict[str, Any]) -> dict[str, Any]:
    """Who asks where: base URL, tool prefix and client id — never the secret."""
    credentials = parameters["credentials"]
    return {
        "base_url": credentials.base_url,
        "tool_prefix": credentials.tool_prefix,
        "client_id": credentials.client_id,
    }


_DOCUMENT_OPTIONS = ("email", "output_formats", "language_hint", "threshold")
"""Upload options that change a job's result; the file name and idempotency key do not."""


def document_cache_key(context: TaskRunContext, parameters: dict[str, Any]) -> str | None:
    """Same document content + tool + options + client ⇒ same job: do not upload again."""
    try:
        sha = document_sha256(parameters["document"])
    except Exception as exc:
        # Unreadable input: no cache key, so the task runs and reports the real error.
        logger.debug("no cache key for %s: %r", context.task.name, exc)
        return None
    given = parameters.get("options")
    options = {name: getattr(given, name, None) for name in _DOCUMENT_OPTIONS}
    if options["output_formats"] is not None:
        options["output_formats"] = sorted(options["output_formats"])
    return "docai-" + _digest(
        {
            "task": context.task.name,
            "sha256": sha,
            "tool": parameters["tool"],
            **options,
            **_service(parameters),
        }
    )


def job_cache_key(context: TaskRunContext, parameters: dict[str, Any]) -> str | None:
    """A finished job's results do not change: key on the job id (and output type)."""
    return "docai-" + _digest(
        {
            "task": context.task.name,
            "job_id": parameters["job_id"],
            "output_type": parameters.get("output_type"),
            **_service(parameters),
        }
    )
