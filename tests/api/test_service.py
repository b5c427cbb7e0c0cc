"""OpenAPI, health, problem+json for routing errors, and an access log without secrets."""

from __future__ import annotations

import logging

import pytest

from prefect_docai.server.embedded import EmbeddedService
from tests.api import documents
from tests.api.conftest import Api, problem


def test_openapi_and_docs(api: Api) -> None:
    spec = api.http.get("/openapi.json").json()
    paths = spec["paths"]
    for path in (
        "/oauth/token",
        "/api/FileUpload/v1/Upload/{tool}",
        "/api/Result/v1/JobResults/{jobId}/json",
        "/api/Result/v1/JobResults/{jobId}/zip",
        "/api/Result/v1/JobResults/{jobId}/file",
        "/api/Account/v1/Credits",
    ):
        assert path in paths
    upload = paths["/api/FileUpload/v1/Upload/{tool}"]["post"]
    assert {"201", "400", "401", "413", "415", "429", "501"} <= set(upload["responses"])
    assert "multipart/form-data" in upload["requestBody"]["content"]
    schemes = spec["components"]["securitySchemes"]
    assert schemes["accessToken"]["in"] == "header" and schemes["bearer"]["scheme"] == "bearer"
    docs = api.http.get("/docs")
    assert docs.status_code == 200 and "swagger" in docs.text.lower()


def test_health(api: Api) -> None:
    assert api.http.get("/healthz").json() == {"status": "ok"}
    assert api.http.get("/readyz").json() == {"status": "ready"}


@pytest.mark.parametrize(
    ("method", "path", "status", "code"),
    [
        ("GET", "/nowhere", 404, "not_found"),
        ("GET", "/api/FileUpload/v1/Upload/ToolICR", 405, "method_not_allowed"),
        ("DELETE", "/oauth/token", 405, "method_not_allowed"),
    ],
)
def test_routing_errors_are_problems(
    api: Api, method: str, path: str, status: int, code: str
) -> None:
    response = api.http.request(method, path)
    assert response.status_code == status
    assert problem(response)["code"] == code


def test_custom_prefix_and_token_path() -> None:
    with EmbeddedService(workers=1, tool_prefix="Acme", token_path="auth/token") as service:
        assert service.token_url.endswith("/auth/token")
        api = Api(service, service.create_client(credits=5))
        assert api.upload("AcmeReceipt", documents.pdf("x")).status_code in (201, 501)
        response = api.upload("ToolICR", documents.pdf("x"))
        assert response.status_code == 404
        assert problem(response)["code"] == "unknown_tool"
        api.close()


def test_access_log_has_no_secrets(api: Api, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO, logger="prefect_docai.access"):
        token = api.token
        api.upload("ToolICR", documents.pdf("x"), params={"email": "secret.person@example.com"})
        api.http.get("/api/Account/v1/Credits", headers={"accessToken": token})
        api.http.post(
            api.service.token_url,
            params={"client_secret": api.secret},
            data={
                "grant_type": "client_credentials",
                "client_id": api.creds.client_id,
                "client_secret": api.secret,
            },
        )
    lines = [
        record.getMessage() for record in caplog.records if record.name == "prefect_docai.access"
    ]
    assert any("/api/FileUpload/v1/Upload/ToolICR" in line and " 201 " in line for line in lines), (
        lines
    )
    assert any("/oauth/token" in line for line in lines)
    text = "\n".join(lines)
    assert token not in text and api.secret not in text and "secret.person" not in text
