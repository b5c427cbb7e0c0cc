"""Words from a PDF page's text layer (pypdfium2), and whether that layer is usable.

pdfium gives characters in content-stream order with boxes in PDF user space. Characters
are grouped into words here (whitespace, pdfium's generated separators, or a gap wider than
a third of the glyph height end a word), then boxes are mapped to fractions of the upright
page (crop box, ``/Rotate``). Calls go through ``pypdfium2.raw`` directly: the object API
costs ~4× more per character.
"""

from __future__ import annotations

import ctypes
import unicodedata
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

BBox = tuple[float, float, float, float]

_SCAN_MAX_CHARS = 200
"""A page mostly covered by images with fewer characters than this is a scan with a stamp,
header or page number on top: OCR it."""
_MAX_BAD_SHARE = 0.08
"""More unreadable characters than this share means a broken font encoding: OCR instead."""


@dataclass(frozen=True)
class RawWord:
    text: str
    bbox: BBox
    """Fractions of the upright page, origin top-left."""
    font_size: float


@dataclass(frozen=True)
class TextLayer:
    words: list[RawWord]
    usable: bool
    reason: str
    """Why the layer is (not) used: ``ok``, ``empty``, ``garbled``, ``image``."""


_BAD_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cn", "Cs"})


def _bad_char(char: str) -> bool:
    code = ord(char)
    if code in (0, 0xFFFD) or 0xE000 <= code <= 0xF8FF or code >= 0xF0000:
        return True
    return unicodedata.category(char) in _BAD_CATEGORIES


def _upright_arrays(
    left: npt.NDArray[np.float64],
    bottom: npt.NDArray[np.float64],
    right: npt.NDArray[np.float64],
    top: npt.NDArray[np.float64],
    crop: BBox,
    rotation: int,
) -> tuple[npt.NDArray[np.float64], ...]:
    """User-space boxes → upright page points (x0, y0, x1, y1; y down), vectorized."""
    c_left, c_bottom, c_right, c_top = crop
    u0, u1 = left - c_left, right - c_left
    v0, v1 = c_top - top, c_top - bottom
    width, height = c_right - c_left, c_top - c_bottom
    if rotation == 90:
        return height - v1, u0, height - v0, u1
    if rotation == 180:
        return width - u1, height - v1, width - u0, height - v0
    if rotation == 270:
        return v0, width - u1, v1, width - u0
    return u0, v0, u1, v1


def _image_cover(page: object, area: float) -> float:
    """Share of the page covered by image objects, descending into form XObjects."""
    import pypdfium2.raw as pdfium_c

    left, bottom, right, top = (ctypes.c_float() for _ in range(4))
    refs = [ctypes.byref(v) for v in (left, bottom, right, top)]
    covered = 0.0

    def visit(count: int, get: Any, depth: int) -> None:
        nonlocal covered
        for index in range(count):
            obj = get(index)
            kind = pdfium_c.FPDFPageObj_GetType(obj)
            if kind == pdfium_c.FPDF_PAGEOBJ_IMAGE:
                if pdfium_c.FPDFPageObj_GetBounds(obj, *refs):
                    covered += max(0.0, right.value - left.value) * max(
                        0.0, top.value - bottom.value
                    )
            elif kind == pdfium_c.FPDF_PAGEOBJ_FORM and depth < 8:
                visit(
                    pdfium_c.FPDFFormObj_CountObjects(obj),
                    lambda i, o=obj: pdfium_c.FPDFFormObj_GetObject(o, i),
                    depth + 1,
                )

    visit(
        pdfium_c.FPDFPage_CountObjects(page),
        lambda i: pdfium_c.FPDFPage_GetObject(page, i),
        0,
    )
    return min(1.0, covered / max(area, 1e-6))


def read_text_layer(textpage: object, page: object, crop: BBox, rotation: int) -> TextLayer:
    """Words of one page's text layer.

    ``textpage``/``page`` are the raw ``FPDF_TEXTPAGE``/``FPDF_PAGE`` handles, ``crop`` the
    crop box (l, b, r, t) in user space, ``rotation`` the page's ``/Rotate``.

    One ctypes call per visible character (its loose box); the whole text comes from one
    ``FPDFText_GetText`` call, and grouping into words is vectorized with numpy: a word
    ends at whitespace (pdfium's generated separators included), at a gap wider than a
    third of the glyph height, or where the next glyph leaves the line.
    """
    import pypdfium2.raw as pdfium_c

    count = pdfium_c.FPDFText_CountChars(textpage)
    if count <= 0:
        return TextLayer([], False, "empty")
    buffer = ctypes.create_string_buffer((count + 1) * 2)
    written = pdfium_c.FPDFText_GetText(
        textpage, 0, count, ctypes.cast(buffer, ctypes.POINTER(ctypes.c_ushort))
    )
    text = buffer.raw[: max(0, written - 1) * 2].decode("utf-16-le", errors="replace")
    if len(text) != count:
        # Characters outside the BMP take two UTF-16 units: fall back to one call per char.
        text = "".join(
            chr(c) if 0 < (c := pdfium_c.FPDFText_GetUnicode(textpage, i)) < 0x110000 else "\ufffd"
            for i in range(count)
        )

    rect = pdfium_c.FS_RECTF()
    rect_ref = ctypes.byref(rect)
    get_box = pdfium_c.FPDFText_GetLooseCharBox
    indexes: list[int] = []
    boxes: list[tuple[float, float, float, float]] = []
    bad = 0
    for index, char in enumerate(text):
        if char.isspace() or char in "\ufffe\x02":
            continue
        if _bad_char(char):
            bad += 1
            continue
        get_box(textpage, index, rect_ref)
        indexes.append(index)
        boxes.append((rect.left, rect.bottom, rect.right, rect.top))
    visible = len(indexes) + bad
    if visible == 0:
        return TextLayer([], False, "empty")

    words: list[RawWord] = []
    if indexes:
        array = np.asarray(boxes, dtype=np.float64)
        low = np.minimum(array[:, 1], array[:, 3])
        high = np.maximum(array[:, 1], array[:, 3])
        x0, y0, x1, y1 = _upright_arrays(array[:, 0], low, array[:, 2], high, crop, rotation)
        x0, x1 = np.minimum(x0, x1), np.maximum(x0, x1)
        y0, y1 = np.minimum(y0, y1), np.maximum(y0, y1)
        idx = np.asarray(indexes)
        heights = y1 - y0
        # Break before character i when a skipped (space/bad) character sits in between,
        # the gap is wide, it runs backwards, or it does not share the line with i-1.
        breaks = np.ones(len(idx), dtype=bool)
        if len(idx) > 1:
            adjacent = idx[1:] == idx[:-1] + 1
            gap = x0[1:] - x1[:-1]
            tall = np.maximum(heights[1:], heights[:-1])
            overlap = np.minimum(y1[1:], y1[:-1]) - np.maximum(y0[1:], y0[:-1])
            same_line = overlap > 0.4 * np.minimum(heights[1:], heights[:-1])
            joined = adjacent & same_line & (gap <= 0.33 * tall) & (gap >= -heights[1:])
            breaks[1:] = ~joined
        starts = np.flatnonzero(breaks)
        ends = np.append(starts[1:], len(idx))
        wx0 = np.minimum.reduceat(x0, starts)
        wy0 = np.minimum.reduceat(y0, starts)
        wx1 = np.maximum.reduceat(x1, starts)
        wy1 = np.maximum.reduceat(y1, starts)
        crop_w, crop_h = crop[2] - crop[0], crop[3] - crop[1]
        page_w, page_h = (crop_h, crop_w) if rotation in (90, 270) else (crop_w, crop_h)
        page_w, page_h = max(page_w, 1e-6), max(page_h, 1e-6)
        font_size = pdfium_c.FPDFText_GetFontSize
        text_object = pdfium_c.FPDFText_GetTextObject
        render_mode = pdfium_c.FPDFTextObj_GetTextRenderMode
        invisible_mode = pdfium_c.FPDF_TEXTRENDERMODE_INVISIBLE
        invisible = 0
        for n, (start, end) in enumerate(zip(starts.tolist(), ends.tolist(), strict=True)):
            first = int(idx[start])
            word_text = "".join(text[int(i)] for i in idx[start:end])
            handle = text_object(textpage, first)
            # Invisible text over an image is an OCR layer (a searchable scan).
            if handle and render_mode(handle) == invisible_mode:
                invisible += 1
            words.append(
                RawWord(
                    word_text,
                    (
                        _clamp(float(wx0[n]) / page_w),
                        _clamp(float(wy0[n]) / page_h),
                        _clamp(float(wx1[n]) / page_w),
                        _clamp(float(wy1[n]) / page_h),
                    ),
                    float(font_size(textpage, first)),
                )
            )
    if bad > _MAX_BAD_SHARE * visible:
        return TextLayer(words, False, "garbled")
    area = (crop[2] - crop[0]) * (crop[3] - crop[1])
    if visible < _SCAN_MAX_CHARS and _image_cover(page, area) > 0.5:
        searchable_scan = words and invisible > 0.8 * len(words)
        if not searchable_scan:
            return TextLayer(words, False, "image")
    return TextLayer(words, True, "ok")


def _clamp(value: float) -> float:
    return 0.0 if value < 0.0 else 1.0 if value > 1.0 else value
