"""The page model every engine shares (ARCHITECTURE.md §2).

One loader turns any upload into pages; each page has a lazily rendered raster and a word
layer (text-layer words for born-digital PDF pages, Tesseract words otherwise), so OCR
happens once per page whichever tool asks.

Coordinates: ``bbox`` is ``(x0, y0, x1, y1)`` as fractions of the upright page's width and
height, origin top-left (the RESULTS.md convention).
"""

from __future__ import annotations

from dataclasses import dataclass

BBox = tuple[float, float, float, float]


@dataclass(frozen=True)
class Word:
    text: str
    bbox: BBox
    confidence: float
    """0..1; 1.0 for words from a PDF text layer."""
    line: int
    """Line id, unique within the page, in reading order."""
    block: int
    """Block (paragraph/column) id, unique within the page."""
    font_size: float | None = None
    """Glyph height in points where known."""


@dataclass(frozen=True)
class Line:
    text: str
    bbox: BBox
    confidence: float
    words: tuple[Word, ...]
    block: int
