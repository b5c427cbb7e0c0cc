"""One PDF per split document.

PDF input: pages are copied with pikepdf (content streams, fonts and images untouched, so
nothing is re-encoded). Image input (TIFF, PNG, JPEG, ...): each frame is wrapped into a PDF
page with img2pdf, which embeds JPEG and PNG data without re-compression; TIFF frames are
re-stored as PNG (lossless).
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from prefect_docai.engines.pluginspec import OutputFile


def split_pdf(data: bytes, documents: Sequence[Sequence[int]], stem: str) -> list[OutputFile]:
    import pikepdf

    files = []
    with pikepdf.open(io.BytesIO(data)) as source:
        for index, pages in enumerate(documents, start=1):
            target = pikepdf.new()
            for page in pages:
                target.pages.append(source.pages[page])
            buffer = io.BytesIO()
            target.save(buffer)
            files.append(_file(stem, index, pages, buffer.getvalue()))
    return files


def split_images(data: bytes, documents: Sequence[Sequence[int]], stem: str) -> list[OutputFile]:
    import img2pdf  # type: ignore[import-untyped]
    from PIL import Image, ImageSequence

    with Image.open(io.BytesIO(data)) as image:
        if (image.format or "").upper() in ("JPEG", "PNG") and getattr(image, "n_frames", 1) == 1:
            frames = [data]
        else:
            frames = []
            for frame in ImageSequence.Iterator(image):
                buffer = io.BytesIO()
                converted = frame if frame.mode in ("1", "L", "RGB") else frame.convert("RGB")
                dpi = frame.info.get("dpi")
                converted.save(buffer, format="PNG", dpi=dpi) if dpi else converted.save(
                    buffer, format="PNG"
                )
                frames.append(buffer.getvalue())
    files = []
    for index, pages in enumerate(documents, start=1):
        pdf = img2pdf.convert([frames[p] for p in pages])
        files.append(_file(stem, index, pages, bytes(pdf)))
    return files


def _file(stem: str, index: int, pages: Sequence[int], data: bytes) -> OutputFile:
    name = f"{stem}-{index:03d}-p{pages[0] + 1}-{pages[-1] + 1}.pdf"
    return OutputFile(name=name, media_type="application/pdf", data=data, output_type=None)
