"""A trivial real engine for the client's tests against the embedded service.

It answers ToolICR and ToolTableExtraction with results in the contract's own models (so the
client's typed parsing is exercised end to end) from the PDF's text layer. ``FAIL`` in the
text fails the job; ``SLEEP <s>`` delays it.
"""

from __future__ import annotations

import re
import time

from prefect_docai.engines.pluginspec import DocumentError, EngineOptions, EngineOutput, OutputFile
from prefect_docai.models import IcrPage, IcrResult, TableCell, TableExtractionResult, TableResult
from prefect_docai.models.tools import Tool


def _texts(data: bytes) -> list[str]:
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(data)
    try:
        return [pdf[i].get_textpage().get_text_range().strip() for i in range(len(pdf))]
    finally:
        pdf.close()


def _common(data: bytes) -> list[str]:
    texts = _texts(data)
    joined = "\n".join(texts)
    if match := re.search(r"SLEEP (\d+(?:\.\d+)?)", joined):
        time.sleep(float(match.group(1)))
    if "FAIL" in joined:
        raise DocumentError("test_failure", "The document asked the echo engine to fail.")
    return texts


class EchoIcrEngine:
    tool = Tool.ICR

    def run(self, data: bytes, options: EngineOptions) -> EngineOutput:
        texts = _common(data)
        result = IcrResult(
            language=options.languages[0] if options.languages else "eng",
            text="\n".join(texts),
            pages=[
                IcrPage(
                    page=n,
                    width=595,
                    height=842,
                    rotation=0,
                    source="text-layer",
                    text=text,
                    confidence=1.0,
                    lines=[],
                )
                for n, text in enumerate(texts, start=1)
            ],
        )
        files = []
        if "TXT" in options.output_formats:
            files.append(OutputFile("document.txt", "text/plain", result.text.encode(), "TXT"))
        return EngineOutput(result=result, page_count=len(texts), files=files)


class EchoTableEngine:
    tool = Tool.TABLE_EXTRACTION

    def run(self, data: bytes, options: EngineOptions) -> EngineOutput:
        texts = _common(data)
        cells = [TableCell(row=r, col=0, text=text) for r, text in enumerate(texts)]
        table = TableResult(
            index=0,
            page=1,
            bbox=(0.0, 0.0, 1.0, 1.0),
            row_count=len(texts),
            column_count=1,
            header_rows=0,
            cells=cells,
        )
        csv = "".join(f'"{text}"\n' for text in texts).encode()
        return EngineOutput(
            result=TableExtractionResult(tables=[table]),
            page_count=len(texts),
            files=[OutputFile("table-0.csv", "text/csv", csv, "CSV")],
        )


ENGINES = (
    "ICR=tests.unit.client.echo_engine:EchoIcrEngine,"
    "TableExtraction=tests.unit.client.echo_engine:EchoTableEngine,"
    "Receipt=tests.unit.client.no_such_module:ReceiptEngine"
)


def pdf(*pages: str) -> bytes:
    """A born-digital PDF with one line of text per page."""
    import io

    from reportlab.pdfgen import canvas

    buffer = io.BytesIO()
    page = canvas.Canvas(buffer)
    for text in pages:
        page.drawString(72, 720, text)
        page.showPage()
    page.save()
    return buffer.getvalue()
