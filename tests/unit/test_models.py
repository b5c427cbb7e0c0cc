"""The result contract: camelCase on the wire, snake_case in Python, extras kept."""

from __future__ import annotations

from datetime import UTC, datetime

from prefect_docai.models import (
    TOOL_RESULT_MODELS,
    Field,
    InvoiceResult,
    JobResult,
    PaperFlowResult,
    Tool,
)


def test_invoice_result_round_trips_in_camel_case() -> None:
    result = InvoiceResult(
        source="text-layer",
        invoice_number=Field(value="R-1", confidence=0.9, page=1, bbox=(0.1, 0.1, 0.2, 0.12)),
    )
    wire = result.to_json_dict()
    assert wire["invoiceNumber"]["value"] == "R-1"
    assert wire["dueDate"] is None
    assert wire["seller"]["vatId"] is None
    assert "invoice_number" not in wire
    again = InvoiceResult.model_validate(wire)
    assert again.invoice_number is not None and again.invoice_number.value == "R-1"


def test_unknown_fields_survive_a_round_trip() -> None:
    wire = {"documents": [], "futureField": {"x": 1}}
    parsed = PaperFlowResult.model_validate(wire)
    assert parsed.to_json_dict()["futureField"] == {"x": 1}


def test_envelope_accepts_wire_names() -> None:
    envelope = JobResult.model_validate(
        {
            "jobId": "j1",
            "tool": "ToolICR",
            "status": "failed",
            "pageCount": 2,
            "creditsCharged": 0,
            "createdAt": datetime(2026, 1, 1, tzinfo=UTC).isoformat(),
            "document": {"fileName": "a.pdf", "sha256": "00", "mediaType": "application/pdf"},
            "error": {"code": "corrupt_pdf", "detail": "bad"},
        }
    )
    assert envelope.error is not None and envelope.error.code == "corrupt_pdf"
    assert envelope.result is None


def test_every_tool_has_a_result_model_and_formats() -> None:
    assert set(TOOL_RESULT_MODELS) == {tool.value for tool in Tool}
    for tool in Tool:
        assert set(tool.default_output_formats) <= tool.output_formats


def test_docsplit_is_an_alias_of_paperflow() -> None:
    assert Tool.from_suffix("DocSplit") is Tool.PAPERFLOW
    assert Tool.from_suffix("PaperFlow") is Tool.PAPERFLOW
    assert Tool.from_suffix("Nope") is None
