"""Words regrouped for field extraction: rows across the page, split into segments at wide
gaps, so "label   value" pairs, table columns and address blocks can be told apart.

The shared page model gives words with fraction boxes; its lines may span a whole row of a
two-column letterhead, which is why rows are re-cut into segments here. Rows and segments
hold the page model's own words.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from statistics import median

from prefect_docai.engines.page.document import Document
from prefect_docai.engines.page.model import BBox, Word, union

SEGMENT_GAP = 0.9
"""A horizontal gap wider than this many row heights starts a new segment."""


@dataclass
class Segment:
    tokens: list[Word]
    page: int
    row: int
    text: str = ""
    starts: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        parts: list[str] = []
        position = 0
        for token in self.tokens:
            self.starts.append(position)
            parts.append(token.text)
            position += len(token.text) + 1
        self.text = " ".join(parts)

    @property
    def bbox(self) -> BBox:
        return union(t.bbox for t in self.tokens)

    def tokens_in(self, start: int, end: int) -> list[Word]:
        """Tokens overlapping the character span ``[start, end)`` of :attr:`text`."""
        return [
            token
            for token, begin in zip(self.tokens, self.starts, strict=True)
            if begin < end and begin + len(token.text) > start
        ]

    def after(self, end: int) -> list[Word]:
        return [t for t, b in zip(self.tokens, self.starts, strict=True) if b >= end]


@dataclass
class Row:
    page: int
    index: int
    segments: list[Segment]

    @property
    def tokens(self) -> list[Word]:
        return [t for s in self.segments for t in s.tokens]

    @property
    def text(self) -> str:
        return "  ".join(s.text for s in self.segments)

    @property
    def bbox(self) -> BBox:
        return union(s.bbox for s in self.segments)


@dataclass
class PageLayout:
    page: int
    aspect: float
    """Page width ÷ height, to compare horizontal gaps with glyph heights."""
    rows: list[Row]
    source: str = "text-layer"


def build_layout(page: int, tokens: Sequence[Word], aspect: float, source: str) -> PageLayout:
    """Rows by vertical overlap (top to bottom), segments by horizontal gaps."""
    ordered = sorted((t for t in tokens if t.text.strip()), key=lambda t: (t.yc, t.bbox[0]))
    groups: list[list[Word]] = []
    centers: list[float] = []
    heights: list[float] = []
    for token in ordered:
        if groups:
            tolerance = 0.5 * max(min(token.height, heights[-1]), 1e-4)
            if abs(token.yc - centers[-1]) <= tolerance:
                groups[-1].append(token)
                n = len(groups[-1])
                centers[-1] += (token.yc - centers[-1]) / n
                heights[-1] = median(t.height for t in groups[-1])
                continue
        groups.append([token])
        centers.append(token.yc)
        heights.append(token.height)
    for group in groups:
        group.sort(key=lambda t: t.bbox[0])
    threshold = _segment_gap(groups, heights, aspect)
    rows: list[Row] = []
    for index, (group, height) in enumerate(zip(groups, heights, strict=True)):
        segments: list[list[Word]] = [[group[0]]]
        for prev, token in itertools.pairwise(group):
            # x fractions are of the width, heights of the height: width/height converts.
            gap = (token.bbox[0] - prev.bbox[2]) * aspect
            if gap > threshold * height:
                segments.append([token])
            else:
                segments[-1].append(token)
        rows.append(Row(page, index, [Segment(s, page, index) for s in segments]))
    return PageLayout(page, aspect, rows, source)


def _segment_gap(groups: list[list[Word]], heights: list[float], aspect: float) -> float:
    """The gap (in row heights) that separates segments on this page. Word boxes from a
    text layer span the font's full height, OCR boxes only the glyphs, so the same blank
    measures differently: the page's own typical word space decides (segments need about
    2.2 word spaces, and never less than :data:`SEGMENT_GAP`)."""
    ratios = sorted(
        (token.bbox[0] - prev.bbox[2]) * aspect / max(height, 1e-6)
        for group, height in zip(groups, heights, strict=True)
        for prev, token in itertools.pairwise(group)
        if token.bbox[0] > prev.bbox[2]
    )
    if len(ratios) < 8:
        return SEGMENT_GAP
    word_space = ratios[len(ratios) * 3 // 10]
    return max(SEGMENT_GAP, 2.2 * word_space)


def fold(text: str) -> str:
    """Lower case with blanks collapsed, for label matching."""
    return re.sub(r"\s+", " ", text.lower()).strip()


def document_layouts(
    document: Document, threshold: float | None = None, *, text_layer_only: bool = False
) -> list[PageLayout]:
    """One layout per page; words under ``threshold`` confidence are left out.
    ``text_layer_only`` skips pages that would need OCR (used where OCR is not worth it,
    e.g. to locate values already read from embedded XML)."""
    pages = [p for p in document.pages if not text_layer_only or p.source == "text-layer"]
    document.prefetch([p.number for p in pages])
    layouts: list[PageLayout] = []
    for page in pages:
        tokens = [
            word for word in page.words if threshold is None or word.confidence >= threshold
        ]
        aspect = page.width / page.height if page.height else 0.7071
        layouts.append(build_layout(page.number, tokens, aspect, page.source))
    return layouts
