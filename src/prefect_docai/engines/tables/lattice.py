"""Ruled tables: grids from intersecting horizontal and vertical rules.

Connected rules form a table; the distinct rule positions give the finest grid, and a grid
edge without a rule along (most of) it merges the two cells beside it into a span.
"""

from __future__ import annotations

from prefect_docai.engines.tables.geometry import Box, Ruling, cluster_values
from prefect_docai.engines.tables.grid import Cell, GridTable

_TOL = 2.5
"""Points of slack when deciding that two rules touch (stroke widths, snapping)."""
_MIN_CELL = 4.0
"""Rows/columns thinner than this (double rules, shading offsets) fold into a neighbour."""


def _touches(h: Ruling, v: Ruling) -> bool:
    return (
        min(h.x0, h.x1) - _TOL <= v.x0 <= max(h.x0, h.x1) + _TOL
        and min(v.y0, v.y1) - _TOL <= h.y0 <= max(v.y0, v.y1) + _TOL
    )


def _components(hs: list[Ruling], vs: list[Ruling]) -> list[tuple[list[Ruling], list[Ruling]]]:
    parent = list(range(len(hs) + len(vs)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, h in enumerate(hs):
        for j, v in enumerate(vs):
            if _touches(h, v):
                a, b = find(i), find(len(hs) + j)
                if a != b:
                    parent[a] = b
    groups: dict[int, tuple[list[Ruling], list[Ruling]]] = {}
    for i, h in enumerate(hs):
        groups.setdefault(find(i), ([], []))[0].append(h)
    for j, v in enumerate(vs):
        groups.setdefault(find(len(hs) + j), ([], []))[1].append(v)
    return list(groups.values())


def _fold_thin(edges: list[float]) -> list[float]:
    out = [edges[0]]
    for e in edges[1:]:
        if e - out[-1] < _MIN_CELL:
            # keep the outer edge at the ends so the table keeps its full extent
            if len(out) == 1:
                continue
            out[-1] = (out[-1] + e) / 2 if e != edges[-1] else e
        else:
            out.append(e)
    return out


def _covered(segs: list[Ruling], pos: float, start: float, end: float, horizontal: bool) -> bool:
    """Is the grid edge at ``pos`` from ``start`` to ``end`` drawn (≥ 70 % of it)?"""
    need = (end - start) * 0.7
    got = 0.0
    for s in segs:
        across = s.y0 if horizontal else s.x0
        if abs(across - pos) > _TOL + 0.5:
            continue
        a, b = (
            (min(s.x0, s.x1), max(s.x0, s.x1)) if horizontal else (min(s.y0, s.y1), max(s.y0, s.y1))
        )
        got += max(0.0, min(b, end) - max(a, start))
    return got >= need


def find_ruled_tables(page: int, segments: list[Ruling]) -> list[GridTable]:
    hs = [s for s in segments if s.horizontal]
    vs = [s for s in segments if not s.horizontal]
    tables: list[GridTable] = []
    for comp_h, comp_v in _components(hs, vs):
        if len(comp_h) < 2 or len(comp_v) < 2:
            continue
        xs = _fold_thin(cluster_values([v.x0 for v in comp_v], _TOL))
        ys = _fold_thin(cluster_values([h.y0 for h in comp_h], _TOL))
        if len(xs) < 2 or len(ys) < 2:
            continue
        table = _grid(page, xs, ys, comp_h, comp_v)
        if table is not None:
            tables.append(table)
    return tables


def _grid(
    page: int, xs: list[float], ys: list[float], hs: list[Ruling], vs: list[Ruling]
) -> GridTable | None:
    n_rows, n_cols = len(ys) - 1, len(xs) - 1
    parent = list(range(n_rows * n_cols))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for r in range(n_rows):
        for c in range(n_cols):
            if c + 1 < n_cols and not _covered(vs, xs[c + 1], ys[r], ys[r + 1], False):
                parent[find(r * n_cols + c)] = find(r * n_cols + c + 1)
            if r + 1 < n_rows and not _covered(hs, ys[r + 1], xs[c], xs[c + 1], True):
                parent[find(r * n_cols + c)] = find((r + 1) * n_cols + c)
    regions: dict[int, list[tuple[int, int]]] = {}
    for r in range(n_rows):
        for c in range(n_cols):
            regions.setdefault(find(r * n_cols + c), []).append((r, c))
    taken: set[tuple[int, int]] = set()
    cells: list[Cell] = []
    for members in sorted(regions.values()):
        r0 = min(r for r, _ in members)
        c0 = min(c for _, c in members)
        r1 = max(r for r, _ in members)
        c1 = max(c for _, c in members)
        if (r0, c0) in taken:
            continue
        # a non-rectangular region (a rule missing mid-table) keeps the largest free
        # rectangle from its top-left corner; positions left over become single cells, so
        # every grid position has exactly one owner
        c_end = c0
        while c_end < c1 and (r0, c_end + 1) not in taken:
            c_end += 1
        c1 = c_end
        r_end = r0
        while r_end < r1 and all((r_end + 1, c) not in taken for c in range(c0, c1 + 1)):
            r_end += 1
        r1 = r_end
        for r in range(r0, r1 + 1):
            for c in range(c0, c1 + 1):
                taken.add((r, c))
        cells.append(
            Cell(r0, c0, r1 - r0 + 1, c1 - c0 + 1, Box(xs[c0], ys[r0], xs[c1 + 1], ys[r1 + 1]))
        )
    for r in range(n_rows):
        for c in range(n_cols):
            if (r, c) not in taken:
                taken.add((r, c))
                cells.append(Cell(r, c, 1, 1, Box(xs[c], ys[r], xs[c + 1], ys[r + 1])))
    if len(cells) < 2:
        return None
    return GridTable(
        page, Box(xs[0], ys[0], xs[-1], ys[-1]), cells, n_rows, n_cols, "ruled", xs=xs, ys=ys
    )
