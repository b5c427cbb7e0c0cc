"""A deferred document keeps the results it already paid for (issue 19, scale finding).

A document whose first job finished (and was downloaded) but whose next job was deferred
runs again in a later run. The service deletes a downloaded result ``download_grace``
after the download; the later run replays the same Idempotency-Key, finds the job
``expired``, and without a checkpoint of the downloaded result the document would end
``partial``: charged, result lost. Real parts: the embedded service on loopback with its
engines, a real Prefect API, a local destination.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest
from sqlalchemy import select
from tests.flows.blocks import save_credentials

from prefect_docai.datasets import DatasetStore
from prefect_docai.flows import BatchIncomplete, aprocess_documents

pytestmark = [pytest.mark.flows, pytest.mark.timeout(600)]


def _statuses(service: object) -> list[str]:
    from prefect_docai.server.db import JobRow
    from prefect_docai.server.embedded import EmbeddedService

    assert isinstance(service, EmbeddedService)
    with service._database().session() as session:
        return list(session.scalars(select(JobRow.status).order_by(JobRow.created_at)))


def test_deferred_document_reuses_its_downloaded_results_after_they_expire(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from prefect_docai.samples.generate import generate
    from prefect_docai.server.embedded import EmbeddedService

    monkeypatch.setenv("OMP_THREAD_LIMIT", "1")
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    # One page: Classify (1 credit), then ICR for a letter (1 credit).
    (inbox / "letter.pdf").write_bytes(generate("letter", seed=15, lang="en").pdf)
    lake = tmp_path / "lake"
    settings = {
        "workers": 1,
        "upload_rate_per_second": 20,
        "retry_after": 1,
        "download_grace": 0,
        "purge_interval": 0.2,
    }
    with EmbeddedService(**settings) as service:
        # Credits for the Classify job only: the ICR upload is refused (402) and the
        # document is deferred after its Classify result was downloaded.
        name, creds = save_credentials(service, "checkpoint-test", 1)
        with pytest.raises(BatchIncomplete) as info:
            asyncio.run(aprocess_documents(str(inbox), str(lake), credentials=name))
        assert info.value.summary.deferred == 1
        assert service.credits(creds.client_id) == 0
        # The downloaded Classify result is purged (grace 0) before the next run.
        deadline = time.monotonic() + 30
        while _statuses(service) != ["expired"]:
            assert time.monotonic() < deadline, _statuses(service)
            time.sleep(0.1)

        # An interrupted earlier run's checkpoint under a key this run never asks for
        # (other options): cleared with the document's own, not left behind.
        (own,) = (lake / "_docai" / "jobs").glob("*/*.json")
        (own.parent / f"{'0' * 64}.json").write_bytes(own.read_bytes())

        service.add_credits(creds.client_id, 10)
        summary = asyncio.run(aprocess_documents(str(inbox), str(lake), credentials=name))
        spent = 11 - service.credits(creds.client_id)

    assert summary.processed == 1 and summary.partial == 0 and summary.errors == 0
    store = DatasetStore(str(lake))
    documents = store.read("documents")
    assert documents.column("status").to_pylist() == ["processed"]
    # Charged once per job, and every charged credit is in the rows.
    assert spent == 2
    assert documents.column("credits_charged").to_pylist() == [spent]
    assert store.read("pages_text").num_rows == 1
    # The job checkpoints are gone once the document's outcome is staged.
    assert not list((lake / "_docai").glob("jobs/**/*.json"))
