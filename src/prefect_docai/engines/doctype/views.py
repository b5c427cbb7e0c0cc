"""What the classifier and the splitter need to know about one page, and those views
over the shared page model.

Both the page model (``engines.page``) and the training code (which reads generated PDFs'
text layers directly, without OCR) feed the same features, so the features work on this
small view instead of on either source type.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from prefect_docai.engines.page.document import Document, Page
from prefect_docai.engines.page.model import Word

GrayImage = npt.NDArray[np.uint8]

FEATURE_DPI = 100
"""Raster resolution for the image features: enough for ruling lines, checkboxes and
stroke widths, and 9x cheaper than the 300 dpi OCR raster."""


@dataclass
class PageView:
    words: Sequence[Word]
    width_pt: float
    height_pt: float
    source: str
    """``text-layer`` or ``ocr``."""
    render: Callable[[int], GrayImage] | None = None
    """Grayscale raster at the given dpi (lazy: only called when image features are wanted)."""
    _image: GrayImage | None = field(default=None, repr=False)
    fingerprint: frozenset[str] = field(default_factory=frozenset)
    """How the page's file was made (``engines.page.fingerprint``); empty when unknown."""

    @property
    def text(self) -> str:
        lines: dict[int, list[str]] = {}
        for word in self.words:
            lines.setdefault(word.line, []).append(word.text)
        return "\n".join(" ".join(parts) for _, parts in sorted(lines.items()))

    def image(self) -> GrayImage | None:
        if self._image is None and self.render is not None:
            self._image = self.render(FEATURE_DPI)
        return self._image


OCR_LANGUAGES: tuple[str, ...] = ("deu", "eng")
"""Classification and splitting read German and English documents: both models always,
plus whatever the upload's language hint adds."""


def ocr_languages(requested: tuple[str, ...]) -> tuple[str, ...]:
    if requested == ("auto",):
        return requested
    return tuple(dict.fromkeys((*OCR_LANGUAGES, *requested)))


def _renderer(page: Page) -> Callable[[int], GrayImage]:
    def render(dpi: int) -> GrayImage:
        return np.asarray(page.render(dpi, grayscale=True).convert("L"), dtype=np.uint8).copy()

    return render


def page_view(page: Page) -> PageView:
    return PageView(page.words, page.width, page.height, page.source, _renderer(page),
                    fingerprint=page.fingerprint)


def page_views(document: Document) -> list[PageView]:
    """One view per page; OCR for pages without a usable text layer runs in parallel."""
    document.prefetch()
    return [page_view(page) for page in document.pages]
