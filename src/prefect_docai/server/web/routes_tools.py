"""The tool pages (drop a file, see it processed, read and download the result), the home
page and the job pages. Uploads go through the API's own pipeline (same checks, credits,
rate limit, jobs) as the account's web client."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.concurrency import run_in_threadpool

from prefect_docai.models.tools import Tool
from prefect_docai.server.api import results, uploads
from prefect_docai.server.api.deps import Principal
from prefect_docai.server.problems import Problem
from prefect_docai.server.resources import Resources
from prefect_docai.server.web import store, views
from prefect_docai.server.web.deps import CurrentAccount, MaybeAccount, Svc, check_csrf
from prefect_docai.server.web.i18n import translator
from prefect_docai.server.web.render import page
from prefect_docai.server.web.routes_account import DOWNLOADS, download_links, not_found

SLUGS: dict[str, Tool] = {
    "icr": Tool.ICR,
    "classify": Tool.CLASSIFY,
    "invoice": Tool.INVOICE,
    "receipt": Tool.RECEIPT,
    "table-extraction": Tool.TABLE_EXTRACTION,
    "paperflow": Tool.PAPERFLOW,
}
SLUG_OF = {tool: slug for slug, tool in SLUGS.items()}
_LANGUAGE_TOOLS = (Tool.ICR, Tool.TABLE_EXTRACTION)


def home(request: Request, _: MaybeAccount, resources: Svc) -> HTMLResponse:
    return page(request, "home.html", tools=SLUGS, signup_credits=resources.settings.signup_credits)


def tools(request: Request, _: CurrentAccount, resources: Svc) -> HTMLResponse:
    return home(request, _, resources)


def _megabytes(resources: Resources) -> str:
    return f"{resources.settings.max_upload_bytes / (1024 * 1024):.3g}"


def tool_page(request: Request, slug: str, _: CurrentAccount, resources: Svc) -> HTMLResponse:
    tool = SLUGS.get(slug)
    if tool is None:
        return not_found(request)
    return _tool_page(request, resources, tool)


def _tool_page(
    request: Request,
    resources: Resources,
    tool: Tool,
    error: str | None = None,
    status_code: int = 200,
) -> HTMLResponse:
    return page(
        request,
        "tool.html",
        status_code=status_code,
        tool=tool,
        slug=SLUG_OF[tool],
        error=error,
        mb=_megabytes(resources),
        limit=resources.settings.max_upload_bytes,
        languages=tool in _LANGUAGE_TOOLS,
    )


def plain_words(problem: Problem, lang: str, resources: Resources) -> str:
    """The pipeline's error in a sentence for people."""
    t = translator(lang)
    code = problem.code
    if code == "file_too_large":
        return t("err_file_too_large", mb=_megabytes(resources))
    if code == "insufficient_credits":
        return t(
            "err_insufficient_credits",
            required=problem.extra.get("required", "?"),
            balance=problem.extra.get("balance", "?"),
        )
    if code == "rate_limited":
        return t("err_rate_limited", rate=f"{resources.settings.upload_rate_per_second:g}")
    if code in ("corrupt_pdf", "corrupt_image"):
        return t("err_corrupt")
    key = f"err_{code}"
    if key in translator("en").catalog:
        return t(key)
    return t("err_other", detail=problem.detail)


async def upload(request: Request, slug: str, account: CurrentAccount, resources: Svc) -> Response:
    tool = SLUGS.get(slug)
    if tool is None:
        return not_found(request)
    scripted = request.headers.get("x-requested-with") == "XMLHttpRequest"
    try:
        form = await uploads.read_form(request, resources)
        check_csrf(request, form)
        client_id = await run_in_threadpool(store.web_client, resources.db, account.id)
        await uploads.admit(resources, client_id, tool, tool.value)
        query: dict[str, str | None] = {
            "email": None,
            # Every format the tool has, so each download the API offers is there.
            "outputFormats": ",".join(sorted(tool.output_formats)),
            "languageHint": None,
            "threshold": None,
        }
        job_id, _ = await uploads.accept(
            resources, Principal(client_id, ("consumption",)), tool, form, query, None
        )
    except Problem as problem:
        message = plain_words(problem, request.state.lang, resources)
        if scripted:
            return JSONResponse({"error": message}, status_code=problem.status)
        return _tool_page(request, resources, tool, message, problem.status)
    target = f"/jobs/{job_id}"
    if scripted:
        return JSONResponse({"redirect": target}, status_code=201)
    return RedirectResponse(target, status_code=303)


def _job_view(resources: Resources, job: store.JobSummary) -> tuple[dict[str, Any] | None, str]:
    """(envelope, state) where state is pending, succeeded, failed or expired."""
    if job.status in ("queued", "processing"):
        return None, "pending"
    try:
        envelope = results.json_result(resources, job.id, job.client_id)
    except Problem as problem:
        if problem.code == "job_pending":
            return None, "pending"
        return None, "expired"
    return envelope, str(envelope.get("status", job.status))


async def job_page(
    request: Request, job_id: str, account: CurrentAccount, resources: Svc
) -> HTMLResponse:
    job = await run_in_threadpool(store.job, resources.db, account.id, job_id[:64])
    if job is None:
        return not_found(request)
    envelope, state = await run_in_threadpool(_job_view, resources, job)
    lang = request.state.lang
    view = views.build(job.tool, (envelope or {}).get("result"), translator(lang), lang)
    error = (envelope or {}).get("error") or {}
    return page(
        request,
        "job.html",
        job=job,
        state=state,
        view=view,
        error_detail=error.get("detail") or job.error_detail or "",
        warnings=(envelope or {}).get("warnings") or [],
        downloads=download_links(job.id, job.tool) if state == "succeeded" else [],
        slug=SLUG_OF.get(Tool(job.tool), ""),
    )


def _download(resources: Resources, job: store.JobSummary, kind: str) -> tuple[bytes, str, str]:
    if kind == "ZIP":
        data, name = results.zip_result(resources, job.id, job.client_id)
        return data, "application/zip", name
    return results.file_result(resources, job.id, job.client_id, kind)


async def download(
    request: Request, job_id: str, kind: str, account: CurrentAccount, resources: Svc
) -> Response:
    kind = kind.upper()
    job = await run_in_threadpool(store.job, resources.db, account.id, job_id[:64])
    if job is None or kind not in DOWNLOADS.get(job.tool, ()):
        return not_found(request)
    try:
        data, media_type, name = await run_in_threadpool(_download, resources, job, kind)
    except Problem:
        return not_found(request)
    return Response(
        data,
        media_type=media_type,
        headers={"Content-Disposition": results.attachment(name), "Cache-Control": "no-store"},
    )


def router() -> APIRouter:
    routes = APIRouter(include_in_schema=False)
    routes.add_api_route("/", home, methods=["GET"])
    routes.add_api_route("/tools", tools, methods=["GET"])
    routes.add_api_route("/tools/{slug}", tool_page, methods=["GET"])
    routes.add_api_route("/tools/{slug}", upload, methods=["POST"])
    routes.add_api_route("/jobs/{job_id}", job_page, methods=["GET"])
    routes.add_api_route("/jobs/{job_id}/download/{kind}", download, methods=["GET"])
    return routes
