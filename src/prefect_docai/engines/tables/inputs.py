"""What the table finders work on: each page's words (text layer, or the page's single OCR
pass turned straight, ``deskew.py``) and its rulings (PDF vector graphics on born-digital
pages, OpenCV line detection on the raster otherwise).

On scans two steps bring the inputs closer to what the born-digital page gives: the
strokes of printed text that the raster line finder takes for short rules are dropped
(:func:`drop_text_strokes`), the ruled tables get a second OCR look where the page's
pass read nothing (``reread.py``), and the words that pass read with little confidence are
read again alone (``secondlook.py``)."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from prefect_docai.engines.page.document import Document, Page, load_document
from prefect_docai.engines.page.languages import installed_languages
from prefect_docai.engines.pluginspec import EngineOptions
from prefect_docai.engines.tables.deskew import straighten_image, straighten_words
from prefect_docai.engines.tables.geometry import Box, PageInput, PointWord, Ruling
from prefect_docai.engines.tables.reread import reread_tables, table_regions
from prefect_docai.engines.tables.rulings import raster_segments, vector_segments
from prefect_docai.engines.tables.secondlook import needs_second_look, second_look

RULING_DPI = 200
"""Raster resolution for line detection on scans: rules are long, 200 dpi is plenty."""
OCR_DPI = 300
DETECTED = ("deu", "fra", "nld", "ita", "spa")
"""Main languages a scanned page is checked for when the upload named no language
(:attr:`EngineOptions.language_hinted` false): a page whose English reading py3langid finds
written in one of them is read again with that pack and English (``load_document(detect=
...)``, as the invoice engine does), so accents and words survive; a table's cells, read again
once found (``cellread.py``), with the packs of :func:`look_languages`. Text-layer pages are not
read at all."""


def detected_languages(options: EngineOptions) -> tuple[str, ...]:
    """The packs of :data:`DETECTED` installed, or none when the upload named its language
    (the hint forces it) or asked for ``auto`` (the script found by OSD decides)."""
    if options.language_hinted or options.languages == ("auto",):
        return ()
    installed = installed_languages()
    return tuple(pack for pack in DETECTED if pack in installed)


def look_languages(options: EngineOptions) -> str:
    """The Tesseract packs the engine reads a scan's table cells again with once they are
    found (``cellread.py``): those the upload named, and the main languages a page may be
    found written in when it named none."""
    named = tuple(code for code in options.languages if code != "auto") or ("eng",)
    return "+".join(dict.fromkeys((*named, *detected_languages(options))))


def open_document(data: bytes, options: EngineOptions) -> Document:
    """The upload opened as the table engine reads it (OCR at :data:`OCR_DPI`, the main
    languages checked when none was named; the deskewed OCR rasters kept for
    :func:`straight_raster`)."""
    return load_document(
        data,
        languages=options.languages,
        dpi=OCR_DPI,
        detect=detected_languages(options),
        keep_rasters=KEPT_OCR_RASTERS,
    )


def page_inputs(data: bytes, options: EngineOptions) -> tuple[list[PageInput], int]:
    """Every page's words (text layer or OCR, straightened) and rulings, and the page
    count: what the table finders (``finders.find_tables``) work on."""
    with open_document(data, options) as document:
        return read_inputs(document, options), document.page_count


KEPT_RASTERS = 4
"""Straightened page rasters :func:`read_inputs` hands on (the last pages that rendered one;
about 9 MB each for an A4 page at :data:`OCR_DPI`)."""
KEPT_OCR_RASTERS = 8
"""Deskewed OCR rasters the document keeps for :func:`straight_raster` (the last pages
read; a page's is let go once taken). The pages are all read before their scan steps
run: a longer scan renders the rest again."""


def read_inputs(
    document: Document,
    options: EngineOptions,
    rasters: dict[int, NDArray[np.uint8]] | None = None,
) -> list[PageInput]:
    """:func:`page_inputs` of a document already open (:func:`open_document`): the engine
    keeps it open to read a scan's table cells again from its raster once they are found
    (``cellread.py``). ``rasters``, when given, receives by page number the straightened
    raster (:func:`straight_raster`) a scanned page's steps rendered, read-only, for the
    last :data:`KEPT_RASTERS` such pages: the cell read takes it instead of rendering and
    straightening the page again."""
    document.prefetch()
    pages = [_page_input(document, page) for page in document.pages]
    vector = _vector_rulings(document, pages)
    for page_input in pages:
        if page_input.number in vector:
            page_input.segments, page_input.fills = vector[page_input.number]
        else:
            page_input.segments = _raster_rulings(
                document.page(page_input.number), page_input.skew
            )
        if page_input.ocr:
            gray = _scan_inputs(document.page(page_input.number), page_input)
            if rasters is not None and gray is not None:
                gray.flags.writeable = False  # shared: a reader must not paint on it
                rasters[page_input.number] = gray
                while len(rasters) > KEPT_RASTERS:
                    del rasters[next(iter(rasters))]
    return pages


def _page_input(document: Document, page: Page) -> PageInput:
    w, h = page.width, page.height
    words = [PointWord.of(word, w, h) for word in page.words if word.text.strip()]
    ocr = page.source == "ocr"
    skew = page.skew if ocr else 0.0
    words = straighten_words(words, skew, w, h)
    return PageInput(page.number, w, h, _dedupe(words), ocr=ocr, skew=skew)


def _scan_inputs(page: Page, page_input: PageInput) -> NDArray[np.uint8] | None:
    """A scanned page's rulings and words made like a born-digital page's (in place); the
    straightened page raster (:func:`straight_raster`: the OCR pass's, or rendered once) is
    taken for the steps that read it, and returned (``None`` when no step needed it).

    Both reads here (the grid's cells, the doubtful words) take the packs the page was read
    with (``Page.languages``: those named, or English and the language the page was found
    written in), not every pack an unnamed upload may need: each pack is another
    recognizer over every word, and with the six of :func:`look_languages` the second look
    cost five times as much on a dense sheet (6.7 s against 1.3 s for 267 words)."""
    packs = "+".join(page.languages) or "eng"
    page_input.segments = drop_text_strokes(page_input.segments, page_input.words)
    gray: NDArray[np.uint8] | None = None
    if table_regions(page_input):
        gray = straight_raster(page, page_input)
        # the render may be smaller than asked (huge pages): take the scale from its size
        dpi = gray.shape[1] * 72.0 / page_input.width
        page_input.words = page_input.words + reread_tables(page_input, gray, dpi, packs)
    page_input.words = strip_rule_glyphs(page_input.words, page_input.segments)
    if needs_second_look(page_input):
        if gray is None:
            gray = straight_raster(page, page_input)
        page_input.words = second_look(page_input, gray, packs).words
    return gray


def straight_raster(page: Page, page_input: PageInput) -> NDArray[np.uint8]:
    """The page at :data:`OCR_DPI` in grey, upright (the page model's render: PDF or
    image, turned as its OCR found it) and straightened as its words are: the frame of
    ``page_input``'s words and of the tables found on them. The raster the page's OCR read
    is these very pixels where it was this render deskewed by the same angle
    (``Page.straight_raster``): taken as it is, not rendered and turned again."""
    kept = page.straight_raster(OCR_DPI)
    if kept is not None and kept.angle == page_input.skew:
        return kept.image
    image = np.asarray(page.render(OCR_DPI, grayscale=True), dtype=np.uint8)
    return straighten_image(image, page_input.skew)


STROKE_COVER = 0.6
"""Share of a short horizontal "rule" that words must cover for it to be taken as text."""


def drop_text_strokes(segments: list[Ruling], words: list[PointWord]) -> list[Ruling]:
    """The raster line finder also keeps the baselines and x-height tops of printed words
    (bold, blurred print joins into 20-point strokes): on a generated scan such strokes
    outnumbered the real rules 16 to 1 and made ruled "tables" of plain text. A horizontal
    segment that runs inside the words' boxes (below a word's top, above its bottom) for
    :data:`STROKE_COVER` of its length is dropped; a rule touching the top of the text
    under it or lying just below it stays."""
    em = _em(words)
    # the words' boxes as columns, the text-sized ones only: each segment meets a few of
    # thousands (the same float tests, element by element, as one word at a time)
    x0, y0, x1, y1 = np.array(
        [(w.box.x0, w.box.y0, w.box.x1, w.box.y1) for w in words], dtype=np.float64
    ).reshape(-1, 4).T
    tall = y1 - y0 >= 0.5 * em
    x0, y0, x1, y1 = x0[tall], y0[tall], x1[tall], y1[tall]
    out: list[Ruling] = []
    for s in segments:
        if not s.horizontal:
            out.append(s)
            continue
        lo, hi = min(s.x0, s.x1), max(s.x0, s.x1)
        starts, ends = np.maximum(lo, x0), np.minimum(hi, x1)
        meets = (y0 + 1.0 <= s.y0) & (s.y0 <= y1 + 0.5) & (ends > starts)
        spans = sorted(zip(starts[meets].tolist(), ends[meets].tolist(), strict=True))
        covered, reach = 0.0, lo
        for a, b in spans:
            a = max(a, reach)
            if b > a:
                covered += b - a
                reach = b
        if covered < STROKE_COVER * (hi - lo):
            out.append(s)
    return out


def _em(words: list[PointWord]) -> float:
    heights = sorted(w.box.height for w in words if w.box.height > 0)
    return heights[len(heights) // 2] if heights else 10.0


def _dedupe(words: list[PointWord]) -> list[PointWord]:
    """Drop words drawn twice at (almost) the same place: fake bold and shadow effects
    overprint text, which would otherwise double cells or rows."""
    kept: list[PointWord] = []
    seen: dict[str, list[Box]] = {}
    for word in words:
        boxes = seen.setdefault(word.text, [])
        area = max(1e-6, word.box.width * word.box.height)
        if any(word.box.intersection_area(b) > 0.6 * area for b in boxes):
            continue
        boxes.append(word.box)
        kept.append(word)
    return kept


def _vector_rulings(
    document: Document, pages: list[PageInput]
) -> dict[int, tuple[list[Ruling], list[Box]]]:
    """Vector rules for born-digital, unrotated PDF pages (rotated pages and scans use the
    raster, which is always upright)."""
    pdf = document.pdf_bytes
    if pdf is None:
        return {}
    wanted = [p.number for p in pages if not p.ocr and document.page(p.number).rotation == 0]
    if not wanted:
        return {}
    return vector_segments(pdf, wanted)


def _raster_rulings(page: Page, skew: float = 0.0) -> list[Ruling]:
    """Rules found on the page raster, turned by ``skew`` degrees first (the frame the
    page's words were straightened into): a long rule on a skewed scan is a slanted band
    the line finder would drop."""
    image = page.render(RULING_DPI, grayscale=True)
    gray = straighten_image(np.asarray(image, dtype=np.uint8), skew)
    # the render may be smaller than asked (huge pages): take the scale from its size
    return raster_segments(gray, gray.shape[1] * 72.0 / page.width)


_OPENERS = "[({"
_CLOSERS = "])}"


def _unbalanced(text: str, bracket: str) -> bool:
    pair = (
        _OPENERS[_CLOSERS.index(bracket)]
        if bracket in _CLOSERS
        else _CLOSERS[_OPENERS.index(bracket)]
    )
    return text.count(bracket) > text.count(pair)


def strip_rule_glyphs(words: list[PointWord], segments: list[Ruling]) -> list[PointWord]:
    """OCR reads a table rule touching a word as part of it (``|Percent|``, ``25.0]``):
    drop ``|`` at word ends, and an unbalanced bracket where a vertical rule runs."""
    verticals = [s for s in segments if not s.horizontal]
    out: list[PointWord] = []
    for w in words:
        text = w.text

        def near(x: float, word: PointWord = w) -> bool:
            return any(
                abs(v.x0 - x) <= 4 and min(v.y0, v.y1) <= word.box.cy <= max(v.y0, v.y1)
                for v in verticals
            )

        text = text.strip("|")
        if len(text) > 1 and text[-1] in _CLOSERS and _unbalanced(text, text[-1]):
            text = text[:-1] if near(w.box.x1) else text
        if len(text) > 1 and text[0] in _OPENERS and _unbalanced(text, text[0]):
            text = text[1:] if near(w.box.x0) else text
        if text:
            out.append(w.with_text(text) if text != w.text else w)
    return out
