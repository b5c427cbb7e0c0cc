"""Results rendered for people: each tool's result JSON (docs/results.md) → the rows and
tables the job page shows."""

from __future__ import annotations

from prefect_docai.server.web import views
from prefect_docai.server.web.i18n import translator

T = translator("en")


def field(value: object, confidence: float = 0.9, page: int = 1) -> dict[str, object]:
    return {"value": value, "confidence": confidence, "page": page, "bbox": None, "raw": str(value)}


def test_receipt_fields_items_and_checks() -> None:
    result = {
        "merchant": {"name": field("Bäckerei Kurz"), "address": None, "vatId": None},
        "date": field("2024-05-02"),
        "total": field("7.40", 0.97),
        "items": [
            {
                "description": field("Brezel"),
                "quantity": field("2"),
                "unitPrice": field("1.20"),
                "amount": field("2.40"),
                "taxRate": None,
            },
            {
                "description": field("Kaffee"),
                "quantity": None,
                "unitPrice": None,
                "amount": field("5.00"),
                "taxRate": field("19.00"),
            },
        ],
        "checks": {"itemsSumToTotal": True},
    }
    view = views.build("Receipt", result, T, "en")
    rows = {row.label: (row.value, row.confidence) for row in view.fields}
    assert rows["Merchant · Name"] == ("Bäckerei Kurz", "90 %")
    assert rows["Merchant · Address"] == ("–", "")
    assert rows["Total"] == ("7.40", "97 %")
    (items,) = view.tables
    assert items.header == ["Description", "Quantity", "Unit price", "Amount", "Tax rate"]
    assert items.rows == [
        ["Brezel", "2", "1.20", "2.40", "–"],
        ["Kaffee", "–", "–", "5.00", "19.00"],
    ]
    assert view.checks == [("Items sum to total", True)]
    german = views.build("Receipt", result, translator("de"), "de")
    assert german.fields[0].label == "Händler · Name" and german.tables[0].caption == "Positionen"


def test_classify_type_confidence_and_scores() -> None:
    result = {
        "documentType": "invoice",
        "confidence": 0.874,
        "scores": {"letter": 0.1, "invoice": 0.874},
        "pages": [{"page": 1, "documentType": "invoice", "confidence": 0.874}],
    }
    view = views.build("Classify", result, T, "en")
    assert (view.fields[0].value, view.fields[0].confidence) == ("invoice", "87 %")
    assert view.tables[0].rows == [["invoice", "87 %"], ["letter", "10 %"]]


def test_paperflow_documents_with_page_ranges() -> None:
    result = {
        "documents": [
            {
                "index": 0,
                "startPage": 1,
                "endPage": 2,
                "pageCount": 2,
                "confidence": 0.99,
                "documentType": "invoice",
            },
            {"index": 1, "startPage": 3, "endPage": 3, "pageCount": 1, "confidence": 0.8},
        ]
    }
    (table,) = views.build("PaperFlow", result, T, "en").tables
    assert table.rows == [["1", "1–2", "2", "invoice", "99 %"], ["2", "3–3", "1", "–", "80 %"]]


def test_icr_text_per_page() -> None:
    result = {
        "language": "deu",
        "text": "a\fb",
        "pages": [{"page": 1, "text": "Hallo"}, {"page": 2, "text": "Welt"}],
    }
    view = views.build("ICR", result, T, "en")
    assert view.text_pages == [(1, "Hallo"), (2, "Welt")] and view.fields[0].value == "deu"


def test_table_grid_with_spans_and_header() -> None:
    cells = [
        {"row": 0, "col": 0, "rowSpan": 1, "colSpan": 2, "text": "Item"},
        {"row": 0, "col": 2, "text": "Price"},
        {"row": 1, "col": 0, "rowSpan": 2, "text": "A"},
        {"row": 1, "col": 1, "text": "a1"},
        {"row": 1, "col": 2, "text": "1.00"},
        {"row": 2, "col": 1, "text": "a2"},
        {"row": 2, "col": 2, "text": "2.00"},
    ]
    result = {
        "tables": [
            {
                "index": 1,
                "page": 2,
                "rowCount": 3,
                "columnCount": 3,
                "headerRows": 1,
                "cells": cells,
            }
        ]
    }
    (grid,) = views.build("TableExtraction", result, T, "en").grids
    assert grid.page == 2
    assert [[(c.text, c.row_span, c.col_span, c.header) for c in row] for row in grid.rows] == [
        [("Item", 1, 2, True), ("Price", 1, 1, True)],
        [("A", 2, 1, False), ("a1", 1, 1, False), ("1.00", 1, 1, False)],
        [("a2", 1, 1, False), ("2.00", 1, 1, False)],
    ]


def test_nothing_to_show_without_a_result() -> None:
    view = views.build("Invoice", None, T, "en")
    assert not (view.fields or view.tables or view.grids or view.text_pages)
