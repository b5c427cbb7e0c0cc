"""Page views over the shared page model (``engines.document``)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from prefect_docai.engines.classify.pageview import GrayImage, PageView
from prefect_docai.engines.document import Document, Page

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
