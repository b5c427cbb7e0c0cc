"""``POST {token_path}``: OAuth 2.0 client-credentials grant (RFC 6749 §4.4)."""

from __future__ import annotations

import base64
import binascii
import hashlib
import math
from typing import Any
from urllib.parse import unquote

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData

from prefect_docai.server import accounts
from prefect_docai.server.api.deps import ResourcesDep
from prefect_docai.server.problems import OAuthError
from prefect_docai.server.resources import Resources
from prefect_docai.server.throttle import Bucket

_FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")

_TOKEN_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "grant_type": {"type": "string", "enum": ["client_credentials"]},
        "client_id": {"type": "string"},
        "client_secret": {"type": "string"},
        "scope": {"type": "string"},
    },
    "required": ["grant_type"],
}

_OAUTH_ERROR = {
    "content": {
        "application/json": {
            "schema": {
                "type": "object",
                "required": ["error"],
                "properties": {
                    "error": {"type": "string"},
                    "error_description": {"type": "string"},
                },
            }
        }
    }
}

OPENAPI: dict[str, Any] = {
    "requestBody": {
        "required": True,
        "content": {
            "application/x-www-form-urlencoded": {"schema": _TOKEN_SCHEMA},
            "multipart/form-data": {"schema": _TOKEN_SCHEMA},
        },
    },
    "security": [{"clientBasic": []}, {}],
}

RESPONSES: dict[int | str, dict[str, Any]] = {
    200: {
        "description": "An access token.",
        "content": {
            "application/json": {
                "schema": {
                    "type": "object",
                    "required": ["access_token", "expires_in", "token_type", "scope"],
                    "properties": {
                        "access_token": {"type": "string"},
                        "expires_in": {"type": "integer"},
                        "refresh_expires_in": {"type": "integer"},
                        "token_type": {"type": "string"},
                        "not-before-policy": {"type": "integer"},
                        "scope": {"type": "string"},
                    },
                }
            }
        },
    },
    400: {
        "description": "invalid_request, unsupported_grant_type or invalid_scope (RFC 6749 §5.2).",
        **_OAUTH_ERROR,
    },
    401: {"description": "invalid_client: unknown client or wrong secret.", **_OAUTH_ERROR},
    429: {
        "description": "slow_down: too many failed attempts for this client id or from this "
        "address; retry after `Retry-After` seconds.",
        **_OAUTH_ERROR,
    },
}


def _single(form: FormData, name: str) -> str | None:
    values = form.getlist(name)
    if len(values) > 1:
        raise OAuthError(400, "invalid_request", f"The parameter {name!r} was sent more than once.")
    if not values:
        return None
    value = values[0]
    if not isinstance(value, str):
        raise OAuthError(
            400, "invalid_request", f"The parameter {name!r} must be a form field, not a file."
        )
    return value


def _basic_credentials(header: str | None) -> tuple[str, str] | None:
    if not header:
        return None
    scheme, _, encoded = header.partition(" ")
    if scheme.lower() != "basic":
        return None
    try:
        decoded = base64.b64decode(encoded.strip(), validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError):
        raise OAuthError(
            401, "invalid_client", "The Basic authorization header is malformed."
        ) from None
    user, sep, password = decoded.partition(":")
    if not sep:
        raise OAuthError(401, "invalid_client", "The Basic authorization header is malformed.")
    # RFC 6749 §2.3.1: client_id and secret are form-urlencoded before Basic encoding.
    return unquote(user), unquote(password)


async def token(request: Request, resources: ResourcesDep) -> JSONResponse:
    content_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if content_type not in _FORM_TYPES:
        raise OAuthError(
            400,
            "invalid_request",
            "Send the parameters as application/x-www-form-urlencoded or multipart/form-data.",
        )
    try:
        form = await request.form(max_files=0, max_fields=20)
    except Exception:
        raise OAuthError(400, "invalid_request", "The request body cannot be parsed.") from None
    grant_type = _single(form, "grant_type")
    body_id, body_secret = _single(form, "client_id"), _single(form, "client_secret")
    requested_scope = _single(form, "scope")
    basic = _basic_credentials(request.headers.get("authorization"))
    if grant_type is None:
        raise OAuthError(400, "invalid_request", "grant_type is required (client_credentials).")
    if grant_type != "client_credentials":
        raise OAuthError(
            400, "unsupported_grant_type", "Only grant_type=client_credentials is supported."
        )
    if basic is not None and body_secret is not None:
        raise OAuthError(
            400,
            "invalid_request",
            "Send the client credentials either in the body or as HTTP Basic, not both.",
        )
    if basic is not None:
        client_id, secret = basic
        if body_id is not None and body_id != client_id:
            raise OAuthError(
                400, "invalid_request", "client_id in the body differs from the Basic user."
            )
    elif body_id is not None and body_secret is not None:
        client_id, secret = body_id, body_secret
    else:
        raise OAuthError(
            400,
            "invalid_request",
            "client_id and client_secret are required (form fields or HTTP Basic).",
        )
    address = request.client.host if request.client else "-"
    # Lookup and RSA signing both run off the event loop, in one thread hop.
    access_token, scopes = await run_in_threadpool(
        _issue, resources, client_id, secret, requested_scope, address
    )
    return JSONResponse(
        {
            "access_token": access_token,
            "expires_in": resources.tokens.ttl,
            "refresh_expires_in": 0,
            "token_type": "Bearer",
            "not-before-policy": 0,
            "scope": " ".join(scopes),
        },
        headers={"Cache-Control": "no-store", "Pragma": "no-cache"},
    )


def failure_buckets(resources: Resources, client_id: str, address: str) -> list[Bucket]:
    settings = resources.settings
    # Hashed: a client id from the request can be any text of any length.
    client_key = hashlib.sha256(client_id.encode("utf-8", "replace")).hexdigest()[:40]
    return [
        Bucket(
            f"token-client:{client_key}",
            settings.token_failures_burst,
            settings.token_failures_per_second,
        ),
        Bucket(
            f"token-address:{address[:100]}",
            settings.address_failures_burst,
            settings.address_failures_per_second,
        ),
    ]


def _issue(
    resources: Resources, client_id: str, secret: str, requested_scope: str | None, address: str
) -> tuple[str, tuple[str, ...]]:
    # Checked before the secret, so a throttled guess learns nothing, right or wrong.
    buckets = failure_buckets(resources, client_id, address)
    wait = resources.throttle.wait(buckets)
    if wait > 0:
        raise OAuthError(
            429,
            "slow_down",
            "Too many failed attempts for this client or from this address; retry later.",
            retry_after=max(1, math.ceil(wait)),
        )
    client = accounts.authenticate(resources.db, client_id, secret)
    if client is None:
        resources.throttle.spend(buckets)
        raise OAuthError(401, "invalid_client", "Unknown client or wrong client secret.")
    scopes = client.scopes
    if requested_scope is not None and requested_scope.strip():
        wanted = tuple(requested_scope.split())
        if not set(wanted) <= set(client.scopes):
            raise OAuthError(
                400, "invalid_scope", f"This client may request only: {' '.join(client.scopes)}."
            )
        scopes = tuple(s for s in client.scopes if s in wanted)
    access_token, _ = resources.tokens.issue(client.client_id, scopes)
    return access_token, scopes


def router(token_path: str) -> APIRouter:
    routes = APIRouter(tags=["auth"])
    routes.add_api_route(
        token_path,
        token,
        methods=["POST"],
        summary="Create an access token (client credentials)",
        responses=RESPONSES,
        openapi_extra=OPENAPI,
        response_class=JSONResponse,
    )
    return routes
