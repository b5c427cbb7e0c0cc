"""Tables in separate layout columns of one whitespace block (issue 15): a table beside a
contents list or a key-value block, two tables side by side, a band of such blocks under or
over a table across the page. The blocks share the page's text lines, so the whitespace
finder joined them into one block and proposed it as one table (the table's columns next to
the list's). A gutter whose two sides do not meet on the same baselines row after row now
parts the block into layout columns (``layout.layout_parts``)."""

from __future__ import annotations

import pytest
from tests.table_truth import finder_candidates, row_texts

from prefect_docai.samples.sheets import sheet_page


@pytest.mark.parametrize("seed", [155, 158, 159])
def test_each_table_of_a_sheet_is_proposed_apart_from_its_neighbours(seed: int) -> None:
    # administrative sheets the table models never see (sheet_runs draws seeds 0-149):
    # tables beside lists, key-value blocks, contents and other tables
    _assert_each_table_apart(seed)


@pytest.mark.parametrize("seed", [151, 167, 179])
def test_columns_that_start_together_are_parted_where_their_lines_part(seed: int) -> None:
    # unseen sheets (seeds outside sheet_runs' 0-149) with a table whose neighbour in the
    # next layout column starts on the same baseline: their first lines meet across the
    # gutter by chance until the two spacings part them (a line of each joined on two
    # baselines); the chance meeting no longer holds the two columns in one block
    _assert_each_table_apart(seed)


def _assert_each_table_apart(seed: int) -> None:
    page = sheet_page(seed)
    candidates = finder_candidates(page)
    for truth in page.tables:
        x0, y0, x1, y1 = truth.bbox
        over = [
            t
            for t in candidates
            if t.box.x0 < x1 and t.box.x1 > x0 and y0 < t.box.y1 and t.box.y0 < y1
        ]
        # one candidate over the table, with its columns, nothing of a neighbour beside it,
        # ending on its last row
        assert len(over) == 1, (seed, truth.grid[0])
        found = over[0]
        assert found.n_cols == len(truth.grid[0])
        assert found.box.x0 >= x0 - 2 and found.box.x1 <= x1 + 2
        assert row_texts(found, found.n_rows - 1) == truth.grid[-1]
