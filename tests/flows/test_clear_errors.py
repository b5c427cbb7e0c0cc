"""What a run tells its user (issue 19.5, 19.7): failed and left-out files by name in the
summary, the log and the markdown artifact; a ``docai.document.failed`` event for a bad
file; and a run without the ``server`` extra fails saying what to install instead of
deferring every document."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest
from prefect import get_client
from prefect.client.schemas.filters import (
    ArtifactFilter,
    ArtifactFilterKey,
    FlowRunFilter,
    FlowRunFilterId,
)
from prefect.events.filters import EventFilter, EventNameFilter, EventResourceFilter
from prefect.events.worker import EventsWorker

from prefect_docai.flows import BatchIncomplete, BatchSummary, process_documents
from prefect_docai.flows.service import ServiceNotInstalled

pytestmark = [pytest.mark.flows, pytest.mark.timeout(300)]

CORRUPT = b"%PDF-1.7\n1 0 obj << /Type /Catalog >> broken"


@pytest.fixture
def inbox(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("DOCAI_WORKERS", "1")
    folder = tmp_path / "inbox"
    folder.mkdir()
    (folder / "corrupt.pdf").write_bytes(CORRUPT)
    (folder / "notes.txt").write_text("not a document")
    (folder / "table.ods").write_bytes(b"PK\x03\x04 spreadsheet")
    return folder


def test_failed_and_left_out_files_are_listed_and_the_failure_is_an_event(
    inbox: Path, tmp_path: Path
) -> None:
    summary = process_documents(str(inbox), str(tmp_path / "lake"))
    assert isinstance(summary, BatchSummary)
    assert summary.failed == 1 and summary.failed_files == ["corrupt.pdf"]
    assert [Path(u).name for u in summary.left_out] == ["notes.txt", "table.ods"]
    assert {"metric": "left out (no pattern matches)", "value": 2} in summary.table()

    with get_client(sync_client=True) as client:
        artifacts = client.read_artifacts(
            artifact_filter=ArtifactFilter(key=ArtifactFilterKey(any_=["docai-batch-report"])),
            flow_run_filter=FlowRunFilter(id=FlowRunFilterId(any_=[summary.run_id])),
        )
    report = str(artifacts[0].data)
    assert "## Files not processed" in report
    assert "`corrupt.pdf` | failed" in report
    assert "notes.txt` | left out" in report and "table.ods` | left out" in report

    EventsWorker.drain_all()
    deadline = time.monotonic() + 30
    while True:
        with get_client(sync_client=True) as client:
            page = client.read_events(
                EventFilter(
                    event=EventNameFilter(name=["docai.document.failed"]),
                    resource=EventResourceFilter(id_prefix=["docai.document."]),
                ),
                limit=50,
            )
        mine = [e for e in page.events if e.payload.get("run_id") == summary.run_id]
        if mine or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    assert len(mine) == 1
    event = mine[0]
    assert event.resource.name == "corrupt.pdf"
    assert event.payload["status"] == "failed"
    assert any(code.startswith("inspect:") for code in event.payload["errors"])


def test_without_the_server_extra_the_run_says_what_to_install(
    inbox: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # None in sys.modules makes the import fail as if the extra were not installed.
    monkeypatch.setitem(sys.modules, "prefect_docai.server.embedded", None)
    with pytest.raises(ServiceNotInstalled, match=r"pip install 'prefect-docai\[server\]'"):
        process_documents(str(inbox), str(tmp_path / "lake"))
    # Not the misleading "deferred ... (credit budget)" of before.
    assert not issubclass(ServiceNotInstalled, BatchIncomplete)
