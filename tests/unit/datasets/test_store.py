from __future__ import annotations

import uuid
from datetime import timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

import duckdb
import pandas as pd
import polars as pl
import pyarrow.dataset as ds
import pytest

from prefect_docai.datasets import DATASETS, SCHEMA_VERSION, DatasetStore
from prefect_docai.datasets import store as store_module
from prefect_docai.datasets.store import RecoveryReport, partition_path


class Crash(Exception):
    pass


def crash_on(store: DatasetStore, monkeypatch: pytest.MonkeyPatch, marker: str, nth: int = 1) -> None:
    """Make the store die on the ``nth`` write whose path contains ``marker``."""
    original = store._write_atomic
    seen = {"n": 0}

    def write(path: str, data: bytes) -> None:
        if marker in path:
            seen["n"] += 1
            if seen["n"] == nth:
                raise Crash(path)
        original(path, data)

    monkeypatch.setattr(store, "_write_atomic", write)


def glob_counts(root: Path) -> dict[str, int]:
    """Row counts as a plain DuckDB glob reader sees them (no manifest awareness)."""
    out = {}
    for name in DATASETS:
        files = list((root / name).glob("*/*/*.parquet"))
        if not files:
            out[name] = 0
            continue
        out[name] = duckdb.sql(
            f"SELECT count(*) FROM read_parquet('{root}/{name}/*/*/*.parquet', hive_partitioning=true)"
        ).fetchall()[0][0]
    return out


def test_commit_is_readable_by_pandas_duckdb_polars_and_pyarrow(tmp_path: Path, make: Any) -> None:
    store = DatasetStore(str(tmp_path))
    docs = [make.invoice_document("a.pdf"), make.invoice_document("b.pdf", gross="10.00")]
    for doc in docs:
        store.stage(doc)
    manifest = store.commit("run-1")
    assert manifest is not None and manifest.state == "committed"
    assert manifest.files["invoices"].rows == 2
    assert manifest.files["invoices"].path == partition_path(
        "invoices", manifest.ingest_date, "run-1", manifest.attempt
    )

    # The store's own reader.
    invoices = store.read("invoices")
    assert sorted(invoices.column("gross").to_pylist()) == [Decimal("10.00"), Decimal("1163.40")]
    assert set(invoices.column("run_id").to_pylist()) == {"run-1"}
    assert invoices.schema.metadata[b"docai.schema_version"] == SCHEMA_VERSION.encode()

    # pyarrow dataset with hive partitioning.
    dataset = ds.dataset(str(tmp_path / "invoice_lines"), format="parquet", partitioning="hive")
    table = dataset.to_table()
    assert table.num_rows == 4
    assert set(table.column("run_id").to_pylist()) == {"run-1"}

    # DuckDB over a glob, joining two datasets by key.
    rows = duckdb.sql(
        f"""
        SELECT d.file_name, i.gross, i.ingest_date
        FROM read_parquet('{store.glob_url("invoices")}', hive_partitioning=true) i
        JOIN read_parquet('{store.glob_url("documents")}', hive_partitioning=true) d
          USING (document_id)
        ORDER BY d.file_name
        """
    ).fetchall()
    assert [(r[0], r[1]) for r in rows] == [("a.pdf", Decimal("1163.40")), ("b.pdf", Decimal("10.00"))]
    assert str(rows[0][2]) == manifest.ingest_date.isoformat()

    # Polars and pandas.
    frame = pl.scan_parquet(store.glob_url("receipt_items"), hive_partitioning=True).collect()
    assert frame.height == 4
    assert frame["amount"].dtype == pl.Decimal(18, 2)
    pdf = pd.read_parquet(tmp_path / "segments")
    assert len(pdf) == 6 and set(pdf["document_type"]) == {"invoice", "receipt", "report"}

    # Ledger and checkpoints.
    assert store.ledger() == {d.document_id: "processed" for d in docs}
    assert store.staged() == []
    assert store.row_counts()["table_cells"] == 12


def test_second_run_appends_and_empty_commit_writes_nothing(tmp_path: Path, make: Any) -> None:
    store = DatasetStore(str(tmp_path))
    assert store.commit("run-0") is None
    assert not (tmp_path / "documents").exists()
    store.commit("run-1", [make.invoice_document("a.pdf")])
    store.commit("run-2", [make.failed_document("broken.pdf")])
    assert store.row_counts()["documents"] == 2
    assert [m.run_id for m in store.manifests()] == ["run-1", "run-2"]
    assert store.read("errors", runs=["run-2"]).column("code").to_pylist() == ["corrupt_document"]
    assert store.ledger()[make.sha("broken.pdf")] == "failed"
    # Every dataset has a file per run, so a glob never fails for want of files.
    assert glob_counts(tmp_path)["errors"] == 1


def crash_at(
    store: DatasetStore, monkeypatch: pytest.MonkeyPatch, dies_at: str
) -> None:
    """Kill the commit at a data file, just before its commit point, or just after it."""
    if dies_at == "commit point":
        def refuse(*args: Any) -> bool:
            raise Crash(dies_at)
        monkeypatch.setattr(store_module, "create_exclusive", refuse)
    elif dies_at == "after commit":
        original = store._clear_checkpoints

        def clear(ids: Any) -> int:
            if set(ids):
                raise Crash(dies_at)
            return original(ids)
        monkeypatch.setattr(store, "_clear_checkpoints", clear)
    else:
        crash_on(store, monkeypatch, dies_at)


@pytest.mark.parametrize("dies_at", ["/invoices/", "/errors/", "commit point", "after commit"])
def test_crash_mid_commit_rolls_forward_exactly_once(
    tmp_path: Path, make: Any, monkeypatch: pytest.MonkeyPatch, dies_at: str
) -> None:
    store = DatasetStore(str(tmp_path))
    docs = [make.invoice_document("a.pdf"), make.invoice_document("b.pdf")]
    for doc in docs:
        store.stage(doc)
    crash_at(store, monkeypatch, dies_at)
    with pytest.raises(Crash):
        store.commit("run-1")
    monkeypatch.undo()

    # A log-aware reader sees nothing until the commit point...
    committed = dies_at == "after commit"
    assert store.row_counts()["invoices"] == (2 if committed else 0)
    # ...and a plain glob never sees part of a dataset's rows for the run.
    assert glob_counts(tmp_path)["invoices"] in (0, 2)

    # A fresh pending commit may belong to a live writer: recovery leaves it alone.
    fresh = DatasetStore(str(tmp_path))
    if not committed:
        assert fresh.recover() == RecoveryReport()
        assert len(fresh.manifests(pending=True)) == 1
    # Once it is stale, the next run finishes it, once.
    report = fresh.recover(stale_after=timedelta(0))
    if committed:
        assert report.ledger_repaired == 1 and report.rolled_forward == []
    else:
        assert report.rolled_forward == ["run-1"]
    assert fresh.staged() == []
    assert fresh.commit("run-2") is None  # nothing left to publish
    counts = glob_counts(tmp_path)
    assert counts["invoices"] == 2 and counts["documents"] == 2 and counts["invoice_lines"] == 4
    assert fresh.row_counts() == counts
    assert set(fresh.ledger()) == {d.document_id for d in docs}
    assert [m.run_id for m in fresh.manifests()] == ["run-1"]
    assert fresh.manifests(pending=True) == []


def test_pending_run_without_checkpoints_is_rolled_back(
    tmp_path: Path, make: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = DatasetStore(str(tmp_path))
    store.stage(make.invoice_document("a.pdf"))
    crash_on(store, monkeypatch, "/segments/")
    with pytest.raises(Crash):
        store.commit("run-1")
    (pending,) = store.manifests(pending=True)
    assert (tmp_path / pending.files["documents"].path).exists()
    # Someone cleared the checkpoints: the partial files cannot be completed, so they go.
    for path in (tmp_path / "_docai" / "staging").iterdir():
        path.unlink()
    report = DatasetStore(str(tmp_path)).recover(stale_after=timedelta(0))
    assert report.rolled_back == ["run-1"]
    assert glob_counts(tmp_path)["documents"] == 0
    assert store.manifests(pending=True) == []


def test_a_commit_taken_for_dead_is_fenced_off_when_it_wakes(
    tmp_path: Path, make: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A writer pauses past ``stale_after`` right before its commit point; another run
    recovers its documents. When the first wakes, the fence in the log stops it."""
    slow = DatasetStore(str(tmp_path))
    docs = [make.invoice_document("a.pdf"), make.failed_document("b.pdf")]
    for doc in docs:
        slow.stage(doc)
    real = store_module.create_exclusive
    recovered: list[RecoveryReport] = []
    paused_once: list[bool] = []

    def paused(fs: Any, path: str, data: bytes) -> bool:
        if not paused_once:
            paused_once.append(True)
            recovered.append(DatasetStore(str(tmp_path)).recover(stale_after=timedelta(0)))
        return real(fs, path, data)

    monkeypatch.setattr(store_module, "create_exclusive", paused)
    assert slow.commit("run-slow") is None
    assert recovered[0].rolled_forward == ["run-slow"]
    ids = slow.read("documents").column("document_id").to_pylist()
    assert sorted(ids) == sorted(d.document_id for d in docs)
    assert glob_counts(tmp_path)["documents"] == 2  # the fenced attempt's files are gone
    assert slow.manifests(pending=True) == [] and slow.staged() == []


def test_overlapping_runs_publish_each_document_once_and_retries_still_land(
    tmp_path: Path, make: Any
) -> None:
    first, second = DatasetStore(str(tmp_path)), DatasetStore(str(tmp_path))
    assert first.ledger() == {} and second.ledger() == {}
    broken = make.failed_document("broken.pdf")
    assert first.commit("run-1", [make.invoice_document("a.pdf"), broken]) is not None
    # The second run started before run-1 committed and processed the same files.
    late = second.commit("run-2", [make.invoice_document("a.pdf"), broken,
                                   make.invoice_document("c.pdf")])
    assert late is not None and set(late.documents) == {make.sha("c.pdf")}
    # A later retry of the failed document is a new outcome, and lands.
    retry = DatasetStore(str(tmp_path))
    assert retry.ledger()[broken.document_id] == "failed"
    fixed = make.invoice_document("broken.pdf")
    assert retry.commit("run-3", [fixed, make.invoice_document("a.pdf")]) is not None
    assert retry.ledger()[broken.document_id] == "processed"
    assert sorted(retry.read("documents").column("file_name").to_pylist()) == [
        "a.pdf", "broken.pdf", "broken.pdf", "c.pdf"
    ]


def test_cut_short_checkpoint_is_discarded(tmp_path: Path, make: Any) -> None:
    store = DatasetStore(str(tmp_path))
    store.stage(make.invoice_document("a.pdf"))
    (tmp_path / "_docai" / "staging" / f"{make.sha('b.pdf')}.json").write_text('{"document_id": "')
    assert [o.file_name for o in store.staged()] == ["a.pdf"]
    assert len(list((tmp_path / "_docai" / "staging").iterdir())) == 1


def test_works_on_a_non_local_filesystem(make: Any) -> None:
    dest = f"memory://docai-{uuid.uuid4().hex}/out"
    store = DatasetStore(dest)
    store.stage(make.invoice_document("a.pdf"))
    manifest = store.commit("run-1")
    assert manifest is not None
    assert store.glob_url("invoices").startswith("memory://")
    assert store.read("invoice_taxes").num_rows == 1
    again = DatasetStore(dest)
    assert again.ledger() == {make.sha("a.pdf"): "processed"}
    assert again.recover().rolled_forward == []
