"""Small documents the tests make themselves."""

from __future__ import annotations

import io


def pdf(*pages: str) -> bytes:
    """A born-digital PDF with one line of text per page."""
    from reportlab.pdfgen import canvas

    buffer = io.BytesIO()
    c = canvas.Canvas(buffer)
    for text in pages or ("page",):
        c.drawString(72, 720, text)
        c.showPage()
    c.save()
    return buffer.getvalue()


def encrypted_pdf() -> bytes:
    import pikepdf

    source = pikepdf.open(io.BytesIO(pdf("secret")))
    buffer = io.BytesIO()
    source.save(buffer, encryption=pikepdf.Encryption(user="user", owner="owner"))
    return buffer.getvalue()


def corrupt_pdf() -> bytes:
    return b"%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer garbage\n%%EOF\n"


def png(width: int = 40, height: int = 30) -> bytes:
    from PIL import Image

    buffer = io.BytesIO()
    Image.new("L", (width, height), 255).save(buffer, format="PNG")
    return buffer.getvalue()


def tiff(frames: int) -> bytes:
    from PIL import Image

    images = [Image.new("L", (40, 30), 255 - i) for i in range(frames)]
    buffer = io.BytesIO()
    images[0].save(buffer, format="TIFF", save_all=True, append_images=images[1:])
    return buffer.getvalue()
