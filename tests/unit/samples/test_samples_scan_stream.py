"""Scan-like degradation, photographed receipts, separator sheets and page streams."""

from __future__ import annotations

import io
import itertools
import os

import pypdfium2 as pdfium
import pytest
from PIL import Image

from prefect_docai import samples
from prefect_docai.engines.page.languages import tessdata_dir

os.environ.setdefault("OMP_THREAD_LIMIT", "1")


def _texts(pdf: bytes) -> list[str]:
    doc = pdfium.PdfDocument(pdf)
    try:
        return [page.get_textpage().get_text_range() for page in doc]
    finally:
        doc.close()


def test_degrade_gives_an_image_only_pdf_that_tesseract_reads() -> None:
    import tesserocr

    doc = samples.generate("letter", seed=3, lang="de", template="letter-din-left")
    scanned = samples.degrade(doc.pdf, seed=1, dpi=200)
    texts = _texts(scanned)
    assert len(texts) == doc.page_count
    assert all(not t.strip() for t in texts)  # no text layer survives
    assert samples.degrade(doc.pdf, seed=1, dpi=200) == scanned  # deterministic
    page = pdfium.PdfDocument(scanned)[0].render(scale=200 / 72, grayscale=True).to_pil()
    with tesserocr.PyTessBaseAPI(path=tessdata_dir(), lang="deu") as api:
        api.SetVariable("user_defined_dpi", "200")
        api.SetImage(page)
        ocr = api.GetUTF8Text()
    assert doc.truth["recipient"]["name"].split()[-1] in ocr
    assert doc.truth["sender"]["city"] in ocr


def test_photograph_is_a_jpeg_of_the_page() -> None:
    doc = samples.generate("receipt", seed=2, lang="de")
    jpeg = samples.photograph(doc.pdf, seed=5)
    img = Image.open(io.BytesIO(jpeg))
    assert img.format == "JPEG"
    assert round(img.info["dpi"][0]) == 200
    width, height = img.size
    assert height > width  # the till roll stays upright
    assert samples.photograph(doc.pdf, seed=5) == jpeg


@pytest.mark.parametrize("kind", ["blank", "qr", "barcode"])
def test_separator_sheets_are_single_pages(kind: str) -> None:
    pdf = samples.separator_sheet(kind)  # type: ignore[arg-type]
    texts = _texts(pdf)
    assert len(texts) == 1
    if kind == "blank":
        assert not texts[0].strip()


def test_qr_separator_is_machine_readable() -> None:
    from pyzbar import pyzbar

    pdf = samples.separator_sheet("qr")
    image = pdfium.PdfDocument(pdf)[0].render(scale=150 / 72, grayscale=True).to_pil()
    decoded = [d.data.decode() for d in pyzbar.decode(image)]
    assert decoded == [samples.stream.SEPARATOR_PAYLOAD]


def test_stream_start_pages_follow_documents_and_separators() -> None:
    docs = [
        samples.generate("invoice", seed=s, lang="de", template="invoice-din-blue")
        for s in range(4)
    ]
    counts = [d.page_count for d in docs]
    pdf, starts = samples.make_stream([d.pdf for d in docs])
    assert starts[0] == 1
    assert [b - a for a, b in itertools.pairwise(starts)] == counts[:-1]
    assert len(_texts(pdf)) == sum(counts)

    pdf, starts = samples.make_stream([d.pdf for d in docs], separators=["qr", None, "blank"])
    texts = _texts(pdf)
    assert len(texts) == sum(counts) + 2
    assert starts[1] == 1 + counts[0] + 1
    assert starts[2] == starts[1] + counts[1]
    assert starts[3] == starts[2] + counts[2] + 1
    for doc, start in zip(docs, starts, strict=True):
        assert doc.truth["invoiceNumber"] in texts[start - 1]
    assert not texts[starts[3] - 2].strip()  # the blank sheet


def test_sample_stream_segments_tile_the_stream() -> None:
    pdf, segments = samples.sample_stream(
        4,
        documents=8,
        separator_rate=0.5,
        same_supplier_rate=1.0,
        doc_types=["invoice", "letter", "receipt"],
    )
    texts = _texts(pdf)
    assert len(segments) == 8
    assert segments[0]["startPage"] == 1
    assert segments[-1]["endPage"] <= len(texts)
    covered = {p for s in segments for p in range(s["startPage"], s["endPage"] + 1)}
    gaps = set(range(1, len(texts) + 1)) - covered
    for page in gaps:  # separator sheets only: blank, or a code with the separator payload
        assert not texts[page - 1].strip() or samples.stream.SEPARATOR_PAYLOAD in texts[page - 1]
    for seg in segments:
        assert seg["pageCount"] == seg["endPage"] - seg["startPage"] + 1
    pairs = [
        (a, b) for a, b in itertools.pairwise(segments) if a["docType"] == b["docType"] == "invoice"
    ]
    assert pairs
    for a, b in pairs:
        assert a["truth"]["seller"]["name"] == b["truth"]["seller"]["name"]
        assert a["template"] == b["template"]
    assert samples.sample_stream(4, documents=8)[0] == samples.sample_stream(4, documents=8)[0]


@pytest.mark.parametrize("mode", ["fax", "copy"])
def test_fax_and_photocopy_modes(mode: str) -> None:
    import numpy as np

    doc = samples.generate("contract", seed=2, lang="de")
    out = samples.degrade(doc.pdf, seed=4, dpi=150, mode=mode)
    texts = _texts(out)
    assert len(texts) == doc.page_count
    assert not "".join(texts).strip()
    assert samples.degrade(doc.pdf, seed=4, dpi=150, mode=mode) == out
    page = np.asarray(pdfium.PdfDocument(out)[0].render(scale=1, grayscale=True).to_pil())
    ink = float((page < 128).mean())
    assert 0.005 < ink < 0.3  # text survived, the page did not turn black
    if mode == "fax":  # near black-and-white: few mid-grey pixels
        assert float(((page > 60) & (page < 190)).mean()) < 0.05
    with pytest.raises(ValueError):
        samples.degrade(doc.pdf, seed=4, mode="nope")
