"""Decoding an image page at the size it is read at, before (not after) a full decode.

A 24 KB PNG can hold 14000 × 14000 pixels: decoded to RGB that is 588 MB, and the plain
path (decode, turn upright, convert, resize) held two or three such copies at once. Big
images (over :data:`REDUCE_ABOVE` pixels, read at a lower resolution than their own) are
therefore decoded reduced:

* JPEG: Pillow's ``draft`` makes libjpeg decode at 1/2, 1/4 or 1/8 of the size (DCT
  scaling), straight to grey when grey is asked for: the full raster never exists;
* PNG, TIFF, BMP, WebP (first page, no alpha): OpenCV decodes straight to one 8-bit grey
  channel (libpng's own RGB-to-grey while reading rows), then reduces it: one byte per pixel
  at most, never the three of RGB. Colour asked for gets the reduced grey as RGB;
* anything else that big (later TIFF pages, transparency) is decoded as usual if its
  native raster fits :data:`PLAIN_DECODE_LIMIT`, else refused with ``image_too_large``.
"""

from __future__ import annotations

from PIL import Image, ImageOps

from prefect_docai.engines.page import raster
from prefect_docai.files.errors import DocumentError

REDUCE_ABOVE = 50_000_000
"""Pixels above which an image read smaller than it is gets decoded reduced (an A4 scan
at 600 dpi, 35 MP, still takes the plain path, exactly as before)."""
PLAIN_DECODE_LIMIT = 400_000_000
"""Bytes a plain decode of a big image may take (its native raster) when no reduced path
exists for its format."""

_ORIENTATION_TURNS: dict[int, Image.Transpose] = {
    2: Image.Transpose.FLIP_LEFT_RIGHT,
    3: Image.Transpose.ROTATE_180,
    4: Image.Transpose.FLIP_TOP_BOTTOM,
    5: Image.Transpose.TRANSPOSE,
    6: Image.Transpose.ROTATE_270,
    7: Image.Transpose.TRANSVERSE,
    8: Image.Transpose.ROTATE_90,
}
_REDUCED_BY_OPENCV = frozenset({"PNG", "TIFF", "BMP", "WEBP"})


def decode_page(
    source: Image.Image, data: bytes, index: int, scale: float, grayscale: bool
) -> Image.Image:
    """Page ``index`` of ``source`` (opened and on that frame, not loaded) at ``scale``
    times its pixels, upright by its EXIF orientation (first page), as L or RGB."""
    width, height = source.size
    if scale >= 1.0 or width * height <= REDUCE_ABOVE:
        return _plain(source, index, scale, grayscale)
    if source.format == "JPEG":
        return _jpeg(source, scale, grayscale)
    if source.format in _REDUCED_BY_OPENCV and index == 0 and not _has_alpha(source):
        return _opencv_grey(source, data, scale, grayscale)
    if width * height * len(source.getbands()) <= PLAIN_DECODE_LIMIT:
        return _plain(source, index, scale, grayscale)
    raise DocumentError(
        "image_too_large",
        f"Page {index + 1} has {width}×{height} pixels in a form that cannot be read at a "
        "reduced size; send it as JPEG or PNG without transparency, or smaller.",
    )


def _plain(source: Image.Image, index: int, scale: float, grayscale: bool) -> Image.Image:
    """The whole image decoded, then converted and resized (small images: exact as ever)."""
    source.load()
    image = ImageOps.exif_transpose(source) if index == 0 else source.copy()
    image = Image.fromarray(raster.to_gray(image)) if grayscale else image.convert("RGB")
    return _resized(image, scale, image.size)


def _jpeg(source: Image.Image, scale: float, grayscale: bool) -> Image.Image:
    width, height = source.size
    wanted = (max(1, round(width * scale)), max(1, round(height * scale)))
    # draft picks the largest DCT scale whose result is still at least ``wanted``.
    source.draft("L" if grayscale else "RGB", wanted)
    source.load()
    image = _upright(source.copy(), source)
    image = image.convert("L" if grayscale else "RGB")
    return _resized(image, scale, _upright_size(source, width, height))


def _opencv_grey(source: Image.Image, data: bytes, scale: float, grayscale: bool) -> Image.Image:
    import cv2
    import numpy as np

    width, height = source.size
    flags = cv2.IMREAD_GRAYSCALE | cv2.IMREAD_IGNORE_ORIENTATION
    grey = cv2.imdecode(np.frombuffer(data, dtype=np.uint8), flags)
    if grey is None:
        raise DocumentError("corrupt_image", "The image cannot be read.")
    size = (max(1, round(width * scale)), max(1, round(height * scale)))
    small = cv2.resize(grey, size, interpolation=cv2.INTER_AREA)
    del grey
    image = _upright(Image.fromarray(np.ascontiguousarray(small)), source)
    return image if grayscale else image.convert("RGB")


def _resized(image: Image.Image, scale: float, full: tuple[int, int]) -> Image.Image:
    """``image`` (maybe already reduced) at ``scale`` × ``full``, the upright full size."""
    if abs(scale - 1.0) <= 0.01 and image.size == full:
        return image
    size = (max(1, round(full[0] * scale)), max(1, round(full[1] * scale)))
    if image.size == size:
        return image
    return image.resize(size, Image.Resampling.LANCZOS)


def _orientation(source: Image.Image) -> int:
    """The EXIF orientation, from the header only: a PNG's ``getexif()`` decodes the whole
    image to look for an eXIf chunk after the pixels."""
    try:
        if source.format == "JPEG":
            return int(source.getexif().get(0x0112, 1))
        raw = source.info.get("exif")
        if not raw:
            return 1
        exif = Image.Exif()
        exif.load(raw)
        return int(exif.get(0x0112, 1))
    except (TypeError, ValueError, SyntaxError):
        return 1


def _upright(image: Image.Image, source: Image.Image) -> Image.Image:
    turn = _ORIENTATION_TURNS.get(_orientation(source))
    return image.transpose(turn) if turn is not None else image


def _upright_size(source: Image.Image, width: int, height: int) -> tuple[int, int]:
    return (height, width) if _orientation(source) in (5, 6, 7, 8) else (width, height)


def _has_alpha(source: Image.Image) -> bool:
    return source.mode in ("RGBA", "LA", "PA", "RGBa", "La") or "transparency" in source.info
