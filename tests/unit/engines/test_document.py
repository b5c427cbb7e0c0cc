"""The shared page model: text-layer pages, OCR pages, orientation, formats, geometry."""

from __future__ import annotations

import io
import re

import numpy as np
import pikepdf
import pytest
from PIL import Image
from tests.docgen import (
    add_noise,
    image_bytes,
    image_pdf,
    make_text_pdf,
    rotate_image,
    skew_image,
    tiff_bytes,
)
from tests.unit.engines.conftest import A6, ENGLISH_LINES, GERMAN_LINES

from prefect_docai.engines.page.document import Page, load_document


def _words(text: str) -> list[str]:
    return re.findall(r"\w+", text.lower())


def _recall(expected: str, found: str) -> float:
    """Share of expected words that were found (order-insensitive)."""
    wanted = _words(expected)
    got = set(_words(found))
    return sum(word in got for word in wanted) / len(wanted)


def _ink_in_boxes(page: Page) -> float:
    """Share of word boxes that cover dark pixels on the rendered upright page."""
    image = np.asarray(page.render(dpi=100))
    height, width = image.shape
    hits = 0
    for word in page.words:
        x0, y0, x1, y1 = word.bbox
        crop = image[int(y0 * height) : int(np.ceil(y1 * height)) + 1,
                     int(x0 * width) : int(np.ceil(x1 * width)) + 1]
        hits += bool(crop.size and crop.min() < 128)
    return hits / max(1, len(page.words))


def test_born_digital_page_uses_the_text_layer(english_pdf: bytes) -> None:
    with load_document(english_pdf) as document:
        assert document.media_type == "application/pdf"
        assert document.page_count == 1
        assert document.pdf_bytes == english_pdf
        page = document.page(1)
        assert page.source == "text-layer"
        assert (page.width, page.height) == pytest.approx(A6)
        assert page.rotation == 0
        assert page.text.split("\n") == list(ENGLISH_LINES)
        assert page.confidence == 1.0
        first = page.words[0]
        assert first.text == "Invoice"
        # Drawn at x = 24 pt from the left, baseline 24 + 12 pt from the top.
        assert first.bbox[0] == pytest.approx(24 / A6[0], abs=0.01)
        assert 0.03 < first.bbox[1] < first.bbox[3] < 0.12
        assert [line.text for line in page.lines] == list(ENGLISH_LINES)
        assert all(word.line == 0 for word in page.lines[0].words)
        assert _ink_in_boxes(page) == 1.0


@pytest.mark.parametrize("rotate", [90, 180, 270])
def test_rotate_entry_gives_upright_geometry(rotate: int) -> None:
    pdf = make_text_pdf(list(ENGLISH_LINES), font_size=12, pagesize=A6, margin=24, rotate=rotate)
    with load_document(pdf) as document:
        page = document.page(1)
        assert page.rotation == rotate
        expected = A6[::-1] if rotate in (90, 270) else A6
        assert (page.width, page.height) == pytest.approx(expected)
        assert page.render(dpi=72).size == (round(expected[0]), round(expected[1]))
        assert _ink_in_boxes(page) == 1.0


def test_scanned_image_is_ocred(english_scan: Image.Image, english_pdf: bytes) -> None:
    with load_document(image_bytes(english_scan, "PNG")) as document:
        page = document.page(1)
        assert document.media_type == "image/png"
        assert document.pdf_bytes is None
        assert page.source == "ocr"
        assert (page.width, page.height) == pytest.approx(A6, abs=0.5)
        assert _recall("\n".join(ENGLISH_LINES), page.text) >= 0.95
        assert 0.8 < page.confidence <= 1.0
        assert len(page.lines) == len(ENGLISH_LINES)
        ocr_first = page.words[0]
    with load_document(english_pdf) as born:
        layer_first = born.page(1).words[0]
    # OCR boxes land where the text layer says the word is (within ~2 pt).
    assert ocr_first.text == layer_first.text
    assert ocr_first.bbox[0] == pytest.approx(layer_first.bbox[0], abs=0.01)
    assert ocr_first.bbox[1] == pytest.approx(layer_first.bbox[1], abs=0.01)


@pytest.mark.parametrize("clockwise", [90, 180])
def test_sideways_and_upside_down_scans_are_turned(english_scan: Image.Image, clockwise: int) -> None:
    scan = rotate_image(english_scan, clockwise)
    with load_document(image_bytes(scan, "PNG")) as document:
        page = document.page(1)
        assert page.rotation == (360 - clockwise) % 360
        assert (page.width, page.height) == pytest.approx(A6, abs=0.5)
        assert _recall("\n".join(ENGLISH_LINES), page.text) >= 0.95
        assert page.render(dpi=100).height > page.render(dpi=100).width
        assert _ink_in_boxes(page) >= 0.95


def test_german_umlauts_with_deu(german_scan: Image.Image) -> None:
    with load_document(image_bytes(german_scan, "PNG"), languages=("deu",)) as document:
        text = document.page(1).text
    for word in ("für", "Jürgen", "Müller", "Größe", "Äpfel", "Öl", "Süßwaren", "Übergabe",
                 "Hauptstraße"):
        assert word in text, (word, text)


def test_skewed_noisy_scan_is_deskewed(english_scan: Image.Image) -> None:
    scan = add_noise(skew_image(english_scan, 2.5))
    with load_document(image_bytes(scan, "PNG")) as document:
        page = document.page(1)
        assert abs(page.skew) == pytest.approx(2.5, abs=0.4)
        assert _recall("\n".join(ENGLISH_LINES), page.text) >= 0.9
        assert _ink_in_boxes(page) >= 0.9


def test_two_page_tiff(english_scan: Image.Image, german_scan: Image.Image) -> None:
    data = tiff_bytes([english_scan, german_scan])
    with load_document(data, languages=("deu", "eng")) as document:
        assert (document.media_type, document.page_count) == ("image/tiff", 2)
        assert [page.number for page in document.pages] == [1, 2]
        text = document.text()
    first, second = text.split("\f")
    assert _recall("\n".join(ENGLISH_LINES), first) >= 0.95
    assert _recall("\n".join(GERMAN_LINES), second) >= 0.9
    # deu+eng keeps the umlauts (English-won words are re-read by German alone).
    for word in ("Müller", "Größe", "Äpfel", "Übergabe"):
        assert word in second, (word, second)
    assert "Invoice" not in second


@pytest.mark.parametrize(("fmt", "media_type"), [("JPEG", "image/jpeg"), ("BMP", "image/bmp"),
                                                 ("GIF", "image/gif"), ("WEBP", "image/webp")])
def test_image_formats(english_scan: Image.Image, fmt: str, media_type: str) -> None:
    with load_document(image_bytes(english_scan, fmt)) as document:
        assert document.media_type == media_type
        page = document.page(1)
        # GIF and WebP carry no dpi: the loader assumes 300, which is what the scan has.
        assert (page.width, page.height) == pytest.approx(A6, abs=0.5)
        assert "Invoice" in page.text


def test_sixteen_bit_and_transparent_images(english_scan: Image.Image) -> None:
    wide = Image.fromarray(np.asarray(english_scan).astype(np.uint16) * 257)
    assert wide.mode == "I;16"
    transparent = english_scan.convert("RGBA")
    transparent.putalpha(Image.new("L", english_scan.size, 255))
    for image in (wide, transparent):
        with load_document(image_bytes(image, "PNG")) as document:
            assert "Invoice" in document.page(1).text


def test_image_dpi_sets_page_size(english_scan: Image.Image) -> None:
    small = english_scan.resize((english_scan.width // 2, english_scan.height // 2))
    with load_document(image_bytes(small, "PNG", dpi=150)) as document:
        page = document.page(1)
        assert (page.width, page.height) == pytest.approx(A6, abs=1)
        assert page.render(dpi=300).size == pytest.approx(english_scan.size, abs=2)


def test_scanned_pdf_is_ocred_and_text_joins_pages(english_scan: Image.Image) -> None:
    with load_document(image_pdf([english_scan, english_scan])) as document:
        assert document.page_count == 2
        assert [page.source for page in document.pages] == ["ocr", "ocr"]
        pages = document.text().split("\f")
        assert len(pages) == 2
        assert all(_recall("\n".join(ENGLISH_LINES), text) >= 0.95 for text in pages)


_BROKEN_CMAP = b"""/CIDInit /ProcSet findresource begin 12 dict begin begincmap
/CMapName /Broken def 1 begincodespacerange <00> <FF> endcodespacerange
1 beginbfrange <00> <FF> <E000> endbfrange endcmap
CMapName currentdict /CMap defineresource pop end end"""


def test_garbled_text_layer_falls_back_to_ocr(english_pdf: bytes) -> None:
    """A ToUnicode map into the private use area (seen in the wild from broken producers)
    makes the text layer unreadable: the page is OCRed instead."""
    pdf = pikepdf.open(io.BytesIO(english_pdf))
    for font in pdf.pages[0].Resources.Font.values():
        font.ToUnicode = pdf.make_stream(_BROKEN_CMAP)
    buffer = io.BytesIO()
    pdf.save(buffer)
    with load_document(buffer.getvalue()) as document:
        page = document.page(1)
        assert page.source == "ocr"
        assert page.text_layer_status == "garbled"
        assert _recall("\n".join(ENGLISH_LINES), page.text) >= 0.95


def test_auto_language_uses_the_script_model(english_scan: Image.Image) -> None:
    with load_document(image_bytes(english_scan, "PNG"), languages=("auto",)) as document:
        page = document.page(1)
        assert page.languages == ("Latin",)
        assert _recall("\n".join(ENGLISH_LINES), page.text) >= 0.9


def test_pages_are_lazy_and_one_based(english_pdf: bytes) -> None:
    pdf = make_text_pdf([["page one text here"], ["page two text here"]], pagesize=A6)
    with load_document(pdf) as document:
        assert document.page(2).text == "page two text here"
        assert document.pages[0]._words is None  # page 1 never touched
        with pytest.raises(IndexError):
            document.page(0)
        with pytest.raises(IndexError):
            document.page(3)
    with pytest.raises(ValueError, match="closed"):
        document.page(1).render()


def test_a_huge_image_is_read_at_a_bounded_size() -> None:
    """A 14000 x 14000 PNG (24 KB, 196 MP) is OCR'd at most MAX_RENDER_PIXELS (issue 18)."""
    from tests.hostile import grey_png

    from prefect_docai.engines.page.document import MAX_RENDER_PIXELS

    document = load_document(grey_png(14000, 14000))
    gray, dpi = document._raster(0, document.dpi, 0)
    assert gray.shape[0] * gray.shape[1] <= MAX_RENDER_PIXELS * 1.01
    assert dpi < 300
    image, ocr_dpi = document._ocr_image(0)
    assert image.width * image.height <= MAX_RENDER_PIXELS * 1.01 and ocr_dpi == dpi
