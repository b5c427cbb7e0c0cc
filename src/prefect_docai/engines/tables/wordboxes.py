"""OCR word boxes given a text layer's extent, so the finders see a scan's words as they
see a born-digital page's.

An OCR box hugs the word's ink: ``ace`` is x-height tall, ``Tag`` reaches down to the
descender, the side bearings are cut off. A text layer's box spans the font's ascent to
descent and the glyphs' advance. The finders measure every gap in glyph heights (the
page's median word height, ``PageInput.em``), so on a scan the gaps between words grow
and the unit shrinks and varies from word to word: on generated table pages with no
candidate on the scan where the born-digital page has one, the scan's median word height
was 8.6 points against 10.8 on the text layer, and its words were as many.

A text layer has no specks either: OCR reads noise, rule remains and the edges of shading
as words of punctuation only (``;``, ``:``, ``~``, ``'``), which then stand as cells of
their own or join a cell's text (``France .``). Such words read with low confidence are
dropped (:func:`is_speck`).

Applied to OCR pages after their inputs are read (``inputs.page_inputs``: the OCR pass,
rulings, second look); ``engine.page_candidates`` and ``training/tables.py`` hand the
finders and the learned models the page made here."""

from __future__ import annotations

from dataclasses import replace
from statistics import median

from prefect_docai.engines.tables.geometry import Box, PageInput, PointWord
from prefect_docai.engines.tables.grid import group_lines
from prefect_docai.engines.tables.reread import MIN_CONFIDENCE

_DESCENDERS = frozenset("gjpqyQ,;()[]{}|@$/")
"""Characters whose ink reaches below the baseline."""
_ASCENDERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÜbdfhkltß0123456789()[]{}|/!?%&#@$\\'\"äöü")
"""Characters whose ink reaches the ascender (cap) line."""
SIDE_BEARING = 0.055
"""A text layer's word box runs past the ink by this share of the ascender height on each
side (median over 5,598 words of generated table pages 0-79, born-digital against
scanned: a measurement of the two kinds of box, not fitted to any score)."""
DESCENT = 0.25
"""... and below the baseline by this share of it, whatever the letters (same measure)."""


def as_text_layer(page: PageInput) -> PageInput:
    """``page`` without its specks (:func:`is_speck`) and with :func:`text_layer_boxes`
    applied to its words when it is an OCR page (a text-layer page as it is)."""
    if not page.ocr:
        return page
    return replace(page, words=text_layer_boxes([w for w in page.words if not is_speck(w)]))


def is_speck(word: PointWord) -> bool:
    """A word of no letter or digit that OCR read with less confidence than the second look
    at ruled grids takes for rule remains or noise (``reread.MIN_CONFIDENCE``, the same
    value): on the 150 scanned generated table pages, 142 of the 206 punctuation-only words
    read below it had no punctuation at their place on the born-digital page (52 of the
    1,231 read above it)."""
    return word.confidence < MIN_CONFIDENCE and not any(c.isalnum() for c in word.text)


def text_layer_boxes(words: list[PointWord]) -> list[PointWord]:
    """OCR word boxes made like a text layer's.

    Per visual text line: the ascender line is the median top of the words with a capital,
    digit or ascender letter, the baseline the median bottom of the words without a
    descender letter, their distance ``a`` (where a line lacks one of them: the page's
    median ``a``). Every word then runs from the ascender line to :data:`DESCENT` ``* a``
    below the baseline, widened by :data:`SIDE_BEARING` ``* a`` on each side. A line where
    no word tells either line keeps its boxes."""
    lines = group_lines(words)
    measured: list[tuple[list[PointWord], float | None, float | None]] = []
    heights: list[float] = []
    for line in lines:
        bottoms = [w.box.y1 for w in line if not _DESCENDERS.intersection(w.text)]
        tops = [w.box.y0 for w in line if _ASCENDERS.intersection(w.text)]
        top = median(tops) if tops else None
        base = median(bottoms) if bottoms else None
        if top is not None and base is not None and base > top:
            heights.append(base - top)
        measured.append((line, top, base))
    if not heights:
        return words
    typical = median(heights)
    out: list[PointWord] = []
    for line, top, base in measured:
        if top is not None and base is not None and base > top:
            a = base - top
        elif top is not None:
            a, base = typical, top + typical
        elif base is not None:
            a, top = typical, base - typical
        if top is None or base is None:
            out.extend(line)
            continue
        pad = SIDE_BEARING * a
        for w in line:
            out.append(
                PointWord(w.word, Box(w.box.x0 - pad, top, w.box.x1 + pad, base + DESCENT * a))
            )
    return out
