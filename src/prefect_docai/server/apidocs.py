"""The API docs (Swagger UI at /docs, ReDoc at /redoc) with their assets served from the
installed ``fastapi-offline`` package instead of a CDN, so they work offline.

The pages' one inline script is allowed by its hash in the page's Content-Security-Policy;
everything else loads from this origin.
"""

from __future__ import annotations

import base64
import hashlib
import re
from importlib.resources import files
from pathlib import Path

from fastapi import FastAPI
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles
from starlette.responses import Response
from starlette.types import Scope

ASSETS = "/docs-assets"
_INLINE_SCRIPT = re.compile(r"<script>(.*?)</script>", re.DOTALL)


def asset_dir() -> Path:
    return Path(str(files("fastapi_offline") / "static"))


class _CachedStatic(StaticFiles):
    """The assets are versioned with the installed package: a day of caching is safe."""

    async def get_response(self, path: str, scope: Scope) -> Response:
        response = await super().get_response(path, scope)
        if response.status_code == 200:
            response.headers["Cache-Control"] = "public, max-age=86400"
        return response


def _page(html: HTMLResponse) -> HTMLResponse:
    body = bytes(html.body).decode()
    hashes = " ".join(
        "'sha256-" + base64.b64encode(hashlib.sha256(script.encode()).digest()).decode() + "'"
        for script in _INLINE_SCRIPT.findall(body)
    )
    policy = (
        "default-src 'none'; "
        f"script-src 'self' {hashes}; "
        # ReDoc and Swagger UI inject style elements at run time.
        "style-src 'self' 'unsafe-inline'; "
        "img-src 'self' data:; "
        "font-src 'self' data:; "
        "connect-src 'self'; "
        "worker-src 'self' blob:; "
        "frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
    )
    return HTMLResponse(body, headers={"Content-Security-Policy": policy})


def install(app: FastAPI, openapi_url: str = "/openapi.json") -> None:
    """Routes /docs and /redoc and the asset folder (the app must be built with
    ``docs_url=None, redoc_url=None``)."""
    app.mount(ASSETS, _CachedStatic(directory=asset_dir()), name="docs-assets")
    title = app.title

    async def swagger() -> HTMLResponse:
        return _page(
            get_swagger_ui_html(
                openapi_url=openapi_url,
                title=f"{title} - Swagger UI",
                swagger_js_url=f"{ASSETS}/swagger-ui-bundle.js",
                swagger_css_url=f"{ASSETS}/swagger-ui.css",
                swagger_favicon_url=f"{ASSETS}/favicon.png",
            )
        )

    async def redoc() -> HTMLResponse:
        return _page(
            get_redoc_html(
                openapi_url=openapi_url,
                title=f"{title} - ReDoc",
                redoc_js_url=f"{ASSETS}/redoc.standalone.js",
                redoc_favicon_url=f"{ASSETS}/favicon.png",
                with_google_fonts=False,
            )
        )

    app.add_api_route("/docs", swagger, methods=["GET"], include_in_schema=False)
    app.add_api_route("/redoc", redoc, methods=["GET"], include_in_schema=False)
