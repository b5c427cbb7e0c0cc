"""Renderers every engine can offer as files: searchable PDF and plain text.

``searchable_pdf`` keeps the original page content (a PDF page is copied losslessly, an
image is embedded as is where possible) and adds an invisible text layer for OCR pages,
placed word by word like Tesseract's own PDF renderer: the glyphless font from tessdata
(``pdf.ttf``, every code point is one blank glyph), UTF-16 codes as CIDs with an identity
ToUnicode map, so any script round-trips, and horizontal scaling so each word covers its box.
Pages that already have a usable text layer are left untouched.
"""

from __future__ import annotations

import io
import tempfile
import zlib
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

from prefect_docai.engines.page.document import Document, Page
from prefect_docai.engines.page.languages import tessdata_dir
from prefect_docai.engines.page.model import Line, Word

_TEXT_FONT = "/DocAIGlyphLess"

_TO_UNICODE = b"""/CIDInit /ProcSet findresource begin
12 dict begin
begincmap
/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def
/CMapName /Adobe-Identity-UCS def
/CMapType 2 def
1 begincodespacerange
<0000> <FFFF>
endcodespacerange
1 beginbfrange
<0000> <FFFF> <0000>
endbfrange
endcmap
CMapName currentdict /CMap defineresource pop
end
end
"""


def kept_words(words: Sequence[Word], threshold: float | None) -> list[Word]:
    """Words at or above ``threshold`` (all words when it is ``None``)."""
    if threshold is None or threshold <= 0:
        return list(words)
    return [word for word in words if word.confidence >= threshold]


def kept_lines(page: Page, threshold: float | None) -> list[Line | None]:
    """The page's lines with low-confidence words removed (``None`` where nothing is left)."""
    result: list[Line | None] = []
    for line in page.lines:
        words = tuple(kept_words(line.words, threshold))
        if not words:
            result.append(None)
            continue
        if len(words) == len(line.words):
            result.append(line)
            continue
        result.append(
            Line(
                text=" ".join(word.text for word in words),
                bbox=(
                    min(w.bbox[0] for w in words),
                    min(w.bbox[1] for w in words),
                    max(w.bbox[2] for w in words),
                    max(w.bbox[3] for w in words),
                ),
                confidence=sum(w.confidence for w in words) / len(words),
                words=words,
                block=line.block,
            )
        )
    return result


def page_text(page: Page, threshold: float | None = None) -> str:
    """A page's reading-order text without words under ``threshold``: rows joined by
    newlines, separate segments of one row by a tab (as :attr:`Page.text`)."""
    lines = kept_lines(page, threshold)
    rows = []
    for row in page.row_indexes:
        parts = [line.text for index in row if (line := lines[index]) is not None]
        if parts:
            rows.append("\t".join(parts))
    return "\n".join(rows)


def plain_text(document: Document, threshold: float | None = None) -> str:
    """The TXT output: every page's text, pages separated by form feeds."""
    document.prefetch()
    return "\f".join(page_text(page, threshold) for page in document.pages)


# --- searchable PDF -----------------------------------------------------------------------


@cache
def _glyphless_font_program() -> bytes | None:
    path = Path(tessdata_dir()) / "pdf.ttf"
    return path.read_bytes() if path.is_file() else None


def _font(pdf: Any) -> Any:
    """The Type0 glyphless font (an indirect object of ``pdf``)."""
    import pikepdf

    program = _glyphless_font_program()
    descriptor = pikepdf.Dictionary(
        Type=pikepdf.Name.FontDescriptor,
        FontName=pikepdf.Name.GlyphLessFont,
        Flags=5,
        FontBBox=[0, 0, 500, 1000],
        ItalicAngle=0,
        Ascent=1000,
        Descent=-1,
        CapHeight=1000,
        StemV=80,
    )
    if program is not None:
        descriptor.FontFile2 = pdf.make_stream(program)
    # Every CID (a UTF-16 code unit) shows glyph 1, the font's only (blank) glyph.
    cid_to_gid = pdf.make_stream(zlib.compress(b"\x00\x01" * 65536), Filter=pikepdf.Name.FlateDecode)
    descendant = pikepdf.Dictionary(
        Type=pikepdf.Name.Font,
        Subtype=pikepdf.Name.CIDFontType2,
        BaseFont=pikepdf.Name.GlyphLessFont,
        CIDSystemInfo=pikepdf.Dictionary(
            Registry=pikepdf.String("Adobe"), Ordering=pikepdf.String("Identity"), Supplement=0
        ),
        FontDescriptor=pdf.make_indirect(descriptor),
        CIDToGIDMap=cid_to_gid,
        DW=500,
    )
    font = pikepdf.Dictionary(
        Type=pikepdf.Name.Font,
        Subtype=pikepdf.Name.Type0,
        BaseFont=pikepdf.Name.GlyphLessFont,
        Encoding=pikepdf.Name("/Identity-H"),
        DescendantFonts=[pdf.make_indirect(descendant)],
        ToUnicode=pdf.make_stream(_TO_UNICODE),
    )
    return pdf.make_indirect(font)


def _from_upright(x: float, y: float, rotation: int) -> tuple[float, float]:
    """Upright page fractions → unrotated page fractions (u right, v down)."""
    if rotation == 90:
        return y, 1 - x
    if rotation == 180:
        return 1 - x, 1 - y
    if rotation == 270:
        return 1 - y, x
    return x, y


_DIRECTION = {0: (1, 0, 0, 1), 90: (0, 1, -1, 0), 180: (-1, 0, 0, -1), 270: (0, -1, 1, 0)}
"""Text matrix a b c d that makes text upright on a page shown turned by the rotation."""


def _hex(text: str) -> str:
    return text.encode("utf-16-be").hex().upper()


def _text_layer(
    lines: Sequence[Line | None],
    crop: tuple[float, float, float, float],
    rotation: int,
    upright_size: tuple[float, float],
) -> bytes:
    """Content-stream operators drawing ``lines`` invisibly (render mode 3)."""
    left, bottom, right, top = crop
    width, height = right - left, top - bottom
    page_w, page_h = upright_size
    a, b, c, d = _DIRECTION[rotation]
    out = ["BT", "3 Tr"]
    for line in lines:
        if line is None:
            continue
        words = line.words
        line_height = max((w.bbox[3] - w.bbox[1]) * page_h for w in words)
        size = max(1.0, line_height)
        baseline = line.bbox[3] - 0.2 * (line.bbox[3] - line.bbox[1])
        for i, word in enumerate(words):
            last = i == len(words) - 1
            text = word.text if last else word.text + " "
            # Non-final words stretch to the next word, so the space lands in the gap.
            x_end = word.bbox[2] if last else max(words[i + 1].bbox[0], word.bbox[2])
            span = max((x_end - word.bbox[0]) * page_w, 0.1)
            natural = len(text.encode("utf-16-be")) / 2 * size * 0.5
            scale = 100.0 * span / natural
            u, v = _from_upright(word.bbox[0], baseline, rotation)
            x = left + u * width
            y = top - v * height
            out.append(
                f"{_TEXT_FONT} {size:.2f} Tf {scale:.2f} Tz "
                f"{a} {b} {c} {d} {x:.2f} {y:.2f} Tm <{_hex(text)}> Tj"
            )
    out.append("ET")
    return ("\n".join(out) + "\n").encode("ascii")


def _add_text(pdf: Any, pdf_page: Any, page: Page, threshold: float | None, font: Any) -> None:
    """Overlay ``page``'s OCR words on ``pdf_page`` and turn it upright."""
    import pikepdf

    crop = [float(v) for v in pdf_page.cropbox]  # inherited or defaulted like pdfium does
    rotation = page.rotation
    lines = kept_lines(page, threshold)
    stream = _text_layer(lines, (crop[0], crop[1], crop[2], crop[3]), rotation,
                         (page.width, page.height))
    resources = pdf_page.obj.get("/Resources")
    if resources is None:
        resources = pikepdf.Dictionary()
        pdf_page.obj.Resources = resources
    fonts = resources.get("/Font")
    if fonts is None:
        fonts = pikepdf.Dictionary()
        resources.Font = fonts
    fonts[_TEXT_FONT] = font
    # Isolate the original content's graphics state so the text layer starts clean.
    pdf_page.contents_add(pdf.make_stream(b"q\n"), prepend=True)
    pdf_page.contents_add(pdf.make_stream(b"\nQ\n" + stream))
    pdf_page.obj.Rotate = rotation


def _image_page(pdf: Any, page: Page, document: Document) -> Any:
    """A new PDF page showing the page image as uploaded (JPEG kept byte for byte)."""
    import pikepdf
    from PIL import Image

    width_pt, height_pt = page.width, page.height
    rotation = page.rotation
    if rotation in (90, 270):
        width_pt, height_pt = height_pt, width_pt
    image_stream = None
    if document.media_type == "image/jpeg" and document.page_count == 1:
        with Image.open(io.BytesIO(document.data)) as image:
            exif_turn = image.getexif().get(0x0112, 1)
            mode, size = image.mode, image.size
        if exif_turn in (1, None) and mode in ("L", "RGB", "CMYK"):
            space = {"L": pikepdf.Name.DeviceGray, "RGB": pikepdf.Name.DeviceRGB,
                     "CMYK": pikepdf.Name.DeviceCMYK}[mode]
            image_stream = pdf.make_stream(
                document.data, Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Image,
                Width=size[0], Height=size[1], ColorSpace=space, BitsPerComponent=8,
                Filter=pikepdf.Name.DCTDecode,
            )
            if mode == "CMYK":
                image_stream.Decode = [1, 0, 1, 0, 1, 0, 1, 0]
    if image_stream is None:
        # The loader's unrotated raster at the image's own resolution (at most
        # MAX_RENDER_PIXELS: a bigger image is embedded reduced), losslessly compressed.
        raster_image = page.render(dpi=round(page.embed_dpi or document.dpi),
                                   grayscale=False)
        if rotation:
            raster_image = raster_image.rotate(rotation, expand=True)
        if _is_gray(raster_image):
            raster_image = raster_image.convert("L")
        mode = raster_image.mode
        image_stream = pdf.make_stream(
            zlib.compress(raster_image.tobytes(), 6), Type=pikepdf.Name.XObject,
            Subtype=pikepdf.Name.Image, Width=raster_image.width, Height=raster_image.height,
            ColorSpace=pikepdf.Name.DeviceGray if mode == "L" else pikepdf.Name.DeviceRGB,
            BitsPerComponent=8, Filter=pikepdf.Name.FlateDecode,
        )
    content = f"q {width_pt:.3f} 0 0 {height_pt:.3f} 0 0 cm /Im0 Do Q\n".encode("ascii")
    page_dict = pikepdf.Dictionary(
        Type=pikepdf.Name.Page,
        MediaBox=[0, 0, round(width_pt, 3), round(height_pt, 3)],
        Resources=pikepdf.Dictionary(XObject=pikepdf.Dictionary(Im0=image_stream)),
        Contents=pdf.make_stream(content),
    )
    return pikepdf.Page(page_dict)


def _is_gray(image: Any) -> bool:
    if image.mode in ("L", "1"):
        return True
    if image.mode != "RGB":
        return False
    small = image.resize((64, 64))
    r, g, b = small.split()
    from PIL import ImageChops

    return bool(ImageChops.difference(r, g).getbbox() is None
                and ImageChops.difference(g, b).getbbox() is None)


def searchable_pdf(
    document: Document, threshold: float | None = None, numbers: Sequence[int] | None = None
) -> bytes:
    """The document as a PDF whose OCR pages carry an invisible, correctly placed text layer.

    A PDF whose pages all have a usable text layer comes back byte for byte. OCR pages of
    a PDF keep their original content (no re-rendering); images become one page each.
    ``numbers`` (1-based): only these pages, in this order (one batch of a long job).
    """
    import pikepdf

    chosen = [document.page(n) for n in numbers] if numbers is not None else list(document.pages)
    document.prefetch([page.number for page in chosen])
    pdf_bytes = document.pdf_bytes
    if (numbers is None and pdf_bytes is not None
            and all(page.source == "text-layer" for page in chosen)):
        return pdf_bytes
    if pdf_bytes is not None:
        pdf = pikepdf.open(io.BytesIO(pdf_bytes))
        font = _font(pdf)
        for page in chosen:
            if page.source == "ocr":
                _add_text(pdf, pdf.pages[page.number - 1], page, threshold, font)
        if numbers is not None:
            whole, pdf = pdf, pikepdf.new()
            with whole:
                for page in chosen:
                    pdf.pages.append(whole.pages[page.number - 1])
                # Copied pages refer to ``whole`` until saved.
                return _pdf_bytes(pdf)
    else:
        pdf = pikepdf.new()
        font = _font(pdf)
        for page in chosen:
            pdf.pages.append(_image_page(pdf, page, document))
            _add_text(pdf, pdf.pages[-1], page, threshold, font)
    return _pdf_bytes(pdf)


def concatenate_pdfs(parts: Sequence[bytes]) -> bytes:
    """The pages of ``parts``, in order, as one PDF (a long job's batches joined)."""
    import pikepdf

    if len(parts) == 1:
        return parts[0]
    sources = [pikepdf.open(io.BytesIO(part)) for part in parts]
    try:
        out = pikepdf.new()
        for source in sources:
            out.pages.extend(source.pages)
        return _pdf_bytes(out)
    finally:
        for source in sources:
            source.close()


def _pdf_bytes(pdf: Any) -> bytes:
    import pikepdf

    # Saved through a temporary file, not a BytesIO: qpdf's copy of the input is freed
    # before the result is read back, so a long scan is not held three times at once.
    with tempfile.TemporaryFile() as spool:
        with pdf:
            pdf.save(spool, compress_streams=True,
                     object_stream_mode=pikepdf.ObjectStreamMode.generate)
        spool.seek(0)
        return spool.read()
