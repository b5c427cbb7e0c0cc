"""Endpoints 3–5: JSON, ZIP and file results through the job lifecycle."""

from __future__ import annotations

import csv
import io
import zipfile
from typing import Any

from prefect_docai.models.results import JobResult
from prefect_docai.server.embedded import EmbeddedService
from tests.api import documents
from tests.api.conftest import Api, problem


def _zip_names(api: Api, job_id: str) -> dict[str, bytes]:
    response = api.result(job_id, "zip")
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == "application/zip"
    with zipfile.ZipFile(io.BytesIO(response.content)) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def test_pending_then_succeeded(api: Api) -> None:
    data = documents.pdf("SLEEP 1.5", "second page")
    job_id = api.job("ToolICR", data, params={"outputFormats": "JSON"})
    pending = api.result(job_id)
    assert pending.status_code == 404
    body = problem(pending)
    assert body["code"] == "job_pending"
    assert body["jobStatus"] in ("queued", "processing")
    assert body["retryAfter"] == 2
    assert pending.headers["retry-after"] == "2"
    for kind in ("zip", "file"):
        response = api.result(job_id, kind, outputType="PDF")
        assert response.status_code == 404
        assert problem(response)["code"] == "job_pending"

    done = api.wait(job_id)
    assert done.status_code == 200
    envelope = JobResult.model_validate(done.json())
    assert envelope.status == "succeeded"
    assert envelope.job_id == job_id
    assert envelope.tool == "ToolICR"
    assert envelope.page_count == 2 and envelope.credits_charged == 2
    assert envelope.document.file_name == "document.pdf"
    assert envelope.document.media_type == "application/pdf"
    import hashlib

    assert envelope.document.sha256 == hashlib.sha256(data).hexdigest()
    assert envelope.result is not None
    assert envelope.result["texts"] == ["SLEEP 1.5", "second page"]
    assert envelope.completed_at is not None and envelope.completed_at >= envelope.created_at


def test_icr_zip_and_files(api: Api) -> None:
    data = documents.pdf("searchable")
    job_id = api.job("ToolICR", data, params={"outputFormats": "PDF"})
    assert api.wait(job_id).status_code == 200
    files = _zip_names(api, job_id)
    assert set(files) == {"document.pdf", "document.txt"}  # searchable PDF + text
    assert files["document.txt"] == b"searchable"
    pdf = api.result(job_id, "file", outputType="PDF")
    assert pdf.status_code == 200
    assert pdf.headers["content-type"] == "application/pdf"
    assert pdf.content == data
    assert "attachment" in pdf.headers["content-disposition"]
    text = api.result(job_id, "file", outputType="TEXT")
    assert text.content == b"searchable"
    as_json = api.result(job_id, "file", outputType="json")
    assert as_json.json()["jobId"] == job_id
    wrong = api.result(job_id, "file", outputType="CSV")
    assert wrong.status_code == 400
    assert problem(wrong)["code"] == "unsupported_output_type"
    missing = api.http.get(f"/api/Result/v1/JobResults/{job_id}/file", headers=api.auth())
    assert missing.status_code == 400
    assert problem(missing)["code"] == "invalid_request"


def test_table_extraction_csv(api: Api) -> None:
    job_id = api.job("ToolTableExtraction", documents.pdf("cell one", "cell two"))
    assert api.wait(job_id).status_code == 200
    response = api.result(job_id, "file", outputType="CSV")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(response.text)))
    assert rows == [["page", "text"], ["1", "cell one"], ["2", "cell two"]]
    files = _zip_names(api, job_id)
    assert set(files) == {"result.json", "table-0.csv"}


def test_paperflow_zip_has_one_pdf_per_document(api: Api) -> None:
    job_id = api.job("ToolPaperFlow", documents.pdf("a", "b", "c"))
    assert api.wait(job_id).status_code == 200
    files = _zip_names(api, job_id)
    assert set(files) == {"result.json", "document-1.pdf", "document-2.pdf", "document-3.pdf"}
    import pypdfium2 as pdfium

    assert all(len(pdfium.PdfDocument(files[f"document-{i}.pdf"])) == 1 for i in (1, 2, 3))
    # The per-document PDFs carry no output type; outputType=PDF returns them as a ZIP.
    pdfs = api.result(job_id, "file", outputType="PDF")
    assert pdfs.status_code == 200 and pdfs.headers["content-type"] == "application/zip"
    with zipfile.ZipFile(io.BytesIO(pdfs.content)) as archive:
        assert sorted(archive.namelist()) == ["document-1.pdf", "document-2.pdf", "document-3.pdf"]


def test_classify_zip_and_unproduced_type(api: Api) -> None:
    job_id = api.job("ToolClassify", documents.pdf("x"))
    assert api.wait(job_id).status_code == 200
    assert set(_zip_names(api, job_id)) == {"result.json"}
    response = api.result(job_id, "file", outputType="PDF")
    assert response.status_code == 400
    assert problem(response)["code"] == "unsupported_output_type"


def test_failed_job_says_why_and_refunds(api: Api) -> None:
    job_id = api.job("ToolInvoice", documents.pdf("SLEEP 1 FAIL please", "two"))
    assert api.credits() == 98
    response = api.wait(job_id)
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "failed"
    assert body["error"] == {
        "code": "test_failure",
        "detail": "The document asked the test engine to fail.",
    }
    assert body["result"] is None
    assert body["creditsCharged"] == 0
    assert api.credits() == 100
    for kind in ("zip", "file"):
        failed = api.result(job_id, kind, outputType="PDF")
        assert failed.status_code == 409
        assert problem(failed)["code"] == "job_failed"


def test_worker_crash_and_timeout_fail_the_job_without_breaking_the_pool(make_api: Any) -> None:
    with EmbeddedService(
        workers=1, engines=_engines(), max_job_attempts=1, job_timeout=3
    ) as service:
        api = Api(service, service.create_client(credits=10))
        crashed = api.job("ToolICR", documents.pdf("CRASH"))
        body = api.wait(crashed).json()
        assert body["status"] == "failed"
        assert body["error"]["code"] == "engine_crashed"
        assert api.credits() == 10
        hung = api.job("ToolInvoice", documents.pdf("SLEEP 30"))
        body = api.wait(hung).json()
        assert body["status"] == "failed"
        assert body["error"]["code"] == "timeout"
        assert api.credits() == 10
        fine = api.job("ToolClassify", documents.pdf("fine"))
        assert api.wait(fine).json()["status"] == "succeeded"
        api.close()


def _engines() -> str:
    from tests.api.lifecycle_engine import ENGINES

    return ENGINES


def test_unknown_and_foreign_jobs_are_not_found(api: Api, make_api: Any) -> None:
    job_id = api.job("ToolClassify", documents.pdf("mine"))
    assert api.wait(job_id).status_code == 200
    stranger = make_api()
    for kind in ("json", "zip", "file"):
        response = stranger.result(job_id, kind, outputType="JSON")
        assert response.status_code == 404
        assert problem(response)["code"] == "job_not_found"
        unknown = api.result("00000000-0000-0000-0000-000000000000", kind, outputType="JSON")
        assert unknown.status_code == 404
        assert problem(unknown)["code"] == "job_not_found"


def test_input_is_deleted_when_the_job_ends(service: EmbeddedService, api: Api) -> None:
    job_id = api.job("ToolClassify", documents.pdf("bytes"))
    assert api.wait(job_id).status_code == 200
    blobs = service.settings.data_dir / "blobs"
    assert not (blobs / "inputs" / job_id).exists()
    assert (blobs / "results" / job_id / "result.json").exists()


def test_credits_endpoint(api: Api) -> None:
    response = api.http.get("/api/Account/v1/Credits", headers=api.auth())
    assert response.status_code == 200
    assert response.json()["credits"] == 100
    api.job("ToolICR", documents.pdf("1", "2"))
    assert api.http.get("/api/Account/v1/Credits", headers=api.auth()).json()["credits"] == 98
