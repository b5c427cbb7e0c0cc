"""The result JSON envelope (models/results.py:JobResult) built from a job row."""

from __future__ import annotations

from typing import Any

from prefect_docai.models.results import DocumentInfo, JobError, JobResult
from prefect_docai.server.db import JobRow


def tool_name(prefix: str, job: JobRow) -> str:
    return f"{prefix}{job.tool}"


def build_envelope(job: JobRow, result: dict[str, Any] | None, prefix: str) -> JobResult:
    failed = job.status == "failed"
    return JobResult(
        job_id=job.id,
        tool=tool_name(prefix, job),
        status="failed" if failed else "succeeded",
        page_count=job.page_count,
        credits_charged=job.credits_charged,
        created_at=job.created_at,
        completed_at=job.completed_at,
        document=DocumentInfo(
            file_name=job.file_name, sha256=job.sha256, media_type=job.media_type
        ),
        result=None if failed else result,
        error=JobError(code=job.error_code or "failed", detail=job.error_detail or "")
        if failed
        else None,
        warnings=list(job.warnings or []),
    )
