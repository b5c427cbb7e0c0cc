"""Blank pages through the OCR layer, ToolPaperFlow and ToolICR.

tesserocr's word iterator raises ``RuntimeError("No text returned")`` on a page without
text; the OCR layer must turn that into zero words so that streams with blank separator
sheets split and read like any other stream, whether the sheet has a text layer or is a scan.
"""

from __future__ import annotations

import io

import numpy as np
import pikepdf
import pytest

from prefect_docai.engines.icr.engine import IcrEngine
from prefect_docai.engines.page import ocr
from prefect_docai.engines.paperflow import PaperFlowEngine
from prefect_docai.engines.pluginspec import EngineOptions
from prefect_docai.models.results import IcrResult, PaperFlowResult
from prefect_docai.samples import degrade, generate, make_stream

OPTIONS = EngineOptions(languages=("deu", "eng"), file_name="stream.pdf")


@pytest.mark.parametrize("lang", ["eng", "deu+eng"])
def test_recognize_blank_page_gives_no_words(lang: str) -> None:
    white = np.full((1169, 827), 255, dtype=np.uint8)  # A4 at 100 dpi
    assert ocr.recognize(white, 100, lang) == []


def _pages(pdf: bytes) -> int:
    with pikepdf.open(io.BytesIO(pdf)) as doc:
        return len(doc.pages)


@pytest.fixture(scope="module")
def streams() -> dict[str, tuple[bytes, list[int], list[int]]]:
    docs = [generate("invoice", seed=3, lang="de").pdf, generate("letter", seed=4, lang="de").pdf]
    stream, starts = make_stream(docs, separators="blank")
    sizes = [_pages(d) for d in docs]
    # the scanned copy has no text layer at all: OCR runs on the blank sheet too
    scanned = degrade(stream, seed=1)
    return {"text-layer": (stream, starts, sizes), "scanned": (scanned, starts, sizes)}


@pytest.mark.parametrize("variant", ["text-layer", "scanned"])
def test_paperflow_splits_at_blank_separator(
    streams: dict[str, tuple[bytes, list[int], list[int]]], variant: str
) -> None:
    data, starts, sizes = streams[variant]
    out = PaperFlowEngine().run(data, OPTIONS)
    assert isinstance(out.result, PaperFlowResult)
    assert [d.start_page for d in out.result.documents] == starts
    assert [d.page_count for d in out.result.documents] == sizes
    assert [d.document_type for d in out.result.documents] == ["invoice", "letter"]


@pytest.mark.parametrize("variant", ["text-layer", "scanned"])
def test_icr_reads_stream_with_blank_separator(
    streams: dict[str, tuple[bytes, list[int], list[int]]], variant: str
) -> None:
    data, starts, _ = streams[variant]
    out = IcrEngine().run(data, OPTIONS)
    assert isinstance(out.result, IcrResult)
    pages = out.result.pages
    assert len(pages) == _pages(data)
    blank = starts[1] - 1  # the sheet just before the second document (1-based page)
    for page in pages:
        if page.page == blank:
            assert page.text.strip() == ""
            assert page.lines == []
        else:
            assert len(page.text.split()) > 20
    if variant == "scanned":
        assert {page.source for page in pages} == {"ocr"}
