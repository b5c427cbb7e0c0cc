"""Make born-digital pages look scanned or photographed.

``degrade`` rasterizes each page (PDFium, through ``files.pdfium``), tilts it a little, blurs, adds sensor noise and
paper tint, and re-encodes as JPEG inside an image-only PDF (Pillow), so the text layer is
gone and a reader must OCR. The defaults stay readable by Tesseract. ``photograph`` makes a
JPEG of the first page lying on a desk: perspective, uneven light, background.
"""

from __future__ import annotations

import io
import random

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

from prefect_docai.files import pdfium


def _render(pdf: bytes, dpi: int, *, grey: bool) -> list[Image.Image]:
    return pdfium.render_pages(pdf, dpi, grayscale=grey)


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


def _fax_page(
    img: Image.Image, rng: random.Random, *, rotate: float, page: int, total: int, sender: str
) -> Image.Image:
    """Fax look: tilted, half vertical resolution, hard black/white, a transmission header."""
    img = img.convert("L").rotate(
        rng.uniform(-rotate, rotate),
        resample=Image.Resampling.BILINEAR,
        expand=False,
        fillcolor=255,
    )
    w, h = img.size
    # standard-resolution fax: 200 x 100 dpi, so rows are doubled on the way back
    img = img.resize((w, h // 2), Image.Resampling.BILINEAR).resize(
        (w, h), Image.Resampling.NEAREST
    )
    arr = np.asarray(img, dtype=np.float32)
    gen = np.random.default_rng(rng.randrange(2**32))
    arr += gen.normal(0.0, 18.0, size=arr.shape).astype(np.float32)
    threshold = rng.uniform(140, 180)
    bw = np.where(arr < threshold, 0, 255).astype(np.uint8)
    # dropouts and a streak or two from the scanner bar
    for _ in range(rng.randint(0, 3)):
        row = int(gen.integers(0, h - 2))
        bw[row : row + rng.randint(1, 2), :] = 0 if rng.random() < 0.3 else 255
    out = Image.fromarray(bw)
    draw = ImageDraw.Draw(out)
    size = max(12, h // 110)
    font: ImageFont.FreeTypeFont | ImageFont.ImageFont
    try:
        font = ImageFont.truetype("DejaVuSansMono.ttf", size)
    except OSError:
        font = ImageFont.load_default()
    stamp = f"{sender}    {rng.randint(1, 28):02d}.{rng.randint(1, 12):02d}. {rng.randint(7, 19):02d}:{rng.randint(0, 59):02d}"
    draw.text((int(w * 0.05), int(h * 0.006)), stamp, fill=0, font=font)
    draw.text((int(w * 0.8), int(h * 0.006)), f"S./P. {page:02d}/{total:02d}", fill=0, font=font)
    return out


def _copy_page(img: Image.Image, rng: random.Random, *, rotate: float, quality: int) -> Image.Image:
    """Photocopy look: high contrast, grey toner streaks, dark shadow along the edges."""
    img = img.convert("L").rotate(
        rng.uniform(-rotate, rotate),
        resample=Image.Resampling.BILINEAR,
        expand=False,
        fillcolor=255,
    )
    arr = np.asarray(img, dtype=np.float32) / 255.0
    arr = np.power(arr, rng.uniform(1.6, 2.4)) * 255.0  # toner darkens mid-tones
    gen = np.random.default_rng(rng.randrange(2**32))
    w = arr.shape[1]
    for _ in range(rng.randint(1, 4)):
        col = int(gen.integers(0, w - 4))
        arr[:, col : col + rng.randint(1, 4)] *= rng.uniform(0.6, 0.85)
    edge = int(w * rng.uniform(0.01, 0.03))
    side = rng.choice(["left", "right", "top"])
    if side == "left":
        arr[:, :edge] *= np.linspace(0.15, 1.0, edge, dtype=np.float32)[None, :]
    elif side == "right":
        arr[:, w - edge :] *= np.linspace(1.0, 0.15, edge, dtype=np.float32)[None, :]
    else:
        arr[:edge, :] *= np.linspace(0.15, 1.0, edge, dtype=np.float32)[:, None]
    arr += gen.normal(0.0, 6.0, size=arr.shape).astype(np.float32)
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
    mode: str = "scan",
) -> bytes:
    """A scan-like, image-only PDF of ``pdf`` (same page count), deterministic per seed.

    ``mode``: ``scan`` (greyscale office scan), ``fax`` (black and white, half vertical
    resolution, transmission header with page numbers) or ``copy`` (photocopy: high
    contrast, toner streaks, dark edge).
    """
    rng = random.Random(seed)
    if mode in ("fax", "copy"):
        rendered = _render(pdf, dpi, grey=True)
        if mode == "fax":
            sender = f"+49 {rng.randint(30, 999)} {rng.randint(100000, 9999999)}"
            pages = [
                _fax_page(p, rng, rotate=rotate, page=i, total=len(rendered), sender=sender)
                for i, p in enumerate(rendered, start=1)
            ]
        else:
            pages = [_copy_page(p, rng, rotate=rotate, quality=quality) for p in rendered]
        return _to_pdf(pages, dpi)
    if mode != "scan":
        raise ValueError(f"unknown degrade mode {mode!r}")
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
    return _to_pdf(pages, dpi)


def _to_pdf(pages: list[Image.Image], dpi: int) -> bytes:
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
    # the DPI tag lets OCR size glyphs right (Tesseract guesses badly without it)
    img.save(buf, "JPEG", quality=quality, dpi=(dpi, dpi))
    return buf.getvalue()
