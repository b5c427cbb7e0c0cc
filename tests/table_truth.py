"""The check both table generators' tests share: a page's cell truth is what its PDF draws."""

from __future__ import annotations

import io
import re
import unicodedata
from collections.abc import Iterable

import pdfplumber

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
