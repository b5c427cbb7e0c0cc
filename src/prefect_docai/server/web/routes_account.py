"""The account area: API keys, usage, deleting the account; and the legal pages."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.concurrency import run_in_threadpool

from prefect_docai.server import accounts
from prefect_docai.server.resources import Resources
from prefect_docai.server.web import passwords, store
from prefect_docai.server.web.deps import CurrentAccount, MaybeAccount, PostedForm, Svc
from prefect_docai.server.web.i18n import translator
from prefect_docai.server.web.render import SESSION_COOKIE, page


def _keys_page(
    request: Request,
    resources: Resources,
    account: store.Account,
    created: accounts.ClientCredentials | None = None,
    created_name: str = "",
    error: str | None = None,
    notice: str | None = None,
    status_code: int = 200,
) -> HTMLResponse:
    keys = accounts.list_clients(resources.db, account.id)
    token_url = f"{str(request.base_url).rstrip('/')}{resources.settings.token_path}"
    return page(
        request,
        "keys.html",
        status_code=status_code,
        keys=keys,
        created=created,
        created_name=created_name,
        error=error,
        notice=notice,
        token_url=token_url,
    )


async def keys(
    request: Request, account: CurrentAccount, resources: Svc, notice: str = ""
) -> HTMLResponse:
    shown = notice if notice == "revoked" else None
    return await run_in_threadpool(lambda: _keys_page(request, resources, account, notice=shown))


def _create_key(
    request: Request, resources: Resources, account: store.Account, name: str
) -> HTMLResponse:
    try:
        creds = accounts.create_client(resources.db, name, 0, account_id=account.id)
    except ValueError:
        return _keys_page(request, resources, account, error="required", status_code=400)
    return _keys_page(request, resources, account, created=creds, created_name=name.strip())


async def create_key(
    request: Request, form: PostedForm, account: CurrentAccount, resources: Svc
) -> HTMLResponse:
    name = form.get("name")
    return await run_in_threadpool(
        _create_key, request, resources, account, name if isinstance(name, str) else ""
    )


async def revoke_key(
    request: Request, client_id: str, _: PostedForm, account: CurrentAccount, resources: Svc
) -> Response:
    done = await run_in_threadpool(accounts.revoke_client, resources.db, account.id, client_id)
    if not done:
        return not_found(request)
    return RedirectResponse("/account/keys?notice=revoked", status_code=303)


async def usage(request: Request, account: CurrentAccount, resources: Svc) -> HTMLResponse:
    jobs = await run_in_threadpool(store.jobs, resources.db, account.id)
    return page(request, "usage.html", jobs=jobs, links=download_links)


def account_page(request: Request, account: CurrentAccount) -> HTMLResponse:
    return page(request, "account.html", error=None)


def _delete(resources: Resources, account: store.Account, password: str) -> bool:
    if not passwords.verify(password, account.password_hash):
        return False
    store.delete_account(resources.db, resources.blobs, account.id)
    return True


async def delete_account(
    request: Request, form: PostedForm, account: CurrentAccount, resources: Svc
) -> Response:
    password = form.get("password")
    ok = await run_in_threadpool(
        _delete, resources, account, password if isinstance(password, str) else ""
    )
    if not ok:
        return page(request, "account.html", status_code=400, error="wrong_password")
    response = RedirectResponse("/login?notice=deleted", status_code=303)
    response.delete_cookie(SESSION_COOKIE, path="/")
    return response


def _legal_text(path: Path | None, default: str) -> list[str]:
    text = default
    if path is not None:
        text = path.read_text(encoding="utf-8")
    return [" ".join(part.split()) for part in text.split("\n\n") if part.strip()]


def terms(request: Request, _: MaybeAccount, resources: Svc) -> HTMLResponse:
    t = translator(request.state.lang)
    paragraphs = _legal_text(resources.settings.terms_file, t("legal_default_terms"))
    return page(request, "legal.html", title_key="terms", paragraphs=paragraphs)


def privacy(request: Request, _: MaybeAccount, resources: Svc) -> HTMLResponse:
    t = translator(request.state.lang)
    paragraphs = _legal_text(resources.settings.privacy_file, t("legal_default_privacy"))
    return page(request, "legal.html", title_key="privacy", paragraphs=paragraphs)


def not_found(request: Request) -> HTMLResponse:
    return page(
        request,
        "message.html",
        status_code=404,
        title_key="not_found_title",
        message_key="not_found",
    )


DOWNLOADS: dict[str, tuple[str, ...]] = {
    "ICR": ("PDF", "TXT", "JSON", "ZIP"),
    "Classify": ("JSON",),
    "Invoice": ("JSON", "PDF", "TXT", "ZIP"),
    "Receipt": ("JSON",),
    "TableExtraction": ("CSV", "JSON", "ZIP"),
    "PaperFlow": ("JSON", "ZIP"),
}
"""Per tool, the downloads the API offers for it (the web asks every format of the tool)."""


def download_links(job_id: str, tool: str) -> list[tuple[str, str]]:
    """(format, href) of every download of a job."""
    return [(kind, f"/jobs/{job_id}/download/{kind.lower()}") for kind in DOWNLOADS.get(tool, ())]


def router() -> APIRouter:
    routes = APIRouter(include_in_schema=False)
    routes.add_api_route("/account", account_page, methods=["GET"])
    routes.add_api_route("/account/delete", delete_account, methods=["POST"])
    routes.add_api_route("/account/keys", keys, methods=["GET"])
    routes.add_api_route("/account/keys", create_key, methods=["POST"])
    routes.add_api_route("/account/keys/{client_id}/revoke", revoke_key, methods=["POST"])
    routes.add_api_route("/account/usage", usage, methods=["GET"])
    routes.add_api_route("/terms", terms, methods=["GET"])
    routes.add_api_route("/privacy", privacy, methods=["GET"])
    return routes
