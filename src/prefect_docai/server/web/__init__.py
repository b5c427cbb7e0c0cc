"""The web platform: server-rendered pages next to the API, in the same process.

Sign-up with e-mail confirmation, log in / out, forgotten password, API keys, usage, account
deletion, and a page per tool that runs documents through the API's own upload pipeline.
Jinja2 templates, one small script and one stylesheet shipped in the package (``static/``),
English and German.
"""

from __future__ import annotations

from fastapi import Depends, FastAPI, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles

from prefect_docai.server.middleware import UploadSizeLimit
from prefect_docai.server.web import deps, render, routes_account, routes_auth, routes_tools


class _Static(StaticFiles):
    """Static files may be cached for long: their URLs carry a content hash."""

    def file_response(self, *args: object, **kwargs: object) -> Response:
        response = super().file_response(*args, **kwargs)  # type: ignore[arg-type]
        response.headers["Cache-Control"] = "public, max-age=31536000, immutable"
        return response


def install(app: FastAPI, max_upload_bytes: int) -> None:
    session = [Depends(deps.session_account)]
    for module in (routes_tools, routes_auth, routes_account):
        app.include_router(module.router(), dependencies=session)
    app.mount("/static", _Static(packages=[("prefect_docai.server.web", "static")]), name="static")
    app.add_middleware(UploadSizeLimit, limit=max_upload_bytes, path_prefix="/tools/")

    async def on_login_required(request: Request, _: Exception) -> Response:
        target = request.url.path
        return RedirectResponse(f"/login?next={target}", status_code=303)

    async def on_csrf(request: Request, _: Exception) -> HTMLResponse:
        if not hasattr(request.state, "lang"):
            request.state.lang = "en"
        return render.page(
            request, "message.html", status_code=403, title_key="csrf", message_key="csrf"
        )

    app.add_exception_handler(deps.LoginRequired, on_login_required)
    app.add_exception_handler(deps.CsrfFailed, on_csrf)
