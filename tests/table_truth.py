"""What the table tests share: the check both table generators' tests make (a page's cell
truth is what its PDF draws), and the finders' candidates on a generated page against its truth."""

from __future__ import annotations

import io
import re
import unicodedata
from collections.abc import Iterable

import pdfplumber

from prefect_docai.engines.pluginspec import EngineOptions
from prefect_docai.engines.tables.finders import find_tables
from prefect_docai.engines.tables.grid import GridTable
from prefect_docai.engines.tables.inputs import page_inputs
from prefect_docai.samples.tables import TablePage


def _norm(text: str) -> str:
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", text))


def check_drawn_truth(pages: Iterable[TablePage]) -> int:
    """Assert that every truth cell's rectangle holds exactly its text, that a table's box
    holds no text outside its cells and that a spanning cell's covered positions are empty in
    the grid; return how many cells wrap over more than one line (so callers can ask for
    multi-line cells)."""
    wrapped = 0
    for page in pages:
        with pdfplumber.open(io.BytesIO(page.pdf)) as pdf:
            words = pdf.pages[0].extract_words(x_tolerance=1.5, keep_blank_chars=False)
        for table in page.tables:
            x0, y0, x1, y1 = table.bbox
            inside = [
                w
                for w in words
                if x0 <= (w["x0"] + w["x1"]) / 2 <= x1 and y0 <= (w["top"] + w["bottom"]) / 2 <= y1
            ]
            claimed = 0
            for cell in table.cells:
                cx0, cy0, cx1, cy1 = cell.bbox
                mine = [
                    w
                    for w in inside
                    if cx0 <= (w["x0"] + w["x1"]) / 2 <= cx1
                    and cy0 <= (w["top"] + w["bottom"]) / 2 <= cy1
                ]
                mine.sort(key=lambda w: (round(w["top"]), w["x0"]))
                claimed += len(mine)
                assert _norm("".join(w["text"] for w in mine)) == _norm(cell.text), (
                    page.seed,
                    cell,
                )
                assert table.grid[cell.row][cell.col] == cell.text
                wrapped += len({round(w["top"]) for w in mine}) > 1
            assert claimed == len(inside), (page.seed, "text inside the table box outside cells")
            for cell in table.cells:
                for r in range(cell.row, cell.row + cell.row_span):
                    for c in range(cell.col, cell.col + cell.col_span):
                        if (r, c) != (cell.row, cell.col):
                            assert table.grid[r][c] == ""
    return wrapped


def finder_candidates(page: TablePage) -> list[GridTable]:
    """The finders' candidates on a generated one-page document (English pack)."""
    pages, _ = page_inputs(page.pdf, EngineOptions(languages=("eng",), output_formats=("JSON",)))
    return find_tables(pages[0])


def candidates_over(page: TablePage) -> list[GridTable]:
    """The candidates that overlap the page's first truth table."""
    x0, y0, x1, y1 = page.tables[0].bbox
    return [
        t
        for t in finder_candidates(page)
        if t.box.x0 < x1 and t.box.x1 > x0 and y0 < t.box.y1 and t.box.y0 < y1
    ]


def row_texts(table: GridTable, row: int) -> list[str]:
    """The texts of one row of ``table``, left to right."""
    return [c.text for c in sorted(table.cells, key=lambda c: c.col) if c.row == row]


def lone_candidate(page: TablePage) -> GridTable:
    """The one candidate over the page's first truth table, checked to hold its columns, to
    stay inside its width (nothing of a neighbour beside it) and to end on its last row."""
    truth = page.tables[0]
    over = candidates_over(page)
    assert len(over) == 1
    found = over[0]
    assert found.n_cols == len(truth.grid[0])
    assert found.box.x0 >= truth.bbox[0] - 2 and found.box.x1 <= truth.bbox[2] + 2
    assert row_texts(found, found.n_rows - 1) == truth.grid[-1]
    return found
