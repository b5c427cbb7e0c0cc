"""Page views straight from a PDF's text layer, without OCR.

Used to read the project's own generated training PDFs (born-digital, so the text layer is
exact) quickly; it goes through the same word and line builders as the shared page loader,
so training sees the words inference sees on born-digital pages.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from prefect_docai.engines.classify.pageview import GrayImage, PageView
from prefect_docai.engines.layout import Token, build_lines
from prefect_docai.engines.textlayer import read_text_layer


def _renderer(data: bytes, index: int) -> Callable[[int], GrayImage]:
    def render(dpi: int) -> GrayImage:
        import pypdfium2 as pdfium

        pdf = pdfium.PdfDocument(data)
        try:
            bitmap = pdf[index].render(scale=dpi / 72, grayscale=True)
            image = bitmap.to_pil().convert("L")
        finally:
            pdf.close()
        return np.asarray(image, dtype=np.uint8).copy()

    return render


def text_layer_views(data: bytes) -> list[PageView]:
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(data)
    views = []
    try:
        for index in range(len(pdf)):
            page = pdf[index]
            width, height = page.get_size()
            rotation = page.get_rotation()
            crop = page.get_cropbox()
            textpage = page.get_textpage()
            layer = read_text_layer(textpage.raw, crop, rotation, 0.0)
            tokens = [Token(w.text, w.bbox, 1.0, w.font_size) for w in layer.words]
            if rotation in (90, 270):
                width, height = height, width
            words, _, _ = build_lines(tokens, width, height)
            views.append(PageView(words, width, height, "text-layer", _renderer(data, index)))
    finally:
        pdf.close()
    return views
