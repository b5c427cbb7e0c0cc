"""Structural invariants of the table finders on arbitrary word and rule layouts."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from prefect_docai.engines.page.model import Word
from prefect_docai.engines.tables.engine import find_tables
from prefect_docai.engines.tables.geometry import Box, PageInput, PointWord, Ruling


def _word(text: str, box: Box, confidence: float = 1.0) -> PointWord:
    """A word placed directly in points (its page-fraction box is not used here)."""
    return PointWord(Word(text, (0.0, 0.0, 0.0, 0.0), confidence), box)


_TEXTS = st.sampled_from(["12.5", "Total", "a", "(X)", "1,200", "Name:", "–", "and", "x"])


@st.composite
def pages(draw: st.DrawFn) -> PageInput:
    words = []
    for _ in range(draw(st.integers(0, 60))):
        x = draw(st.floats(20, 520))
        y = draw(st.floats(20, 780))
        w = draw(st.floats(4, 60))
        h = draw(st.sampled_from([8.0, 9.0, 10.0]))
        words.append(_word(draw(_TEXTS), Box(x, y, x + w, y + h), draw(st.floats(0.3, 1.0))))
    # rows of aligned words make real tables likely, so both finders get exercised
    top = draw(st.floats(100, 600))
    for r in range(draw(st.integers(0, 6))):
        for c in range(draw(st.integers(2, 5))):
            x = 60 + 110 * c
            words.append(_word(draw(_TEXTS), Box(x, top + 14 * r, x + 40, top + 14 * r + 9)))
    segs = []
    for _ in range(draw(st.integers(0, 12))):
        a = draw(st.floats(10, 580))
        b = draw(st.floats(10, 580))
        c = draw(st.floats(10, 800))
        if draw(st.booleans()):
            segs.append(Ruling(min(a, b), c, max(a, b) + 7, c))
        else:
            segs.append(Ruling(c % 590, min(a, b), c % 590, max(a, b) + 7))
    if draw(st.booleans()):
        # a ruled grid with some inner rule pieces left out (spanning cells)
        n_rows, n_cols = draw(st.integers(1, 5)), draw(st.integers(1, 5))
        x0, y0 = draw(st.floats(30, 200)), draw(st.floats(30, 400))
        xs = [x0 + 70 * i for i in range(n_cols + 1)]
        ys = [y0 + 20 * j for j in range(n_rows + 1)]
        for j, y in enumerate(ys):
            for i in range(n_cols):
                if j in (0, n_rows) or draw(st.integers(0, 4)):
                    segs.append(Ruling(xs[i], y, xs[i + 1], y))
        for i, x in enumerate(xs):
            for j in range(n_rows):
                if i in (0, n_cols) or draw(st.integers(0, 4)):
                    segs.append(Ruling(x, ys[j], x, ys[j + 1]))
        for j in range(n_rows):
            for i in range(n_cols):
                if draw(st.integers(0, 3)):
                    words.append(
                        _word(draw(_TEXTS), Box(xs[i] + 5, ys[j] + 5, xs[i] + 40, ys[j] + 14))
                    )
    return PageInput(1, 595, 842, words, segs)


@settings(max_examples=80, deadline=None)
@given(pages())
def test_every_grid_position_has_one_owner(page: PageInput) -> None:
    for table in find_tables(page):
        assert table.n_rows >= 1 and table.n_cols >= 1
        owners: dict[tuple[int, int], int] = {}
        for cell in table.cells:
            assert cell.row_span >= 1 and cell.col_span >= 1
            assert cell.row + cell.row_span <= table.n_rows
            assert cell.col + cell.col_span <= table.n_cols
            for r in range(cell.row, cell.row + cell.row_span):
                for c in range(cell.col, cell.col + cell.col_span):
                    owners[(r, c)] = owners.get((r, c), 0) + 1
        assert all(n == 1 for n in owners.values()), owners
        assert len(owners) == table.n_rows * table.n_cols
        assert 0.0 <= table.confidence <= 1.0


def test_rows_after_a_split_group_are_renumbered_once() -> None:
    """A ruled row holding two data lines becomes two rows; the unsplit rows below move down
    by one. Each row's cells are renumbered once (was: the moved cells were taken again by
    the next row's group and appeared twice — found by the property test above)."""
    from prefect_docai.engines.tables.grid import Cell, GridTable
    from prefect_docai.engines.tables.structure import split_unruled_rows

    xs = [0.0, 100.0, 200.0]
    cells = []
    for col in range(2):
        x = xs[col]
        words = [_word("12.5", Box(x + 10, y, x + 40, y + 9)) for y in (5.0, 20.0)]
        cells.append(Cell(0, col, 1, 1, Box(x, 0, x + 100, 35), "12.5 12.5", words))
    for row, y in ((1, 35.0), (2, 55.0)):
        cells += [Cell(row, col, 1, 1, Box(xs[col], y, xs[col + 1], y + 20)) for col in range(2)]
    table = split_unruled_rows(GridTable(1, Box(0, 0, 200, 75), cells, 3, 2, "ruled"), xs)
    positions = [(c.row, c.col) for c in table.cells]
    assert table.n_rows == 4
    assert sorted(positions) == [(r, c) for r in range(4) for c in range(2)]
