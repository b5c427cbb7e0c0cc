"""Tables of records (``samples.table_records``) and the contents look-alike whose numbers
stand in a column of their own: the text-only tables and the table-like contents lists the
table generator lacked until session 26."""

from __future__ import annotations

import io
import random
import re
from collections import Counter

import pdfplumber
import pytest
from tests.table_truth import check_drawn_truth

from prefect_docai.samples.table_records import record
from prefect_docai.samples.tables import RECORD_SHARE, TABLE_LANGS, table_page

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
