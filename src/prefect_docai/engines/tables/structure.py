"""Finishing a ruled grid once its words are known: rows that the rules left out, header
rows, and whether it is a table at all."""

from __future__ import annotations

import itertools

from prefect_docai.engines.tables.geometry import Box, TWord, union_all
from prefect_docai.engines.tables.grid import Cell, GridTable, group_lines, is_numeric, join_words


def _is_data_line(line: list[TWord], xs: list[float]) -> bool:
    """Numbers in at least two columns, and mostly numbers (not a header's units line)."""
    texts: dict[int, list[str]] = {}
    for w in line:
        for c in range(len(xs) - 1):
            if xs[c] <= w.box.cx < xs[c + 1]:
                texts.setdefault(c, []).append(w.text)
    numeric = sum(1 for t in texts.values() if is_numeric(" ".join(t)))
    return numeric >= 2 and numeric >= 0.5 * len(texts)


def split_unruled_rows(table: GridTable, xs: list[float]) -> GridTable:
    """Split ruled rows that hold several data lines (tables ruled only between columns,
    or only around the header): each text line with numbers in two or more columns
    starts a row of its own; other lines stay with the row above (wrapped cells)."""
    new_cells: list[Cell] = []
    row_map: dict[int, int] = {}
    next_row = 0
    for r in range(table.n_rows):
        band = [c for c in table.cells if c.row == r]
        band_words = [w for c in band if c.row_span == 1 for w in c.words]
        lines = group_lines(band_words)
        data_lines = [i for i, line in enumerate(lines) if _is_data_line(line, xs)]
        if (
            len(data_lines) < 2
            or any(c.row_span > 1 for c in band)
            or any(c.col_span > 1 for c in band)
        ):
            row_map[r] = next_row
            for c in band:
                c.row = next_row
                new_cells.append(c)
            next_row += 1
            continue
        # a data line opens a new row once the current row has one; other lines (labels,
        # wrapped text) stay with the row they are in
        data_set = set(data_lines)
        groups: list[list[list[TWord]]] = []
        has_data: list[bool] = []
        for i, line in enumerate(lines):
            if not groups or (i in data_set and has_data[-1]):
                groups.append([line])
                has_data.append(i in data_set)
            else:
                groups[-1].append(line)
                has_data[-1] = has_data[-1] or i in data_set
        y_edges = [band[0].box.y0]
        for a, b in itertools.pairwise(groups):
            y_edges.append(
                (max(w.box.y1 for ln in a for w in ln) + min(w.box.y0 for ln in b for w in ln)) / 2
            )
        y_edges.append(band[0].box.y1)
        for k, group in enumerate(groups):
            for c in band:
                words = [w for ln in group for w in ln if c.box.x0 <= w.box.cx < c.box.x1]
                box = Box(c.box.x0, y_edges[k], c.box.x1, y_edges[k + 1])
                new_cells.append(Cell(next_row, c.col, 1, 1, box, join_words(words), words))
            next_row += 1
    for c in new_cells:
        if c.row_span > 1:
            last = max(
                (row_map.get(rr, -1) for rr in range(c.row, c.row + c.row_span)), default=c.row
            )
            c.row_span = max(1, last - c.row + 1)
    table.cells = new_cells
    table.n_rows = next_row
    return table


def numeric_columns(table: GridTable) -> set[int]:
    votes: dict[int, list[bool]] = {}
    for c in table.cells:
        if c.text and c.col_span == 1:
            votes.setdefault(c.col, []).append(is_numeric(c.text))
    return {col for col, v in votes.items() if len(v) >= 2 and sum(v) / len(v) >= 0.6}


def header_rows(table: GridTable) -> int:
    """Top rows before the first row with numbers in the numeric columns, and at least the
    rows a top-row group heading spans down to."""
    numeric = numeric_columns(table)
    count = 0
    if numeric:
        for r in range(table.n_rows):
            row = [c for c in table.cells if c.row == r and c.text]
            in_numeric = [is_numeric(c.text) for c in row if c.col in numeric and c.col_span == 1]
            if in_numeric and all(in_numeric):
                break
            count += 1
        if count > table.n_rows // 2:
            count = 0
    top_spans = [c for c in table.cells if c.row == 0 and c.col_span > 1 and c.text]
    if top_spans:
        below = max(c.row_span for c in top_spans)
        count = max(count, below + 1 if below < table.n_rows else below)
    return min(count, table.n_rows - 1) if table.n_rows > 1 else 0


def is_plausible(table: GridTable) -> bool:
    """A ruled box is a table when it has at least two rows and columns with text in
    several cells (not a framed paragraph, a form box or a page border)."""
    filled = [c for c in table.cells if c.text]
    if table.n_rows < 2 or table.n_cols < 2 or len(filled) < 3:
        return False
    cols_used = {c.col for c in filled}
    rows_used = {c.row for c in filled}
    return len(cols_used) >= 2 and len(rows_used) >= 2


def ruled_confidence(table: GridTable, words: list[TWord]) -> float:
    filled = sum(1 for c in table.cells if c.text)
    fill = filled / max(1, len(table.cells))
    conf = sum(w.confidence for w in words) / len(words) if words else 0.0
    return round(min(1.0, 0.6 + 0.4 * fill) * conf, 3)


def table_box(cells: list[Cell]) -> Box:
    return union_all([c.box for c in cells])
