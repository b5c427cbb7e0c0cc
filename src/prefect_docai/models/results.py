"""The result JSON contract v1 (docs/results.md) as pydantic models.

JSON names are camelCase; Python attributes are snake_case with camelCase aliases, and
models accept either on input. Unknown extra keys are kept (``extra="allow"``) so a newer
server's additions survive a round trip through an older client.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict
from pydantic.alias_generators import to_camel

ResultBBox = tuple[float, float, float, float]
"""The JSON contract's box: [x0, y0, x1, y1] as fractions of the page width/height, origin
top-left, rounded (engines build it from the page model's ``engines.page.model.BBox``)."""
BBox = ResultBBox
"""The name the contract was first published under (names are stable: kept as an alias)."""


class _Model(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="allow")

    def to_json_dict(self) -> dict[str, Any]:
        """The wire form: camelCase keys, fields left unset omitted only where None is absent."""
        return self.model_dump(mode="json", by_alias=True)


class Field(_Model):
    """An extracted value with where it was found. A field not found is ``None``, never ''."""

    value: Any
    confidence: float
    page: int | None = None
    bbox: ResultBBox | None = None
    raw: str | None = None


# --- envelope -------------------------------------------------------------------------


class DocumentInfo(_Model):
    file_name: str
    sha256: str
    media_type: str


class JobError(_Model):
    code: str
    detail: str


class JobResult(_Model):
    """The envelope every tool's JSON result shares."""

    job_id: str
    tool: str
    status: Literal["succeeded", "failed"]
    page_count: int
    credits_charged: int
    created_at: datetime
    completed_at: datetime | None = None
    document: DocumentInfo
    result: dict[str, Any] | None = None
    error: JobError | None = None
    warnings: list[str] = []


# --- ToolICR ---------------------------------------------------------------------------


class IcrWord(_Model):
    text: str
    bbox: ResultBBox
    confidence: float


class IcrLine(_Model):
    text: str
    bbox: ResultBBox
    confidence: float
    words: list[IcrWord]


class IcrPage(_Model):
    page: int
    width: float
    height: float
    rotation: int
    source: Literal["text-layer", "ocr"]
    text: str
    confidence: float
    lines: list[IcrLine]


class IcrResult(_Model):
    language: str
    text: str
    pages: list[IcrPage]


# --- ToolClassify ----------------------------------------------------------------------


class ClassifyPage(_Model):
    page: int
    document_type: str
    confidence: float


class ClassifyResult(_Model):
    document_type: str
    confidence: float
    scores: dict[str, float]
    pages: list[ClassifyPage]


# --- ToolInvoice -----------------------------------------------------------------------


class InvoiceParty(_Model):
    name: Field | None = None
    street: Field | None = None
    postal_code: Field | None = None
    city: Field | None = None
    country: Field | None = None
    vat_id: Field | None = None
    tax_number: Field | None = None


class InvoicePayment(_Model):
    iban: Field | None = None
    bic: Field | None = None
    terms: Field | None = None


class InvoiceTotals(_Model):
    net: Field | None = None
    tax: Field | None = None
    gross: Field | None = None
    amount_due: Field | None = None


class TaxLine(_Model):
    rate: Field | None = None
    base: Field | None = None
    amount: Field | None = None


class InvoiceLineItem(_Model):
    description: Field | None = None
    quantity: Field | None = None
    unit: Field | None = None
    unit_price: Field | None = None
    net_amount: Field | None = None
    tax_rate: Field | None = None


class InvoiceChecks(_Model):
    iban_valid: bool | None = None
    bic_valid: bool | None = None
    vat_id_valid: bool | None = None
    totals_consistent: bool | None = None
    taxes_consistent: bool | None = None
    line_items_consistent: bool | None = None
    """Line items' net amounts sum to the net total (issue #4's fifth check)."""


class InvoiceResult(_Model):
    source: Literal["embedded-xml", "text-layer", "ocr"]
    invoice_number: Field | None = None
    invoice_date: Field | None = None
    due_date: Field | None = None
    delivery_date: Field | None = None
    currency: Field | None = None
    seller: InvoiceParty = InvoiceParty()
    buyer: InvoiceParty = InvoiceParty()
    payment: InvoicePayment = InvoicePayment()
    totals: InvoiceTotals = InvoiceTotals()
    taxes: list[TaxLine] = []
    line_items: list[InvoiceLineItem] = []
    checks: InvoiceChecks = InvoiceChecks()


# --- ToolReceipt -----------------------------------------------------------------------


class ReceiptMerchant(_Model):
    name: Field | None = None
    address: Field | None = None
    vat_id: Field | None = None


class ReceiptItem(_Model):
    description: Field | None = None
    quantity: Field | None = None
    unit_price: Field | None = None
    amount: Field | None = None
    tax_rate: Field | None = None


class ReceiptChecks(_Model):
    items_sum_to_total: bool | None = None


class ReceiptResult(_Model):
    merchant: ReceiptMerchant = ReceiptMerchant()
    date: Field | None = None
    time: Field | None = None
    currency: Field | None = None
    items: list[ReceiptItem] = []
    subtotal: Field | None = None
    tax: Field | None = None
    taxes: list[TaxLine] = []
    total: Field | None = None
    payment_method: Field | None = None
    checks: ReceiptChecks = ReceiptChecks()


# --- ToolTableExtraction ---------------------------------------------------------------


class TableCell(_Model):
    row: int
    col: int
    row_span: int = 1
    col_span: int = 1
    text: str
    bbox: ResultBBox | None = None


class TableResult(_Model):
    index: int
    page: int
    bbox: ResultBBox
    row_count: int
    column_count: int
    header_rows: int
    cells: list[TableCell]
    confidence: float | None = None
    continued_from: int | None = None
    """``index`` of the table on the previous page this one continues (same columns)."""


class TableExtractionResult(_Model):
    tables: list[TableResult]


# --- ToolPaperFlow (= ToolDocSplit) ----------------------------------------------------


class PaperFlowDocument(_Model):
    index: int
    start_page: int
    end_page: int
    page_count: int
    confidence: float
    document_type: str | None = None


class PaperFlowResult(_Model):
    documents: list[PaperFlowDocument]


TOOL_RESULT_MODELS: dict[str, type[_Model]] = {
    "ICR": IcrResult,
    "Classify": ClassifyResult,
    "Invoice": InvoiceResult,
    "Receipt": ReceiptResult,
    "TableExtraction": TableExtractionResult,
    "PaperFlow": PaperFlowResult,
}
"""Tool suffix → model of its ``result`` object."""
