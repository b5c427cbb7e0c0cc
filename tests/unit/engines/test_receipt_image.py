"""Receipt OCR preprocessing (engines/receipt/image.py) and the loader's multi-view merge.

The end-to-end cases use a generated till receipt printed "dot-matrix" in red ink and
scanned low-resolution: the plain grayscale pass loses such print (red turns light grey,
lone dots count as noise), the receipt views must read it."""

from __future__ import annotations

import io

import numpy as np
import pypdfium2 as pdfium
import pytest
from PIL import Image

from prefect_docai.engines.page import ocr, raster
from prefect_docai.engines.page.document import load_document
from prefect_docai.engines.pluginspec import EngineOptions
from prefect_docai.engines.receipt import ReceiptEngine
from prefect_docai.engines.receipt.image import (
    coloured_ink,
    glyph_height,
    joined_view,
    receipt_gray,
    receipt_views,
)
from prefect_docai.samples import GeneratedDocument, generate


def _dot_matrix_scan(seed: int, *, dpi: int = 200, pitch: int = 3,
                     red: bool = True) -> tuple[GeneratedDocument, bytes]:
    """A generated receipt as a JPEG whose glyphs are made of separate dots."""
    document = generate("receipt", seed=seed, lang="en")
    pdf = pdfium.PdfDocument(document.pdf)
    bitmap = pdf[0].render(scale=dpi / 72, grayscale=True)
    page = bitmap.to_pil().convert("L")
    bitmap.close()
    pdf.close()
    ink = 1.0 - np.asarray(page, dtype=np.float32) / 255.0
    rows, cols = np.mgrid[0 : ink.shape[0], 0 : ink.shape[1]]
    ink = ink * (((rows % pitch) < pitch - 1) & ((cols % pitch) < pitch - 1))
    fade = (30, 190, 150) if red else (200, 200, 200)
    rgb = np.stack([255 - f * ink for f in fade], axis=2)
    buffer = io.BytesIO()
    Image.fromarray(np.clip(rgb, 0, 255).astype(np.uint8)).save(buffer, "JPEG", quality=85)
    return document, buffer.getvalue()


def _words(text: str) -> set[str]:
    return {w.strip(".,:").casefold() for w in text.split() if len(w.strip(".,:")) > 2}


def test_red_print_is_dark_in_receipt_gray() -> None:
    rgb = np.full((60, 200, 3), 250, dtype=np.uint8)
    rgb[20:40, 20:180] = (220, 40, 60)  # red ink
    image = Image.fromarray(rgb)
    assert coloured_ink(rgb)
    assert int(receipt_gray(image)[30, 100]) < 60
    # Luminance would leave it mid-grey, the reason for the colour-aware conversion.
    assert int(np.asarray(image.convert("L"))[30, 100]) > 80


def test_black_print_stays_on_luminance() -> None:
    rgb = np.full((60, 200, 3), 245, dtype=np.uint8)
    rgb[20:40, 20:180] = (30, 32, 28)
    assert not coloured_ink(rgb)
    assert np.array_equal(receipt_gray(Image.fromarray(rgb)),
                          np.asarray(Image.fromarray(rgb).convert("L")))


def test_joined_view_scales_small_dotted_text_up_and_fuses_dots() -> None:
    _, data = _dot_matrix_scan(2, dpi=150)
    gray = receipt_gray(Image.open(io.BytesIO(data)))
    measured = glyph_height(gray)
    assert measured is not None and 8 <= measured <= 20
    view = joined_view(gray)
    assert view.scale > 1.2
    assert view.gray.shape[1] == round(gray.shape[1] * view.scale)
    # Dots fused: far fewer separate dark components per inked area than in the input.
    import cv2

    def blobs(image: np.ndarray) -> int:
        _, binary = cv2.threshold(image, 0, 255, cv2.THRESH_BINARY_INV + cv2.THRESH_OTSU)
        return int(cv2.connectedComponents(binary)[0])

    assert blobs(view.gray) < 0.5 * blobs(gray)


@pytest.mark.parametrize(("seed", "pitch"), [(4, 2), (5, 3), (6, 2)])
def test_red_dot_matrix_receipt_is_read(
    seed: int, pitch: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The receipt views are Tesseract's: forced here, as receipt-shaped pages go to
    # RapidOCR by default (engines/page/route.py).
    monkeypatch.setenv("DOCAI_OCR_ENGINE", "tesseract")
    document, data = _dot_matrix_scan(seed, pitch=pitch)
    truth = document.truth
    expected = _words(" ".join(
        [truth["merchant"]["name"], truth["merchant"]["address"]]
        + [item["description"] for item in truth["items"]]
    ))
    with load_document(data, languages=("deu", "eng")) as plain:
        plain_text = plain.text()
    with load_document(data, languages=("deu", "eng"), prepare=receipt_views) as prepared:
        text = prepared.text()
        page = prepared.pages[0]
        assert page.words and all(0.0 <= v <= 1.0 for w in page.words for v in w.bbox)
    assert len(expected & _words(text)) >= 0.7 * len(expected)
    assert len(expected & _words(plain_text)) < 0.2 * len(expected)

    result = ReceiptEngine().run(data, EngineOptions()).result
    assert result.merchant.name is not None
    assert result.merchant.name.value == truth["merchant"]["name"]
    assert result.total is not None and result.total.value == truth["total"]


def test_receipt_views_keep_clean_print_as_the_first_view() -> None:
    # Black, solid print at a normal size: the first view is the loader's default raster.
    _, data = _dot_matrix_scan(0, pitch=10_000, red=False)
    image = Image.open(io.BytesIO(data))
    views = receipt_views(image)
    assert len(views) == 2
    default, factor = raster.normalize_scale(raster.to_gray(image))
    assert views[0].scale == factor
    assert np.array_equal(views[0].gray, default)


def _word(text: str, box: tuple[float, float, float, float], confidence: float,
          line: int) -> ocr.OcrWord:
    return ocr.OcrWord(text, box, confidence, line, 0)


def test_merge_takes_the_more_confident_line() -> None:
    first = [
        _word("TOTAI", (10, 100, 60, 120), 0.55, 0),
        _word("7.0O", (200, 100, 240, 120), 0.50, 0),
        _word("CASH", (10, 130, 60, 150), 0.95, 1),
    ]
    other = [
        _word("TOTAL", (11, 101, 61, 121), 0.93, 0),
        _word("7.00", (199, 99, 241, 121), 0.92, 0),
        _word("CASM", (10, 131, 60, 151), 0.60, 1),
    ]
    merged = ocr.merge_readings(first, other)
    assert sorted(w.text for w in merged) == ["7.00", "CASH", "TOTAL"]
    # Lines taken from the other reading get their own line id.
    ids = {w.text: w.line for w in merged}
    assert ids["TOTAL"] == ids["7.00"] != ids["CASH"]


def test_merge_adds_confident_lines_the_first_reading_missed() -> None:
    first = [_word("CASH", (10, 130, 60, 150), 0.95, 0)]
    other = [
        _word("EAGLE", (10, 10, 80, 30), 0.90, 0),
        _word("~", (10, 60, 20, 70), 0.95, 1),  # a stray mark is not a line
        _word("noise", (10, 200, 60, 220), 0.30, 2),
    ]
    merged = ocr.merge_readings(first, other)
    assert sorted(w.text for w in merged) == ["CASH", "EAGLE"]


def test_merge_ignores_a_line_spanning_two_lines() -> None:
    first = [
        _word("ONE", (10, 100, 60, 120), 0.40, 0),
        _word("TWO", (10, 124, 60, 144), 0.40, 1),
    ]
    other = [_word("ONETWO", (10, 100, 60, 144), 0.99, 0)]
    assert ocr.merge_readings(first, other) == first


def test_dotless_i_is_folded_unless_a_language_writes_it() -> None:
    assert ocr._fold_foreign("SELANGOı", "deu+eng") == "SELANGOi"
    assert ocr._fold_foreign("Kadıköy", "tur") == "Kadıköy"


def test_joined_view_is_not_enlarged_past_the_pixel_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    from prefect_docai.engines.receipt import image

    _, data = _dot_matrix_scan(2, dpi=150)
    gray = receipt_gray(Image.open(io.BytesIO(data)))
    monkeypatch.setattr(image, "JOINED_MAX_PIXELS", gray.size * 2)
    view = joined_view(gray)
    assert view.gray.size <= gray.size * 2 * 1.01
    assert view.scale > 1.0
