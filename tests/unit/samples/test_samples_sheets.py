"""Administrative sheets: deterministic, unruled tables among look-alike blocks, and their
cell truth is what is drawn."""

from __future__ import annotations

import io

import pdfplumber
import pypdfium2 as pdfium
import pytest
from tests.table_truth import check_drawn_truth

from prefect_docai.samples.sheets import SHEET_LANGS, TABLE_STYLES, sheet_page
from prefect_docai.samples.tables import TablePage

SEEDS = range(30)


@pytest.fixture(scope="module")
def pages() -> list[TablePage]:
    return [sheet_page(seed) for seed in SEEDS]


def test_same_seed_same_bytes() -> None:
    assert sheet_page(4).pdf == sheet_page(4).pdf
    assert sheet_page(4).truth == sheet_page(4).truth
    assert sheet_page(0).pdf != sheet_page(1).pdf
    assert sheet_page(2, lang="fr").lang == "fr"
    with pytest.raises(ValueError):
        sheet_page(2, lang="xx")


def test_variety(pages: list[TablePage]) -> None:
    """Every table style and language shows up; a third or more of the tables carry no
    rule at all or only a shaded header; some sheets hold no table, some two or more."""
    tables = [t for p in pages for t in p.tables]
    assert {t.ruling for t in tables} == set(TABLE_STYLES)
    assert {p.lang for p in pages} == set(SHEET_LANGS)
    assert sum(t.ruling in ("plain", "shade") for t in tables) * 4 >= len(tables)
    assert any(not p.tables for p in pages)
    assert any(len(p.tables) >= 2 for p in pages)
    assert {len(t.grid[0]) for t in tables} >= {2, 3, 4, 5}


def test_lookalikes_are_drawn_without_truth(pages: list[TablePage]) -> None:
    """Key-value pairs, contents and lists are on the sheets, outside every truth table."""
    seen = {"kv": 0, "contents": 0, "list": 0}
    for page in pages:
        with pdfplumber.open(io.BytesIO(page.pdf)) as pdf:
            words = pdf.pages[0].extract_words(x_tolerance=1.5)
        for w in words:
            cx, cy = (w["x0"] + w["x1"]) / 2, (w["top"] + w["bottom"]) / 2
            inside = any(
                t.bbox[0] <= cx <= t.bbox[2] and t.bbox[1] <= cy <= t.bbox[3] for t in page.tables
            )
            if inside:
                continue
            text = w["text"]
            if text.endswith(":") or text.startswith("...."):
                seen["kv"] += 1
            elif text in ("Contents", "Inhalt", "Sommaire"):
                seen["contents"] += 1
            elif text in ("•", "–", "1.", "a)", "1)"):
                seen["list"] += 1
    assert all(v >= 3 for v in seen.values()), seen


def test_truth_is_what_is_drawn(pages: list[TablePage]) -> None:
    """Every truth cell's rectangle holds exactly its text, and a table's box holds no
    other text."""
    assert check_drawn_truth(pages) >= 3


def test_scanned_variant_is_image_only() -> None:
    born = sheet_page(6)
    scan = sheet_page(6, scanned=True)
    assert scan.scanned and scan.dpi in (150, 200, 250, 300)
    assert scan.truth["tables"] == born.truth["tables"]
    doc = pdfium.PdfDocument(scan.pdf)
    try:
        assert doc[0].get_textpage().get_text_range().strip() == ""
    finally:
        doc.close()
