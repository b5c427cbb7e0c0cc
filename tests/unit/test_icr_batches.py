"""A long ICR job run in page batches gives exactly the output of one run (issue 18, item 2):
the batches' parts merged by the engine equal the whole document's result, text and PDF."""

from __future__ import annotations

import io
from dataclasses import replace

import pytest
from tests.api import documents

from prefect_docai.engines.icr.engine import IcrEngine
from prefect_docai.engines.pluginspec import EngineOptions, EngineOutput, EnginePart

LINES = [f"Invoice {n} of the batch test, total {n * 17}.50 EUR" for n in range(1, 6)]


def _batched(data: bytes, options: EngineOptions, size: int, pages: int) -> EngineOutput:
    engine = IcrEngine()
    parts = []
    for first in range(1, pages + 1, size):
        output = engine.run(data, replace(options, pages=(first, min(pages, first + size - 1))))
        parts.append(
            EnginePart(
                output.result.model_dump(mode="json", by_alias=True),
                output.page_count,
                list(output.files),
                list(output.warnings),
            )
        )
    return engine.merge(data, parts, options)


def _pdf_texts(data: bytes) -> list[str]:
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(data)
    try:
        return [pdf[i].get_textpage().get_text_range() for i in range(len(pdf))]
    finally:
        pdf.close()


def _scanned_tiff(data: bytes) -> bytes:
    """The PDF's pages rendered and saved as a multi-page TIFF: OCR pages."""
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(data)
    try:
        frames = [pdf[i].render(scale=200 / 72).to_pil().convert("L") for i in range(len(pdf))]
    finally:
        pdf.close()
    buffer = io.BytesIO()
    frames[0].save(buffer, format="TIFF", save_all=True, append_images=frames[1:],
                   dpi=(200, 200), compression="tiff_lzw")
    return buffer.getvalue()


@pytest.mark.parametrize("size", [1, 2])
def test_born_digital_batches_merge_to_the_single_run(size: int) -> None:
    data = documents.pdf(*LINES)
    options = EngineOptions(languages=("eng",), output_formats=("PDF", "TXT"), file_name="a.pdf")
    whole = IcrEngine().run(data, options)
    merged = _batched(data, options, size, len(LINES))
    assert merged.result.model_dump(mode="json") == whole.result.model_dump(mode="json")
    assert [(f.name, f.media_type, f.output_type, f.data) for f in merged.files] == [
        (f.name, f.media_type, f.output_type, f.data) for f in whole.files
    ]
    assert merged.warnings == whole.warnings and merged.page_count == whole.page_count


def test_ocr_batches_merge_to_the_single_run() -> None:
    data = _scanned_tiff(documents.pdf(*LINES[:3]))
    options = EngineOptions(languages=("eng",), output_formats=("PDF", "TXT"), file_name="a.tif")
    whole = IcrEngine().run(data, options)
    merged = _batched(data, options, 2, 3)
    assert "Invoice 2" in whole.result.model_dump()["text"]
    assert merged.result.model_dump(mode="json") == whole.result.model_dump(mode="json")
    txt = {f.output_type: f.data for f in merged.files}
    assert txt["TXT"] == {f.output_type: f.data for f in whole.files}["TXT"]
    # The joined PDF is a new file; its pages and their text layers are the same.
    assert _pdf_texts(txt["PDF"]) == _pdf_texts({f.output_type: f.data for f in whole.files}["PDF"])
    assert merged.warnings == whole.warnings
