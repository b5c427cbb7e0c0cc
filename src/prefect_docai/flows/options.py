"""Options of the batch flow; a pydantic model, so the Prefect UI renders it as a form."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from prefect_docai.models import DOCUMENT_TYPES

ExtractionTool = Literal["Invoice", "Receipt", "TableExtraction", "ICR"]

DEFAULT_PATTERNS: tuple[str, ...] = (
    "*.pdf",
    "*.png",
    "*.jpg",
    "*.jpeg",
    "*.tif",
    "*.tiff",
    "*.bmp",
    "*.gif",
    "*.webp",
    "*.xml",
)


def default_tools() -> list[ExtractionTool]:
    return ["ICR"]


def default_routing() -> dict[str, list[ExtractionTool]]:
    return {
        "invoice": ["Invoice"],
        "receipt": ["Receipt"],
        "report": ["TableExtraction", "ICR"],
        "bank_statement": ["TableExtraction", "ICR"],
    }


class BatchOptions(BaseModel):
    """How ``process_documents`` treats a batch."""

    model_config = ConfigDict(extra="forbid")

    patterns: list[str] = Field(
        default_factory=lambda: list(DEFAULT_PATTERNS),
        description="File name patterns taken from a folder source (case-insensitive).",
    )
    split: bool = Field(
        default=True,
        description="Split multi-page files into documents with PaperFlow first.",
    )
    classify_threshold: float = Field(
        default=0.5,
        ge=0,
        le=1,
        description="Below this classification confidence a segment is 'unknown' (→ default tools).",
    )
    routing: dict[str, list[ExtractionTool]] = Field(
        default_factory=default_routing,
        description="Document type → extraction tools. Types not listed get `default_tools`.",
    )
    default_tools: list[ExtractionTool] = Field(
        default_factory=default_tools,
        description="Tools for every type the routing table does not name (and 'unknown').",
    )
    tables_for_all: bool = Field(
        default=False, description="Also run TableExtraction on every segment."
    )
    language_hint: str | None = Field(
        default=None,
        description="ISO 639-1 language forced on ICR and table extraction (e.g. 'de').",
        pattern=r"^[a-z]{2}$",
    )
    max_concurrency: int = Field(
        default=8,
        ge=1,
        le=256,
        description="Documents in flight at once; requests still share the service's rate.",
    )
    credit_budget: int | None = Field(
        default=None,
        ge=0,
        description="Stop starting documents before the credits used could exceed this.",
    )
    dry_run: bool = Field(
        default=False, description="Only count files and pages and estimate credits."
    )
    retry_failed: bool = Field(
        default=False,
        description="Process again files the ledger records as failed or partial (their "
        "earlier rows stay in the datasets: take the latest run_id per document_id).",
    )
    result_timeout: float = Field(
        default=900.0, gt=0, description="Seconds to wait for one job's result."
    )
    source_storage_options: dict[str, Any] = Field(
        default_factory=dict,
        description="fsspec options for the source (e.g. endpoint_url); keep secrets in the "
        "environment or fsspec config, not here.",
    )
    destination_storage_options: dict[str, Any] = Field(
        default_factory=dict, description="fsspec options for the destination."
    )

    @field_validator("routing")
    @classmethod
    def _known_types(
        cls, value: dict[str, list[ExtractionTool]]
    ) -> dict[str, list[ExtractionTool]]:
        unknown = set(value) - set(DOCUMENT_TYPES) - {"unknown"}
        if unknown:
            raise ValueError(
                f"unknown document types in routing: {sorted(unknown)}; "
                f"known: {', '.join(DOCUMENT_TYPES)}, unknown"
            )
        return value

    def tools_for(self, document_type: str) -> list[ExtractionTool]:
        tools = list(self.routing.get(document_type, self.default_tools))
        if self.tables_for_all and "TableExtraction" not in tools:
            tools.append("TableExtraction")
        return tools

    @property
    def max_tools_per_segment(self) -> int:
        lengths = [len(self.tools_for(t)) for t in (*DOCUMENT_TYPES, "unknown")]
        return max(lengths, default=1)
