"""ToolInvoice regressions from reported crashes, each pinned to the document that showed it."""

from __future__ import annotations

from prefect_docai.engines.extract.candidates import label_hits, value_runs
from prefect_docai.engines.extract.rows import build_layout
from prefect_docai.engines.invoice import InvoiceEngine
from prefect_docai.engines.invoice.labels import INVOICE_NUMBER_IN_TITLE
from prefect_docai.engines.page.model import Word
from prefect_docai.engines.pluginspec import EngineOptions
from prefect_docai.models.results import InvoiceResult
from prefect_docai.samples import generate


def _token(text: str, x0: float, x1: float, y: float = 0.30) -> Word:
    return Word(text, (x0, y, x1, y + 0.01), 1.0, font_size=7.0)


def test_whole_row_label_hit_spanning_segments_has_value_runs() -> None:
    # A header row of several columns; a title pattern matched across the whole row gives a
    # pseudo segment that is none of the row's own segments. Looking it up among them raised
    # ValueError("Segment(...) is not in list").
    tokens = [
        _token("Invoice", 0.10, 0.14), _token("#", 0.145, 0.15),
        _token("Date", 0.26, 0.29), _token("PO", 0.74, 0.76), _token("number", 0.765, 0.80),
        _token("4096767", 0.10, 0.16, y=0.32), _token("31/05/2025", 0.26, 0.33, y=0.32),
    ]
    layout = build_layout(1, tokens, 0.7, "text-layer")
    assert len(layout.rows[0].segments) > 1
    hits = list(label_hits([layout], INVOICE_NUMBER_IN_TITLE, whole_rows=True))
    assert hits
    found, row, segment, end = hits[0]
    assert all(segment is not s for s in row.segments)
    runs = [[t.text for t in run] for run, _ in value_runs(found, row, segment, end)]
    assert runs[0][0] == "Date"
    assert ["4096767"] in runs  # the value under the label, in the next row


def test_generated_invoice_with_multi_column_title_row() -> None:
    # the reported document: "Invoice # | Date | Customer ID | Date of supply | PO number"
    document = generate("invoice", seed=18, lang="en")
    result = InvoiceEngine().run(document.pdf, EngineOptions()).result
    assert isinstance(result, InvoiceResult)
    assert result.invoice_number is not None
    assert result.invoice_number.value == document.truth["invoiceNumber"]
    assert result.invoice_date is not None
    assert result.invoice_date.value == document.truth["invoiceDate"]
