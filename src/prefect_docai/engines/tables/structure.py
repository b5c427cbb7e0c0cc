"""Finishing a ruled grid once its words are known: rows that the rules left out, header
rows, and whether it is a table at all."""

from __future__ import annotations

import itertools

from prefect_docai.engines.tables.geometry import Box, PointWord, union_all
from prefect_docai.engines.tables.grid import Cell, GridTable, group_lines, is_numeric, join_words
from prefect_docai.engines.tables.stream import continues


def _is_data_line(line: list[PointWord], xs: list[float]) -> bool:
    """Numbers in at least two columns, and mostly numbers (not a header's units line)."""
    texts: dict[int, list[str]] = {}
    for w in line:
        for c in range(len(xs) - 1):
            if xs[c] <= w.box.cx < xs[c + 1]:
                texts.setdefault(c, []).append(w.text)
    numeric = sum(1 for t in texts.values() if is_numeric(" ".join(t)))
    return numeric >= 2 and numeric >= 0.5 * len(texts)


def _row_groups(table: GridTable) -> list[tuple[int, int]]:
    """Consecutive grid rows tied together by row-spanning cells, as (first, last)."""
    reach = list(range(table.n_rows))
    for c in table.cells:
        reach[c.row] = max(reach[c.row], c.row + c.row_span - 1)
    groups: list[tuple[int, int]] = []
    start, end = 0, -1
    for r in range(table.n_rows):
        if r > end and r > start:
            groups.append((start, end))
            start = r
        end = max(end, reach[r])
    if table.n_rows:
        groups.append((start, max(end, start)))
    return groups


def _beside(group: list[list[PointWord]], line: list[PointWord], xs: list[float]) -> bool:
    """A values-only line next to a label-only row (values centred beside a wrapped label)
    whose columns do not overlap the row's."""

    def cols(words: list[PointWord]) -> set[int]:
        return {c for w in words for c in range(len(xs) - 1) if xs[c] <= w.box.cx < xs[c + 1]}

    return not cols([w for ln in group for w in ln]) & cols(line)


def _text_rows(lines: list[list[PointWord]], xs: list[float]) -> list[list[list[PointWord]]] | None:
    """Text lines → rows when at least two of them are data lines (else ``None``): every
    data line is a row; a label line is a row too (a section label) unless it continues the
    text above it (a wrapped cell)."""
    data = {i for i, line in enumerate(lines) if _is_data_line(line, xs)}
    if len(data) < 2:
        return None
    groups: list[list[list[PointWord]]] = []
    has_data: list[bool] = []
    for i, line in enumerate(lines):
        text = " ".join(w.text for w in line)
        prev_text = " ".join(w.text for w in groups[-1][-1]) if groups else ""
        if groups and i not in data and continues(prev_text, text):
            groups[-1].append(line)
        elif (
            groups
            and i in data
            and not has_data[-1]
            and (continues(prev_text, text) or _beside(groups[-1], line, xs))
        ):
            groups[-1].append(line)
            has_data[-1] = True
        else:
            groups.append([line])
            has_data.append(i in data)
    return groups


def split_unruled_rows(table: GridTable, xs: list[float]) -> GridTable:
    """Split ruled rows that hold several data lines (tables ruled only between columns,
    or only around the header) into one row per data line, keeping the column structure
    (and column spans) of the ruled cells each new row runs through."""
    new_cells: list[Cell] = []
    next_row = 0
    # Each group's cells are taken before any is renumbered: a group left whole moves its
    # cells' rows down, where a later group's filter would take them a second time.
    groups = [
        (first, last, [c for c in table.cells if first <= c.row <= last])
        for first, last in _row_groups(table)
    ]
    for first, last, group in groups:
        lines = group_lines([w for c in group for w in c.words])
        rows = _text_rows(lines, xs)
        if rows is None:
            for c in group:
                c.row = next_row + (c.row - first)
                new_cells.append(c)
            next_row += last - first + 1
            continue
        top = min(c.box.y0 for c in group)
        bottom = max(c.box.y1 for c in group)
        edges = [top]
        for a, b in itertools.pairwise(rows):
            lower = max(w.box.y1 for ln in a for w in ln)
            upper = min(w.box.y0 for ln in b for w in ln)
            edges.append((lower + upper) / 2)
        edges.append(bottom)
        for k, row_lines in enumerate(rows):
            y0, y1 = edges[k], edges[k + 1]
            words = [w for ln in row_lines for w in ln]
            # the ruled cells this band runs through, the most overlapped first per column
            overlapping = sorted(
                group,
                key=lambda c: -(min(c.box.y1, y1) - max(c.box.y0, y0)),
            )
            taken: set[int] = set()
            for c in overlapping:
                if min(c.box.y1, y1) - max(c.box.y0, y0) <= 0:
                    break
                cols = set(range(c.col, c.col + c.col_span))
                if cols & taken:
                    continue
                taken |= cols
                inside = [w for w in words if c.box.x0 <= w.box.cx < c.box.x1]
                box = Box(c.box.x0, y0, c.box.x1, y1)
                new_cells.append(
                    Cell(next_row, c.col, 1, c.col_span, box, join_words(inside), inside)
                )
            next_row += 1
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
    if len(filled) < 0.1 * table.n_rows * table.n_cols:
        return False  # a chart's bars or a form's boxes, not a table
    cols_used = {c.col for c in filled}
    rows_used = {c.row for c in filled}
    return len(cols_used) >= 2 and len(rows_used) >= 2


def ruled_confidence(table: GridTable, words: list[PointWord]) -> float:
    filled = sum(1 for c in table.cells if c.text)
    fill = filled / max(1, len(table.cells))
    conf = sum(w.confidence for w in words) / len(words) if words else 0.0
    return round(min(1.0, 0.6 + 0.4 * fill) * conf, 3)


def table_box(cells: list[Cell]) -> Box:
    return union_all([c.box for c in cells])


def extend_sideways(table: GridTable, words: list[PointWord], em: float) -> GridTable:
    """Add columns for text beside a ruled grid that lines up with its rows: tables often
    rule only their number columns and leave the label column (or a last column) open.
    A frame of one column (a box, perhaps with a rule under its first line) is left as it
    is: it rules no column that text beside it could line up with, and its own words hold
    its columns (the whitespace finder takes them when the frame is no table); taken as a
    grid, a list or prose beside it became its second column and the table inside one cell."""
    if not table.xs or not table.ys or table.n_cols < 2:
        return table
    inside_y = [w for w in words if table.box.y0 <= w.box.cy <= table.box.y1]
    bands = len(table.ys) - 1
    new_left: list[float] = []
    new_right: list[float] = []
    for side in ("left", "right"):
        if side == "left":
            cand = [w for w in inside_y if w.box.x1 <= table.box.x0 + 1]
        else:
            cand = [w for w in inside_y if w.box.x0 >= table.box.x1 - 1]
        groups = _interval_groups(cand, em)
        if side == "left":
            groups.reverse()  # nearest the grid first
        edge = table.box.x0 if side == "left" else table.box.x1
        added: list[float] = []
        for x0, x1, members in groups:
            gap = (edge - x1) if side == "left" else (x0 - edge)
            rows = {
                r
                for w in members
                for r in range(bands)
                if table.ys[r] <= w.box.cy < table.ys[r + 1]
            }
            if gap > 3 * em or len(rows) < max(2, 0.4 * bands) or _running_text(members):
                break
            if side == "left":
                added.append(x0 - 1)
                edge = x0
            else:
                added.append(x1 + 1)
                edge = x1
        if side == "left":
            new_left = sorted(added)
        else:
            new_right = sorted(added)
    if not new_left and not new_right:
        return table
    shift = len(new_left)
    left_edges = [*new_left, table.xs[0]]
    right_edges = [table.xs[-1], *new_right]
    cells = [Cell(c.row, c.col + shift, c.row_span, c.col_span, c.box) for c in table.cells]
    for r in range(bands):
        for k in range(len(left_edges) - 1):
            box = Box(left_edges[k], table.ys[r], left_edges[k + 1], table.ys[r + 1])
            cells.append(Cell(r, k, 1, 1, box))
        for k in range(len(right_edges) - 1):
            box = Box(right_edges[k], table.ys[r], right_edges[k + 1], table.ys[r + 1])
            cells.append(Cell(r, shift + table.n_cols + k, 1, 1, box))
    xs = left_edges[:-1] + table.xs + right_edges[1:]
    return GridTable(
        table.page,
        Box(xs[0], table.box.y0, xs[-1], table.box.y1),
        cells,
        table.n_rows,
        len(xs) - 1,
        table.kind,
        xs=xs,
        ys=table.ys,
    )


def _running_text(words: list[PointWord]) -> bool:
    """Words beside a grid that read as a column of running text (most of at least four
    lines hold six words or more), not a label column the grid left unruled."""
    lines = group_lines(words)
    if len(lines) < 4:
        return False
    return sum(1 for line in lines if len(line) >= 6) >= 0.6 * len(lines)


def _interval_groups(
    words: list[PointWord], em: float
) -> list[tuple[float, float, list[PointWord]]]:
    """Words merged into x-ranges that no gap wider than an ``em`` separates."""
    groups: list[tuple[float, float, list[PointWord]]] = []
    for w in sorted(words, key=lambda w: w.box.x0):
        if groups and w.box.x0 <= groups[-1][1] + em:
            x0, x1, members = groups[-1]
            groups[-1] = (x0, max(x1, w.box.x1), [*members, w])
        else:
            groups.append((w.box.x0, w.box.x1, [w]))
    return groups


def drop_empty(table: GridTable) -> GridTable:
    """Remove rows and columns without any text (thin bands between double rules, zebra
    shading, a ruled margin): they carry no data and shift every index after them."""
    texts = [c for c in table.cells if c.text]
    keep_rows = sorted({r for c in texts for r in [c.row]})
    keep_cols = sorted({k for c in texts for k in [c.col]})
    if len(keep_rows) == table.n_rows and len(keep_cols) == table.n_cols:
        return table
    row_index = {r: i for i, r in enumerate(keep_rows)}
    col_index = {k: i for i, k in enumerate(keep_cols)}
    cells: list[Cell] = []
    for c in table.cells:
        rows = [r for r in range(c.row, c.row + c.row_span) if r in row_index]
        cols = [k for k in range(c.col, c.col + c.col_span) if k in col_index]
        if not rows or not cols:
            continue
        # an empty cell whose first row/column went still owns the positions left
        c.row, c.col = row_index[rows[0]], col_index[cols[0]]
        c.row_span, c.col_span = len(rows), len(cols)
        cells.append(c)
    table.cells = cells
    table.n_rows, table.n_cols = len(keep_rows), len(keep_cols)
    return table


def split_wide_cells(table: GridTable, em: float) -> GridTable:
    """A ruled cell over several columns that holds separate phrases, each above its own
    columns (headings whose separating rules were not drawn), becomes one cell per phrase."""
    if not table.xs:
        return table
    xs = table.xs
    out: list[Cell] = []
    for c in table.cells:
        if c.col_span < 2 or not c.words:
            out.append(c)
            continue
        groups: list[tuple[float, float, list[PointWord]]] = []
        for w in sorted(c.words, key=lambda w: w.box.x0):
            if groups and w.box.x0 - groups[-1][1] <= em:
                x0, x1, members = groups[-1]
                groups[-1] = (x0, max(x1, w.box.x1), [*members, w])
            else:
                groups.append((w.box.x0, w.box.x1, [w]))
        owner: dict[int, int] = {}
        for col in range(c.col, c.col + c.col_span):
            overlaps = [min(g[1], xs[col + 1]) - max(g[0], xs[col]) for g in groups]
            best = max(range(len(groups)), key=lambda i: overlaps[i])
            if overlaps[best] > 0:
                owner[col] = best
        cols_of = {g: sorted(k for k, v in owner.items() if v == g) for g in range(len(groups))}
        contiguous = all(
            cols and cols == list(range(cols[0], cols[-1] + 1)) for cols in cols_of.values()
        )
        if len(groups) < 2 or not contiguous:
            out.append(c)
            continue
        for g, cols in cols_of.items():
            words = groups[g][2]
            box = Box(xs[cols[0]], c.box.y0, xs[cols[-1] + 1], c.box.y1)
            out.append(Cell(c.row, cols[0], c.row_span, len(cols), box, join_words(words), words))
        for col in range(c.col, c.col + c.col_span):
            if col not in owner:
                box = Box(xs[col], c.box.y0, xs[col + 1], c.box.y1)
                out.append(Cell(c.row, col, c.row_span, 1, box))
    table.cells = out
    return table
