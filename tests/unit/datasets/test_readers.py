"""``prefect_docai.datasets.read`` / ``read_pandas`` / ``files``: typed out of the box."""

from __future__ import annotations

import datetime as dt
import uuid
from decimal import Decimal
from pathlib import Path
from typing import Any

import duckdb
import pandas as pd
import polars as pl
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.dataset as ds
import pytest

from prefect_docai import datasets
from prefect_docai.datasets import DatasetStore


@pytest.fixture
def lake(tmp_path: Path, make: Any) -> str:
    store = DatasetStore(str(tmp_path / "lake"))
    store.commit("run-1", [make.invoice_document("a.pdf")], ingest_date=dt.date(2026, 11, 2))
    store.commit("run-2", [make.invoice_document("b.pdf", gross="10.00"),
                           make.failed_document("x.pdf")], ingest_date=dt.date(2026, 11, 3))
    return str(tmp_path / "lake")


def test_read_types_money_dates_and_partitions(lake: str) -> None:
    invoices = datasets.read("invoices", lake)
    assert invoices.schema.field("gross").type == pa.decimal128(18, 2)
    assert invoices.schema.field("invoice_date").type == pa.date32()
    assert invoices.schema.field("ingest_date").type == pa.date32()
    assert invoices.schema.field("run_id").type == pa.string()
    assert invoices.schema.metadata[b"docai.dataset"] == b"invoices"
    rows = sorted(invoices.select(["gross", "ingest_date", "run_id"]).to_pylist(),
                  key=lambda r: r["run_id"])
    assert rows == [
        {"gross": Decimal("1163.40"), "ingest_date": dt.date(2026, 11, 2), "run_id": "run-1"},
        {"gross": Decimal("10.00"), "ingest_date": dt.date(2026, 11, 3), "run_id": "run-2"},
    ]
    # A partition filter is typed too: a date, not a string compare.
    late = datasets.read("invoices", lake, filter=pc.field("ingest_date") >= dt.date(2026, 11, 3))
    assert late.column("run_id").to_pylist() == ["run-2"]
    assert datasets.read("documents", lake, runs=["run-2"]).num_rows == 2
    # An empty dataset is an empty table of the same schema, not an error.
    assert datasets.read("tables", str(Path(lake).parent / "nothing")).num_rows == 0


def test_a_bare_hive_reader_infers_text_where_read_gives_dates(lake: str) -> None:
    bare = ds.dataset(f"{lake}/invoices", format="parquet", partitioning="hive").to_table()
    assert bare.schema.field("ingest_date").type != pa.date32()
    assert datasets.read("invoices", lake).schema.field("ingest_date").type == pa.date32()


def test_read_pandas_has_no_object_columns(lake: str) -> None:
    frame = datasets.read_pandas("invoices", lake)
    assert not [c for c, t in frame.dtypes.items() if t is object or str(t) == 'object']
    assert all(isinstance(t, pd.ArrowDtype) for t in frame.dtypes)
    assert frame["gross"].dtype == pd.ArrowDtype(pa.decimal128(18, 2))
    assert frame["ingest_date"].dtype == pd.ArrowDtype(pa.date32())
    assert frame["gross"].sum() == Decimal("1173.40")
    lines = datasets.read_pandas("invoice_lines", lake)
    assert lines["quantity"].dtype == pd.ArrowDtype(pa.decimal128(18, 4))


def test_files_feed_duckdb_and_polars_with_typed_partitions(lake: str) -> None:
    paths = datasets.files("invoices", lake)
    assert len(paths) == 2 and all(p.endswith(".parquet") for p in paths)
    rows = duckdb.sql(
        f"SELECT typeof(ingest_date), typeof(gross), sum(gross) FROM read_parquet({paths!r}, "
        "hive_partitioning = true, hive_types = {'ingest_date': DATE}) GROUP BY ALL"
    ).fetchall()
    assert rows == [("DATE", "DECIMAL(18,2)", Decimal("1173.40"))]
    frame = pl.scan_pyarrow_dataset(datasets.dataset("invoices", lake)).collect()
    assert frame.schema["ingest_date"] == pl.Date and frame.schema["gross"] == pl.Decimal(18, 2)
    assert pl.from_arrow(datasets.read("receipt_items", lake)).height == 4


def test_read_on_object_storage(make: Any) -> None:
    dest = f"memory://docai-{uuid.uuid4().hex}/lake"
    DatasetStore(dest).commit("run-1", [make.invoice_document("a.pdf")])
    table = datasets.read("invoice_taxes", dest)
    assert table.num_rows == 1 and table.schema.field("ingest_date").type == pa.date32()
    assert datasets.files("documents", dest)[0].startswith("memory://")
    with pytest.raises(KeyError, match="unknown dataset"):
        datasets.read("invoice", dest)
