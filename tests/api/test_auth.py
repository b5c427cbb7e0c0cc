"""Bearer tokens on upload, result and account calls: both header styles, bad tokens, scopes."""

from __future__ import annotations

import base64
import functools
import json
import time
from typing import Any

import jwt
import pytest
from cryptography.hazmat.primitives.asymmetric import rsa

from prefect_docai.server.embedded import EmbeddedService
from prefect_docai.server.tokens import load_or_create_key
from tests.api import documents
from tests.api.conftest import Api, problem


def _claims(service: EmbeddedService, api: Api, **changes: Any) -> dict[str, Any]:
    now = int(time.time())
    claims = {
        "iss": service.settings.issuer,
        "sub": api.creds.client_id,
        "aud": service.settings.audience,
        "iat": now,
        "nbf": now,
        "exp": now + 300,
        "jti": "test",
        "scope": "accounting consumption",
    }
    claims.update(changes)
    return claims


def _service_key(service: EmbeddedService) -> rsa.RSAPrivateKey:
    return load_or_create_key(service.settings.key_path)


def _kid(api: Api) -> str:
    return str(api.http.get("/.well-known/jwks.json").json()["keys"][0]["kid"])


def _b64(data: dict[str, Any]) -> str:
    return base64.urlsafe_b64encode(json.dumps(data).encode()).rstrip(b"=").decode()


def _tampered(token: str) -> str:
    header, payload, signature = token.split(".")
    claims = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    claims["sub"] = "someone-else"
    return f"{header}.{_b64(claims)}.{signature}"


@functools.cache
def _other_key() -> rsa.RSAPrivateKey:
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


def _bad_tokens(service: EmbeddedService, api: Api) -> dict[str, str]:
    kid = _kid(api)
    other_key = _other_key()
    key = _service_key(service)
    return {
        "tampered": _tampered(api.token),
        "expired": jwt.encode(
            _claims(service, api, exp=int(time.time()) - 60, iat=int(time.time()) - 400),
            key,
            "RS256",
            headers={"kid": kid},
        ),
        "wrong_key": jwt.encode(_claims(service, api), other_key, "RS256", headers={"kid": kid}),
        "alg_none": f"{_b64({'alg': 'none', 'typ': 'JWT', 'kid': kid})}.{_b64(_claims(service, api))}.",
        "hs256_with_public_key": f"{_b64({'alg': 'HS256', 'typ': 'JWT'})}.{_b64(_claims(service, api))}.c2ln",
        "wrong_audience": jwt.encode(
            _claims(service, api, aud="someone"), key, "RS256", headers={"kid": kid}
        ),
        "garbage": "not-a-jwt",
    }


def test_both_header_styles(api: Api) -> None:
    data = documents.pdf("hello")
    by_header = api.http.post(
        "/api/FileUpload/v1/Upload/ToolClassify",
        files={"file": ("a.pdf", data)},
        headers={"accessToken": api.token},
    )
    assert by_header.status_code == 201, by_header.text
    by_bearer = api.http.post(
        "/api/FileUpload/v1/Upload/ToolICR",
        files={"file": ("a.pdf", data)},
        headers={"Authorization": f"Bearer {api.token}"},
    )
    assert by_bearer.status_code == 201, by_bearer.text
    job_id = by_header.json()["jobId"]
    for headers in ({"accessToken": api.token}, {"Authorization": f"Bearer {api.token}"}):
        response = api.http.get(f"/api/Result/v1/JobResults/{job_id}/json", headers=headers)
        assert response.status_code in (200, 404), response.text
        assert response.status_code == 200 or problem(response)["code"] == "job_pending"


def test_missing_token(api: Api) -> None:
    response = api.http.post(
        "/api/FileUpload/v1/Upload/ToolICR", files={"file": ("a.pdf", documents.pdf("x"))}
    )
    assert response.status_code == 401
    assert problem(response)["code"] == "missing_token"
    assert response.headers["www-authenticate"].startswith("Bearer")
    assert api.http.get("/api/Result/v1/JobResults/x/json").status_code == 401
    assert api.http.get("/api/Account/v1/Credits").status_code == 401


@pytest.mark.parametrize(
    "kind",
    [
        "tampered",
        "expired",
        "wrong_key",
        "alg_none",
        "hs256_with_public_key",
        "wrong_audience",
        "garbage",
    ],
)
def test_bad_tokens_are_refused(service: EmbeddedService, api: Api, kind: str) -> None:
    token = _bad_tokens(service, api)[kind]
    for headers in ({"accessToken": token}, {"Authorization": f"Bearer {token}"}):
        response = api.http.post(
            "/api/FileUpload/v1/Upload/ToolICR",
            files={"file": ("a.pdf", documents.pdf("x"))},
            headers=headers,
        )
        assert response.status_code == 401, (kind, response.text)
        assert problem(response)["code"] == "invalid_token"
        assert 'error="invalid_token"' in response.headers["www-authenticate"]
        result = api.http.get("/api/Result/v1/JobResults/anything/json", headers=headers)
        assert result.status_code == 401
    assert api.credits() == 100


def test_valid_handmade_token_is_accepted(service: EmbeddedService, api: Api) -> None:
    # The control for the cases above: the same construction with the right key works.
    token = jwt.encode(
        _claims(service, api), _service_key(service), "RS256", headers={"kid": _kid(api)}
    )
    response = api.http.get("/api/Account/v1/Credits", headers={"accessToken": token})
    assert response.status_code == 200
    assert response.json()["credits"] == 100


def test_scopes(make_api: Any) -> None:
    accounting_only = make_api(scopes=("accounting",))
    response = accounting_only.upload("ToolICR", documents.pdf("x"))
    assert response.status_code == 403
    assert problem(response)["code"] == "insufficient_scope"
    assert 'scope="consumption"' in response.headers["www-authenticate"]
    assert (
        accounting_only.http.get("/api/Account/v1/Credits", headers=accounting_only.auth()).json()[
            "credits"
        ]
        == 100
    )

    consumption_only = make_api(scopes=("consumption",), credits=7)
    response = consumption_only.http.get("/api/Account/v1/Credits", headers=consumption_only.auth())
    assert response.status_code == 403
    assert problem(response)["code"] == "insufficient_scope"
    assert consumption_only.upload("ToolICR", documents.pdf("x")).status_code == 201
