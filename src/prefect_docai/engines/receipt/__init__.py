"""ToolReceipt: till receipts (German and English, photographed or scanned) read from the
shared page model into merchant, date/time, items, VAT lines and total."""

from __future__ import annotations

from prefect_docai.engines.receipt.engine import ReceiptEngine

__all__ = ["ReceiptEngine"]
