"""Is this candidate region a table? Features of a found grid and a small learned scorer.

The finders (``lattice``, ``stream``) propose candidate tables by rules; text blocks, lists,
key-value blocks and multi-column prose can pass them. ``region_features`` describes a
candidate by what tells these apart (whitespace gaps between columns, rulings, column
alignment, numeric share, text-line lengths, how much it reads like prose; for grids whose
cells are often empty, measures that do not hang on the fill: the share of cells closed by
rulings, of rows with two filled cells, of columns filled in half the rows; the labels
ending in a colon and the dot leaders that key-value blocks, forms and contents lists are
written with) and
``RegionModel`` scores it with a gradient-boosted tree ensemble trained by
``training/tables.py`` (stored as plain JSON in ``engines/data``, read by
:mod:`prefect_docai.engines.learned`: no scikit-learn at run time).
"""

from __future__ import annotations

import functools
import itertools
import json
import math
import re
from dataclasses import dataclass
from importlib import resources
from statistics import median, pstdev
from typing import Any

from prefect_docai.engines.learned import Tree, TreeScorer
from prefect_docai.engines.tables.geometry import PageInput
from prefect_docai.engines.tables.grid import Cell, GridTable, is_numeric

MODEL_FILE = "table_regions.json"

FEATURE_NAMES: tuple[str, ...] = (
    "ocr",
    "ruled",
    "log_rows",
    "log_cols",
    "fill",
    "numeric_share",
    "numeric_cols",
    "words_per_cell",
    "wordy_cells",
    "log_chars_per_cell",
    "sentence_cells",
    "lower_start",
    "first_col_markers",
    "first_col_colons",
    "full_rows",
    "min_gap_em",
    "median_gap_em",
    "align_em",
    "width_share",
    "h_rules_per_row",
    "v_rules_per_col",
    "cell_fill_width",
    "confidence",
    "header_rows",
    "distinct_share",
    "row_pitch_cv",
    "page_word_share",
    "tables_on_page",
    "multi_rows",
    "dense_cols",
    "ruled_cells",
    "colon_cells",
    "leader_cells",
)
"""No feature gives the candidate's height on the page: how tall a table stands is a habit of
the source that drew it. Trained without a source (``benchmarks.tables_cv`` LOSO), the
model took it for the sign of a table more than any other feature: on the generated pages
and the sheets held out, swapping it alone for the training tables' median flipped most of
the tables dropped (small ones) and of the false tables kept (tall merged blocks)."""

_MARKER = re.compile(r"^(?:[•·◦▪‣∙*\-–—]|\(?[0-9ivxIVX]{1,4}[.)]|\(?[a-zA-Z][.)])$")
_LEADER = re.compile(r"(?:\.\s?){4,}|…|_{4,}")
"""A dot (or underscore) leader: the run that joins a contents entry to its page number or a
form label to its blank."""


def _cell_extent(cell: Cell) -> tuple[float, float]:
    return min(w.box.x0 for w in cell.words), max(w.box.x1 for w in cell.words)


def _covered(
    edges: list[tuple[float, float, float]], at: float, lo: float, hi: float, tol: float
) -> bool:
    """Whether rulings ``(position, start, end)`` lying within ``tol`` of ``at`` cover at least
    80 % of the span ``lo..hi``."""
    spans = sorted(
        (max(lo, a), min(hi, b)) for p, a, b in edges if abs(p - at) <= tol and b > lo and a < hi
    )
    covered, reach = 0.0, lo
    for a, b in spans:
        if b > reach:
            covered += b - max(a, reach)
            reach = b
    return covered >= 0.8 * (hi - lo)


def ruled_cell_share(table: GridTable, page: PageInput) -> float:
    """The share of the grid's cells, empty ones included, closed by rulings on all four
    sides: a ruled grid whatever its fill (a sparse ruled table has empty cells and
    no full row, yet every cell is boxed)."""
    if not table.cells or not page.segments:
        return 0.0
    tol = 0.3 * (page.em() or 10.0)
    box = table.box
    near = [
        s
        for s in page.segments
        if min(s.x0, s.x1) <= box.x1 + tol
        and max(s.x0, s.x1) >= box.x0 - tol
        and min(s.y0, s.y1) <= box.y1 + tol
        and max(s.y0, s.y1) >= box.y0 - tol
    ]
    rows = [((s.y0 + s.y1) / 2, min(s.x0, s.x1), max(s.x0, s.x1)) for s in near if s.horizontal]
    cols = [((s.x0 + s.x1) / 2, min(s.y0, s.y1), max(s.y0, s.y1)) for s in near if not s.horizontal]
    closed = 0
    for c in table.cells:
        b = c.box
        closed += (
            _covered(rows, b.y0, b.x0, b.x1, tol)
            and _covered(rows, b.y1, b.x0, b.x1, tol)
            and _covered(cols, b.x0, b.y0, b.y1, tol)
            and _covered(cols, b.x1, b.y0, b.y1, tol)
        )
    return closed / len(table.cells)


def region_features(table: GridTable, page: PageInput, tables_on_page: int = 1) -> list[float]:
    """The candidate's feature vector, in ``FEATURE_NAMES`` order."""
    em = page.em() or 10.0
    n_rows, n_cols = max(1, table.n_rows), max(1, table.n_cols)
    filled = [c for c in table.cells if c.text.strip() and c.words]
    n_filled = max(1, len(filled))
    texts = [c.text.strip() for c in filled]
    numeric = [is_numeric(t) for t in texts]
    word_counts = [len(t.split()) for t in texts]
    by_col: dict[int, list[Cell]] = {}
    for c in filled:
        if c.col_span == 1:
            by_col.setdefault(c.col, []).append(c)
    numeric_cols = sum(
        1 for cells in by_col.values() if sum(is_numeric(c.text) for c in cells) * 2 >= len(cells)
    )
    first = [c.text.strip() for c in filled if c.col == 0]
    first_words = [t.split()[0] for t in first if t.split()]
    rows_filled: dict[int, set[int]] = {}
    for c in filled:
        rows_filled.setdefault(c.row, set()).update(range(c.col, c.col + c.col_span))
    full_rows = sum(1 for cols in rows_filled.values() if len(cols) >= n_cols)
    multi_rows = sum(1 for cols in rows_filled.values() if len(cols) >= 2)
    col_rows: dict[int, set[int]] = {}
    for c in filled:
        for col in range(c.col, c.col + c.col_span):
            col_rows.setdefault(col, set()).add(c.row)
    dense_cols = sum(1 for r in col_rows.values() if 2 * len(r) >= n_rows)
    # whitespace between neighbouring columns, and how well each column lines up
    extents = {
        col: (min(_cell_extent(c)[0] for c in cells), max(_cell_extent(c)[1] for c in cells))
        for col, cells in by_col.items()
    }
    cols = sorted(extents)
    gaps = [(extents[b][0] - extents[a][1]) / em for a, b in itertools.pairwise(cols)] or [0.0]
    align: list[float] = []
    fill_width: list[float] = []
    for col, cells in by_col.items():
        if len(cells) < 2:
            continue
        spans = [_cell_extent(c) for c in cells]
        left = pstdev(s[0] for s in spans)
        right = pstdev(s[1] for s in spans)
        centre = pstdev((s[0] + s[1]) / 2 for s in spans)
        align.append(min(left, right, centre) / em)
        lo, hi = extents[col]
        fill_width.append(median((s[1] - s[0]) / max(1e-6, hi - lo) for s in spans))
    box = table.box
    inside = [
        s
        for s in page.segments
        if box.contains_point((s.x0 + s.x1) / 2, (s.y0 + s.y1) / 2, tol=2.0)
    ]
    h_rules = sum(1 for s in inside if s.horizontal and abs(s.x1 - s.x0) > 0.3 * box.width)
    v_rules = sum(1 for s in inside if not s.horizontal and abs(s.y1 - s.y0) > 0.3 * box.height)
    row_tops = sorted(
        {min(w.box.y0 for c in filled if c.row == r for w in c.words) for r in rows_filled}
    )
    pitches = [b - a for a, b in itertools.pairwise(row_tops)]
    pitch_cv = (
        pstdev(pitches) / max(1e-6, sum(pitches) / len(pitches)) if len(pitches) >= 2 else 0.0
    )
    words_in_cells = sum(len(c.words) for c in filled)
    return [
        1.0 if page.ocr else 0.0,
        1.0 if table.kind == "ruled" else 0.0,
        math.log1p(n_rows),
        math.log1p(n_cols),
        len(filled) / (n_rows * n_cols),
        sum(numeric) / n_filled,
        numeric_cols / n_cols,
        sum(word_counts) / n_filled,
        sum(1 for n in word_counts if n >= 5) / n_filled,
        math.log1p(sum(len(t) for t in texts) / n_filled),
        sum(1 for t, n in zip(texts, word_counts, strict=True) if n >= 3 and t[-1] in ".!?;,:")
        / n_filled,
        sum(1 for t in texts if t[:1].islower()) / n_filled,
        sum(1 for w in first_words if _MARKER.match(w)) / max(1, len(first_words)),
        sum(1 for t in first if t.endswith(":")) / max(1, len(first)),
        full_rows / n_rows,
        min(gaps),
        median(gaps),
        median(align) if align else 0.0,
        box.width / max(1.0, page.width),
        min(3.0, h_rules / n_rows),
        min(3.0, v_rules / n_cols),
        median(fill_width) if fill_width else 1.0,
        table.confidence,
        float(table.header_rows),
        len(set(texts)) / n_filled,
        pitch_cv,
        words_in_cells / max(1, len(page.words)),
        float(tables_on_page),
        multi_rows / n_rows,
        dense_cols / n_cols,
        ruled_cell_share(table, page),
        # labels ending in a colon in any column (two key-value pairs a line put them in
        # the third column too) and leaders: what key-value blocks, forms and contents
        # lists are written with on every source, whatever their size or place on the page
        sum(1 for c in filled if any(w.text.endswith(":") for w in c.words)) / n_filled,
        sum(1 for t in texts if _LEADER.search(t)) / n_filled,
    ]


@dataclass(frozen=True)
class RegionModel:
    """A binary gradient-boosted tree ensemble (:class:`~prefect_docai.engines.learned.TreeScorer`,
    the one JSON tree reader of the engines) and the probability from which a candidate counts."""

    scorer: TreeScorer
    threshold: float

    @property
    def features(self) -> tuple[str, ...]:
        return self.scorer.features

    @property
    def trees(self) -> tuple[Tree, ...]:
        return self.scorer.trees

    @classmethod
    def from_json(cls, blob: dict[str, Any]) -> RegionModel:
        return cls(TreeScorer.from_blob(blob, tuple(blob["features"])), float(blob["threshold"]))

    def probability(self, x: list[float]) -> float:
        return self.scorer.probability(x)

    def is_table(self, x: list[float]) -> bool:
        return self.probability(x) >= self.threshold


def load_shipped(name: str, features: tuple[str, ...]) -> RegionModel | None:
    """The model shipped as ``engines/data/<name>``, or None when the package carries none
    or one trained on another feature set (the rules alone decide then)."""
    path = resources.files("prefect_docai.engines").joinpath("data", name)
    if not path.is_file():
        return None
    blob = json.loads(path.read_text(encoding="utf-8"))
    if tuple(blob["features"]) != features:
        return None
    return RegionModel.from_json(blob)


@functools.cache
def load_region_model() -> RegionModel | None:
    """The shipped region model, or None (see :func:`load_shipped`)."""
    return load_shipped(MODEL_FILE, FEATURE_NAMES)
