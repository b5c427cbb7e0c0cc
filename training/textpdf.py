"""Page views of a PDF through the shared loader, without OCR.

Used to read the project's own generated training PDFs (born-digital, so the text layer is
exact): the same loader the engines use, so training sees the words inference sees on
born-digital pages. Pages without a usable text layer come back empty instead of being
OCRed (training decides itself which pages to OCR, and caches the results).
"""

from __future__ import annotations

from prefect_docai.engines.doctype.views import PageView, page_view
from prefect_docai.engines.page.document import load_document


def text_layer_views(data: bytes) -> list[PageView]:
    document = load_document(data)
    # The views' renderers keep the document open; it closes when they are collected.
    return [
        page_view(page)
        if page.source == "text-layer"
        else PageView([], page.width, page.height, "ocr", None, fingerprint=page.fingerprint)
        for page in document.pages
    ]
