"""Make born-digital pages look scanned or photographed.

``degrade`` rasterizes each page (pypdfium2), tilts it a little, blurs, adds sensor noise and
paper tint, and re-encodes as JPEG inside an image-only PDF (Pillow), so the text layer is
gone and a reader must OCR. The defaults stay readable by Tesseract. ``photograph`` makes a
JPEG of the first page lying on a desk: perspective, uneven light, background.
"""

from __future__ import annotations

import io
import random

import numpy as np
import pypdfium2 as pdfium
from PIL import Image, ImageFilter


def _render(pdf: bytes, dpi: int, *, grey: bool) -> list[Image.Image]:
    doc = pdfium.PdfDocument(pdf)
    try:
        pages = []
        for page in doc:
            bitmap = page.render(scale=dpi / 72, grayscale=grey)
            pages.append(bitmap.to_pil().convert("L" if grey else "RGB"))
            page.close()
        return pages
    finally:
        doc.close()


def _scan_page(
    img: Image.Image, rng: random.Random, *, rotate: float, blur: float, noise: float, quality: int
) -> Image.Image:
    angle = rng.uniform(-rotate, rotate)
    fill = 255 if img.mode == "L" else (255, 255, 255)
    img = img.rotate(angle, resample=Image.Resampling.BILINEAR, expand=False, fillcolor=fill)
    if blur > 0:
        img = img.filter(ImageFilter.GaussianBlur(rng.uniform(blur * 0.5, blur)))
    arr = np.asarray(img, dtype=np.float32)
    gen = np.random.default_rng(rng.randrange(2**32))
    # paper is never pure white and toner never pure black on a scan
    low, high = rng.uniform(10, 35), rng.uniform(225, 248)
    arr = low + arr * (high - low) / 255.0
    if noise > 0:
        arr += gen.normal(0.0, noise, size=arr.shape).astype(np.float32)
    # a few specks of dust
    h, w = arr.shape[:2]
    for _ in range(rng.randint(0, 40)):
        y, x = gen.integers(0, h - 3), gen.integers(0, w - 3)
        arr[y : y + rng.randint(1, 3), x : x + rng.randint(1, 3)] = rng.uniform(20, 90)
    out = Image.fromarray(np.clip(arr, 0, 255).astype(np.uint8))
    buf = io.BytesIO()
    out.save(buf, "JPEG", quality=quality)
    return Image.open(io.BytesIO(buf.getvalue()))


def degrade(
    pdf: bytes,
    *,
    seed: int,
    dpi: int = 200,
    rotate: float = 1.2,
    blur: float = 0.8,
    noise: float = 8.0,
    quality: int = 60,
    grey: bool = True,
) -> bytes:
    """A scan-like, image-only PDF of ``pdf`` (same page count), deterministic per seed."""
    rng = random.Random(seed)
    pages = [
        _scan_page(
            p,
            rng,
            rotate=rotate,
            blur=blur,
            noise=noise,
            quality=rng.randint(max(20, quality - 10), min(95, quality + 10)),
        )
        for p in _render(pdf, dpi, grey=grey)
    ]
    buf = io.BytesIO()
    # JPEG frames go into the PDF as DCT streams without recompression; no dates, so the
    # bytes are reproducible
    pages[0].save(
        buf,
        "PDF",
        resolution=float(dpi),
        save_all=True,
        append_images=pages[1:],
        creationDate=None,
        modDate=None,
        title=None,
        producer=None,
    )
    return buf.getvalue()


def photograph(pdf: bytes, *, seed: int, dpi: int = 200, quality: int = 80) -> bytes:
    """A JPEG of the first page as if photographed with a phone on a desk."""
    rng = random.Random(seed)
    page = _render(pdf, dpi, grey=False)[0]
    w, h = page.size
    margin = int(max(w, h) * 0.12)
    bw, bh = w + 2 * margin, h + 2 * margin
    gen = np.random.default_rng(rng.randrange(2**32))
    base = np.array(
        [rng.uniform(90, 170), rng.uniform(70, 140), rng.uniform(40, 110)], dtype=np.float32
    )
    bg = base + gen.normal(0, 9, size=(bh, bw, 3)).astype(np.float32)
    canvas = Image.fromarray(np.clip(bg, 0, 255).astype(np.uint8))
    # slightly warm paper
    paper = np.asarray(page, dtype=np.float32) * np.array([0.98, 0.96, 0.9], dtype=np.float32)
    canvas.paste(Image.fromarray(paper.astype(np.uint8)), (margin, margin))

    # perspective: move the corners inwards by a few percent
    def jit(scale: float) -> float:
        return rng.uniform(0, scale)

    d = 0.05
    src_quad = (
        margin * 0.4 + bw * jit(d),
        margin * 0.4 + bh * jit(d),
        margin * 0.4 + bw * jit(d),
        bh - margin * 0.4 - bh * jit(d),
        bw - margin * 0.4 - bw * jit(d),
        bh - margin * 0.4 - bh * jit(d),
        bw - margin * 0.4 - bw * jit(d),
        margin * 0.4 + bh * jit(d),
    )
    out = canvas.transform(
        (bw, bh), Image.Transform.QUAD, src_quad, resample=Image.Resampling.BILINEAR
    )
    out = out.rotate(
        rng.uniform(-4, 4),
        resample=Image.Resampling.BILINEAR,
        expand=False,
        fillcolor=tuple(int(v) for v in base),
    )
    # uneven light: a soft gradient from one corner and a faint vignette
    yy, xx = np.mgrid[0:bh, 0:bw].astype(np.float32)
    cx, cy = rng.uniform(0, bw), rng.uniform(0, bh)
    dist = np.sqrt((xx - cx) ** 2 + (yy - cy) ** 2) / np.hypot(bw, bh)
    light = (1.08 - rng.uniform(0.25, 0.45) * dist)[..., None]
    arr = np.asarray(out, dtype=np.float32) * light
    arr += gen.normal(0, 4, size=arr.shape).astype(np.float32)
    img = Image.fromarray(np.clip(arr, 0, 255).astype(np.uint8))
    img = img.filter(ImageFilter.GaussianBlur(rng.uniform(0.4, 0.9)))
    buf = io.BytesIO()
    img.save(buf, "JPEG", quality=quality)
    return buf.getvalue()
