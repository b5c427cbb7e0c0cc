"""ToolTableExtraction engine on PDFs generated here (reportlab) and their rasterized copies."""

from __future__ import annotations

import csv
import io
import zipfile

import pypdfium2 as pdfium
import pytest
from PIL import Image
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import cm
from reportlab.pdfgen import canvas
from reportlab.platypus import SimpleDocTemplate, Table, TableStyle

from prefect_docai.engines.pluginspec import EngineOptions
from prefect_docai.engines.tables import TableEngine
from prefect_docai.engines.tables.geometry import Ruling
from prefect_docai.engines.tables.lattice import find_ruled_tables
from prefect_docai.models import TableExtractionResult, TableResult

RULED_ROWS = [
    ["Region", "Q1", "Q2", "Total"],
    ["North", "1,200", "1,350", "2,550"],
    ["South", "980", "1,020", "2,000"],
    ["East", "1,410", "1,390", "2,800"],
    ["West", "760", "905", "1,665"],
]

UNRULED = [
    ["Product", "Units", "Price", "Amount"],
    ["Paper A4", "10", "4.99", "49.90"],
    ["Toner black", "2", "59.00", "118.00"],
    ["Stapler", "1", "12.50", "12.50"],
    ["Envelopes", "500", "0.05", "25.00"],
]


def _ruled_pdf(rows: list[list[str]], span_title: str | None = None) -> bytes:
    buf = io.BytesIO()
    doc = SimpleDocTemplate(buf, pagesize=A4)
    data = [list(r) for r in rows]
    style = [
        ("GRID", (0, 0), (-1, -1), 0.8, colors.black),
        ("FONTSIZE", (0, 0), (-1, -1), 12),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 6),
    ]
    if span_title:
        data.insert(0, [span_title, "", "", ""])
        style.append(("SPAN", (0, 0), (-1, 0)))
    table = Table(data, colWidths=[4 * cm, 3 * cm, 3 * cm, 3 * cm])
    table.setStyle(TableStyle(style))
    doc.build([table])
    return buf.getvalue()


def _draw_unruled(c: canvas.Canvas, rows: list[list[str]], top: float) -> None:
    xs = [2.5 * cm, 8 * cm, 11 * cm, 14 * cm]
    y = top
    for i, row in enumerate(rows):
        c.setFont("Helvetica-Bold" if i == 0 else "Helvetica", 11)
        for x, text in zip(xs, row, strict=True):
            c.drawString(x, y, text)
        y -= 18


def _unruled_pdf(pages: int = 1) -> bytes:
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=A4)
    for page in range(pages):
        c.setFont("Helvetica", 11)
        c.drawString(2.5 * cm, 27 * cm, f"Order overview, part {page + 1}. The lines below list")
        c.drawString(2.5 * cm, 26.5 * cm, "what was delivered; prices are net and in euro.")
        rows = (
            UNRULED
            if page == 0
            else [UNRULED[0]] + [[f"Item {k}", str(k), "1.00", f"{k}.00"] for k in range(1, 6)]
        )
        _draw_unruled(c, rows, 24 * cm if page == 0 else 26 * cm)
        c.showPage()
    c.save()
    return buf.getvalue()


def _png(pdf: bytes, dpi: int = 300, skew: float = 0.0) -> bytes:
    doc = pdfium.PdfDocument(pdf)
    image = doc[0].render(scale=dpi / 72, grayscale=True).to_pil()
    doc.close()
    if skew:  # a crooked scan
        image = image.rotate(skew, expand=True, fillcolor=255, resample=Image.Resampling.BICUBIC)
    out = io.BytesIO()
    image.save(out, format="PNG", dpi=(dpi, dpi))
    return out.getvalue()


def _grid(table: TableResult) -> list[list[str]]:
    grid = [["" for _ in range(table.column_count)] for _ in range(table.row_count)]
    for c in table.cells:
        grid[c.row][c.col] = c.text
    return grid


def _run(data: bytes, **kwargs: object) -> tuple[TableExtractionResult, list]:  # type: ignore[type-arg]
    options = EngineOptions(languages=("eng",), output_formats=("CSV",), **kwargs)  # type: ignore[arg-type]
    out = TableEngine().run(data, options)
    assert isinstance(out.result, TableExtractionResult)
    return out.result, out.files


def test_ruled_table_born_digital() -> None:
    result, files = _run(_ruled_pdf(RULED_ROWS))
    assert len(result.tables) == 1
    table = result.tables[0]
    assert (table.row_count, table.column_count) == (5, 4)
    assert _grid(table) == RULED_ROWS
    assert table.header_rows == 1
    assert table.page == 1
    x0, y0, x1, y1 = table.bbox
    assert 0 <= x0 < x1 <= 1 and 0 <= y0 < y1 <= 1
    # one table: its CSV, RFC 4180 (CRLF, quoted commas), UTF-8
    assert len(files) == 1 and files[0].output_type == "CSV"
    assert files[0].media_type == "text/csv" and files[0].name.endswith(".csv")
    text = files[0].data.decode("utf-8")
    assert text.startswith("Region,Q1,Q2,Total\r\n")
    assert '"1,200"' in text
    assert list(csv.reader(io.StringIO(text))) == RULED_ROWS


def test_spanning_header_cell() -> None:
    result, _ = _run(_ruled_pdf(RULED_ROWS, span_title="Sales 2024 (kEUR)"))
    table = result.tables[0]
    assert (table.row_count, table.column_count) == (6, 4)
    top = [c for c in table.cells if c.row == 0]
    assert len(top) == 1
    assert (top[0].col, top[0].col_span, top[0].text) == (0, 4, "Sales 2024 (kEUR)")
    grid = _grid(table)
    assert grid[0] == ["Sales 2024 (kEUR)", "", "", ""]
    assert grid[1:] == RULED_ROWS
    assert table.header_rows == 2


def test_unruled_table_and_prose_are_told_apart() -> None:
    result, _ = _run(_unruled_pdf())
    assert len(result.tables) == 1
    table = result.tables[0]
    assert _grid(table) == UNRULED
    assert table.header_rows == 1
    assert all("delivered" not in c.text for c in table.cells)


def test_wrapped_label_with_centred_values_is_one_row() -> None:
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=A4)
    _draw_unruled(c, UNRULED[:2], 24 * cm)
    y = 24 * cm - 36
    c.setFont("Helvetica", 11)
    c.drawString(2.5 * cm, y, "Chlorine and inorganic")  # label over two lines,
    c.drawString(2.5 * cm, y - 14, "compounds (as HCl)")
    for x, text in zip((8 * cm, 11 * cm, 14 * cm), ("3", "1.50", "4.50"), strict=True):
        c.drawString(x, y - 7, text)  # values centred between them
    _draw_unruled(c, UNRULED[2:], y - 32)
    c.save()
    result, _ = _run(buf.getvalue())
    assert len(result.tables) == 1
    grid = _grid(result.tables[0])
    assert grid[:2] == UNRULED[:2]
    assert grid[2] == ["Chlorine and inorganic compounds (as HCl)", "3", "1.50", "4.50"]
    assert grid[3:] == UNRULED[2:]


def test_table_continued_on_next_page() -> None:
    result, files = _run(_unruled_pdf(pages=2))
    assert [t.page for t in result.tables] == [1, 2]
    assert result.tables[0].continued_from is None
    assert result.tables[1].continued_from == 1
    # several tables: one ZIP of table-<index>.csv served as outputType CSV
    assert len(files) == 1 and files[0].output_type == "CSV"
    assert files[0].media_type == "application/zip"
    with zipfile.ZipFile(io.BytesIO(files[0].data)) as archive:
        assert sorted(archive.namelist()) == ["table-1.csv", "table-2.csv"]
        second = archive.read("table-2.csv").decode("utf-8")
    assert second.splitlines()[1] == "Item 1,1,1.00,1.00"


def test_threshold_drops_tables() -> None:
    sparse = [list(r) for r in RULED_ROWS]
    sparse[2][1] = sparse[3][2] = ""  # empty cells lower a ruled table's confidence
    pdf = _ruled_pdf(sparse)
    for threshold in (0.99, 99.0):  # a fraction or a percentage
        result, files = _run(pdf, threshold=threshold)
        assert result.tables == []
        assert files[0].data == b""
    for threshold in (0.5, 50.0):
        kept, _ = _run(pdf, threshold=threshold)
        assert len(kept.tables) == 1
        confidence = kept.tables[0].confidence
        assert confidence is not None and 0.5 <= confidence < 0.99


def test_lattice_spans_from_missing_rules() -> None:
    # 3×3 grid whose top row has no inner vertical rules: one cell spanning 3 columns
    hs = [Ruling(0, y, 300, y) for y in (0, 20, 40, 60)]
    vs = [Ruling(x, 0, x, 60) for x in (0, 300)] + [Ruling(x, 20, x, 60) for x in (100, 200)]
    (table,) = find_ruled_tables(1, hs + vs)
    assert (table.n_rows, table.n_cols) == (3, 3)
    spans = {(c.row, c.col): (c.row_span, c.col_span) for c in table.cells}
    assert spans[(0, 0)] == (1, 3)
    assert len(table.cells) == 7


def test_ruled_table_on_cropped_page() -> None:
    # rules (mediabox frame) and words (crop box frame) must line up
    import pikepdf

    with pikepdf.open(io.BytesIO(_ruled_pdf(RULED_ROWS))) as pdf:
        width, height = (float(v) for v in pdf.pages[0].mediabox[2:])
        pdf.pages[0].CropBox = pikepdf.Array([30, 40, width - 20, height - 10])
        out = io.BytesIO()
        pdf.save(out)
    result, _ = _run(out.getvalue())
    assert len(result.tables) == 1
    assert _grid(result.tables[0]) == RULED_ROWS


@pytest.mark.parametrize("kind", ["ruled", "ruled-skewed", "unruled"])
def test_rasterized_tables_use_ocr_words(kind: str) -> None:
    pdf = _unruled_pdf() if kind == "unruled" else _ruled_pdf(RULED_ROWS)
    expected = UNRULED if kind == "unruled" else RULED_ROWS
    result, _ = _run(_png(pdf, skew=1.2 if kind == "ruled-skewed" else 0.0))
    assert len(result.tables) == 1
    grid = _grid(result.tables[0])
    assert len(grid) == len(expected) and len(grid[0]) == len(expected[0])
    cells = [(r, c) for r in range(len(expected)) for c in range(len(expected[0]))]
    right = sum(1 for r, c in cells if grid[r][c] == expected[r][c])
    assert right >= 0.9 * len(cells), grid
