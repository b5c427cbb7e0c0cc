"""Where does a table end? A learned per-row decision at a candidate's top and bottom.

The finders grow a whitespace (or partly ruled) table over the text lines that line up with
it; prose, a list or a key-value block directly above or below a table often lines up well
enough to be taken in. ``row_features`` describes each row of a candidate by what tells a
table row from such a line (whitespace between the row's words at column boundaries, how
its cells line up with the columns of the other rows, how many columns it fills, prose-
likeness, vertical gap to its neighbours, glyph size, rulings between it and the rest) and
``trim_rows`` peels the rows at the candidate's top and bottom that a gradient-boosted tree
ensemble (``engines/data/table_rows.json``, trained by ``training/tables.py``) takes for
non-table lines. Rows inside the table are never dropped. Whether a row sits on the column
grid of the rows under it (``on_grid``: a header row over its columns, not a caption cut
into cells) or of the rows above it (a data or total row, not a footnote), and whether such
a row is at or above it (at or below it), are features the model weighs. A whitespace
table that loses rows is made again from the rows kept (``peel``): the finder drew its
columns over the peeled lines too, and prose with wide word spaces, read as many chunks,
bridges column gaps (on the generated pages, born-digital and scanned, the largest share of
cells merged across columns).
"""

from __future__ import annotations

import functools
import itertools
import math
import re
from collections.abc import Callable
from dataclasses import replace
from statistics import median

from prefect_docai.engines.tables.geometry import PageInput, PointWord
from prefect_docai.engines.tables.grid import Cell, GridTable, is_numeric
from prefect_docai.engines.tables.regions import RegionModel, load_shipped
from prefect_docai.engines.tables.stream import rebuild
from prefect_docai.engines.tables.structure import drop_empty, header_rows, table_box

ROW_MODEL_FILE = "table_rows.json"

ROW_FEATURE_NAMES: tuple[str, ...] = (
    "ocr",
    "ruled",
    "log_cols",
    "from_top",
    "from_bottom",
    "filled_share",
    "aligned_share",
    "col_support",
    "min_col_gap_em",
    "median_word_gap_em",
    "log_words",
    "max_cell_words",
    "sentence",
    "lower_start",
    "marker",
    "colon",
    "numeric_share",
    "numeric_share_rest",
    "gap_above_em",
    "gap_below_em",
    "gap_above_rel",
    "gap_below_rel",
    "height_ratio",
    "width_share",
    "left_em",
    "right_em",
    "rule_above",
    "rule_below",
    "single_cell",
    "on_grid",
    "grid_at_or_above",
    "on_grid_above",
    "grid_at_or_below",
)
"""No feature counts the candidate's rows: with one, models trained without a source whose
tables are longer than the others' took every row of such a table for text outside it (in
the training pages, the few candidates over 30 rows were mostly merged trap pages)."""

_MARKER = re.compile(r"^(?:[•·◦▪‣∙*\-–—]|\(?[0-9ivxIVX]{1,4}[.)]|\(?[a-zA-Z][.)])$")
_NONE = -1.0
"""Value of a gap feature that does not exist (no neighbour row, a single cell)."""


def _span(words: list[PointWord]) -> tuple[float, float]:
    return min(w.box.x0 for w in words), max(w.box.x1 for w in words)


def row_features(table: GridTable, page: PageInput) -> list[list[float]]:
    """One feature vector per row of ``table`` (``ROW_FEATURE_NAMES`` order); a row's cells
    are those that start in it."""
    em = page.em() or 10.0
    n_rows, n_cols = max(1, table.n_rows), max(1, table.n_cols)
    rows: list[list[Cell]] = [[] for _ in range(n_rows)]
    for c in table.cells:
        if c.words and c.text.strip() and c.row < n_rows:
            rows[c.row].append(c)
    # each column's typical left/right/centre over single-column cells
    col_spans: dict[int, list[tuple[float, float]]] = {}
    for c in table.cells:
        if c.words and c.col_span == 1:
            col_spans.setdefault(c.col, []).append(_span(c.words))
    col_rows: dict[int, set[int]] = {}
    for c in table.cells:
        if c.words and c.text.strip():
            col_rows.setdefault(c.col, set()).add(c.row)
    extents: list[tuple[float, float] | None] = []
    heights: list[float] = []
    for cells in rows:
        words = [w for c in cells for w in c.words]
        if words:
            extents.append((min(w.box.y0 for w in words), max(w.box.y1 for w in words)))
            heights.append(median(w.box.height for w in words))
        else:
            extents.append(None)
    table_height = median(heights) if heights else em
    gaps = [b[0] - a[1] for a, b in itertools.pairwise(extents) if a is not None and b is not None]
    typical_gap = max(0.1 * em, median(gaps)) if gaps else em
    numeric_by_row = [
        sum(is_numeric(c.text) for c in cells) / len(cells) if cells else 0.0 for cells in rows
    ]
    grid = on_grid(table, page)
    grid_up = on_grid(table, page, above=True)
    box = table.box
    horizontals = [s for s in page.segments if s.horizontal and abs(s.x1 - s.x0) >= 0.5 * box.width]
    out: list[list[float]] = []
    for r, cells in enumerate(rows):
        words = sorted((w for c in cells for w in c.words), key=lambda w: w.box.x0)
        cell_of = {id(w): c.col for c in cells for w in c.words}
        texts = [c.text.strip() for c in cells]
        word_gaps = [(b.box.x0 - a.box.x1) / em for a, b in itertools.pairwise(words)]
        col_gaps = [
            g
            for g, a, b in zip(word_gaps, words, words[1:], strict=False)
            if cell_of[id(a)] != cell_of[id(b)]
        ]
        aligned = 0
        for c in cells:
            others = [s for s in col_spans.get(c.col, []) if c.col_span == 1]
            if c.col_span != 1 or len(others) < 2:
                continue
            lo, hi = _span(c.words)
            left = median(s[0] for s in others)
            right = median(s[1] for s in others)
            centre = median((s[0] + s[1]) / 2 for s in others)
            if min(abs(lo - left), abs(hi - right), abs((lo + hi) / 2 - centre)) <= 0.6 * em:
                aligned += 1
        support = [len(col_rows.get(c.col, set()) - {r}) / max(1, n_rows - 1) for c in cells]
        rest = [v for i, v in enumerate(numeric_by_row) if i != r and rows[i]]
        ext = extents[r]
        above = extents[r - 1] if r > 0 else None
        below = extents[r + 1] if r + 1 < n_rows else None
        gap_above = (ext[0] - above[1]) / em if ext and above else _NONE
        gap_below = (below[0] - ext[1]) / em if ext and below else _NONE
        rule_above = rule_below = 0.0
        if ext:
            top = above[1] if above else box.y0 - em
            bottom = below[0] if below else box.y1 + em
            rule_above = float(any(top - 1 <= s.y0 <= ext[0] + 1 for s in horizontals))
            rule_below = float(any(ext[1] - 1 <= s.y0 <= bottom + 1 for s in horizontals))
        joined = " ".join(texts)
        first = min(cells, key=lambda c: c.col).text.strip() if cells else ""
        first_word = first.split()[0] if first.split() else ""
        lo, hi = _span(words) if words else (box.x0, box.x0)
        n_words = len(words)
        out.append(
            [
                1.0 if page.ocr else 0.0,
                1.0 if table.kind == "ruled" else 0.0,
                math.log1p(n_cols),
                float(min(r, 5)),
                float(min(n_rows - 1 - r, 5)),
                len(cells) / n_cols,
                aligned / len(cells) if cells else 0.0,
                sum(support) / len(support) if support else 0.0,
                min(col_gaps) if col_gaps else _NONE,
                median(word_gaps) if word_gaps else _NONE,
                math.log1p(n_words),
                float(max((len(t.split()) for t in texts), default=0)),
                1.0 if n_words >= 5 and joined[-1:] in ".!?;:," else 0.0,
                sum(1 for t in texts if t[:1].islower()) / len(texts) if texts else 0.0,
                1.0 if _MARKER.match(first_word) else 0.0,
                1.0 if first.endswith(":") else 0.0,
                numeric_by_row[r],
                sum(rest) / len(rest) if rest else 0.0,
                gap_above,
                gap_below,
                gap_above * em / typical_gap if gap_above != _NONE else _NONE,
                gap_below * em / typical_gap if gap_below != _NONE else _NONE,
                heights[[i for i, e in enumerate(extents) if e is not None].index(r)]
                / max(1e-6, table_height)
                if ext
                else 1.0,
                (hi - lo) / max(1e-6, box.width),
                (lo - box.x0) / em,
                (box.x1 - hi) / em,
                rule_above,
                rule_below,
                1.0 if len(cells) == 1 else 0.0,
                1.0 if grid[r] else 0.0,
                1.0 if any(grid[: r + 1]) else 0.0,
                1.0 if grid_up[r] else 0.0,
                1.0 if any(grid_up[r:]) else 0.0,
            ]
        )
    return out


def on_grid(table: GridTable, page: PageInput, above: bool = False) -> list[bool]:
    """Per row of ``table``: does it sit on the column grid of the rows below it (with
    ``above``: of the rows above it)? True for a row of at least two single-column cells
    that fill at least 60 % of the columns those rows hold text in (a column counts when
    at least half of them fill it), each cell reaching into its own column's extent there
    (within an em) and into no other column's extent, with at least half an em between
    its cells: a header (or data) row over the columns, not a caption, a sentence or a
    key-value line cut into cells."""
    em = page.em() or 10.0
    n_rows = max(1, table.n_rows)
    rows: list[list[Cell]] = [[] for _ in range(n_rows)]
    for c in table.cells:
        if c.words and c.text.strip() and c.row < n_rows:
            rows[c.row].append(c)
    out: list[bool] = [False] * n_rows
    extent: dict[int, tuple[float, float]] = {}
    filled: dict[int, int] = {}
    below = 0
    order = range(n_rows) if above else range(n_rows - 1, -1, -1)
    for r in order:  # the rows below (above) are summed as we go
        cells = sorted(rows[r], key=lambda c: c.col)
        if len(cells) >= 2 and all(c.col_span == 1 for c in cells) and below:
            out[r] = _fits(cells, extent, filled, below, em)
        if cells:
            below += 1
            for k in {c.col for c in cells}:
                filled[k] = filled.get(k, 0) + 1
            for c in cells:
                if c.col_span == 1:
                    lo, hi = _span(c.words)
                    a, b = extent.get(c.col, (lo, hi))
                    extent[c.col] = (min(a, lo), max(b, hi))
    return out


def _fits(
    cells: list[Cell],
    extent: dict[int, tuple[float, float]],
    filled: dict[int, int],
    below: int,
    em: float,
) -> bool:
    """``on_grid`` for one row's ``cells`` (single-column, sorted by column) over the rows
    below it: each column's word ``extent``, the rows that ``filled`` it, ``below`` rows."""
    columns = {k for k, n in filled.items() if 2 * n >= below and k in extent}
    spans = [_span(c.words) for c in cells]
    if (
        len(columns) < 2
        or any(c.col not in columns for c in cells)
        or len(cells) < 0.6 * len(columns)
        or any(b[0] - a[1] < 0.5 * em for a, b in itertools.pairwise(spans))
    ):
        return False
    for c, (lo, hi) in zip(cells, spans, strict=True):
        own = extent[c.col]
        if hi < own[0] - em or lo > own[1] + em:
            return False
        for k in columns - {c.col}:
            a, b = extent[k]
            if min(hi, b) - max(lo, a) > 0.1 * em:
                return False
    return True


def keep_rows(probabilities: list[float], threshold: float) -> tuple[int, int]:
    """The rows kept, ``[start, stop)``: edge rows below ``threshold`` are peeled from the top
    and from the bottom, at least two rows stay."""
    start, stop = 0, len(probabilities)
    while stop - start > 2 and probabilities[start] < threshold:
        start += 1
    while stop - start > 2 and probabilities[stop - 1] < threshold:
        stop -= 1
    return start, stop


def slice_rows(table: GridTable, start: int, stop: int) -> GridTable:
    """A copy of ``table`` holding the rows ``[start, stop)`` (cells starting outside go;
    spans are clipped), renumbered, with empty columns dropped and its box recomputed."""
    if start == 0 and stop >= table.n_rows:
        return table
    cells: list[Cell] = []
    for c in table.cells:
        if not start <= c.row < stop:
            continue
        span = min(c.row_span, stop - c.row)
        cells.append(replace(c, row=c.row - start, row_span=span))
    out = GridTable(
        table.page,
        table_box(cells),
        cells,
        stop - start,
        table.n_cols,
        table.kind,
        confidence=table.confidence,
        xs=list(table.xs),
        ys=list(table.ys),
    )
    out = drop_empty(out)
    out.box = table_box(out.cells)
    out.header_rows = header_rows(out)
    return out


def peel(
    table: GridTable,
    page: PageInput,
    start: int,
    stop: int,
    regroup: Callable[[GridTable], GridTable] | None = None,
) -> GridTable:
    """``table`` with only its rows ``[start, stop)`` (``slice_rows``). A whitespace table
    that lost rows is made again from the words of the rows kept (``stream.rebuild``: its
    columns and header found without the peeled lines, which had drawn them), its rows then
    regrouped by ``regroup`` (the row-separator model, as the finder's rows were before the
    peeling); the sliced table stays where those words make no table."""
    out = slice_rows(table, start, stop)
    if table.kind != "stream" or (start == 0 and stop >= table.n_rows):
        return out
    made = rebuild(out, page.segments)
    if made is None:
        return out
    return regroup(made) if regroup is not None else made


def trim_rows(
    table: GridTable,
    page: PageInput,
    model: RowModel | None = None,
    regroup: Callable[[GridTable], GridTable] | None = None,
) -> GridTable:
    """``table`` without the lines at its top and bottom that the row model takes for text
    outside the table (``table`` itself when there is no model or nothing to peel); a
    whitespace table is made again from the rows kept (``peel``)."""
    model = model if model is not None else load_row_model()
    if model is None or table.n_rows <= 2 or not table.cells:
        return table
    probabilities = [model.probability(x) for x in row_features(table, page)]
    start, stop = keep_rows(probabilities, model.threshold)
    return peel(table, page, start, stop, regroup)


RowModel = RegionModel
"""The row model is the same kind of JSON tree ensemble as the region model."""


@functools.cache
def load_row_model() -> RowModel | None:
    """The shipped row model, or None when the package carries none (or an outdated one)."""
    return load_shipped(ROW_MODEL_FILE, ROW_FEATURE_NAMES)
