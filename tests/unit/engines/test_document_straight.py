"""The deskewed OCR raster a page hands on (``Page.straight_raster``) is the very raster a
fresh render turned by the page's skew gives, and is handed on only where it is."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image
from tests.docgen import add_noise, image_bytes, image_pdf, rotate_image, skew_image

from prefect_docai.engines.page import raster
from prefect_docai.engines.page.document import load_document
from prefect_docai.engines.pluginspec import EngineOptions
from prefect_docai.engines.tables.deskew import straighten_image
from prefect_docai.engines.tables.inputs import _page_input, open_document, straight_raster


def _fresh(page_render: Image.Image, skew: float) -> np.ndarray:
    return straighten_image(np.asarray(page_render, dtype=np.uint8), skew)


@pytest.mark.parametrize("skew", [0.0, 1.5])
@pytest.mark.parametrize("form", ["pdf", "png"])
def test_the_kept_raster_is_a_fresh_render_turned_by_the_skew(
    english_scan: Image.Image, skew: float, form: str
) -> None:
    scan = add_noise(skew_image(english_scan, skew)) if skew else english_scan
    data = image_pdf([scan]) if form == "pdf" else image_bytes(scan, "PNG")
    with load_document(data, keep_rasters=2) as document:
        page = document.page(1)
        kept = page.straight_raster(300)
        assert kept is not None
        assert kept.angle == page.skew
        assert (abs(page.skew) >= 1.0) == bool(skew)  # the skewed scan was turned
        fresh = _fresh(page.render(300, grayscale=True), page.skew)
        assert kept.image.dtype == fresh.dtype and np.array_equal(kept.image, fresh)
        assert not kept.image.flags.writeable  # shared with its readers
        assert page.straight_raster(300) is None  # handed over once


def test_no_raster_is_kept_unless_asked_or_where_the_ocr_read_another(
    english_scan: Image.Image,
) -> None:
    data = image_pdf([english_scan])
    with load_document(data) as document:
        assert document.page(1).straight_raster(300) is None  # none kept by default
    with load_document(data, keep_rasters=1) as document:
        assert document.page(1).straight_raster(200) is None  # read at 300, not 200
    turned = image_bytes(rotate_image(english_scan, 90), "PNG")
    with load_document(turned, keep_rasters=1) as document:
        page = document.page(1)
        assert page.rotation == 270
        assert page.straight_raster(300) is None  # OSD turned it: another raster
    small = english_scan.resize((english_scan.width // 2, english_scan.height // 2))
    with load_document(image_bytes(small, "PNG", dpi=150), keep_rasters=1) as document:
        assert document.page(1).straight_raster(300) is None  # read at its own 150 dpi
    tiny = english_scan.resize((english_scan.width // 4, english_scan.height // 4))
    assert (raster.text_height(np.asarray(tiny.convert("L"))) or 99) < 10
    with load_document(image_bytes(tiny, "PNG", dpi=300), keep_rasters=1) as document:
        assert document.page(1).straight_raster(300) is None  # text enlarged to be read


def test_only_the_last_pages_read_are_kept(english_scan: Image.Image) -> None:
    with load_document(image_pdf([english_scan] * 3), keep_rasters=2) as document:
        # one page after the other: prefetch() of all three reads them side by side on a
        # machine with more than one OCR thread, in no set order
        for number in (1, 2, 3):
            document.prefetch([number])
        assert document.page(1).straight_raster(300) is None
        assert document.page(2).straight_raster(300) is not None
        assert document.page(3).straight_raster(300) is not None


def test_the_table_steps_read_the_same_raster_kept_or_rendered(
    english_scan: Image.Image,
) -> None:
    data = image_pdf([add_noise(skew_image(english_scan, 1.2))])
    options = EngineOptions(language_hinted=False)
    with open_document(data, options) as document:
        page = document.page(1)
        page_input = _page_input(document, page)  # the words straightened by the skew
        kept = straight_raster(page, page_input)  # the OCR raster
        rendered = straight_raster(page, page_input)  # taken already: rendered and turned
        assert abs(page_input.skew) >= 1.0
        assert not kept.flags.writeable and rendered.flags.writeable
        assert np.array_equal(kept, rendered)
