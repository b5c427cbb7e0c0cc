"""Which recognizer reads a page: RapidOCR for receipt-shaped pages and photographed
receipts, Tesseract for the rest (``DOCAI_OCR_ENGINE=auto``).

The decision is made before any OCR from a few image measurements (:func:`page_features`,
a few ms on a copy :data:`WORK_WIDTH` pixels wide). The rule (:func:`prefers_rapid`) is a
one-threshold decision fitted by ``benchmarks.ocr_route`` on pages read by both engines
(the SROIE training pool's receipts and born-digital corpus pages rendered as images),
to minimise the routed CER; that benchmark reports the rule's CER on held-out folds. It
came out as the page's shape: receipts are narrow strips; on A4 and letter pages
Tesseract reads clean print far better (CER 0.011 against RapidOCR's 0.107) and ~4
times faster. A second rule (:data:`WIDTH_THRESHOLD`) catches receipts photographed on a
desk, which are not narrow.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from prefect_docai.engines.page import raster

WORK_WIDTH = 400
FEATURES = ("aspect", "paper_unevenness", "ink_contrast", "saturation", "text_width")

RULE_FEATURE = "aspect"
"""The measurement the shipped rule splits on (``benchmarks.ocr_route``: chosen on each
fold and on all pages alike)."""
RULE_THRESHOLD = 0.6837
"""RapidOCR reads a page whose :data:`RULE_FEATURE` is below this: narrower than A4
portrait (0.707). Fitted on the SROIE pool's 240 receipts and 16 rendered born-digital
pages (0.6767 and 0.6837 on either half). Held out, routed CER 0.044 / 0.058 on the
receipts (Tesseract 0.095 / 0.112, RapidOCR alone 0.044 / 0.051) and 0.011 on the
rendered pages (RapidOCR alone 0.105-0.109)."""

NO_TEXT_WIDTH = 1000.0
"""``text_width`` of a page with too few glyphs to measure: as wide as any page's text, so
such a page never goes to RapidOCR for being narrow."""
UNEVEN_THRESHOLD = 0.137
WIDTH_THRESHOLD = 51.0
"""The second rule: a page the aspect rule leaves to Tesseract goes to RapidOCR when it is a
photo (paper unevenness above :data:`UNEVEN_THRESHOLD`; scans and renders stay below 0.05)
and its text runs narrower than :data:`WIDTH_THRESHOLD` glyph heights: a till receipt
photographed with the desk around it, as wide as an A4 page, from which Tesseract dropped
the column of amounts. Fitted by ``benchmarks.ocr_route_photos`` on generated phone photos
(receipts and A4 documents), the SROIE pool's A4-shaped scans and rendered born-digital
pages; this is the rule fitted on its fold 1. Held out on fold 0, photos word F1 0.719 ->
0.778 and no scan or rendered page moved (fold 0's own rule, 0.0 / 50.2, on fold 1: photos
0.767 -> 0.877). The rule fitted on all pages (0.004 / 73.2) is not used: the fit has no
scanned A4 pages, and it would send scanned forms and photocopied invoices (unevenness
0.004-0.05, text width 62-71) to the 5-8 times slower RapidOCR."""


def page_features(image: npt.NDArray[np.uint8]) -> dict[str, float]:
    """Measurements of a page raster (grey ``(h, w)`` or RGB ``(h, w, 3)``):

    * ``aspect`` — width / height (till receipts are narrow strips);
    * ``paper_unevenness`` — spread (10th..90th percentile, 0..1) of the paper's local
      brightness: shadows and uneven light of photos, flat for scans and renders;
    * ``ink_contrast`` — paper brightness minus the darkest ink (0..1): faint thermal print;
    * ``saturation`` — mean colour saturation (0..1; 0 for grey rasters);
    * ``text_width`` — how wide the text runs in glyph heights (:func:`raster.text_width`;
      :data:`NO_TEXT_WIDTH` when too few glyphs): a receipt photographed on a desk is no
      narrow strip, but its lines stay short.
    """
    features = _paper_features(image)
    measured = raster.text_width(raster.rgb_to_gray(image))
    return {**features, "text_width": NO_TEXT_WIDTH if measured is None else measured}


def _paper_features(image: npt.NDArray[np.uint8]) -> dict[str, float]:
    """:func:`page_features` but ``text_width``, measured on the copy :data:`WORK_WIDTH`
    pixels wide (``text_width`` reads the whole raster's glyphs: most of the cost)."""
    import cv2

    height, width = image.shape[:2]
    scale = min(1.0, WORK_WIDTH / max(width, 1))
    size = (max(1, round(width * scale)), max(1, round(height * scale)))
    small = cv2.resize(image, size, interpolation=cv2.INTER_AREA) if scale < 1.0 else image
    if small.ndim == 3:
        high = small.max(axis=2).astype(np.float32)
        low = small.min(axis=2).astype(np.float32)
        saturation = float(np.mean((high - low) / np.maximum(high, 1.0)))
        gray = cv2.cvtColor(np.ascontiguousarray(small[:, :, :3]), cv2.COLOR_RGB2GRAY)
    else:
        saturation = 0.0
        gray = small
    kernel = max(5, (min(gray.shape) // 20) | 1)
    paper = cv2.blur(cv2.dilate(gray, np.ones((kernel, kernel), np.uint8)), (kernel, kernel))
    p10, p90 = (float(v) for v in np.percentile(paper, (10, 90)))
    darkest = float(np.percentile(gray, 1))
    return {
        "aspect": width / max(height, 1),
        "paper_unevenness": (p90 - p10) / 255.0,
        "ink_contrast": max(0.0, p90 - darkest) / 255.0,
        "saturation": saturation,
    }


def prefers_rapid(image: npt.NDArray[np.uint8]) -> bool:
    """Whether RapidOCR should read this page rather than Tesseract (see the module)."""
    height, width = image.shape[:2]
    if width / max(height, 1) < RULE_THRESHOLD:  # no need to measure the rest
        return True
    if not _paper_features(image)["paper_unevenness"] > UNEVEN_THRESHOLD:
        return False  # no photo: the text's width is not measured (scans, renders)
    measured = raster.text_width(raster.rgb_to_gray(image))
    return (NO_TEXT_WIDTH if measured is None else measured) < WIDTH_THRESHOLD
