"""Tables of records (``samples.table_records``) and the contents look-alike whose numbers
stand in a column of their own: the text-only tables and the table-like contents lists the
table generator lacked until session 26; and the tables stretched across the width."""

from __future__ import annotations

import io
import itertools
import random
import re
from collections import Counter
from statistics import median

import pdfplumber
import pytest
from tests.table_truth import check_drawn_truth

from prefect_docai.samples.table_records import record
from prefect_docai.samples.tables import (
    RECORD_SHARE,
    TABLE_LANGS,
    WIDE_SHARE,
    TablePage,
    TableTruth,
    table_page,
)

_NUMBER = re.compile(r"^[-+]?[\d.,\s%]+$")


def _numeric_share(grid: list[list[str]], header_rows: int) -> float:
    cells = [c for row in grid[header_rows:] for c in row if c.strip()]
    return sum(bool(_NUMBER.match(c)) for c in cells) / max(1, len(cells))


@pytest.mark.parametrize("lang", TABLE_LANGS)
def test_records_are_text_tables_of_any_shape(lang: str) -> None:
    """Two to six columns within the limit, at most one numeric column, a header row most
    of the time, rows of equal width; the same stream draws the same table."""
    shapes: Counter[int] = Counter()
    headless = 0
    for seed in range(60):
        rec = record(random.Random(seed), lang, 6)
        assert rec == record(random.Random(seed), lang, 6)
        n = len(rec.columns)
        shapes[n] += 1
        assert 2 <= n <= 6
        assert sum(kind == "num" for kind, _ in rec.columns) <= 1
        assert all(len(row) == n for row in rec.body) and len(rec.kinds) == len(rec.body)
        assert rec.header is None or len(rec.header) == n
        headless += rec.header is None
        data = [row for row, k in zip(rec.body, rec.kinds, strict=True) if k == "data"]
        assert data
    assert len(shapes) >= 4 and 1 <= headless <= 20
    assert max(len(record(random.Random(s), lang, 2).columns) for s in range(20)) == 2


def test_records_replace_a_share_of_the_tables_and_their_truth_is_drawn() -> None:
    """About ``RECORD_SHARE`` of the tables are tables of records, mostly words (unlike the
    tables of figures), with the languages' wording; their cell truth is what the PDF draws,
    header or none; ``records=False`` draws none and leaves a page without one unchanged."""
    pages = [table_page(seed) for seed in range(80)]
    tables = [t for p in pages for t in p.tables]
    recs = [t for t in tables if t.records]
    assert abs(len(recs) / len(tables) - RECORD_SHARE) < 0.12, (len(recs), len(tables))
    share = sum(_numeric_share(t.grid, t.header_rows) for t in recs) / len(recs)
    figures = [t for t in tables if not t.records]
    assert share < 0.25 < sum(_numeric_share(t.grid, t.header_rows) for t in figures) / len(
        figures
    )
    assert any(t.header_rows == 0 for t in recs) and any(t.header_rows == 1 for t in recs)
    assert len({p.lang for p in pages if any(t.records for t in p.tables)}) >= 4
    check_drawn_truth([p for p in pages if any(t.records for t in p.tables)])
    for page in pages[:30]:
        plain = table_page(page.seed, records=False)
        assert not any(t.records for t in plain.tables)
        if not any(t.records for t in page.tables):
            assert plain.pdf == page.pdf


def _contents_lines(seed: int) -> list[list[dict[str, float | str]]]:
    page = table_page(seed, layout="no_table", trap="contents")
    with pdfplumber.open(io.BytesIO(page.pdf)) as pdf:
        words = pdf.pages[0].extract_words(extra_attrs=["size"])
    lines: dict[int, list[dict[str, float | str]]] = {}
    for w in words:
        lines.setdefault(round(float(w["top"])), []).append(w)
    return [sorted(ws, key=lambda w: float(w["x0"])) for ws in lines.values()]


def test_contents_numbers_lead_their_titles_or_stand_in_a_column() -> None:
    """Over contents pages, section numbers either lead their titles (a word space after
    them) or stand in a column of their own, the titles after them starting at one tab stop
    (the same x on every numbered line of the same level)."""
    inline = tabbed = 0
    aligned = False
    for seed in range(12):
        starts: Counter[float] = Counter()
        for ws in _contents_lines(seed):
            if len(ws) < 2 or not re.fullmatch(r"\d+(\.\d+)?\.?", str(ws[0]["text"])):
                continue
            first, second = ws[0], ws[1]
            gap = float(second["x0"]) - float(first["x1"])
            if gap > 1.2 * float(first["size"]):
                tabbed += 1
                starts[round(float(second["x0"]), 1)] += 1
            else:
                inline += 1
        aligned = aligned or any(n >= 3 for n in starts.values())
    assert inline >= 10 and tabbed >= 10 and aligned, (inline, tabbed)


def _column_gaps(page: TablePage, table: TableTruth) -> list[float]:
    """The whitespace between neighbouring columns' text, in font sizes."""
    with pdfplumber.open(io.BytesIO(page.pdf)) as pdf:
        words = pdf.pages[0].extract_words()
    x0, y0, x1, y1 = table.bbox
    inside = [w for w in words if x0 <= w["x0"] and w["x1"] <= x1 and y0 <= w["top"] <= y1]
    size = median(w["bottom"] - w["top"] for w in inside)
    spans = []
    for col in range(len(table.grid[0])):
        mine = [
            w
            for c in table.cells
            if c.col == col and c.col_span == 1 and c.text
            for w in inside
            if c.bbox[0] <= w["x0"] and w["x1"] <= c.bbox[2] + 0.5
        ]
        if mine:
            spans.append((min(w["x0"] for w in mine), max(w["x1"] for w in mine)))
    return [(b[0] - a[1]) / size for a, b in itertools.pairwise(spans)]


def test_some_tables_are_stretched_across_the_width_with_wide_gaps() -> None:
    """Up to ``WIDE_SHARE`` of the tables (those narrower than the width drawn for them) are
    stretched across the width at hand: their columns' text stands twice as far apart as a
    table's set only as wide as its content (typically seven font sizes against two); their
    truth is what is drawn; without ``wide=True`` none is stretched, and ``wide`` alone sets
    every table's cells at the top."""
    pages = [table_page(seed, wide=True) for seed in range(80)]
    tables = [(p, t) for p in pages for t in p.tables if len(t.grid[0]) >= 2]
    wide = [(p, t) for p, t in tables if t.stretched]
    assert 0.08 <= len(wide) / len(tables) <= WIDE_SHARE, (len(wide), len(tables))
    stretched = median(median(_column_gaps(p, t)) for p, t in wide)
    plain = median(median(_column_gaps(p, t)) for p, t in tables if not t.stretched)
    assert stretched > 2 * plain, (stretched, plain)
    check_drawn_truth([p for p in pages if any(t.stretched for t in p.tables)])
    assert not any(
        t.stretched or t.valign != "top" for s in range(20) for t in table_page(s).tables
    )


def test_figures_beside_a_wrapped_label_stand_on_its_last_line_in_bottom_set_tables() -> None:
    """About ``LOW_SHARE`` of the tables set their body cells at the bottom (or middle) of the
    row: beside a cell wrapped over lines, a one-line cell's text stands on the wrapped cell's
    last line in a bottom-set table and on its first line in a top-set one (``low=True``)."""
    pages = [table_page(seed, low=True) for seed in range(80)]
    tables = [t for p in pages for t in p.tables]
    low = sum(t.valign != "top" for t in tables) / len(tables)
    assert 0.15 <= low <= 0.45, low
    seen = Counter[str]()
    for page in pages:
        with pdfplumber.open(io.BytesIO(page.pdf)) as pdf:
            words = pdf.pages[0].extract_words()
        for table in page.tables:
            if table.valign == "middle":
                continue
            for row in range(table.header_rows, len(table.grid)):
                lines = []
                for c in table.cells:
                    if c.row != row or c.row_span != 1 or not c.text:
                        continue
                    x0, y0, x1, y1 = c.bbox
                    mine = [
                        w
                        for w in words
                        if x0 <= w["x0"] and w["x1"] <= x1 + 0.5 and y0 <= w["top"] < y1
                    ]
                    tops = sorted({round(w["top"]) for w in mine})
                    if tops:
                        lines.append(tops)
                tall = max(lines, key=len, default=[])
                short = [t for t in lines if len(t) == 1]
                if len(tall) < 2 or not short:
                    continue
                where = tall[-1] if table.valign == "bottom" else tall[0]
                assert all(abs(t[0] - where) <= 1 for t in short), (page.seed, row, tall, short)
                seen[table.valign] += 1
    assert seen["bottom"] >= 3 and seen["top"] >= 3, seen
