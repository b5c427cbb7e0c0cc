"""The shared page model (``engines.document``) turned into extraction layouts."""

from __future__ import annotations

from prefect_docai.engines.document import Document
from prefect_docai.engines.parsing.layout import PageLayout, Token, build_layout


def document_layouts(
    document: Document, threshold: float | None = None, *, text_layer_only: bool = False
) -> list[PageLayout]:
    """One layout per page; words under ``threshold`` confidence are left out.
    ``text_layer_only`` skips pages that would need OCR (used where OCR is not worth it,
    e.g. to locate values already read from embedded XML)."""
    pages = [p for p in document.pages if not text_layer_only or p.source == "text-layer"]
    document.prefetch([p.number for p in pages])
    layouts: list[PageLayout] = []
    for page in pages:
        tokens = [
            Token(word.text, word.bbox, word.confidence, page.number, word.font_size)
            for word in page.words
            if threshold is None or word.confidence >= threshold
        ]
        aspect = page.width / page.height if page.height else 0.7071
        layouts.append(build_layout(page.number, tokens, aspect, page.source))
    return layouts
