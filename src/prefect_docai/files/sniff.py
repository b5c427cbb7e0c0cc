"""Cheap inspection of an upload: media type by magic bytes, page count, PDF sanity.

Runs in the API process at upload time (so credits can be reserved before a job is queued)
and in the flow before it cuts pages, so it must stay fast and bounded: no rendering, no
OCR. PDFium is reached through :mod:`prefect_docai.files.pdfium` (its lock).
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from prefect_docai.files import pdfium
from prefect_docai.files.errors import DocumentError

MAX_PIXELS = 200_000_000
"""Decompression-bomb guard: larger images are refused (≈ A0 at 600 dpi)."""

MAX_PAGES = 2_000

_MAGIC: tuple[tuple[bytes, str], ...] = (
    (b"%PDF-", "application/pdf"),
    (b"\x89PNG\r\n\x1a\n", "image/png"),
    (b"\xff\xd8\xff", "image/jpeg"),
    (b"II*\x00", "image/tiff"),
    (b"MM\x00*", "image/tiff"),
    (b"BM", "image/bmp"),
    (b"GIF87a", "image/gif"),
    (b"GIF89a", "image/gif"),
)

SUPPORTED_MEDIA_TYPES: frozenset[str] = frozenset(
    {m for _, m in _MAGIC} | {"image/webp", "application/xml"}
)


@dataclass(frozen=True)
class DocumentInfo:
    media_type: str
    page_count: int
    pixels: int = 0
    """Pixels of all an image's pages as uploaded (0 for PDF and XML): what decoding and
    reading it will cost."""


def sniff_media_type(data: bytes) -> str | None:
    """The media type from the first bytes, or ``None`` when not a supported type.

    A PDF may start after a little junk (the PDF spec allows the header within the first
    1024 bytes); bare XML is accepted for e-invoices (CII / UBL).
    """
    head = data[:1024]
    for magic, media_type in _MAGIC:
        if head.startswith(magic):
            return media_type
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "image/webp"
    if b"%PDF-" in head:
        return "application/pdf"
    stripped = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    if stripped.startswith(b"<?xml") or stripped.startswith(b"<rsm:") or stripped.startswith(b"<Invoice"):
        return "application/xml"
    return None


def inspect_document(data: bytes) -> DocumentInfo:
    """Media type and page count; raises :class:`DocumentError` for anything unusable."""
    if not data:
        raise DocumentError("empty_file", "The uploaded file is empty.")
    media_type = sniff_media_type(data)
    if media_type is None:
        raise DocumentError(
            "unsupported_media_type",
            "The file is not a PDF, PNG, JPEG, TIFF, BMP, GIF or WebP image.",
        )
    if media_type == "application/pdf":
        return DocumentInfo(media_type, _pdf_page_count(data))
    if media_type == "application/xml":
        return DocumentInfo(media_type, 1)
    frames, pixels = _image_frames(data)
    return DocumentInfo(media_type, frames, pixels)


def _pdf_page_count(data: bytes) -> int:
    try:
        count = pdfium.count_pages(data)
    except pdfium.PdfiumError as exc:
        message = str(exc).lower()
        if "password" in message:
            raise DocumentError(
                "encrypted_pdf", "The PDF is encrypted; upload it without a password."
            ) from exc
        raise DocumentError("corrupt_pdf", f"The PDF cannot be read: {exc}.") from exc
    if count == 0:
        raise DocumentError("corrupt_pdf", "The PDF has no pages.")
    if count > MAX_PAGES:
        raise DocumentError("too_many_pages", f"The PDF has {count} pages; at most {MAX_PAGES}.")
    if _pdf_is_encrypted(data):
        raise DocumentError("encrypted_pdf", "The PDF is encrypted; upload it without encryption.")
    return count


def _pdf_is_encrypted(data: bytes) -> bool:
    """Owner-password-only PDFs open without a password in pdfium; refuse them too,
    because their content may not be copied into results."""
    import pikepdf

    try:
        with pikepdf.open(io.BytesIO(data)) as pdf:
            return bool(pdf.is_encrypted)
    except pikepdf.PasswordError:
        return True
    except pikepdf.PdfError:
        return False


def check_pixels(width: int, height: int) -> None:
    """Refuse an image without pixels or with more than :data:`MAX_PIXELS`."""
    if width <= 0 or height <= 0:
        raise DocumentError("corrupt_image", "The image has no pixels.")
    if width * height > MAX_PIXELS:
        raise DocumentError(
            "image_too_large",
            f"The image has {width}×{height} pixels; at most {MAX_PIXELS:,} are accepted.",
        )


def _image_frames(data: bytes) -> tuple[int, int]:
    """Pages and their pixels (from the headers; nothing is decoded)."""
    from PIL import Image, UnidentifiedImageError

    Image.MAX_IMAGE_PIXELS = MAX_PIXELS
    is_tiff = data[:2] in (b"II", b"MM")
    try:
        with Image.open(io.BytesIO(data)) as image:
            check_pixels(*image.size)
            frames = int(getattr(image, "n_frames", 1) or 1)
            pixels = image.size[0] * image.size[1]
            if is_tiff and 1 < frames <= MAX_PAGES:
                for frame in range(1, frames):
                    image.seek(frame)
                    pixels += image.size[0] * image.size[1]
                image.seek(0)
            image.verify()
    except DocumentError:
        raise
    except Image.DecompressionBombError as exc:
        raise DocumentError("image_too_large", str(exc)) from exc
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as exc:
        raise DocumentError("corrupt_image", f"The image cannot be read: {exc}.") from exc
    if frames > MAX_PAGES:
        raise DocumentError("too_many_pages", f"The image has {frames} frames; at most {MAX_PAGES}.")
    # GIF and WebP animations are one page each: only TIFF frames are pages.
    return (frames, pixels) if is_tiff else (1, pixels)
