"""Is this candidate region a table? Features of a found grid and a small learned scorer.

The finders (``lattice``, ``stream``) propose candidate tables by rules; text blocks, lists,
key-value blocks and multi-column prose can pass them. ``region_features`` describes a
candidate by what tells these apart (whitespace gaps between columns, rulings, column
alignment, numeric share, text-line lengths, how much it reads like prose) and
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
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from statistics import median, pstdev
from typing import Any

from prefect_docai.engines.learned import Tree, TreeScorer
from prefect_docai.engines.tables.geometry import PageInput
from prefect_docai.engines.tables.grid import Cell, GridTable, is_numeric
from prefect_docai.engines.tables.stream import prose_columns

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
    "height_share",
    "h_rules_per_row",
    "v_rules_per_col",
    "cell_fill_width",
    "confidence",
    "header_rows",
    "distinct_share",
    "row_pitch_cv",
    "page_word_share",
    "tables_on_page",
    "origin_split",
    "origin_beside",
    "prose_share",
)

_MARKER = re.compile(r"^(?:[•·◦▪‣∙*\-–—]|\(?[0-9ivxIVX]{1,4}[.)]|\(?[a-zA-Z][.)])$")


def _cell_extent(cell: Cell) -> tuple[float, float]:
    return min(w.box.x0 for w in cell.words), max(w.box.x1 for w in cell.words)


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
        box.height / max(1.0, page.height),
        min(3.0, h_rules / n_rows),
        min(3.0, v_rules / n_cols),
        median(fill_width) if fill_width else 1.0,
        table.confidence,
        float(table.header_rows),
        len(set(texts)) / n_filled,
        pitch_cv,
        words_in_cells / max(1, len(page.words)),
        float(tables_on_page),
        1.0 if table.origin == "split" else 0.0,
        1.0 if table.origin == "beside" else 0.0,
        _prose_share(filled, page),
    ]


def _prose_share(filled: list[Cell], page: PageInput) -> float:
    """Share of the candidate's words inside the page's prose columns
    (``stream.prose_columns``): a region that swallowed the text beside a table."""
    words = [w for c in filled for w in c.words]
    if not words or not page.words:
        return 0.0
    width = max(w.box.x1 for w in page.words) - min(w.box.x0 for w in page.words)
    prose = prose_columns(page.words, width)
    inside = sum(1 for w in words if any(b.contains_point(w.box.cx, w.box.cy) for b in prose))
    return inside / len(words)


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


Rect = tuple[float, float, float, float]


def choose(boxes: Sequence[Rect], probabilities: Sequence[float], threshold: float) -> list[bool]:
    """Which of one page's candidates to keep: from the most probable down, each at or above
    ``threshold`` that does not cover more than half of a kept one (or half of it covered):
    the finders propose overlapping alternatives (a whole block and its parts, a region with
    and without the prose beside it) and the model's score picks among them."""
    order = sorted(range(len(boxes)), key=lambda i: (-probabilities[i], i))
    keep = [False] * len(boxes)
    kept: list[Rect] = []
    for i in order:
        if probabilities[i] < threshold:
            break
        if any(_shared(boxes[i], other) > 0.5 for other in kept):
            continue
        keep[i] = True
        kept.append(boxes[i])
    return keep


def _shared(a: Rect, b: Rect) -> float:
    """Intersection of two rectangles over the smaller one's area."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    if w <= 0 or h <= 0:
        return 0.0
    smaller = min((a[2] - a[0]) * (a[3] - a[1]), (b[2] - b[0]) * (b[3] - b[1]))
    return w * h / max(1e-6, smaller)


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
