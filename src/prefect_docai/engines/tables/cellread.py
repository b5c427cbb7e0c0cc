"""A second read of a scanned table's cells, once its structure is found.

The page's OCR pass reads a cell in the context of its block; inside a table that context
misleads: a short entry between rules or wide gaps is dropped (the cell comes out empty) or
read as junk with little confidence (``1`` as ``lel``, ``-`` as ``Z``). The second look at
single words (``secondlook.py``) mends a word the pass found; it cannot mend a word the pass
never found, nor a cell read as pieces. Here, once the table's rows and columns are settled
and the table is kept, each cell worth it (:func:`worth_reading`: empty, or holding a word
read under :data:`reread.MIN_CONFIDENCE`) is cut out of the straightened page raster, its
rules painted white, and read alone: one text line (page segmentation mode 7), or a block
(mode 6) when its ink stands more than a line high. A cell whose box holds no print (only
rules, specks, the grain of paper or shading) is not read. The new reading replaces the
cell's text by :func:`better`; boxes and structure stay as found.

The acceptance levels are the project's two existing ones (:data:`reread.MIN_CONFIDENCE`,
:data:`reread.SINGLE_CONFIDENCE`); a sweep of both on the 150 scanned generated table
pages (engine structure, the cells' readings against the truth) put the optimum of cell F1
there (empty cells: 0.5 ... 0.95, best at 0.9; read cells: 0 ... 0.8, flat from 0.5 to 0.7);
the rasterized ICDAR pages, a source no generator drew, were the check. The shape of the
cut-out (insets, margins, what counts as print) was set once; its variants were compared on
both sources' readings, ICDAR's included.

Measured with ``benchmarks.tables_cv --engine-only`` (cell F1, leave-one-source-out /
5-fold, in-sample in brackets): scanned generated 0.762 / 0.765 (0.772) -> 0.768 / 0.771
(0.779), scanned ICDAR 0.878 / 0.873 (0.891) -> 0.883 / 0.878 (0.899), scanned sheets
0.656 / 0.685 (0.680) -> 0.659 / 0.689 (0.684); born-digital pages and detection unchanged.
Cost, CPU (render and reads, on the tables the shipped models keep): 0.23 s a page on
scanned generated pages 0-29 (page inputs 4.8 s), 0.37-0.41 s on the ICDAR scans (inputs
3.7 s), the most on a page 2-4 s (81 cells worth a read, 25 read).

Applied by the engine to the tables it keeps on OCR pages (``engine.TableEngine.run``), on
the raster ``inputs.straight_raster`` makes (the page model's upright render, so image
uploads are read the same way); ``training/tables.py`` applies it to the scored candidates
of the benchmarks (``benchmarks.tables_cv``), so they score what the engine outputs.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import numpy as np
from numpy.typing import NDArray

from prefect_docai.engines.page.ocr import OcrWord
from prefect_docai.engines.tables.geometry import Box, PageInput
from prefect_docai.engines.tables.grid import Cell, GridTable
from prefect_docai.engines.tables.reread import MIN_CONFIDENCE, SINGLE_CONFIDENCE

_SINGLE_LINE = 7
_BLOCK = 6
"""Tesseract page segmentation modes: one text line; one uniform block of text."""
_INSET = 0.08
"""The cut-out stays this many glyph heights inside the cell's box: a rule drawn on the
box's edge stays out."""
_OUTSIDE = 0.3
"""... and reaches this many glyph heights beyond the table's edge."""
_INK = 160
"""Grey level (0 black, 255 white) print reaches somewhere, even blurred; the grain of a
blank or shaded cell, once smoothed (a 3-pixel median), does not."""
_STROKE = 1.6
"""Straight ink strokes longer than this many glyph heights are rules, not letters."""
_SPECK = 0.03
"""Ink components smaller than this share of a glyph height squared are specks."""
_DASH = 0.25
"""A flat stroke at least this many glyph heights long is a dash, not a speck."""
_SHADED = 0.35
"""A cell whose "ink" covers more of it than this is shaded (print covers far less)."""
_MARGIN = 0.25
"""White margin (glyph heights) kept around the cell's ink when it is cut out."""
_LINE = 1.5
"""The cut-out is at least this many glyph heights high (white above and below the ink)."""
_PAD = 10
"""White pixels around the cut-out: Tesseract reads glyphs at an image border badly."""


def worth_reading(cell: Cell) -> bool:
    """A cell the page pass read nothing in, or read a word of with little confidence."""
    return not cell.words or any(w.confidence < MIN_CONFIDENCE for w in cell.words)


def read_cells(
    table: GridTable, page: PageInput, gray: NDArray[np.uint8], languages: str
) -> GridTable:
    """``table`` (on the OCR page ``page``, straight frame) with the cells worth it read
    again from ``gray`` (the page raster in the same frame); a new table when a cell's
    text changed, ``table`` itself otherwise."""
    scale = gray.shape[1] / page.width
    em = page.em() * scale
    cells: list[Cell] = []
    changed = False
    for cell in table.cells:
        text = _read(cell, table, gray, scale, em, languages) if worth_reading(cell) else None
        if text is not None and text != cell.text:
            cells.append(replace(cell, text=text))
            changed = True
        else:
            cells.append(cell)
    return replace(table, cells=cells) if changed else table


def _read(
    cell: Cell,
    table: GridTable,
    gray: NDArray[np.uint8],
    scale: float,
    em: float,
    languages: str,
) -> str | None:
    """The cell's new text, or None to keep the old."""
    got = reading(cell, table, gray, scale, em, languages)
    return _join(got) if got and better(cell, got) else None


def better(cell: Cell, got: list[OcrWord]) -> bool:
    """Whether ``got``, the cell read alone, replaces the cell's words: read with more
    confidence than their least and above the noise level (:data:`reread.MIN_CONFIDENCE`),
    or, where the page pass read nothing, with the confidence the grid re-read asks of a
    word found where the page pass found none (:data:`reread.SINGLE_CONFIDENCE`)."""
    least = min(w.confidence for w in got)
    if cell.words:
        return least > min(w.confidence for w in cell.words) and least >= MIN_CONFIDENCE
    return least >= SINGLE_CONFIDENCE


def _reach(box: Box, table: GridTable, em: float) -> Box:
    """The part of the page a cell is read from (points): its box, :data:`_INSET` inside
    where a rule may run (between cells, a ruled table's edge), :data:`_OUTSIDE` beyond an
    unruled table's edge (its outer cells end where their words' ink does)."""
    tol = 0.5
    grow = table.kind != "ruled"

    def edge(v: float, outer: float, out: float) -> float:
        if grow and abs(v - outer) <= tol:
            return v + out * _OUTSIDE * em
        return v - out * _INSET * em

    return Box(
        edge(box.x0, table.box.x0, -1.0),
        edge(box.y0, table.box.y0, -1.0),
        edge(box.x1, table.box.x1, 1.0),
        edge(box.y1, table.box.y1, 1.0),
    )


def reading(
    cell: Cell,
    table: GridTable,
    gray: NDArray[np.uint8],
    scale: float,
    em: float,
    languages: str,
) -> list[OcrWord]:
    """The words of ``cell`` read alone from ``gray`` (none when its box holds no ink but
    rules and specks)."""
    from prefect_docai.engines.page import ocr

    height, width = gray.shape
    box = _reach(cell.box, table, em / scale)
    x0 = max(0, int(box.x0 * scale))
    y0 = max(0, int(box.y0 * scale))
    x1 = min(width, int(box.x1 * scale))
    y1 = min(height, int(box.y1 * scale))
    if x1 - x0 < 0.3 * em or y1 - y0 < 0.4 * em:
        return []
    crop = np.array(gray[y0:y1, x0:x1], dtype=np.uint8)
    ink = _ink(crop, em)
    if ink is None:
        return []
    (a, b, c, d), cleaned = ink
    margin = round(_MARGIN * em)
    psm = _SINGLE_LINE if d - b + 2 * margin <= 1.9 * em else _BLOCK
    a, b = max(0, a - margin), max(0, b - margin)
    c, d = min(cleaned.shape[1], c + margin), min(cleaned.shape[0], d + margin)
    # a lone dash or dot is read only at its place in a line a glyph high, white above
    # and below
    tall = max(0, round(_LINE * em) - (d - b))
    piece = np.pad(
        cleaned[b:d, a:c],
        ((_PAD + tall // 2, _PAD + tall - tall // 2), (_PAD, _PAD)),
        constant_values=255,
    )
    dpi = round(72.0 * scale)
    got = ocr.recognize(np.ascontiguousarray(piece, dtype=np.uint8), dpi, languages, psm)
    return [w for w in got if w.text.strip()]


def _join(words: list[OcrWord]) -> str:
    """The words read, a line's in order, lines joined by a space (as ``grid.join_words``
    joins a cell's lines)."""
    return " ".join(w.text.strip() for w in sorted(words, key=lambda w: w.line)).strip()


def _glyph(stats: NDArray[np.int32], em: float) -> bool:
    """Whether an ink component (OpenCV's left, top, width, height, area) is print: as
    large as a small glyph, or a dash (a short flat stroke, the placeholder of an empty
    entry), not a speck."""
    width, height, area = int(stats[2]), int(stats[3]), int(stats[4])
    return area >= _SPECK * em * em or (width >= _DASH * em and height <= width / 2)


def _ink(
    crop: NDArray[np.uint8], em: float
) -> tuple[tuple[int, int, int, int], NDArray[np.uint8]] | None:
    """The bounding box (x0, y0, x1, y1, pixels) of ``crop``'s ink that is neither a rule
    (a straight stroke longer than :data:`_STROKE` glyph heights) nor a speck, and the crop
    with the rules painted white; None when there is no such ink."""
    import cv2

    if int(cv2.medianBlur(crop, 3).min()) > _INK:
        return None  # no print (the grain of paper or shading gone): Otsu would split it
    _, binary = cv2.threshold(crop, 0, 255, cv2.THRESH_BINARY_INV + cv2.THRESH_OTSU)
    length = max(9, round(_STROKE * em))
    strokes = [
        cv2.morphologyEx(binary, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, shape))
        for shape in ((length, 1), (1, length))
    ]
    rules = cv2.dilate(cv2.bitwise_or(strokes[0], strokes[1]), np.ones((3, 3), np.uint8))
    binary[rules > 0] = 0
    count, _, stats, _ = cv2.connectedComponentsWithStats(binary, connectivity=8)
    kept = [k for k in range(1, count) if _glyph(stats[k], em)]
    if not kept:
        return None
    xs0 = min(int(stats[k, cv2.CC_STAT_LEFT]) for k in kept)
    ys0 = min(int(stats[k, cv2.CC_STAT_TOP]) for k in kept)
    xs1 = max(int(stats[k, cv2.CC_STAT_LEFT] + stats[k, cv2.CC_STAT_WIDTH]) for k in kept)
    ys1 = max(int(stats[k, cv2.CC_STAT_TOP] + stats[k, cv2.CC_STAT_HEIGHT]) for k in kept)
    if sum(int(stats[k, cv2.CC_STAT_AREA]) for k in kept) > _SHADED * crop.size:
        return None  # shading split in two: read as junk, at ten times a word's time
    cleaned = crop.copy()
    cleaned[rules > 0] = 255
    return (xs0, ys0, xs1, ys1), cleaned


def read_tables_again(
    tables: list[GridTable],
    pages: dict[int, PageInput],
    raster: Callable[[PageInput], NDArray[np.uint8]],
    languages: str,
) -> list[GridTable]:
    """``tables`` with :func:`read_cells` applied to those on OCR pages; ``raster`` gives an
    OCR page's straightened raster (rendered once per page that holds a table)."""
    out: list[GridTable] = []
    grays: dict[int, NDArray[np.uint8]] = {}
    for t in tables:
        page = pages[t.page]
        if not page.ocr or not any(worth_reading(c) for c in t.cells):
            out.append(t)
            continue
        if t.page not in grays:
            grays = {t.page: raster(page)}  # one page's raster held at a time
        out.append(read_cells(t, page, grays[t.page], languages))
    return out
