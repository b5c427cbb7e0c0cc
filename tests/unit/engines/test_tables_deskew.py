"""Scanned pages in the straight frame (engines/tables/deskew.py)."""

from __future__ import annotations

import math

import numpy as np

from prefect_docai.engines.page.model import Word
from prefect_docai.engines.page.raster import deskew
from prefect_docai.engines.tables.deskew import (
    page_box,
    straight_box,
    straighten_image,
    straighten_words,
)
from prefect_docai.engines.tables.geometry import Box, PointWord
from prefect_docai.engines.tables.rulings import raster_segments

W, H = 600.0, 800.0


def _skewed(box: Box, angle: float) -> Box:
    """The axis-aligned box around ``box`` turned by the skew OCR corrects by ``angle``."""
    return page_box(box, angle, W, H)


def test_a_skewed_row_is_level_again() -> None:
    angle = 0.7
    row = [Box(60 + 90 * k, 300, 60 + 90 * k + 50, 310) for k in range(6)]
    skewed = [_skewed(b, angle) for b in row]
    spread = max(b.cy for b in skewed) - min(b.cy for b in skewed)
    assert spread > 5  # half a line over the row's width: lines would break
    words = [PointWord(Word(f"w{k}", (0, 0, 0, 0), 1.0), b) for k, b in enumerate(skewed)]
    back = straighten_words(words, angle, W, H)
    for w, b in zip(back, row, strict=True):
        assert abs(w.box.cx - b.cx) < 0.01 and abs(w.box.cy - b.cy) < 0.01
        assert abs(w.box.width - b.width) < 0.01 and abs(w.box.height - b.height) < 0.01


def test_straight_and_page_frame_round_trip() -> None:
    box = Box(100, 200, 300, 260)
    there = page_box(box, -0.5, W, H)
    assert there != box
    back = straight_box(there, -0.5, W, H)
    assert abs(back.cx - box.cx) < 0.01 and abs(back.cy - box.cy) < 0.01
    assert straighten_words([], 0.0, W, H) == []


def test_a_long_rule_on_a_skewed_scan_is_found_after_turning() -> None:
    dpi = 100
    gray = np.full((int(H * dpi / 72), int(W * dpi / 72)), 255, dtype=np.uint8)
    y = gray.shape[0] // 2
    gray[y : y + 2, 40:-40] = 0
    import cv2

    angle = 0.7
    # the scanner turned the page by -angle; OCR's deskew (and so the page's skew) is angle
    m = cv2.getRotationMatrix2D((gray.shape[1] / 2, gray.shape[0] / 2), angle, 1.0)
    scanned = cv2.warpAffine(gray, m, gray.shape[::-1], borderValue=255)
    assert abs(deskew(scanned).angle - angle) <= 0.2
    long_rules = lambda segs: [s for s in segs if s.horizontal and s.x1 - s.x0 > 0.8 * W]  # noqa: E731
    assert not long_rules(raster_segments(scanned, dpi))
    found = long_rules(raster_segments(straighten_image(scanned, deskew(scanned).angle), dpi))
    assert len(found) == 1
    assert math.isclose(found[0].y0, y * 72 / dpi, abs_tol=2.0)
