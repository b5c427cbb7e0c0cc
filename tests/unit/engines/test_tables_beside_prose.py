"""A ruled grid beside a prose column (issue 15): the running text is not taken in as unruled
columns of the grid (``structure.extend_sideways``), while a label column the grid left
unruled still is."""

from __future__ import annotations

import pytest

from prefect_docai.engines.page.model import Word
from prefect_docai.engines.pluginspec import EngineOptions
from prefect_docai.engines.tables.finders import find_tables
from prefect_docai.engines.tables.geometry import Box, PointWord
from prefect_docai.engines.tables.grid import GridTable
from prefect_docai.engines.tables.inputs import page_inputs
from prefect_docai.engines.tables.structure import _running_text
from prefect_docai.samples.tables import table_page


def _candidates(pdf: bytes) -> list[GridTable]:
    pages, _ = page_inputs(pdf, EngineOptions(languages=("eng",), output_formats=("JSON",)))
    return find_tables(pages[0])


@pytest.mark.parametrize("seed", [38, 69])
def test_running_text_beside_a_ruled_grid_is_not_taken_as_columns(seed: int) -> None:
    # generated pages: a table ruled by horizontal rules beside a column of prose
    page = table_page(seed, look_alikes=False, records=False)  # the page the case was found on
    assert page.layout == "beside_prose" and len(page.tables) == 1
    x0, _, x1, _ = page.tables[0].bbox
    ruled = [t for t in _candidates(page.pdf) if t.kind == "ruled"]
    assert len(ruled) == 1
    assert abs(ruled[0].box.x0 - x0) < 5 and abs(ruled[0].box.x1 - x1) < 5


def _line(texts: list[str], y: float) -> list[PointWord]:
    out = []
    x = 10.0
    for t in texts:
        out.append(PointWord(Word(t, (0.0, 0.0, 0.0, 0.0), 1.0), Box(x, y, x + 6 * len(t), y + 10)))
        x += 6 * len(t) + 4
    return out


def test_running_text_tells_prose_from_a_label_column() -> None:
    prose = [
        _line(["the", "second", "phase", "of", "the", "project", "was", "completed"], 100 + 14 * k)
        for k in range(5)
    ]
    labels = [
        _line(t.split(), 100 + 14 * k)
        for k, t in enumerate(["North", "South region", "East", "West", "Total"])
    ]
    assert _running_text([w for line in prose for w in line])
    assert not _running_text([w for line in labels for w in line])
    assert not _running_text([w for line in prose[:3] for w in line])  # too few lines to tell
