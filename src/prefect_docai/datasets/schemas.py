"""Arrow schemas of the Parquet datasets, versioned.

Every schema carries ``docai.schema_version`` and ``docai.dataset`` in its metadata, so a
reader can tell which contract a file was written under. Keys are ``document_id`` (the
sha256 of the source file) and ``segment_id`` (``<document_id>/<segment index>``). Money is
``decimal128(18, 2)``; unit prices and quantities keep four decimals because real invoices
price in fractions of a cent (fuel, energy, bulk items). Dates are ``date32``; every
extracted value keeps its confidence in a ``<name>_confidence`` column. Unknown fields of a
result (a newer server's additions) are kept as JSON in ``extra``.

The partition columns ``ingest_date`` and ``run_id`` live in the hive path
(``<dataset>/ingest_date=YYYY-MM-DD/run_id=<id>/part-0.parquet``), not in the files, so
readers that apply hive partitioning see them exactly once.
"""

from __future__ import annotations

from collections.abc import Iterable

import pyarrow as pa

SCHEMA_VERSION = "1"
"""Bump on an incompatible change; additive changes keep the version."""

MONEY = pa.decimal128(18, 2)
PRICE = pa.decimal128(18, 4)
QUANTITY = pa.decimal128(18, 4)
RATE = pa.decimal128(7, 2)
CONFIDENCE = pa.float32()
BBOX = pa.list_(pa.float32(), 4)

TAX_STRUCT = pa.struct(
    [
        pa.field("rate", RATE),
        pa.field("base", MONEY),
        pa.field("amount", MONEY),
    ]
)


def _valued(name: str, type_: pa.DataType) -> list[pa.Field]:
    """An extracted value and its confidence."""
    return [pa.field(name, type_), pa.field(f"{name}_confidence", CONFIDENCE)]


def _valued_many(specs: Iterable[tuple[str, pa.DataType]]) -> list[pa.Field]:
    return [f for name, type_ in specs for f in _valued(name, type_)]


_SEGMENT_KEYS = [
    pa.field("document_id", pa.string(), nullable=False),
    pa.field("segment_id", pa.string(), nullable=False),
]

_PARTY = ("name", "street", "postal_code", "city", "country", "vat_id")

INVOICE_VALUE_COLUMNS: tuple[tuple[str, pa.DataType], ...] = (
    ("invoice_number", pa.string()),
    ("invoice_date", pa.date32()),
    ("due_date", pa.date32()),
    ("delivery_date", pa.date32()),
    ("currency", pa.string()),
    *((f"seller_{p}", pa.string()) for p in _PARTY),
    ("seller_tax_number", pa.string()),
    *((f"buyer_{p}", pa.string()) for p in _PARTY),
    ("iban", pa.string()),
    ("bic", pa.string()),
    ("payment_terms", pa.string()),
    ("net", MONEY),
    ("tax", MONEY),
    ("gross", MONEY),
    ("amount_due", MONEY),
)

INVOICE_LINE_VALUE_COLUMNS: tuple[tuple[str, pa.DataType], ...] = (
    ("description", pa.string()),
    ("quantity", QUANTITY),
    ("unit", pa.string()),
    ("unit_price", PRICE),
    ("net_amount", MONEY),
    ("tax_rate", RATE),
)

TAX_VALUE_COLUMNS: tuple[tuple[str, pa.DataType], ...] = (
    ("rate", RATE),
    ("base", MONEY),
    ("amount", MONEY),
)

RECEIPT_VALUE_COLUMNS: tuple[tuple[str, pa.DataType], ...] = (
    ("merchant_name", pa.string()),
    ("merchant_address", pa.string()),
    ("merchant_vat_id", pa.string()),
    ("date", pa.date32()),
    ("time", pa.time32("s")),
    ("currency", pa.string()),
    ("subtotal", MONEY),
    ("tax", MONEY),
    ("total", MONEY),
    ("payment_method", pa.string()),
)

RECEIPT_ITEM_VALUE_COLUMNS: tuple[tuple[str, pa.DataType], ...] = (
    ("description", pa.string()),
    ("quantity", QUANTITY),
    ("unit_price", PRICE),
    ("amount", MONEY),
    ("tax_rate", RATE),
)

_EXTRA = pa.field("extra", pa.string())
"""JSON object of fields the normalizer does not know, or values it could not parse."""

_TS = pa.timestamp("us", tz="UTC")

_FIELDS: dict[str, list[pa.Field]] = {
    "documents": [
        pa.field("document_id", pa.string(), nullable=False),
        pa.field("source_uri", pa.string(), nullable=False),
        pa.field("file_name", pa.string(), nullable=False),
        pa.field("media_type", pa.string()),
        pa.field("size_bytes", pa.int64()),
        pa.field("page_count", pa.int32()),
        pa.field("segment_count", pa.int32()),
        pa.field("status", pa.string(), nullable=False),
        pa.field("credits_charged", pa.int64()),
        pa.field("processed_at", _TS),
    ],
    "segments": [
        *_SEGMENT_KEYS,
        pa.field("segment_index", pa.int32()),
        pa.field("start_page", pa.int32()),
        pa.field("end_page", pa.int32()),
        pa.field("page_count", pa.int32()),
        pa.field("split_confidence", CONFIDENCE),
        pa.field("document_type", pa.string()),
        pa.field("type_confidence", CONFIDENCE),
        pa.field("type_scores", pa.map_(pa.string(), pa.float32())),
        pa.field("tools", pa.list_(pa.string())),
        pa.field("credits_charged", pa.int64()),
        _EXTRA,
    ],
    "invoices": [
        *_SEGMENT_KEYS,
        pa.field("job_id", pa.string()),
        pa.field("extraction_source", pa.string()),
        *_valued_many(INVOICE_VALUE_COLUMNS),
        pa.field("iban_valid", pa.bool_()),
        pa.field("bic_valid", pa.bool_()),
        pa.field("vat_id_valid", pa.bool_()),
        pa.field("totals_consistent", pa.bool_()),
        pa.field("taxes_consistent", pa.bool_()),
        pa.field("line_count", pa.int32()),
        _EXTRA,
    ],
    "invoice_lines": [
        *_SEGMENT_KEYS,
        pa.field("line_index", pa.int32(), nullable=False),
        *_valued_many(INVOICE_LINE_VALUE_COLUMNS),
        pa.field("page", pa.int32()),
        _EXTRA,
    ],
    "invoice_taxes": [
        *_SEGMENT_KEYS,
        pa.field("tax_index", pa.int32(), nullable=False),
        *_valued_many(TAX_VALUE_COLUMNS),
        _EXTRA,
    ],
    "receipts": [
        *_SEGMENT_KEYS,
        pa.field("job_id", pa.string()),
        *_valued_many(RECEIPT_VALUE_COLUMNS),
        pa.field("taxes", pa.list_(TAX_STRUCT)),
        pa.field("items_sum_to_total", pa.bool_()),
        pa.field("item_count", pa.int32()),
        _EXTRA,
    ],
    "receipt_items": [
        *_SEGMENT_KEYS,
        pa.field("item_index", pa.int32(), nullable=False),
        *_valued_many(RECEIPT_ITEM_VALUE_COLUMNS),
        pa.field("page", pa.int32()),
        _EXTRA,
    ],
    "tables": [
        *_SEGMENT_KEYS,
        pa.field("table_id", pa.string(), nullable=False),
        pa.field("table_index", pa.int32()),
        pa.field("page", pa.int32()),
        pa.field("bbox", BBOX),
        pa.field("row_count", pa.int32()),
        pa.field("column_count", pa.int32()),
        pa.field("header_rows", pa.int32()),
        _EXTRA,
    ],
    "table_cells": [
        *_SEGMENT_KEYS,
        pa.field("table_id", pa.string(), nullable=False),
        pa.field("row", pa.int32(), nullable=False),
        pa.field("col", pa.int32(), nullable=False),
        pa.field("row_span", pa.int32()),
        pa.field("col_span", pa.int32()),
        pa.field("is_header", pa.bool_()),
        pa.field("text", pa.string()),
        pa.field("bbox", BBOX),
    ],
    "pages_text": [
        *_SEGMENT_KEYS,
        pa.field("page", pa.int32(), nullable=False),
        pa.field("segment_page", pa.int32()),
        pa.field("language", pa.string()),
        pa.field("source", pa.string()),
        pa.field("confidence", CONFIDENCE),
        pa.field("width", pa.float32()),
        pa.field("height", pa.float32()),
        pa.field("rotation", pa.int16()),
        pa.field("line_count", pa.int32()),
        pa.field("text", pa.string()),
        _EXTRA,
    ],
    "errors": [
        pa.field("document_id", pa.string(), nullable=False),
        pa.field("segment_id", pa.string()),
        pa.field("source_uri", pa.string()),
        pa.field("stage", pa.string(), nullable=False),
        pa.field("tool", pa.string()),
        pa.field("code", pa.string(), nullable=False),
        pa.field("detail", pa.string()),
        pa.field("job_id", pa.string()),
        pa.field("occurred_at", _TS),
    ],
}

DATASETS: tuple[str, ...] = tuple(_FIELDS)
"""Dataset names in write order (parents before children)."""


def schema(dataset: str) -> pa.Schema:
    """The Arrow schema of ``dataset`` with its version metadata."""
    try:
        fields = _FIELDS[dataset]
    except KeyError:
        raise KeyError(f"unknown dataset {dataset!r}; known: {', '.join(DATASETS)}") from None
    return pa.schema(
        fields,
        metadata={"docai.schema_version": SCHEMA_VERSION, "docai.dataset": dataset},
    )


SCHEMAS: dict[str, pa.Schema] = {name: schema(name) for name in DATASETS}
