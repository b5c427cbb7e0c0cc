"""A hostile-input corpus the project generates itself (no committed binaries).

Each :class:`Hostile` is one upload an attacker or a careless client might send: bombs
(pages, pixels, XML entities), lies (a header that claims another size or type), broken
files, and file names with path tricks and control characters. ``accepted`` says what a
correct service does with it: ``False`` means refused at upload (a 4xx problem, nothing
charged); ``True`` means accepted as a job that then succeeds or fails clearly (refunded).
Never a 5xx. Used by ``tests/api/test_hostile.py`` and ``benchmarks/reliability.py``.
"""

from __future__ import annotations

import io
import struct
import zlib
from collections.abc import Callable
from dataclasses import dataclass

from tests.api.documents import encrypted_pdf
from tests.api.documents import pdf as text_pdf


@dataclass(frozen=True)
class Hostile:
    name: str
    tool: str
    make: Callable[[], bytes]
    file_name: str = "document.pdf"
    accepted: bool = False
    """True: a valid (if nasty) document the service takes as a job."""


def blank_pdf(pages: int) -> bytes:
    """``pages`` blank A4 pages sharing one content stream: a few hundred KB at most."""
    import pikepdf

    pdf = pikepdf.new()
    pdf.add_blank_page(page_size=(595, 842))
    first = pdf.pages[0]
    for _ in range(pages - 1):
        pdf.pages.append(first)
    buffer = io.BytesIO()
    pdf.save(buffer, compress_streams=True, object_stream_mode=pikepdf.ObjectStreamMode.generate)
    return buffer.getvalue()


def grey_png(width: int, height: int, *, rgb: bool = False) -> bytes:
    """A blank PNG of any size written row by row (never the whole raster in memory);
    ``rgb``: three samples a pixel (colour type 2), as a photo or a colour scan has."""
    samples = 3 if rgb else 1
    row = b"\x00" + b"\xff" * (width * samples)  # filter byte + the row's samples
    compressor = zlib.compressobj(9)
    chunks = [compressor.compress(row) for _ in range(height)]
    data = b"".join(chunks) + compressor.flush()

    def chunk(kind: bytes, body: bytes) -> bytes:
        return (
            struct.pack(">I", len(body))
            + kind
            + body
            + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)
        )

    header = struct.pack(">IIBBBBB", width, height, 8, 2 if rgb else 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", data)
        + chunk(b"IEND", b"")
    )


def lying_png(width: int, height: int) -> bytes:
    """A PNG header that claims ``width`` × ``height`` pixels over a few bytes of data."""
    full = grey_png(1, 1)
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    crc = struct.pack(">I", zlib.crc32(b"IHDR" + ihdr) & 0xFFFFFFFF)
    return full[:16] + ihdr + crc + full[33:]


def big_jpeg(side: int) -> bytes:
    from PIL import Image

    buffer = io.BytesIO()
    Image.new("L", (side, side), 250).save(buffer, format="JPEG", quality=50)
    return buffer.getvalue()


def many_frame_tiff(frames: int) -> bytes:
    from PIL import Image

    images = [Image.new("1", (8, 8), 1) for _ in range(frames)]
    buffer = io.BytesIO()
    images[0].save(buffer, format="TIFF", save_all=True, append_images=images[1:])
    return buffer.getvalue()


def billion_laughs() -> bytes:
    entities = ['<!ENTITY lol "lol">']
    for level in range(1, 10):
        previous = f"&lol{level - 1 if level > 1 else ''};" * 10
        entities.append(f'<!ENTITY lol{level} "{previous}">')
    return (
        '<?xml version="1.0"?>\n<!DOCTYPE lolz [\n'
        + "\n".join(entities)
        + "\n]>\n<Invoice>&lol9;</Invoice>\n"
    ).encode()


def external_entity() -> bytes:
    return (
        b'<?xml version="1.0"?>\n<!DOCTYPE x [<!ENTITY secret SYSTEM "file:///etc/passwd">]>\n'
        b"<Invoice><ID>&secret;</ID></Invoice>\n"
    )


def huge_page_pdf() -> bytes:
    import pikepdf

    pdf = pikepdf.new()
    pdf.add_blank_page(page_size=(14_400, 14_400))  # 200 inches a side
    buffer = io.BytesIO()
    pdf.save(buffer)
    return buffer.getvalue()


def corpus(*, heavy: bool = False) -> list[Hostile]:
    """The corpus; ``heavy`` adds the inputs that take a real engine minutes or gigabytes
    (the benchmark sends them, the tests do not)."""
    page = text_pdf("hostile")
    items = [
        Hostile("empty file", "ToolICR", lambda: b""),
        Hostile("text renamed .pdf", "ToolICR", lambda: b"just some text\n" * 10),
        Hostile("zip archive", "ToolICR", lambda: b"PK\x03\x04" + b"\0" * 100, "a.zip"),
        Hostile("truncated pdf", "ToolICR", lambda: page[: len(page) // 2]),
        Hostile("pdf without pages", "ToolICR", lambda: b"%PDF-1.7\n%%EOF\n"),
        Hostile("encrypted pdf", "ToolICR", encrypted_pdf),
        Hostile("2001-page pdf (over the page cap)", "ToolICR", lambda: blank_pdf(2001)),
        Hostile("pdf page 200 in a side", "ToolICR", huge_page_pdf, accepted=True),
        Hostile("png 15000x15000 (over the pixel cap)", "ToolICR", lambda: grey_png(15000, 15000), "a.png"),
        Hostile("png header claiming 100000x100000", "ToolICR", lambda: lying_png(100_000, 100_000), "a.png"),
        Hostile("tiff with 2100 frames", "ToolICR", lambda: many_frame_tiff(2100), "a.tif"),
        Hostile("xml billion laughs", "ToolInvoice", billion_laughs, "a.xml", accepted=True),
        Hostile("xml external entity", "ToolInvoice", external_entity, "a.xml", accepted=True),
        Hostile("xml to a tool that takes no xml", "ToolICR", external_entity, "a.xml"),
        Hostile("file name ../../etc/passwd", "ToolICR", lambda: page, "../../etc/passwd", True),
        Hostile("file name with CR LF and NUL", "ToolICR", lambda: page, "a\r\nX-Forged: 1\x00.pdf", True),
        Hostile("file name with RTL override", "ToolICR", lambda: page, "invoice\u202efdp.exe", True),
        Hostile("file name of 5000 characters", "ToolICR", lambda: page, "n" * 5000 + ".pdf"),
    ]
    if heavy:
        items += [
            Hostile("1999 blank pages (466 KB class)", "ToolICR", lambda: blank_pdf(1999), accepted=True),
            Hostile("png 14000x14000 (under the pixel cap)", "ToolICR", lambda: grey_png(14000, 14000), "a.png", True),
            Hostile("jpeg 14000x14000", "ToolICR", lambda: big_jpeg(14000), "a.jpg", True),
        ]
    return items
