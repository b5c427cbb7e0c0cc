"""Cutting page ranges out of a source file.

Classification needs only a segment's first page, and each extraction only its segment's
pages, so the flow cuts them here instead of paying for the whole file at every tool.
PDFs are cut with pikepdf (qpdf), which is thread-safe per document: no PDFium here.
"""

from __future__ import annotations

import io


def cut_pages(data: bytes, media_type: str, start: int, end: int, page_count: int) -> bytes:
    """Pages ``start``..``end`` (1-based, inclusive) as a file of the same type.

    The whole range of a file is returned as it is, byte for byte, so the service sees the
    original (and an embedded e-invoice XML survives).
    """
    if not 1 <= start <= end <= page_count:
        raise ValueError(f"page range {start}-{end} outside 1-{page_count}")
    if start == 1 and end == page_count:
        return data
    if media_type == "application/pdf":
        return _cut_pdf(data, start, end)
    if media_type == "image/tiff":
        return _cut_tiff(data, start, end)
    raise ValueError(f"cannot cut pages out of {media_type}")


def _cut_pdf(data: bytes, start: int, end: int) -> bytes:
    import pikepdf

    with pikepdf.open(io.BytesIO(data)) as source, pikepdf.new() as out:
        for index in range(start - 1, end):
            out.pages.append(source.pages[index])
        buffer = io.BytesIO()
        # Same pages, same bytes: the upload's Idempotency-Key is bound to the file's
        # sha256, so a random /ID would make an overlapping run's replay a conflict.
        out.save(buffer, deterministic_id=True)
        return buffer.getvalue()


def _cut_tiff(data: bytes, start: int, end: int) -> bytes:
    from PIL import Image, ImageSequence

    with Image.open(io.BytesIO(data)) as image:
        frames = [
            frame.copy()
            for index, frame in enumerate(ImageSequence.Iterator(image), start=1)
            if start <= index <= end
        ]
    buffer = io.BytesIO()
    frames[0].save(
        buffer, format="TIFF", save_all=True, append_images=frames[1:], compression="tiff_lzw"
    )
    return buffer.getvalue()
