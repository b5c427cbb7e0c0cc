"""Two runs of the flow overlap on one source and one destination (one event, two
deployments): every document lands once and the service charges each page once.

Started side by side, the runs need not overlap: on a busy machine one run could finish and
checkpoint before the other reads the destination, and the other would then resume instead
of uploading again. A gate makes the overlap certain: every upload waits until both runs
have reached one, and a run uploads only after it has read the ledger and the checkpoints,
so neither run can stage a document before the other has decided to process it too.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from pathlib import Path
from typing import Unpack
from uuid import UUID

import pytest
from prefect.runtime import flow_run
from tests.flows.blocks import save_credentials

from prefect_docai.client import DocAIClient, DocumentInput, UploadOptions, UploadReceipt
from prefect_docai.datasets import DatasetStore
from prefect_docai.flows import BatchSummary, process_documents
from prefect_docai.models import Tool

RUNS = 2
GATE_TIMEOUT = 180.0
"""Seconds an upload waits for the other run: long for a loaded machine, short of a hang."""


@pytest.fixture(autouse=True)
def fast_service(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DOCAI_UPLOAD_RATE_PER_SECOND", "20")
    monkeypatch.setenv("OMP_THREAD_LIMIT", "1")


@pytest.fixture
def uploaders(monkeypatch: pytest.MonkeyPatch) -> set[UUID]:
    """Hold every upload until ``RUNS`` flow runs have each tried one; the runs that did."""
    arrived: set[UUID] = set()
    everyone = asyncio.Event()  # binds to the loop of its first wait: both runs share it
    upload = DocAIClient.upload

    async def gated(
        self: DocAIClient,
        tool: Tool | str,
        document: DocumentInput,
        **options: Unpack[UploadOptions],
    ) -> UploadReceipt:
        run = flow_run.id
        assert run is not None, "an upload outside a flow run"
        arrived.add(UUID(run))
        if len(arrived) >= RUNS:
            everyone.set()
        try:
            await asyncio.wait_for(everyone.wait(), GATE_TIMEOUT)
        except TimeoutError:
            raise AssertionError(
                f"only {len(arrived)} of {RUNS} runs reached an upload in {GATE_TIMEOUT:.0f} s"
            ) from None
        return await upload(self, tool, document, **options)

    monkeypatch.setattr(DocAIClient, "upload", gated)
    return arrived


def test_overlapping_runs_charge_once_and_write_each_document_once(
    tmp_path: Path, uploaders: set[UUID]
) -> None:
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

    assert len(uploaders) == RUNS
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
