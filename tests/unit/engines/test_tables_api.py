"""CSV/ZIP download of real table extractions through the API (embedded service on
loopback, real worker process and the registered TableEngine)."""

from __future__ import annotations

import csv
import io
import time
import zipfile
from collections.abc import Iterator

import httpx
import pytest
from tests.unit.engines.test_tables import RULED_ROWS, _ruled_pdf, _unruled_pdf

from prefect_docai.server.embedded import EmbeddedService

UPLOAD = "/api/FileUpload/v1/Upload/ToolTableExtraction"
RESULTS = "/api/Result/v1/JobResults/"


@pytest.fixture(scope="module")
def client() -> Iterator[httpx.Client]:
    with EmbeddedService(workers=1, upload_rate_per_second=100.0) as service:
        creds = service.create_client("tables", credits=50)
        http = httpx.Client(base_url=service.base_url, timeout=60.0)
        token = http.post(
            service.token_url,
            data={
                "grant_type": "client_credentials",
                "client_id": creds.client_id,
                "client_secret": creds.client_secret.get_secret_value(),
            },
        ).json()["access_token"]
        http.headers["Authorization"] = f"Bearer {token}"
        yield http
        http.close()


def _extract(http: httpx.Client, pdf: bytes) -> str:
    response = http.post(UPLOAD, files={"file": ("tables.pdf", pdf, "application/pdf")})
    assert response.status_code == 201, response.text
    job_id = str(response.json()["jobId"])
    deadline = time.monotonic() + 90
    while True:
        result = http.get(f"{RESULTS}{job_id}/json")
        if result.status_code != 404 or result.json().get("code") != "job_pending":
            break
        assert time.monotonic() < deadline, "job still pending"
        time.sleep(0.2)
    assert result.status_code == 200, result.text
    assert result.json()["status"] == "succeeded"
    return job_id


def test_one_table_downloads_as_csv(client: httpx.Client) -> None:
    job_id = _extract(client, _ruled_pdf(RULED_ROWS))
    tables = client.get(f"{RESULTS}{job_id}/json").json()["result"]["tables"]
    assert [t["rowCount"] for t in tables] == [5]
    response = client.get(f"{RESULTS}{job_id}/file", params={"outputType": "CSV"})
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/csv")
    assert list(csv.reader(io.StringIO(response.content.decode("utf-8")))) == RULED_ROWS


def test_several_tables_download_as_zip(client: httpx.Client) -> None:
    job_id = _extract(client, _unruled_pdf(pages=2))
    response = client.get(f"{RESULTS}{job_id}/file", params={"outputType": "CSV"})
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/zip")
    with zipfile.ZipFile(io.BytesIO(response.content)) as archive:
        assert sorted(archive.namelist()) == ["table-1.csv", "table-2.csv"]
        first = archive.read("table-1.csv").decode("utf-8")
    assert first.splitlines()[0] == "Product,Units,Price,Amount"
