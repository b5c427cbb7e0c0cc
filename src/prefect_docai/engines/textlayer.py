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


def _bad_char(char: str, code: int, map_error: bool) -> bool:
    if map_error or code in (0, 0xFFFD) or 0xE000 <= code <= 0xF8FF or code >= 0xF0000:
        return True
    category = unicodedata.category(char)
    return category in ("Cc", "Cf", "Co", "Cn", "Cs") and char not in "\t\r\n"


def _to_upright(box: BBox, crop: BBox, rotation: int) -> BBox:
    """PDF user-space box (l, b, r, t) → upright page fractions (x0, y0, x1, y1)."""
    left, bottom, right, top = crop
    width = max(right - left, 1e-6)
    height = max(top - bottom, 1e-6)
    u0 = (box[0] - left) / width
    u1 = (box[2] - left) / width
    v0 = (top - box[3]) / height
    v1 = (top - box[1]) / height
    if rotation == 90:
        x0, y0, x1, y1 = 1 - v1, u0, 1 - v0, u1
    elif rotation == 180:
        x0, y0, x1, y1 = 1 - u1, 1 - v1, 1 - u0, 1 - v0
    elif rotation == 270:
        x0, y0, x1, y1 = v0, 1 - u1, v1, 1 - u0
    else:
        x0, y0, x1, y1 = u0, v0, u1, v1
    clamp = _clamp
    return (clamp(x0), clamp(y0), clamp(x1), clamp(y1))


def _clamp(value: float) -> float:
    return 0.0 if value < 0.0 else 1.0 if value > 1.0 else value


def read_text_layer(textpage: object, crop: BBox, rotation: int, image_cover: float) -> TextLayer:
    """Words of one page's text layer.

    ``textpage`` is the raw ``FPDF_TEXTPAGE`` handle, ``crop`` the crop box (l, b, r, t) in
    user space, ``rotation`` the page's ``/Rotate``, ``image_cover`` the share of the page
    covered by image objects (a scan with a few text objects on top is still a scan).
    """
    import pypdfium2.raw as pdfium_c

    count = pdfium_c.FPDFText_CountChars(textpage)
    rect = pdfium_c.FS_RECTF()
    rect_ref = ctypes.byref(rect)
    get_unicode = pdfium_c.FPDFText_GetUnicode
    get_box = pdfium_c.FPDFText_GetLooseCharBox
    is_generated = pdfium_c.FPDFText_IsGenerated
    map_error = pdfium_c.FPDFText_HasUnicodeMapError
    font_size = pdfium_c.FPDFText_GetFontSize
    text_object = pdfium_c.FPDFText_GetTextObject
    render_mode = pdfium_c.FPDFTextObj_GetTextRenderMode
    invisible = 0

    # Characters are grouped in upright page points (y down), so a page turned by /Rotate
    # groups like any other.
    crop_w, crop_h = crop[2] - crop[0], crop[3] - crop[1]
    page_w, page_h = (crop_h, crop_w) if rotation in (90, 270) else (crop_w, crop_h)
    page_w, page_h = max(page_w, 1e-6), max(page_h, 1e-6)

    words: list[RawWord] = []
    visible = bad = 0
    chars: list[str] = []
    x0 = y0 = x1 = y1 = 0.0
    size = 0.0

    def flush() -> None:
        if chars:
            text = "".join(chars)
            box = (x0 / page_w, y0 / page_h, x1 / page_w, y1 / page_h)
            words.append(RawWord(text, box, size))
            chars.clear()

    for index in range(count):
        code = get_unicode(textpage, index)
        char = chr(code) if 0 <= code < 0x110000 else "\ufffd"
        if char.isspace() or is_generated(textpage, index) == 1 or code == 0xFFFE:
            flush()
            continue
        get_box(textpage, index, rect_ref)
        low, high = min(rect.bottom, rect.top), max(rect.bottom, rect.top)
        u0, v0, u1, v1 = _to_upright((rect.left, low, rect.right, high), crop, rotation)
        left, top, right, bottom = u0 * page_w, v0 * page_h, u1 * page_w, v1 * page_h
        visible += 1
        if _bad_char(char, code, map_error(textpage, index) == 1):
            bad += 1
            flush()
            continue
        height = bottom - top
        if chars:
            gap = left - x1
            overlap = min(bottom, y1) - max(top, y0)
            same_line = overlap > 0.4 * min(height, y1 - y0)
            if not same_line or gap > 0.33 * max(height, y1 - y0) or gap < -height:
                flush()
        if chars:
            x0, y0 = min(x0, left), min(y0, top)
            x1, y1 = max(x1, right), max(y1, bottom)
        else:
            x0, y0, x1, y1 = left, top, right, bottom
            size = float(font_size(textpage, index))
            # Checked once per word: invisible text over an image is an OCR layer.
            handle = text_object(textpage, index)
            if handle and render_mode(handle) == pdfium_c.FPDF_TEXTRENDERMODE_INVISIBLE:
                invisible += 1
        chars.append(char)
    flush()

    if visible == 0:
        return TextLayer([], False, "empty")
    if bad > _MAX_BAD_SHARE * visible:
        return TextLayer(words, False, "garbled")
    searchable_scan = invisible > 0.8 * max(1, len(words))
    if image_cover > 0.5 and visible < _SCAN_MAX_CHARS and not searchable_scan:
        return TextLayer(words, False, "image")
    return TextLayer(words, True, "ok")
