"""Small test documents the project generates itself (reportlab + pypdfium2 + Pillow).

Shared by every engine's tests: ``make_text_pdf`` for born-digital pages, ``rasterize`` to
turn them into "scans", ``image_bytes``/``tiff_bytes`` to wrap rasters in image formats.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from functools import cache
from pathlib import Path

import numpy as np
from PIL import Image
from reportlab.lib.pagesizes import A4
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas

_FONT_FILES = (
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
)


@cache
def unicode_font() -> str:
    """A TrueType font with umlauts, €, ß registered in reportlab (Helvetica if none)."""
    for path in _FONT_FILES:
        if Path(path).is_file():
            pdfmetrics.registerFont(TTFont("DocgenSans", path))
            return "DocgenSans"
    return "Helvetica"


def make_text_pdf(
    pages: Sequence[Sequence[str]] | Sequence[str],
    *,
    font_size: float = 14,
    pagesize: tuple[float, float] = A4,
    margin: float = 72,
    leading: float | None = None,
    rotate: int = 0,
) -> bytes:
    """A born-digital PDF: each page's lines drawn top-down from the top-left margin.

    ``pages`` is either one page's lines (``["a", "b"]``) or a list of pages. ``rotate``
    sets ``/Rotate`` on every page afterwards (text drawn on the unrotated page, so a
    viewer shows it turned clockwise; reportlab's own page rotation swaps the media box).
    """
    page_list: list[Sequence[str]] = (
        [pages] if pages and isinstance(pages[0], str) else list(pages)  # type: ignore[list-item]
    )
    font = unicode_font()
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=pagesize)
    step = leading or font_size * 1.6
    for lines in page_list:
        pdf.setFont(font, font_size)
        y = pagesize[1] - margin - font_size
        for line in lines:
            pdf.drawString(margin, y, line)
            y -= step
        pdf.showPage()
    pdf.save()
    if not rotate:
        return buffer.getvalue()
    import pikepdf

    with pikepdf.open(io.BytesIO(buffer.getvalue())) as document:
        for page in document.pages:
            page.Rotate = rotate
        out = io.BytesIO()
        document.save(out)
    return out.getvalue()


def rasterize(pdf: bytes, dpi: int = 300, grayscale: bool = True) -> list[Image.Image]:
    """Every page of ``pdf`` as an image at ``dpi`` (with the dpi recorded in ``info``)."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(pdf)
    images = []
    try:
        for index in range(len(document)):
            page = document[index]
            bitmap = page.render(scale=dpi / 72, grayscale=grayscale)
            image = bitmap.to_pil().convert("L" if grayscale else "RGB")
            bitmap.close()
            page.close()
            image.info["dpi"] = (dpi, dpi)
            images.append(image)
    finally:
        document.close()
    return images


def image_bytes(image: Image.Image, fmt: str = "PNG", dpi: int | None = 300) -> bytes:
    """``image`` encoded as ``fmt`` (PNG, JPEG, TIFF, BMP, GIF, WEBP), with its dpi if given."""
    buffer = io.BytesIO()
    options: dict[str, object] = {}
    if dpi and fmt.upper() not in ("GIF", "WEBP"):
        options["dpi"] = (dpi, dpi)
    if fmt.upper() == "WEBP":
        options["lossless"] = True
    if fmt.upper() == "JPEG":
        options["quality"] = 90
    # Save a copy: Pillow leaves encoder state on the saved object, which breaks a later
    # save of the same image in another format.
    image.copy().save(buffer, format=fmt, **options)
    return buffer.getvalue()


def tiff_bytes(images: Sequence[Image.Image], dpi: int = 300) -> bytes:
    """A multi-page TIFF (one frame per image)."""
    buffer = io.BytesIO()
    first, *rest = [image.copy() for image in images]
    first.save(
        buffer,
        format="TIFF",
        save_all=True,
        append_images=rest,
        dpi=(dpi, dpi),
        compression="tiff_lzw",
    )
    return buffer.getvalue()


def rotate_image(image: Image.Image, clockwise: int) -> Image.Image:
    """The page turned by ``clockwise`` degrees (as a sideways or upside-down scan)."""
    turned = image.rotate(-clockwise, expand=True, fillcolor=255)
    turned.info["dpi"] = image.info.get("dpi", (300, 300))
    return turned


def skew_image(image: Image.Image, degrees: float) -> Image.Image:
    """A slightly tilted copy (counter-clockwise positive), white fill, same size."""
    tilted = image.rotate(degrees, resample=Image.Resampling.BILINEAR, fillcolor=255)
    tilted.info["dpi"] = image.info.get("dpi", (300, 300))
    return tilted


def add_noise(image: Image.Image, sigma: float = 12.0, seed: int = 0) -> Image.Image:
    """Gaussian noise like a cheap scanner's."""
    array = np.asarray(image.convert("L"), dtype=np.float32)
    noisy = array + np.random.default_rng(seed).normal(0.0, sigma, array.shape)
    result = Image.fromarray(np.clip(noisy, 0, 255).astype(np.uint8))
    result.info["dpi"] = image.info.get("dpi", (300, 300))
    return result


def image_pdf(images: Sequence[Image.Image], dpi: int = 300) -> bytes:
    """A "scanned" PDF: each image as one full page, no text layer."""
    buffer = io.BytesIO()
    first, *rest = [image.convert("L") for image in images]
    first.save(buffer, format="PDF", save_all=True, append_images=rest, resolution=float(dpi))
    return buffer.getvalue()
