"""Normalized Parquet datasets: Arrow schemas, result → row normalizers, the destination store.

Readers: ``prefect_docai.datasets.read("invoices", dest)`` (a typed pyarrow Table of the
committed rows), ``read_pandas`` (Arrow-backed dtypes), ``files`` (the committed Parquet
files, for DuckDB, Polars or Spark). See docs/datasets.md.
"""

from prefect_docai.datasets.normalize import normalize_document, to_tables
from prefect_docai.datasets.outcome import (
    DocumentOutcome,
    DocumentStatus,
    SegmentOutcome,
    StageError,
    segment_id,
)
from prefect_docai.datasets.readers import dataset, files, read, read_pandas
from prefect_docai.datasets.schemas import DATASETS, SCHEMA_VERSION, SCHEMAS, schema
from prefect_docai.datasets.store import DatasetStore, RecoveryReport, RunManifest

__all__ = [
    "DATASETS",
    "SCHEMAS",
    "SCHEMA_VERSION",
    "DatasetStore",
    "DocumentOutcome",
    "DocumentStatus",
    "RecoveryReport",
    "RunManifest",
    "SegmentOutcome",
    "StageError",
    "dataset",
    "files",
    "normalize_document",
    "read",
    "read_pandas",
    "schema",
    "segment_id",
    "to_tables",
]
