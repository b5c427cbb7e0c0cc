"""Words from a PDF page's text layer, and whether that layer is usable.

PDFium (through :mod:`prefect_docai.files.pdfium`, which groups characters into words and
maps their boxes to the upright page) gives the words; this module decides whether they
can stand in for OCR: a layer with too many unreadable characters is a broken font
encoding, and a page mostly covered by images with only a few characters is a scan with a
stamp or page number on top (unless those characters are an invisible OCR layer).
"""

from __future__ import annotations

from dataclasses import dataclass

from prefect_docai.engines.page.model import Word
from prefect_docai.files.pdfium import PdfFile

_SCAN_MAX_CHARS = 200
"""A page mostly covered by images with fewer characters than this is a scan with a stamp,
header or page number on top: OCR it."""
_MAX_BAD_SHARE = 0.08
"""More unreadable characters than this share means a broken font encoding: OCR instead."""


@dataclass(frozen=True)
class TextLayer:
    words: list[Word]
    """In content-stream order, confidence 1.0, not yet laid out into lines."""
    usable: bool
    reason: str
    """Why the layer is (not) used: ``ok``, ``empty``, ``garbled``, ``image``."""


def read_text_layer(pdf: PdfFile, index: int) -> TextLayer:
    """The text layer of page ``index`` (0-based) of an open PDF."""
    chars = pdf.text_chars(index, cover_below=_SCAN_MAX_CHARS)
    if chars.visible == 0:
        return TextLayer([], False, "empty")
    words = [
        Word(word.text, word.bbox, 1.0, font_size=word.font_size or None)
        for word in chars.words
    ]
    if chars.bad > _MAX_BAD_SHARE * chars.visible:
        return TextLayer(words, False, "garbled")
    if chars.image_cover is not None and chars.image_cover > 0.5:
        invisible = sum(word.invisible for word in chars.words)
        searchable_scan = words and invisible > 0.8 * len(words)
        if not searchable_scan:
            return TextLayer(words, False, "image")
    return TextLayer(words, True, "ok")
