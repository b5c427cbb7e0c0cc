"""Dependencies of the routes, as ``Annotated`` aliases: the service's resources and the
authenticated client.

Bearer tokens: the spec shows the token in an ``accessToken`` header and in ``Authorization: Bearer``;
both are accepted. Tokens are never read from the query string, so they cannot end up in
access logs.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Request, Security
from fastapi.security import APIKeyHeader, HTTPAuthorizationCredentials, HTTPBearer

from prefect_docai.server.problems import Problem
from prefect_docai.server.resources import Resources
from prefect_docai.server.tokens import InvalidToken

access_token_header = APIKeyHeader(
    name="accessToken",
    auto_error=False,
    scheme_name="accessToken",
    description="The JWT from the token endpoint.",
)
bearer = HTTPBearer(auto_error=False, scheme_name="bearer", bearerFormat="JWT")

_REALM = 'Bearer realm="prefect-docai"'


@dataclass(frozen=True)
class Principal:
    client_id: str
    scopes: tuple[str, ...]


def get_resources(request: Request) -> Resources:
    resources: Resources = request.app.state.resources
    return resources


ResourcesDep = Annotated[Resources, Depends(get_resources)]


def _unauthorized(detail: str, presented: bool) -> Problem:
    challenge = _REALM + (', error="invalid_token"' if presented else "")
    return Problem(
        401,
        "invalid_token" if presented else "missing_token",
        detail,
        headers={"WWW-Authenticate": challenge},
    )


def require_scope(scope: str) -> Callable[..., Awaitable[Principal]]:
    async def dependency(
        resources: ResourcesDep,
        access_token: Annotated[str | None, Security(access_token_header)],
        authorization: Annotated[HTTPAuthorizationCredentials | None, Security(bearer)],
    ) -> Principal:
        token = (access_token or "").strip()
        if token.lower().startswith("bearer "):
            token = token[7:].strip()
        if not token and authorization is not None:
            token = authorization.credentials.strip()
        if not token:
            raise _unauthorized(
                "An access token is required: send 'Authorization: Bearer <token>' or 'accessToken: <token>'.",
                presented=False,
            )
        try:
            claims = resources.tokens.verify(token)
        except InvalidToken as exc:
            raise _unauthorized(str(exc), presented=True) from None
        if scope not in claims.scopes:
            raise Problem(
                403,
                "insufficient_scope",
                f"The access token lacks the {scope!r} scope.",
                headers={
                    "WWW-Authenticate": f'{_REALM}, error="insufficient_scope", scope="{scope}"'
                },
            )
        return Principal(claims.subject, claims.scopes)

    return dependency


require_consumption = require_scope("consumption")
require_accounting = require_scope("accounting")

ConsumerDep = Annotated[Principal, Depends(require_consumption)]
"""The client of a token with the ``consumption`` scope (uploads and results)."""
AccountantDep = Annotated[Principal, Depends(require_accounting)]
"""The client of a token with the ``accounting`` scope (the credit balance)."""
