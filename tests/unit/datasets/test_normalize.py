from __future__ import annotations

import json
from datetime import date, time
from decimal import Decimal
from typing import Any

import pyarrow as pa

from prefect_docai.datasets import (
    DATASETS,
    SCHEMA_VERSION,
    DocumentOutcome,
    SegmentOutcome,
    normalize_document,
    to_tables,
)


def test_every_schema_is_versioned(make: Any) -> None:
    tables = to_tables([])
    assert set(tables) == set(DATASETS)
    for name, table in tables.items():
        assert table.num_rows == 0
        assert table.schema.metadata[b"docai.schema_version"] == SCHEMA_VERSION.encode()
        assert table.schema.metadata[b"docai.dataset"] == name.encode()


def test_invoice_rows_are_typed_and_keep_confidences(make: Any) -> None:
    doc = make.invoice_document()
    tables = to_tables([doc])
    assert tables["invoices"].schema.field("gross").type == pa.decimal128(18, 2)
    assert tables["invoices"].schema.field("invoice_date").type == pa.date32()
    inv = tables["invoices"].to_pylist()[0]
    assert inv["document_id"] == doc.document_id
    assert inv["segment_id"] == f"{doc.document_id}/0"
    assert inv["invoice_number"] == "RE-2026-001"
    assert inv["invoice_date"] == date(2026, 3, 1)
    assert inv["gross"] == Decimal("1163.40")
    assert inv["gross_confidence"] == pa.scalar(0.9, pa.float32()).as_py()
    assert inv["delivery_date"] is None and inv["delivery_date_confidence"] is None
    assert inv["seller_vat_id"] == "DE123456789"
    assert inv["iban"] == "DE89370400440532013000"
    assert inv["totals_consistent"] is True
    assert inv["line_count"] == 2
    assert inv["extra"] is None

    lines = tables["invoice_lines"].to_pylist()
    assert [line["line_index"] for line in lines] == [0, 1]
    # Unit prices keep four decimals; money two.
    assert lines[0]["unit_price"] == Decimal("95.0125")
    assert lines[0]["net_amount"] == Decimal("760.10")
    assert lines[1]["unit"] is None
    # Pages are counted in the source file: segment 0 starts on page 1.
    assert [line["page"] for line in lines] == [1, 2]

    taxes = tables["invoice_taxes"].to_pylist()
    assert taxes == [
        {
            "document_id": doc.document_id,
            "segment_id": f"{doc.document_id}/0",
            "tax_index": 0,
            "rate": Decimal("19.00"),
            "rate_confidence": taxes[0]["rate_confidence"],
            "base": Decimal("977.65"),
            "base_confidence": taxes[0]["base_confidence"],
            "amount": Decimal("185.75"),
            "amount_confidence": taxes[0]["amount_confidence"],
            "extra": None,
        }
    ]


def test_receipt_table_text_segment_document_rows(make: Any) -> None:
    doc = make.invoice_document()
    tables = to_tables([doc])
    receipt = tables["receipts"].to_pylist()[0]
    assert receipt["segment_id"] == f"{doc.document_id}/1"
    assert receipt["date"] == date(2026, 2, 14)
    assert receipt["time"] == time(8, 15)
    assert receipt["total"] == Decimal("4.70")
    assert receipt["subtotal"] is None
    assert [t["rate"] for t in receipt["taxes"]] == [Decimal("7.00"), Decimal("19.00")]
    items = tables["receipt_items"].to_pylist()
    assert sum(i["amount"] for i in items) == receipt["total"]
    assert [i["page"] for i in items] == [3, 3]

    assert tables["tables"].num_rows == 1
    table = tables["tables"].to_pylist()[0]
    assert table["table_id"] == f"{doc.document_id}/2/0"
    assert table["page"] == 4
    cells = tables["table_cells"].to_pylist()
    assert len(cells) == 6
    assert [c["is_header"] for c in cells if c["col"] == 0] == [True, False, False]

    text = tables["pages_text"].to_pylist()
    assert [(t["page"], t["segment_page"], t["text"]) for t in text] == [(4, 1, "Seite 1")]

    segments = tables["segments"].to_pylist()
    assert [s["document_type"] for s in segments] == ["invoice", "receipt", "report"]
    assert segments[2]["tools"] == ["TableExtraction", "ICR"]
    assert dict(segments[0]["type_scores"])["invoice"] == pa.scalar(0.93, pa.float32()).as_py()
    assert segments[0]["credits_charged"] == 1 + 2  # classify one page + invoice two pages

    (document,) = tables["documents"].to_pylist()
    assert document["segment_count"] == 3
    assert document["status"] == "processed"
    # split 4 pages + (classify 1 + invoice 2) + (1 + receipt 1) + (1 + tables 1 + ICR 1)
    assert document["credits_charged"] == 4 + 3 + 2 + 3
    assert tables["errors"].num_rows == 0


def test_unknown_fields_and_unparsable_values_are_kept(make: Any) -> None:
    result = make.invoice_result()
    result["newTopLevel"] = {"a": 1}
    result["seller"]["lei"] = "5299000J2N45DDNE4Y28"
    result["invoiceDate"] = make.field("31st of March", raw="31st of March")
    result["totals"]["gross"] = make.field("1163.40", raw="1.163,40 €") | {"currencyHint": "EUR"}
    result["lineItems"][0]["sku"] = "A-1"
    job = make.envelope("ToolInvoice", result, serverVersion="2.0")
    doc = DocumentOutcome(
        document_id="d" * 64, source_uri="x", file_name="x.pdf",
        segments=[SegmentOutcome(index=0, start_page=1, end_page=1, document_type="invoice",
                                 results=[job])],
    )
    rows = normalize_document(doc)
    invoice = rows["invoices"][0]
    assert invoice["invoice_date"] is None
    extra = json.loads(invoice["extra"])
    assert extra["newTopLevel"] == {"a": 1}
    assert extra["seller"] == {"lei": "5299000J2N45DDNE4Y28"}
    assert extra["unparsed"] == {"invoice_date": "31st of March"}
    assert extra["fields"] == {"gross": {"currencyHint": "EUR"}}
    assert extra["envelope"] == {"serverVersion": "2.0"}
    assert "lineItems" not in extra  # line unknowns belong to the line's own row
    assert json.loads(rows["invoice_lines"][0]["extra"]) == {"sku": "A-1"}
    assert rows["invoice_lines"][1]["extra"] is None


def test_failed_jobs_errors_and_foreign_tool_prefix(make: Any) -> None:
    failed = make.failed_document()
    tables = to_tables([failed])
    assert tables["documents"].to_pylist()[0]["status"] == "failed"
    (error,) = tables["errors"].to_pylist()
    assert error["code"] == "corrupt_document"
    assert error["segment_id"] is None
    assert error["document_id"] == failed.document_id

    # A remote deployment names tools with its own prefix; a failed job yields no rows.
    doc = DocumentOutcome(
        document_id="e" * 64, source_uri="x", file_name="x.pdf",
        segments=[SegmentOutcome(index=0, start_page=1, end_page=1, results=[
            make.envelope("AcmeReceipt", make.receipt_result()),
            make.envelope("AcmeInvoice", None),
        ])],
    )
    tables = to_tables([doc])
    assert tables["receipts"].num_rows == 1
    assert tables["invoices"].num_rows == 0
    assert tables["segments"].to_pylist()[0]["tools"] == ["Receipt", "Invoice"]


def test_money_out_of_range_is_not_silently_wrapped(make: Any) -> None:
    result = make.invoice_result(gross="1e30")
    doc = DocumentOutcome(
        document_id="f" * 64, source_uri="x", file_name="x.pdf",
        segments=[SegmentOutcome(index=0, start_page=1, end_page=1,
                                 results=[make.envelope("ToolInvoice", result)])],
    )
    invoice = to_tables([doc])["invoices"].to_pylist()[0]
    assert invoice["gross"] is None
    assert json.loads(invoice["extra"])["unparsed"]["gross"] == "1e30"
