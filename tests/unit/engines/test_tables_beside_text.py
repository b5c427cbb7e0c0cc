"""A narrow unruled table beside a text column whose lines it shares (issue 15): the
whitespace finder cut the prose off only when it read as running text throughout (a column
of long words, or one holding the table above its prose, does not), so text and table made
one block that made no table at all. Such a block is now read again either side of its
gutter (``stream._block_tables``)."""

from __future__ import annotations

import pytest

from prefect_docai.engines.pluginspec import EngineOptions
from prefect_docai.engines.tables.finders import find_tables
from prefect_docai.engines.tables.grid import GridTable
from prefect_docai.engines.tables.inputs import page_inputs
from prefect_docai.samples.tables import TablePage, table_page


def _candidates(page: TablePage) -> list[GridTable]:
    pages, _ = page_inputs(page.pdf, EngineOptions(languages=("eng",), output_formats=("JSON",)))
    return find_tables(pages[0])


def _row(table: GridTable, row: int) -> list[str]:
    return [c.text for c in sorted(table.cells, key=lambda c: c.col) if c.row == row]


@pytest.mark.parametrize("seed", [78, 148])
def test_a_table_beside_a_text_column_is_proposed(seed: int) -> None:
    # generated pages: an unruled two-column table (a rule under its header at most) in one
    # column of a two-column page, prose beside it on the same text lines
    page = table_page(seed)
    assert page.layout == "beside_prose" and len(page.tables) == 1
    truth = page.tables[0]
    x0, y0, x1, y1 = truth.bbox
    over = [
        t
        for t in _candidates(page)
        if t.box.x0 < x1 and t.box.x1 > x0 and y0 < t.box.y1 and t.box.y0 < y1
    ]
    assert len(over) == 1
    found = over[0]
    # the table's own columns and rows, nothing of the prose beside it
    assert found.n_cols == len(truth.grid[0])
    assert found.box.x0 >= x0 - 2 and found.box.x1 <= x1 + 2
    assert _row(found, 0) == truth.grid[0]
    assert _row(found, found.n_rows - 1) == truth.grid[-1]
