"""A second OCR look at the words a scan's page pass read with little confidence.

Tesseract's page pass reads a word in the context of its block; inside tables the blocks
are cut by rules, shading and wide gaps, and a short entry read there comes out as junk
(``1`` as ``lel``, ``-`` as ``Z``, ``Umsatz`` as ``a``, ``30.238,51`` as ``2.23851``) with a
low confidence. The same word cut out alone and read as one text line (page segmentation
mode 7) mostly reads right. Measured with perfect structure (``benchmarks.tables_celltext``:
the words in each truth cell against its text), the cells read right rose from 0.889 to
0.900 of 6,497 on the 150 scanned generated table pages and from 0.884 to 0.897 of 3,171 on
the rasterized visible ICDAR pages, a source no generator drew (fewer garbled cells on
both: 0.036 -> 0.027 and 0.049 -> 0.037).

Every OCR word below :data:`reread.MIN_CONFIDENCE` (the confidence under which the project
already takes a word for noise) holding a letter or digit is cut out of the straightened
page raster with a margin and read again; the new reading replaces the old when it is one
word read with more confidence than the first. Nothing else changes: boxes, lines and
order stay the page pass's.

Applied by ``inputs.page_inputs`` to each OCR page, last, on the straightened raster the
page's other scan steps read (rendered once, by the page model, so image uploads and pages
turned by OSD read the same way): 0.29 s of CPU a page (reads, and the render where the
page had none) on scanned generated pages whose inputs take 4.9 s.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
from numpy.typing import NDArray

from prefect_docai.engines.tables.geometry import PageInput, PointWord
from prefect_docai.engines.tables.reread import MIN_CONFIDENCE

_SINGLE_LINE = 7
"""Tesseract page segmentation mode: the image is one text line."""
_MARGIN_X = 0.15
_MARGIN_Y = 0.2
"""Margins around a word's box, in glyph heights: the ink of the word's ends and accents
without the next word or line."""
_PAD = 10
"""White pixels around the cut-out: Tesseract reads glyphs at an image border badly."""


def second_look(page: PageInput, gray: NDArray[np.uint8], languages: str) -> PageInput:
    """``page`` (an OCR page, words in the straight frame) with its low-confidence words
    read again from ``gray``, the page raster in the same frame."""
    from prefect_docai.engines.page import ocr

    height, width = gray.shape
    scale = width / page.width
    dpi = round(72.0 * scale)
    em = page.em()
    words: list[PointWord] = []
    changed = False
    for w in page.words:
        if not _doubtful(w):
            words.append(w)
            continue
        x0 = max(0, int((w.box.x0 - _MARGIN_X * em) * scale))
        y0 = max(0, int((w.box.y0 - _MARGIN_Y * em) * scale))
        x1 = min(width, int((w.box.x1 + _MARGIN_X * em) * scale) + 1)
        y1 = min(height, int((w.box.y1 + _MARGIN_Y * em) * scale) + 1)
        if x1 - x0 < 6 or y1 - y0 < 6:
            words.append(w)
            continue
        crop = np.pad(gray[y0:y1, x0:x1], _PAD, constant_values=255)
        got = ocr.recognize(
            np.ascontiguousarray(crop, dtype=np.uint8), dpi, languages, _SINGLE_LINE
        )
        if len(got) == 1 and got[0].text.strip() and got[0].confidence > w.confidence:
            word = replace(w.word, text=got[0].text.strip(), confidence=got[0].confidence)
            words.append(PointWord(word, w.box))
            changed = True
        else:
            words.append(w)
    return replace(page, words=words) if changed else page


def needs_second_look(page: PageInput) -> bool:
    """Whether ``page`` holds a word :func:`second_look` would read again."""
    return page.ocr and any(_doubtful(w) for w in page.words)


def _doubtful(w: PointWord) -> bool:
    return w.confidence < MIN_CONFIDENCE and any(c.isalnum() for c in w.text)
