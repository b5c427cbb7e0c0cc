"""Endpoint 1: the token endpoint over real HTTP."""

from __future__ import annotations

import base64

import jwt
import pytest

from prefect_docai.server.embedded import EmbeddedService
from tests.api.conftest import Api


def _basic(user: str, password: str) -> dict[str, str]:
    return {"Authorization": "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()}


def _check_token(service: EmbeddedService, api: Api, body: dict[str, object]) -> None:
    assert set(body) == {
        "access_token",
        "expires_in",
        "refresh_expires_in",
        "token_type",
        "not-before-policy",
        "scope",
    }
    assert body["expires_in"] == 300
    assert body["refresh_expires_in"] == 0
    assert body["token_type"] == "Bearer"
    assert body["not-before-policy"] == 0
    assert body["scope"] == "accounting consumption"
    jwks = api.http.get("/.well-known/jwks.json").json()
    token = str(body["access_token"])
    header = jwt.get_unverified_header(token)
    assert header["alg"] == "RS256"
    key = next(k for k in jwks["keys"] if k["kid"] == header["kid"])
    claims = jwt.decode(
        token,
        jwt.PyJWK(key).key,
        algorithms=["RS256"],
        audience=service.settings.audience,
        issuer=service.settings.issuer,
    )
    assert {"iss", "sub", "aud", "exp", "iat", "nbf", "jti", "scope"} <= claims.keys()
    assert claims["sub"] == api.creds.client_id
    assert claims["exp"] - claims["iat"] == 300


def test_form_urlencoded_body(service: EmbeddedService, api: Api) -> None:
    response = api.http.post(
        service.token_url,
        data={
            "grant_type": "client_credentials",
            "client_id": api.creds.client_id,
            "client_secret": api.secret,
        },
    )
    assert response.status_code == 200, response.text
    assert response.headers["cache-control"] == "no-store"
    _check_token(service, api, response.json())


def test_multipart_body(service: EmbeddedService, api: Api) -> None:
    fields = {
        "grant_type": "client_credentials",
        "client_id": api.creds.client_id,
        "client_secret": api.secret,
    }
    response = api.http.post(service.token_url, files={k: (None, v) for k, v in fields.items()})
    assert response.request.headers["content-type"].startswith("multipart/form-data")
    assert response.status_code == 200, response.text
    _check_token(service, api, response.json())


def test_http_basic(service: EmbeddedService, api: Api) -> None:
    response = api.http.post(
        service.token_url,
        data={"grant_type": "client_credentials"},
        headers=_basic(api.creds.client_id, api.secret),
    )
    assert response.status_code == 200, response.text
    _check_token(service, api, response.json())


def test_scope_can_be_narrowed(service: EmbeddedService, api: Api) -> None:
    response = api.http.post(
        service.token_url,
        data={"grant_type": "client_credentials", "scope": "accounting"},
        headers=_basic(api.creds.client_id, api.secret),
    )
    assert response.status_code == 200
    assert response.json()["scope"] == "accounting"


@pytest.mark.parametrize(
    ("form", "basic", "status", "error"),
    [
        (
            {"grant_type": "client_credentials", "client_id": "{id}", "client_secret": "wrong"},
            False,
            401,
            "invalid_client",
        ),
        (
            {
                "grant_type": "client_credentials",
                "client_id": "nobody",
                "client_secret": "{secret}",
            },
            False,
            401,
            "invalid_client",
        ),
        (
            {"grant_type": "password", "client_id": "{id}", "client_secret": "{secret}"},
            False,
            400,
            "unsupported_grant_type",
        ),
        ({"client_id": "{id}", "client_secret": "{secret}"}, False, 400, "invalid_request"),
        ({"grant_type": "client_credentials", "client_id": "{id}"}, False, 400, "invalid_request"),
        (
            {"grant_type": "client_credentials", "client_secret": "{secret}"},
            True,
            400,
            "invalid_request",
        ),
        ({"grant_type": "client_credentials", "scope": "admin"}, True, 400, "invalid_scope"),
    ],
)
def test_oauth_errors(
    service: EmbeddedService, api: Api, form: dict[str, str], basic: bool, status: int, error: str
) -> None:
    data = {k: v.format(id=api.creds.client_id, secret=api.secret) for k, v in form.items()}
    headers = _basic(api.creds.client_id, api.secret) if basic else {}
    response = api.http.post(service.token_url, data=data, headers=headers)
    assert response.status_code == status, response.text
    body = response.json()
    assert body["error"] == error
    assert body["error_description"]
    if status == 401:
        assert response.headers["www-authenticate"].startswith("Basic")


def test_wrong_basic_password(service: EmbeddedService, api: Api) -> None:
    response = api.http.post(
        service.token_url,
        data={"grant_type": "client_credentials"},
        headers=_basic(api.creds.client_id, "nope"),
    )
    assert response.status_code == 401
    assert response.json()["error"] == "invalid_client"


def test_json_body_is_refused(service: EmbeddedService, api: Api) -> None:
    response = api.http.post(
        service.token_url,
        json={
            "grant_type": "client_credentials",
            "client_id": api.creds.client_id,
            "client_secret": api.secret,
        },
    )
    assert response.status_code == 400
    assert response.json()["error"] == "invalid_request"


def test_signing_key_survives_restart(tmp_path: object) -> None:
    with EmbeddedService(tmp_path, workers=1) as first:  # type: ignore[arg-type]
        kid = httpx_get_kid(first.base_url)
    with EmbeddedService(tmp_path, workers=1) as second:  # type: ignore[arg-type]
        assert httpx_get_kid(second.base_url) == kid
    assert (tmp_path / "jwt-signing-key.pem").stat().st_mode & 0o777 == 0o600  # type: ignore[operator]


def httpx_get_kid(base_url: str) -> str:
    import httpx

    return str(httpx.get(base_url + "/.well-known/jwks.json").json()["keys"][0]["kid"])
