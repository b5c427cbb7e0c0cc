"""Endpoint 2: uploads — parameters in query or form, every bad input, credits, idempotency,
rate limit, the DocSplit alias and a tool without an engine."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.api import documents
from tests.api.conftest import Api, problem


def test_created_with_location(api: Api) -> None:
    response = api.upload("ToolICR", documents.pdf("one", "two", "three"))
    assert response.status_code == 201, response.text
    job_id = response.json()["jobId"]
    assert set(response.json()) == {"jobId"}
    assert response.headers["location"] == f"/api/Result/v1/JobResults/{job_id}/json"
    assert api.credits() == 97  # three pages, reserved at upload


@pytest.mark.parametrize(("data", "pages"), [(documents.png(), 1), (documents.tiff(3), 3)])
def test_credits_per_page_for_images(api: Api, data: bytes, pages: int) -> None:
    response = api.upload("ToolClassify", data, name="scan.img")
    assert response.status_code == 201, response.text
    assert api.credits() == 100 - pages


def test_parameters_in_query_string(api: Api) -> None:
    job_id = api.job(
        "ToolICR",
        documents.pdf("q"),
        params={
            "outputFormats": "TEXT,JSON",
            "languageHint": "de",
            "threshold": "0.25",
            "email": "someone@example.com",
        },
    )
    result = api.wait(job_id).json()["result"]
    assert result["languages"] == ["deu"]
    assert result["threshold"] == 0.25
    # TEXT is TXT; ICR's ZIP always carries the searchable PDF and the text.
    assert result["output_formats"] == ["TXT", "JSON", "PDF"]


def test_parameters_as_form_fields(api: Api) -> None:
    job_id = api.job(
        "ToolTableExtraction",
        documents.pdf("f"),
        form={"outputFormats": "csv", "languageHint": "fr,en", "threshold": "1"},
    )
    result = api.wait(job_id).json()["result"]
    assert result["languages"] == ["fra", "eng"]
    assert result["threshold"] == 1.0
    assert result["output_formats"] == ["CSV"]


@pytest.mark.parametrize(
    ("form", "hinted"),
    [({}, False), ({"languageHint": " "}, False), ({"languageHint": "en"}, True)],
)
def test_no_language_hint_reaches_the_engine_as_such(
    api: Api, form: dict[str, str], hinted: bool
) -> None:
    """English either way, but only an explicit hint forces it: without one the table
    engine may find a scan's language (``EngineOptions.language_hinted``); the job row
    keeps the difference, so a job run after a restart behaves the same."""
    job_id = api.job("ToolTableExtraction", documents.pdf("t"), form=form)
    result = api.wait(job_id).json()["result"]
    assert result["languages"] == ["eng"]
    assert result["language_hinted"] is hinted


def test_form_field_wins_over_query(api: Api) -> None:
    job_id = api.job(
        "ToolICR", documents.pdf("x"), params={"threshold": "0.1"}, form={"threshold": "0.9"}
    )
    assert api.wait(job_id).json()["result"]["threshold"] == 0.9


def test_docsplit_is_paperflow(api: Api) -> None:
    job_id = api.job("ToolDocSplit", documents.pdf("a", "b"))
    body = api.wait(job_id).json()
    assert body["tool"] == "ToolPaperFlow"
    assert body["status"] == "succeeded"


@pytest.mark.parametrize(
    ("tool", "data", "params", "status", "code"),
    [
        ("ToolICR", None, {}, 400, "file_missing"),
        ("ToolICR", b"hello, plain text", {}, 415, "unsupported_media_type"),
        ("ToolICR", b"", {}, 400, "empty_file"),
        ("ToolICR", documents.corrupt_pdf(), {}, 400, "corrupt_pdf"),
        ("ToolICR", documents.encrypted_pdf(), {}, 400, "encrypted_pdf"),
        ("ToolICR", b"\x89PNG\r\n\x1a\nnot really", {}, 400, "corrupt_image"),
        ("ToolICR", b"<?xml version='1.0'?><Invoice/>", {}, 415, "unsupported_media_type"),
        (
            "ToolClassify",
            documents.pdf("x"),
            {"outputFormats": "PDF"},
            400,
            "unsupported_output_format",
        ),
        (
            "ToolICR",
            documents.pdf("x"),
            {"outputFormats": "DOCX"},
            400,
            "unsupported_output_format",
        ),
        ("ToolICR", documents.pdf("x"), {"outputFormats": " , "}, 400, "unsupported_output_format"),
        ("ToolICR", documents.pdf("x"), {"languageHint": "english"}, 400, "invalid_language"),
        ("ToolICR", documents.pdf("x"), {"languageHint": "qq"}, 400, "invalid_language"),
        ("ToolICR", documents.pdf("x"), {"languageHint": "ii"}, 400, "invalid_language"),
        ("ToolICR", documents.pdf("x"), {"threshold": "high"}, 400, "invalid_threshold"),
        ("ToolICR", documents.pdf("x"), {"threshold": "1.5"}, 400, "invalid_threshold"),
        ("ToolICR", documents.pdf("x"), {"threshold": "-0.1"}, 400, "invalid_threshold"),
        ("ToolICR", documents.pdf("x"), {"threshold": "nan"}, 400, "invalid_threshold"),
        ("ToolICR", documents.pdf("x"), {"email": "not-an-address"}, 400, "invalid_email"),
        ("ToolNope", documents.pdf("x"), {}, 404, "unknown_tool"),
        ("ICR", documents.pdf("x"), {}, 404, "unknown_tool"),
    ],
)
def test_bad_inputs(
    api: Api, tool: str, data: bytes | None, params: dict[str, str], status: int, code: str
) -> None:
    response = api.upload(tool, data, params=params)
    assert response.status_code == status, response.text
    assert problem(response)["code"] == code
    assert api.credits() == 100


def test_not_multipart(api: Api) -> None:
    response = api.http.post(
        "/api/FileUpload/v1/Upload/ToolICR",
        content=documents.pdf("x"),
        headers={**api.auth(), "Content-Type": "application/pdf"},
    )
    assert response.status_code == 400
    assert problem(response)["code"] == "file_missing"


def test_file_sent_as_text_field(api: Api) -> None:
    response = api.upload("ToolICR", None, form={"file": "I am not a file"})
    assert response.status_code == 400
    assert problem(response)["code"] == "file_missing"


def test_over_ten_megabytes(api: Api) -> None:
    limit = 10 * 1024 * 1024
    big = documents.pdf("x") + b"%" * (limit + 1)
    response = api.upload("ToolICR", big)
    assert response.status_code == 413
    assert problem(response)["code"] == "file_too_large"
    # Exactly at the limit is still read and sniffed (it is a valid PDF with padding).
    at_limit = documents.pdf("x")
    at_limit += b"\n%" + b"x" * (limit - len(at_limit) - 2)
    assert len(at_limit) == limit
    response = api.upload("ToolClassify", at_limit)
    assert response.status_code == 201, response.text


def test_content_length_over_limit_is_refused_before_reading(api: Api) -> None:
    response = api.upload("ToolICR", b"%PDF-1.4\n" + b"x" * (11 * 1024 * 1024))
    assert response.status_code == 413
    assert problem(response)["code"] == "file_too_large"


def test_chunked_upload_over_limit(api: Api) -> None:
    # No Content-Length: the size guard counts the streamed body.
    def body() -> Any:
        yield b'--b\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n%PDF-1.4\n'
        chunk = b"x" * (1024 * 1024)
        for _ in range(11):
            yield chunk
        yield b"\r\n--b--\r\n"

    response = api.http.post(
        "/api/FileUpload/v1/Upload/ToolICR",
        content=body(),
        headers={**api.auth(), "Content-Type": "multipart/form-data; boundary=b"},
    )
    assert response.status_code == 413
    assert problem(response)["code"] == "file_too_large"


def test_insufficient_credits(make_api: Any) -> None:
    poor = make_api(credits=2)
    response = poor.upload("ToolICR", documents.pdf("1", "2", "3"))
    assert response.status_code == 400
    body = problem(response)
    assert body["code"] == "insufficient_credits"
    assert body["required"] == 3 and body["balance"] == 2
    assert poor.credits() == 2
    assert poor.upload("ToolClassify", documents.pdf("1", "2")).status_code == 201
    assert poor.credits() == 0


def test_engine_not_available_charges_nothing(api: Api) -> None:
    response = api.upload("ToolReceipt", documents.pdf("x"))
    assert response.status_code == 501
    assert problem(response)["code"] == "engine_not_available"
    assert api.credits() == 100


def test_rate_limit_per_client_and_tool(api: Api, make_api: Any) -> None:
    data = documents.pdf("r")
    assert api.upload("ToolICR", data).status_code == 201
    limited = api.upload("ToolICR", data)
    assert limited.status_code == 429
    assert problem(limited)["code"] == "rate_limited"
    assert 1 <= int(limited.headers["retry-after"]) <= 1
    # Other tool, other client: separate buckets.
    assert api.upload("ToolClassify", data).status_code == 201
    assert make_api().upload("ToolICR", data).status_code == 201
    time.sleep(1.05)
    assert api.upload("ToolICR", data).status_code == 201
    assert api.credits() == 97


def test_idempotency_key(api: Api) -> None:
    data = documents.pdf("a", "b")
    first = api.upload("ToolICR", data, headers={"Idempotency-Key": "order-42"})
    assert first.status_code == 201
    time.sleep(1.05)
    again = api.upload("ToolICR", data, headers={"Idempotency-Key": "order-42"})
    assert again.status_code == 201
    assert again.json()["jobId"] == first.json()["jobId"]
    assert again.headers["idempotent-replayed"] == "true"
    assert api.credits() == 98  # charged once
    time.sleep(1.05)
    other = api.upload(
        "ToolICR", documents.pdf("different"), headers={"Idempotency-Key": "order-42"}
    )
    assert other.status_code == 409
    assert problem(other)["code"] == "idempotency_key_reused"
    assert api.credits() == 98


def test_idempotency_key_is_per_client(api: Api, make_api: Any) -> None:
    data = documents.pdf("a")
    mine = api.job("ToolICR", data, headers={"Idempotency-Key": "same"})
    theirs = make_api().job("ToolICR", data, headers={"Idempotency-Key": "same"})
    assert mine != theirs
