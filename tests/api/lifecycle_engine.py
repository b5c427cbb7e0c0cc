"""A trivial but real engine for the service's job-lifecycle tests.

It reads the uploaded PDF's text layer (pypdfium2) and reports the page count, the SHA-256
and each page's text; an image is decoded as the real engines decode it for OCR, so a big
one costs real memory. It runs page ranges (a long job's batches) and merges them. Commands in the text steer it: ``SLEEP <seconds>`` sleeps first,
``FAIL`` raises a DocumentError, ``CRASH`` kills the worker process, ``ALLOC <MB>`` holds
that much memory for a moment. Every completed run
appends the document's SHA-256 to ``$DOCAI_TEST_RUN_LOG`` when that is set, so tests can
count how often a document was processed.
"""

from __future__ import annotations

import csv
import hashlib
import io
import os
import re
import time

from pydantic import BaseModel

from prefect_docai.engines.pluginspec import (
    DocumentError,
    EngineOptions,
    EngineOutput,
    EnginePart,
    OutputFile,
)
from prefect_docai.models.tools import Tool


class LifecycleResult(BaseModel):
    page_count: int
    sha256: str
    texts: list[str]
    languages: list[str]
    language_hinted: bool
    output_formats: list[str]
    threshold: float | None


def _page_texts(data: bytes, pages: tuple[int, int] | None = None) -> list[str]:
    if not data.startswith(b"%PDF"):
        if data.startswith((b"\x89PNG", b"\xff\xd8\xff")):
            from prefect_docai.engines.page.document import load_document

            # The raster OCR would read, made as the real engines make it (big images
            # decoded reduced), so a big image costs what it costs them.
            with load_document(data) as document:
                document.ocr_raster(1)
        return [""]
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(data)
    try:
        first, last = pages or (1, len(pdf))
        return [pdf[i].get_textpage().get_text_range().strip() for i in range(first - 1, last)]
    finally:
        pdf.close()


def _split_pdf(data: bytes) -> list[bytes]:
    import pikepdf

    parts: list[bytes] = []
    with pikepdf.open(io.BytesIO(data)) as source:
        for page in source.pages:
            out = pikepdf.new()
            out.pages.append(page)
            buffer = io.BytesIO()
            out.save(buffer)
            parts.append(buffer.getvalue())
    return parts


class _LifecycleEngine:
    """Page by page (a ``PageBatchEngine``): a batch reads its pages, the merge joins them
    into exactly what one run over the document gives."""

    tool: Tool = Tool.ICR

    def run(self, data: bytes, options: EngineOptions) -> EngineOutput:
        texts = _page_texts(data, options.pages)
        joined = "\n".join(texts)
        if match := re.search(r"SLEEP (\d+(?:\.\d+)?)", joined):
            time.sleep(float(match.group(1)))
        if match := re.search(r"ALLOC (\d+)", joined):
            held = bytearray(int(match.group(1)) * 1024 * 1024)
            time.sleep(0.5)
            del held
        if "FAIL" in joined:
            raise DocumentError("test_failure", "The document asked the test engine to fail.")
        if "CRASH" in joined:
            os._exit(3)
        output = self._output(data, texts, options)
        log = os.environ.get("DOCAI_TEST_RUN_LOG")
        if log:
            with open(log, "a", encoding="utf-8") as handle:
                handle.write(hashlib.sha256(data).hexdigest() + "\n")
        return output

    def merge(self, data: bytes, parts: list[EnginePart], options: EngineOptions) -> EngineOutput:
        texts = [text for part in parts for text in part.result["texts"]]
        return self._output(data, texts, options)

    def _output(self, data: bytes, texts: list[str], options: EngineOptions) -> EngineOutput:
        joined = "\n".join(texts)
        result = LifecycleResult(
            page_count=len(texts),
            sha256=hashlib.sha256(data).hexdigest(),
            texts=texts,
            languages=list(options.languages),
            language_hinted=options.language_hinted,
            output_formats=list(options.output_formats),
            threshold=options.threshold,
        )
        files: list[OutputFile] = []
        if "TXT" in options.output_formats:
            files.append(OutputFile("document.txt", "text/plain", joined.encode(), "TXT"))
        if "PDF" in options.output_formats and data.startswith(b"%PDF"):
            if self.tool is Tool.PAPERFLOW:
                for index, part in enumerate(_split_pdf(data), start=1):
                    files.append(OutputFile(f"document-{index}.pdf", "application/pdf", part, None))
            else:
                files.append(OutputFile("document.pdf", "application/pdf", data, "PDF"))
        if "CSV" in options.output_formats:
            buffer = io.StringIO()
            writer = csv.writer(buffer)
            writer.writerow(["page", "text"])
            for number, text in enumerate(texts, start=1):
                writer.writerow([number, text])
            files.append(OutputFile("table-0.csv", "text/csv", buffer.getvalue().encode(), "CSV"))
        return EngineOutput(result=result, page_count=len(texts), files=files)


class IcrEngine(_LifecycleEngine):
    tool = Tool.ICR


class ClassifyEngine(_LifecycleEngine):
    tool = Tool.CLASSIFY


class InvoiceEngine(_LifecycleEngine):
    tool = Tool.INVOICE


class ReceiptEngine(_LifecycleEngine):
    tool = Tool.RECEIPT


class TableEngine(_LifecycleEngine):
    tool = Tool.TABLE_EXTRACTION


class PaperFlowEngine(_LifecycleEngine):
    tool = Tool.PAPERFLOW


ENGINES = ",".join(
    [
        "ICR=tests.api.lifecycle_engine:IcrEngine",
        "Classify=tests.api.lifecycle_engine:ClassifyEngine",
        "Invoice=tests.api.lifecycle_engine:InvoiceEngine",
        "TableExtraction=tests.api.lifecycle_engine:TableEngine",
        "PaperFlow=tests.api.lifecycle_engine:PaperFlowEngine",
        # Receipt points at a module that does not exist: the 501 path.
        "Receipt=tests.api.no_such_engine:ReceiptEngine",
    ]
)

ALL_ENGINES = ENGINES.replace(
    "tests.api.no_such_engine:ReceiptEngine", "tests.api.lifecycle_engine:ReceiptEngine"
)
"""Every tool served by the lifecycle engine (no 501 anywhere)."""
