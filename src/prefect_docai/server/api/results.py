"""``GET /api/Result/v1/JobResults/{jobId}/json|zip|file``."""

from __future__ import annotations

import io
import json
import zipfile
from datetime import timedelta
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query
from fastapi.responses import JSONResponse, Response
from starlette.concurrency import run_in_threadpool

from prefect_docai.models.tools import Tool
from prefect_docai.server import jobstore, storage
from prefect_docai.server.api.deps import ConsumerDep, ResourcesDep
from prefect_docai.server.db import JobFileRow, JobRow, utcnow
from prefect_docai.server.envelope import build_envelope
from prefect_docai.server.problems import Problem, problem_response
from prefect_docai.server.resources import Resources

JobId = Annotated[
    str,
    Path(alias="jobId", description="The job id from the upload's 201 response.", max_length=64),
]

_COMMON: dict[int | str, dict[str, Any]] = {
    401: problem_response("Missing, expired or invalid token."),
    403: problem_response("The token lacks the `consumption` scope."),
    404: problem_response(
        "`job_not_found` (unknown id or another client's job), `job_pending` (queued or processing: "
        "the body carries `jobStatus` and `retryAfter`, and a `Retry-After` header is set), "
        "`job_expired` (the result was deleted after the retention period) or `file_not_found`."
    ),
}
_FAILED: dict[int | str, dict[str, Any]] = {
    409: problem_response(
        "The job failed (`job_failed`): there is no file; its JSON result says why."
    )
}


def _load(
    resources: Resources, job_id: str, client_id: str, *, with_files: bool = True
) -> tuple[JobRow, list[JobFileRow]]:
    found = jobstore.get_client_job(resources.db, job_id, client_id, with_files=with_files)
    if found is None:
        # Another client's job is indistinguishable from an unknown one.
        raise Problem(
            404, "job_not_found", f"There is no job {job_id!r} for this client.", jobId=job_id
        )
    return found


def _check_ready(resources: Resources, job: JobRow) -> None:
    if job.status in ("queued", "processing"):
        retry = resources.settings.retry_after
        raise Problem(
            404,
            "job_pending",
            f"The job is {job.status}; ask again in {retry} s.",
            title="Result Not Ready",
            headers={"Retry-After": str(retry)},
            jobId=job.id,
            jobStatus=job.status,
            retryAfter=retry,
        )
    ended, now = job.completed_at, utcnow()
    too_old = ended is not None and ended + timedelta(seconds=resources.settings.result_ttl) < now
    downloaded_long_ago = job.expired_at is not None and job.expired_at <= now
    if job.status == "expired" or too_old or downloaded_long_ago:
        raise Problem(
            404,
            "job_expired",
            "The result was deleted after the retention period.",
            title="Result Expired",
            jobId=job.id,
            jobStatus="expired",
        )


def _envelope(resources: Resources, job: JobRow) -> dict[str, Any]:
    result = None
    if job.status == "succeeded":
        try:
            result = json.loads(resources.blobs.get(storage.result_key(job.id)))
        except FileNotFoundError:
            raise Problem(
                404,
                "job_expired",
                "The result is no longer stored.",
                jobId=job.id,
                jobStatus="expired",
            ) from None
    return build_envelope(job, result, resources.settings.tool_prefix).to_json_dict()


def _downloaded(resources: Resources, job: JobRow) -> None:
    """The first download of a result starts its grace window (DOCAI_DOWNLOAD_GRACE)."""
    if job.status == "succeeded" and job.expired_at is None:
        grace = timedelta(seconds=resources.settings.download_grace)
        jobstore.mark_downloaded(resources.db, job.id, utcnow() + grace)


def _fail_if_failed(job: JobRow) -> None:
    if job.status == "failed":
        raise Problem(
            409,
            "job_failed",
            f"The job failed ({job.error_code}): {job.error_detail}",
            title="Job Failed",
            jobId=job.id,
            jobStatus="failed",
            error={"code": job.error_code, "detail": job.error_detail},
        )


def json_result(resources: Resources, job_id: str, client_id: str) -> dict[str, Any]:
    job, _ = _load(resources, job_id, client_id, with_files=False)
    _check_ready(resources, job)
    envelope = _envelope(resources, job)
    _downloaded(resources, job)
    return envelope


def zip_result(resources: Resources, job_id: str, client_id: str) -> tuple[bytes, str]:
    job, files = _load(resources, job_id, client_id)
    _check_ready(resources, job)
    _fail_if_failed(job)
    envelope = _envelope(resources, job)
    requested = set(filter(None, job.output_formats.split(",")))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        # ICR's ZIP is the spec's "searchable PDF + text file"; every other tool's carries
        # result.json next to its files.
        if job.tool != Tool.ICR.value or "JSON" in requested:
            archive.writestr("result.json", json.dumps(envelope, ensure_ascii=False, indent=2))
        used: set[str] = {"result.json"}
        for file in files:
            name = _unique(file.name, used)
            archive.writestr(name, resources.blobs.get(file.path))
    _downloaded(resources, job)
    stem = job.file_name.rsplit(".", 1)[0] or "result"
    return buffer.getvalue(), f"{stem}.zip"


def _unique(name: str, used: set[str]) -> str:
    candidate, n = name, 1
    while candidate in used:
        stem, dot, ext = name.rpartition(".")
        candidate = f"{stem}-{n}.{ext}" if dot else f"{name}-{n}"
        n += 1
    used.add(candidate)
    return candidate


def file_result(
    resources: Resources, job_id: str, client_id: str, output_type: str
) -> tuple[bytes, str, str]:
    job, files = _load(resources, job_id, client_id)
    wanted = output_type.strip().upper()
    wanted = "TXT" if wanted == "TEXT" else wanted
    tool = Tool(job.tool)
    if wanted not in tool.output_formats:
        allowed = ", ".join(sorted(tool.output_formats))
        raise Problem(
            400,
            "unsupported_output_type",
            f"{resources.settings.tool_prefix}{tool.value} does not produce {output_type!r}; it produces {allowed}.",
        )
    _check_ready(resources, job)
    _fail_if_failed(job)
    found = _file_content(resources, job, files, wanted)
    _downloaded(resources, job)
    return found


def _file_content(
    resources: Resources, job: JobRow, files: list[JobFileRow], wanted: str
) -> tuple[bytes, str, str]:
    if wanted == "JSON":
        return (
            json.dumps(_envelope(resources, job), ensure_ascii=False).encode(),
            "application/json",
            "result.json",
        )
    matching = [file for file in files if file.output_type == wanted]
    if not matching and wanted == "PDF":
        # PaperFlow's per-document PDFs belong to the ZIP (no output type); PDF asks for them.
        matching = [file for file in files if file.media_type == "application/pdf"]
    if not matching:
        raise Problem(
            404,
            "file_not_found",
            f"This job produced no {wanted} file (request it in outputFormats).",
            jobId=job.id,
        )
    if len(matching) == 1:
        file = matching[0]
        return resources.blobs.get(file.path), file.media_type, file.name
    buffer = io.BytesIO()
    used: set[str] = set()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for file in matching:
            archive.writestr(_unique(file.name, used), resources.blobs.get(file.path))
    return buffer.getvalue(), "application/zip", f"{wanted.lower()}-files.zip"


def attachment(name: str) -> str:
    safe = "".join(ch if 32 <= ord(ch) < 127 and ch not in '"\\' else "_" for ch in name)
    return f'attachment; filename="{safe}"'


async def get_json(job_id: JobId, principal: ConsumerDep, resources: ResourcesDep) -> JSONResponse:
    body = await run_in_threadpool(json_result, resources, job_id, principal.client_id)
    return JSONResponse(body)


async def get_zip(job_id: JobId, principal: ConsumerDep, resources: ResourcesDep) -> Response:
    data, name = await run_in_threadpool(zip_result, resources, job_id, principal.client_id)
    return Response(
        data, media_type="application/zip", headers={"Content-Disposition": attachment(name)}
    )


async def get_file(
    job_id: JobId,
    output_type: Annotated[
        str,
        Query(
            alias="outputType",
            description="CSV, PDF, TXT (TEXT) or JSON, as the tool produces.",
            max_length=20,
        ),
    ],
    principal: ConsumerDep,
    resources: ResourcesDep,
) -> Response:
    data, media_type, name = await run_in_threadpool(
        file_result, resources, job_id, principal.client_id, output_type
    )
    return Response(data, media_type=media_type, headers={"Content-Disposition": attachment(name)})


def router() -> APIRouter:
    routes = APIRouter(prefix="/api/Result/v1/JobResults", tags=["results"])
    routes.add_api_route(
        "/{jobId}/json",
        get_json,
        methods=["GET"],
        summary="The job's JSON result (also for a failed job: status failed + error)",
        responses={200: {"description": "The result envelope (docs/results.md)."}, **_COMMON},
        response_class=JSONResponse,
    )
    routes.add_api_route(
        "/{jobId}/zip",
        get_zip,
        methods=["GET"],
        summary="The job's files as a ZIP",
        description=(
            "ToolICR: searchable PDF + text (and result.json when JSON was requested); "
            "ToolPaperFlow: one PDF per document + result.json; other tools: result.json + "
            "the files of the requested formats."
        ),
        responses={
            200: {"description": "ZIP archive.", "content": {"application/zip": {}}},
            **_COMMON,
            **_FAILED,
        },
    )
    routes.add_api_route(
        "/{jobId}/file",
        get_file,
        methods=["GET"],
        summary="One output file of the job, by outputType",
        description=(
            "TableExtraction CSV: one table → its CSV, several → a ZIP of CSVs. An outputType the "
            "tool does not produce → 400 `unsupported_output_type`."
        ),
        responses={
            200: {"description": "The file.", "content": {"application/octet-stream": {}}},
            400: problem_response("`unsupported_output_type` or a missing outputType."),
            **_COMMON,
            **_FAILED,
        },
    )
    return routes
