"""The second OCR look at a scan's low-confidence words (engines/tables/secondlook.py)."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont
from tests.unit.engines.word_pages import record_single_lines, table_png

from prefect_docai.engines.page.model import Word
from prefect_docai.engines.pluginspec import EngineOptions
from prefect_docai.engines.tables.geometry import Box, PageInput, PointWord
from prefect_docai.engines.tables.inputs import look_languages
from prefect_docai.engines.tables.secondlook import second_look

SCALE = 300 / 72


def _page_raster(words: list[tuple[str, float, float]]) -> tuple[np.ndarray, list[Box]]:
    """A white 300 x 120 pt page at 300 dpi with ``words`` (text, x, y in points) printed,
    and each word's ink box in points."""
    image = Image.new("L", (round(300 * SCALE), round(120 * SCALE)), 255)
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default(size=round(11 * SCALE))
    boxes = []
    for text, x, y in words:
        draw.text((x * SCALE, y * SCALE), text, fill=0, font=font)
        x0, y0, x1, y1 = draw.textbbox((x * SCALE, y * SCALE), text, font=font)
        boxes.append(Box(x0 / SCALE, y0 / SCALE, x1 / SCALE, y1 / SCALE))
    return np.asarray(image, dtype=np.uint8), boxes


def _word(text: str, box: Box, confidence: float) -> PointWord:
    return PointWord(Word(text, (0.0, 0.0, 0.0, 0.0), confidence), box)


def test_low_confidence_words_are_read_again_alone() -> None:
    gray, boxes = _page_raster([("Umsatz", 20, 20), ("4711", 150, 20), ("Total", 20, 70)])
    words = [
        _word("a", boxes[0], 0.27),  # the page pass's junk reading of a table entry
        _word("lel", boxes[1], 0.1),
        _word("Tota1", boxes[2], 0.9),  # read with confidence: left as it is
    ]
    page = PageInput(1, 300.0, 120.0, words, ocr=True)
    out = second_look(page, gray, "eng")
    assert [w.text for w in out.words] == ["Umsatz", "4711", "Tota1"]
    assert [w.box for w in out.words] == boxes  # boxes stay the page pass's
    assert out.words[0].confidence > 0.5
    assert page.words[0].text == "a"  # the page's own words are untouched


def test_nothing_to_look_at_leaves_the_page_as_it_is() -> None:
    gray, boxes = _page_raster([("Umsatz", 20, 20)])
    page = PageInput(1, 300.0, 120.0, [_word("Umsatz", boxes[0], 0.95)], ocr=True)
    assert second_look(page, gray, "eng") is page


def test_languages_of_the_second_look() -> None:
    assert look_languages(EngineOptions(languages=("deu",))) == "deu"
    unhinted = look_languages(EngineOptions(language_hinted=False)).split("+")
    assert unhinted[0] == "eng"


def test_an_image_upload_gets_the_second_look(monkeypatch: pytest.MonkeyPatch) -> None:
    # A photo or PNG of a table is no PDF: the look reads the page model's own raster. Every
    # word is made doubtful (the threshold above any confidence) so the look runs on each.
    from prefect_docai.engines.tables import secondlook
    from prefect_docai.engines.tables.engine import TableEngine

    monkeypatch.setattr(secondlook, "MIN_CONFIDENCE", 1.01)
    reads = record_single_lines(monkeypatch)  # what the look read, one word alone at a time
    out = TableEngine().run(table_png(), EngineOptions(languages=("eng",)))
    assert {"Item", "Part", "105.00"} <= {w for words in reads for w in words}
    [table] = out.result.tables
    texts = {cell.text for cell in table.cells}
    assert {"Item", "Qty", "Price", "Part 1", "21.50", "105.00"} <= texts


def test_the_second_look_reads_with_the_pages_packs(monkeypatch: pytest.MonkeyPatch) -> None:
    """With no language named, the doubtful words are read with the packs the page was read
    with (English for an English page, German and English for a German one), not with every
    pack an unnamed upload may need (each is another recognizer over every word)."""
    from prefect_docai.engines.tables import inputs, secondlook
    from prefect_docai.engines.tables.engine import TableEngine
    from prefect_docai.samples.tables import table_page

    seen: list[str] = []
    look = inputs.second_look

    def spy(page: PageInput, gray: np.ndarray, languages: str) -> PageInput:
        seen.append(languages)
        return look(page, gray, languages)

    monkeypatch.setattr(secondlook, "MIN_CONFIDENCE", 1.01)  # every word doubtful
    monkeypatch.setattr(inputs, "second_look", spy)
    unnamed = EngineOptions(language_hinted=False)
    TableEngine().run(table_png(), unnamed)
    assert seen == ["eng"]
    german = table_page(1, lang="de", layout="single", scanned=True, dpi=200, records=False)
    TableEngine().run(german.pdf, unnamed)
    assert seen[1:] == ["deu+eng"]
    TableEngine().run(table_png(), EngineOptions(languages=("fra",)))
    assert seen[2:] == ["fra"]  # a named language is read as named
