"""Internal page geometry for table finding: everything in PDF points, origin top-left.

The shared page model speaks in page fractions; table finding needs absolute distances
(ruling tolerances, column gaps relative to glyph height), so pages are converted once.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from statistics import median

from prefect_docai.engines.page.model import Word


@dataclass(frozen=True)
class Box:
    x0: float
    y0: float
    x1: float
    y1: float

    @property
    def width(self) -> float:
        return self.x1 - self.x0

    @property
    def height(self) -> float:
        return self.y1 - self.y0

    @property
    def cx(self) -> float:
        return (self.x0 + self.x1) / 2

    @property
    def cy(self) -> float:
        return (self.y0 + self.y1) / 2

    def union(self, other: Box) -> Box:
        return Box(
            min(self.x0, other.x0),
            min(self.y0, other.y0),
            max(self.x1, other.x1),
            max(self.y1, other.y1),
        )

    def contains_point(self, x: float, y: float, tol: float = 0.0) -> bool:
        return self.x0 - tol <= x <= self.x1 + tol and self.y0 - tol <= y <= self.y1 + tol

    def intersection_area(self, other: Box) -> float:
        w = min(self.x1, other.x1) - max(self.x0, other.x0)
        h = min(self.y1, other.y1) - max(self.y0, other.y0)
        return w * h if w > 0 and h > 0 else 0.0


def union_all(boxes: list[Box]) -> Box:
    out = boxes[0]
    for b in boxes[1:]:
        out = out.union(b)
    return out


@dataclass(frozen=True)
class PointWord:
    """A page-model word with its box in points (a view: text and confidence are the
    word's own)."""

    word: Word
    box: Box

    @classmethod
    def of(cls, word: Word, width: float, height: float) -> PointWord:
        """``word`` on a page ``width`` × ``height`` points large."""
        x0, y0, x1, y1 = word.bbox
        return cls(word, Box(x0 * width, y0 * height, x1 * width, y1 * height))

    @property
    def text(self) -> str:
        return self.word.text

    @property
    def confidence(self) -> float:
        return self.word.confidence

    def with_text(self, text: str) -> PointWord:
        return PointWord(replace(self.word, text=text), self.box)


@dataclass(frozen=True)
class Ruling:
    """A ruling line: horizontal when ``y0 == y1``, vertical when ``x0 == x1``."""

    x0: float
    y0: float
    x1: float
    y1: float

    @property
    def horizontal(self) -> bool:
        return abs(self.y1 - self.y0) <= abs(self.x1 - self.x0)


@dataclass
class PageInput:
    number: int
    """1-based page number."""
    width: float
    height: float
    words: list[PointWord]
    segments: list[Ruling] = field(default_factory=list)
    fills: list[Box] = field(default_factory=list)
    """Filled shapes that are not rules (born-digital pages only): bars of a chart etc."""
    ocr: bool = False
    skew: float = 0.0
    """Degrees OCR deskewed the scan by; ``words`` and ``segments`` are in the straight frame
    (``engines.tables.deskew``), 0.0 for text-layer pages."""

    def em(self) -> float:
        """Typical glyph height on the page: the unit for gaps and tolerances."""
        heights = [w.box.height for w in self.words if w.box.height > 0]
        return median(heights) if heights else 10.0


def cluster_values(values: list[float], tol: float) -> list[float]:
    """Group sorted values whose neighbours lie within ``tol``; return each group's mean."""
    if not values:
        return []
    ordered = sorted(values)
    groups: list[list[float]] = [[ordered[0]]]
    for v in ordered[1:]:
        if v - groups[-1][-1] <= tol:
            groups[-1].append(v)
        else:
            groups.append([v])
    return [sum(g) / len(g) for g in groups]
