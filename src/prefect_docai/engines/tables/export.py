"""Tables → result model, CSV (RFC 4180, UTF-8) and the ZIP of CSVs."""

from __future__ import annotations

import csv
import io
import zipfile

from prefect_docai.engines.pluginspec import OutputFile
from prefect_docai.engines.tables.grid import GridTable
from prefect_docai.models import TableCell, TableExtractionResult, TableResult


def _fraction(v: float, size: float) -> float:
    return round(min(1.0, max(0.0, v / size)), 5)


def to_result(
    tables: list[GridTable], sizes: dict[int, tuple[float, float]]
) -> TableExtractionResult:
    out: list[TableResult] = []
    for index, t in enumerate(tables, start=1):
        w, h = sizes[t.page]
        cells = [
            TableCell(
                row=c.row,
                col=c.col,
                row_span=c.row_span,
                col_span=c.col_span,
                text=c.text,
                bbox=(
                    _fraction(c.box.x0, w),
                    _fraction(c.box.y0, h),
                    _fraction(c.box.x1, w),
                    _fraction(c.box.y1, h),
                ),
            )
            for c in sorted(t.cells, key=lambda c: (c.row, c.col))
        ]
        out.append(
            TableResult(
                index=index,
                page=t.page,
                bbox=(
                    _fraction(t.box.x0, w),
                    _fraction(t.box.y0, h),
                    _fraction(t.box.x1, w),
                    _fraction(t.box.y1, h),
                ),
                row_count=t.n_rows,
                column_count=t.n_cols,
                header_rows=t.header_rows,
                cells=cells,
                confidence=t.confidence,
                continued_from=t.continued_from,
            )
        )
    return TableExtractionResult(tables=out)


def table_csv(table: TableResult) -> bytes:
    """RFC 4180: CRLF line ends, quotes only where needed; a spanning cell's text in its
    top-left position, the positions it covers empty."""
    grid = [["" for _ in range(table.column_count)] for _ in range(table.row_count)]
    for c in table.cells:
        grid[c.row][c.col] = c.text
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\r\n", quoting=csv.QUOTE_MINIMAL)
    writer.writerows(grid)
    return buf.getvalue().encode("utf-8")


def csv_output(result: TableExtractionResult) -> OutputFile:
    """One table → its CSV; several → a ZIP of ``table-<index>.csv``; none → an empty CSV."""
    if len(result.tables) == 1:
        return OutputFile("table-1.csv", "text/csv", table_csv(result.tables[0]), "CSV")
    if not result.tables:
        return OutputFile("tables.csv", "text/csv", b"", "CSV")
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as archive:
        for t in result.tables:
            archive.writestr(f"table-{t.index}.csv", table_csv(t))
    return OutputFile("tables.zip", "application/zip", buf.getvalue(), "CSV")
