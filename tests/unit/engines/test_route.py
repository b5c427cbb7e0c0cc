"""The page router (engines/page/route.py): which recognizer reads a page."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image

from prefect_docai.engines.page import raster
from prefect_docai.engines.page.route import (
    NO_TEXT_WIDTH,
    RULE_THRESHOLD,
    UNEVEN_THRESHOLD,
    WIDTH_THRESHOLD,
    page_features,
    prefers_rapid,
)
from prefect_docai.samples import generate
from prefect_docai.samples.scan import degrade, photograph


def _photo(doc_type: str, template: str | None, seed: int) -> np.ndarray:
    document = generate(doc_type, seed=seed, lang="de", template=template)
    with Image.open(io.BytesIO(photograph(document.pdf, seed=seed))) as image:
        return np.asarray(image.convert("RGB"))


@pytest.mark.parametrize("template", ["receipt-cafe-wide", "receipt-hardware-columns"])
def test_a_receipt_photographed_on_a_desk_goes_to_rapidocr(template: str) -> None:
    """Wide receipts photographed with the desk around them are as wide as an A4 page, so
    the aspect rule alone gave them to Tesseract, which dropped the column of amounts."""
    image = _photo("receipt", template, seed=5)
    features = page_features(image)
    assert features["aspect"] >= RULE_THRESHOLD  # the aspect rule alone would not route it
    assert features["text_width"] < WIDTH_THRESHOLD
    assert features["paper_unevenness"] > UNEVEN_THRESHOLD
    assert prefers_rapid(image)


@pytest.mark.parametrize("doc_type", ["letter", "invoice"])
def test_a_photographed_a4_page_stays_with_tesseract(doc_type: str) -> None:
    image = _photo(doc_type, None, seed=5)
    assert page_features(image)["text_width"] > WIDTH_THRESHOLD
    assert not prefers_rapid(image)


@pytest.mark.parametrize("mode", ["scan", "copy"])
def test_scanned_forms_and_invoices_stay_with_tesseract(mode: str) -> None:
    """Scans are even (unlike photos): a form's shorter lines do not send it to RapidOCR."""
    import pypdfium2 as pdfium

    for doc_type in ("form", "invoice"):
        document = generate(doc_type, seed=1, lang="de")
        pdf = pdfium.PdfDocument(degrade(document.pdf, seed=1, mode=mode))
        image = np.asarray(pdf[0].render(scale=200 / 72).to_pil().convert("L"))
        pdf.close()
        assert page_features(image)["paper_unevenness"] < UNEVEN_THRESHOLD
        assert not prefers_rapid(image)


def test_text_width_is_independent_of_resolution() -> None:
    image = _photo("receipt", "receipt-cafe-wide", seed=2)
    gray = np.asarray(Image.fromarray(image).convert("L"))
    half = np.asarray(Image.fromarray(gray).resize((gray.shape[1] // 2, gray.shape[0] // 2)))
    full_width, half_width = raster.text_width(gray), raster.text_width(half)
    assert full_width is not None and half_width is not None
    assert abs(full_width - half_width) < 0.15 * full_width


def test_a_page_without_text_is_not_sent_to_rapidocr_for_being_narrow() -> None:
    blank = np.full((1400, 1000), 245, dtype=np.uint8)
    assert raster.text_width(blank) is None
    assert page_features(blank)["text_width"] == NO_TEXT_WIDTH
    assert not prefers_rapid(blank)
    assert prefers_rapid(np.full((1400, 500), 245, dtype=np.uint8))  # narrow: aspect rule


def test_the_text_width_is_measured_only_on_uneven_paper(monkeypatch: pytest.MonkeyPatch) -> None:
    """The glyph measurement reads the whole raster (most of the router's time): on an even
    scan the rule is settled without it, with the decision ``page_features`` gives."""
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(degrade(generate("invoice", seed=1, lang="de").pdf, seed=1))
    scan = np.asarray(pdf[0].render(scale=200 / 72).to_pil().convert("L"))
    pdf.close()
    photo = _photo("receipt", "receipt-cafe-wide", seed=5)
    rule = {
        id(image): (f := page_features(image))["paper_unevenness"] > UNEVEN_THRESHOLD
        and f["text_width"] < WIDTH_THRESHOLD
        for image in (scan, photo)
    }
    measured: list[int] = []
    text_width = raster.text_width

    def counted(gray: np.ndarray) -> float | None:
        measured.append(1)
        return text_width(gray)

    monkeypatch.setattr(raster, "text_width", counted)
    assert prefers_rapid(scan) is rule[id(scan)] is False
    assert not measured
    assert prefers_rapid(photo) is rule[id(photo)] is True
    assert measured == [1]
