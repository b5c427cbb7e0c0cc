"""benchmarks.tables_celltext: a scanned cell's reading, with perfect structure, bucketed
(synthetic words, no OCR)."""

from __future__ import annotations

from benchmarks.tables_celltext import bucket, read_cells

from prefect_docai.engines.page.model import Word
from prefect_docai.engines.tables.geometry import Box, PageInput, PointWord


def test_buckets() -> None:
    assert bucket("61.4", "61.4") == "ok"
    assert bucket("61.4", "") == "empty"
    assert bucket("61.4", "61.4.") == "junk_after"
    assert bucket("Germany", "‘Germany") == "junk_before"
    assert bucket("94.903,1", "94.9031") == "separator"
    assert bucket("-13,93", "=13,93") == "minus"
    assert bucket("Construction", "Constructlon") == "close"
    assert bucket("73.0", "ofiO") == "garbled"


def test_cells_are_read_from_the_words_inside_them() -> None:
    def word(text: str, box: Box, confidence: float = 0.9) -> PointWord:
        return PointWord(Word(text, (0.0, 0.0, 0.0, 0.0), confidence), box)

    words = [
        word("North", Box(100, 100, 130, 110)),
        word("12", Box(200, 100, 212, 110)),
        word(":", Box(214, 100, 216, 110), 0.2),  # a speck the finders never see
        word("Sea", Box(100, 114, 118, 124)),  # the cell's second line
    ]
    page = PageInput(1, 600.0, 800.0, words, ocr=True)
    cells = [((95.0, 95.0, 180.0, 128.0), "North Sea"), ((190.0, 95.0, 230.0, 128.0), "12")]
    assert read_cells(page, cells) == {"ok": 2}
    cells.append(((240.0, 95.0, 280.0, 128.0), "7"))
    assert read_cells(page, cells) == {"ok": 2, "empty": 1}
