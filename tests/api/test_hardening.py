"""Headers, offline API docs, private files, log lines a client cannot forge and the token
endpoint's throttle (issue 18, items 5 and 7)."""

from __future__ import annotations

import logging
import os
import re
import stat
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from prefect_docai.server.embedded import EmbeddedService
from prefect_docai.server.logsafe import SafeFormatter, escape
from tests.api import documents
from tests.api.conftest import Api
from tests.api.lifecycle_engine import ENGINES


def _assert_hardened(response: httpx.Response) -> None:
    assert response.headers["x-content-type-options"] == "nosniff"
    assert "default-src 'none'" in response.headers["content-security-policy"]
    assert response.headers["cache-control"] == "no-store"


def test_results_tokens_and_errors_carry_security_headers(api: Api) -> None:
    token = api.http.post(
        api.service.token_url,
        data={
            "grant_type": "client_credentials",
            "client_id": api.creds.client_id,
            "client_secret": api.secret,
        },
    )
    assert token.status_code == 200
    _assert_hardened(token)
    job_id = api.job("ToolICR", documents.pdf("headers"), params={"outputFormats": "TXT,JSON"})
    assert api.wait(job_id).status_code == 200
    for kind, params in (("json", {}), ("zip", {}), ("file", {"outputType": "TXT"})):
        response = api.result(job_id, kind, **params)
        assert response.status_code == 200, response.text
        _assert_hardened(response)
    missing = api.result("no-such-job")
    assert missing.status_code == 404
    _assert_hardened(missing)


def test_api_docs_load_every_asset_from_this_server(service: EmbeddedService) -> None:
    with httpx.Client(base_url=service.base_url) as http:
        for page in ("/docs", "/redoc"):
            response = http.get(page)
            assert response.status_code == 200
            assert response.headers["x-content-type-options"] == "nosniff"
            html = response.text
            references = re.findall(r'(?:src|href)="([^"]+)"', html)
            assert references, html
            for reference in references:
                # Same origin only: no CDN, so the page works offline.
                assert reference.startswith("/") and not reference.startswith("//"), reference
                asset = http.get(reference)
                assert asset.status_code == 200, reference
                assert len(asset.content) > 100, reference
            policy = response.headers["content-security-policy"]
            for script in re.findall(r"<script>(.*?)</script>", html, re.DOTALL):
                import base64
                import hashlib

                digest = base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()
                assert f"'sha256-{digest}'" in policy
            assert "cdn" not in html.lower()


def test_database_blobs_and_outbox_are_private(api: Api, service: EmbeddedService) -> None:
    job_id = api.job(
        "ToolICR",
        documents.pdf("private"),
        params={"outputFormats": "TXT", "email": "owner@example.com"},
    )
    assert api.wait(job_id).status_code == 200
    outbox = service.settings.outbox_dir / f"{job_id}.eml"
    deadline = time.monotonic() + 30
    while not outbox.exists():
        assert time.monotonic() < deadline, "the mail was never written"
        time.sleep(0.1)
    data_dir = service.settings.data_dir
    seen = 0
    for root, dirs, files in os.walk(data_dir):
        for name in [*dirs, *files]:
            path = Path(root) / name
            mode = stat.S_IMODE(path.lstat().st_mode)
            assert mode & 0o077 == 0, f"{path} is {oct(mode)}"
            seen += 1
    assert stat.S_IMODE(data_dir.stat().st_mode) & 0o077 == 0
    assert (data_dir / "docai.sqlite3").exists() and seen > 5


def test_access_log_cannot_be_forged_through_the_path(
    service: EmbeddedService, caplog: pytest.LogCaptureFixture
) -> None:
    forged = "/x%0d%0a10.0.0.1%20%22GET%20/admin%20HTTP/1.1%22%20200%20%1b[2J"
    with caplog.at_level(logging.INFO, logger="prefect_docai.access"):
        response = httpx.get(service.base_url + forged)
        assert response.status_code == 404
        deadline = time.monotonic() + 5
        while not any("/admin" in r.getMessage() for r in caplog.records):
            assert time.monotonic() < deadline, "no access log line"
            time.sleep(0.05)
    lines = [r.getMessage() for r in caplog.records if "/admin" in r.getMessage()]
    for line in lines:
        assert "\n" not in line and "\r" not in line and "\x1b" not in line, line
        assert "\\r\\n10.0.0.1" in line


def test_safe_formatter_keeps_one_record_per_line() -> None:
    formatter = SafeFormatter("%(levelname)s %(message)s")
    record = logging.LogRecord("x", logging.INFO, __file__, 1, "file %s", ("a\nINFO forged",), None)
    assert formatter.format(record) == "INFO file a\\nINFO forged"
    try:
        raise ValueError("bad\nINFO forged")
    except ValueError:
        import sys

        record = logging.LogRecord("x", logging.ERROR, __file__, 1, "failed", (), sys.exc_info())
    lines = formatter.format(record).splitlines()
    assert lines[0] == "ERROR failed"
    assert all(line.startswith("    | ") for line in lines[1:])
    assert escape("a\\nb") == "a\\\\nb"  # a literal backslash cannot fake an escape


@pytest.fixture(scope="module")
def throttled() -> Iterator[EmbeddedService]:
    with EmbeddedService(
        workers=1,
        engines=ENGINES,
        token_failures_burst=3,
        token_failures_per_second=0.5,
        address_failures_burst=6,
        address_failures_per_second=0.5,
    ) as service:
        yield service


def _token(
    service: EmbeddedService, client_id: str, secret: str, address: str = "127.0.0.1"
) -> httpx.Response:
    transport = httpx.HTTPTransport(local_address=address)
    with httpx.Client(transport=transport) as http:
        return http.post(
            service.token_url,
            data={
                "grant_type": "client_credentials",
                "client_id": client_id,
                "client_secret": secret,
            },
        )


def test_failed_secrets_are_throttled_per_client_id(throttled: EmbeddedService) -> None:
    creds = throttled.create_client("victim", credits=0)
    client_id, secret = creds.client_id, creds.client_secret.get_secret_value()
    # Failures from several addresses, so only the client id's bucket can stop them.
    statuses = [
        _token(throttled, client_id, "guess", f"127.0.0.{10 + i}").status_code for i in range(3)
    ]
    assert statuses == [401, 401, 401]
    blocked = _token(throttled, client_id, "guess", "127.0.0.20")
    assert blocked.status_code == 429, blocked.text
    assert blocked.json()["error"] == "slow_down"
    wait = int(blocked.headers["retry-after"])
    assert 1 <= wait <= 2
    # While throttled, even the right secret waits (else the throttle is an oracle) …
    assert _token(throttled, client_id, secret, "127.0.0.21").status_code == 429
    # … but never for longer than Retry-After once the failures stop.
    time.sleep(wait)
    assert _token(throttled, client_id, secret, "127.0.0.21").status_code == 200


def test_failed_secrets_are_throttled_per_address(throttled: EmbeddedService) -> None:
    creds = throttled.create_client("bystander", credits=0)
    attacker = "127.0.0.30"
    statuses = [_token(throttled, f"guess-{i}", "x", attacker).status_code for i in range(6)]
    assert statuses == [401] * 6
    blocked = _token(throttled, "guess-7", "x", attacker)
    assert blocked.status_code == 429 and int(blocked.headers["retry-after"]) >= 1
    # Another address is not affected.
    ok = _token(throttled, creds.client_id, creds.client_secret.get_secret_value(), "127.0.0.31")
    assert ok.status_code == 200
