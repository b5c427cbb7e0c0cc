"""A narrow unruled table beside a text column whose lines it shares (issue 15): the
whitespace finder cut the prose off only when it read as running text throughout (a column
of long words, or one holding the table above its prose, does not), so text and table made
one block that made no table at all. Such a block is now read again either side of its
gutter (``stream._block_tables``)."""

from __future__ import annotations

import pytest
from tests.table_truth import lone_candidate, row_texts

from prefect_docai.samples.tables import table_page


@pytest.mark.parametrize("seed", [78, 148])
def test_a_table_beside_a_text_column_is_proposed(seed: int) -> None:
    # generated pages: an unruled two-column table (a rule under its header at most) in one
    # column of a two-column page, prose beside it on the same text lines
    page = table_page(seed, look_alikes=False, records=False)  # the page the case was found on
    assert page.layout == "beside_prose" and len(page.tables) == 1
    # the table's own columns and rows, nothing of the prose beside it
    assert row_texts(lone_candidate(page), 0) == page.tables[0].grid[0]
