"""A comma or full stop after a RapidOCR line's last word that the recognizer did not read,
found in the pixels.

A small mark standing a little apart after a line's last word ("JALAN SAGU 18," read as
"JALAN SAGU 18") is often lost: on the SROIE pool's lines whose annotated text ends with a
mark the reading lacks, the mark lies inside the detector's box in 88 of 92, but the greedy
reading kept the blank (the recognizer's frames give the mark a median probability of 0.11
there, against 0.0002 at lines that end without one; under 0.05 at 4 in 10).
:func:`~prefect_docai.engines.page.ctc.punctuation_candidates` weighs those frames for a
comma only. Here the ink decides with them: :func:`tail_features` describes the first ink
blob right of the line's last glyph (connected components of the Otsu-binarized line band,
extended past the detector's box) against the line's text height and baseline, with the
frames' comma and full-stop probabilities after the last character and a few facts of the
line's text, and two learned scorers (:data:`TAIL_MODEL`, trained by
``training/ocr_glyphs.py`` on the pool's annotated lines) decide whether a mark stands
there and which (:meth:`TailScorers.decide`). A line with no blob there gets no mark.
"""

from __future__ import annotations

import json
import math
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from prefect_docai.engines.page.ctc import FLOOR, Frames
from prefect_docai.engines.page.raster import Gray

TAIL_FEATURES = (
    "gap",
    "width",
    "height",
    "top",
    "bottom",
    "fill",
    "outside",
    "others",
    "next_gap",
    "next_height",
    "last_height",
    "last_bottom",
    "text_height",
    "comma_log",
    "dot_log",
    "last_digit",
    "last_upper",
    "last_lower",
    "chars",
    "inner_commas",
    "inner_dots",
    "digit_share",
    "pixels",
)
"""What the tail scorers read of a line's end (:func:`tail_features`)."""
SHAPE_FEATURES = tuple(name for name in TAIL_FEATURES if name not in ("comma_log", "dot_log"))
"""What the ``comma`` scorer reads: the pixels and the line's text, not the recognizer's
frames (it learns the two marks' shapes from marks the recognizer did read as well,
``training/ocr_glyphs.py``, whose frames would give them away)."""
TAIL_MODEL = "rapid_tail.json"
"""The two learned tail scorers in ``engines/data/`` (``training/ocr_glyphs.py``): ``mark``
(a comma or a full stop follows the line's last word) and ``comma`` (which of the two)."""
TAIL_THRESHOLD = 0.5
"""A mark is added when the ``mark`` scorer gives it at least this probability; it is a
comma when the ``comma`` scorer gives at least this, else a full stop."""
REACH = 1.5
"""How far right of the last glyph, in text heights, the band is read."""

TailDecider = Callable[[tuple[float, ...]], str]
"""Decides from a :func:`tail_features` row the mark after a line's last word ("" none)."""


@dataclass(frozen=True)
class _Blob:
    left: int
    top: int
    right: int
    bottom: int
    area: int

    @property
    def height(self) -> int:
        return self.bottom - self.top

    @property
    def width(self) -> int:
        return self.right - self.left


def _blobs(gray: Gray, x0: int, y0: int, x1: int, y1: int) -> list[_Blob]:
    """Connected ink components (8-connected, Otsu-binarized) of ``gray[y0:y1, x0:x1]``, in
    the page's pixels."""
    import cv2

    crop = gray[y0:y1, x0:x1]
    if crop.size == 0 or min(crop.shape) < 4 or int(crop.max()) - int(crop.min()) < 16:
        return []
    _, ink = cv2.threshold(crop, 0, 1, cv2.THRESH_BINARY_INV + cv2.THRESH_OTSU)
    count, _, stats, _ = cv2.connectedComponentsWithStats(ink.astype(np.uint8), connectivity=8)
    return [
        _Blob(
            x0 + int(s[0]), y0 + int(s[1]), x0 + int(s[0] + s[2]), y0 + int(s[1] + s[3]), int(s[4])
        )
        for s in stats[1:count]
    ]


def _frame_marks(frames: Frames | None, chars: Sequence[str], last: int) -> tuple[float, float]:
    """The highest comma and full-stop probability (natural logs) on the recognizer's
    frames after the line's last character (``FLOOR`` without frames)."""
    floor = math.log(FLOOR)
    if frames is None or len(frames.spans) != len(chars) or "," not in frames.classes:
        return floor, floor
    first = frames.spans[last][1] + 1
    if first >= frames.log_probs.shape[0]:
        return floor, floor
    probs = np.exp(frames.log_probs[first:].astype(np.float64))
    out = []
    for mark in (",", "."):
        picked = [j for j, c in enumerate(frames.classes) if c == mark]
        out.append(math.log(float(probs[:, picked].sum(axis=1).max()) + FLOOR))
    return out[0], out[1]


def tail_features(
    gray: Gray | None,
    line_box: tuple[float, float, float, float],
    chars: Sequence[str],
    boxes: Sequence[Sequence[Sequence[float]]],
    frames: Frames | None = None,
) -> tuple[float, ...] | None:
    """The :data:`TAIL_FEATURES` of a line whose last character is a Latin letter or a
    digit and that has an ink blob right of its last glyph (``None`` for other lines).

    The band is the detector's box, rows as they are, columns from three box heights left
    of the last character to :data:`REACH` text heights past the box. Its glyphs are the
    blobs at least a third of the box tall; their median top and bottom give the text
    height and baseline. The last glyph is the one ending furthest right among those
    starting before the last character's box ends; the first blob starting right of it
    (within the reach, its middle between a text height above the baseline and half one
    below) is the candidate mark. The row: its gap, width, height, top and bottom (against
    the text top and baseline), fill, how far it stands outside the detector's box, all in
    text heights; how many other blobs follow, the gap to and height of the next one; the
    last glyph's height and bottom; the text height against the box; the recognizer's
    comma and full-stop probability after the last character (:func:`_frame_marks`); the
    last character's kind; the line's characters, commas and full stops inside it, its
    share of digits; the text height in pixels."""
    kept = [i for i, c in enumerate(chars) if c.strip()]
    if gray is None or not kept or len(boxes) != len(chars):
        return None
    last = kept[-1]
    char = chars[last]
    # A Latin letter or a digit: a mark after another mark or a CJK character is not sought.
    if not char.isalnum() or not (char.isascii() or "LATIN" in unicodedata.name(char, "")):
        return None
    _, by0, bx1, by1 = line_box
    box_height = max(by1 - by0, 1.0)
    page_height, page_width = gray.shape[:2]
    last_right = max(float(p[0]) for p in boxes[last])
    last_left = min(float(p[0]) for p in boxes[last])
    x0 = max(int(min(last_left, bx1) - 3 * box_height), 0)
    x1 = min(int(max(bx1, last_right) + REACH * box_height) + 1, page_width)
    y0, y1 = max(int(by0), 0), min(math.ceil(by1), page_height)
    blobs = _blobs(gray, x0, y0, x1, y1)
    tall = [b for b in blobs if b.height >= box_height / 3 and b.height < 0.98 * (y1 - y0)]
    if not tall:
        return None
    text_top = float(np.median([b.top for b in tall]))
    baseline = float(np.median([b.bottom for b in tall]))
    height = max(baseline - text_top, 1.0)
    before = [b for b in tall if b.left <= last_right]
    if not before:
        return None
    glyph = max(before, key=lambda b: b.right)
    reach = glyph.right + REACH * height
    trailing = sorted(
        (
            b
            for b in blobs
            if b.left >= glyph.right - 1
            and b.left <= reach
            and b is not glyph
            and baseline - height <= (b.top + b.bottom) / 2 <= baseline + 0.5 * height
        ),
        key=lambda b: (b.left, b.top),
    )
    comma_log, dot_log = _frame_marks(frames, chars, last)
    kind = (float(char.isdigit()), float(char.isupper()), float(char.islower()))
    text = [chars[i] for i in kept]
    common = (
        glyph.height / height,
        (glyph.bottom - baseline) / height,
        height / box_height,
        comma_log,
        dot_log,
        *kind,
        float(len(text)),
        float(text.count(",")),
        float(text.count(".")),
        sum(c.isdigit() for c in text) / len(text),
        height,
    )
    if not trailing:
        return None
    mark = trailing[0]
    after = trailing[1:]
    return (
        (mark.left - glyph.right) / height,
        mark.width / height,
        mark.height / height,
        (mark.top - text_top) / height,
        (mark.bottom - baseline) / height,
        mark.area / max(mark.width * mark.height, 1),
        (mark.left - bx1) / height,
        float(len(after)),
        (after[0].left - mark.right) / height if after else REACH,
        after[0].height / height if after else 0.0,
        *common,
    )


@dataclass(frozen=True)
class TailScorers:
    """The two tail scorers (:data:`TAIL_MODEL`)."""

    mark: Any
    comma: Any

    def decide(self, row: tuple[float, ...]) -> str:
        """The mark after the line's last word: "," or "." ("" for none)."""
        if self.mark.probability(row) < TAIL_THRESHOLD:
            return ""
        shape = [v for name, v in zip(TAIL_FEATURES, row, strict=True) if name in SHAPE_FEATURES]
        return "," if self.comma.probability(shape) >= TAIL_THRESHOLD else "."

    def to_json(self) -> str:
        blob = {"mark": json.loads(self.mark.to_json()), "comma": json.loads(self.comma.to_json())}
        return json.dumps(blob, separators=(",", ":")) + "\n"


_loaded: dict[str, TailScorers | None] = {}


def packaged_tail() -> TailDecider | None:
    """The packaged :class:`TailScorers`' decision (``None`` without the model file)."""
    if TAIL_MODEL not in _loaded:
        from prefect_docai.engines.learned import TreeScorer

        path = Path(__file__).resolve().parent.parent / "data" / TAIL_MODEL
        scorers = None
        if path.is_file():
            blob = json.loads(path.read_text())
            scorers = TailScorers(
                TreeScorer.from_blob(blob["mark"], TAIL_FEATURES),
                TreeScorer.from_blob(blob["comma"], SHAPE_FEATURES),
            )
        _loaded[TAIL_MODEL] = scorers
    found = _loaded[TAIL_MODEL]
    return found.decide if found is not None else None
