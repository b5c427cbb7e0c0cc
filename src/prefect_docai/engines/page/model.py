"""The page model: one engine-independent word/box tree every tool reads.

In the spirit of OCRmyPDF's ``models/ocr_element.py``: a page is lines of words, each with
a box and a confidence, whatever produced them (a PDF text layer or Tesseract). Every
tool's view of words grows from :class:`Word`: extraction rows and segments hold these
words, table finding and page classification take them as they are.

Coordinates: ``bbox`` is ``(x0, y0, x1, y1)`` as fractions of the upright page's width and
height, origin top-left (the docs/results.md convention; the JSON contract's
``models.results.ResultBBox`` is this box rounded).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

BBox = tuple[float, float, float, float]
"""``(x0, y0, x1, y1)``: fractions of the upright page, origin top-left."""


def union(boxes: Iterable[BBox]) -> BBox:
    """The smallest box holding all ``boxes`` (at least one)."""
    items = list(boxes)
    return (
        min(b[0] for b in items),
        min(b[1] for b in items),
        max(b[2] for b in items),
        max(b[3] for b in items),
    )


@dataclass(frozen=True)
class Word:
    """A word on a page.

    Before layout (:func:`prefect_docai.engines.page.layout.build_lines`) ``line`` and
    ``block`` are the recognizer's own ids (Tesseract) or meaningless (text layer); after
    it they are the page's line and block in reading order.
    """

    text: str
    bbox: BBox
    confidence: float
    """0..1; 1.0 for words from a PDF text layer."""
    line: int = 0
    """Line id, unique within the page, in reading order."""
    block: int = 0
    """Block (paragraph/column) id, unique within the page."""
    font_size: float | None = None
    """Glyph height in points where known."""
    page: int = 1
    """1-based page number."""

    @property
    def height(self) -> float:
        return self.bbox[3] - self.bbox[1]

    @property
    def xc(self) -> float:
        return (self.bbox[0] + self.bbox[2]) / 2

    @property
    def yc(self) -> float:
        return (self.bbox[1] + self.bbox[3]) / 2


@dataclass(frozen=True)
class Line:
    """A line of words in reading order (its words share one ``line`` id)."""

    text: str
    bbox: BBox
    confidence: float
    words: tuple[Word, ...]
    block: int
