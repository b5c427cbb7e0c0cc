"""Result envelopes shaped like the service's JSON (docs/results.md), for the normalizer tests."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

import pytest

from prefect_docai.datasets import DocumentOutcome, SegmentOutcome, StageError
from prefect_docai.models import JobResult


def field(value: Any, confidence: float = 0.9, page: int = 1, raw: str | None = None) -> dict[str, Any]:
    return {"value": value, "confidence": confidence, "page": page, "bbox": [0.1, 0.1, 0.2, 0.12], "raw": raw}


def envelope(tool: str, result: dict[str, Any] | None, pages: int = 1, **extra: Any) -> JobResult:
    body: dict[str, Any] = {
        "jobId": f"job-{tool}-{hashlib.sha1(repr(result).encode()).hexdigest()[:8]}",
        "tool": tool,
        "status": "succeeded" if result is not None else "failed",
        "pageCount": pages,
        "creditsCharged": pages,
        "createdAt": "2026-11-22T01:00:00Z",
        "completedAt": "2026-11-22T01:00:02Z",
        "document": {"fileName": "x.pdf", "sha256": "0" * 64, "mediaType": "application/pdf"},
        "result": result,
        "warnings": [],
        **extra,
    }
    if result is None:
        body["error"] = {"code": "engine_failed", "detail": "boom"}
    return JobResult.model_validate(body)


def invoice_result(number: str = "RE-2026-001", gross: str = "1163.40") -> dict[str, Any]:
    return {
        "source": "text-layer",
        "invoiceNumber": field(number),
        "invoiceDate": field("2026-03-01"),
        "dueDate": field("2026-03-31"),
        "deliveryDate": None,
        "currency": field("EUR"),
        "seller": {"name": field("Muster GmbH"), "vatId": field("DE123456789"), "city": field("Berlin")},
        "buyer": {"name": field("Kunde AG")},
        "payment": {"iban": field("DE89370400440532013000"), "bic": field("COBADEFFXXX")},
        "totals": {"net": field("977.65"), "tax": field("185.75"), "gross": field(gross),
                   "amountDue": field(gross)},
        "taxes": [{"rate": field("19.00"), "base": field("977.65"), "amount": field("185.75")}],
        "lineItems": [
            {"description": field("Beratung"), "quantity": field("8"), "unit": field("h"),
             "unitPrice": field("95.0125"), "netAmount": field("760.10"), "taxRate": field("19.00")},
            {"description": field("Reisekosten", page=2), "quantity": field("1"),
             "unitPrice": field("217.55", page=2), "netAmount": field("217.55", page=2),
             "taxRate": field("19.00", page=2)},
        ],
        "checks": {"ibanValid": True, "bicValid": True, "vatIdValid": True,
                   "totalsConsistent": True, "taxesConsistent": True},
    }


def receipt_result() -> dict[str, Any]:
    return {
        "merchant": {"name": field("Bäckerei Schmidt"), "address": field("Hauptstr. 1, Köln")},
        "date": field("2026-02-14"),
        "time": field("08:15"),
        "currency": field("EUR"),
        "items": [
            {"description": field("Brötchen"), "quantity": field("4"), "unitPrice": field("0.45"),
             "amount": field("1.80"), "taxRate": field("7.00")},
            {"description": field("Kaffee"), "quantity": field("1"), "unitPrice": field("2.90"),
             "amount": field("2.90"), "taxRate": field("19.00")},
        ],
        "subtotal": None,
        "tax": field("0.58"),
        "taxes": [{"rate": field("7.00"), "base": field("1.68"), "amount": field("0.12")},
                  {"rate": field("19.00"), "base": field("2.44"), "amount": field("0.46")}],
        "total": field("4.70"),
        "paymentMethod": field("cash"),
        "checks": {"itemsSumToTotal": True},
    }


def table_result() -> dict[str, Any]:
    cells = [
        {"row": r, "col": c, "rowSpan": 1, "colSpan": 1, "text": f"r{r}c{c}", "bbox": None}
        for r in range(3)
        for c in range(2)
    ]
    return {"tables": [{"index": 0, "page": 1, "bbox": [0.1, 0.2, 0.9, 0.5], "rowCount": 3,
                        "columnCount": 2, "headerRows": 1, "cells": cells}]}


def icr_result(pages: int = 2) -> dict[str, Any]:
    return {
        "language": "de",
        "text": "\n".join(f"Seite {p}" for p in range(1, pages + 1)),
        "pages": [
            {"page": p, "width": 595.0, "height": 842.0, "rotation": 0, "source": "text-layer",
             "text": f"Seite {p}", "confidence": 0.97,
             "lines": [{"text": f"Seite {p}", "bbox": [0.1, 0.1, 0.3, 0.12], "confidence": 0.97,
                        "words": []}]}
            for p in range(1, pages + 1)
        ],
    }


def classify_result(doc_type: str, confidence: float = 0.93) -> dict[str, Any]:
    return {"documentType": doc_type, "confidence": confidence,
            "scores": {doc_type: confidence, "letter": round(1 - confidence, 2)},
            "pages": [{"page": 1, "documentType": doc_type, "confidence": confidence}]}


def sha(name: str) -> str:
    return hashlib.sha256(name.encode()).hexdigest()


def invoice_document(name: str = "a.pdf", gross: str = "1163.40") -> DocumentOutcome:
    """A 4-page stream: pages 1–2 an invoice, 3 a receipt, 4 a table report (text too)."""
    doc_id = sha(name)
    return DocumentOutcome(
        document_id=doc_id,
        source_uri=f"file:///in/{name}",
        file_name=name,
        media_type="application/pdf",
        size_bytes=12345,
        page_count=4,
        split=envelope("ToolPaperFlow", {"documents": []}, pages=4),
        segments=[
            SegmentOutcome(index=0, start_page=1, end_page=2, split_confidence=0.99,
                           document_type="invoice", type_confidence=0.93,
                           classification=envelope("ToolClassify", classify_result("invoice")),
                           results=[envelope("ToolInvoice", invoice_result(gross=gross), pages=2)]),
            SegmentOutcome(index=1, start_page=3, end_page=3, split_confidence=0.95,
                           document_type="receipt", type_confidence=0.88,
                           classification=envelope("ToolClassify", classify_result("receipt", 0.88)),
                           results=[envelope("ToolReceipt", receipt_result())]),
            SegmentOutcome(index=2, start_page=4, end_page=4, split_confidence=0.9,
                           document_type="report", type_confidence=0.8,
                           classification=envelope("ToolClassify", classify_result("report", 0.8)),
                           results=[envelope("ToolTableExtraction", table_result()),
                                    envelope("ToolICR", icr_result(1))]),
        ],
    )


def failed_document(name: str = "broken.pdf") -> DocumentOutcome:
    return DocumentOutcome(
        document_id=sha(name),
        source_uri=f"file:///in/{name}",
        file_name=name,
        size_bytes=10,
        status="failed",
        errors=[StageError(stage="upload", tool="PaperFlow", code="corrupt_document",
                           detail="not a readable PDF")],
    )


@dataclass
class Factories:
    field = staticmethod(field)
    envelope = staticmethod(envelope)
    invoice_result = staticmethod(invoice_result)
    receipt_result = staticmethod(receipt_result)
    table_result = staticmethod(table_result)
    icr_result = staticmethod(icr_result)
    classify_result = staticmethod(classify_result)
    invoice_document = staticmethod(invoice_document)
    failed_document = staticmethod(failed_document)
    sha = staticmethod(sha)


@pytest.fixture
def make() -> Factories:
    return Factories()
