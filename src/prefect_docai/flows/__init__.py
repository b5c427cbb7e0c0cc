"""Prefect flows: the batch pipeline from an fsspec source to Parquet datasets."""

from prefect_docai.flows.options import BatchOptions
from prefect_docai.flows.process import BatchIncomplete, aprocess_documents, process_documents
from prefect_docai.flows.report import BatchSummary

__all__ = [
    "BatchIncomplete",
    "BatchOptions",
    "BatchSummary",
    "aprocess_documents",
    "process_documents",
]
