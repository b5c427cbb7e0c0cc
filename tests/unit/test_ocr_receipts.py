"""benchmarks.ocr_receipts: word splitting of RapidOCR lines, line assembly and the
line-by-line combination (on a cached reading written here, without RapidOCR)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from benchmarks import ocr_receipts as bench


def _line(text: str, x0: float, pitch: float, *, y0: float = 10.0, y1: float = 30.0) -> dict:
    """A cached RapidOCR line whose characters sit ``pitch`` px apart (a space as a char)."""
    boxes = []
    for i, _ in enumerate(text):
        left = x0 + i * pitch
        boxes.append([[left, y0], [left + pitch, y0], [left + pitch, y1], [left, y1]])
    right = x0 + len(text) * pitch
    return {
        "box": [[x0, y0], [right, y0], [right, y1], [x0, y1]],
        "text": text,
        "confidence": 0.9,
        "chars": list(text),
        "char_conf": [0.9] * len(text),
        "char_boxes": boxes,
    }


@pytest.fixture
def cached(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    target = tmp_path / "reading.json"
    monkeypatch.setattr(bench, "rapid_cache", lambda data: target)
    return target


def _gray_with_blocks(spans: list[tuple[int, int]], width: int = 200) -> np.ndarray:
    gray = np.full((40, width), 255, np.uint8)
    for x0, x1 in spans:
        gray[12:28, x0:x1] = 0
    return gray


def test_words_split_at_wide_blank_runs_only(cached: Path) -> None:
    # "ABCDEF" read without a space, 10 px per character; ink of "ABC" and "DEF" separated
    # by a 12 px blank run (0.6 line heights), a 2 px run inside "DEF".
    cached.write_text(json.dumps({"seconds": 0.1, "lines": [_line("ABCDEF", 10, 10)]}))
    gray = _gray_with_blocks([(10, 38), (50, 58), (60, 80)])
    assert [w[0] for w in bench.rapid_words(b"x", 0.2, gray, 0.5)] == ["ABC", "DEF"]
    # no image, or a gap wider than the run: the recognizer's reading stays one word
    assert [w[0] for w in bench.rapid_words(b"x", 0.2, None, 0.5)] == ["ABCDEF"]
    assert [w[0] for w in bench.rapid_words(b"x", 0.8, gray, 0.5)] == ["ABCDEF"]


def test_recognizer_spaces_kept_and_cjk_dropped(cached: Path) -> None:
    cached.write_text(json.dumps({"seconds": 0.1, "lines": [_line("AB C谢谢", 10, 10)]}))
    words = bench.rapid_words(b"x", 99.0)
    assert [w[0] for w in words] == ["AB", "C"]
    assert words[0][1][0] == pytest.approx(10) and words[1][1][0] == pytest.approx(40)


def test_text_of_orders_lines_into_rows() -> None:
    words: list[bench.Word] = [
        ("TOTAL", (10, 50, 60, 70), 0.9, 2),
        ("9.00", (100, 52, 140, 70), 0.9, 3),
        ("SHOP", (10, 10, 60, 30), 0.9, 1),
    ]
    assert bench.text_of(words) == "SHOP\nTOTAL 9.00"


def test_combine_takes_the_more_confident_line() -> None:
    first: list[bench.Word] = [
        ("T0TAL", (10, 50, 60, 70), 0.5, 0),
        ("SHOP", (10, 10, 60, 30), 0.9, 1),
    ]
    other: list[bench.Word] = [("TOTAL", (9, 49, 61, 71), 0.95, 0)]
    assert sorted(w[0] for w in bench.combine(first, other)) == ["SHOP", "TOTAL"]
    assert sorted(w[0] for w in bench.combine(other, first)) == ["SHOP", "TOTAL"]


def test_spaces_borrowed_from_the_other_reading(cached: Path) -> None:
    lines = [_line("UNIHAKKAINTL", 10, 10)]
    tesseract: list[bench.Word] = [
        ("UNIHAKKA", (10, 12, 90, 28), 0.8, 0),
        ("lNTL", (92, 12, 130, 28), 0.6, 0),
        ("ELSEWHERE", (10, 100, 90, 120), 0.9, 1),
    ]
    words = bench.split_lines(lines, 99.0, None, 0.0, spacing=tesseract)
    assert [w[0] for w in words] == ["UNIHAKKA", "INTL"]
    assert [w[0] for w in bench.split_lines(lines, 99.0)] == ["UNIHAKKAINTL"]


def test_recognizer_frames_are_cached_beside_the_reading(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from prefect_docai.engines.page.ctc import Frames

    monkeypatch.setattr(bench, "rapid_cache", lambda data: tmp_path / "reading.json")
    assert bench.frames_cache(b"x") == tmp_path / "reading.frames.npz"
    assert bench.read_frames(b"x") is None
    classes = ("", "A", "B", " ")
    frames = Frames(
        np.log(np.full((5, 4), 0.25, dtype=np.float32)), classes, ((0, 1), (3, 3)), "AB", 0.8
    )
    weak = Frames(frames.log_probs, classes, ((1, 1),), "B", 0.3)  # dropped by RapidOCR
    result = [[[[0, 0], [9, 0], [9, 9], [0, 9]], "AB", 0.8, [], ["A", "B"], [0.8, 0.8]]]
    bench.write_frames(bench.frames_cache(b"x"), result, [weak, frames])
    back = bench.read_frames(b"x")
    assert back is not None and len(back) == 1
    assert back[0].text == "AB" and back[0].spans == ((0, 1), (3, 3))
    assert back[0].classes == classes and back[0].score == pytest.approx(0.8)
    assert np.array_equal(back[0].log_probs, frames.log_probs)
    # crops that do not pair with the lines keep no frames
    bench.write_frames(bench.frames_cache(b"x"), result, [weak])
    assert bench.read_frames(b"x") == [None]
