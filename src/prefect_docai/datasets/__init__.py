"""Normalized Parquet datasets: Arrow schemas, result → row normalizers, the destination store.

Readers: ``DatasetStore(dest).read("invoices")`` (committed runs only), or any Parquet
reader over ``<dest>/<dataset>/*/*/*.parquet`` with hive partitioning.
"""

from prefect_docai.datasets.normalize import normalize_document, to_tables
from prefect_docai.datasets.outcome import (
    DocumentOutcome,
    DocumentStatus,
    SegmentOutcome,
    StageError,
    segment_id,
)
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
    "normalize_document",
    "schema",
    "segment_id",
    "to_tables",
]
