"""Multi-document page streams for page stream segmentation, with separator sheets."""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal

import pikepdf
from reportlab.graphics.barcode import code128, qr
from reportlab.graphics.shapes import Drawing
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm as _MM
from reportlab.pdfgen.canvas import Canvas

if TYPE_CHECKING:
    from prefect_docai.samples.core import GeneratedDocument

SeparatorKind = Literal["blank", "qr", "barcode"]

# payload printed on separator sheets; PaperFlow readers look for it
SEPARATOR_PAYLOAD = "DOCAI-SEPARATOR"

mm: float = float(_MM)


def separator_sheet(kind: SeparatorKind, *, payload: str = SEPARATOR_PAYLOAD) -> bytes:
    """A single A4 page: empty, or with a QR code / Code 128 barcode carrying ``payload``."""
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=A4, invariant=1)
    w, h = A4
    if kind == "qr":
        widget = qr.QrCodeWidget(payload)
        x0, y0, x1, y1 = widget.getBounds()
        size = 60 * mm
        drawing = Drawing(size, size, transform=[size / (x1 - x0), 0, 0, size / (y1 - y0), 0, 0])
        drawing.add(widget)
        drawing.drawOn(c, (w - size) / 2, (h - size) / 2)
        c.setFont("Helvetica", 12)
        c.drawCentredString(w / 2, (h - size) / 2 - 12 * mm, "- " + payload + " -")
    elif kind == "barcode":
        bar = code128.Code128(payload, barHeight=25 * mm, barWidth=0.5 * mm)
        bar.drawOn(c, (w - bar.width) / 2, h / 2)
        c.setFont("Helvetica", 12)
        c.drawCentredString(w / 2, h / 2 - 10 * mm, payload)
    elif kind != "blank":
        raise ValueError(f"unknown separator kind {kind!r}")
    c.showPage()
    c.save()
    return buf.getvalue()


def page_count(pdf: bytes) -> int:
    with pikepdf.open(io.BytesIO(pdf)) as doc:
        return len(doc.pages)


def make_stream(
    docs: Sequence[bytes],
    *,
    separators: SeparatorKind | Sequence[SeparatorKind | None] | None = None,
) -> tuple[bytes, list[int]]:
    """Join ``docs`` into one PDF; returns it and each document's 1-based start page.

    ``separators`` puts a separator sheet before every document but the first (one kind for
    all, or a per-gap list with None for no sheet). Separator pages are not documents, so
    they start no segment.
    """
    gaps: list[SeparatorKind | None]
    if separators is None or isinstance(separators, str):
        gaps = [separators] * max(0, len(docs) - 1)
    else:
        gaps = list(separators)
        if len(gaps) != max(0, len(docs) - 1):
            raise ValueError("need one separator entry per gap between documents")
    out = pikepdf.new()
    starts: list[int] = []
    sheets: dict[str, pikepdf.Pdf] = {}
    opened: list[pikepdf.Pdf] = []
    try:
        for i, data in enumerate(docs):
            if i > 0 and gaps[i - 1] is not None:
                kind = gaps[i - 1]
                assert kind is not None
                if kind not in sheets:
                    sheets[kind] = pikepdf.open(io.BytesIO(separator_sheet(kind)))
                out.pages.extend(sheets[kind].pages)
            src = pikepdf.open(io.BytesIO(data))
            opened.append(src)
            starts.append(len(out.pages) + 1)
            out.pages.extend(src.pages)
        buf = io.BytesIO()
        out.save(buf, deterministic_id=True)
        return buf.getvalue(), starts
    finally:
        for pdf in opened + list(sheets.values()):
            pdf.close()
        out.close()


def sample_stream(
    seed: int,
    *,
    documents: int = 5,
    langs: Sequence[str] = ("de", "en"),
    doc_types: Sequence[str] | None = None,
    separator_rate: float = 0.3,
    same_supplier_rate: float = 0.3,
    held_out: bool = False,
) -> tuple[bytes, list[dict[str, Any]]]:
    """A random page stream of generated documents with known boundaries.

    Some neighbours are invoices from the same supplier and template (the hard case for
    splitting), some gaps get a separator sheet. Returns the PDF and one segment per
    document: ``{docType, lang, template, startPage, endPage, pageCount, truth}``; separator
    pages belong to no segment.
    """
    import random

    from prefect_docai.samples.core import DOC_TYPES
    from prefect_docai.samples.generate import generate

    rng = random.Random(seed)
    types = list(doc_types or DOC_TYPES)
    docs: list[GeneratedDocument] = []
    seller_seed = 0
    for _ in range(documents):
        prev = docs[-1] if docs else None
        if prev is not None and prev.doc_type == "invoice" and rng.random() < same_supplier_rate:
            # the next invoice of the same supplier, in the same layout
            doc = generate(
                "invoice",
                seed=rng.randrange(2**31),
                lang=prev.lang,
                template=prev.template,
                seller_seed=seller_seed,
            )
        else:
            doc_type = rng.choice(types)
            seller_seed = rng.randrange(2**31)
            doc = generate(
                doc_type,
                seed=rng.randrange(2**31),
                lang=rng.choice(list(langs)),
                held_out=held_out,
                seller_seed=seller_seed if doc_type == "invoice" else None,
            )
        docs.append(doc)
    gaps: list[SeparatorKind | None] = [
        rng.choice(("blank", "qr", "barcode")) if rng.random() < separator_rate else None
        for _ in range(len(docs) - 1)
    ]
    pdf, starts = make_stream([d.pdf for d in docs], separators=gaps)
    segments = [
        {
            "docType": d.doc_type,
            "lang": d.lang,
            "template": d.template,
            "startPage": s,
            "endPage": s + d.page_count - 1,
            "pageCount": d.page_count,
            "truth": d.truth,
        }
        for d, s in zip(docs, starts, strict=True)
    ]
    return pdf, segments
