"""The candidate finders in order: ruled tables first (their words are taken), then
whitespace tables in the words left over (charts' value labels left out)."""

from __future__ import annotations

from prefect_docai.engines.tables.geometry import Box, PageInput, PointWord
from prefect_docai.engines.tables.grid import GridTable, fill_cells
from prefect_docai.engines.tables.lattice import find_ruled_tables
from prefect_docai.engines.tables.stream import find_stream_tables
from prefect_docai.engines.tables.structure import (
    drop_empty,
    extend_sideways,
    header_rows,
    is_plausible,
    ruled_confidence,
    split_unruled_rows,
    split_wide_cells,
    table_box,
)


def find_tables(page: PageInput) -> list[GridTable]:
    """Ruled tables first (their words are taken), then whitespace tables in the rest."""
    found: list[GridTable] = []
    remaining = list(page.words)
    ruled = sorted(find_ruled_tables(page.number, page.segments), key=lambda t: t.box.y0)
    em = page.em()
    frames: list[Box] = []
    for found_table in ruled:
        table = extend_sideways(found_table, remaining, em)
        xs = sorted({c.box.x0 for c in table.cells} | {c.box.x1 for c in table.cells})
        used = fill_cells(table, remaining)
        if not is_plausible(table):
            for c in table.cells:
                c.words, c.text = [], ""
            if table.n_cols == 1:
                frames.append(table.box)
            continue
        table = drop_empty(split_wide_cells(split_unruled_rows(table, xs), em))
        table.header_rows = header_rows(table)
        table.confidence = ruled_confidence(table, used)
        table.box = table_box(table.cells)
        used_ids = {id(w) for w in used}
        remaining = [w for w in remaining if id(w) not in used_ids]
        found.append(table)
    if remaining:
        x0 = min(w.box.x0 for w in page.words)
        x1 = max(w.box.x1 for w in page.words)
        for table in (
            t
            for part in _framed(remaining, frames)
            for t in find_stream_tables(page.number, part, page.segments, x1 - x0)
        ):
            if any(table.box.intersection_area(r.box) > 0.2 * _area(table.box) for r in found):
                continue
            if _is_chart(table, page):
                continue
            found.append(table)
    found.sort(key=lambda t: (t.box.y0, t.box.x0))
    return found


def _framed(words: list[PointWord], frames: list[Box]) -> list[list[PointWord]]:
    """The words inside each frame (rules around a region that rule no column: a box, a
    box with a rule under its first line), and the words outside every frame, apart: a
    frame bounds what it holds, so the whitespace finder must not join a table inside a box
    with a list or prose beside it (their lines share the page's text lines). A word in
    nested frames goes with the smallest."""
    parts: dict[int, list[PointWord]] = {}
    for w in words:
        inside = [i for i, f in enumerate(frames) if f.contains_point(w.box.cx, w.box.cy)]
        key = min(inside, key=lambda i: _area(frames[i])) if inside else -1
        parts.setdefault(key, []).append(w)
    return [part for _, part in sorted(parts.items())]


def _is_chart(table: GridTable, page: PageInput) -> bool:
    """Value labels and axis ticks line up like a sparse table; the bars give a chart away:
    several filled shapes inside the region that hold no text and are narrower than it."""
    bars = 0
    for fill in page.fills:
        if not table.box.contains_point(fill.cx, fill.cy):
            continue
        if fill.width >= 0.5 * table.box.width:
            continue  # row shading
        if any(fill.contains_point(w.box.cx, w.box.cy) for w in page.words):
            continue  # cell shading
        bars += 1
    return bars >= 3


def _area(box: Box) -> float:
    return max(1e-6, box.width * box.height)
