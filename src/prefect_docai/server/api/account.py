"""``GET /api/Account/v1/Credits`` (scope ``accounting``)."""

from __future__ import annotations

from fastapi import APIRouter
from starlette.concurrency import run_in_threadpool

from prefect_docai.server import accounts
from prefect_docai.server.api.deps import AccountantDep, ResourcesDep
from prefect_docai.server.problems import Problem, problem_response


async def credits(principal: AccountantDep, resources: ResourcesDep) -> dict[str, object]:
    try:
        info = await run_in_threadpool(accounts.get_client, resources.db, principal.client_id)
    except accounts.UnknownClientError:
        raise Problem(
            404, "client_not_found", "The client of this token no longer exists."
        ) from None
    return {"clientId": info.client_id, "name": info.name, "credits": info.credits}


def router() -> APIRouter:
    routes = APIRouter(tags=["account"])
    routes.add_api_route(
        "/api/Account/v1/Credits",
        credits,
        methods=["GET"],
        summary="The client's credit balance",
        responses={
            200: {
                "description": "Balance in credits (1 credit = 1 page).",
                "content": {
                    "application/json": {
                        "schema": {
                            "type": "object",
                            "required": ["clientId", "credits"],
                            "properties": {
                                "clientId": {"type": "string"},
                                "name": {"type": "string"},
                                "credits": {"type": "integer"},
                            },
                        }
                    }
                },
            },
            401: problem_response("Missing, expired or invalid token."),
            403: problem_response("The token lacks the `accounting` scope."),
        },
    )
    return routes
