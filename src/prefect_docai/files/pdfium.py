"""The one door to PDFium (pypdfium2): every call in the process goes through :data:`LOCK`.

PDFium is not thread-safe, not even across documents, and in embedded mode the upload
route (its thread pool), the flow's page work and the engines share one process: one lock
for all of them, held here, is the only arrangement that holds. No other module imports
pypdfium2.

What the rest of the project needs from PDFium: the page count of an upload
(:func:`count_pages`), page sizes, ``/Rotate``, renders and the text layer's characters of
an open document (:class:`PdfFile`), and renders of every page of a small PDF
(:func:`render_pages`, for generated samples). Errors are pypdfium2's own
:data:`PdfiumError`; callers turn them into a :class:`~prefect_docai.files.errors.DocumentError`
with their own wording.
"""

from __future__ import annotations

import ctypes
import threading
import unicodedata
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
from PIL import Image

LOCK = threading.RLock()
"""Held around every PDFium call in the process (re-entrant: helpers nest)."""

PdfiumError = pdfium.PdfiumError






def count_pages(data: bytes) -> int:
    """Pages of a PDF held in memory (opens, counts, closes)."""
    with LOCK:
        pdf = pdfium.PdfDocument(data)
        try:
            return len(pdf)
        finally:
            pdf.close()


def render_pages(data: bytes, dpi: float, *, grayscale: bool) -> list[Image.Image]:
    """Every page rendered at ``dpi`` (``L`` or ``RGB``), as plain renders without forms."""
    with LOCK:
        document = pdfium.PdfDocument(data)
        try:
            pages = []
            for page in document:
                bitmap = page.render(scale=dpi / 72, grayscale=grayscale)
                pages.append(bitmap.to_pil().convert("L" if grayscale else "RGB"))
                page.close()
            return pages
        finally:
            document.close()


def render_page(data: bytes, index: int, dpi: float) -> Image.Image:
    """One page rendered in grayscale at ``dpi`` (``L``), without forms."""
    with LOCK:
        document = pdfium.PdfDocument(data)
        try:
            image: Image.Image = (
                document[index].render(scale=dpi / 72, grayscale=True).to_pil().convert("L")
            )
            return image
        finally:
            document.close()


@dataclass(frozen=True)
class TextWord:
    """A word of a page's text layer as PDFium draws it."""

    text: str
    bbox: tuple[float, float, float, float]
    """Fractions of the upright page (crop box, ``/Rotate``), origin top-left."""
    font_size: float
    invisible: bool
    """Drawn with the invisible text render mode (the OCR layer of a searchable scan)."""


@dataclass(frozen=True)
class TextChars:
    """A page's text layer: its words, and what the usability checks need."""

    words: list[TextWord]
    visible: int
    """Characters that are neither whitespace nor separators (unreadable ones included)."""
    bad: int
    """Unreadable characters (broken font encodings)."""
    image_cover: float | None
    """Share of the page covered by images; measured only on pages with fewer than
    ``cover_below`` visible characters (``None`` otherwise)."""


class PdfFile:
    """An open PDF; every method takes :data:`LOCK`. Close it (or use ``with``)."""

    def __init__(self, data: bytes) -> None:
        with LOCK:
            self._pdf: Any = pdfium.PdfDocument(data)

    def __len__(self) -> int:
        with LOCK:
            return len(self._pdf)

    def __enter__(self) -> PdfFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        with LOCK:
            if self._pdf is not None:
                self._pdf.close()
                self._pdf = None

    def page_size(self, index: int) -> tuple[float, float]:
        """Width and height in points, ``/Rotate`` applied."""
        with LOCK:
            width, height = self._pdf.get_page_size(index)
            return float(width), float(height)

    def rotation(self, index: int) -> int:
        """The page's ``/Rotate`` in clockwise degrees (0, 90, 180, 270)."""
        with LOCK:
            page = self._pdf[index]
            try:
                return int(page.get_rotation()) % 360
            finally:
                page.close()

    def render(self, index: int, scale: float, rotation: int, grayscale: bool) -> Image.Image:
        """The page at ``scale`` pixels per point, turned clockwise by ``rotation``, with
        form fields drawn; ``L`` or ``RGB`` (a copy: pdfium's buffer is freed here)."""
        with LOCK:
            page = self._pdf[index]
            try:
                bitmap = page.render(
                    scale=scale, rotation=rotation, grayscale=grayscale, may_draw_forms=True,
                )
                # to_pil() shares pdfium's buffer: copy before the bitmap is freed
                image: Image.Image = bitmap.to_pil().convert("L" if grayscale else "RGB")
                bitmap.close()
                return image
            finally:
                page.close()

    def text_chars(self, index: int, cover_below: int) -> TextChars:
        """The words of page ``index``'s text layer (see :func:`_read_words`)."""
        with LOCK:
            page = self._pdf[index]
            try:
                textpage = page.get_textpage()
                try:
                    crop = tuple(float(v) for v in page.get_cropbox())
                    return _read_words(
                        textpage.raw,
                        page.raw,
                        (crop[0], crop[1], crop[2], crop[3]),
                        int(page.get_rotation()) % 360,
                        cover_below,
                    )
                finally:
                    textpage.close()
            finally:
                page.close()


# --- the text layer, through pypdfium2.raw (the object API costs ~4x more per character) ---

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
    crop: tuple[float, float, float, float],
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


def _read_words(
    textpage: object, page: object, crop: tuple[float, float, float, float], rotation: int, cover_below: int
) -> TextChars:
    """Words of one page's text layer.

    ``textpage``/``page`` are the raw ``FPDF_TEXTPAGE``/``FPDF_PAGE`` handles, ``crop`` the
    crop box (l, b, r, t) in user space, ``rotation`` the page's ``/Rotate``.

    One ctypes call per visible character (its loose box); the whole text comes from one
    ``FPDFText_GetText`` call, and grouping into words is vectorized with numpy: a word
    ends at whitespace (pdfium's generated separators included), at a gap wider than a
    third of the glyph height, or where the next glyph leaves the line.
    """
    count = pdfium_c.FPDFText_CountChars(textpage)
    if count <= 0:
        return TextChars([], 0, 0, None)
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
        return TextChars([], 0, 0, None)

    words: list[TextWord] = []
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
        for n, (start, end) in enumerate(zip(starts.tolist(), ends.tolist(), strict=True)):
            first = int(idx[start])
            word_text = "".join(text[int(i)] for i in idx[start:end])
            handle = text_object(textpage, first)
            words.append(
                TextWord(
                    word_text,
                    (
                        _clamp(float(wx0[n]) / page_w),
                        _clamp(float(wy0[n]) / page_h),
                        _clamp(float(wx1[n]) / page_w),
                        _clamp(float(wy1[n]) / page_h),
                    ),
                    float(font_size(textpage, first)),
                    bool(handle) and render_mode(handle) == invisible_mode,
                )
            )
    cover = None
    if visible < cover_below:
        area = (crop[2] - crop[0]) * (crop[3] - crop[1])
        cover = _image_cover(page, area)
    return TextChars(words, visible, bad, cover)


def _clamp(value: float) -> float:
    return 0.0 if value < 0.0 else 1.0 if value > 1.0 else value
