"""Unruled tables: columns from whitespace that stays open across consecutive text lines.

A text line whose words fall apart into several chunks (gaps wider than a glyph height) is
a table row candidate. Runs of such lines (short single-chunk lines allowed in between:
section labels, wrapped cells) form a block; its columns are the x-ranges that the chunks of
its fullest lines cover, separated by gaps no chunk crosses. Header lines above the first
data line collapse into header rows (with spans for group headings), and wrapped lines
join the row they continue.
"""

from __future__ import annotations

import itertools
import math
import re
from dataclasses import dataclass
from statistics import median

from prefect_docai.engines.tables.geometry import Box, PointWord, Ruling, union_all
from prefect_docai.engines.tables.grid import Cell, GridTable, group_lines, is_numeric, join_words
from prefect_docai.engines.tables.layout import gutters, layout_parts

_CHUNK_GAP = 0.9
"""Gap (in glyph heights) that separates two cells on a line; word spaces are ~0.3."""
_BLOCK_GAP = 2.6
"""Vertical gap (in glyph heights) that ends a table block."""
_CONNECTOR = re.compile(
    r"(?:[-/&,+(]|\b(?:and|or|of|the|for|in|to|with|by|on|at|from|a|an|"
    r"und|oder|der|die|das|des|für|von|mit|zu|im|et|ou|de|du|des|la|le|les|en|van|het|een))$",
    re.IGNORECASE,
)


@dataclass
class _Line:
    words: list[PointWord]
    chunks: list[list[PointWord]]
    box: Box
    em: float

    @property
    def multi(self) -> bool:
        return len(self.chunks) >= 2


def _chunks(words: list[PointWord], em: float) -> list[list[PointWord]]:
    out: list[list[PointWord]] = [[words[0]]]
    for prev, w in itertools.pairwise(words):
        if w.box.x0 - prev.box.x1 > _CHUNK_GAP * em:
            out.append([w])
        else:
            out[-1].append(w)
    return out


def _is_prose(line: _Line, text_width: float) -> bool:
    """A sentence line (paragraph text) rather than a table row."""
    if line.multi:
        return sum(len(c) for c in line.chunks) >= 8 and all(len(c) >= 5 for c in line.chunks)
    return len(line.words) >= 7 and line.box.width > 0.5 * text_width


def _make_lines(words: list[PointWord]) -> list[_Line]:
    lines: list[_Line] = []
    for members in group_lines(words):
        em = median(w.box.height for w in members) or 1.0
        lines.append(_Line(members, _chunks(members, em), union_all([w.box for w in members]), em))
    return lines


def _wraps(lines: list[_Line]) -> bool:
    """Is the last line the wrapped rest of a cell on the line above (tight below it, and
    starting in lowercase or after a hyphen)?"""
    if len(lines) < 2:
        return False
    prev, last = lines[-2], lines[-1]
    tight = last.box.y0 - prev.box.y1 < 0.6 * last.em
    first = last.words[0].text[:1]
    return tight and (first.islower() or prev.words[-1].text.endswith("-"))


def _blocks(lines: list[_Line], text_width: float) -> list[list[_Line]]:
    blocks: list[list[_Line]] = []
    current: list[_Line] = []

    def close() -> None:
        while current and not current[-1].multi and not _wraps(current):
            current.pop()
        if sum(1 for line in current if line.multi) >= 2:
            blocks.append(list(current))
        current.clear()

    for line in lines:
        if current and line.box.y0 - current[-1].box.y1 > _BLOCK_GAP * max(line.em, current[-1].em):
            close()
        if _is_prose(line, text_width):
            close()
            continue
        if line.multi or current:
            current.append(line)
        elif not current:
            # a short single line right above a block may be a group heading; kept as a
            # candidate and dropped later unless it spans columns
            current.append(line)
    close()
    return blocks


def _columns(block: list[_Line]) -> list[tuple[float, float]]:
    """Column x-ranges from the chunks of the block's fullest lines."""
    multi = [line for line in block if line.multi]
    need = median(len(line.chunks) for line in multi)
    defining = [line for line in multi if len(line.chunks) >= need]
    spans = sorted(
        (min(w.box.x0 for w in c), max(w.box.x1 for w in c))
        for line in defining
        for c in line.chunks
    )
    allowed = len(defining) // 10  # a stray overflowing chunk may cross a column gap
    # sweep: a gap is where at most ``allowed`` chunks are open
    events = sorted([(s, 1) for s, _ in spans] + [(e, -1) for _, e in spans])
    cols: list[tuple[float, float]] = []
    depth = 0
    start: float | None = None
    for x, delta in events:
        depth += delta
        if depth > allowed and start is None:
            start = x
        elif depth <= allowed and start is not None:
            if x > start:
                cols.append((start, x))
            start = None
    em = median(line.em for line in defining)
    out: list[tuple[float, float]] = []
    for col in cols:
        out.extend(_split_rivers(col, defining, em))
    return out


_RIVER = 0.5
"""Width (in glyph heights) of a word-free vertical strip that separates two narrow
columns: wider than any word space, so chance alignments of spaces never qualify."""


def _split_rivers(
    col: tuple[float, float], lines: list[_Line], em: float
) -> list[tuple[float, float]]:
    """Split a column at vertical strips that no word of any line enters (narrow columns
    such as ``#`` beside ``Item no.`` or ``Qty`` beside ``Unit`` sit closer than the chunk
    gap), when both sides hold words on most lines."""
    a, b = col
    rows = [[w for w in line.words if a <= w.box.cx <= b] for line in lines]
    rows = [r for r in rows if r]
    if len(rows) < 3:
        return [col]
    spans = sorted((w.box.x0, w.box.x1) for r in rows for w in r)
    gaps: list[tuple[float, float]] = []
    reach = spans[0][1]
    for x0, x1 in spans[1:]:
        if x0 - reach >= _RIVER * em:
            gaps.append((reach, x0))
        reach = max(reach, x1)
    out: list[tuple[float, float]] = []
    start = spans[0][0]
    for g0, g1 in gaps:
        left = sum(1 for r in rows if any(start <= w.box.cx < g0 for w in r))
        right = sum(1 for r in rows if any(w.box.cx > g1 for w in r))
        if left >= 0.6 * len(rows) and right >= 0.6 * len(rows):
            out.append((start, g0))
            start = g1
    out.append((start, reach))
    return out


def _col_of(box: Box, cols: list[tuple[float, float]]) -> list[int]:
    """Columns a box overlaps (at least one: the nearest when it sits in a gap)."""
    hit = [i for i, (a, b) in enumerate(cols) if min(b, box.x1) - max(a, box.x0) > 0]
    if hit:
        return hit
    dist = [min(abs(box.cx - a), abs(box.cx - b)) for a, b in cols]
    return [dist.index(min(dist))]


def _underlined(box: Box, em: float, rules: list[Ruling], others: list[Box]) -> bool:
    """A rule right under a phrase and at least as wide, that runs under none of the line's
    other phrases (``others``): a group heading's underline. A rule under the whole header
    row (a boxed table's header rule) underlines every heading alike and joins none of
    them into one."""
    return any(
        0 <= r.y0 - box.y1 <= 1.5 * em
        and r.x0 <= box.x0 + 2
        and r.x1 >= box.x1 - 2
        and not any(r.x0 < o.x1 and r.x1 > o.x0 for o in others)
        for r in rules
    )


def _line_cells(
    line: _Line,
    cols: list[tuple[float, float]],
    header: bool,
    rules: list[Ruling] | None = None,
) -> list[tuple[int, int, list[PointWord]]]:
    """(first column, span, words) for each cell a line contributes."""
    out: list[tuple[int, int, list[PointWord]]] = []
    for chunk in line.chunks:
        box = union_all([w.box for w in chunk])
        hit = _col_of(box, cols)
        if len(hit) == 1:
            out.append((hit[0], 1, chunk))
            continue
        per_word = [_col_of(w.box, cols) for w in chunk]
        underlined = (
            header
            and rules is not None
            and _underlined(
                box,
                line.em,
                rules,
                [union_all([w.box for w in c]) for c in line.chunks if c is not chunk],
            )
        )
        if all(len(p) == 1 for p in per_word) and not underlined:
            # cells closer than the chunk gap (no word straddles a column gap): split them
            # back at the gap; a word across a gap marks a heading spanning columns
            by_col: dict[int, list[PointWord]] = {}
            for w, p in zip(chunk, per_word, strict=True):
                by_col.setdefault(p[0], []).append(w)
            out.extend((c, 1, ws) for c, ws in sorted(by_col.items()))
        else:
            out.append((hit[0], hit[-1] - hit[0] + 1, chunk))
    return out


def _numeric_columns(block: list[_Line], cols: list[tuple[float, float]]) -> set[int]:
    votes: dict[int, list[bool]] = {}
    for line in block:
        for col, span, words in _line_cells(line, cols, header=False):
            if span == 1:
                votes.setdefault(col, []).append(is_numeric(" ".join(w.text for w in words)))
    return {c for c, v in votes.items() if len(v) >= 2 and sum(v) / len(v) >= 0.6}


def _is_data(line: _Line, cols: list[tuple[float, float]], numeric: set[int]) -> bool:
    """Does ``line`` read as a data line: are most (more than half) of its cells in numeric
    columns numbers? Not all of them, as a ruled grid's data line needs mostly numbers too
    (``structure._is_data_line``): on a scan one misread number of the first body line
    (``77.1`` read ``Ti``) made it a header line, and the header block swallowed it (header
    and first data row merged into one row, 31 times on the 132 generated scans whose table
    was found, against 20 on their born-digital pages). A header line holds words in those
    columns (a units line, ``EUR``, ``%``, stays in the header)."""
    cells = _line_cells(line, cols, header=False)
    in_numeric = [
        is_numeric(" ".join(w.text for w in ws)) for c, s, ws in cells if s == 1 and c in numeric
    ]
    return 2 * sum(in_numeric) > len(in_numeric)


def continues(prev_text: str, text: str) -> bool:
    first = text.lstrip()[:1]
    return first.islower() or first in "([&" or bool(_CONNECTOR.search(prev_text.rstrip()))


def _cols_text(line: _Line, cols: list[tuple[float, float]]) -> dict[int, str]:
    out: dict[int, str] = {}
    for c, _, ws in _line_cells(line, cols, header=False):
        out[c] = (out.get(c, "") + " " + " ".join(w.text for w in ws)).strip()
    return out


def _body_rows(
    lines: list[_Line], cols: list[tuple[float, float]], numeric: set[int]
) -> list[list[_Line]]:
    """Lines grouped into rows: a wrapped cell's continuation line joins its row."""
    rows: list[list[_Line]] = []
    for line in lines:
        if rows:
            prev = rows[-1]
            prev_cols: dict[int, str] = {}
            for member in prev:
                for c, t in _cols_text(member, cols).items():
                    prev_cols[c] = (prev_cols.get(c, "") + " " + t).strip()
            here = _cols_text(line, cols)
            close = line.box.y0 - prev[-1].box.y1 < 0.8 * line.em
            prev_data = any(c in numeric for c in prev_cols)
            here_data = any(c in numeric for c in here)
            if close and set(here) <= set(prev_cols) and not here_data:
                first = min(here)
                if continues(prev_cols[first], here[first]):
                    prev.append(line)
                    continue
            if close and not prev_data and here_data and set(prev_cols) <= set(here):
                first = min(prev_cols)
                if continues(prev_cols[first], here.get(first, "")):
                    prev.append(line)
                    continue
            if close and not prev_data and here_data and not set(prev_cols) & set(here):
                # values centred beside a wrapped label: their line falls between the
                # label's lines and carries no label of its own
                prev.append(line)
                continue
        rows.append([line])
    return rows


def _header_cells(
    lines: list[_Line], cols: list[tuple[float, float]], rules: list[Ruling]
) -> tuple[int, list[Cell]]:
    """Header lines → (number of header rows, cells). Group headings spanning several
    columns get rows of their own; every other heading sits below the lowest group heading
    above its column, or spans all header rows from the top when no group heading covers
    it (its text in the top-left position, as the CSV convention has it)."""
    # per line items; a group heading wrapped over two lines is one heading
    items: list[tuple[int, int, list[PointWord]]] = []
    groups: list[tuple[int, int, list[PointWord]]] = []
    for line in lines:
        for col, span, words in _line_cells(line, cols, header=True, rules=rules):
            box = union_all([w.box for w in words])
            target = None
            for g_col, g_span, g_words in groups:
                g_box = union_all([w.box for w in g_words])
                if (
                    g_col <= col
                    and col + span <= g_col + g_span
                    and abs(box.cx - g_box.cx) < 0.2 * g_box.width
                    and 0 <= box.y0 - g_box.y1 < 0.8 * line.em
                    and not any(
                        g_box.y1 <= r.y0 <= box.y0 and r.x0 <= box.cx <= r.x1 for r in rules
                    )
                ):
                    target = g_words
                    break
            if target is not None:
                target.extend(words)
            elif span > 1:
                groups.append((col, span, list(words)))
            else:
                items.append((col, span, words))
    spanning: list[tuple[float, int, int, list[PointWord]]] = []
    plain: dict[int, list[PointWord]] = {}
    for col, span, words in groups:
        box = union_all([w.box for w in words])
        em = median(w.box.height for w in words)
        # a rule just under a group heading shows the columns it really spans
        for r in rules:
            if 0 <= r.y0 - box.y1 <= 1.5 * em and r.x0 <= box.cx <= r.x1:
                hit = [i for i, (a, b) in enumerate(cols) if r.x0 - 2 <= a and b <= r.x1 + 2]
                if hit:
                    col, span = hit[0], hit[-1] - hit[0] + 1
                break
        spanning.append((box.y0, col, span, words))
    for col, _, words in items:
        plain.setdefault(col, []).extend(words)
    spanning.sort(key=lambda s: s[0])
    # headings whose vertical extents overlap share a level (a one-line heading beside a
    # wrapped one sits in the same header row)
    levels: list[float] = []
    level_bottom = -1e9
    for y, _, _, words in spanning:
        bottom = max(w.box.y1 for w in words)
        h = max(w.box.height for w in words)
        if not levels or y > level_bottom - 0.3 * h:
            levels.append(y)
            level_bottom = bottom
        else:
            level_bottom = max(level_bottom, bottom)
    n_levels = len(levels)

    def level_of(y: float) -> int:
        return max(i for i, lv in enumerate(levels) if lv <= y + 0.1) if levels else 0

    cells: list[Cell] = []
    owner: dict[tuple[int, int], Cell] = {}

    def place(cell: Cell) -> None:
        # headings that would overlap (odd layouts) share one cell instead
        hit = next(
            (
                owner[(cell.row, c)]
                for c in range(cell.col, cell.col + cell.col_span)
                if (cell.row, c) in owner
            ),
            None,
        )
        if hit is not None:
            hit.words.extend(cell.words)
            return
        cells.append(cell)
        for c in range(cell.col, cell.col + cell.col_span):
            owner[(cell.row, c)] = cell

    for y, col, span, words in spanning:
        place(Cell(level_of(y), col, 1, span, union_all([w.box for w in words]), "", words))
    has_plain_below = False
    for col, words in sorted(plain.items()):
        above = [
            lv
            for lv_y, c, s, _ in spanning
            if c <= col < c + s
            for lv in [level_of(lv_y)]
            if lv_y < min(w.box.y0 for w in words)
        ]
        row = max(above) + 1 if above else 0
        has_plain_below = has_plain_below or row == n_levels
        place(Cell(row, col, 1, 1, union_all([w.box for w in words]), "", words))
    n_rows = n_levels + 1 if has_plain_below or not n_levels else n_levels
    for c in cells:
        if (
            c.row == 0
            and c.col_span == 1
            and not any(
                o is not c and o.col <= c.col < o.col + o.col_span and o.row > 0 for o in cells
            )
        ):
            c.row_span = n_rows
        c.text = join_words(c.words)
    return n_rows, cells


_MARKER = re.compile(r"^(?:\(?[0-9]{1,3}[.)]?|\(?[a-zA-Z][.)]|[•·\-–—*▪◦]|[ivxIVX]{1,4}[.)])$")


def _is_list(cells: list[Cell]) -> bool:
    """Numbered or bulleted paragraphs (footnotes, lists): markers in the first column and
    sentences beside them."""
    first = [c for c in cells if c.col == 0 and c.text]
    rest = [c for c in cells if c.col > 0 and c.text]
    if not first or not rest:
        return False
    markers = all(_MARKER.match(c.text) for c in first)
    wordy = sum(len(c.words) for c in rest) / len(rest) > 4.0
    return markers and wordy


def find_stream_tables(
    page: int, words: list[PointWord], rules: list[Ruling], text_width: float
) -> list[GridTable]:
    tables: list[GridTable] = []
    for block in _blocks(_make_lines(words), text_width):
        em = median(line.em for line in block)
        parts = layout_parts([line.words for line in block], em)
        for sub in (
            [block]
            if parts is None
            else [b for part in parts for b in _blocks(_make_lines(part), text_width)]
        ):
            tables.extend(_block_tables(page, sub, rules, text_width))
    return tables


_SIDE_DEPTH = 2
"""How many gutters deep :func:`_block_tables` looks for a table beside other text (a page
of three text columns needs two cuts). Set once, not tuned."""


def _block_tables(
    page: int, block: list[_Line], rules: list[Ruling], text_width: float, depth: int = 0
) -> list[GridTable]:
    """The tables of a block; when it makes none, the tables that the words on either side
    of each of its gutters make (a strip that hardly any word of the block enters), each
    side read as lines and blocks again. A narrow table beside a text column shares the
    page's text lines with it, so both make one block; ``_refine`` cuts a prose column off
    only when it reads as running text throughout, which a narrow column of long words, or
    a column that holds a table over prose, does not. Proposed only where the block made no
    table (a table found today is never cut): the region model decides whether a side is
    one. (Cutting such a block at its loose single lines too, to part a key-value block
    from the table under it, proposed form and key-value blocks with column gaps of 10 to
    16 glyph heights as false tables, and the region model retrained on them rejected an
    unruled table with gaps that wide.)"""
    horizontal = [r for r in rules if r.horizontal]
    found = [
        t
        for part in _refine(block, text_width)
        if (t := _table(page, part, horizontal)) is not None
    ]
    if found or depth >= _SIDE_DEPTH:
        return found
    proposals: list[GridTable] = []
    for side in _gutter_sides(block):
        for sub in _blocks(_make_lines(side), text_width):
            proposals.extend(_block_tables(page, sub, rules, text_width, depth + 1))
    # different gutters may cut the same table out: the widest gutter's stays (the gutters
    # are tried in that order), and a word goes to one table only
    taken: set[int] = set()
    for table in proposals:
        ids = {id(w) for c in table.cells for w in c.words}
        if ids & taken or any(_overlaps(table.box, kept.box) for kept in found):
            continue
        found.append(table)
        taken |= ids
    return found


def _gutter_sides(block: list[_Line]) -> list[list[PointWord]]:
    """The words left and right of each gutter of ``block`` (``layout.gutters``), the widest
    first. The words inside the strip go to neither side."""
    em = median(line.em for line in block)
    words = [w for line in block for w in line.words]
    return [
        side
        for g0, g1 in gutters([line.words for line in block], em)
        for side in ([w for w in words if w.box.cx < g0], [w for w in words if w.box.cx > g1])
    ]


def _overlaps(a: Box, b: Box) -> bool:
    """Do two boxes share more than a fifth of the smaller one?"""
    inter = a.intersection_area(b)
    return inter > 0.2 * max(1e-6, min(a.width * a.height, b.width * b.height))


def rebuild(table: GridTable, rules: list[Ruling]) -> GridTable | None:
    """The whitespace table that ``table``'s own words make: its columns, header and rows
    found again from its lines alone (None when they make no table). After the lines at a
    candidate's edges that are no table rows are peeled (``extent.trim_rows``), the columns
    the finder drew over them still stand: prose with wide word spaces under a table, read
    as lines of many chunks, joins the block and its chunks cross the table's column gaps,
    so that several columns came out as one."""
    words = [w for c in table.cells for w in c.words]
    lines = _make_lines(words) if words else []
    if sum(1 for line in lines if line.multi) < 2:
        return None
    return _table(table.page, lines, [r for r in rules if r.horizontal])


_PROSE_WORDS = 6
"""Words a line holds on one side of a gutter from which it reads as running text."""


def _refine(block: list[_Line], text_width: float, depth: int = 0) -> list[list[_Line]]:
    """A block cut where it holds more than one table: a prose column beside a table
    (its words left out, the rest grouped into lines and blocks again) and two tables
    stacked with no wide gap between them (cut where the columns change)."""
    if depth > 3:
        return [block]
    prose = _prose_side(block)
    if prose is not None:
        a, b = prose
        rest = [w for line in block for w in line.words if not a <= w.box.cx <= b]
        if not rest:
            return []
        return [
            part
            for sub in _blocks(_make_lines(rest), text_width)
            for part in _refine(sub, text_width, depth + 1)
        ]
    return _split_stacked(block)


def _prose_side(block: list[_Line]) -> tuple[float, float] | None:
    """The x-range on one side of a gutter (a strip no word of the block enters) that holds
    running text (most of at least four lines with many words on that side) while the other
    side holds words on at least two lines: a prose column beside a table. None if none."""
    em = median(line.em for line in block)
    spans = sorted((w.box.x0, w.box.x1) for line in block for w in line.words)
    reach = spans[0][1]
    gutters: list[tuple[float, float]] = []
    for x0, x1 in spans[1:]:
        if x0 - reach >= em:
            gutters.append((reach, x0))
        reach = max(reach, x1)
    for g0, g1 in gutters:
        left = [sum(1 for w in line.words if w.box.cx < g0) for line in block]
        right = [sum(1 for w in line.words if w.box.cx > g1) for line in block]
        for side, other, rng in ((left, right, (-math.inf, g0)), (right, left, (g1, math.inf))):
            filled = [n for n in side if n]
            if len(filled) < 4 or sum(1 for n in other if n) < 2:
                continue
            if sum(1 for n in filled if n >= _PROSE_WORDS) < 0.6 * len(filled):
                continue
            inner = [w.text for line in block for w in line.words if rng[0] <= w.box.cx <= rng[1]]
            numbers = sum(1 for t in inner if is_numeric(t))
            if numbers < 0.2 * len(inner) and _aligned(block, rng, em) < 0.5 * len(filled):
                return rng
    return None


def _aligned(block: list[_Line], side: tuple[float, float], em: float) -> int:
    """Lines whose words inside ``side`` sit on the baseline of words outside it (a table
    row with a long text cell); the lines of a prose column beside a table keep their own
    spacing."""
    a, b = side
    count = 0
    for line in block:
        inner = [w.box.y1 for w in line.words if a <= w.box.cx <= b]
        outer = [w.box.y1 for w in line.words if not a <= w.box.cx <= b]
        if inner and outer and abs(median(inner) - median(outer)) < 0.15 * em:
            count += 1
    return count


def _split_stacked(block: list[_Line]) -> list[list[_Line]]:
    """Two tables one above the other in one block: cut between two lines where a wider
    gap or a single-chunk line (a caption, a title) parts lines whose column gaps the other
    side's chunks cross, or whose first column the other side leaves empty. The gap that
    counts as usual is the one between table rows (before multi-chunk lines), not between a
    wrapped cell's lines; a wrapped cell's last line (a single chunk closer to the line before
    it than rows are to each other) is no caption."""
    n = len(block)
    if sum(1 for line in block if line.multi) < 6:
        return [block]
    gaps = [b.box.y0 - a.box.y1 for a, b in itertools.pairwise(block)]
    row_gaps = [g for g, line in zip(gaps, block[1:], strict=True) if line.multi]
    usual = median(row_gaps) if len(row_gaps) >= 3 else median(gaps)
    best: tuple[float, int] | None = None
    for k in range(1, n):
        above, below = block[:k], block[k:]
        if _data_lines(above) < 3 or _data_lines(below) < 3:
            continue
        em = max(block[k - 1].em, block[k].em)
        wide = gaps[k - 1] > usual + 0.8 * em
        wrapped = _wrapped_end(block, k - 1, gaps, usual)
        single = (not block[k - 1].multi and not wrapped) or not block[k].multi
        if not (wide or single) or (not block[k].multi and _tight(block[k - 1], block[k])):
            continue
        if (
            _crossed(above[-8:], [line for line in below if line.multi][:4])
            or _stub_left_empty(above[-8:], below[:8])
            or _stub_left_empty(below[:8], above[-8:])
        ):
            score = gaps[k - 1] + (em if single else 0.0)
            if best is None or score > best[0]:
                best = (score, k)
    if best is None:
        return [block]
    k = best[1]
    upper, lower = block[:k], block[k:]
    while upper and not upper[-1].multi and not (len(upper) > 1 and _tight(upper[-2], upper[-1])):
        upper.pop()
    return _split_stacked(upper) + _split_stacked(lower)


def _wrapped_end(block: list[_Line], i: int, gaps: list[float], usual: float) -> bool:
    """Is ``block[i]`` the rest of a wrapped cell: a single chunk that, with the single-chunk
    lines between, hangs below a multi-chunk line (the row) closer than rows are to each
    other, each inside the column of one of that row's chunks?"""
    if block[i].multi:
        return False
    j = i - 1
    while j >= 0 and not block[j].multi and gaps[j] < usual and _tight(block[j], block[j + 1]):
        j -= 1
    if j < 0 or not block[j].multi or not gaps[j] < usual or not _tight(block[j], block[j + 1]):
        return False
    spans = [(min(w.box.x0 for w in c), max(w.box.x1 for w in c)) for c in block[j].chunks]
    for line in block[j + 1 : i + 1]:
        x0, x1 = line.box.x0, line.box.x1
        inside = [m for m, (a, b) in enumerate(spans) if x0 < b and x1 > a]
        if len(inside) != 1:
            return False
        m = inside[0]
        if (m > 0 and x0 < spans[m - 1][1]) or (m + 1 < len(spans) and x1 > spans[m + 1][0]):
            return False
    return True


def _tight(upper: _Line, lower: _Line) -> bool:
    """Does ``lower`` follow ``upper`` at less than line spacing (a wrapped cell's rest)?"""
    return lower.box.y0 - upper.box.y1 < 0.6 * lower.em


def _data_lines(lines: list[_Line]) -> int:
    """Lines of several chunks with a number among them (table rows, not headings)."""
    return sum(
        1
        for line in lines
        if line.multi and any(is_numeric(" ".join(w.text for w in c)) for c in line.chunks)
    )


def _stub_left_empty(part: list[_Line], other: list[_Line]) -> bool:
    """Does ``other`` leave empty the first column of ``part``, one that every multi-chunk line
    of ``part`` fills? Two tables one above the other that overlap in width, one starting
    inside the other's columns: their column gaps need not cross (``_crossed``), yet the
    narrower one has no word in the wider one's first column."""
    multi = [line for line in part if line.multi]
    if len(multi) < 2:
        return False
    cols = _columns(part)
    if len(cols) < 2:
        return False
    a, b = cols[0]
    if not all(any(a <= w.box.cx <= b for w in line.words) for line in multi):
        return False
    return not any(a <= w.box.cx <= b for line in other for w in line.words)


def _crossed(part: list[_Line], other: list[_Line]) -> bool:
    """Do the chunks of ``other``'s multi-chunk lines cross a column gap of ``part`` on
    at least two lines?"""
    if sum(1 for line in part if line.multi) < 2:
        return False
    cols = _columns(part)
    if len(cols) < 2:
        return False
    em = median(line.em for line in part)
    for (_, g0), (g1, _) in itertools.pairwise(cols):
        if g1 - g0 < 0.5 * em:
            continue
        hits = 0
        for line in other:
            if not line.multi:
                continue
            if any(
                min(w.box.x0 for w in c) < g0 + 0.2 * em
                and max(w.box.x1 for w in c) > g1 - 0.2 * em
                for c in line.chunks
            ):
                hits += 1
        if hits >= 2:
            return True
    return False


def _table(page: int, block: list[_Line], rules: list[Ruling]) -> GridTable | None:
    cols = _columns(block)
    if len(cols) < 2:
        return None
    # a leading single line stays only as a group heading over several columns
    while block and not block[0].multi:
        spans = [s for _, s, _ in _line_cells(block[0], cols, header=True)]
        first_cols = _col_of(block[0].box, cols)
        if max(spans) > 1 and first_cols[0] > 0:
            break
        block = block[1:]
    numeric = _numeric_columns(block, cols)
    n_header_lines = 0
    if numeric:
        for line in block:
            if _is_data(line, cols, numeric):
                break
            n_header_lines += 1
        if n_header_lines > max(1, len(block) // 2):
            n_header_lines = 0
    header_rows, cells = (
        _header_cells(block[:n_header_lines], cols, rules) if n_header_lines else (0, [])
    )
    body = _body_rows(block[n_header_lines:], cols, numeric)
    for i, row_lines in enumerate(body):
        r = header_rows + i
        by_col: dict[int, tuple[int, list[PointWord]]] = {}
        for line in row_lines:
            for col, span, ws in _line_cells(line, cols, header=False):
                old_span, old = by_col.get(col, (1, []))
                by_col[col] = (max(span, old_span), old + ws)
        taken: set[int] = set()
        for col, (span, ws) in sorted(by_col.items()):
            if col in taken:
                # an overflowing neighbour already claimed this column: merge into it
                owner = next(c for c in cells if c.row == r and c.col <= col < c.col + c.col_span)
                owner.words += ws
                continue
            span = min(span, len(cols) - col)
            while span > 1 and any(col + k in by_col for k in range(1, span)):
                span -= 1
            taken.update(range(col, col + span))
            cells.append(Cell(r, col, 1, span, union_all([w.box for w in ws]), "", ws))
    n_rows = header_rows + len(body)
    for c in cells:
        c.text = join_words(c.words)
    filled = [c for c in cells if c.words]
    mean_words = sum(len(c.words) for c in filled) / max(1, len(filled))
    if not numeric and ((n_rows < 3 and len(cols) < 4) or mean_words > 4.0):
        return None  # side-by-side text columns (multi-column layout), not a table
    if _is_list(cells):
        return None
    # give every cell a grid box: column extents × row extents
    row_y: list[tuple[float, float]] = []
    for r in range(n_rows):
        members = [c.box for c in cells if c.row == r and c.words]
        row_y.append(
            (min(b.y0 for b in members), max(b.y1 for b in members)) if members else (0, 0)
        )
    xs = [cols[0][0]] + [(a[1] + b[0]) / 2 for a, b in itertools.pairwise(cols)] + [cols[-1][1]]
    ys = [row_y[0][0]] + [(a[1] + b[0]) / 2 for a, b in itertools.pairwise(row_y)] + [row_y[-1][1]]
    for c in cells:
        c.box = Box(xs[c.col], ys[c.row], xs[c.col + c.col_span], ys[c.row + c.row_span])
    words = [w for line in block for w in line.words]
    box = union_all([w.box for w in words])
    multi_rows = sum(1 for rl in body if sum(len(line.chunks) for line in rl) >= 2)
    confidence = (multi_rows / max(1, len(body))) * (sum(w.confidence for w in words) / len(words))
    labels = [c.text for c in cells if c.col == 0 and c.text]
    if len(cols) == 2 and labels and sum(t.endswith(":") for t in labels) >= 0.8 * len(labels):
        confidence *= 0.6  # "Label: value" pairs (letterheads, invoice headers): barely a table
    table = GridTable(
        page,
        box,
        _fill_empty(cells, n_rows, len(cols), xs, ys),
        n_rows,
        len(cols),
        "stream",
        header_rows,
        round(confidence, 3),
    )
    return table


def _fill_empty(
    cells: list[Cell], n_rows: int, n_cols: int, xs: list[float], ys: list[float]
) -> list[Cell]:
    taken = {
        (r, c)
        for cell in cells
        for r in range(cell.row, cell.row + cell.row_span)
        for c in range(cell.col, cell.col + cell.col_span)
    }
    out = list(cells)
    for r in range(n_rows):
        for c in range(n_cols):
            if (r, c) not in taken:
                out.append(Cell(r, c, 1, 1, Box(xs[c], ys[r], xs[c + 1], ys[r + 1])))
    out.sort(key=lambda cell: (cell.row, cell.col))
    return out
