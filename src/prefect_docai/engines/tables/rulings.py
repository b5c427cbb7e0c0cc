"""Ruling lines of a page: from PDF vector graphics (born-digital) or from the raster (scans).

Both sources end as merged horizontal/vertical :class:`Ruling` lists in page points, so
the grid builder does not care where a line came from.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from prefect_docai.engines.tables.geometry import Box, Ruling

_MIN_LENGTH_PT = 6.0
"""Shorter strokes are glyph parts, bullets or tick marks, not table rules."""


def _is_white(color: Any) -> bool:
    if color is None:
        return False
    if isinstance(color, int | float):
        return float(color) >= 0.95
    if not isinstance(color, Sequence) or not color:
        return False
    try:
        values = [float(c) for c in color]
    except (TypeError, ValueError):
        return False
    if len(values) == 4:  # CMYK: white is no ink at all
        return all(v <= 0.05 for v in values)
    return all(v >= 0.95 for v in values)


def _visible(obj: dict[str, Any]) -> bool:
    """Invisible geometry (white boxes, clipping-only paths) must not split cells."""
    stroke = bool(obj.get("stroke", True))
    fill = bool(obj.get("fill", False))
    if stroke and not _is_white(obj.get("stroking_color")):
        return True
    return fill and not _is_white(obj.get("non_stroking_color"))


def _stroked(obj: dict[str, Any]) -> bool:
    return bool(obj.get("stroke", True)) and not _is_white(obj.get("stroking_color"))


def vector_segments(
    pdf_bytes: bytes, page_numbers: Iterable[int]
) -> dict[int, tuple[list[Ruling], list[Box]]]:
    """Per 1-based page number: ruling segments from the PDF's lines, rectangles and
    curves, and the filled shapes that are not rules (bars, shading, logos)."""
    import pdfplumber

    result: dict[int, tuple[list[Ruling], list[Box]]] = {}
    with pdfplumber.open(io.BytesIO(pdf_bytes)) as pdf:
        for number in page_numbers:
            page = pdf.pages[number - 1]
            segs: list[Ruling] = []
            fills: list[Box] = []
            # pdfplumber gives top-left coordinates in the mediabox frame; the page model's
            # words are relative to the crop box
            ox, oy = float(page.cropbox[0]), float(page.cropbox[1])
            for obj in list(page.lines) + list(page.rects) + list(page.curves):
                if not _visible(obj):
                    continue
                x0, x1 = float(obj["x0"]) - ox, float(obj["x1"]) - ox
                top, bottom = float(obj["top"]) - oy, float(obj["bottom"]) - oy
                w, h = x1 - x0, bottom - top
                if obj["object_type"] == "curve" and w > 2 and h > 2:
                    fills.append(Box(x0, top, x1, bottom))
                    continue  # real curves (charts, rounded logos) are not rules
                if h <= 2.5 and w >= _MIN_LENGTH_PT:
                    segs.append(Ruling(x0, (top + bottom) / 2, x1, (top + bottom) / 2))
                elif w <= 2.5 and h >= _MIN_LENGTH_PT:
                    segs.append(Ruling((x0 + x1) / 2, top, (x0 + x1) / 2, bottom))
                elif w > 2.5 and h > 2.5 and obj["object_type"] != "line" and not _stroked(obj):
                    fills.append(Box(x0, top, x1, bottom))
                elif w > 2.5 and h > 2.5 and obj["object_type"] == "rect":
                    # a drawn box: its four edges are rules. Shading alone (filled, no
                    # stroke) is not: it is often inset from the cell and would split it.
                    segs += [
                        Ruling(x0, top, x1, top),
                        Ruling(x0, bottom, x1, bottom),
                        Ruling(x0, top, x0, bottom),
                        Ruling(x1, top, x1, bottom),
                    ]
            result[number] = (merge_segments(segs), fills)
    return result


def raster_segments(gray: NDArray[np.uint8], dpi: float) -> list[Ruling]:
    """Ruling segments (in points) from a grayscale page image by morphological opening.

    Horizontal and vertical structuring elements a quarter inch long keep rules and drop
    glyph strokes; a short closing first bridges the gaps that scanning leaves in thin lines.
    """
    import cv2

    binary = cv2.adaptiveThreshold(
        gray, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV, 25, 15
    )
    length = max(15, int(dpi * 0.25))
    scale = 72.0 / dpi
    segs: list[Ruling] = []
    for horizontal in (True, False):
        kernel_shape = (length, 1) if horizontal else (1, length)
        bridge = (max(3, int(dpi * 0.02)), 1) if horizontal else (1, max(3, int(dpi * 0.02)))
        mask = cv2.morphologyEx(
            binary, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_RECT, bridge)
        )
        mask = cv2.morphologyEx(
            mask, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, kernel_shape)
        )
        count, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
        for i in range(1, count):
            x, y, w, h = (int(v) for v in stats[i, :4])
            if horizontal and w >= length and h <= max(6, dpi * 0.03):
                yc = (y + h / 2) * scale
                segs.append(Ruling(x * scale, yc, (x + w) * scale, yc))
            elif not horizontal and h >= length and w <= max(6, dpi * 0.03):
                xc = (x + w / 2) * scale
                segs.append(Ruling(xc, y * scale, xc, (y + h) * scale))
    return merge_segments(segs)


def merge_segments(segs: list[Ruling], tol: float = 2.0, gap: float = 3.0) -> list[Ruling]:
    """Snap nearly collinear segments to one coordinate and join overlapping/near pieces."""
    out: list[Ruling] = []
    for horizontal in (True, False):
        items = [s for s in segs if s.horizontal == horizontal]
        # (position across, start, end) so both orientations share the code
        lines = sorted(
            (
                (s.y0, min(s.x0, s.x1), max(s.x0, s.x1))
                if horizontal
                else (s.x0, min(s.y0, s.y1), max(s.y0, s.y1))
            )
            for s in items
        )
        groups: list[list[tuple[float, float, float]]] = []
        for line in lines:
            if groups and line[0] - groups[-1][-1][0] <= tol:
                groups[-1].append(line)
            else:
                groups.append([line])
        for group in groups:
            pos = sum(g[0] for g in group) / len(group)
            spans = sorted((g[1], g[2]) for g in group)
            cur_start, cur_end = spans[0]
            joined: list[tuple[float, float]] = []
            for start, end in spans[1:]:
                if start <= cur_end + gap:
                    cur_end = max(cur_end, end)
                else:
                    joined.append((cur_start, cur_end))
                    cur_start, cur_end = start, end
            joined.append((cur_start, cur_end))
            for start, end in joined:
                if end - start < _MIN_LENGTH_PT:
                    continue
                out.append(
                    Ruling(start, pos, end, pos) if horizontal else Ruling(pos, start, pos, end)
                )
    return out
