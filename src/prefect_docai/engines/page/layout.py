"""Words → lines → reading order, the same way for text-layer and OCR pages.

Reading order is row-major: line segments are grouped into rows by their vertical centre,
rows run top to bottom and segments within a row left to right. That is how invoices,
receipts and forms are read ("Total ... 123,45" stays on one row) and how ``pdftotext
-layout`` (our text-layer ground truth) orders text. Multi-column prose therefore reads
row by row across the columns; block ids still tell the columns apart.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from prefect_docai.engines.page.model import BBox, Line, Word


@dataclass
class _LineRun:
    """Words of one line (or of one recognizer line) while lines are being built."""

    tokens: list[Word]
    x0: float
    y0: float
    x1: float
    y1: float
    block: int | None = None

    @property
    def height(self) -> float:
        return self.y1 - self.y0

    @property
    def center(self) -> float:
        return (self.y0 + self.y1) / 2

    def add(self, token: Word, box: BBox) -> None:
        self.tokens.append(token)
        self.x0, self.y0 = min(self.x0, box[0]), min(self.y0, box[1])
        self.x1, self.y1 = max(self.x1, box[2]), max(self.y1, box[3])


def _points(box: BBox, width: float, height: float) -> BBox:
    return (box[0] * width, box[1] * height, box[2] * width, box[3] * height)


def _cluster(tokens: Sequence[Word], width: float, height: float) -> list[_LineRun]:
    """Text-layer words (content order) → line segments: same baseline band and a gap of at
    most ~2 glyph heights. Recent segments are searched too, because PDF producers often
    draw a row's cells out of order."""
    segments: list[_LineRun] = []
    for token in tokens:
        box = _points(token.bbox, width, height)
        word_height = max(box[3] - box[1], 0.1)
        target = None
        for segment in reversed(segments[-12:]):
            overlap = min(box[3], segment.y1) - max(box[1], segment.y0)
            if overlap < 0.5 * min(word_height, segment.height):
                continue
            gap = box[0] - segment.x1
            limit = 2.0 * max(word_height, segment.height)
            if -0.5 * word_height <= gap <= limit:
                target = segment
                break
        if target is None:
            segments.append(_LineRun([token], *box))
        else:
            target.add(token, box)
    for segment in segments:
        segment.tokens.sort(key=lambda t: t.bbox[0])
    return segments


def _groups(tokens: Sequence[Word], width: float, height: float) -> list[_LineRun]:
    """OCR words → the recognizer's own lines (Tesseract knows its lines best)."""
    by_group: dict[int, _LineRun] = {}
    for token in tokens:
        box = _points(token.bbox, width, height)
        key = token.line
        segment = by_group.get(key)
        if segment is None:
            by_group[key] = _LineRun([token], *box, block=token.block)
        else:
            segment.add(token, box)
    segments = list(by_group.values())
    for segment in segments:
        segment.tokens.sort(key=lambda t: t.bbox[0])
    return segments


def _rows(segments: list[_LineRun]) -> list[list[_LineRun]]:
    rows: list[list[_LineRun]] = []
    centers: list[float] = []
    heights: list[float] = []
    for segment in sorted(segments, key=lambda s: (s.center, s.x0)):
        if rows:
            tolerance = 0.5 * min(max(segment.height, 0.1), max(heights[-1], 0.1))
            if abs(segment.center - centers[-1]) <= tolerance:
                rows[-1].append(segment)
                count = len(rows[-1])
                centers[-1] += (segment.center - centers[-1]) / count
                heights[-1] = max(heights[-1], segment.height)
                continue
        rows.append([segment])
        centers.append(segment.center)
        heights.append(segment.height)
    merged_rows: list[list[_LineRun]] = []
    for row in rows:
        row.sort(key=lambda s: s.x0)
        merged = [row[0]]
        for segment in row[1:]:
            last = merged[-1]
            # Recognizers split a row at small gaps ("Line 1:" | "text"); rejoin what reads
            # as one phrase, keep real column gaps.
            if segment.x0 - last.x1 <= 1.5 * max(segment.height, last.height):
                for token in segment.tokens:
                    last.add(token, (last.x0, last.y0, last.x1, last.y1))
                last.x1 = max(last.x1, segment.x1)
                last.y0, last.y1 = min(last.y0, segment.y0), max(last.y1, segment.y1)
            else:
                merged.append(segment)
        merged_rows.append(merged)
    return merged_rows


def _paragraph_blocks(ordered: list[_LineRun]) -> list[int]:
    """Block ids for text-layer segments: a segment continues the block of a segment just
    above it that it overlaps horizontally and whose glyphs are about the same size."""
    parent = list(range(len(ordered)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, lower in enumerate(ordered):
        for j in range(i - 1, max(-1, i - 60), -1):
            upper = ordered[j]
            gap = lower.y0 - upper.y1
            if gap > 1.2 * max(lower.height, upper.height):
                # ordered is row-major, so anything further up is even further away
                if upper.y1 < lower.y0 - 3 * max(lower.height, upper.height):
                    break
                continue
            if gap < -0.3 * lower.height:
                continue
            overlap = min(lower.x1, upper.x1) - max(lower.x0, upper.x0)
            similar = 0.7 <= lower.height / max(upper.height, 1e-6) <= 1.4
            if overlap > 0 and similar:
                parent[find(i)] = find(j)
                break
    ids: dict[int, int] = {}
    return [ids.setdefault(find(i), len(ids)) for i in range(len(ordered))]


def build_lines(
    tokens: Sequence[Word], width: float, height: float, *, recognized: bool, page: int = 1
) -> tuple[list[Word], list[Line], list[list[int]]]:
    """Words and lines in reading order, plus the rows (lists of line indexes).

    ``width``/``height`` are the page size in points (gaps are judged in points, not in
    page fractions, which differ horizontally and vertically). ``recognized``: the words
    carry the recognizer's own line and block ids (Tesseract), which are kept as lines;
    otherwise (a text layer) lines are found here. The words come back numbered by the
    page's lines and blocks, on page ``page``.
    """
    if not tokens:
        return [], [], []
    segments = _groups(tokens, width, height) if recognized else _cluster(tokens, width, height)
    rows = _rows(segments)
    ordered = [segment for row in rows for segment in row]
    if recognized:
        renumber: dict[int | None, int] = {}
        blocks = [renumber.setdefault(segment.block, len(renumber)) for segment in ordered]
    else:
        blocks = _paragraph_blocks(ordered)
    words: list[Word] = []
    lines: list[Line] = []
    for index, (segment, block) in enumerate(zip(ordered, blocks, strict=True)):
        line_words = tuple(
            Word(
                text=token.text,
                bbox=token.bbox,
                confidence=token.confidence,
                line=index,
                block=block,
                font_size=token.font_size,
                page=page,
            )
            for token in segment.tokens
        )
        words.extend(line_words)
        confidence = sum(w.confidence for w in line_words) / len(line_words)
        lines.append(
            Line(
                text=" ".join(w.text for w in line_words),
                bbox=(
                    min(w.bbox[0] for w in line_words),
                    min(w.bbox[1] for w in line_words),
                    max(w.bbox[2] for w in line_words),
                    max(w.bbox[3] for w in line_words),
                ),
                confidence=confidence,
                words=line_words,
                block=block,
            )
        )
    row_indexes: list[list[int]] = []
    position = 0
    for row in rows:
        row_indexes.append(list(range(position, position + len(row))))
        position += len(row)
    return words, lines, row_indexes
