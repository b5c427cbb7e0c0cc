"""A second OCR look inside the ruled tables of a scan.

Tesseract's page layout analysis drops much of what sits inside a ruled grid: short
entries boxed in by rules (``NA``, ``0.16``) and print on grey cell shading read as
picture, not text. On the visible ICDAR scans whole columns of a ruled table came out
empty although the born-digital page has them. Each ruled grid found on the page's
rulings (``lattice.find_ruled_tables``) is cut out of the page raster in the straight frame,
its rules painted white, binarized (a local threshold: shading goes, print stays) and read
in sparse-text mode; a word read there with confidence where the page's own OCR pass read
nothing is added to the page's words. Nothing the first pass read is replaced.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import numpy as np
from numpy.typing import NDArray

from prefect_docai.engines.page.model import Word
from prefect_docai.engines.tables.geometry import Box, PageInput, PointWord, Ruling
from prefect_docai.engines.tables.lattice import find_ruled_tables

MIN_CONFIDENCE = 0.5
"""A second-look word below this (0..1) is taken for rule remains or noise."""
_SPARSE_TEXT = 11
"""Tesseract page segmentation mode: as much text as possible, in no particular order."""
_STRIP = "|[]_"
_STROKE = 1.6
"""Straight strokes longer than this many glyph heights are rules, not letters."""
SINGLE_CONFIDENCE = 0.9
"""A one-character word needs this much: rule remains read as ``l``, ``J``, ``i``."""
"""Glyphs that rule remains read as at a word's ends."""


def table_regions(page: PageInput) -> list[Box]:
    """The boxes of the ruled grids on ``page``'s rulings (points, straight frame)."""
    return [t.box for t in find_ruled_tables(page.number, page.segments)]


def _erase_rules(
    crop: NDArray[np.uint8], rules: list[Ruling], scale: float, x0: int, y0: int
) -> None:
    import cv2

    width = max(3, round(scale * 2.5))
    for r in rules:
        a = (round(r.x0 * scale) - x0, round(r.y0 * scale) - y0)
        b = (round(r.x1 * scale) - x0, round(r.y1 * scale) - y0)
        cv2.line(crop, a, b, 255, width)


def _binarize(crop: NDArray[np.uint8], dpi: float, em: float) -> NDArray[np.uint8]:
    """Black print on white; shading and the remains of rules the ruling finder missed
    (straight strokes longer than :data:`_STROKE` glyph heights) are white."""
    import cv2

    block = max(15, int(dpi * 0.14)) | 1  # about a glyph height and a half
    out = cv2.adaptiveThreshold(
        crop, 255, cv2.ADAPTIVE_THRESH_GAUSSIAN_C, cv2.THRESH_BINARY, block, 20
    )
    ink = 255 - out
    length = max(9, round(_STROKE * em * dpi / 72.0))
    strokes = [
        cv2.morphologyEx(ink, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, shape))
        for shape in ((length, 1), (1, length))
    ]
    lines = cv2.dilate(cv2.bitwise_or(strokes[0], strokes[1]), np.ones((3, 3), np.uint8))
    out[lines > 0] = 255
    return np.ascontiguousarray(out, dtype=np.uint8)


def _free(box: Box, words: list[PointWord]) -> bool:
    """No word of the first pass covers ``box``'s centre or most of it."""
    area = max(1e-6, box.width * box.height)
    for w in words:
        if w.box.contains_point(box.cx, box.cy, 1.0):
            return False
        if w.box.intersection_area(box) > 0.3 * area:
            return False
    return True


def _free_of(words: list[PointWord]) -> Callable[[Box], bool]:
    """:func:`_free` against ``words``, their boxes taken as columns once: a page's
    thousands of words are tested at once (the same float tests, word by word)."""
    x0, y0, x1, y1 = np.array(
        [(w.box.x0, w.box.y0, w.box.x1, w.box.y1) for w in words], dtype=np.float64
    ).reshape(-1, 4).T

    def free(box: Box) -> bool:
        area = max(1e-6, box.width * box.height)
        cx, cy = box.cx, box.cy
        centre = (x0 - 1.0 <= cx) & (cx <= x1 + 1.0) & (y0 - 1.0 <= cy) & (cy <= y1 + 1.0)
        w = np.minimum(x1, box.x1) - np.maximum(x0, box.x0)
        h = np.minimum(y1, box.y1) - np.maximum(y0, box.y0)
        covered = (w > 0) & (h > 0) & (w * h > 0.3 * area)
        return not bool(np.any(centre | covered))

    return free


def reread_tables(
    page: PageInput, gray: NDArray[np.uint8], dpi: float, languages: str
) -> list[PointWord]:
    """Words read in ``page``'s ruled grids on ``gray`` (the page raster at ``dpi``, in the
    frame of ``page.words``) where ``page.words`` has none."""
    from prefect_docai.engines.page import ocr

    regions = table_regions(page)
    if not regions:
        return []
    scale = dpi / 72.0
    em = page.em()
    height, width = gray.shape
    found: list[PointWord] = []
    free = _free_of(page.words)
    block = 1 + max((w.word.block for w in page.words), default=0)
    for region in regions:
        line = 1 + max((w.word.line for w in page.words + found), default=0)
        x0 = max(0, int((region.x0 - 2) * scale))
        y0 = max(0, int((region.y0 - 2) * scale))
        x1 = min(width, int((region.x1 + 2) * scale) + 1)
        y1 = min(height, int((region.y1 + 2) * scale) + 1)
        if x1 - x0 < 8 or y1 - y0 < 8:
            continue
        crop = np.array(gray[y0:y1, x0:x1], dtype=np.uint8)
        _erase_rules(crop, page.segments, scale, x0, y0)
        for w in ocr.recognize(_binarize(crop, dpi, em), round(dpi), languages, _SPARSE_TEXT):
            text = w.text.strip(_STRIP).strip()
            if w.confidence < MIN_CONFIDENCE or not any(c.isalnum() for c in text):
                continue  # rule remains and specks read as punctuation
            if len(text) == 1 and w.confidence < SINGLE_CONFIDENCE:
                continue
            box = Box(
                (w.box[0] + x0) / scale,
                (w.box[1] + y0) / scale,
                (w.box[2] + x0) / scale,
                (w.box[3] + y0) / scale,
            )
            if box.height < 0.4 * em or not region.contains_point(box.cx, box.cy):
                continue
            if not (free(box) and _free(box, found)):
                continue
            word = Word(
                text=text,
                bbox=(
                    box.x0 / page.width,
                    box.y0 / page.height,
                    box.x1 / page.width,
                    box.y1 / page.height,
                ),
                confidence=w.confidence,
                line=line + w.line,
                block=block,
                font_size=round(box.height, 1),
                page=page.number,
            )
            found.append(PointWord(word, box))
        block += 1
    return found


def with_reread(page: PageInput, gray: NDArray[np.uint8], dpi: float, languages: str) -> PageInput:
    """``page`` with the words of :func:`reread_tables` added (OCR pages only)."""
    if not page.ocr:
        return page
    extra = reread_tables(page, gray, dpi, languages)
    return replace(page, words=page.words + extra) if extra else page
