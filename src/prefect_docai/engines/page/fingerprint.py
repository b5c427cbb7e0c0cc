"""Where a page came from: a per-page fingerprint of how its file was made.

Pages of one source file share how they were produced: a PDF's pages draw on the same font
objects (same names, subset tags and embedded font programs) and the same logo; the pages
of one scan batch share colour mode, compression and resolution (not pixel size: scanning
apps crop every page to its own edges). A stream joined from several files (mail
attachments merged into one PDF, qpdf, a printer's multi-file job) keeps those objects per
page, so pages from different sources usually share nothing. The tokens are content-based
(names, digests, encodings), not object numbers, so they are the same whether a page is
read from its own file or from a merged one.

This is evidence, never proof: one producer's documents share standard font names, and a
scanner's single-source stream carries one fingerprint on every page. An unreadable file
gives empty fingerprints (no evidence either way).
"""

from __future__ import annotations

import hashlib
import io
from typing import Any

from PIL import Image

Fingerprint = frozenset[str]

_MAX_DEPTH = 4
"""Form XObjects nest; real files rarely go deeper than two levels."""


def fingerprints(data: bytes) -> list[Fingerprint]:
    """One fingerprint per page of a PDF or per frame of an image file."""
    if b"%PDF-" in data[:1024]:
        return pdf_fingerprints(data)
    return image_fingerprints(data)


def pdf_fingerprints(data: bytes) -> list[Fingerprint]:
    import pikepdf

    try:
        with pikepdf.open(io.BytesIO(data)) as pdf:
            digests: dict[tuple[int, int], str] = {}
            return [_page_tokens(page.obj, digests) for page in pdf.pages]
    except Exception:
        return []


def image_fingerprints(data: bytes) -> list[Fingerprint]:
    try:
        with Image.open(io.BytesIO(data)) as image:
            out = []
            for frame in range(getattr(image, "n_frames", 1)):
                if frame:
                    image.seek(frame)
                out.append(frozenset({_image_token(image)}))
            return out
    except Exception:
        return []


def _image_token(image: Image.Image) -> str:
    """Encoding and resolution, not pixel size: scanning apps crop every page of one
    document to its own edges."""
    dpi = image.info.get("dpi")
    dpi_text = f"{round(float(dpi[0]))}" if dpi else "-"
    compression = image.info.get("compression", "")
    return f"i:{image.format}:{image.mode}:{compression}:{dpi_text}"


def _name(value: Any) -> str:
    return str(value) if value is not None else "-"


def _page_tokens(page: Any, digests: dict[tuple[int, int], str]) -> Fingerprint:
    tokens: set[str] = set()
    seen: set[tuple[int, int]] = set()
    _resource_tokens(page.get("/Resources"), tokens, digests, seen, 0)
    if not any(t.startswith(("f:", "p:")) for t in tokens):
        # a scanned page: its pixel size is no mark of its file (scanning apps crop every
        # page to its own edges); a logo's is, since every page draws the same one
        tokens = {_without_size(t) for t in tokens}
    return frozenset(tokens)


def _without_size(token: str) -> str:
    kind, _size, rest = token.split(":", 2)
    return f"{kind}:{rest}"


def _resource_tokens(resources: Any, tokens: set[str], digests: dict[tuple[int, int], str],
                     seen: set[tuple[int, int]], depth: int) -> None:
    import pikepdf

    if not isinstance(resources, pikepdf.Dictionary) or depth > _MAX_DEPTH:
        return
    fonts = resources.get("/Font")
    if isinstance(fonts, pikepdf.Dictionary):
        for _, font in fonts.items():
            if not isinstance(font, pikepdf.Dictionary):
                continue
            tokens.add(f"f:{_name(font.get('/BaseFont'))}:{_name(font.get('/Subtype'))}")
            program = _font_program(font)
            if program is not None:
                tokens.add(f"p:{_digest(program, digests)}")
    xobjects = resources.get("/XObject")
    if isinstance(xobjects, pikepdf.Dictionary):
        for _, xobject in xobjects.items():
            if not isinstance(xobject, pikepdf.Stream):
                continue
            subtype = xobject.get("/Subtype")
            if subtype == "/Image":
                tokens.add(_pdf_image_token(xobject))
            elif subtype == "/Form":
                key = xobject.objgen
                if key != (0, 0) and key in seen:
                    continue
                seen.add(key)
                _resource_tokens(xobject.get("/Resources"), tokens, digests, seen, depth + 1)


def _font_program(font: Any) -> Any:
    """The embedded font file stream, if any (Type0 fonts keep it on the descendant)."""
    import pikepdf

    descendants = font.get("/DescendantFonts")
    if isinstance(descendants, pikepdf.Array) and len(descendants):
        font = descendants[0]
    descriptor = font.get("/FontDescriptor") if isinstance(font, pikepdf.Dictionary) else None
    if not isinstance(descriptor, pikepdf.Dictionary):
        return None
    for key in ("/FontFile2", "/FontFile3", "/FontFile"):
        program = descriptor.get(key)
        if isinstance(program, pikepdf.Stream):
            return program
    return None


def _digest(stream: Any, digests: dict[tuple[int, int], str]) -> str:
    """Digest of the stream's stored bytes; a font shared by many pages is hashed once."""
    key = stream.objgen
    if key != (0, 0) and key in digests:
        return digests[key]
    value = hashlib.sha256(bytes(stream.read_raw_bytes())).hexdigest()[:16]
    if key != (0, 0):
        digests[key] = value
    return value


def _pdf_image_token(image: Any) -> str:
    import pikepdf

    space = image.get("/ColorSpace")
    if isinstance(space, pikepdf.Array) and len(space):
        space = space[0]
    filters = image.get("/Filter")
    if isinstance(filters, pikepdf.Array):
        filters = "+".join(str(f) for f in filters)
    return (f"i:{_name(image.get('/Width'))}x{_name(image.get('/Height'))}:{_name(filters)}:"
            f"{_name(space)}:{_name(image.get('/BitsPerComponent'))}")
