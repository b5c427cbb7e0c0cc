"""Result JSON (docs/results.md) → rows of the datasets in :mod:`.schemas`.

Pure functions: the same outcomes always give the same rows. Values are converted to their
column types (decimal strings → ``Decimal`` at the column's scale, ISO dates → ``date``);
a value that does not parse is kept as written under ``extra.unparsed`` instead of being
dropped, and so is every field of a result that this version does not know.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from datetime import date, datetime, time
from decimal import ROUND_HALF_EVEN, Decimal, InvalidOperation
from typing import Any

import pyarrow as pa
from pydantic import BaseModel

from prefect_docai.datasets.outcome import DocumentOutcome, SegmentOutcome, segment_id
from prefect_docai.datasets.schemas import (
    DATASETS,
    INVOICE_LINE_VALUE_COLUMNS,
    INVOICE_VALUE_COLUMNS,
    RECEIPT_ITEM_VALUE_COLUMNS,
    RECEIPT_VALUE_COLUMNS,
    SCHEMAS,
    TAX_VALUE_COLUMNS,
)
from prefect_docai.models import (
    Field,
    IcrResult,
    InvoiceResult,
    JobResult,
    ReceiptResult,
    TableExtractionResult,
    TaxLine,
)

Row = dict[str, Any]
Rows = dict[str, list[Row]]


# --- value conversion ----------------------------------------------------------------


class _Unparsed(Exception):
    pass


def _to_decimal(value: Any, type_: pa.Decimal128Type) -> Decimal:
    if isinstance(value, bool):
        raise _Unparsed
    try:
        number = Decimal(str(value).strip())
    except InvalidOperation:
        raise _Unparsed from None
    if not number.is_finite() or abs(number) >= Decimal(10) ** (type_.precision - type_.scale):
        raise _Unparsed
    return number.quantize(Decimal(1).scaleb(-type_.scale), rounding=ROUND_HALF_EVEN)


def _to_date(value: Any) -> date:
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    text = str(value).strip()
    try:
        return date.fromisoformat(text)
    except ValueError:
        pass
    try:
        return datetime.fromisoformat(text).date()
    except ValueError:
        raise _Unparsed from None


def _to_time(value: Any) -> time:
    if isinstance(value, time):
        return value.replace(microsecond=0)
    try:
        return time.fromisoformat(str(value).strip()).replace(microsecond=0, tzinfo=None)
    except ValueError:
        raise _Unparsed from None


def convert(value: Any, type_: pa.DataType) -> Any:
    """``value`` in the Python type Arrow expects for ``type_``; raises on what won't fit."""
    if value is None:
        return None
    if pa.types.is_decimal(type_):
        assert isinstance(type_, pa.Decimal128Type)
        return _to_decimal(value, type_)
    if pa.types.is_date(type_):
        return _to_date(value)
    if pa.types.is_time(type_):
        return _to_time(value)
    if pa.types.is_string(type_):
        return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    raise TypeError(f"no conversion to {type_}")


class _RowBuilder:
    """One row: typed values, their confidences, and what did not fit in ``extra``."""

    def __init__(self, **keys: Any) -> None:
        self.row: Row = dict(keys)
        self.extra: dict[str, Any] = {}
        self._unparsed: dict[str, Any] = {}

    def field(self, column: str, type_: pa.DataType, field: Field | None) -> None:
        if field is None:
            self.row[column] = None
            self.row[f"{column}_confidence"] = None
            return
        try:
            self.row[column] = convert(field.value, type_)
        except (_Unparsed, TypeError):
            self.row[column] = None
            self._unparsed[column] = field.value if field.raw is None else field.raw
        self.row[f"{column}_confidence"] = field.confidence
        if field.model_extra:
            self.extra.setdefault("fields", {})[column] = dict(field.model_extra)

    def fields(
        self, specs: Iterable[tuple[str, pa.DataType]], values: Mapping[str, Field | None]
    ) -> None:
        for column, type_ in specs:
            self.field(column, type_, values.get(column))

    def add_extra(self, extra: Mapping[str, Any]) -> None:
        self.extra.update(extra)

    def build(self, with_extra: bool = True) -> Row:
        if self._unparsed:
            self.extra["unparsed"] = self._unparsed
        if with_extra:
            self.row["extra"] = (
                json.dumps(self.extra, ensure_ascii=False, sort_keys=True, default=str)
                if self.extra
                else None
            )
        return self.row


def unknown_fields(model: BaseModel, skip: Iterable[str] = ()) -> dict[str, Any]:
    """Keys the models do not declare, anywhere below ``model`` (except under ``skip``).

    ``Field`` values are leaves: their own extras are reported by the row builder.
    """
    found: dict[str, Any] = dict(model.model_extra or {})
    skipped = set(skip)
    for name in type(model).model_fields:
        if name in skipped:
            continue
        value = getattr(model, name)
        if isinstance(value, BaseModel) and not isinstance(value, Field):
            nested = unknown_fields(value)
            if nested:
                found[name] = nested
        elif isinstance(value, list):
            items = {
                str(i): nested
                for i, item in enumerate(value)
                if isinstance(item, BaseModel)
                and not isinstance(item, Field)
                and (nested := unknown_fields(item))
            }
            if items:
                found[name] = items
    return found


def _envelope_extra(job: JobResult) -> dict[str, Any]:
    extra: dict[str, Any] = {}
    unknown = unknown_fields(job, skip=("result",))
    if unknown:
        extra["envelope"] = unknown
    if job.warnings:
        extra["warnings"] = list(job.warnings)
    return extra


def _absolute_page(segment: SegmentOutcome, page: int | None) -> int | None:
    """Result pages count from 1 within the cut segment; datasets count in the source."""
    return None if page is None else segment.start_page - 1 + page


# --- per tool --------------------------------------------------------------------------


def _invoice_rows(rows: Rows, doc_id: str, seg: SegmentOutcome, job: JobResult) -> None:
    result = InvoiceResult.model_validate(job.result or {})
    sid = segment_id(doc_id, seg.index)
    values: dict[str, Field | None] = {
        "invoice_number": result.invoice_number,
        "invoice_date": result.invoice_date,
        "due_date": result.due_date,
        "delivery_date": result.delivery_date,
        "currency": result.currency,
        "iban": result.payment.iban,
        "bic": result.payment.bic,
        "payment_terms": result.payment.terms,
        "net": result.totals.net,
        "tax": result.totals.tax,
        "gross": result.totals.gross,
        "amount_due": result.totals.amount_due,
    }
    for prefix, party in (("seller", result.seller), ("buyer", result.buyer)):
        for name in type(party).model_fields:
            values[f"{prefix}_{name}"] = getattr(party, name)
    builder = _RowBuilder(
        document_id=doc_id,
        segment_id=sid,
        job_id=job.job_id,
        extraction_source=result.source,
        iban_valid=result.checks.iban_valid,
        bic_valid=result.checks.bic_valid,
        vat_id_valid=result.checks.vat_id_valid,
        totals_consistent=result.checks.totals_consistent,
        taxes_consistent=result.checks.taxes_consistent,
        line_count=len(result.line_items),
    )
    builder.fields(INVOICE_VALUE_COLUMNS, values)
    builder.add_extra(unknown_fields(result, skip=("line_items", "taxes")))
    builder.add_extra(_envelope_extra(job))
    rows["invoices"].append(builder.build())

    for index, item in enumerate(result.line_items):
        line = _RowBuilder(document_id=doc_id, segment_id=sid, line_index=index)
        line.fields(
            INVOICE_LINE_VALUE_COLUMNS,
            {name: getattr(item, name) for name, _ in INVOICE_LINE_VALUE_COLUMNS},
        )
        line.row["page"] = _absolute_page(seg, _first_page(item))
        line.add_extra(unknown_fields(item))
        rows["invoice_lines"].append(line.build())
    for index, tax in enumerate(result.taxes):
        rows["invoice_taxes"].append(_tax_row(doc_id, sid, index, tax))


def _first_page(model: BaseModel) -> int | None:
    for name in type(model).model_fields:
        value = getattr(model, name)
        if isinstance(value, Field) and value.page is not None:
            return value.page
    return None


def _tax_row(doc_id: str, sid: str, index: int, tax: TaxLine) -> Row:
    builder = _RowBuilder(document_id=doc_id, segment_id=sid, tax_index=index)
    builder.fields(TAX_VALUE_COLUMNS, {"rate": tax.rate, "base": tax.base, "amount": tax.amount})
    builder.add_extra(unknown_fields(tax))
    return builder.build()


def _receipt_rows(rows: Rows, doc_id: str, seg: SegmentOutcome, job: JobResult) -> None:
    result = ReceiptResult.model_validate(job.result or {})
    sid = segment_id(doc_id, seg.index)
    builder = _RowBuilder(
        document_id=doc_id,
        segment_id=sid,
        job_id=job.job_id,
        items_sum_to_total=result.checks.items_sum_to_total,
        item_count=len(result.items),
    )
    builder.fields(
        RECEIPT_VALUE_COLUMNS,
        {
            "merchant_name": result.merchant.name,
            "merchant_address": result.merchant.address,
            "merchant_vat_id": result.merchant.vat_id,
            "date": result.date,
            "time": result.time,
            "currency": result.currency,
            "subtotal": result.subtotal,
            "tax": result.tax,
            "total": result.total,
            "payment_method": result.payment_method,
        },
    )
    builder.row["taxes"] = [
        {
            name: row[name]
            for name in ("rate", "base", "amount")
        }
        for row in (_tax_row(doc_id, sid, i, tax) for i, tax in enumerate(result.taxes))
    ]
    builder.add_extra(unknown_fields(result, skip=("items",)))
    builder.add_extra(_envelope_extra(job))
    rows["receipts"].append(builder.build())

    for index, item in enumerate(result.items):
        line = _RowBuilder(document_id=doc_id, segment_id=sid, item_index=index)
        line.fields(
            RECEIPT_ITEM_VALUE_COLUMNS,
            {name: getattr(item, name) for name, _ in RECEIPT_ITEM_VALUE_COLUMNS},
        )
        line.row["page"] = _absolute_page(seg, _first_page(item))
        line.add_extra(unknown_fields(item))
        rows["receipt_items"].append(line.build())


def _table_rows(rows: Rows, doc_id: str, seg: SegmentOutcome, job: JobResult) -> None:
    result = TableExtractionResult.model_validate(job.result or {})
    sid = segment_id(doc_id, seg.index)
    for table in result.tables:
        table_id = f"{sid}/{table.index}"
        builder = _RowBuilder(
            document_id=doc_id,
            segment_id=sid,
            table_id=table_id,
            table_index=table.index,
            page=_absolute_page(seg, table.page),
            bbox=list(table.bbox),
            row_count=table.row_count,
            column_count=table.column_count,
            header_rows=table.header_rows,
        )
        builder.add_extra(unknown_fields(table, skip=("cells",)))
        rows["tables"].append(builder.build())
        for cell in table.cells:
            rows["table_cells"].append(
                {
                    "document_id": doc_id,
                    "segment_id": sid,
                    "table_id": table_id,
                    "row": cell.row,
                    "col": cell.col,
                    "row_span": cell.row_span,
                    "col_span": cell.col_span,
                    "is_header": cell.row < table.header_rows,
                    "text": cell.text,
                    "bbox": None if cell.bbox is None else list(cell.bbox),
                }
            )
    extra = unknown_fields(result, skip=("tables",))
    if extra and rows["tables"]:
        # Result-level unknowns have no row of their own; keep them on the segment's tables.
        last = rows["tables"][-1]
        merged = json.loads(last["extra"]) if last["extra"] else {}
        merged["result"] = extra
        last["extra"] = json.dumps(merged, ensure_ascii=False, sort_keys=True, default=str)


def _icr_rows(rows: Rows, doc_id: str, seg: SegmentOutcome, job: JobResult) -> None:
    result = IcrResult.model_validate(job.result or {})
    sid = segment_id(doc_id, seg.index)
    for page in result.pages:
        builder = _RowBuilder(
            document_id=doc_id,
            segment_id=sid,
            page=_absolute_page(seg, page.page),
            segment_page=page.page,
            language=result.language,
            source=page.source,
            confidence=page.confidence,
            width=page.width,
            height=page.height,
            rotation=page.rotation,
            line_count=len(page.lines),
            text=page.text,
        )
        builder.add_extra(unknown_fields(page, skip=("lines",)))
        rows["pages_text"].append(builder.build())


_BY_TOOL = {
    "Invoice": _invoice_rows,
    "Receipt": _receipt_rows,
    "TableExtraction": _table_rows,
    "ICR": _icr_rows,
}


def _tool_suffix(tool: str) -> str:
    """The tool's suffix whatever the deployment's prefix (``ToolInvoice`` → ``Invoice``)."""
    for suffix in sorted(_BY_TOOL, key=len, reverse=True):
        if tool.endswith(suffix):
            return suffix
    return tool


# --- documents -------------------------------------------------------------------------


def _segment_row(doc_id: str, seg: SegmentOutcome) -> Row:
    scores: list[tuple[str, float]] | None = None
    builder = _RowBuilder()
    if seg.classification is not None and seg.classification.result is not None:
        raw_scores = seg.classification.result.get("scores")
        if isinstance(raw_scores, dict):
            scores = [(str(k), float(v)) for k, v in sorted(raw_scores.items())]
        builder.add_extra(_envelope_extra(seg.classification))
    builder.row.update(
        document_id=doc_id,
        segment_id=segment_id(doc_id, seg.index),
        segment_index=seg.index,
        start_page=seg.start_page,
        end_page=seg.end_page,
        page_count=seg.page_count,
        split_confidence=seg.split_confidence,
        document_type=seg.document_type,
        type_confidence=seg.type_confidence,
        type_scores=scores,
        tools=[_tool_suffix(job.tool) for job in seg.results],
        credits_charged=seg.credits_charged,
    )
    return builder.build()


def normalize_document(outcome: DocumentOutcome, rows: Rows | None = None) -> Rows:
    """Rows of every dataset for one document, appended to ``rows`` when given."""
    rows = rows if rows is not None else {name: [] for name in DATASETS}
    doc_id = outcome.document_id
    rows["documents"].append(
        {
            "document_id": doc_id,
            "source_uri": outcome.source_uri,
            "file_name": outcome.file_name,
            "media_type": outcome.media_type,
            "size_bytes": outcome.size_bytes,
            "page_count": outcome.page_count,
            "segment_count": len(outcome.segments),
            "status": outcome.status,
            "credits_charged": outcome.credits_charged,
            "processed_at": outcome.processed_at,
        }
    )
    for seg in outcome.segments:
        rows["segments"].append(_segment_row(doc_id, seg))
        for job in seg.results:
            if job.status != "succeeded":
                continue
            handler = _BY_TOOL.get(_tool_suffix(job.tool))
            if handler is not None:
                handler(rows, doc_id, seg, job)
    for error in outcome.errors:
        rows["errors"].append(
            {
                "document_id": doc_id,
                "segment_id": None
                if error.segment_index is None
                else segment_id(doc_id, error.segment_index),
                "source_uri": outcome.source_uri,
                "stage": error.stage,
                "tool": error.tool,
                "code": error.code,
                "detail": error.detail,
                "job_id": error.job_id,
                "occurred_at": error.occurred_at,
            }
        )
    return rows


def to_tables(outcomes: Iterable[DocumentOutcome]) -> dict[str, pa.Table]:
    """One Arrow table per dataset (empty tables included) for a set of documents."""
    rows: Rows = {name: [] for name in DATASETS}
    for outcome in outcomes:
        normalize_document(outcome, rows)
    return {name: pa.Table.from_pylist(rows[name], schema=SCHEMAS[name]) for name in DATASETS}
