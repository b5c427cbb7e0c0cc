"""The six tools and the document types, as named on the wire."""

from __future__ import annotations

from enum import StrEnum


class Tool(StrEnum):
    """A tool's suffix in the upload path (`{prefix}{suffix}`, prefix `Tool` by default)."""

    ICR = "ICR"
    CLASSIFY = "Classify"
    INVOICE = "Invoice"
    RECEIPT = "Receipt"
    TABLE_EXTRACTION = "TableExtraction"
    PAPERFLOW = "PaperFlow"

    @classmethod
    def from_suffix(cls, suffix: str) -> Tool | None:
        """Map a path suffix to a tool; `DocSplit` is the spec's alias of `PaperFlow`."""
        if suffix == "DocSplit":
            return cls.PAPERFLOW
        for tool in cls:
            if tool.value == suffix:
                return tool
        return None

    @property
    def output_formats(self) -> frozenset[str]:
        """Output formats a tool can produce (`TEXT` is accepted as an alias of `TXT`)."""
        return _OUTPUT_FORMATS[self]

    @property
    def default_output_formats(self) -> tuple[str, ...]:
        return _DEFAULT_FORMATS[self]


_OUTPUT_FORMATS: dict[Tool, frozenset[str]] = {
    Tool.ICR: frozenset({"PDF", "TXT", "JSON"}),
    Tool.CLASSIFY: frozenset({"JSON"}),
    Tool.INVOICE: frozenset({"PDF", "TXT", "JSON"}),
    Tool.RECEIPT: frozenset({"JSON"}),
    Tool.TABLE_EXTRACTION: frozenset({"CSV", "JSON"}),
    Tool.PAPERFLOW: frozenset({"JSON", "PDF"}),
}

_DEFAULT_FORMATS: dict[Tool, tuple[str, ...]] = {
    Tool.ICR: ("PDF",),
    Tool.CLASSIFY: ("JSON",),
    Tool.INVOICE: ("PDF",),
    Tool.RECEIPT: ("JSON",),
    Tool.TABLE_EXTRACTION: ("CSV",),
    Tool.PAPERFLOW: ("JSON",),
}

DOCUMENT_TYPES: tuple[str, ...] = (
    "invoice",
    "receipt",
    "delivery_note",
    "purchase_order",
    "letter",
    "email",
    "form",
    "contract",
    "bank_statement",
    "advertisement",
    "handwritten",
    "report",
)
"""The 12 classes of ToolClassify; `unknown` is answered below the threshold."""
