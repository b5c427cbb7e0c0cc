"""Whitespace blocks that hold more than one table (issue 15): two tables stacked with only a
caption between them, a prose column beside a table, running text beside a ruled grid."""

from __future__ import annotations

import io

from reportlab.lib.pagesizes import A4
from reportlab.lib.units import cm
from reportlab.pdfgen import canvas

from prefect_docai.engines.pluginspec import EngineOptions
from prefect_docai.engines.tables.finders import find_tables
from prefect_docai.engines.tables.grid import GridTable
from prefect_docai.engines.tables.inputs import page_inputs

FIRST = [
    ["Region", "2021", "2022", "2023", "Change"],
    ["North", "1,200", "1,350", "1,410", "4.4"],
    ["South", "980", "1,020", "1,100", "7.8"],
    ["East", "1,410", "1,390", "1,505", "8.3"],
    ["West", "760", "905", "990", "9.4"],
]
SECOND = [
    ["Sector", "Share of energy use", "Cost"],
    ["Industry and manufacturing sites", "41.5", "2,310"],
    ["Private households in the cities", "27.0", "1,420"],
    ["Road, rail and inland waterways", "22.1", "1,980"],
    ["Public and commercial services", "9.4", "640"],
]
PROSE = (
    "The second phase of the project was completed on time and within the budget "
    "that the board had set at the start of the year. Sales rose by twelve percent "
    "compared with the previous year, and the share of renewable energy reached a "
    "new high in all regions that the report covers. We recommend that these "
    "measures be continued over the next quarter and that the results be reviewed "
    "again once the figures for the full year are available to the committee."
)


def _candidates(pdf: bytes) -> list[GridTable]:
    pages, _ = page_inputs(pdf, EngineOptions(languages=("eng",), output_formats=("JSON",)))
    return find_tables(pages[0])


def _texts(table: GridTable) -> set[str]:
    return {w.text for c in table.cells for w in c.words}


def _rows(c: canvas.Canvas, rows: list[list[str]], xs: list[float], top: float) -> float:
    y = top
    for i, row in enumerate(rows):
        c.setFont("Helvetica-Bold" if i == 0 else "Helvetica", 10)
        for x, text in zip(xs, row, strict=True):
            c.drawString(x, y, text)
        y -= 14
    return y


def test_stacked_tables_with_a_caption_between_are_two_candidates() -> None:
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=A4)
    y = _rows(c, FIRST, [2.5 * cm, 7 * cm, 9.5 * cm, 12 * cm, 14.5 * cm], 26 * cm)
    c.setFont("Helvetica-Bold", 10)
    c.drawString(2.5 * cm, y - 4, "Table 2: Energy use by sector")
    _rows(c, SECOND, [2.5 * cm, 10 * cm, 15.5 * cm], y - 22)
    c.save()
    found = _candidates(buf.getvalue())
    assert len(found) == 2
    upper, lower = sorted(found, key=lambda t: t.box.y0)
    assert "North" in _texts(upper) and "households" not in _texts(upper)
    assert "households" in _texts(lower) and "North" not in _texts(lower)
    assert (upper.n_cols, lower.n_cols) == (5, 3)


def _prose_lines(c: canvas.Canvas, x: float, top: float, width: float, leading: float) -> None:
    from reportlab.lib.utils import simpleSplit

    c.setFont("Helvetica", 10)
    for i, line in enumerate(simpleSplit(PROSE, "Helvetica", 10, width)):
        c.drawString(x, top - i * leading, line)


def test_prose_column_beside_an_unruled_table_stays_out_of_it() -> None:
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=A4)
    _prose_lines(c, 2 * cm, 26 * cm, 8.5 * cm, 12.5)
    _rows(c, FIRST, [11.5 * cm, 14 * cm, 15.5 * cm, 17 * cm, 18.5 * cm], 25.8 * cm)
    c.save()
    found = _candidates(buf.getvalue())
    tables = [t for t in found if "North" in _texts(t)]
    assert len(tables) == 1
    assert not _texts(tables[0]) & {"project", "budget", "recommend", "committee"}
    assert tables[0].n_cols == 5


WRAPPED = [
    ("Personnel", ["Headcount rose", "to 397"], "B-7500", "9,790,172"),
    ("Services", ["Phase two", "on schedule"], "A-8399", "-4,150,961"),
    ("Research", ["Renewables", "reached"], "A-3153", "6,195,924"),
    ("Energy", ["We recommend", "these steps"], "X-1957", "7,689,534"),
    ("Italy", ["Revenue grew by 26 % over the year", "in all regions"], "B-8184", "8,592,011"),
    ("Austria", ["Liquidity remains high across the group"], "X-8684", "4,841,370"),
    ("Netherlands", ["Figure 1 shows the indicators over time"], "D-4189", "9,959,560"),
    ("Transport", ["Headcount rose to 668 at the year end"], "B-890", "6,973,113"),
]


def test_a_table_with_wrapped_cells_is_not_cut_at_a_wrapped_line() -> None:
    """Rows whose description wraps over two lines set closer together than the rows, the
    lower rows' descriptions running up to the next column: the last line of a wrapped
    cell (one chunk) is no caption between two stacked tables."""
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=A4)
    c.setFont("Helvetica", 9)
    y = 26 * cm
    for label, desc, code, amount in WRAPPED:
        c.drawString(2.5 * cm, y, label)
        for i, line in enumerate(desc):
            c.drawString(5.5 * cm, y - 10.5 * i, line)
        c.drawString(11.3 * cm, y, code)
        c.drawRightString(17 * cm, y, amount)
        y -= 10.5 * len(desc) + 9
    c.save()
    found = _candidates(buf.getvalue())
    assert len(found) == 1
    assert {"Personnel", "Transport", "schedule"} <= _texts(found[0])


UPPER = [
    ("Site", "Description", "Amount"),
    ("Germany", "Results are summed up below", "2,147,914"),
    ("Maintenance", "Figure 1 shows the trend", "5,421,179"),
    ("Other services", "The costs", "2,962,891"),
    ("Spain", "The audit found no major faults", "8,541,027"),
    ("Sweden", "Investments in", "3,705,447"),
]
LOWER = [
    ("Site", "Median", "Plan"),
    ("Belgium", "0", "22"),
    ("Maintenance", "-1", "24"),
    ("Construction", "1", "59"),
    ("France", "0", "74"),
    ("Raw materials", "1", "99"),
]


def test_stacked_tables_overlapping_in_width_are_two_candidates() -> None:
    """A narrow table right below a wider one, starting inside the wider one's description
    column: no column gap of either is crossed by the other's cells, but the narrow one
    leaves the wide one's first column empty, so they are two tables, not one of four
    columns."""
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=A4)
    c.setFont("Helvetica", 9)
    y = 26 * cm
    for label, desc, amount in UPPER:
        c.drawString(2.5 * cm, y, label)
        c.drawString(5.5 * cm, y, desc)
        c.drawRightString(13 * cm, y, amount)
        y -= 18
    c.drawString(9.5 * cm, y - 6, "Women")
    y -= 26
    for label, median, plan in LOWER:
        c.drawString(8 * cm, y, label)
        c.drawRightString(12 * cm, y, median)
        c.drawRightString(14 * cm, y, plan)
        y -= 16
    c.save()
    found = _candidates(buf.getvalue())
    assert len(found) == 2
    upper, lower = sorted(found, key=lambda t: t.box.y0)
    assert "Germany" in _texts(upper) and "Belgium" not in _texts(upper)
    assert "Belgium" in _texts(lower) and "Germany" not in _texts(lower)
