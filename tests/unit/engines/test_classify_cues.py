"""Meaning-level cues: title lines, type vocabulary, dated rows and priced item lines."""

from __future__ import annotations

import numpy as np

from prefect_docai.engines.doctype.cues import (
    CUE_FEATURES,
    TITLE_PREFIX,
    cue_features,
    title_lines,
    title_tokens,
)
from prefect_docai.engines.doctype.views import PageView
from prefect_docai.engines.page.model import Word


def _page(rows: list[tuple[str, float, float]]) -> PageView:
    """One line per row: (text, top as a page fraction, font size in points)."""
    words = []
    for line, (text, top, size) in enumerate(rows):
        x = 0.1
        for token in text.split():
            width = 0.012 * len(token)
            words.append(Word(token, (x, top, x + width, top + size / 842), 1.0, line, 0, size))
            x += width + 0.01
    return PageView(words, 595, 842, "text-layer")


def _value(page: PageView, name: str) -> float:
    return float(cue_features(page)[CUE_FEATURES.index(name)])


def test_the_largest_line_in_the_upper_half_is_the_title_even_as_a_german_compound() -> None:
    page = _page([
        ("Muster GmbH Hauptstr. 1 12345 Berlin", 0.05, 9),
        ("Abrufauftrag", 0.25, 18),
        ("Wir bitten um Lieferung bis 12.03.2025", 0.35, 10),
        ("Seite 1 von 1", 0.95, 20),  # large but at the foot: not a title
    ])
    assert title_lines(page) == ["Abrufauftrag"]
    assert f"{TITLE_PREFIX}abrufauftrag" in title_tokens(page)
    assert _value(page, "title_purchase_order") == 1.0
    assert _value(page, "title_invoice") == 0.0


def test_a_bare_po_title_names_a_purchase_order_but_po_inside_a_word_does_not() -> None:
    assert _value(_page([("PO 4711", 0.1, 20), ("body text here", 0.3, 10)]),
                  "title_purchase_order") == 1.0
    assert _value(_page([("Portfolio", 0.1, 20), ("body text here", 0.3, 10)]),
                  "title_purchase_order") == 0.0


def test_statement_rows_and_priced_item_lines_are_counted() -> None:
    statement = _page([
        ("01.03.2025 Lastschrift Stadtwerke -84,20 1.204,11", 0.3, 9),
        ("03.03.2025 Gutschrift Gehalt 2.450,00 3.654,11", 0.33, 9),
        ("Neuer Kontostand 3.654,11", 0.4, 9),
    ])
    assert _value(statement, "date_line_share") > 0.6
    assert _value(statement, "signed_amount_share") > 0.0
    assert _value(statement, "lex_bank_statement") > 0.0
    items = _page([
        ("Toner schwarz 4 57,30 229,20", 0.3, 9),
        ("Kabel Cat 6 3 10,39 31,17", 0.33, 9),
        ("Summe 260,37", 0.36, 9),
    ])
    assert _value(items, "item_line_share") > 0.6
    assert _value(statement, "item_line_share") == 0.0


def test_an_empty_page_gives_zero_cues() -> None:
    assert not np.any(cue_features(PageView([], 595, 842, "ocr")))
    assert title_tokens(PageView([], 595, 842, "ocr")) == []
