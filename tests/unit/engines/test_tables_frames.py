"""Tables whose rules are no grid (issue 15): a table inside a box (perhaps with a rule under
its header) beside a list keeps its own columns (``finders._framed``, ``structure.
extend_sideways``), and a rule under the whole header row joins no headings into one
(``stream._underlined``)."""

from __future__ import annotations

import pytest
from tests.table_truth import finder_candidates, lone_candidate, row_texts

from prefect_docai.samples.tables import table_page


@pytest.mark.parametrize("seed", [218, 279])
def test_a_table_in_a_box_beside_a_list_keeps_its_columns(seed: int) -> None:
    # generated pages: a table framed by a box with a rule under its header, a numbered
    # list beside it whose lines share the table's text lines
    page = table_page(seed, look_alikes=False, records=False)  # the page the case was found on
    assert len(page.tables) == 1 and page.tables[0].ruling == "box"
    # the box's own columns, and nothing from the list beside it
    lone_candidate(page)


def test_a_rule_under_the_whole_header_joins_no_headings() -> None:
    # a boxed table whose headings sit closer than a column gap, one of them wider than
    # its number column; the header rule runs under all of them
    page = table_page(76, look_alikes=False, records=False)
    truth = page.tables[0]
    assert truth.ruling == "box"
    found = [t for t in finder_candidates(page) if t.n_rows > 5]
    assert len(found) == 1
    assert row_texts(found[0], 0) == truth.grid[0]
