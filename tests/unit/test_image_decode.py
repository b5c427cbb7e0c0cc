"""Big images are decoded reduced (issue 18, item 3): the reduced paths give the picture the
plain full decode gives, upright, at the size asked; a big image no reduced path can read
is refused clearly. ``REDUCE_ABOVE`` is lowered so small generated images take the paths."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image, ImageDraw

from prefect_docai.engines.page import decode
from prefect_docai.files.errors import DocumentError


def _picture(mode: str = "RGB") -> Image.Image:
    """A page-like picture: dark bars on white, asymmetric so a wrong turn shows."""
    image = Image.new(mode, (1200, 800), "white")
    draw = ImageDraw.Draw(image)
    for row in range(8):
        draw.rectangle((60, 60 + row * 80, 60 + (row + 1) * 120, 90 + row * 80), fill="black")
    return image


def _encoded(image: Image.Image, fmt: str, **options: object) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format=fmt, **options)
    return buffer.getvalue()


def _decoded(data: bytes, scale: float, grayscale: bool = True) -> Image.Image:
    with Image.open(io.BytesIO(data)) as source:
        return decode.decode_page(source, data, 0, scale, grayscale)


def _difference(a: Image.Image, b: Image.Image) -> float:
    assert a.size == b.size
    return float(np.abs(np.asarray(a.convert("L"), float) - np.asarray(b.convert("L"), float)).mean())


@pytest.mark.parametrize(
    ("fmt", "mode"), [("PNG", "RGB"), ("PNG", "L"), ("JPEG", "RGB"), ("TIFF", "RGB"), ("BMP", "RGB")]
)
def test_reduced_decoding_matches_the_full_decode(
    fmt: str, mode: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = _encoded(_picture(mode), fmt)
    plain = _decoded(data, 0.4)
    monkeypatch.setattr(decode, "REDUCE_ABOVE", 100_000)
    reduced = _decoded(data, 0.4)
    assert reduced.size == plain.size == (480, 320) and reduced.mode == "L"
    assert _difference(reduced, plain) < 6.0
    colour = _decoded(data, 0.4, grayscale=False)
    assert colour.mode == "RGB" and colour.size == (480, 320)


def test_a_reduced_jpeg_is_turned_upright_by_its_exif(monkeypatch: pytest.MonkeyPatch) -> None:
    exif = Image.Exif()
    exif[0x0112] = 6  # stored turned: shown rotated 90° clockwise
    data = _encoded(_picture(), "JPEG", exif=exif.tobytes())
    plain = _decoded(data, 0.5)
    monkeypatch.setattr(decode, "REDUCE_ABOVE", 100_000)
    reduced = _decoded(data, 0.5)
    assert reduced.size == plain.size == (400, 600)
    assert _difference(reduced, plain) < 6.0


def test_a_reduced_png_is_never_decoded_by_pillow(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pillow would decode the whole RGB image (even ``getexif()`` does for a PNG)."""
    data = _encoded(_picture(), "PNG")
    monkeypatch.setattr(decode, "REDUCE_ABOVE", 100_000)

    def refuse(self: Image.Image) -> None:
        raise AssertionError("the full image was decoded")

    with Image.open(io.BytesIO(data)) as source:
        monkeypatch.setattr(type(source), "load", refuse)
        image = decode.decode_page(source, data, 0, 0.25, True)
    assert image.size == (300, 200)


def test_a_big_image_without_a_reduced_path_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    data = _encoded(_picture("RGBA"), "PNG")  # transparency: no straight-to-grey decode
    monkeypatch.setattr(decode, "REDUCE_ABOVE", 100_000)
    monkeypatch.setattr(decode, "PLAIN_DECODE_LIMIT", 1_000_000)
    with pytest.raises(DocumentError) as refused:
        _decoded(data, 0.5)
    assert refused.value.code == "image_too_large" and "1200×800" in refused.value.detail
    monkeypatch.setattr(decode, "PLAIN_DECODE_LIMIT", 10_000_000)
    assert _decoded(data, 0.5).size == (600, 400)
