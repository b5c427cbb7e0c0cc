"""Where a whitespace table's header ends (engines/tables/stream.py): a body line with one
number that OCR misread is still a data line (most of its numeric-column cells are numbers),
so the header does not swallow it (issue 15, scanned pages: on the generated scans the
header merged with the first data row when a number of that row was read as letters)."""

from __future__ import annotations

from prefect_docai.engines.page.model import Word
from prefect_docai.engines.tables.geometry import Box, PointWord
from prefect_docai.engines.tables.grid import GridTable
from prefect_docai.engines.tables.stream import find_stream_tables

XS = (60.0, 180.0, 250.0, 320.0, 390.0)
HEADER = ["Country", "Revenue", "Share", "Volume", "Actual"]
BODY = [
    ["Austria", "1,441", "0.4", "77.1", "88"],
    ["Belgium", "1,173", "0.9", "12.5", "46"],
    ["France", "3,698", "0.4", "51.2", "26"],
    ["Germany", "7,404", "0.7", "85.8", "41"],
    ["Spain", "3,016", "0.8", "45.9", "55"],
]


def _table(rows: list[list[str]], shaky: str = "", confidence: float = 0.35) -> GridTable:
    """``rows`` laid out as a whitespace table; the word ``shaky`` read at ``confidence``,
    every other word at 0.95."""
    words = [
        PointWord(
            Word(text, (0.0, 0.0, 0.0, 0.0), confidence if text == shaky else 0.95),
            Box(x, 100.0 + 16.0 * r, x + 6.0 * len(text), 111.0 + 16.0 * r),
        )
        for r, row in enumerate(rows)
        for x, text in zip(XS, row, strict=True)
        if text
    ]
    tables = find_stream_tables(1, words, [], 400.0)
    assert len(tables) == 1
    return tables[0]


def _row_texts(table: GridTable, row: int) -> list[str]:
    return [c.text for c in sorted(table.cells, key=lambda c: c.col) if c.row == row and c.text]


def test_header_stays_one_row_above_a_misread_number() -> None:
    misread = ["Austria", "1,441", "0.4", "Ti", "88"]
    table = _table([HEADER, misread, *BODY[1:]], shaky="Ti")
    assert table.header_rows == 1
    assert _row_texts(table, 0) == HEADER
    assert _row_texts(table, 1) == misread
    assert table.n_rows == len(BODY) + 1


def test_a_units_line_read_with_confidence_stays_in_the_header() -> None:
    units = ["", "EUR", "%", "t", "EUR"]
    table = _table([HEADER, units, *BODY])
    # the two header lines make one header row, each heading over its unit
    assert table.header_rows == 1
    assert _row_texts(table, 0) == ["Country", "Revenue EUR", "Share %", "Volume t", "Actual EUR"]
    assert _row_texts(table, 1) == BODY[0]
