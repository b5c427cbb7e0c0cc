"""The comma or full stop after a RapidOCR line's last word, read from the ink
(:mod:`prefect_docai.engines.page.glyphs`), on drawn receipt lines."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from prefect_docai.engines.page import rapid
from prefect_docai.engines.page.ctc import Frames, greedy_spans
from prefect_docai.engines.page.glyphs import TAIL_FEATURES, packaged_tail, tail_features

FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")


def _frames(read: str, mark: float) -> Frames:
    """The recognizer's frames of a line read ``read``: each character clear, then three
    frames where a comma and a full stop each reach ``mark`` and the blank wins."""
    classes = ("", " ", ",", ".", *sorted(set(read) - {" "}))
    rows: list[dict[str, float]] = []
    for char in read:
        rows += [{char: 0.95}, {"": 0.95}]
    rows += [{"": 0.9, ",": mark, ".": mark}] * 3
    probs = np.full((len(rows), len(classes)), 1e-4)
    for t, row in enumerate(rows):
        for name, p in row.items():
            probs[t, classes.index(name)] = p
    spans = tuple(greedy_spans(probs.argmax(axis=1)))
    return Frames(np.log(probs).astype(np.float32), classes, spans, read, 0.9)


def _receipt(printed: list[str], size: int, mark: float) -> tuple[np.ndarray, list[list[Any]]]:
    """A drawn receipt of the ``printed`` lines and RapidOCR's reading of it in which every
    line's closing "," or "." was not read (the detector's box still holds it)."""
    if not FONT.is_file():
        pytest.skip("DejaVuSans is not installed")
    font = ImageFont.truetype(str(FONT), size)
    step = round(size * 1.8)
    image = Image.new("L", (30 + size * 14, step * len(printed) + 20), 255)
    draw = ImageDraw.Draw(image)
    lines: list[list[object]] = []
    for k, text in enumerate(printed):
        x, y = 20, 10 + step * k
        draw.text((x, y), text, font=font, fill=0)
        read = text.rstrip(",.")
        boxes = []
        for i in range(len(read)):
            left, right = (
                draw.textlength(read[:i], font=font),
                draw.textlength(read[: i + 1], font=font),
            )
            boxes.append(
                [[x + left, y], [x + right, y], [x + right, y + size], [x + left, y + size]]
            )
        x0, y0, x1, y1 = draw.textbbox((x, y), text, font=font)
        pad = size // 4
        quad = [
            [x0 - pad, y0 - pad],
            [x1 + pad, y0 - pad],
            [x1 + pad, y1 + pad],
            [x0 - pad, y1 + pad],
        ]
        lines.append([quad, read, 0.95, boxes, list(read), [0.95] * len(read), _frames(read, mark)])
    return np.asarray(image), lines


@pytest.mark.parametrize("size", [18, 24, 30])
def test_a_closing_mark_the_recognizer_did_not_read_is_added_from_the_ink(size: int) -> None:
    printed = ["81100 JOHOR BAHRU,", "TAMAN DAYA", "PLEASE COME AGAIN."]
    gray, lines = _receipt(printed, size, 0.1)
    # punctuate=None: no comma from the frames' own scorer, only what the ink says
    words = rapid.split_lines(lines, gray, punctuate=None)
    ends = [[w.text for w in words if w.line == k][-1] for k in range(len(printed))]
    assert ends == ["BAHRU,", "DAYA", "AGAIN."]
    # without the tail scorers the reading is as the recognizer gave it
    plain = rapid.split_lines(lines, gray, punctuate=None, tail=None)
    assert [w.text for w in plain if w.line == 0][-1] == "BAHRU"


def test_no_blob_after_the_last_glyph_is_no_candidate() -> None:
    gray, lines = _receipt(["TAMAN DAYA", "JALAN SAGU 18,"], 24, 0.1)
    box = rapid._quad_box(lines[0][0])
    assert tail_features(gray, box, lines[0][4], lines[0][3], lines[0][6]) is None
    box = rapid._quad_box(lines[1][0])
    row = tail_features(gray, box, lines[1][4], lines[1][3], lines[1][6])
    assert row is not None and len(row) == len(TAIL_FEATURES)
    values = dict(zip(TAIL_FEATURES, row, strict=True))
    # the comma: small, close after the "8", hanging below the baseline
    assert values["height"] < 0.6 and 0 < values["gap"] < 0.6 and values["bottom"] > 0
    assert packaged_tail() is not None
