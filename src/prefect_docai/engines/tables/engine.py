"""The ToolTableExtraction engine: pages → ruled and unruled tables → JSON + CSV.

Per page: ruling lines (PDF vector graphics on born-digital pages, OpenCV line detection on
the raster otherwise) give ruled grids; the words left over are searched for whitespace
tables. A scan's words and raster are turned straight first (``deskew.py``: OCR deskews the
page but reports skewed boxes), and its tables' boxes turned back onto the page at the end.
A learned row-separator model (``rowsep.py``, ``engines/data/table_rowsep.json``) regroups
a candidate's body lines into rows where it is sure the finder's rows are wrong; a learned
row model (``extent.py``, ``engines/data/table_rows.json``) peels the lines at a candidate's
top and bottom that are not table rows (prose, a list, a key-value block just above or below
it); a learned region model (``regions.py``, ``engines/data/table_regions.json``, all three
from ``training/tables.py``) then drops candidates that are not tables (prose columns,
lists, key-value blocks). Cell text always comes from
the shared page model's words (text layer or the page's single OCR pass). Tables on
consecutive pages with the same columns are tagged as continuations.
"""

from __future__ import annotations

import numpy as np

from prefect_docai.engines.page.document import Document, Page, load_document
from prefect_docai.engines.pluginspec import EngineOptions, EngineOutput, normalize_threshold
from prefect_docai.engines.tables.deskew import straighten_image, straighten_words, to_page_frame
from prefect_docai.engines.tables.export import csv_output, to_result
from prefect_docai.engines.tables.extent import trim_rows
from prefect_docai.engines.tables.geometry import Box, PageInput, PointWord, Ruling
from prefect_docai.engines.tables.grid import GridTable, fill_cells
from prefect_docai.engines.tables.lattice import find_ruled_tables
from prefect_docai.engines.tables.regions import RegionModel, load_region_model, region_features
from prefect_docai.engines.tables.rowsep import split_rows
from prefect_docai.engines.tables.rulings import raster_segments, vector_segments
from prefect_docai.engines.tables.stream import find_stream_tables
from prefect_docai.engines.tables.structure import (
    drop_empty,
    extend_sideways,
    header_rows,
    is_plausible,
    ruled_confidence,
    split_unruled_rows,
    split_wide_cells,
    table_box,
)
from prefect_docai.models.tools import Tool

RULING_DPI = 200
"""Raster resolution for line detection on scans: rules are long, 200 dpi is plenty."""
OCR_DPI = 300


class TableEngine:
    tool = Tool.TABLE_EXTRACTION

    def run(self, data: bytes, options: EngineOptions) -> EngineOutput:
        found, page_count = page_candidates(data, options)
        pages = [page for page, _ in found]
        tables = [
            t
            for page, candidates in found
            for t in keep_tables([trim_rows(split_rows(c, page), page) for c in candidates], page)
        ]
        warnings: list[str] = []
        threshold = normalize_threshold(options.threshold)
        if threshold is not None:
            kept = [t for t in tables if t.confidence >= threshold]
            if len(kept) < len(tables):
                warnings.append(
                    f"{len(tables) - len(kept)} table(s) below threshold {threshold:.2f} dropped"
                )
            tables = kept
        by_number = {p.number: p for p in pages}
        for t in tables:
            page = by_number[t.page]
            to_page_frame(t, page.skew, page.width, page.height)
        tag_continuations(tables, by_number)
        result = to_result(tables, {p.number: (p.width, p.height) for p in pages})
        if not tables:
            warnings.append("no tables found")
        files = []
        if not options.output_formats or "CSV" in options.output_formats:
            files.append(csv_output(result))
        return EngineOutput(result=result, page_count=page_count, files=files, warnings=warnings)


def page_candidates(
    data: bytes, options: EngineOptions
) -> tuple[list[tuple[PageInput, list[GridTable]]], int]:
    """Every page and the candidate tables the rules find on it, and the page count."""
    out: list[tuple[PageInput, list[GridTable]]] = []
    with load_document(data, languages=options.languages, dpi=OCR_DPI) as document:
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
                page_input.words = strip_rule_glyphs(page_input.words, page_input.segments)
            out.append((page_input, find_tables(page_input)))
        page_count = document.page_count
    return out, page_count


def keep_tables(
    candidates: list[GridTable], page: PageInput, model: RegionModel | None = None
) -> list[GridTable]:
    """The candidates the region model takes for tables (all of them without a model)."""
    model = model or load_region_model()
    if model is None:
        return candidates
    n = len(candidates)
    return [t for t in candidates if model.is_table(region_features(t, page, n))]


def _page_input(document: Document, page: Page) -> PageInput:
    w, h = page.width, page.height
    words = [PointWord.of(word, w, h) for word in page.words if word.text.strip()]
    ocr = page.source == "ocr"
    skew = page.skew if ocr else 0.0
    words = straighten_words(words, skew, w, h)
    return PageInput(page.number, w, h, _dedupe(words), ocr=ocr, skew=skew)


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


def find_tables(page: PageInput) -> list[GridTable]:
    """Ruled tables first (their words are taken), then whitespace tables in the rest."""
    found: list[GridTable] = []
    remaining = list(page.words)
    ruled = sorted(find_ruled_tables(page.number, page.segments), key=lambda t: t.box.y0)
    em = page.em()
    for found_table in ruled:
        table = extend_sideways(found_table, remaining, em)
        xs = sorted({c.box.x0 for c in table.cells} | {c.box.x1 for c in table.cells})
        used = fill_cells(table, remaining)
        if not is_plausible(table):
            for c in table.cells:
                c.words, c.text = [], ""
            continue
        table = drop_empty(split_wide_cells(split_unruled_rows(table, xs), em))
        table.header_rows = header_rows(table)
        table.confidence = ruled_confidence(table, used)
        table.box = table_box(table.cells)
        used_ids = {id(w) for w in used}
        remaining = [w for w in remaining if id(w) not in used_ids]
        found.append(table)
    if remaining:
        x0 = min(w.box.x0 for w in page.words)
        x1 = max(w.box.x1 for w in page.words)
        for table in find_stream_tables(page.number, remaining, page.segments, x1 - x0):
            if any(table.box.intersection_area(r.box) > 0.2 * _area(table.box) for r in found):
                continue
            if _is_chart(table, page):
                continue
            found.append(table)
    found.sort(key=lambda t: (t.box.y0, t.box.x0))
    return found


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


def _is_chart(table: GridTable, page: PageInput) -> bool:
    """Value labels and axis ticks line up like a sparse table; the bars give a chart away:
    several filled shapes inside the region that hold no text and are narrower than it."""
    bars = 0
    for fill in page.fills:
        if not table.box.contains_point(fill.cx, fill.cy):
            continue
        if fill.width >= 0.5 * table.box.width:
            continue  # row shading
        if any(fill.contains_point(w.box.cx, w.box.cy) for w in page.words):
            continue  # cell shading
        bars += 1
    return bars >= 3


def _area(box: Box) -> float:
    return max(1e-6, box.width * box.height)


def _col_edges(table: GridTable) -> list[float]:
    edges = {c.col: c.box.x0 for c in table.cells if c.col_span == 1}
    return [edges[c] for c in sorted(edges)]


def tag_continuations(tables: list[GridTable], pages: dict[int, PageInput]) -> None:
    """The first table of a page continues the last table of the previous page when both
    have the same columns at the same places (within 3 % of the page width)."""
    by_page: dict[int, list[GridTable]] = {}
    for t in tables:
        by_page.setdefault(t.page, []).append(t)
    index = {id(t): i for i, t in enumerate(tables, start=1)}
    for number, on_page in by_page.items():
        before = by_page.get(number - 1)
        if not before:
            continue
        prev = max(before, key=lambda t: t.box.y1)
        first = min(on_page, key=lambda t: t.box.y0)
        if prev.n_cols != first.n_cols:
            continue
        a, b = _col_edges(prev), _col_edges(first)
        width = pages[number].width
        if len(a) == len(b) and all(abs(x - y) <= 0.03 * width for x, y in zip(a, b, strict=True)):
            first.continued_from = index[id(prev)]
