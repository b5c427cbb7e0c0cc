"""Typed readers of a destination: what a data engineer calls first.

``read("invoices", "s3://bucket/lake")`` is a pyarrow Table of the committed rows with the
schema the writer used (``decimal128`` money, ``date32`` dates) and the hive partition
columns typed (``ingest_date`` ``date32``, ``run_id`` string): a bare hive reader infers
``ingest_date`` as text and sees files of commits in flight. ``read_pandas`` is the same
with Arrow-backed pandas dtypes (``dtype_backend="pyarrow"``: no ``object`` columns, decimals
stay exact). ``files`` lists the committed Parquet files for engines that scan paths
(DuckDB, Polars, Spark).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import pyarrow as pa
import pyarrow.dataset as ds

from prefect_docai.datasets.store import DatasetStore

if TYPE_CHECKING:
    import pandas as pd


def dataset(
    name: str,
    destination: str,
    storage_options: dict[str, Any] | None = None,
    *,
    runs: Iterable[str] | None = None,
) -> ds.Dataset:
    """A lazy pyarrow dataset of ``name``'s committed files (filter, project, then read)."""
    return DatasetStore(destination, storage_options).dataset(name, runs=runs)


def read(
    name: str,
    destination: str,
    storage_options: dict[str, Any] | None = None,
    *,
    runs: Iterable[str] | None = None,
    filter: ds.Expression | None = None,
) -> pa.Table:
    """Every committed row of dataset ``name`` in ``destination``, typed.

    ``filter`` is a pyarrow expression, e.g. ``pc.field("ingest_date") >= date(2026, 11, 1)``
    (partition filters skip whole files).
    """
    return dataset(name, destination, storage_options, runs=runs).to_table(filter=filter)


def read_pandas(
    name: str,
    destination: str,
    storage_options: dict[str, Any] | None = None,
    *,
    runs: Iterable[str] | None = None,
    filter: ds.Expression | None = None,
) -> pd.DataFrame:
    """:func:`read` as a pandas DataFrame with Arrow-backed dtypes only."""
    try:
        import pandas as pd
    except ModuleNotFoundError as exc:
        raise ModuleNotFoundError("read_pandas needs pandas: pip install 'pandas>=2'") from exc
    table = read(name, destination, storage_options, runs=runs, filter=filter)
    return table.to_pandas(types_mapper=pd.ArrowDtype)


def files(
    name: str, destination: str, storage_options: dict[str, Any] | None = None
) -> list[str]:
    """URLs of the committed Parquet files of ``name`` (hive paths), in commit order."""
    store = DatasetStore(destination, storage_options)
    return [store.url(path) for path in store.files(name)]
