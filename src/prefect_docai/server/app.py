"""The FastAPI application factory."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib.metadata import version as package_version
from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi

from prefect_docai.models.tools import Tool
from prefect_docai.server import apidocs, web
from prefect_docai.server.api import account, health, results, token, uploads
from prefect_docai.server.headers import SecurityHeaders
from prefect_docai.server.middleware import AccessLog, UploadSizeLimit
from prefect_docai.server.problems import install_handlers
from prefect_docai.server.service import Service
from prefect_docai.server.settings import Settings

DESCRIPTION = """\
Document-AI tools (text recognition, classification, invoice / receipt / table extraction,
page stream segmentation) as a REST service; operating it is described in `docs/operations.md`.

Get a token from the token endpoint (client credentials, form body or HTTP Basic), upload a
document to a tool, then fetch the result. Errors are `application/problem+json` with a
stable `code`; the token endpoint answers RFC 6749 errors.
"""


def _document_tool_names(schema: dict[str, Any], prefix: str) -> None:
    """List the tool names in the upload path parameter (the handler answers 404
    ``unknown_tool`` for anything else, as a problem rather than a validation error)."""
    names = [f"{prefix}{tool.value}" for tool in Tool] + [f"{prefix}DocSplit"]
    operation = schema["paths"].get("/api/FileUpload/v1/Upload/{tool}", {}).get("post", {})
    for parameter in operation.get("parameters", []):
        if parameter.get("name") == "tool" and parameter.get("in") == "path":
            parameter["schema"] = {"type": "string", "enum": names}


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()
    service = Service(settings)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        await service.start()
        try:
            yield
        finally:
            await service.stop()

    app = FastAPI(
        title="prefect-docai",
        version=package_version("prefect-docai"),
        description=DESCRIPTION,
        lifespan=lifespan,
        # Served by apidocs from the installed package: the default pages load from a CDN.
        docs_url=None,
        redoc_url=None,
    )
    # The routes reach the resources through api.deps.get_resources.
    app.state.resources = service.resources
    install_handlers(app)
    app.include_router(token.router(settings.token_path))
    app.include_router(uploads.router())
    app.include_router(results.router())
    app.include_router(account.router())
    app.include_router(health.router())
    apidocs.install(app)
    web.install(app, settings.max_upload_bytes)
    app.add_middleware(UploadSizeLimit, limit=settings.max_upload_bytes)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(AccessLog)

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = get_openapi(
                title=app.title, version=app.version, description=app.description, routes=app.routes
            )
            schemes = schema.setdefault("components", {}).setdefault("securitySchemes", {})
            schemes["clientBasic"] = {
                "type": "http",
                "scheme": "basic",
                "description": "client_id as user, client_secret as password (token endpoint only).",
            }
            _document_tool_names(schema, settings.tool_prefix)
            app.openapi_schema = schema
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
    return app
