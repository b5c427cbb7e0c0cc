"""Jinja2 pages: one environment, the page policy (CSP) and the cookies every page needs."""

from __future__ import annotations

import hashlib
import secrets
from importlib.resources import files
from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse
from jinja2 import Environment, PackageLoader, select_autoescape

from prefect_docai.server.web.i18n import translator

CSRF_COOKIE = "docai_csrf"
SESSION_COOKIE = "docai_session"
LANG_COOKIE = "docai_lang"

# Scripts and styles only from this origin (no inline script, no CDN); nothing may frame
# the pages; forms post only here.
PAGE_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'; "
    "object-src 'none'"
)

environment = Environment(
    loader=PackageLoader("prefect_docai.server.web", "templates"),
    autoescape=select_autoescape(default=True),
    trim_blocks=True,
    lstrip_blocks=True,
)


def _asset_versions() -> dict[str, str]:
    folder = files("prefect_docai.server.web") / "static"
    return {
        entry.name: hashlib.sha256(entry.read_bytes()).hexdigest()[:12]
        for entry in folder.iterdir()
        if entry.is_file()
    }


ASSET_VERSIONS = _asset_versions()


def asset(name: str) -> str:
    """The URL of a static file with its content hash, so a changed file is fetched anew."""
    return f"/static/{name}?v={ASSET_VERSIONS.get(name, '0')}"


def secure(request: Request) -> bool:
    return request.url.scheme == "https"


def csrf_token(request: Request) -> str:
    """The browser's CSRF token (from its cookie, or a new one the response will set)."""
    token: str | None = getattr(request.state, "csrf", None)
    if token is None:
        cookie = request.cookies.get(CSRF_COOKIE, "")
        token = (
            cookie if 20 <= len(cookie) <= 100 and cookie.isascii() else secrets.token_urlsafe(32)
        )
        request.state.csrf = token
    return token


def set_cookie(response: Any, request: Request, name: str, value: str, max_age: int | None) -> None:
    response.set_cookie(
        name,
        value,
        max_age=max_age,
        httponly=True,
        samesite="lax",
        secure=secure(request),
        path="/",
    )


def page(
    request: Request,
    template: str,
    status_code: int = 200,
    **context: Any,
) -> HTMLResponse:
    lang: str = request.state.lang
    token = csrf_token(request)
    body = environment.get_template(template).render(
        t=translator(lang),
        lang=lang,
        csrf=token,
        asset=asset,
        account=getattr(request.state, "account", None),
        path=request.url.path,
        **context,
    )
    response = HTMLResponse(body, status_code=status_code)
    response.headers["Content-Security-Policy"] = PAGE_POLICY
    response.headers["Cache-Control"] = "no-store"
    if request.cookies.get(CSRF_COOKIE) != token:
        set_cookie(response, request, CSRF_COOKIE, token, None)
    return response
