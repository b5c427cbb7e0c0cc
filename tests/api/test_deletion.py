"""Processed data is deleted after use (issue 18, item 4; spec rule 1): a downloaded result
is deleted after a short grace window for its other formats, an undownloaded one at the
TTL, outbox mail at the TTL, and the job row keeps only what billing needs."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, text

from prefect_docai.server.embedded import EmbeddedService
from tests.api import documents
from tests.api.conftest import Api, problem
from tests.api.lifecycle_engine import ENGINES

TTL = 6.0
GRACE = 1.0


@pytest.fixture
def service() -> Iterator[EmbeddedService]:
    with EmbeddedService(
        workers=1,
        engines=ENGINES,
        upload_rate_per_second=1000,
        result_ttl=TTL,
        download_grace=GRACE,
        purge_interval=0.2,
    ) as svc:
        yield svc


def _row(service: EmbeddedService, job_id: str) -> dict[str, Any]:
    engine = create_engine(service.settings.sqlalchemy_url)
    try:
        with engine.connect() as connection:
            row = connection.execute(
                text("SELECT * FROM jobs WHERE id = :id"), {"id": job_id}
            ).mappings()
            return dict(row.one())
    finally:
        engine.dispose()


def _until(check: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, what
        time.sleep(0.1)


def _ended(service: EmbeddedService, job_id: str) -> None:
    # Watched in the database: fetching the result would count as a download.
    _until(lambda: _row(service, job_id)["status"] == "succeeded", 60, "job never ended")


def _results(service: EmbeddedService, job_id: str) -> Path:
    return service.settings.data_dir / "blobs" / "results" / job_id


def test_a_downloaded_result_is_deleted_after_the_grace_window(service: EmbeddedService) -> None:
    api = Api(service, service.create_client(credits=10))
    try:
        job_id = api.job("ToolICR", documents.pdf("download me"), params={"outputFormats": "TXT"})
        _ended(service, job_id)
        assert api.result(job_id).status_code == 200  # the first download
        downloaded = time.monotonic()
        # The other formats of the same job, within the grace window.
        assert api.result(job_id, "file", outputType="TXT").status_code == 200
        assert api.result(job_id, "zip").status_code == 200
        _until(lambda: not _results(service, job_id).exists(), 10, "result not deleted")
        assert time.monotonic() - downloaded < TTL - 1  # well before the TTL
        gone = api.result(job_id, "zip")
        assert gone.status_code == 404 and problem(gone)["code"] == "job_expired"
    finally:
        api.close()


def test_an_undownloaded_result_stays_until_the_ttl(service: EmbeddedService) -> None:
    api = Api(service, service.create_client(credits=10))
    try:
        job_id = api.job("ToolICR", documents.pdf("never fetched"))
        _ended(service, job_id)
        time.sleep(GRACE + 1)
        assert (_results(service, job_id) / "result.json").exists()
        _until(lambda: not _results(service, job_id).exists(), TTL + 10, "not deleted at TTL")
        assert problem(api.result(job_id))["code"] == "job_expired"
    finally:
        api.close()


def test_outbox_mail_is_deleted_at_the_ttl(service: EmbeddedService) -> None:
    api = Api(service, service.create_client(credits=10))
    try:
        job_id = api.job("ToolICR", documents.pdf("mail me"), params={"email": "a@example.com"})
        mail = service.settings.outbox_dir / f"{job_id}.eml"
        _until(mail.exists, 60, "mail never written")
        _until(lambda: not mail.exists(), TTL + 10, "outbox mail kept past the TTL")
    finally:
        api.close()


def test_job_rows_are_anonymised_after_the_ttl(service: EmbeddedService) -> None:
    api = Api(service, service.create_client(credits=10))
    try:
        job_id = api.job(
            "ToolICR",
            documents.pdf("private", "two"),
            name="salary-2026.pdf",
            params={"email": "who@example.com", "outputFormats": "TXT", "languageHint": "de"},
            headers={"Idempotency-Key": "anon-1"},
        )
        _ended(service, job_id)
        before = _row(service, job_id)
        assert before["file_name"] == "salary-2026.pdf" and before["email"] == "who@example.com"

        def anonymised() -> bool:
            return _row(service, job_id)["file_name"] == ""

        _until(anonymised, TTL + 10, "job row not anonymised at the TTL")
        after = _row(service, job_id)
        # What billing needs stays …
        for kept in ("id", "client_id", "tool", "page_count", "credits_charged", "created_at"):
            assert after[kept] == before[kept], kept
        assert after["completed_at"] == before["completed_at"] and after["page_count"] == 2
        # … everything about the document and its owner's address goes.
        assert after["sha256"] == "" and after["email"] is None
        assert after["size"] == 0 and after["media_type"] == ""
        assert after["languages"] == "" and after["output_formats"] == ""
        assert after["error_detail"] is None and after["email_error"] is None
        # A retry with the same key still names the same job and charges nothing.
        again = api.upload(
            "ToolICR", documents.pdf("private", "two"), headers={"Idempotency-Key": "anon-1"}
        )
        assert again.status_code == 201 and again.json()["jobId"] == job_id
        assert api.credits() == 8
    finally:
        api.close()
