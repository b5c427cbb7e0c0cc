"""Which recognizer reads a page: RapidOCR for receipt-shaped pages, Tesseract for the
rest (``DOCAI_OCR_ENGINE=auto``).

The decision is made before any OCR from a few image measurements (:func:`page_features`,
a few ms on a copy :data:`WORK_WIDTH` pixels wide). The rule (:func:`prefers_rapid`) is a
one-threshold decision fitted by ``benchmarks.ocr_route`` on pages read by both engines
(the SROIE training pool's receipts and born-digital corpus pages rendered as images),
to minimise the routed CER; that benchmark reports the rule's CER on held-out folds. It
came out as the page's shape: receipts are narrow strips; on A4 and letter pages
Tesseract reads clean print far better (CER 0.011 against RapidOCR's 0.107) and ~4
times faster.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

WORK_WIDTH = 400
FEATURES = ("aspect", "paper_unevenness", "ink_contrast", "saturation")

RULE_FEATURE = "aspect"
"""The measurement the shipped rule splits on (``benchmarks.ocr_route``: chosen on each
fold and on all pages alike)."""
RULE_THRESHOLD = 0.6837
"""RapidOCR reads a page whose :data:`RULE_FEATURE` is below this: narrower than A4
portrait (0.707). Fitted on the SROIE pool's 240 receipts and 16 rendered born-digital
pages (0.6767 and 0.6837 on either half). Held out, routed CER 0.044 / 0.058 on the
receipts (Tesseract 0.095 / 0.112, RapidOCR alone 0.044 / 0.051) and 0.011 on the
rendered pages (RapidOCR alone 0.105-0.109)."""


def page_features(image: npt.NDArray[np.uint8]) -> dict[str, float]:
    """Measurements of a page raster (grey ``(h, w)`` or RGB ``(h, w, 3)``):

    * ``aspect`` — width / height (till receipts are narrow strips);
    * ``paper_unevenness`` — spread (10th..90th percentile, 0..1) of the paper's local
      brightness: shadows and uneven light of photos, flat for scans and renders;
    * ``ink_contrast`` — paper brightness minus the darkest ink (0..1): faint thermal print;
    * ``saturation`` — mean colour saturation (0..1; 0 for grey rasters).
    """
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
    if RULE_FEATURE == "aspect":  # no need to measure the rest
        height, width = image.shape[:2]
        return bool(width / max(height, 1) < RULE_THRESHOLD)
    return bool(page_features(image)[RULE_FEATURE] < RULE_THRESHOLD)
