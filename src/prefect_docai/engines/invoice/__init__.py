"""ToolInvoice: e-invoice XML when present (exact), else the page's words (text layer or
OCR) through layout-aware, check-driven field extraction."""

from __future__ import annotations

from prefect_docai.engines.invoice.engine import InvoiceEngine

__all__ = ["InvoiceEngine"]
