"""A scanned table's cells read again alone once its structure is found
(engines/tables/cellread.py), with the real Tesseract."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont
from tests.unit.engines.word_pages import record_single_lines, table_png

from prefect_docai.engines.page.model import Word
from prefect_docai.engines.pluginspec import EngineOptions
from prefect_docai.engines.tables.cellread import read_cells, read_tables_again
from prefect_docai.engines.tables.geometry import Box, PageInput, PointWord
from prefect_docai.engines.tables.grid import Cell, GridTable

SCALE = 300 / 72
XS = [20.0, 120.0, 200.0, 280.0]
YS = [20.0, 40.0, 60.0, 80.0]
TEXTS = [["Umsatz", "4711", "12.50"], ["Total", "1", ""], ["Netto", "-", "30.238,51"]]
"""The printed table: three rows of three ruled cells, one of them empty."""


def _raster() -> tuple[np.ndarray, dict[tuple[int, int], Box]]:
    """A white 300 x 100 pt page at 300 dpi with the ruled table of :data:`TEXTS`, and
    each printed entry's ink box in points."""
    image = Image.new("L", (round(300 * SCALE), round(100 * SCALE)), 255)
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default(size=round(10 * SCALE))
    for x in XS:
        draw.line([(x * SCALE, YS[0] * SCALE), (x * SCALE, YS[-1] * SCALE)], fill=0, width=4)
    for y in YS:
        draw.line([(XS[0] * SCALE, y * SCALE), (XS[-1] * SCALE, y * SCALE)], fill=0, width=4)
    boxes: dict[tuple[int, int], Box] = {}
    for r, row in enumerate(TEXTS):
        for c, text in enumerate(row):
            if not text:
                continue
            at = ((XS[c] + 6) * SCALE, (YS[r] + 4) * SCALE)
            draw.text(at, text, fill=0, font=font)
            x0, y0, x1, y1 = draw.textbbox(at, text, font=font)
            boxes[(r, c)] = Box(x0 / SCALE, y0 / SCALE, x1 / SCALE, y1 / SCALE)
    return np.asarray(image, dtype=np.uint8), boxes


def _word(text: str, box: Box, confidence: float) -> PointWord:
    return PointWord(Word(text, (0.0, 0.0, 0.0, 0.0), confidence), box)


def _table(read: dict[tuple[int, int], PointWord]) -> GridTable:
    """The grid of :data:`TEXTS` as a finder gives it, each cell holding the words of
    ``read`` (what the page pass read there)."""
    cells = []
    for r in range(3):
        for c in range(3):
            words = [read[(r, c)]] if (r, c) in read else []
            box = Box(XS[c], YS[r], XS[c + 1], YS[r + 1])
            cells.append(Cell(r, c, 1, 1, box, " ".join(w.text for w in words), words))
    return GridTable(1, Box(XS[0], YS[0], XS[-1], YS[-1]), cells, 3, 3, "ruled")


def _texts(table: GridTable) -> list[list[str]]:
    grid = [["" for _ in range(table.n_cols)] for _ in range(table.n_rows)]
    for c in table.cells:
        grid[c.row][c.col] = c.text
    return grid


def test_cells_read_empty_or_badly_are_read_again_alone() -> None:
    gray, boxes = _raster()
    read = {
        (0, 0): _word("Umsatz", boxes[(0, 0)], 0.95),
        # (0, 1) "4711" and (2, 1) "-": the page pass read nothing there
        (0, 2): _word("12.50", boxes[(0, 2)], 0.93),
        (1, 0): _word("Tota1", boxes[(1, 0)], 0.9),  # read with confidence: left as it is
        (1, 1): _word("lel", boxes[(1, 1)], 0.2),  # a junk reading of "1"
        (2, 0): _word("Netto", boxes[(2, 0)], 0.96),
        (2, 2): _word("2.23851", boxes[(2, 2)], 0.31),
    }
    table = _table(read)
    page = PageInput(1, 300.0, 100.0, list(read.values()), ocr=True)
    out = read_cells(table, page, gray, "eng")
    assert _texts(out) == [
        ["Umsatz", "4711", "12.50"],
        ["Tota1", "1", ""],
        ["Netto", "-", "30.238,51"],
    ]
    assert [c.box for c in out.cells] == [c.box for c in table.cells]  # structure stays
    assert _texts(table)[0][1] == ""  # the table found is not changed in place


def test_a_table_with_nothing_to_read_again_is_left_as_it_is() -> None:
    gray, boxes = _raster()
    read = {key: _word(TEXTS[key[0]][key[1]], box, 0.95) for key, box in boxes.items()}
    table = _table(read)
    page = PageInput(1, 300.0, 100.0, list(read.values()), ocr=True)
    assert read_cells(table, page, gray, "eng") is table  # the empty cell holds only rules
    born_digital = PageInput(1, 300.0, 100.0, [], ocr=False)
    empty = _table({})

    def no_raster(page: PageInput) -> np.ndarray:
        raise AssertionError("a text-layer page is not rendered")

    assert read_tables_again([empty], {1: born_digital}, no_raster, "eng") == [empty]


def test_an_image_upload_gets_its_cells_read_again(monkeypatch: pytest.MonkeyPatch) -> None:
    # A PNG of a table: the cells are cut out of the page model's own raster (no PDF to
    # render). Every cell is made worth reading, so the step runs on each.
    from prefect_docai.engines.tables import cellread
    from prefect_docai.engines.tables.engine import TableEngine

    monkeypatch.setattr(cellread, "worth_reading", lambda cell: True)
    monkeypatch.setattr(cellread, "better", lambda cell, got: True)
    reads = record_single_lines(monkeypatch)  # what the step read, one cell alone at a time
    out = TableEngine().run(table_png(), EngineOptions(languages=("eng",)))

    assert {"Item", "Part 1", "105.00"} <= {" ".join(words) for words in reads}
    [table] = out.result.tables
    texts = {cell.text for cell in table.cells}
    assert {"Item", "Qty", "Price", "Part 1", "21.50", "105.00"} <= texts


@pytest.mark.parametrize("kept", [8, 0])
def test_a_scan_is_rendered_once_for_its_inputs_and_its_cell_read(
    monkeypatch: pytest.MonkeyPatch, kept: int
) -> None:
    # The inputs' second look and the cell read both work on the page's straightened
    # raster at the OCR resolution: the engine takes the one the page's OCR read (or,
    # without it, renders it once) and hands it on.
    from prefect_docai.engines.page.document import Page
    from prefect_docai.engines.tables import cellread, inputs
    from prefect_docai.engines.tables.engine import TableEngine

    monkeypatch.setattr(inputs, "KEPT_OCR_RASTERS", kept)
    monkeypatch.setattr(cellread, "worth_reading", lambda cell: True)
    monkeypatch.setattr(inputs, "needs_second_look", lambda page: True)
    renders: list[int] = []
    render = Page.render

    def counted(self: Page, dpi: int = 300, grayscale: bool = True) -> Image.Image:
        renders.append(dpi)
        return render(self, dpi, grayscale)

    monkeypatch.setattr(Page, "render", counted)
    reads = record_single_lines(monkeypatch)
    out = TableEngine().run(table_png(), EngineOptions(languages=("eng",)))

    assert reads and out.result.tables  # the cell read ran on the table found
    assert renders.count(inputs.OCR_DPI) == (0 if kept else 1)
