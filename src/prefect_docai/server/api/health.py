"""Liveness, readiness and the public signing keys."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool

from prefect_docai.server.api.deps import ResourcesDep
from prefect_docai.server.resources import Resources


async def healthz() -> dict[str, str]:
    return {"status": "ok"}


def _db_ok(resources: Resources) -> bool:
    try:
        resources.db.ping()
        return True
    except Exception:
        return False


async def readyz(resources: ResourcesDep) -> JSONResponse:
    ok = resources.ready and await run_in_threadpool(_db_ok, resources)
    if ok and not await run_in_threadpool(resources.storage_guard.ok):
        retry = resources.storage_guard.retry_after
        return JSONResponse(
            {"status": "storage_full"}, status_code=503, headers={"Retry-After": str(retry)}
        )
    return JSONResponse({"status": "ready" if ok else "starting"}, status_code=200 if ok else 503)


async def jwks(resources: ResourcesDep) -> dict[str, Any]:
    return resources.tokens.jwks()


def router() -> APIRouter:
    routes = APIRouter(tags=["health"])
    routes.add_api_route("/healthz", healthz, methods=["GET"], summary="Liveness")
    routes.add_api_route(
        "/readyz",
        readyz,
        methods=["GET"],
        summary="Readiness (database reachable, job runner started, storage not full)",
        responses={503: {"description": "Not ready yet, or out of storage (`storage_full`)."}},
    )
    routes.add_api_route(
        "/.well-known/jwks.json",
        jwks,
        methods=["GET"],
        summary="Public keys of the token signer",
        tags=["auth"],
    )
    return routes
