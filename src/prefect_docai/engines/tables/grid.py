"""The table grid every finder produces, and how words become cell text."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from prefect_docai.engines.tables.geometry import Box, PointWord

_NUMERIC = re.compile(r"^[\s(\[]*[-+−–—±<>~≈]?[$€£¥%#]?\s*\d[\d.,'’\s]*[%)\]*]*[a-zA-Z]{0,2}\)?$")
_PLACEHOLDER = re.compile(r"^[-–—−.…*/x]+$|^n/?a$", re.IGNORECASE)


def is_numeric(text: str) -> bool:
    """Numbers, amounts, percentages, dates and dash placeholders: the stuff of data cells."""
    t = text.strip()
    return bool(t) and (bool(_NUMERIC.match(t)) or bool(_PLACEHOLDER.match(t)))


@dataclass
class Cell:
    row: int
    col: int
    row_span: int
    col_span: int
    box: Box
    text: str = ""
    words: list[PointWord] = field(default_factory=list)


@dataclass
class GridTable:
    page: int
    box: Box
    cells: list[Cell]
    n_rows: int
    n_cols: int
    kind: str
    """``ruled`` (from rulings) or ``stream`` (from word alignment)."""
    header_rows: int = 0
    confidence: float = 1.0
    continued_from: int | None = None
    xs: list[float] = field(default_factory=list)
    """Column edges (ruled tables: the rule positions)."""
    ys: list[float] = field(default_factory=list)


def group_lines(words: list[PointWord]) -> list[list[PointWord]]:
    """Words into visual text lines (top to bottom, each left to right).

    A word joins a line when it overlaps the line's vertical extent by half of the smaller
    height; this tolerates the baseline jitter of OCR and mixed font sizes.
    """
    lines: list[tuple[float, float, list[PointWord]]] = []
    for w in sorted(words, key=lambda w: (w.box.cy, w.box.x0)):
        placed = False
        for i in range(len(lines) - 1, max(-1, len(lines) - 4), -1):
            y0, y1, members = lines[i]
            overlap = min(y1, w.box.y1) - max(y0, w.box.y0)
            if overlap >= 0.5 * min(y1 - y0, w.box.height):
                members.append(w)
                lines[i] = (min(y0, w.box.y0), max(y1, w.box.y1), members)
                placed = True
                break
        if not placed:
            lines.append((w.box.y0, w.box.y1, [w]))
    ordered = sorted(lines, key=lambda line: (line[0] + line[1]) / 2)
    return [sorted(members, key=lambda w: w.box.x0) for _, _, members in ordered]


def join_words(words: list[PointWord]) -> str:
    """Cell text: its words line by line, lines joined by a space (a wrapped cell reads as
    one phrase); a line-end hyphen directly before a lowercase letter joins the word."""
    parts: list[str] = []
    for line in group_lines(words):
        text = " ".join(w.text for w in line)
        if parts and parts[-1].endswith("-") and len(parts[-1]) > 1 and text[:1].islower():
            parts[-1] = parts[-1] + text
        else:
            parts.append(text)
    return " ".join(parts).strip()


def fill_cells(table: GridTable, words: list[PointWord]) -> list[PointWord]:
    """Give each cell the words whose centre lies inside it; returns the words used."""
    used: list[PointWord] = []
    for w in words:
        for c in table.cells:
            if c.box.contains_point(w.box.cx, w.box.cy):
                c.words.append(w)
                used.append(w)
                break
    for c in table.cells:
        c.text = join_words(c.words)
    return used
