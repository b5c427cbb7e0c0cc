"""A scan's OCR word boxes given a text layer's extent (engines/tables/wordboxes.py)."""

from __future__ import annotations

import pytest

from prefect_docai.engines.page.model import Word
from prefect_docai.engines.tables.geometry import Box, PageInput, PointWord
from prefect_docai.engines.tables.wordboxes import (
    DESCENT,
    SIDE_BEARING,
    as_text_layer,
    is_speck,
    text_layer_boxes,
)


def _word(text: str, box: Box) -> PointWord:
    return PointWord(Word(text, (0.0, 0.0, 0.0, 0.0), 0.9), box)


def test_ocr_boxes_get_a_text_layers_height_and_side_bearings() -> None:
    # ink boxes: "Table" cap line to baseline, "ace" x-height only, "query" x-height to the
    # descender
    words = [
        _word("Table", Box(100, 200, 130, 210)),
        _word("ace", Box(134, 203, 150, 210)),
        _word("query", Box(154, 203, 180, 213)),
        _word("Next", Box(100, 230, 122, 240)),  # another line
    ]
    out = {w.text: w.box for w in text_layer_boxes(words)}
    a = 10.0  # ascender line 200 to baseline 210
    for text in ("Table", "ace", "query"):
        assert out[text].y0 == 200 and out[text].y1 == 210 + DESCENT * a
    assert out["ace"].x0 == 134 - SIDE_BEARING * a and out["ace"].x1 == 150 + SIDE_BEARING * a
    assert out["Next"].y0 == 230 and out["Next"].y1 == 240 + DESCENT * a
    # the gap between two words of a line shrinks by the side bearings, and the glyph height
    # (the unit of the gap tests) is the same for every word of the line
    assert out["ace"].x0 - out["Table"].x1 == pytest.approx(4 - 2 * SIDE_BEARING * a)
    assert len({round(b.height, 6) for b in out.values()}) == 1


def test_a_line_of_x_height_words_borrows_the_pages_ascender_height() -> None:
    words = [_word("Tag", Box(10, 10, 30, 23)), _word("Hello", Box(40, 10, 70, 20))]
    words.append(_word("ace", Box(10, 53, 30, 60)))  # no ascender: top at the x-height
    out = {w.text: w.box for w in text_layer_boxes(words)}
    assert out["ace"].y1 == 60 + DESCENT * 10 and out["ace"].y0 == 50


def test_only_ocr_pages_are_changed() -> None:
    words = [_word("ace", Box(10, 13, 30, 20)), _word("Hello", Box(40, 10, 70, 20))]
    born_digital = PageInput(1, 600.0, 800.0, words)
    assert as_text_layer(born_digital) is born_digital
    scan = as_text_layer(PageInput(1, 600.0, 800.0, words, ocr=True))
    assert {w.text: w.box.y0 for w in scan.words} == {"ace": 10, "Hello": 10}
    assert [w.text for w in words] == ["ace", "Hello"]  # the page's own words are untouched
    assert words[0].box.y0 == 13


def test_specks_read_with_low_confidence_are_dropped() -> None:
    def word(text: str, x: float, confidence: float) -> PointWord:
        return PointWord(Word(text, (0.0, 0.0, 0.0, 0.0), confidence), Box(x, 10, x + 20, 20))

    words = [
        word("France", 10, 0.95),
        word(".", 32, 0.2),  # noise after a word
        word("-", 60, 0.9),  # a dash read with confidence: an empty-value marker
        word("~", 90, 0.0),
        word("12", 120, 0.3),  # a number read badly is still a number
    ]
    assert [is_speck(w) for w in words] == [False, True, False, True, False]
    page = as_text_layer(PageInput(1, 600.0, 800.0, words, ocr=True))
    assert [w.text for w in page.words] == ["France", "-", "12"]
    assert as_text_layer(PageInput(1, 600.0, 800.0, words)).words == words
