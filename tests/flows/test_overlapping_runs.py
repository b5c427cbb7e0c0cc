"""Two runs of the flow overlap on one source and one destination (one event, two
deployments): every document lands once and the service charges each page once."""

from __future__ import annotations

import asyncio
from collections import Counter
from pathlib import Path

import pytest
from tests.flows.blocks import save_credentials

from prefect_docai.datasets import DatasetStore
from prefect_docai.flows import BatchSummary, process_documents


@pytest.fixture(autouse=True)
def fast_service(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DOCAI_UPLOAD_RATE_PER_SECOND", "20")
    monkeypatch.setenv("OMP_THREAD_LIMIT", "1")


def test_overlapping_runs_charge_once_and_write_each_document_once(tmp_path: Path) -> None:
    from prefect_docai.samples.generate import generate
    from prefect_docai.samples.stream import make_stream
    from prefect_docai.server.embedded import EmbeddedService

    inbox = tmp_path / "inbox"
    inbox.mkdir()
    (inbox / "letter.pdf").write_bytes(generate("letter", seed=15, lang="en").pdf)
    (inbox / "receipt.pdf").write_bytes(generate("receipt", seed=14, lang="de").pdf)
    # A stream the flow splits: its segments are cut out and uploaded on their own, so
    # cutting must give the same bytes in both runs for the keys to match.
    stream, _ = make_stream(
        [generate("invoice", seed=16, lang="de").pdf, generate("letter", seed=17, lang="de").pdf]
    )
    (inbox / "stream.pdf").write_bytes(stream)
    lake = tmp_path / "lake"

    with EmbeddedService(workers=2) as service:
        name, creds = save_credentials(service, "overlap", 500)

        async def both() -> list[BatchSummary]:
            return list(
                await asyncio.gather(
                    process_documents(str(inbox), str(lake), credentials=name),
                    process_documents(str(inbox), str(lake), credentials=name),
                )
            )

        first, second = asyncio.run(both())
        spent = 500 - service.credits(creds.client_id)

    # Each run saw every job (a replayed key answers with the same job) ...
    assert first.processed == second.processed == 3
    assert first.credits_used == second.credits_used > 0
    # ... but the service charged them once.
    assert spent == first.credits_used
    store = DatasetStore(str(lake))
    ids = store.read("documents").column("document_id").to_pylist()
    assert len(ids) == 3 and not [k for k, n in Counter(ids).items() if n > 1]
    segments = store.read("segments").column("segment_id").to_pylist()
    assert len(segments) == len(set(segments)) == 4
    assert sum(store.read("documents").column("credits_charged").to_pylist()) == spent
    assert store.staged() == [] and store.manifests(pending=True) == []
