"""The learned table extent: row features, peeling the edge rows, the shipped row model."""

from __future__ import annotations

from benchmarks.tables import _overlap, cell_counts, f1
from training.tables import _grid

from prefect_docai.engines.page.model import Word
from prefect_docai.engines.pluginspec import EngineOptions
from prefect_docai.engines.tables.engine import find_tables, page_candidates
from prefect_docai.engines.tables.extent import (
    ROW_FEATURE_NAMES,
    keep_rows,
    load_row_model,
    on_grid,
    row_features,
    slice_rows,
    trim_rows,
)
from prefect_docai.engines.tables.geometry import Box, PageInput, PointWord, union_all
from prefect_docai.engines.tables.grid import Cell, GridTable, join_words
from prefect_docai.samples.tables import table_page

SENTENCE = "Figures are in thousands of units and were restated after the merger last year."


def _word(text: str, x: float, y: float) -> PointWord:
    w = 5.0 * len(text)
    return PointWord(Word(text, (0.0, 0.0, 0.0, 0.0), 1.0), Box(x, y, x + w, y + 9))


def _page_with_note() -> PageInput:
    """A numeric table and, one line pitch below it, a sentence starting at its left edge."""
    words = []
    for r, label in enumerate(["Region", "North", "South", "East", "West", "Total"]):
        y = 100 + 14 * r
        words.append(_word(label, 60, y))
        for c in range(3):
            words.append(_word("2021" if r == 0 else f"{r * 13 + c}.{c}", 200 + 90 * c, y))
    x = 60.0
    for token in SENTENCE.split():
        words.append(_word(token, x, 100 + 14 * 6 + 4))
        x += 5 * len(token) + 4
    return PageInput(1, 595, 842, words)


def test_only_edge_rows_are_peeled_and_two_stay() -> None:
    assert keep_rows([0.1, 0.9, 0.2, 0.9, 0.3], 0.5) == (1, 4)
    assert keep_rows([0.9, 0.9, 0.9], 0.5) == (0, 3)
    assert keep_rows([0.1, 0.1, 0.1, 0.1], 0.5) == (2, 4)


def test_row_features_describe_each_row() -> None:
    page = _page_with_note()
    (table,) = find_tables(page)
    feats = row_features(table, page)
    assert len(feats) == table.n_rows
    assert all(len(x) == len(ROW_FEATURE_NAMES) for x in feats)
    top, bottom = ROW_FEATURE_NAMES.index("from_top"), ROW_FEATURE_NAMES.index("from_bottom")
    assert feats[0][top] == 0.0 and feats[-1][bottom] == 0.0 and feats[2][top] == 2.0
    above = ROW_FEATURE_NAMES.index("gap_above_em")
    assert feats[0][above] == -1.0 and feats[1][above] > 0.0


def test_slice_rows_renumbers_and_reboxes() -> None:
    page = _page_with_note()
    (table,) = find_tables(page)
    cut = slice_rows(table, 1, table.n_rows - 1)
    assert cut.n_rows == table.n_rows - 2
    assert min(c.row for c in cut.cells) == 0
    assert cut.box.y0 > table.box.y0 and cut.box.y1 < table.box.y1
    assert table.n_rows == max(c.row + c.row_span for c in table.cells)  # original untouched


def test_shipped_row_model_peels_traps_on_unseen_pages() -> None:
    """On generated pages with lists and key-value blocks around the table (seeds the model
    never saw), peeling the edge rows raises the cell F1 of the candidates that cover the
    truth tables."""
    assert load_row_model() is not None, "engines/data/table_rows.json missing"
    before, after, changed = [0, 0, 0], [0, 0, 0], 0
    for seed in range(10_000, 10_016):
        page = table_page(seed, layout="with_traps")
        found, _ = page_candidates(page.pdf, EngineOptions(output_formats=("JSON",)))
        page_input, candidates = found[0]
        for truth in page.tables:
            grid = [list(r) for r in truth.grid]
            covering = [
                c
                for c in candidates
                if _overlap(truth.bbox, (c.box.x0, c.box.y0, c.box.x1, c.box.y1))[0] >= 0.6
            ]
            for table in covering[:1]:
                trimmed = trim_rows(table, page_input)
                changed += trimmed is not table
                for acc, found_grid in ((before, _grid(table)), (after, _grid(trimmed))):
                    counts = cell_counts(grid, found_grid)
                    for i in range(3):
                        acc[i] += counts[i]
    assert changed >= 3
    assert f1(*after)[2] >= f1(*before)[2] + 0.01


def _page_with_caption() -> PageInput:
    """A caption sentence, then a header row ("Region | Q1 | Q2 | Q3") over three numeric
    columns and five data rows."""
    words = []
    x = 60.0
    for token in ["Sales", "by", "region", "were", "restated", "in", "the", "third", "quarter"]:
        words.append(_word(token, x, 86))
        x += 5 * len(token) + 4
    for r, label in enumerate(["Region", "North", "South", "East", "West", "Total"]):
        y = 100 + 14 * r
        words.append(_word(label, 60, y))
        for c in range(3):
            words.append(_word(f"Q{c + 1}" if r == 0 else f"{r * 13 + c}.{c}", 200 + 90 * c, y))
    return PageInput(1, 595, 842, words)


def test_rows_on_the_column_grid_are_a_row_feature() -> None:
    page = _page_with_caption()
    (table,) = find_tables(page)
    assert " ".join(c.text for c in table.cells if c.row == 0) == "Region Q1 Q2 Q3"
    assert on_grid(table, page)[0]
    # the caption cut into the table's columns is no row of its grid; the header below is
    lines: dict[float, list[PointWord]] = {}
    for w in page.words:
        lines.setdefault(w.box.y0, []).append(w)
    cells = []
    for r, y in enumerate(sorted(lines)):
        by_col: dict[int, list[PointWord]] = {}
        for w in lines[y]:
            by_col.setdefault(sum(w.box.x0 >= edge for edge in (190, 280, 370)), []).append(w)
        for k, ws in by_col.items():
            cells.append(Cell(r, k, 1, 1, union_all([w.box for w in ws]), join_words(ws), ws))
    cut = GridTable(1, union_all([c.box for c in cells]), cells, len(lines), 4, "stream")
    assert len([c for c in cut.cells if c.row == 0]) >= 2
    assert on_grid(cut, page)[:2] == [False, True]
    feats = row_features(cut, page)
    grid = ROW_FEATURE_NAMES.index("on_grid")
    above = ROW_FEATURE_NAMES.index("grid_at_or_above")
    assert [x[grid] for x in feats][:2] == [0.0, 1.0]
    assert [x[above] for x in feats] == [0.0] + [1.0] * 6


class _Peels:
    """A row model stand-in that keeps the first ``keep`` rows of a candidate (rows are
    scored top to bottom) and takes the rest for text outside the table."""

    threshold = 0.5

    def __init__(self, keep: int) -> None:
        self.keep, self.seen = keep, 0

    def probability(self, features: list[float]) -> float:
        self.seen += 1
        return 1.0 if self.seen <= self.keep else 0.0


def _page_with_justified_prose() -> PageInput:
    """A label column and three numeric columns (``Region | 2021 | 2022 | 2023`` and five
    data rows), then three lines of justified prose right under it whose word spaces are
    wider than a column gap: each word of them is a chunk of its own and crosses the table's
    column gaps."""
    words = []
    for r, label in enumerate(["Region", "North", "South", "East", "West", "Total"]):
        y = 100 + 14 * r
        words.append(_word(label, 60, y))
        for c in range(3):
            text = str(2021 + c) if r == 0 else f"{r * 13 + c}.{c}"
            words.append(_word(text, 200 + 35 * c, y))
    prose = ["Figures are in thousands of units", "and were restated after the merger"]
    prose.append("of the two northern units last year")
    for k, line in enumerate(prose):
        x = 60.0
        for token in line.split():
            words.append(_word(token, x, 100 + 14 * (6 + k)))
            x += 5 * len(token) + 11
    return PageInput(1, 595, 842, words)


def test_a_peeled_whitespace_table_finds_its_columns_again() -> None:
    """The prose under the table joins its block and merges its number columns; once the
    row model peels the prose lines, the columns come from the table's own rows."""
    page = _page_with_justified_prose()
    (table,) = find_tables(page)
    assert table.kind == "stream" and table.n_rows == 9
    assert table.n_cols < 4  # the prose's chunks bridge the column gaps
    trimmed = trim_rows(table, page, _Peels(6))
    grid = _grid(trimmed)
    assert trimmed.n_cols == 4 and trimmed.n_rows == 6
    assert grid[0] == ["Region", "2021", "2022", "2023"]
    assert grid[5] == ["Total", "65.0", "66.1", "67.2"]
