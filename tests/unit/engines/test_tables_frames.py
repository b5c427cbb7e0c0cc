"""Tables whose rules are no grid (issue 15): a table inside a box (perhaps with a rule under
its header) beside a list keeps its own columns (``finders._framed``, ``structure.
extend_sideways``), and a rule under the whole header row joins no headings into one
(``stream._underlined``)."""

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


@pytest.mark.parametrize("seed", [218, 279])
def test_a_table_in_a_box_beside_a_list_keeps_its_columns(seed: int) -> None:
    # generated pages: a table framed by a box with a rule under its header, a numbered
    # list beside it whose lines share the table's text lines
    page = table_page(seed)
    assert len(page.tables) == 1 and page.tables[0].ruling == "box"
    truth = page.tables[0]
    x0, y0, x1, y1 = truth.bbox
    over = [
        t
        for t in _candidates(page)
        if t.box.x0 < x1 and t.box.x1 > x0 and y0 < t.box.y1 and t.box.y0 < y1
    ]
    assert len(over) == 1
    found = over[0]
    # the box's own columns, and nothing from the list beside it
    assert found.n_cols == len(truth.grid[0])
    assert found.box.x1 <= x1 + 2 and found.box.x0 >= x0 - 2
    assert _row(found, found.n_rows - 1) == truth.grid[-1]


def test_a_rule_under_the_whole_header_joins_no_headings() -> None:
    # a boxed table whose headings sit closer than a column gap, one of them wider than
    # its number column; the header rule runs under all of them
    page = table_page(76)
    truth = page.tables[0]
    assert truth.ruling == "box"
    found = [t for t in _candidates(page) if t.n_rows > 5]
    assert len(found) == 1
    assert _row(found[0], 0) == truth.grid[0]
