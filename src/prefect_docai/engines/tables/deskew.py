"""Scans in the page's straight frame: OCR reads a deskewed copy of a scanned page but
reports its words in the skewed page's coordinates, and the page raster is skewed too.

A table row on a page skewed by 0.7 degrees climbs 6 points across 500 points of width
(half a text line): its words fall into two lines, and a long rule is no thin straight
line for the morphological line finder. Before table finding, ``straighten_words`` turns
the words back into the frame OCR read them in and ``straighten_image`` turns the raster
the rulings are found on by the same angle (both about the page centre, as
``engines.page.raster.deskew`` does); the tables come out in the straight frame, which is
the frame the page was printed in; ``to_page_frame`` moves a finished table's boxes back
onto the page as delivered (where the page's words and other outputs sit).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numpy.typing import NDArray

from prefect_docai.engines.tables.geometry import Box, PointWord
from prefect_docai.engines.tables.grid import GridTable

MIN_ANGLE = 0.05
"""Degrees below which a page is taken as straight (nothing is turned)."""


def _matrix(angle: float, width: float, height: float) -> NDArray[np.float64]:
    """The 2x3 affine map from skewed to straight coordinates (``raster.deskew``'s)."""
    import cv2

    return np.asarray(
        cv2.getRotationMatrix2D((width / 2.0, height / 2.0), -angle, 1.0), dtype=np.float64
    )


def straight_box(box: Box, angle: float, width: float, height: float) -> Box:
    """The box a word had in the straight frame, from the axis-aligned box around it in
    the skewed frame: the centre is turned back; the size solves ``W = w cos + h sin``,
    ``H = w sin + h cos`` (a turned w x h rectangle's bounding box)."""
    m = _matrix(angle, width, height)
    cx = m[0, 0] * box.cx + m[0, 1] * box.cy + m[0, 2]
    cy = m[1, 0] * box.cx + m[1, 1] * box.cy + m[1, 2]
    c, s = math.cos(math.radians(angle)), abs(math.sin(math.radians(angle)))
    det = c * c - s * s
    w = (box.width * c - box.height * s) / det
    h = (box.height * c - box.width * s) / det
    w = min(box.width, max(w, 0.5 * box.width))
    h = min(box.height, max(h, 0.5 * box.height))
    return Box(cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)


def straighten_words(
    words: list[PointWord], angle: float, width: float, height: float
) -> list[PointWord]:
    """``words`` (boxes in points on a ``width`` x ``height`` page) in the straight frame of a
    page OCR deskewed by ``angle`` degrees."""
    if abs(angle) < MIN_ANGLE:
        return words
    return [PointWord(w.word, straight_box(w.box, angle, width, height)) for w in words]


def straighten_image(gray: NDArray[np.uint8], angle: float) -> NDArray[np.uint8]:
    """The page raster turned by ``angle`` degrees about its centre (white fill)."""
    if abs(angle) < MIN_ANGLE:
        return gray
    import cv2

    h, w = gray.shape
    m = cv2.getRotationMatrix2D((w / 2.0, h / 2.0), -angle, 1.0)
    out: Any = cv2.warpAffine(
        gray, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=255
    )
    return np.ascontiguousarray(out, dtype=np.uint8)


def page_box(box: Box, angle: float, width: float, height: float) -> Box:
    """A box in the straight frame → the axis-aligned box around it on the page as
    delivered (the skewed frame the page's other outputs use)."""
    if abs(angle) < MIN_ANGLE:
        return box
    import cv2

    inverse = cv2.invertAffineTransform(_matrix(angle, width, height))
    corners = np.array(
        [[box.x0, box.y0, 1.0], [box.x1, box.y0, 1.0], [box.x0, box.y1, 1.0], [box.x1, box.y1, 1.0]]
    )
    mapped = corners @ np.asarray(inverse, dtype=np.float64).T
    return Box(
        float(mapped[:, 0].min()),
        float(mapped[:, 1].min()),
        float(mapped[:, 0].max()),
        float(mapped[:, 1].max()),
    )


def to_page_frame(table: GridTable, angle: float, width: float, height: float) -> None:
    """Move ``table``'s box and cell boxes from the straight frame onto the page as
    delivered (in place)."""
    if abs(angle) < MIN_ANGLE:
        return
    table.box = page_box(table.box, angle, width, height)
    for cell in table.cells:
        cell.box = page_box(cell.box, angle, width, height)
