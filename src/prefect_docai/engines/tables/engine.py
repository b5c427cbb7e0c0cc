"""The ToolTableExtraction engine: pages → ruled and unruled tables → JSON + CSV.

Per page: ruling lines (PDF vector graphics on born-digital pages, OpenCV line detection on
the raster otherwise) give ruled grids; the words left over are searched for whitespace
tables. A scan's words and raster are turned straight first (``deskew.py``: OCR deskews the
page but reports skewed boxes), and its tables' boxes turned back onto the page at the end.
A learned row-separator model (``rowsep.py``, ``engines/data/table_rowsep.json``) regroups
a candidate's body lines into rows where it is sure the finder's rows are wrong; a learned
row model (``extent.py``, ``engines/data/table_rows.json``) peels the lines at a candidate's
top and bottom that are not table rows (prose, a list, a key-value block just above or below
it; a whitespace table that loses rows is made again from the rows kept, its columns found
without them); a learned region model (``regions.py``, ``engines/data/table_regions.json``, all three
from ``training/tables.py``) then drops candidates that are not tables (prose columns,
lists, key-value blocks). Cell text comes from
the shared page model's words (text layer or the page's single OCR pass); on a scan,
where that pass read nothing inside a ruled grid, from a second OCR look at the grid
(``reread.py``; ``inputs.py`` also drops text strokes the line finder took for rules),
the words that pass read with little confidence are read again alone (``secondlook.py``),
and its OCR word boxes are given a text layer's extent (``wordboxes.py``); once a scan's
tables are kept, their cells read empty or with little confidence are cut out of the page
raster and read again alone (``cellread.py``).
Tables on consecutive pages with the same columns are tagged as continuations.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from prefect_docai.engines.pluginspec import EngineOptions, EngineOutput, normalize_threshold
from prefect_docai.engines.tables.cellread import read_tables_again
from prefect_docai.engines.tables.deskew import to_page_frame
from prefect_docai.engines.tables.export import csv_output, to_result
from prefect_docai.engines.tables.extent import trim_rows
from prefect_docai.engines.tables.finders import find_tables
from prefect_docai.engines.tables.geometry import PageInput
from prefect_docai.engines.tables.grid import GridTable
from prefect_docai.engines.tables.inputs import (
    look_languages,
    open_document,
    page_inputs,
    read_inputs,
    straight_raster,
)
from prefect_docai.engines.tables.regions import RegionModel, load_region_model, region_features
from prefect_docai.engines.tables.rowsep import free_header, split_rows
from prefect_docai.engines.tables.wordboxes import as_text_layer
from prefect_docai.models.tools import Tool


class TableEngine:
    tool = Tool.TABLE_EXTRACTION

    def run(self, data: bytes, options: EngineOptions) -> EngineOutput:
        with open_document(data, options) as document:
            # a scan's straightened rasters the inputs rendered, kept for the cell read
            rasters: dict[int, NDArray[np.uint8]] = {}
            pages = read_inputs(document, options, rasters)
            found = find_candidates(pages)
            tables = [
                free_header(t, page)
                for page, candidates in found
                for t in keep_tables(finish(candidates, page), page)
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
            # the cells are read on the pages the finders saw (word boxes given a text
            # layer's extent, as the benchmarks read them)
            tables = read_tables_again(
                tables,
                {page.number: page for page, _ in found},
                lambda page: rasters.pop(page.number)
                if page.number in rasters
                else straight_raster(document.page(page.number), page),
                look_languages(options),
            )
            page_count = document.page_count
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


def finish(candidates: list[GridTable], page: PageInput) -> list[GridTable]:
    """The candidates with their rows regrouped by the row-separator model and their edge
    rows peeled by the row model (a whitespace table peeled is made again from the rows
    kept, and regrouped the same way)."""

    def regroup(table: GridTable) -> GridTable:
        return split_rows(table, page)

    return [trim_rows(regroup(c), page, regroup=regroup) for c in candidates]


def page_candidates(
    data: bytes, options: EngineOptions
) -> tuple[list[tuple[PageInput, list[GridTable]]], int]:
    """Every page (a scan's low-confidence words read again, ``secondlook.py``, and its
    word boxes given a text layer's extent, ``wordboxes.py``) and the candidate tables the
    rules find on it, and the page count."""
    pages, page_count = page_inputs(data, options)
    return find_candidates(pages), page_count


def find_candidates(pages: list[PageInput]) -> list[tuple[PageInput, list[GridTable]]]:
    """Each page's candidate tables, after its inputs are read (a scan's word boxes given a
    text layer's extent first, ``wordboxes.py``); ``training/tables.py`` calls it on cached
    inputs, so the models are trained on the very candidates the engine finds."""
    laid = [as_text_layer(page) for page in pages]
    return [(page, find_tables(page)) for page in laid]


def keep_tables(
    candidates: list[GridTable], page: PageInput, model: RegionModel | None = None
) -> list[GridTable]:
    """The candidates the region model takes for tables (all of them without a model)."""
    model = model or load_region_model()
    if model is None:
        return candidates
    n = len(candidates)
    return [t for t in candidates if model.is_table(region_features(t, page, n))]


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
