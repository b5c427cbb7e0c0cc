"""Words regrouped for field extraction: rows across the page, split into segments at wide
gaps, so "label   value" pairs, table columns and address blocks can be told apart.

The shared page model gives words with fraction boxes; its lines may span a whole row of a
two-column letterhead, which is why rows are re-cut into segments here.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from statistics import median

from prefect_docai.models.results import Field

BBox = tuple[float, float, float, float]

SEGMENT_GAP = 0.9
"""A horizontal gap wider than this many row heights starts a new segment."""


@dataclass(frozen=True)
class Token:
    text: str
    bbox: BBox
    confidence: float
    page: int
    font_size: float | None = None

    @property
    def height(self) -> float:
        return self.bbox[3] - self.bbox[1]

    @property
    def xc(self) -> float:
        return (self.bbox[0] + self.bbox[2]) / 2

    @property
    def yc(self) -> float:
        return (self.bbox[1] + self.bbox[3]) / 2


def union(boxes: Iterable[BBox]) -> BBox:
    items = list(boxes)
    return (
        min(b[0] for b in items),
        min(b[1] for b in items),
        max(b[2] for b in items),
        max(b[3] for b in items),
    )


@dataclass
class Segment:
    tokens: list[Token]
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

    def tokens_in(self, start: int, end: int) -> list[Token]:
        """Tokens overlapping the character span ``[start, end)`` of :attr:`text`."""
        return [
            token
            for token, begin in zip(self.tokens, self.starts, strict=True)
            if begin < end and begin + len(token.text) > start
        ]

    def after(self, end: int) -> list[Token]:
        return [t for t, b in zip(self.tokens, self.starts, strict=True) if b >= end]


@dataclass
class Row:
    page: int
    index: int
    segments: list[Segment]

    @property
    def tokens(self) -> list[Token]:
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


def build_layout(page: int, tokens: Sequence[Token], aspect: float, source: str) -> PageLayout:
    """Rows by vertical overlap (top to bottom), segments by horizontal gaps."""
    ordered = sorted((t for t in tokens if t.text.strip()), key=lambda t: (t.yc, t.bbox[0]))
    groups: list[list[Token]] = []
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
        segments: list[list[Token]] = [[group[0]]]
        for prev, token in itertools.pairwise(group):
            # x fractions are of the width, heights of the height: width/height converts.
            gap = (token.bbox[0] - prev.bbox[2]) * aspect
            if gap > threshold * height:
                segments.append([token])
            else:
                segments[-1].append(token)
        rows.append(Row(page, index, [Segment(s, page, index) for s in segments]))
    return PageLayout(page, aspect, rows, source)


def _segment_gap(groups: list[list[Token]], heights: list[float], aspect: float) -> float:
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


def make_field(
    value: object, tokens: Sequence[Token], score: float, raw: str | None = None
) -> Field:
    """A result field from the tokens it was read from: bbox union, first token's page,
    confidence = candidate score × mean word confidence."""
    if not tokens:
        return Field(value=value, confidence=round(score, 3), raw=raw)
    confidence = score * sum(t.confidence for t in tokens) / len(tokens)
    box = union(t.bbox for t in tokens)
    return Field(
        value=value,
        confidence=round(max(0.0, min(1.0, confidence)), 3),
        page=tokens[0].page,
        bbox=(round(box[0], 4), round(box[1], 4), round(box[2], 4), round(box[3], 4)),
        raw=raw if raw is not None else " ".join(t.text for t in tokens),
    )


def fold(text: str) -> str:
    """Lower case with blanks collapsed, for label matching."""
    return re.sub(r"\s+", " ", text.lower()).strip()
