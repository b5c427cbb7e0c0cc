"""``POST /api/FileUpload/v1/Upload/{tool}``: validate, charge, queue."""

from __future__ import annotations

import hashlib
import importlib.util
import uuid
from dataclasses import dataclass
from typing import Annotated, Any

from email_validator import EmailNotValidError, validate_email
from fastapi import APIRouter, Header, Path, Query, Request
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData, UploadFile

from prefect_docai.engines.page.languages import LanguageError, parse_language_hint
from prefect_docai.engines.pluginspec import DocumentError
from prefect_docai.files.sniff import DocumentInfo, inspect_document
from prefect_docai.models.tools import Tool
from prefect_docai.server import accounts, jobstore, recipients, storage
from prefect_docai.server.api.deps import ConsumerDep, Principal, ResourcesDep
from prefect_docai.server.cost import job_cost
from prefect_docai.server.db import JobRow, utcnow
from prefect_docai.server.middleware import BodyTooLarge
from prefect_docai.server.problems import Problem, problem_response, storage_full
from prefect_docai.server.ratelimit import retry_after_header
from prefect_docai.server.resources import Resources

# Tools whose parameter table lists languageHint; the others ignore it (still validated).
_LANGUAGE_TOOLS = frozenset({Tool.ICR, Tool.TABLE_EXTRACTION})
# Bare XML e-invoices (CII/UBL) are only meaningful to the invoice tool.
_XML_TOOLS = frozenset({Tool.INVOICE})

_UPLOAD_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["file"],
    "properties": {
        "file": {
            "type": "string",
            "format": "binary",
            "description": "PDF, PNG, JPEG, TIFF, BMP, GIF or WebP; at most 10 MB.",
        },
        "email": {"type": "string", "description": "Send the result to this address."},
        "outputFormats": {
            "type": "string",
            "description": "Comma-separated: PDF, TXT (TEXT), JSON, CSV (per tool).",
        },
        "languageHint": {
            "type": "string",
            "description": "ISO 639-1 code(s), comma-separated; default en.",
        },
        "threshold": {"type": "string", "description": "Minimum confidence, a number in [0, 1]."},
    },
}

RESPONSES: dict[int | str, dict[str, Any]] = {
    201: {
        "description": "Job created; `Location` points at its JSON result.",
        "content": {
            "application/json": {
                "schema": {
                    "type": "object",
                    "required": ["jobId"],
                    "properties": {"jobId": {"type": "string"}},
                }
            }
        },
    },
    400: problem_response(
        "Bad input: `file_missing`, `empty_file`, `corrupt_pdf`, `encrypted_pdf`, `corrupt_image`, "
        "`unsupported_output_format`, `invalid_language`, `invalid_threshold`, `invalid_email`, "
        "`insufficient_credits`, `too_many_pages`, `recipient_not_allowed`, `invalid_request`."
    ),
    401: problem_response("Missing, expired or invalid token (`missing_token`, `invalid_token`)."),
    403: problem_response("The token lacks the `consumption` scope (`insufficient_scope`)."),
    404: problem_response("Unknown tool (`unknown_tool`)."),
    409: problem_response(
        "The Idempotency-Key was used for a different upload (`idempotency_key_reused`)."
    ),
    413: problem_response("The file is larger than the limit (`file_too_large`)."),
    415: problem_response("The file is not a supported type (`unsupported_media_type`)."),
    429: problem_response(
        "More than the allowed uploads per second for this tool (`rate_limited`; only accepted "
        "uploads count, on every replica), or the account's mails of 24 hours are used up "
        "(`mail_quota_exceeded`); see `Retry-After`."
    ),
    501: problem_response(
        "The tool's engine is not installed (`engine_not_available`); nothing was charged."
    ),
    507: problem_response(
        "The service is out of storage space (`storage_full`); nothing was charged. "
        "See `Retry-After`."
    ),
}


@dataclass(frozen=True)
class UploadParams:
    email: str | None
    output_formats: tuple[str, ...]
    languages: tuple[str, ...]
    """Tesseract packs of the ``languageHint``; empty when the upload named none (stored
    as ``""``: the engine then reads English and may detect a scan's language,
    :attr:`EngineOptions.language_hinted`)."""
    threshold: float | None


def resolve_tool(resources: Resources, name: str) -> Tool:
    prefix = resources.settings.tool_prefix
    tool = Tool.from_suffix(name[len(prefix) :]) if name.startswith(prefix) else None
    if tool is None:
        known = ", ".join(f"{prefix}{t.value}" for t in Tool)
        raise Problem(
            404,
            "unknown_tool",
            f"There is no tool {name!r}. Tools: {known} ({prefix}DocSplit = {prefix}PaperFlow).",
        )
    return tool


def engine_available(resources: Resources, tool: Tool) -> bool:
    module = resources.settings.engine_path(tool).partition(":")[0]
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def _param(form: FormData, query_value: str | None, name: str) -> str | None:
    values = [v for v in form.getlist(name) if isinstance(v, str)]
    if len(values) > 1:
        raise Problem(400, "invalid_request", f"{name} was sent more than once.")
    value = values[0] if values else query_value
    if value is None:
        return None
    value = value.strip()
    return value or None


def parse_params(tool: Tool, form: FormData, query: dict[str, str | None]) -> UploadParams:
    email = _param(form, query["email"], "email")
    if email is not None:
        try:
            email = validate_email(email, check_deliverability=False).normalized
        except EmailNotValidError as exc:
            raise Problem(400, "invalid_email", f"email is not a valid address: {exc}") from None
    formats_raw = _param(form, query["outputFormats"], "outputFormats")
    if formats_raw is None:
        formats = tool.default_output_formats
    else:
        names = [part.strip().upper() for part in formats_raw.split(",") if part.strip()]
        names = ["TXT" if name == "TEXT" else name for name in names]
        unknown = [name for name in names if name not in tool.output_formats]
        if unknown or not names:
            allowed = ", ".join(sorted(tool.output_formats))
            raise Problem(
                400,
                "unsupported_output_format",
                f"{', '.join(unknown) or 'nothing'} is not an output format of Tool{tool.value}; allowed: {allowed}.",
            )
        formats = tuple(dict.fromkeys(names))
    hint = _param(form, query["languageHint"], "languageHint")
    try:
        languages = parse_language_hint(hint) if hint is not None else ()
    except LanguageError as exc:
        raise Problem(400, "invalid_language", f"languageHint: {exc}.") from None
    threshold_raw = _param(form, query["threshold"], "threshold")
    threshold: float | None = None
    if threshold_raw is not None:
        try:
            threshold = float(threshold_raw)
        except ValueError:
            threshold = None
        if threshold is None or not 0.0 <= threshold <= 1.0:
            raise Problem(
                400,
                "invalid_threshold",
                f"threshold must be a number from 0 to 1, not {threshold_raw!r}.",
            )
    return UploadParams(email, formats, languages, threshold)


def _file_from(form: FormData) -> UploadFile:
    files = [v for v in form.getlist("file") if isinstance(v, UploadFile)]
    if not files:
        if any(isinstance(v, str) for v in form.getlist("file")):
            raise Problem(
                400,
                "file_missing",
                "The 'file' field must be a file part (multipart/form-data with a filename).",
            )
        raise Problem(
            400, "file_missing", "A multipart/form-data body with a 'file' part is required."
        )
    if len(files) > 1:
        raise Problem(400, "invalid_request", "Send exactly one 'file' part.")
    return files[0]


def _insert_job(
    resources: Resources,
    principal: Principal,
    tool: Tool,
    info: DocumentInfo,
    file_name: str,
    data: bytes,
    params: UploadParams,
    idempotency_key: str | None,
) -> tuple[str, bool]:
    """Reserve credits and insert the job in one transaction; returns (job id, replayed)."""
    sha256 = hashlib.sha256(data).hexdigest()
    job_id = str(uuid.uuid4())
    if idempotency_key is not None:
        existing = _find_idempotent(resources, principal.client_id, idempotency_key, tool, sha256)
        if existing is not None:
            return existing, True
    resources.blobs.put(storage.input_key(job_id), data)
    job = JobRow(
        id=job_id,
        client_id=principal.client_id,
        tool=tool.value,
        status="queued",
        file_name=file_name,
        media_type=info.media_type,
        sha256=sha256,
        size=len(data),
        page_count=info.page_count,
        credits_charged=info.page_count,
        cost=job_cost(info),
        pages_done=0,
        output_formats=",".join(params.output_formats),
        languages=",".join(params.languages),
        threshold=params.threshold,
        email=params.email,
        idempotency_key=idempotency_key,
        created_at=utcnow(),
        attempts=0,
        warnings=[],
        email_attempts=0,
    )
    settings = resources.settings
    try:
        jobstore.charge_and_insert(
            resources.db,
            job,
            interval=1.0 / settings.upload_rate_per_second,
            burst=settings.upload_burst,
            mail_quota=settings.mail_quota,
        )
    except jobstore.RateLimited as exc:
        resources.blobs.delete(storage.input_key(job_id))
        raise _rate_limited(resources, exc.wait) from None
    except jobstore.MailQuotaExceeded as exc:
        resources.blobs.delete(storage.input_key(job_id))
        raise Problem(
            429,
            "mail_quota_exceeded",
            f"At most {exc.quota} uploads with email per account in 24 hours; nothing was "
            "charged. Upload without email, or retry later.",
            headers={"Retry-After": retry_after_header(exc.wait)},
            limit=exc.quota,
        ) from None
    except accounts.UnknownClientError:
        resources.blobs.delete(storage.input_key(job_id))
        raise Problem(
            401,
            "invalid_token",
            "The client of this token no longer exists.",
            headers={"WWW-Authenticate": 'Bearer realm="prefect-docai", error="invalid_token"'},
        ) from None
    except jobstore.InsufficientCredits as exc:
        resources.blobs.delete(storage.input_key(job_id))
        raise Problem(
            400,
            "insufficient_credits",
            f"The document has {info.page_count} page(s) but the balance is {exc.balance} credit(s).",
            required=info.page_count,
            balance=exc.balance,
        ) from None
    except jobstore.IdempotencyKeyTaken:
        # Same Idempotency-Key raced in from another request: that one won.
        resources.blobs.delete(storage.input_key(job_id))
        if idempotency_key is None:  # only raised for a job with a key
            raise
        existing = _find_idempotent(resources, principal.client_id, idempotency_key, tool, sha256)
        if existing is None:
            raise
        return existing, True
    except BaseException:
        resources.blobs.delete(storage.input_key(job_id))
        raise
    return job_id, False


def _rate_limited(resources: Resources, wait: float) -> Problem:
    rate = resources.settings.upload_rate_per_second
    return Problem(
        429,
        "rate_limited",
        f"At most {rate:g} upload(s) per second per tool; retry later.",
        headers={"Retry-After": retry_after_header(wait)},
    )


def _check_recipient(resources: Resources, principal: Principal, address: str) -> None:
    rule = resources.settings.mail_recipients
    confirmed = (
        accounts.confirmed_email(resources.db, principal.client_id)
        if recipients.needs_confirmed(rule)
        else None
    )
    if not recipients.allowed(address, rule, confirmed):
        raise Problem(
            400,
            "recipient_not_allowed",
            "This service does not send results to that address (see DOCAI_MAIL_RECIPIENTS).",
        )


def _find_idempotent(
    resources: Resources, client_id: str, key: str, tool: Tool, sha256: str
) -> str | None:
    job = jobstore.find_by_idempotency_key(resources.db, client_id, key)
    if job is None:
        return None
    # An anonymised job (past the TTL) has no hash left: the key still names it.
    if job.tool != tool.value or (job.sha256 and job.sha256 != sha256):
        raise Problem(
            409,
            "idempotency_key_reused",
            "This Idempotency-Key was already used for a different upload.",
            jobId=job.id,
        )
    return job.id


def _check_page_cap(resources: Resources, principal: Principal, info: DocumentInfo) -> None:
    """The account's plan's cap, else the service's: more pages → 400, nothing charged."""
    plan = accounts.max_pages(resources.db, principal.client_id)
    cap = plan if plan is not None else resources.settings.max_pages_per_job
    if info.page_count > cap:
        whose = "this account's plan" if plan is not None else "this service"
        raise Problem(
            400,
            "too_many_pages",
            f"The document has {info.page_count} pages; {whose} allows at most {cap} per job.",
            limit=cap,
            pageCount=info.page_count,
        )


def _file_name(raw: str | None) -> str:
    """The base name, without control characters (PostgreSQL text cannot hold NUL)."""
    name = (raw or "").replace("\\", "/").rsplit("/", 1)[-1]
    return "".join(ch for ch in name if ch.isprintable())[:200] or "document"


def _inspect(data: bytes) -> DocumentInfo:
    return inspect_document(data)


async def admit(
    resources: Resources,
    client_id: str,
    tool: Tool,
    tool_name: str,
    idempotency_key: str | None = None,
) -> None:
    """Checks before the body is read: engine installed, storage free, upload rate."""
    if not engine_available(resources, tool):
        raise Problem(
            501,
            "engine_not_available",
            f"The engine of {tool_name} is not installed on this server; nothing was charged.",
        )
    if not await run_in_threadpool(resources.storage_guard.ok):
        raise storage_full(resources.storage_guard.retry_after)
    if idempotency_key is None:
        # A cheap early answer before the body is read; the exact check is the one in the
        # upload's transaction (a replay with an Idempotency-Key is not new work).
        interval = 1.0 / resources.settings.upload_rate_per_second
        wait = await run_in_threadpool(
            jobstore.upload_wait,
            resources.db,
            client_id,
            tool.value,
            interval,
            resources.settings.upload_burst,
        )
        if wait > 0:
            raise _rate_limited(resources, wait)


async def read_form(request: Request, resources: Resources) -> FormData:
    """The multipart body (at most one file, within the size limit)."""
    content_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if content_type != "multipart/form-data":
        raise Problem(
            400, "file_missing", "A multipart/form-data body with a 'file' part is required."
        )
    limit = resources.settings.max_upload_bytes
    try:
        return await request.form(max_files=1, max_fields=20)
    except BodyTooLarge:
        raise Problem(
            413, "file_too_large", f"The file is larger than {limit} bytes.", limit=limit
        ) from None
    except Exception:
        raise Problem(400, "invalid_request", "The multipart body cannot be parsed.") from None


async def accept(
    resources: Resources,
    principal: Principal,
    tool: Tool,
    form: FormData,
    query: dict[str, str | None],
    idempotency_key: str | None,
) -> tuple[str, bool]:
    """Validate the file and parameters, charge and queue; returns (job id, replayed).
    Shared by the API route and the web platform's tool pages."""
    limit = resources.settings.max_upload_bytes
    try:
        upload_file = _file_from(form)
        if upload_file.size is not None and upload_file.size > limit:
            raise Problem(
                413, "file_too_large", f"The file is larger than {limit} bytes.", limit=limit
            )
        params = parse_params(tool, form, query)
        data = await upload_file.read(limit + 1)
        if len(data) > limit:
            raise Problem(
                413, "file_too_large", f"The file is larger than {limit} bytes.", limit=limit
            )
        try:
            info = await run_in_threadpool(_inspect, data)
        except DocumentError as exc:
            status = (
                415
                if exc.code == "unsupported_media_type"
                else 413
                if exc.code in {"file_too_large"}
                else 400
            )
            raise Problem(status, exc.code, exc.detail) from None
        await run_in_threadpool(_check_page_cap, resources, principal, info)
        if params.email is not None:
            await run_in_threadpool(_check_recipient, resources, principal, params.email)
        if info.media_type == "application/xml" and tool not in _XML_TOOLS:
            raise Problem(
                415,
                "unsupported_media_type",
                "XML is accepted only by the invoice tool; send a PDF or an image.",
            )
        file_name = _file_name(upload_file.filename)
        key = idempotency_key.strip() if idempotency_key and idempotency_key.strip() else None
        job_id, replayed = await run_in_threadpool(
            _insert_job, resources, principal, tool, info, file_name, data, params, key
        )
    finally:
        await form.close()
    if not replayed:
        resources.job_wake()
    return job_id, replayed


async def upload(
    request: Request,
    tool_name: Annotated[
        str,
        Path(alias="tool", description="Tool name, e.g. ToolICR (ToolDocSplit = ToolPaperFlow)."),
    ],
    principal: ConsumerDep,
    resources: ResourcesDep,
    email: Annotated[str | None, Query(description="Send the result to this address.")] = None,
    output_formats: Annotated[
        str | None, Query(alias="outputFormats", description="Comma-separated output formats.")
    ] = None,
    language_hint: Annotated[
        str | None, Query(alias="languageHint", description="ISO 639-1 code(s).")
    ] = None,
    threshold: Annotated[str | None, Query(description="Minimum confidence in [0, 1].")] = None,
    idempotency_key: Annotated[str | None, Header(alias="Idempotency-Key", max_length=200)] = None,
) -> JSONResponse:
    tool = resolve_tool(resources, tool_name)
    await admit(resources, principal.client_id, tool, tool_name, idempotency_key)
    form = await read_form(request, resources)
    query = {
        "email": email,
        "outputFormats": output_formats,
        "languageHint": language_hint,
        "threshold": threshold,
    }
    job_id, replayed = await accept(resources, principal, tool, form, query, idempotency_key)
    location = f"/api/Result/v1/JobResults/{job_id}/json"
    headers = {"Location": location}
    if replayed:
        headers["Idempotent-Replayed"] = "true"
    return JSONResponse({"jobId": job_id}, status_code=201, headers=headers)


def router() -> APIRouter:
    routes = APIRouter(tags=["upload"])
    routes.add_api_route(
        "/api/FileUpload/v1/Upload/{tool}",
        upload,
        methods=["POST"],
        status_code=201,
        summary="Upload a document to a tool",
        responses=RESPONSES,
        openapi_extra={
            "requestBody": {
                "required": True,
                "content": {"multipart/form-data": {"schema": _UPLOAD_SCHEMA}},
            }
        },
        response_class=JSONResponse,
    )
    return routes
