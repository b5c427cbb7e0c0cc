"""Layout columns inside a whitespace block. A block the finder formed may hold text that
stands side by side in separate layout columns (a contents list beside a table, a table
beside a key-value block, two tables side by side), each column with its own lines. A
table's columns share its rows: the words on either side of a column gap sit on the same
baselines, row after row. Two layout columns keep their own line spacing, so across the
gutter between them lines meet on a baseline now and then only. That is the structural cut
made here (an XY cut): a gutter that no run of a table's rows crosses parts the block, and
the sides are read apart; a horizontal cut is made only to reach a band of such columns
under or over a table across the page. No threshold is fitted to data; the constants say
what they stand for."""

from __future__ import annotations

import itertools

from prefect_docai.engines.tables.geometry import PointWord
from prefect_docai.engines.tables.grid import group_lines

Lines = list[list[PointWord]]

_BASELINE = 0.15
"""Baselines closer than this (in glyph heights) are one text line (as ``stream._aligned``)."""
_ROWS = 2
"""Lines that meet across a gutter on their baselines, one after the other (``_table_runs``),
that make it a table's column gap: a header and one row, the fewest lines of a table (an
invoice's line items may be one). Two layout columns that start together at a band's top
may meet on two baselines by chance: they are told apart where their spacings part them
(``_table_runs``), and stay one block when one of them ends first."""
_JITTER = 0.5
"""How much wider than the gaps between a table's lines (in glyph heights) a gap must be to
part two bands: a scan's line boxes move by a pixel or two. Set once, not tuned."""
_DEPTH = 3
"""How many horizontal cuts deep :func:`layout_parts` looks for a band of side-by-side
columns inside a block (a block holds a few bands). Set once, not tuned."""


def gutters(lines: Lines, em: float) -> list[tuple[float, float]]:
    """The gutters of a block of ``lines``, the widest first: strips at least a glyph height
    wide that the words of at most one line in eight enter (a heading or a sentence across
    the page may run over one), both sides holding words on at least two lines."""
    words = [w for line in lines for w in line]
    allowed = max(1, len(lines) // 8)
    events = sorted([(w.box.x0, 1) for w in words] + [(w.box.x1, -1) for w in words])
    found: list[tuple[float, float]] = []
    depth = 0
    low: float | None = None  # where the open words fell to ``allowed`` or fewer
    for x, delta in events:
        depth += delta
        if depth <= allowed and low is None:
            low = x
        elif depth > allowed and low is not None:
            g0, g1 = low, x
            low = None
            if g1 - g0 < em:
                continue
            left = {round(w.box.cy) for w in words if w.box.cx < g0}
            right = {round(w.box.cy) for w in words if w.box.cx > g1}
            if len(left) >= 2 and len(right) >= 2:
                found.append((g0, g1))
    found.sort(key=lambda g: g[0] - g[1])
    return found


def _table_runs(lines: Lines, gutter: tuple[float, float], em: float) -> list[tuple[int, int]]:
    """The stretches of ``lines`` (first and last index) in which at least ``_ROWS`` lines hold
    words on both sides of ``gutter`` on one baseline: the rows of a table across the
    gutter. A line between them with words on one side only (a wrapped cell's rest, a
    section label) leaves the stretch open; a gap between two lines wider than any above the
    stretch's rows so far (the space between two bands of the page: a table's rows keep their
    spacing) ends it. Two layout columns that keep their own line spacing meet on a baseline
    now and then only: where they start together at a band's top, their first lines may
    share baselines, until their spacings part them and a line of each, joined by the page's
    line grouping, stands on two baselines. Such a line voids the open stretch: the lines
    before it met by chance (a contents list beside a form, a key-value block beside prose,
    two tables side by side), so they make no run."""
    mid = (gutter[0] + gutter[1]) / 2
    runs: list[tuple[int, int]] = []
    rows: list[int] = []  # the open stretch's lines across the gutter
    widest = 0.0  # its widest gap above a row (a wrapped cell's lines sit closer)

    def close() -> None:
        nonlocal widest
        if len(rows) >= _ROWS:
            runs.append((rows[0], rows[-1]))
        rows.clear()
        widest = 0.0

    for i, line in enumerate(lines):
        gap = min(w.box.y0 for w in line) - max(w.box.y1 for w in lines[i - 1]) if i else 0.0
        if len(rows) >= 2 and gap > widest + _JITTER * em:
            close()
        # the words next to the gutter (a line may also hold a third column's words); a
        # word that enters the strip goes to the side of its middle
        left = [w for w in line if w.box.cx < mid]
        right = [w for w in line if w.box.cx >= mid]
        if not (left and right):
            continue
        inner = max(left, key=lambda w: w.box.x1).box.y1
        outer = min(right, key=lambda w: w.box.x0).box.y1
        if abs(inner - outer) < _BASELINE * em:
            if rows:
                widest = max(widest, gap)
            rows.append(i)
        else:
            # the sides are out of step: what met before met by chance
            rows.clear()
            close()
    close()
    return runs


def _entered(lines: Lines, gutter: tuple[float, float]) -> int:
    """How many lines hold a word that enters ``gutter``."""
    g0, g1 = gutter
    return sum(1 for line in lines if any(w.box.x0 < g1 and w.box.x1 > g0 for w in line))


def layout_parts(
    lines: Lines, em: float, depth: int = 0, bound: frozenset[int] = frozenset()
) -> list[list[PointWord]] | None:
    """The words of a block (``lines``, top to bottom) by layout column, None when the block
    is one layout column. Cut at a gutter whose sides are apart (no table's rows run across
    it, :func:`_table_runs`), each side cut again; where no gutter parts the block, at its
    widest gap between two lines (never between the rows of a table that runs across a
    gutter: ``bound`` holds the lines that stay with the line above), kept only when a part
    above or below is cut into columns (a band of side-by-side blocks over or under a
    table across the page)."""
    if len(lines) < 4:
        return None
    found = gutters(lines, em)
    runs: dict[tuple[float, float], list[tuple[int, int]]] = {}  # every gutter's, once
    # a gutter no line enters first (a text column's edge; a table's column gap that a
    # wrapped cell or a heading enters is no better than one), then the widest
    for g0, g1 in sorted(found, key=lambda g: (_entered(lines, g), g[0] - g[1])):
        runs[(g0, g1)] = _table_runs(lines, (g0, g1), em)
        if runs[(g0, g1)]:
            continue
        mid = (g0 + g1) / 2
        words = [w for line in lines for w in line]
        out: list[list[PointWord]] = []
        for side in ([w for w in words if w.box.cx < mid], [w for w in words if w.box.cx >= mid]):
            side_lines = group_lines(side)
            out.extend(layout_parts(side_lines, em, depth) or [side])
        return out
    if depth >= _DEPTH:
        return None
    bound = bound | {
        id(lines[j])
        for gutter in found
        for a, b in runs[gutter]
        for j in range(a + 1, b + 1)
    }
    gaps = [
        (min(w.box.y0 for w in below) - max(w.box.y1 for w in above), k)
        for k, (above, below) in enumerate(itertools.pairwise(lines), start=1)
        if id(below) not in bound
    ]
    if not gaps:
        return None
    k = max(gaps)[1]
    upper = layout_parts(lines[:k], em, depth + 1, bound)
    lower = layout_parts(lines[k:], em, depth + 1, bound)
    if upper is None and lower is None:
        return None
    flat = [[w for line in part for w in line] for part in (lines[:k], lines[k:])]
    return (upper or [flat[0]]) + (lower or [flat[1]])
