"""Till receipt photos and scans → the grayscale views the page loader OCRs.

Receipts defeat a plain grayscale Tesseract pass in three ways measured on the SROIE scans:
coloured print (red or violet headers and totals) turns light grey under the luminance
formula; dot-matrix print falls apart into separate dots that Tesseract's page layout drops
as noise; and cheap scans carry glyphs 8–15 px tall. So the loader reads two views and
keeps, line by line, the more confident reading (:func:`ocr.merge_readings`):

* the **plain** view — colour-aware grayscale at the loader's usual text-size
  normalisation, so clean receipts read exactly as before;
* the **joined** view — flattened background, glyphs scaled to ~32 px, contrast stretched
  and a Gaussian blur about one dot pitch wide, which fuses dot-matrix dots into strokes.
"""

from __future__ import annotations

import numpy as np
from PIL import Image

from prefect_docai.engines.page import raster
from prefect_docai.engines.page.document import OcrView

COLOURED_INK_SATURATION = 0.25
"""Median saturation of the ink above which the print counts as coloured."""
JOINED_GLYPH_HEIGHT = 32.0
"""Target glyph height (px, capitals and digits) of the joined view."""
JOINED_MAX_SCALE = 3.0
JOINED_MIN_SCALE = 0.4
JOINED_MAX_PIXELS = 30_000_000
"""The joined view is never enlarged beyond this (memory and Tesseract time on big photos)."""
BLUR_PER_GLYPH = 0.05
"""Gaussian sigma per pixel of glyph height: 1.6 px at 32 px, about one dot pitch of a
9-pin print head."""
JOINED_PSM = 4
"""Tesseract's "single column of text of variable sizes": a till receipt."""
_WORK_WIDTH = 1200
_STRIP_ROWS = 256


def receipt_gray(image: Image.Image) -> raster.Gray:
    """Grayscale in which coloured ink is as dark as black ink.

    The luminance formula maps red print to ~130 of 255; the darkest RGB channel keeps it
    near its real contrast against white paper. Black-on-white photos stay on luminance:
    their darkest channel only adds the JPEG colour noise of the blue channel."""
    if image.mode not in ("RGB", "RGBA"):
        return raster.to_gray(image)
    rgb = np.asarray(image.convert("RGB"))
    if not coloured_ink(rgb):
        return raster.to_gray(image)
    return np.ascontiguousarray(rgb.min(axis=2), dtype=np.uint8)


def coloured_ink(rgb: np.ndarray) -> bool:
    """Whether the dark marks of an RGB page are mostly coloured rather than grey."""
    import cv2

    height, width = rgb.shape[:2]
    scale = min(1.0, _WORK_WIDTH / max(width, 1))
    small = (cv2.resize(rgb, (max(1, int(width * scale)), max(1, int(height * scale))),
                        interpolation=cv2.INTER_AREA) if scale < 1.0 else rgb)
    high = small.max(axis=2).astype(np.float32)
    low = small.min(axis=2).astype(np.float32)
    paper = float(np.percentile(high, 90))
    # Ink: clearly darker than the paper in its darkest channel.
    ink = low < paper - 80
    if int(ink.sum()) < 200:
        return False
    saturation = (high[ink] - low[ink]) / np.maximum(high[ink], 1.0)
    return float(np.median(saturation)) > COLOURED_INK_SATURATION


def glyph_height(gray: raster.Gray) -> float | None:
    """Typical height (px) of capitals and digits, dot-matrix print included.

    A small closing joins the dots of dot-matrix glyphs before connected components are
    measured (otherwise every dot counts as a 2-px glyph); the 75th percentile of the
    glyph-sized components is the cap height, not the x-height."""
    import cv2

    height, width = gray.shape
    scale = min(1.0, _WORK_WIDTH / max(width, 1))
    small = (cv2.resize(gray, (max(1, int(width * scale)), max(1, int(height * scale))),
                        interpolation=cv2.INTER_AREA) if scale < 1.0 else gray)
    _, binary = cv2.threshold(small, 0, 255, cv2.THRESH_BINARY_INV + cv2.THRESH_OTSU)
    binary = cv2.morphologyEx(binary, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    count, _, stats, _ = cv2.connectedComponentsWithStats(binary, connectivity=8)
    if count < 2:
        return None
    h = stats[1:, cv2.CC_STAT_HEIGHT].astype(np.float64)
    w = stats[1:, cv2.CC_STAT_WIDTH].astype(np.float64)
    glyph = (h >= 5) & (h <= 0.05 * small.shape[0] + 60) & (w <= 3 * h) & (w >= 0.15 * h)
    if int(glyph.sum()) < 20:
        return None
    return float(np.percentile(h[glyph], 75)) / float(scale)


def flatten_background(gray: raster.Gray) -> raster.Gray:
    """Divide by the paper's own brightness (a max filter wider than any stroke, then a box
    blur): shadows, tinted thermal paper and uneven lighting become flat white."""
    import cv2

    height, width = gray.shape
    kernel = max(15, (min(height, width) // 40) | 1)
    paper = cv2.dilate(gray, np.ones((kernel, kernel), np.uint8))
    level = cv2.blur(paper, (kernel, kernel))
    del paper
    flat = np.empty_like(gray)
    for rows in _strips(height):
        # float32 a strip at a time: a 600-dpi A4 scan's whole page would take 140 MB a copy.
        scaled = gray[rows].astype(np.float32) * (
            255.0 / np.maximum(level[rows].astype(np.float32), 1.0)
        )
        flat[rows] = np.clip(scaled, 0, 255).astype(np.uint8)
    return flat


def stretch_contrast(gray: raster.Gray) -> raster.Gray:
    """Map the 1st..99th percentile to full black..white (faint thermal print)."""
    low, high = (float(v) for v in np.percentile(gray, (1, 99)))
    if high - low < 8:
        return gray
    out = np.empty_like(gray)
    for rows in _strips(gray.shape[0]):
        stretched = (gray[rows].astype(np.float32) - low) * (255.0 / (high - low))
        out[rows] = np.clip(stretched, 0, 255).astype(np.uint8)
    return out


def _strips(height: int) -> list[slice]:
    """Row bands of :data:`_STRIP_ROWS`: per-pixel float work done band by band gives the
    same bytes as on the whole page, in a fraction of the memory."""
    return [slice(top, min(height, top + _STRIP_ROWS)) for top in range(0, height, _STRIP_ROWS)]


def joined_view(gray: raster.Gray) -> OcrView:
    """The dot-joining view of a receipt (see the module docstring)."""
    import cv2

    measured = glyph_height(gray)
    factor = 1.0
    if measured is not None:
        factor = min(max(JOINED_GLYPH_HEIGHT / measured, JOINED_MIN_SCALE), JOINED_MAX_SCALE)
    factor = min(factor, max(1.0, (JOINED_MAX_PIXELS / max(gray.size, 1)) ** 0.5))
    flat = flatten_background(gray)
    if abs(factor - 1.0) > 0.05:
        height, width = flat.shape
        size = (max(1, round(width * factor)), max(1, round(height * factor)))
        flat = np.asarray(cv2.resize(
            flat, size, interpolation=cv2.INTER_AREA if factor < 1 else cv2.INTER_CUBIC
        ), dtype=np.uint8)
    else:
        factor = 1.0
    sigma = BLUR_PER_GLYPH * (measured * factor if measured else JOINED_GLYPH_HEIGHT)
    joined = cv2.GaussianBlur(stretch_contrast(flat), (0, 0), sigma)
    return OcrView(np.ascontiguousarray(joined, dtype=np.uint8), factor, JOINED_PSM)


def receipt_views(image: Image.Image) -> list[OcrView]:
    """The plain and the joined view of a receipt page (``load_document(prepare=...)``)."""
    gray = receipt_gray(image)
    plain, factor = raster.normalize_scale(gray)
    return [OcrView(plain, factor), joined_view(gray)]
