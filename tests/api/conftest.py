"""One embedded service (real uvicorn on 127.0.0.1, real SQLite, worker processes) for the
API tests, with the lifecycle test engine standing in for the real engines."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from prefect_docai.server.embedded import ClientCredentials, EmbeddedService
from tests.api.lifecycle_engine import ENGINES
from tests.api.postgres import PostgresServer, start_server

UPLOAD = "/api/FileUpload/v1/Upload/"
RESULTS = "/api/Result/v1/JobResults/"


class Api:
    """A test client bound to one API client's credentials."""

    def __init__(self, service: EmbeddedService, creds: ClientCredentials) -> None:
        self.service = service
        self.creds = creds
        self.http = httpx.Client(base_url=service.base_url, timeout=30.0)
        self._token: str | None = None

    @property
    def secret(self) -> str:
        return self.creds.client_secret.get_secret_value()

    @property
    def token(self) -> str:
        if self._token is None:
            response = self.http.post(
                self.service.token_url,
                data={
                    "grant_type": "client_credentials",
                    "client_id": self.creds.client_id,
                    "client_secret": self.secret,
                },
            )
            assert response.status_code == 200, response.text
            self._token = str(response.json()["access_token"])
        return self._token

    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    def upload(
        self,
        tool: str,
        data: bytes | None,
        *,
        name: str = "document.pdf",
        params: dict[str, str] | None = None,
        form: dict[str, str] | None = None,
        headers: dict[str, str] | None = None,
    ) -> httpx.Response:
        files: Any = (
            {"file": (name, data, "application/octet-stream")} if data is not None else None
        )
        if files is None and form is None:
            # Still a multipart body, just without the file part.
            files = {"other": ("x.txt", b"x", "text/plain")}
        return self.http.post(
            UPLOAD + tool,
            params=params,
            data=form,
            files=files,
            headers={**self.auth(), **(headers or {})},
        )

    def job(self, tool: str, data: bytes, **kwargs: Any) -> str:
        response = self.upload(tool, data, **kwargs)
        assert response.status_code == 201, response.text
        return str(response.json()["jobId"])

    def result(self, job_id: str, kind: str = "json", **params: str) -> httpx.Response:
        return self.http.get(f"{RESULTS}{job_id}/{kind}", params=params, headers=self.auth())

    def wait(self, job_id: str, timeout: float = 60.0) -> httpx.Response:
        """Poll the JSON result until the job has ended."""
        deadline = time.monotonic() + timeout
        while True:
            response = self.result(job_id)
            if response.status_code != 404 or response.json().get("code") != "job_pending":
                return response
            assert time.monotonic() < deadline, f"job {job_id} still pending"
            time.sleep(0.1)

    def credits(self) -> int:
        return self.service.credits(self.creds.client_id)

    def close(self) -> None:
        self.http.close()


@pytest.fixture(scope="session")
def service() -> Iterator[EmbeddedService]:
    with EmbeddedService(workers=2, engines=ENGINES) as svc:
        yield svc


@pytest.fixture
def api(service: EmbeddedService) -> Iterator[Api]:
    """A fresh API client (100 credits) per test: the rate limit is per client."""
    client = Api(service, service.create_client("test", credits=100))
    yield client
    client.close()


@pytest.fixture
def make_api(service: EmbeddedService) -> Iterator[Any]:
    made: list[Api] = []

    def make(credits: int = 100, scopes: tuple[str, ...] = ("accounting", "consumption")) -> Api:
        client = Api(service, service.create_client("test", credits=credits, scopes=scopes))
        made.append(client)
        return client

    yield make
    for client in made:
        client.close()


@pytest.fixture(scope="module")
def postgres() -> Iterator[PostgresServer]:
    """A throwaway PostgreSQL cluster per test module (skipped locally without one)."""
    server = start_server()
    yield server
    server.stop()


@pytest.fixture
def database(postgres: PostgresServer) -> str:
    return postgres.create_database()


@contextmanager
def two_replicas(
    data_dir: Path, database_url: str | None = None, **settings: Any
) -> Iterator[tuple[EmbeddedService, EmbeddedService]]:
    """Two service replicas (one worker each, the test engines) on one storage folder and
    signing key, and one database: SQLite in ``data_dir`` or ``database_url``."""
    common: dict[str, Any] = {"workers": 1, "engines": ENGINES, **settings}
    if database_url is not None:
        common["database_url"] = database_url
    with (
        EmbeddedService(data_dir, **common) as first,
        EmbeddedService(data_dir, **common) as second,
    ):
        yield first, second


def problem(response: httpx.Response) -> dict[str, Any]:
    """The problem+json body, checked for its required members."""
    assert response.headers["content-type"].startswith("application/problem+json"), response.text
    body: dict[str, Any] = response.json()
    assert {"type", "title", "status", "detail", "code"} <= body.keys(), body
    assert body["status"] == response.status_code
    return body
