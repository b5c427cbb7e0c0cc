"""Loading an upload into the page model every engine shares (docs/architecture.md §2).

One loader turns any upload into pages; each page has a lazily rendered raster and a word
layer (text-layer words for born-digital PDF pages, Tesseract words otherwise), so OCR
happens once per page whichever tool asks.

Words, lines and boxes are :mod:`prefect_docai.engines.page.model`'s; coordinates are
fractions of the upright page, origin top-left (the docs/results.md convention).

Use::

    with load_document(data, languages=("deu", "eng")) as document:
        document.prefetch()              # OCR all pages on every core (optional)
        for page in document.pages:      # lazy: nothing is rendered until asked
            page.source, page.words, page.lines, page.text, page.render(dpi=150)

A page without a usable text layer is OCRed once, on first access to its words, size,
rotation or raster (its orientation is part of the OCR result). Rasters are not cached,
so memory stays flat on long documents; words are. A caller that reads a scanned page's
straightened raster again asks for the last few OCR rasters to be kept
(``load_document(keep_rasters=...)``, :meth:`Page.straight_raster`). Hostile input raises
:class:`~prefect_docai.files.errors.DocumentError` with a stable ``code``. PDFium is
reached only through :mod:`prefect_docai.files.pdfium` (one lock for the whole process).
"""

from __future__ import annotations

import contextlib
import io
import os
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Literal, overload

import numpy as np
import numpy.typing as npt
from PIL import Image, UnidentifiedImageError

from prefect_docai.engines.page import ocr, rapid, raster
from prefect_docai.engines.page.decode import decode_page
from prefect_docai.engines.page.fingerprint import fingerprints
from prefect_docai.engines.page.languages import detect_language, main_language
from prefect_docai.engines.page.layout import build_lines
from prefect_docai.engines.page.model import Line, Word
from prefect_docai.engines.page.ocr import Orientation
from prefect_docai.engines.page.probe import probe_language
from prefect_docai.engines.page.route import prefers_rapid
from prefect_docai.engines.page.textlayer import TextLayer, read_text_layer
from prefect_docai.files import pdfium
from prefect_docai.files.errors import DocumentError
from prefect_docai.files.sniff import check_pixels, inspect_document

PDF = "application/pdf"


@dataclass(frozen=True)
class OcrView:
    """One grayscale rendering of a page for OCR, made by a :data:`Preparer`."""

    gray: raster.Gray
    scale: float
    """View pixels per pixel of the page raster the preparer was given."""
    psm: int | None = None
    """Tesseract page segmentation mode for this view (``None``: automatic)."""


Preparer = Callable[[Image.Image], Sequence[OcrView]]
"""Turns a page raster (RGB, or L for gray sources) into OCR views. The first view is read
as usual (orientation, deskew, contrast retry); each further view is read once, with the
same orientation, and merged line by line, the more confident reading winning
(:func:`ocr.merge_readings`). Tools with special material (receipts) pass one to
:func:`load_document`; the default is one luminance view at normalized text size."""


# --- loader -----------------------------------------------------------------------------

MAX_PAGE_POINTS = 14_400.0
"""PDF's own limit for a page side (200 in); anything larger is hostile or broken."""
MIN_PAGE_POINTS = 3.0
MAX_RENDER_PIXELS = 80_000_000
"""A render larger than this (≈ A1 at 300 dpi) is made at a lower resolution instead."""
MIN_IMAGE_DPI = 100
MAX_IMAGE_DPI = 1_200
RETRY_BELOW_CONFIDENCE = 0.8
"""Pages OCRed with a lower mean word confidence get a contrast-enhanced second pass."""
OSD_MIN_CONFIDENCE = 3.0
"""Tesseract OSD orientation confidence needed before a page is turned."""

_executor: ThreadPoolExecutor | None = None
_executor_lock = threading.Lock()

Source = Literal["text-layer", "ocr"]
OcrEngine = Literal["auto", "tesseract", "rapid"]
OCR_ENGINES: tuple[OcrEngine, ...] = ("auto", "tesseract", "rapid")


def ocr_engine_setting() -> OcrEngine:
    """The recognizer for pages without a text layer (``DOCAI_OCR_ENGINE``): ``auto``
    (default: RapidOCR for receipt-shaped pages, Tesseract for the rest,
    :func:`prefect_docai.engines.page.route.prefers_rapid`), ``tesseract`` or ``rapid``
    (forced; ``rapid`` falls back to Tesseract where ``rapidocr_onnxruntime`` is missing)."""
    configured = os.environ.get("DOCAI_OCR_ENGINE", "").strip().lower() or "auto"
    for name in OCR_ENGINES:
        if configured == name:
            return name
    raise ValueError(f"DOCAI_OCR_ENGINE must be one of {', '.join(OCR_ENGINES)}")


def ocr_workers() -> int:
    """Threads that OCR pages of one document at once (``DOCAI_OCR_THREADS``, default:
    the CPU count, at most 4). Tesseract runs without the GIL, so threads scale."""
    configured = os.environ.get("DOCAI_OCR_THREADS", "").strip()
    if configured.isdigit() and int(configured) > 0:
        return int(configured)
    return max(1, min(4, os.cpu_count() or 1))


def _pool() -> ThreadPoolExecutor:
    global _executor
    with _executor_lock:
        if _executor is None:
            _executor = ThreadPoolExecutor(max_workers=ocr_workers(), thread_name_prefix="docai-ocr")
        return _executor


class Page:
    """One upright page. Nothing is rendered or recognized until it is asked for."""

    def __init__(self, document: Document, index: int) -> None:
        self._document = document
        self._index = index
        self.number = index + 1
        self._lock = threading.RLock()
        self._text_layer: TextLayer | None = None
        self._ocr_rotation = 0
        self._deskew_angle = 0.0
        self._words: list[Word] | None = None
        self._lines: list[Line] | None = None
        self._rows: list[list[int]] = []
        self._languages: tuple[str, ...] | None = None

    def __repr__(self) -> str:
        return f"<Page {self.number} of {self._document.page_count}>"

    # --- geometry ---------------------------------------------------------------------

    def _base_size(self) -> tuple[float, float]:
        """Page size in points before any OSD turn (after /Rotate)."""
        return self._document._base_size(self._index)

    @property
    def width(self) -> float:
        width, height = self._base_size()
        return height if self._osd_rotation() in (90, 270) else width

    @property
    def height(self) -> float:
        width, height = self._base_size()
        return width if self._osd_rotation() in (90, 270) else height

    @property
    def rotation(self) -> int:
        """Clockwise degrees applied to make the page upright (/Rotate plus OSD)."""
        return (self._document._base_rotation(self._index) + self._osd_rotation()) % 360

    @property
    def skew(self) -> float:
        """Degrees the scan was deskewed by before OCR (0.0 for text-layer pages)."""
        self._ensure_words()
        return self._deskew_angle

    # --- source and words ---------------------------------------------------------------

    def _layer(self) -> TextLayer | None:
        if self._document.media_type != PDF:
            return None
        with self._lock:
            if self._text_layer is None:
                self._text_layer = self._document._read_text_layer(self._index)
            return self._text_layer

    @property
    def source(self) -> Source:
        layer = self._layer()
        return "text-layer" if layer is not None and layer.usable else "ocr"

    @property
    def fingerprint(self) -> frozenset[str]:
        """How the page's file was made (fonts, image encodings; ``engines.page.fingerprint``):
        page stream segmentation compares it between neighbours."""
        return self._document._fingerprint(self._index)

    @property
    def text_layer_status(self) -> str:
        """Why the text layer was (not) used: ``ok``, ``empty``, ``garbled``, ``image``, or
        ``none`` for images."""
        layer = self._layer()
        return "none" if layer is None else layer.reason

    @property
    def words(self) -> list[Word]:
        """Words in reading order (OCR runs once, on first access)."""
        self._ensure_words()
        assert self._words is not None
        return self._words

    @property
    def lines(self) -> list[Line]:
        self._ensure_words()
        assert self._lines is not None
        return self._lines

    @property
    def rows(self) -> list[list[Line]]:
        """Lines grouped into visual rows (top to bottom, each left to right)."""
        lines = self.lines
        return [[lines[i] for i in row] for row in self._rows]

    @property
    def row_indexes(self) -> list[list[int]]:
        """:attr:`rows` as indexes into :attr:`lines`."""
        self._ensure_words()
        return self._rows

    @property
    def image_dpi(self) -> float | None:
        """The resolution of an image page as uploaded (``None`` for PDF pages)."""
        if self._document.media_type == PDF:
            return None
        return self._document._image_dpi[self._index]

    @property
    def embed_dpi(self) -> float | None:
        """The resolution an image page is shown at in a PDF output: its own, or lower for
        an image over ``MAX_RENDER_PIXELS`` (``None`` for PDF pages). At its own resolution
        a 14000² PNG would be decoded whole, in colour, to be embedded."""
        native = self.image_dpi
        return None if native is None else self._document._render_dpi(self._index, native)

    @property
    def text(self) -> str:
        """Reading-order text: rows joined by ``\\n``; separate segments of one row (table
        cells, label and value) joined by a tab."""
        lines = self.lines
        return "\n".join("\t".join(lines[i].text for i in row) for row in self._rows)

    @property
    def confidence(self) -> float:
        words = self.words
        if not words:
            return 0.0
        return sum(word.confidence for word in words) / len(words)

    @property
    def languages(self) -> tuple[str, ...]:
        """Tesseract models used for this page; ``auto`` is resolved by OSD's script, and
        with :attr:`Document.detect` by the language of the first reading."""
        requested = self._document.languages
        auto = requested == ("auto",)
        if not auto and not self._document.detect:
            return requested
        if self.source == "text-layer":
            return () if auto else requested
        self._ensure_words()
        return self._languages or (ocr.AUTO_FALLBACK if auto else requested)

    def _ensure_words(self) -> None:
        if self._words is not None:
            return
        with self._lock:
            if self._words is not None:
                return
            layer = self._layer()
            if layer is not None and layer.usable:
                tokens, recognized = layer.words, False
            else:
                tokens, recognized = self._ocr_tokens(), True
            # The OCR pass settles the orientation, hence the upright size.
            width, height = self._base_size()
            if self._ocr_rotation in (90, 270):
                width, height = height, width
            words, lines, rows = build_lines(
                tokens, width, height, recognized=recognized, page=self.number
            )
            self._words, self._lines, self._rows = words, lines, rows

    def _read(
        self,
        image: raster.Gray,
        dpi: int,
        languages: str,
        psm: int | None = None,
        retry: bool = True,
        contrast: bool | None = None,
        straight: raster.Deskewed | None = None,
    ) -> _Reading:
        """``image`` deskewed and read. ``contrast`` reads only the plain (``False``) or
        the contrast-equalized copy (``True``), as an earlier reading of the page settled;
        ``None``: the plain one, and with ``retry`` the equalized one too when the plain
        reading is doubtful. ``straight``: ``image`` as an earlier reading deskewed it
        (the skew is measured on the pixels alone, so it comes out the same)."""
        if straight is None:
            straight = raster.deskew(image)
        if contrast:
            found = ocr.recognize(raster.enhance_contrast(straight.image), dpi, languages, psm)
        else:
            found = ocr.recognize(straight.image, dpi, languages, psm)
        if contrast is None and retry and _doubtful(found):
            # Faint or unevenly lit pages: a second pass on a contrast-equalized copy, kept
            # if it reads more with confidence (SROIE: a blank result became CER 11 %).
            second = ocr.recognize(raster.enhance_contrast(straight.image), dpi, languages, psm)
            if _reading_score(second) > _reading_score(found):
                found, contrast = second, True
        found = ocr.repair_diacritics(straight.image, dpi, found, languages)
        return _Reading(found, straight, image.shape[1], image.shape[0], bool(contrast))

    def _ocr_tokens(self) -> list[Word]:
        """OCR the page: turned upright, text-size normalized, deskewed.

        Orientation detection (OSD, ~30 % of a page's OCR time) runs only when the upright
        reading is doubtful, or when the language is ``auto`` (OSD names the script); the
        turned reading replaces the first only if it reads better.
        """
        views: list[OcrView]
        prepare = self._document.prepare
        if prepare is None:
            gray, dpi = self._document._raster(self._index, self._document.dpi, 0)
            if self._wants_rapid(gray):
                tokens = self._rapid_tokens(gray, dpi)
                if tokens is not None:
                    return tokens
            scaled, factor = raster.normalize_scale(gray)
            del gray
            views = [OcrView(scaled, factor)]
        else:
            image, dpi = self._document._ocr_image(self._index)
            colour = np.asarray(image.convert("RGB")) if image.mode != "L" else raster.to_gray(image)
            if self._wants_rapid(colour):
                tokens = self._rapid_tokens(colour, dpi)
                if tokens is not None:
                    return tokens
            del colour
            views = list(prepare(image))
            del image
            if not views:
                raise ValueError("a preparer must return at least one view")
        scaled, factor = views[0].gray, views[0].scale
        effective_dpi = max(1, round(dpi * factor))
        rotation = 0
        orientation: Orientation | None = None
        if self._document.languages == ("auto",):
            orientation = ocr.detect_orientation(scaled, effective_dpi)
            self._languages = ocr.languages_for_script(orientation.script if orientation else None)
            if orientation is not None and orientation.confidence >= OSD_MIN_CONFIDENCE:
                rotation = orientation.rotate
        languages = "+".join(self._languages or self._document.languages)
        upright = _turn(scaled, rotation)
        straight: raster.Deskewed | None = None
        probed: tuple[str, ...] | None = None
        if self._document.detect and self._document.languages != ("auto",):
            # The language from a few of the page's lines (:mod:`.probe`): the page is then
            # read once with its pack instead of with English first, then again.
            straight = raster.deskew(upright)
            probed = probe_language(
                straight.image, effective_dpi, self._document.languages, self._document.detect
            )
            if probed is not None:
                self._languages = probed
                languages = "+".join(probed)
        reading = self._read(upright, effective_dpi, languages, straight=straight)
        sideways = _sideways(reading.words)
        if rotation == 0 and (sideways or _doubtful(reading.words)):
            orientation = ocr.detect_orientation(scaled, effective_dpi)
            if (orientation is not None and orientation.rotate
                    and orientation.confidence >= OSD_MIN_CONFIDENCE):
                turned = self._read(_turn(scaled, orientation.rotate), effective_dpi, languages)
                # Tesseract reads a sideways page as vertical text (right words, wrong
                # boxes and lines): the turned reading wins unless clearly worse.
                bias = 0.5 if sideways else 1.0
                if _reading_score(turned.words) > bias * _reading_score(reading.words):
                    reading, rotation = turned, orientation.rotate
        rereading = self._main_language(reading.words)
        again = rereading
        if probed is not None:
            # Read with the probe's pack: a whole reading that names another (the probe's
            # few lines misled it) is read again as a first reading in English leads to.
            again = None if rereading == probed else (rereading or self._document.languages)
        if again is not None:
            # The page is in another main language than the one read with: read again
            # with its pack (one reading is kept, the first is dropped), from the copy
            # (plain or contrast-equalized) the first reading settled on: one pass.
            self._languages = rereading
            languages = "+".join(again)
            # The same pixels as that reading's (``rotation`` is the turn it was read at):
            # its deskewed copy is taken as it is, not measured and warped again.
            reading = self._read(
                _turn(scaled, rotation), effective_dpi, languages, contrast=reading.contrast,
                straight=reading.straight,
            )
        self._ocr_rotation = rotation
        self._deskew_angle = reading.straight.angle
        if prepare is None and factor == 1.0 and rotation == 0:
            # the raster read is the page's render at ``dpi``, deskewed (no rescale, no
            # turn): kept for :meth:`straight_raster` where the caller asked for it
            self._document._keep_straight(self._index, reading.straight, dpi)
        found = reading.source_words()
        width_px, height_px = reading.width, reading.height
        for view in views[1:]:
            extra = self._read(_turn(view.gray, rotation), max(1, round(dpi * view.scale)),
                               languages, view.psm, retry=False)
            # Boxes into the first view's pixels, where the tokens below are measured.
            ratio = factor / view.scale
            found = ocr.merge_readings(found, [
                ocr.scaled_word(word, ratio) for word in extra.source_words()
            ])
        # A line's tallest word box (ascender to descender) approximates the font size;
        # measured before deskewing maps the boxes back (a turned box is taller).
        line_height: dict[int, float] = {}
        for word in reading.words:
            line_height[word.line] = max(line_height.get(word.line, 0.0), word.box[3] - word.box[1])
        merged: dict[int, float] = {}
        for word in found:
            if word.line not in line_height:  # a line only another view read
                merged[word.line] = max(merged.get(word.line, 0.0), word.box[3] - word.box[1])
        line_height.update(merged)
        tokens = []
        for word in found:
            x0, y0, x1, y1 = word.box
            tokens.append(
                Word(
                    text=word.text,
                    bbox=(
                        _clamp(x0 / width_px),
                        _clamp(y0 / height_px),
                        _clamp(x1 / width_px),
                        _clamp(y1 / height_px),
                    ),
                    confidence=word.confidence,
                    line=word.line,
                    block=word.block,
                    font_size=round(line_height[word.line] * 72.0 / effective_dpi, 1),
                )
            )
        return tokens

    def _main_language(self, words: list[ocr.OcrWord]) -> tuple[str, ...] | None:
        """The packs to read the page again with when its first reading is in one of the
        document's :attr:`Document.detect` languages (:func:`languages.main_language`)."""
        requested = self._document.languages
        if requested == ("auto",) or not self._document.detect:
            return None
        text = " ".join(word.text for word in words)
        return main_language(text, requested, self._document.detect)

    def _wants_rapid(self, image: npt.NDArray[np.uint8]) -> bool:
        engine = self._document.ocr_engine
        if engine == "tesseract" or not rapid.available():
            return False
        return engine == "rapid" or prefers_rapid(image)

    def _rapid_tokens(self, image: npt.NDArray[np.uint8], dpi: int) -> list[Word] | None:
        """The page read by RapidOCR (no turn, no deskew: it reads skewed and upside-down
        lines itself), or ``None`` when it found the page sideways (Tesseract's OSD
        handles that)."""
        found = rapid.recognize(image)
        if _sideways(found):
            return None
        languages = self._document.languages
        if "deu" in languages and detect_language(
            " ".join(word.text for word in found), languages
        ) == "de":
            gray = raster.rgb_to_gray(image)
            found = ocr.restore_umlauts(gray, dpi, found)
        self._ocr_rotation = 0
        self._deskew_angle = 0.0
        height_px, width_px = image.shape[:2]
        line_height: dict[int, float] = {}
        for word in found:
            line_height[word.line] = max(line_height.get(word.line, 0.0), word.box[3] - word.box[1])
        return [
            Word(
                text=word.text,
                bbox=(
                    _clamp(word.box[0] / width_px),
                    _clamp(word.box[1] / height_px),
                    _clamp(word.box[2] / width_px),
                    _clamp(word.box[3] / height_px),
                ),
                confidence=word.confidence,
                line=word.line,
                block=word.block,
                font_size=round(line_height[word.line] * 72.0 / max(dpi, 1), 1),
            )
            for word in found
        ]

    # --- orientation --------------------------------------------------------------------

    def _osd_rotation(self) -> int:
        """Clockwise turn found by OCR (0 for text-layer pages); runs the OCR if needed."""
        if self.source == "text-layer":
            return 0
        self._ensure_words()
        return self._ocr_rotation

    # --- rasters ------------------------------------------------------------------------

    def render(self, dpi: int = 300, grayscale: bool = True) -> Image.Image:
        """The upright page as an image at ``dpi`` (not cached: call once, keep it if needed).

        For a page without a text layer "upright" is what OCR found, so this runs the
        page's OCR first if it has not run yet."""
        rotation = self._osd_rotation()
        return self._document._render_image(self._index, dpi, rotation, grayscale)

    def straight_raster(self, dpi: int) -> raster.Deskewed | None:
        """The raster this page's OCR read, handed over once (the document lets it go):
        ``render(dpi, grayscale=True)`` turned by :attr:`skew` about its centre (the
        very pixels: the OCR raster is that render, ``raster.deskew`` that turn), read-only.
        ``None`` when the document keeps none (``load_document(keep_rasters=...)``), this
        page's was let go or handed over already, or its OCR read another raster (a text
        layer, another resolution, a page OSD turned, text rescaled to a readable size,
        a :data:`Preparer`'s views): render it then."""
        self._ensure_words()
        return self._document._take_straight(self._index, dpi)


class _Pages(Sequence[Page]):
    def __init__(self, pages: list[Page]) -> None:
        self._pages = pages

    def __len__(self) -> int:
        return len(self._pages)

    @overload
    def __getitem__(self, index: int) -> Page: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Page]: ...

    def __getitem__(self, index: int | slice) -> Page | Sequence[Page]:
        return self._pages[index]

    def __iter__(self) -> Iterator[Page]:
        return iter(self._pages)


class Document:
    """A loaded upload: PDF or image(s). Use as a context manager (or call :meth:`close`)."""

    def __init__(
        self,
        data: bytes,
        media_type: str,
        page_count: int,
        languages: tuple[str, ...],
        dpi: int,
        prepare: Preparer | None = None,
        ocr_engine: OcrEngine = "auto",
        detect: tuple[str, ...] = (),
        keep_rasters: int = 0,
    ) -> None:
        self.media_type = media_type
        self.keep_rasters = keep_rasters
        """OCR rasters kept for :meth:`Page.straight_raster` (the last pages read)."""
        self._straight: OrderedDict[int, tuple[raster.Deskewed, int]] = OrderedDict()
        self._straight_lock = threading.Lock()
        self.detect = detect
        """Tesseract packs of other main languages a page may be written in (see
        :func:`load_document`)."""
        self.prepare = prepare
        self.ocr_engine: OcrEngine = ocr_engine
        self.page_count = page_count
        self.languages = languages
        self.dpi = dpi
        self._data = data
        self._pdf: pdfium.PdfFile | None = None
        self._sizes: list[tuple[float, float]] = []
        self._rotations: list[int] = []
        self._image_dpi: list[float] = []
        self._pixels: list[tuple[int, int]] = []
        self._fingerprints: list[frozenset[str]] | None = None
        self._closed = False
        self.pages: Sequence[Page] = _Pages([Page(self, i) for i in range(page_count)])

    # --- public -------------------------------------------------------------------------

    @property
    def pdf_bytes(self) -> bytes | None:
        """The original bytes of a PDF upload (for lossless page copies), else ``None``."""
        return self._data if self.media_type == PDF else None

    @property
    def data(self) -> bytes:
        return self._data

    def page(self, number: int) -> Page:
        """Page ``number`` (1-based)."""
        if not 1 <= number <= self.page_count:
            raise IndexError(f"page {number} is not in 1..{self.page_count}")
        return self.pages[number - 1]

    def text(self) -> str:
        """All pages' text, separated by form feeds (pages are OCRed in parallel)."""
        self.prefetch()
        return "\f".join(page.text for page in self.pages)

    def prefetch(self, numbers: Iterable[int] | None = None) -> None:
        """Compute the words of these pages (1-based; default all) on the OCR thread pool.

        Worth calling before looping over many pages: OCR pages run side by side on every
        core, while text-layer pages take milliseconds either way. Only one raster per
        worker thread is alive at a time, so memory stays bounded on long documents.
        """
        wanted = [self.page(n) for n in (numbers if numbers is not None else
                                         range(1, self.page_count + 1))]
        pending = [page for page in wanted if page._words is None]
        if not pending:
            return
        if len(pending) == 1 or ocr_workers() == 1:
            for page in pending:
                page._ensure_words()
            return
        futures = [_pool().submit(page._ensure_words) for page in pending]
        for future in futures:
            future.result()

    def close(self) -> None:
        with self._straight_lock:
            self._straight.clear()
        if self._pdf is not None:
            self._pdf.close()
            self._pdf = None
        self._closed = True

    def __enter__(self) -> Document:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        with contextlib.suppress(Exception):
            self.close()

    # --- internals ----------------------------------------------------------------------

    def _open(self) -> pdfium.PdfFile:
        if self._closed or self._pdf is None:
            raise ValueError("the document is closed")
        return self._pdf

    def _open_pdf(self) -> None:
        try:
            self._pdf = pdfium.PdfFile(self._data)
            count = len(self._pdf)
            for index in range(count):
                width, height = self._pdf.page_size(index)
                if not (MIN_PAGE_POINTS <= width <= MAX_PAGE_POINTS
                        and MIN_PAGE_POINTS <= height <= MAX_PAGE_POINTS):
                    raise DocumentError(
                        "invalid_page_size",
                        f"Page {index + 1} measures {width:.0f}×{height:.0f} pt; "
                        f"pages must be {MIN_PAGE_POINTS:.0f}–{MAX_PAGE_POINTS:.0f} pt a side.",
                    )
                self._sizes.append((float(width), float(height)))
        except pdfium.PdfiumError as exc:
            raise DocumentError("corrupt_pdf", f"The PDF cannot be read: {exc}.") from exc
        if count != self.page_count:
            self.page_count = count
            self.pages = _Pages([Page(self, i) for i in range(count)])

    def _open_images(self) -> None:
        with self._image() as image:
            for frame in range(self.page_count):
                if frame:
                    image.seek(frame)
                width, height = _upright_size(image)
                check_pixels(width, height)
                self._pixels.append((width, height))
                dpi = _image_dpi(image, self.dpi)
                self._image_dpi.append(dpi)
                self._sizes.append((width * 72.0 / dpi, height * 72.0 / dpi))

    @contextlib.contextmanager
    def _image(self) -> Iterator[Image.Image]:
        try:
            with Image.open(io.BytesIO(self._data)) as image:
                yield image
        except DocumentError:
            raise
        except Image.DecompressionBombError as exc:
            raise DocumentError("image_too_large", str(exc)) from exc
        except (UnidentifiedImageError, OSError, SyntaxError, ValueError, EOFError) as exc:
            raise DocumentError("corrupt_image", f"The image cannot be read: {exc}.") from exc

    def _pixel_size(self, index: int) -> tuple[int, int]:
        """An image page's upright size in pixels, as uploaded."""
        return self._pixels[index]

    def ocr_raster(self, number: int) -> raster.Gray:
        """Page ``number`` (1-based) as OCR reads it, before any turn: grey, at the OCR
        resolution (big images decoded reduced)."""
        gray, _dpi = self._raster(number - 1, self.dpi, 0)
        return gray

    def _keep_straight(self, index: int, straight: raster.Deskewed, dpi: int) -> None:
        """Keep page ``index``'s deskewed OCR raster (read at ``dpi``), the last
        :attr:`keep_rasters` pages' at most."""
        if self.keep_rasters <= 0:
            return
        straight.image.flags.writeable = False  # handed to readers: none may paint on it
        with self._straight_lock:
            self._straight[index] = (straight, dpi)
            while len(self._straight) > self.keep_rasters:
                self._straight.popitem(last=False)

    def _take_straight(self, index: int, dpi: int) -> raster.Deskewed | None:
        with self._straight_lock:
            kept = self._straight.pop(index, None)
        return kept[0] if kept is not None and kept[1] == dpi else None

    def _fingerprint(self, index: int) -> frozenset[str]:
        if self._fingerprints is None:
            found = fingerprints(self._data)
            # a file pikepdf reads differently from pdfium gives no evidence at all
            self._fingerprints = found if len(found) == self.page_count else []
        return self._fingerprints[index] if self._fingerprints else frozenset()

    def _base_size(self, index: int) -> tuple[float, float]:
        """Page size after ``/Rotate`` (pdfium's page sizes already include it)."""
        return self._sizes[index]

    def _base_rotation(self, index: int) -> int:
        if self.media_type != PDF:
            return 0
        if not self._rotations:
            self._rotations = [-1] * self.page_count
        if self._rotations[index] < 0:
            self._rotations[index] = self._open().rotation(index)
        return self._rotations[index]

    def _read_text_layer(self, index: int) -> TextLayer:
        try:
            return read_text_layer(self._open(), index)
        except pdfium.PdfiumError as exc:
            raise DocumentError("corrupt_pdf", f"Page {index + 1} cannot be read: {exc}.") from exc

    def _render_dpi(self, index: int, dpi: float) -> float:
        width, height = self._sizes[index]
        pixels = width * height * (dpi / 72.0) ** 2
        if pixels > MAX_RENDER_PIXELS:
            dpi = dpi * (MAX_RENDER_PIXELS / pixels) ** 0.5
        return dpi

    def _render_image(self, index: int, dpi: int, rotation: int, grayscale: bool) -> Image.Image:
        if self.media_type == PDF:
            actual = self._render_dpi(index, dpi)
            try:
                image = self._open().render(index, actual / 72.0, rotation, grayscale)
            except pdfium.PdfiumError as exc:
                raise DocumentError(
                    "corrupt_pdf", f"Page {index + 1} cannot be rendered: {exc}."
                ) from exc
            image.info["dpi"] = (actual, actual)
            return image
        scale = dpi / self._image_dpi[index]
        check_pixels(*(max(1, round(side * scale)) for side in self._pixel_size(index)))
        with self._image() as source:
            if index:
                source.seek(index)
            # Big images are decoded reduced, never at full resolution in RGB.
            image = decode_page(source, self._data, index, scale, grayscale)
        if rotation:
            image = image.rotate(-rotation, expand=True)
        image.info["dpi"] = (dpi, dpi)
        return image

    def _ocr_image(self, index: int) -> tuple[Image.Image, int]:
        """The page for a :data:`Preparer`: as :meth:`_raster`, but in colour."""
        if self.media_type == PDF:
            actual = round(self._render_dpi(index, self.dpi))
            return self._render_image(index, actual, 0, False), actual
        target = self._ocr_dpi(index)
        return self._render_image(index, target, 0, False), target

    def _ocr_dpi(self, index: int) -> int:
        native = self._image_dpi[index]
        # Very high-resolution scans only slow Tesseract down; 400 dpi keeps all detail.
        dpi = 300 if native > 400 else native
        # And a huge image (a 14000² PNG is 196 MP) is read at most MAX_RENDER_PIXELS, as a
        # PDF page is: the OCR raster and its copies stay bounded in memory and time.
        return max(1, round(self._render_dpi(index, dpi)))

    def _raster(self, index: int, dpi: int, rotation: int) -> tuple[raster.Gray, int]:
        """The page for OCR: grayscale at the PDF render dpi or the image's own resolution."""
        if self.media_type == PDF:
            actual = self._render_dpi(index, dpi)
            image = self._render_image(index, round(actual), rotation, True)
            return raster.to_gray(image), round(actual)
        target = self._ocr_dpi(index)
        image = self._render_image(index, target, rotation, True)
        return raster.to_gray(image), target


@dataclass(frozen=True)
class _Reading:
    words: list[ocr.OcrWord]
    straight: raster.Deskewed
    width: int
    height: int
    contrast: bool = False
    """Read from the contrast-equalized copy."""

    def source_words(self) -> list[ocr.OcrWord]:
        """The words with boxes in the pixels of the image before deskewing."""
        if self.straight.inverse is None:
            return self.words
        return [ocr.moved_word(word, self.straight.to_source(word.box)) for word in self.words]


def _turn(gray: raster.Gray, clockwise: int) -> raster.Gray:
    """``gray`` turned clockwise by a multiple of 90°."""
    if clockwise % 360 == 0:
        return gray
    import numpy as np

    return np.ascontiguousarray(np.rot90(gray, k=-(clockwise // 90) % 4))


def _sideways(words: list[ocr.OcrWord]) -> bool:
    return bool(words) and sum(word.vertical for word in words) > 0.5 * len(words)


def _doubtful(words: list[ocr.OcrWord]) -> bool:
    if len(words) < 10:
        return True
    return sum(word.confidence for word in words) / len(words) < RETRY_BELOW_CONFIDENCE


def _reading_score(words: list[ocr.OcrWord]) -> float:
    """Confident multi-character words count most; noise read as 'words' barely counts."""
    return sum(word.confidence**2 for word in words if len(word.text) > 1)


def _clamp(value: float) -> float:
    return 0.0 if value < 0.0 else 1.0 if value > 1.0 else value


def _upright_size(image: Image.Image) -> tuple[int, int]:
    width, height = image.size
    orientation = image.getexif().get(0x0112, 1) if image.format == "JPEG" else 1
    return (height, width) if orientation in (5, 6, 7, 8) else (width, height)


def _image_dpi(image: Image.Image, default: int) -> float:
    """The image's own resolution when it is plausible for a scan, else ``default``
    (phone photos and screenshots often claim 72 or 96 dpi)."""
    value = image.info.get("dpi")
    try:
        dpi = float(value[0]) if isinstance(value, tuple) else float(value) if value else 0.0
    except (TypeError, ValueError):
        dpi = 0.0
    return dpi if MIN_IMAGE_DPI <= dpi <= MAX_IMAGE_DPI else float(default)


def load_document(
    data: bytes,
    *,
    languages: tuple[str, ...] = ("eng",),
    dpi: int = 300,
    media_type: str | None = None,
    prepare: Preparer | None = None,
    ocr_engine: OcrEngine | None = None,
    detect: tuple[str, ...] = (),
    keep_rasters: int = 0,
) -> Document:
    """Open an upload as pages. Raises :class:`DocumentError` for anything unusable.

    ``languages`` are Tesseract codes (``("deu", "eng")``) or ``("auto",)``; ``dpi`` is the
    OCR/render resolution for PDF pages and the assumed resolution of images that carry
    none. ``media_type`` is only a hint: the content decides. ``prepare`` replaces the
    default OCR raster preparation (see :data:`Preparer`); text-layer pages ignore it.
    ``ocr_engine`` picks the recognizer of pages without a text layer (default: the
    ``DOCAI_OCR_ENGINE`` setting, see :func:`ocr_engine_setting`). ``detect`` names
    Tesseract packs of other main languages (``("fra", "ita")``): a page OCRed with
    ``languages`` whose reading py3langid finds written in one of them is read again with
    that pack in place of ``languages[0]`` (``fra+eng`` for ``deu+eng``); its
    :attr:`Page.languages` tell which. Ignored with ``auto`` and on text-layer pages.
    ``keep_rasters``: the deskewed OCR rasters of the last this many pages read are kept
    until :meth:`Page.straight_raster` takes them (about 9 MB an A4 page at 300 dpi), for a
    caller that reads the straightened page again (the table tool).
    """
    if not data:
        raise DocumentError("empty_file", "The uploaded file is empty.")
    if not 50 <= dpi <= 1200:
        raise ValueError("dpi must be within 50..1200")
    if not languages:
        languages = ("eng",)
    info = inspect_document(data)
    if info.media_type == "application/xml":
        raise DocumentError(
            "unsupported_media_type", "An XML file has no pages to read (only e-invoices)."
        )
    if media_type and media_type != info.media_type:
        media_type = info.media_type
    engine = ocr_engine or ocr_engine_setting()
    if engine not in OCR_ENGINES:
        raise ValueError(f"ocr_engine must be one of {', '.join(OCR_ENGINES)}")
    document = Document(
        data,
        info.media_type,
        info.page_count,
        tuple(languages),
        dpi,
        prepare,
        engine,
        tuple(detect),
        keep_rasters,
    )
    try:
        if info.media_type == PDF:
            document._open_pdf()
        else:
            document._open_images()
    except BaseException:
        document.close()
        raise
    return document
