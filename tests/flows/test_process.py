"""The batch flow end to end: generated documents → embedded service over HTTP → Parquet.

Real parts only: the service on loopback with its real engines and worker processes, a real
Prefect API (the session's test harness), a moto S3 server on loopback with s3fs, and the
datasets read back with DuckDB, pyarrow and Polars.
"""

from __future__ import annotations

import asyncio
import hashlib
import io
import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

import duckdb
import httpx
import pikepdf
import pyarrow.compute as pc
import pytest
from tests.flows.blocks import save_credentials

from prefect_docai.datasets import DATASETS, DatasetStore
from prefect_docai.flows import BatchIncomplete, BatchOptions, BatchSummary, aprocess_documents

pytestmark = [pytest.mark.flows, pytest.mark.timeout(600)]


@dataclass
class Batch:
    files: dict[str, bytes]
    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(DATASETS, 0))
    gross: dict[str, Decimal] = field(default_factory=dict)
    """file name → gross amount of every invoice (streams: name#index)."""
    receipt_totals: dict[str, Decimal] = field(default_factory=dict)

    def write(self, folder: Path) -> Path:
        folder.mkdir(parents=True, exist_ok=True)
        for name, data in self.files.items():
            (folder / name).write_bytes(data)
        (folder / "notes.txt").write_text("not a document: the patterns skip it")
        return folder

    def subset(self, names: list[str]) -> Batch:
        return build_batch(only=names)


def _add(batch: Batch, doc_type: str, truth: dict[str, Any], pages: int, key: str) -> None:
    batch.counts["segments"] += 1
    if doc_type == "invoice":
        batch.counts["invoices"] += 1
        batch.counts["invoice_lines"] += len(truth["lineItems"])
        batch.counts["invoice_taxes"] += len(truth["taxes"])
        batch.gross[key] = Decimal(truth["gross"])
    elif doc_type == "receipt":
        batch.counts["receipts"] += 1
        batch.counts["receipt_items"] += len(truth["items"])
        batch.receipt_totals[key] = Decimal(truth["total"])
    else:  # routed to ICR: one text row per page
        batch.counts["pages_text"] += pages


def build_batch(only: list[str] | None = None) -> Batch:
    from prefect_docai.samples.einvoice import generate_einvoice
    from prefect_docai.samples.generate import generate
    from prefect_docai.samples.stream import make_stream

    singles = {
        "invoice-de.pdf": lambda: generate("invoice", seed=17, lang="de"),
        "invoice-en.pdf": lambda: generate("invoice", seed=17, lang="en"),
        "e-invoice.pdf": lambda: generate_einvoice(seed=13, lang="de"),
        "receipt-de.pdf": lambda: generate("receipt", seed=14, lang="de"),
        "letter-en.pdf": lambda: generate("letter", seed=15, lang="en"),
    }
    batch = Batch(files={})
    for name, make in singles.items():
        if only is not None and name not in only:
            continue
        doc = make()
        batch.files[name] = doc.pdf
        _add(batch, doc.doc_type, doc.truth, doc.page_count, name)
    if only is None or "stream.pdf" in only:
        members = [generate("invoice", seed=16, lang="de"), generate("letter", seed=17, lang="de")]
        pdf, _ = make_stream([m.pdf for m in members])
        batch.files["stream.pdf"] = pdf
        for index, member in enumerate(members):
            _add(batch, member.doc_type, member.truth, member.page_count, f"stream.pdf#{index}")
    if only is None or "corrupt.pdf" in only:
        batch.files["corrupt.pdf"] = b"%PDF-1.7\n1 0 obj << /Type /Catalog >> broken"
        batch.counts["errors"] += 1
    batch.counts["documents"] = len(batch.files)
    return batch


@pytest.fixture(scope="module")
def batch() -> Batch:
    return build_batch()


@pytest.fixture(autouse=True)
def fast_service(monkeypatch: pytest.MonkeyPatch) -> None:
    """The spec's 1 request/s makes tests slow without testing more; pace faster here."""
    monkeypatch.setenv("DOCAI_UPLOAD_RATE_PER_SECOND", "20")
    monkeypatch.setenv("DOCAI_RETRY_AFTER", "1")
    monkeypatch.setenv("OMP_THREAD_LIMIT", "1")


def run_flow(source: str, destination: str, **options: Any) -> BatchSummary:
    result: BatchSummary = asyncio.run(
        aprocess_documents(source, destination, options=BatchOptions(**options))
    )
    return result


def committed_counts(store: DatasetStore) -> dict[str, int]:
    counts = {name: store.read(name).num_rows for name in DATASETS}
    assert counts == store.row_counts()
    return counts


def assert_matches_truth(
    store: DatasetStore, batch: Batch, con: duckdb.DuckDBPyConnection | None = None
) -> None:
    """Every dataset's row count is the truth's, and the money is right.

    Receipt line items are the exception: today's receipt engine finds fewer items than the
    generated truth holds (totals are right), so their rows are checked against what the
    engine reported (``item_count``), i.e. that normalizing lost none.
    """
    counts = committed_counts(store)
    receipts = store.read("receipts")
    reported_items = sum(receipts.column("item_count").to_pylist())
    assert counts["receipt_items"] == reported_items > 0
    expected = {**batch.counts, "receipt_items": reported_items}
    assert counts == expected
    assert invoice_gross(store, con or duckdb.connect()) == batch.gross
    assert sorted(receipts.column("total").to_pylist()) == sorted(batch.receipt_totals.values())


def invoice_gross(store: DatasetStore, con: duckdb.DuckDBPyConnection) -> dict[str, Decimal]:
    rows = con.sql(
        f"""
        SELECT d.file_name, s.segment_index, count(*) OVER (PARTITION BY d.document_id) AS n,
               i.gross
        FROM read_parquet('{store.glob_url("invoices")}', hive_partitioning = true) i
        JOIN read_parquet('{store.glob_url("segments")}', hive_partitioning = true) s
          USING (segment_id)
        JOIN read_parquet('{store.glob_url("documents")}', hive_partitioning = true) d
          ON d.document_id = i.document_id
        """
    ).fetchall()
    out = {}
    for file_name, segment_index, _, gross in rows:
        key = f"{file_name}#{segment_index}" if file_name == "stream.pdf" else file_name
        out[key] = gross
    return out


def prefect_api(path: str, body: dict[str, Any]) -> Any:
    from prefect.settings import PREFECT_API_URL

    response = httpx.post(f"{PREFECT_API_URL.value()}{path}", json=body, timeout=30)
    response.raise_for_status()
    return response.json()


def check_events_and_artifacts(summary: BatchSummary, batch: Batch) -> None:
    ids = {hashlib.sha256(d).hexdigest(): n for n, d in batch.files.items()}
    wanted = [f"docai.document.{i}" for i in ids]

    def events() -> list[dict[str, Any]]:
        page = prefect_api(
            "/events/filter",
            {"filter": {"event": {"prefix": ["docai.document."]}, "resource": {"id": wanted}},
             "limit": 50},
        )
        return [e for e in page["events"] if e["payload"].get("run_id") == summary.run_id]

    deadline = time.monotonic() + 30
    found = events()
    while len(found) < len(ids) and time.monotonic() < deadline:
        time.sleep(1)
        found = events()
    by_name = {ids[e["resource"]["prefect.resource.id"].removeprefix("docai.document.")]: e
               for e in found}
    assert set(by_name) == set(batch.files)
    assert by_name["corrupt.pdf"]["event"] == "docai.document.failed"
    assert by_name["corrupt.pdf"]["payload"]["errors"] == ["inspect:corrupt_pdf"]
    assert by_name["stream.pdf"]["event"] == "docai.document.processed"
    assert by_name["stream.pdf"]["payload"]["segments"] == ["invoice", "letter"]

    artifacts = prefect_api(
        "/artifacts/filter",
        {"artifacts": {"flow_run_id": {"any_": [summary.run_id]}}},
    )
    kinds = {a["key"]: a for a in artifacts}
    assert {"docai-batch-progress", "docai-batch-summary", "docai-batch-report"} <= set(kinds)
    assert kinds["docai-batch-progress"]["data"] == 100.0
    assert "read_parquet(" in kinds["docai-batch-report"]["data"]


def test_local_batch_matches_truth_and_rerun_adds_nothing(tmp_path: Path, batch: Batch) -> None:
    source = batch.write(tmp_path / "inbox")
    dest = tmp_path / "lake"

    estimate = run_flow(str(source), str(dest), dry_run=True)
    assert estimate.dry_run and estimate.credits_used == 0 and estimate.failed == 1
    readable = [d for n, d in batch.files.items() if n != "corrupt.pdf"]
    assert estimate.pages == sum(len(pikepdf.open(io.BytesIO(d)).pages) for d in readable)
    assert estimate.estimated_credits_low is not None and estimate.estimated_credits_high is not None
    assert estimate.estimated_credits_low <= estimate.estimated_credits_high
    assert not dest.exists()

    summary = run_flow(str(source), str(dest))
    assert estimate.estimated_credits_low <= summary.credits_used <= estimate.estimated_credits_high

    assert summary.files_found == len(batch.files)
    assert summary.failed == 1 and summary.deferred == 0
    store = DatasetStore(str(dest))
    assert_matches_truth(store, batch)

    (error,) = store.read("errors").to_pylist()
    assert error["document_id"] == hashlib.sha256(batch.files["corrupt.pdf"]).hexdigest()
    assert error["stage"] == "inspect" and error["code"] == "corrupt_pdf"
    segments = store.read("segments")
    stream_id = hashlib.sha256(batch.files["stream.pdf"]).hexdigest()
    stream = segments.filter(pc.equal(segments["document_id"], stream_id)).to_pylist()
    assert [s["document_type"] for s in sorted(stream, key=lambda s: s["segment_index"])] == [
        "invoice",
        "letter",
    ]
    assert summary.credits_used == sum(store.read("documents").column("credits_charged").to_pylist())

    check_events_and_artifacts(summary, batch)

    again = run_flow(str(source), str(dest))
    assert again.skipped == len(batch.files)
    assert again.credits_used == 0 and again.rows == {}
    assert_matches_truth(store, batch)
    assert len(store.manifests()) == 1


def test_killed_run_resumes_without_duplicates(tmp_path: Path) -> None:
    from prefect.settings import PREFECT_API_URL

    batch = build_batch(only=["invoice-de.pdf", "receipt-de.pdf", "letter-en.pdf", "corrupt.pdf"])
    source = batch.write(tmp_path / "inbox")
    dest = tmp_path / "lake"
    staging = dest / "_docai" / "staging"
    env = {
        **os.environ,
        "PREFECT_API_URL": str(PREFECT_API_URL.value()),
        # Slow enough that the kill lands mid-batch.
        "DOCAI_UPLOAD_RATE_PER_SECOND": "2",
    }
    docai = Path(sys.executable).parent / "docai"
    proc = subprocess.Popen(
        [str(docai), "run", str(source), str(dest), "--concurrency", "1"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline and proc.poll() is None:
            if staging.exists() and len(list(staging.glob("*.json"))) >= 2:
                break
            time.sleep(0.2)
        assert proc.poll() is None, "the run ended before it could be killed"
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(30)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(30)
    checkpoints = len(list(staging.glob("*.json")))
    assert 2 <= checkpoints < len(batch.files)
    assert not (dest / "documents").exists()  # nothing published by the killed run

    summary = run_flow(str(source), str(dest))
    assert summary.resumed == checkpoints
    assert summary.resumed + summary.processed + summary.partial + summary.failed == len(batch.files)
    store = DatasetStore(str(dest))
    assert_matches_truth(store, batch)
    ids = store.read("documents").column("document_id").to_pylist()
    assert len(ids) == len(set(ids)) == len(batch.files)
    assert list(staging.glob("*.json")) == []


@pytest.fixture
def s3(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, Any]]:
    from moto.server import ThreadedMotoServer

    monkeypatch.setenv("AWS_DEFAULT_REGION", "us-east-1")
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    options = {
        "endpoint_url": f"http://{host}:{port}",
        "key": "testing",
        "secret": "testing",
    }
    try:
        yield options
    finally:
        server.stop()


def test_s3_source_and_destination(s3: dict[str, Any]) -> None:
    import s3fs

    fs = s3fs.S3FileSystem(**s3)
    bucket = f"docai-{uuid.uuid4().hex[:8]}"
    fs.mkdir(bucket)
    small = build_batch(only=["invoice-en.pdf", "receipt-de.pdf", "corrupt.pdf"])
    for name, data in small.files.items():
        fs.pipe(f"{bucket}/inbox/2026/{name}", data)
    fs.pipe(f"{bucket}/inbox/2026/readme.md", b"skipped")

    dest = f"s3://{bucket}/lake"
    summary = run_flow(
        f"s3://{bucket}/inbox/**/*.pdf",
        dest,
        source_storage_options=s3,
        destination_storage_options=s3,
    )
    assert summary.files_found == 3
    store = DatasetStore(dest, s3)
    # DuckDB reads the bucket through the same fsspec filesystem (no extension downloads:
    # it must not reach for httpfs).
    con = duckdb.connect(
        config={"autoinstall_known_extensions": False, "autoload_known_extensions": False}
    )
    con.register_filesystem(s3fs.S3FileSystem(**s3))
    assert_matches_truth(store, small, con)
    sources = sorted(store.read("documents").column("source_uri").to_pylist())
    assert sources == [f"s3://{bucket}/inbox/2026/{n}" for n in sorted(small.files)]

    again = run_flow(
        f"s3://{bucket}/inbox/**/*.pdf",
        dest,
        source_storage_options=s3,
        destination_storage_options=s3,
    )
    assert again.skipped == 3
    assert_matches_truth(store, small, con)


def test_credit_budget_stops_before_it_is_exceeded(tmp_path: Path) -> None:
    small = build_batch(only=["invoice-de.pdf", "letter-en.pdf"])
    source = small.write(tmp_path / "inbox")
    dest = tmp_path / "lake"
    # Each one-page file may cost up to 3 credits and costs 2: the second cannot be
    # promised within 4 once the first has spent its 2.
    with pytest.raises(BatchIncomplete) as info:
        run_flow(str(source), str(dest), credit_budget=4, max_concurrency=1)
    summary = info.value.summary
    assert summary.over_budget == 1 and summary.processed == 1
    assert summary.credits_used <= 4
    store = DatasetStore(str(dest))
    assert store.row_counts()["documents"] == 1


def test_saved_credentials_block_and_credit_accounting(tmp_path: Path) -> None:
    """A named DocAICredentials block: the flow talks to that service, not its own."""
    from prefect_docai.server.embedded import EmbeddedService

    small = build_batch(only=["letter-en.pdf", "receipt-de.pdf"])
    source = small.write(tmp_path / "inbox")
    with EmbeddedService(workers=1) as service:
        name, creds = save_credentials(service, "block-test", 500)
        summary: BatchSummary = asyncio.run(
            aprocess_documents(str(source), str(tmp_path / "lake"), credentials=name)
        )
        balance = service.credits(creds.client_id)
    assert f"block {name!r}" in summary.service
    assert summary.processed == 2 and summary.credits_used > 0
    assert balance == 500 - summary.credits_used
    store = DatasetStore(str(tmp_path / "lake"))
    assert committed_counts(store)["documents"] == 2
    assert sum(store.read("documents").column("credits_charged").to_pylist()) == summary.credits_used
