"""Where does a table row end? A learned decision between every two text lines of a table.

The finders decide rows by rules: a ruled grid by its rules (with ``split_unruled_rows``
cutting a ruled band at its data lines), a whitespace table by its lines (a wrapped cell's
continuation joins the row above when it starts lowercase or follows a connector word).
Tables ruled only around the header, only between columns or only by an outer box, and
wrapped cells that do not read as continuations, fool those rules (the row/merged losses of
``benchmarks/tables_loss.py``). ``line_features`` describes each pair of consecutive text
lines of a candidate (vertical gap, absolute and against the table's typical gap; a rule
between them; how the lower line starts and the upper one ends; which columns each fills,
numbers in them; whether the finder put them in one row) and ``split_rows`` regroups the
candidate's lines into rows where a gradient-boosted tree ensemble
(``engines/data/table_rowsep.json``, trained by ``training/tables.py`` on generated tables
with exact cell boxes) sees a row boundary. Columns stay as the finder made them, and the
model never joins two lines that both hold a number in one column (``stacked_numbers``),
nor a labelled data row to a label-only line above it (a section row, ``_label_above``).
The finder's header rows stand; in a table the region model kept, a last header line the
finder joined to the header line above it, a label in the first column only, leaves the
header where the model is sure a new row starts there (a section row right under the
header; ``free_header``).
"""

from __future__ import annotations

import functools
import itertools
import math
import re
from statistics import median

from prefect_docai.engines.tables.geometry import Box, PageInput, PointWord, union_all
from prefect_docai.engines.tables.grid import Cell, GridTable, group_lines, is_numeric, join_words
from prefect_docai.engines.tables.regions import RegionModel, load_shipped
from prefect_docai.engines.tables.stream import continues
from prefect_docai.engines.tables.structure import drop_empty, header_rows, table_box

ROWSEP_MODEL_FILE = "table_rowsep.json"

ROWSEP_FEATURE_NAMES: tuple[str, ...] = (
    "ocr",
    "ruled",
    "log_cols",
    "log_lines",
    "finder_split",
    "rule_between",
    "gap_em",
    "gap_rel",
    "gap_min_rel",
    "height_ratio",
    "lower_start",
    "continues",
    "prev_hyphen",
    "prev_sentence_end",
    "cols_share",
    "prev_cols_share",
    "subset_of_prev",
    "disjoint_from_prev",
    "first_col",
    "prev_first_col",
    "numeric_share",
    "prev_numeric_share",
    "numeric_cols_hit",
    "prev_numeric_cols_hit",
    "indent_em",
    "from_top",
    "log_words",
)

_NONE = -1.0


class _Line:
    """A text line of a candidate: its words, each with the cell (index) it came from."""

    def __init__(self, words: list[tuple[PointWord, int]]) -> None:
        self.words = words
        self.box = union_all([w.box for w, _ in words])
        self.height = median(w.box.height for w, _ in words)

    def cols(self, cells: list[Cell]) -> set[int]:
        return {cells[i].col for _, i in self.words}

    def text(self) -> str:
        return " ".join(w.text for w, _ in self.words)


def table_lines(table: GridTable) -> tuple[list[_Line], list[Cell]]:
    """The candidate's text lines (top to bottom) and its cells with words, in the order
    the lines' cell indices refer to."""
    cells = [c for c in table.cells if c.words]
    owner = {id(w): i for i, c in enumerate(cells) for w in c.words}
    words = [w for c in cells for w in c.words]
    lines = [_Line([(w, owner[id(w)]) for w in members]) for members in group_lines(words)]
    return lines, cells


def line_features(
    table: GridTable, page: PageInput
) -> tuple[list[_Line], list[Cell], list[list[float]]]:
    """The candidate's lines, its cells, and one feature vector per line after the first
    (``ROWSEP_FEATURE_NAMES`` order): the line against the one above it."""
    lines, cells = table_lines(table)
    em = page.em() or 10.0
    n_cols = max(1, table.n_cols)
    gaps = [b.box.y0 - a.box.y1 for a, b in itertools.pairwise(lines)]
    typical = max(0.1 * em, median(gaps)) if gaps else em
    smallest = max(0.1 * em, min(gaps)) if gaps else em
    numeric_cols: set[int] = set()
    votes: dict[int, list[bool]] = {}
    for c in cells:
        if c.col_span == 1:
            votes.setdefault(c.col, []).append(is_numeric(c.text))
    numeric_cols = {k for k, v in votes.items() if len(v) >= 2 and sum(v) >= 0.6 * len(v)}
    box = table.box
    rules = [
        s
        for s in page.segments
        if s.horizontal and min(s.x1, box.x1) - max(s.x0, box.x0) >= 0.3 * box.width
    ]

    def col_texts(line: _Line) -> dict[int, str]:
        out: dict[int, str] = {}
        for w, i in line.words:
            k = cells[i].col
            out[k] = (out.get(k, "") + " " + w.text).strip()
        return out

    def numeric_share(texts: dict[int, str]) -> float:
        return sum(is_numeric(t) for t in texts.values()) / max(1, len(texts))

    def numeric_hit(texts: dict[int, str]) -> float:
        if not numeric_cols:
            return _NONE
        return sum(1 for k, t in texts.items() if k in numeric_cols and is_numeric(t)) / len(
            numeric_cols
        )

    out: list[list[float]] = []
    for k in range(1, len(lines)):
        prev, line = lines[k - 1], lines[k]
        here, above = col_texts(line), col_texts(prev)
        gap = line.box.y0 - prev.box.y1
        split = {cells[i].row for _, i in line.words} != {cells[i].row for _, i in prev.words}
        ruled = any(prev.box.cy <= s.y0 <= line.box.cy for s in rules)
        first = line.text()
        prev_text = prev.text()
        first_col = min(here)
        indent = _NONE
        if first_col in above:
            x_here = min(w.box.x0 for w, i in line.words if cells[i].col == first_col)
            x_above = min(w.box.x0 for w, i in prev.words if cells[i].col == first_col)
            indent = (x_here - x_above) / em
        out.append(
            [
                1.0 if page.ocr else 0.0,
                1.0 if table.kind == "ruled" else 0.0,
                math.log1p(n_cols),
                math.log1p(len(lines)),
                1.0 if split else 0.0,
                1.0 if ruled else 0.0,
                gap / em,
                gap / typical,
                gap / smallest,
                line.height / max(1e-6, prev.height),
                1.0 if first[:1].islower() else 0.0,
                1.0 if continues(above.get(first_col, prev_text), first) else 0.0,
                1.0 if prev_text.endswith("-") else 0.0,
                1.0 if re.search(r"[.!?:;]$", prev_text) else 0.0,
                len(here) / n_cols,
                len(above) / n_cols,
                1.0 if set(here) <= set(above) else 0.0,
                1.0 if not set(here) & set(above) else 0.0,
                1.0 if 0 in here else 0.0,
                1.0 if 0 in above else 0.0,
                numeric_share(here),
                numeric_share(above),
                numeric_hit(here),
                numeric_hit(above),
                indent,
                float(min(k, 5)),
                math.log1p(len(line.words)),
            ]
        )
    return lines, cells, out


def regroup(
    table: GridTable,
    lines: list[_Line],
    cells: list[Cell],
    breaks: list[bool],
    keep: list[Cell] | None = None,
) -> GridTable:
    """``table`` with ``lines`` grouped into rows below the header cells ``keep`` (rows
    ``0..table.header_rows - 1``, taken as they are): a new row starts at ``lines[k]`` when
    ``breaks[k - 1]``; each word stays in its cell's column (and column span)."""
    if not lines:
        return table
    offset = table.header_rows if keep else 0
    row_of: list[int] = [offset]
    for b in breaks:
        row_of.append(row_of[-1] + (1 if b else 0))
    n_rows = row_of[-1] + 1
    groups: dict[tuple[int, int], tuple[int, list[PointWord]]] = {}
    for k, line in enumerate(lines):
        for w, i in line.words:
            c = cells[i]
            key = (row_of[k], c.col)
            span, words = groups.get(key, (1, []))
            groups[key] = (max(span, c.col_span), [*words, w])
    xs = table.xs if len(table.xs) == table.n_cols + 1 else []
    out: list[Cell] = [
        Cell(c.row, c.col, c.row_span, c.col_span, c.box, c.text, list(c.words))
        for c in keep or []
        if c.words
    ]
    taken: set[tuple[int, int]] = {
        (c.row + i, c.col + j) for c in out for i in range(c.row_span) for j in range(c.col_span)
    }
    for (r, col), (span, words) in sorted(groups.items()):
        if (r, col) in taken:
            # an earlier spanning cell of this row covers the column: its words join it
            owner = next(c for c in out if c.row == r and c.col <= col < c.col + c.col_span)
            owner.words += words
            continue
        span = min(span, table.n_cols - col)
        while span > 1 and any((r, col + j) in groups for j in range(1, span)):
            span -= 1
        taken.update((r, col + j) for j in range(span))
        out.append(Cell(r, col, 1, span, union_all([w.box for w in words]), "", words))
    for c in out[len([k for k in keep or [] if k.words]) :]:
        c.text = join_words(c.words)
    # grid boxes: the finder's column edges (where known) × the rows' extents
    row_y = []
    for r in range(n_rows):
        members = [c.box for c in out if c.row == r] or [
            c.box for c in out if c.row <= r < c.row + c.row_span
        ]
        row_y.append((min(b.y0 for b in members), max(b.y1 for b in members)))
    ys = [row_y[0][0]] + [(a[1] + b[0]) / 2 for a, b in itertools.pairwise(row_y)] + [row_y[-1][1]]
    if not xs:
        lefts: dict[int, float] = {}
        rights: dict[int, float] = {}
        for c in out:
            lefts[c.col] = min(lefts.get(c.col, c.box.x0), c.box.x0)
            rights[c.col + c.col_span - 1] = max(
                rights.get(c.col + c.col_span - 1, c.box.x1), c.box.x1
            )
        xs = [table.box.x0]
        for k in range(1, table.n_cols):
            right, left = rights.get(k - 1), lefts.get(k)
            xs.append((right + left) / 2 if right is not None and left is not None else xs[-1])
        xs.append(table.box.x1)
    for c in out:
        c.box = Box(xs[c.col], ys[c.row], xs[c.col + c.col_span], ys[c.row + c.row_span])
    taken_cells = {(c.row, k) for c in out for k in range(c.col, c.col + c.col_span)}
    for r in range(n_rows):
        for k in range(table.n_cols):
            if (r, k) not in taken_cells:
                out.append(Cell(r, k, 1, 1, Box(xs[k], ys[r], xs[k + 1], ys[r + 1])))
    out.sort(key=lambda c: (c.row, c.col))
    result = GridTable(
        table.page,
        table_box(out),
        out,
        n_rows,
        table.n_cols,
        table.kind,
        confidence=table.confidence,
        xs=list(xs),
        ys=ys,
    )
    result = drop_empty(result)
    result.box = table_box(result.cells)
    result.header_rows = header_rows(result)
    return result


def _wrapped_cell(x: list[float]) -> bool:
    """The next line of a text cell of a data row: text only, only under cells of the row
    above, not in its first column, at no more than the table's typical line gap, below a
    row with a first cell and numbers (an invoice line item's wrapped description)."""
    f = {name: x[i] for i, name in enumerate(ROWSEP_FEATURE_NAMES)}
    return bool(
        f["subset_of_prev"]
        and not f["first_col"]
        and f["prev_first_col"]
        and f["numeric_share"] == 0.0
        and f["prev_numeric_share"] > 0.0
        and not f["rule_between"]
        and f["gap_rel"] <= 1.2
    )


def stacked_numbers(lines: list[_Line], cells: list[Cell]) -> list[bool]:
    """Per pair of consecutive ``lines`` (as the features): do both lines hold a number
    in one and the same column? Two amounts stacked in a column are two rows, never one
    cell: ``split_rows`` lets no model join such lines (a guard of the structure, not a
    feature the model may outweigh)."""

    def numeric_cols(line: _Line) -> set[int]:
        texts: dict[int, list[str]] = {}
        for w, i in line.words:
            texts.setdefault(cells[i].col, []).append(w.text)
        return {k for k, t in texts.items() if is_numeric(" ".join(t))}

    cols = [numeric_cols(line) for line in lines]
    return [bool(a & b) for a, b in itertools.pairwise(cols)]


def _label_above(x: list[float]) -> bool:
    """A data row under a line that holds only a label (a section row, a stub heading, a
    label the finder cut in two): the upper line has text in the first column, no number,
    and fills one column or less than half of them; the lower line has a label of its own
    in the first column and is a data row (numbers in at least half of the table's numeric
    columns, or a number and at least half of the columns filled), does not read as the
    upper label's continuation (no lowercase start, connector or hyphen) and does not
    overlap it (on a scan: by more than ``OCR_SKEW_EM``). In the truth of the generated and
    ICDAR training pages (the finders' candidates, born-digital and scanned) such a pair
    starts a new row in 323 of 326 pairs (306 of 308 the finder parts, 17 of 18 it joins);
    fold models that learnt otherwise shifted every row of a sectioned table below the
    join. ``split_rows`` starts a row there whatever the model says."""
    f = {name: x[i] for i, name in enumerate(ROWSEP_FEATURE_NAMES)}
    n_cols = round(math.expm1(f["log_cols"]))
    label = round(f["prev_cols_share"] * n_cols) == 1 or f["prev_cols_share"] < 0.5
    data = f["numeric_cols_hit"] >= 0.5 or (f["numeric_share"] > 0.0 and f["cols_share"] >= 0.5)
    return bool(
        f["prev_first_col"]
        and label
        and f["prev_numeric_share"] == 0.0
        and f["first_col"]
        and data
        and not f["lower_start"]
        and not f["continues"]
        and not f["prev_hyphen"]
        and f["gap_em"] > (-OCR_SKEW_EM if f["ocr"] else 0.0)
    )


OCR_SKEW_EM = 0.5
"""How far (in ems) two lines of a scan may overlap and still count as apart in
``_label_above``: a page skewed by up to 0.7 degrees (the scans' range) lifts one end of a
table line 30 ems wide by about 0.4 em."""


SURE = 0.8
"""The model overrules the finder only when it is this sure (a new row at ``p >= SURE``,
none at ``p <= 1 - SURE``); in between the finder's rows stand."""


def split_rows(table: GridTable, page: PageInput, model: RowSepModel | None = None) -> GridTable:
    """``table`` with its body rows where the row-separator model puts them (``table``
    itself when there is no model or it agrees with the finder everywhere; see
    ``row_breaks``)."""
    decided = row_breaks(table, page, model)
    if decided is None:
        return table
    lines, cells, head, finder, breaks = decided
    if breaks == finder:
        return table
    keep = [c for c in table.cells if c.row < table.header_rows]
    return regroup(table, lines[head:], cells, breaks[head:], keep)


def free_header(table: GridTable, page: PageInput, model: RowSepModel | None = None) -> GridTable:
    """``table`` (a kept table, its rows as ``split_rows`` made them) with the last lines of
    its header that the finder joined to the header line above them, where the
    row-separator model is sure a new row starts and that hold a label in the first column
    only, moved below the header (``table`` itself when there are none): a section row right
    under the header ("Region | Sales" over "Europe"). The finder's
    whitespace header takes every line above the first data row into its header rows; the
    model, trained on every two lines of the truth tables (header lines too), tells such a
    line apart. The body keeps the rows it has. It runs on the tables the region model
    kept, after it: the candidates the row and region models learn from are those of
    ``split_rows``."""
    model = model if model is not None else load_rowsep_model()
    if model is None or table.header_rows < 1 or table.n_rows < 2 or not table.cells:
        return table
    lines, cells, feats = line_features(table, page)
    found = _header_lines(lines, cells, table.header_rows)
    if found is None:
        return table  # header and body lines interleave
    head = found
    breaks = [bool(x[4]) for x in feats]
    first = head

    def label_only(line: _Line) -> bool:
        # a section label fills the first column alone; a line across several columns
        # under a header line is as often the last line of multi-line headings (held out
        # by source, models trained without the ICDAR pages took those for new rows)
        return {cells[i].col for _, i in line.words} == {0}

    while (
        head >= 2
        and not breaks[head - 2]
        and label_only(lines[head - 1])
        and model.probability(feats[head - 2]) >= SURE
    ):
        head -= 1
        breaks[head - 1] = True
    if head == first:
        return table
    moved = {id(w) for line in lines[head:first] for w, _ in line.words}
    keep = []
    for c in table.cells:
        if c.row >= table.header_rows:
            continue
        words = [w for w in c.words if id(w) not in moved]
        if len(words) == len(c.words):
            keep.append(c)
        elif words:  # the heading without the lines moved below the header
            box = union_all([w.box for w in words])
            keep.append(Cell(c.row, c.col, c.row_span, c.col_span, box, join_words(words), words))
    return regroup(table, lines[head:], cells, breaks[head:], keep)


def _header_lines(lines: list[_Line], cells: list[Cell], header_rows: int) -> int | None:
    """How many of the candidate's first lines lie in its header rows (``None`` when a
    header line comes after a body line: header and body interleave)."""
    head = 0
    while head < len(lines) and all(cells[i].row < header_rows for _, i in lines[head].words):
        head += 1
    if any(cells[i].row < header_rows for line in lines[head:] for _, i in line.words):
        return None
    return head


def row_breaks(
    table: GridTable, page: PageInput, model: RowSepModel | None = None
) -> tuple[list[_Line], list[Cell], int, list[bool], list[bool]] | None:
    """The candidate's lines, its cells, the number of header lines, and per pair of
    consecutive lines whether the finder and whether the row-separator model starts a new
    row at the lower one (None when there is no model or nothing to decide). The finder's
    header rows (spans and all) stay as they are (``free_header`` frees their last lines),
    rows the finder parts stay apart where a rule runs between them or both hold a number in
    one column (``stacked_numbers``), and a labelled data row under a label-only line
    (``_label_above``) starts a row of its own (even where the finder joined them), whatever
    the model says."""
    model = model if model is not None else load_rowsep_model()
    if model is None or table.n_rows < 2 or not table.cells:
        return None
    lines, cells, feats = line_features(table, page)
    if not feats:
        return None
    head = _header_lines(lines, cells, table.header_rows)
    if head is None:
        return None  # header and body lines interleave: leave the finder's rows
    finder = [bool(x[4]) for x in feats]
    breaks = list(finder)
    ruled = ROWSEP_FEATURE_NAMES.index("rule_between")
    stacked = stacked_numbers(lines, cells)
    for k in range(head, len(feats)):
        if feats[k][ruled] and finder[k]:
            continue  # a rule across the table between the lines: the rows stay apart
        if stacked[k] and finder[k]:
            continue  # a number above a number in one column: the rows stay apart
        if _label_above(feats[k]):
            breaks[k] = True  # a data row with its own label under a label-only line
            continue
        if _wrapped_cell(feats[k]):
            breaks[k] = False
            continue
        p = model.probability(feats[k])
        breaks[k] = True if p >= SURE else False if p <= 1 - SURE else finder[k]
    return lines, cells, head, finder, breaks


RowSepModel = RegionModel
"""The same kind of JSON tree ensemble as the region model."""


@functools.cache
def load_rowsep_model() -> RowSepModel | None:
    """The shipped row-separator model, or None (the finders' rows stand)."""
    return load_shipped(ROWSEP_MODEL_FILE, ROWSEP_FEATURE_NAMES)
