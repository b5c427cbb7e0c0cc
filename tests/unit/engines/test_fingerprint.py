"""File-of-origin fingerprints: fonts and image encodings per page, the same whether a page
is read from its own file or from a stream joined with pikepdf (as qpdf joins), and the
pair features and scorer evidence built on them."""

from __future__ import annotations

import io

import numpy as np
from PIL import Image, ImageDraw, ImageFont
from reportlab.lib.pagesizes import A4
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas
from scipy import sparse
from tests.docgen import unicode_font

from prefect_docai.engines.doctype.views import page_views
from prefect_docai.engines.page.document import load_document
from prefect_docai.engines.page.fingerprint import fingerprints, image_fingerprints
from prefect_docai.engines.paperflow.pairs import (
    FP_UNKNOWN,
    PAIR_FEATURES,
    StreamPage,
    origin_evidence,
    pair_features,
)
from prefect_docai.engines.paperflow.splitter import (
    default_boundary_model,
    page_roles,
    split_stream,
    stream_features,
)
from prefect_docai.samples import make_stream

BODY = [f"Line {k}: the survey of the regional water supply and its costs" for k in range(22)]


def _pdf(pages: list[list[str]], font: str) -> bytes:
    """A born-digital PDF in one font (a TrueType font is embedded as a subset)."""
    buf = io.BytesIO()
    canvas = Canvas(buf, pagesize=A4, invariant=1)
    for lines in pages:
        canvas.setFont(font, 10)
        for k, text in enumerate(lines):
            canvas.drawString(70, 780 - 18 * k, text)
        canvas.showPage()
    canvas.save()
    return buf.getvalue()


def _programs(fingerprint: frozenset[str]) -> set[str]:
    return {t for t in fingerprint if t.startswith("p:")}


def test_pdf_fingerprints_are_per_file_and_survive_merging() -> None:
    first = _pdf([BODY, BODY[::-1]], unicode_font())
    second = _pdf([[f"Größe {k}: 12,50 € für Übergänge" for k in range(5)]],
                  unicode_font())
    a, b = fingerprints(first), fingerprints(second)
    assert len(a) == 2 and len(b) == 1
    # both pages of one file draw on the same embedded subset; the other file embeds its own
    assert _programs(a[0]) and _programs(a[0]) == _programs(a[1])
    assert _programs(b[0]) and not _programs(a[0]) & _programs(b[0])
    stream, starts = make_stream([first, second])
    assert starts == [1, 3]
    assert fingerprints(stream) == [*a, *b]
    with load_document(stream) as document:
        assert [page.fingerprint for page in document.pages] == [*a, *b]


def test_image_fingerprints_per_frame() -> None:
    frames = [Image.new("L", (754, 1000), 255), Image.new("L", (771, 1010), 255),
              Image.new("RGB", (754, 1000), "white")]
    buf = io.BytesIO()
    frames[0].save(buf, format="TIFF", save_all=True, append_images=frames[1:], dpi=(200, 200))
    found = image_fingerprints(buf.getvalue())
    assert len(found) == 3
    # one scanner setting, one encoding, whatever the crop; another colour mode is another
    # source
    assert found[0] == found[1] and found[0] != found[2]
    png = io.BytesIO()
    Image.new("RGB", (620, 1200), "white").save(png, format="PNG")
    assert fingerprints(png.getvalue()) == [frozenset({"i:PNG:RGB::-"})]
    assert fingerprints(b"%PDF-1.7 broken") == []
    assert image_fingerprints(b"not an image") == []


def test_scanned_pdf_pages_drop_pixel_size_logos_keep_it() -> None:
    scans = make_stream([_scan(BODY[:3], 100), _scan(BODY[3:6], 150)])[0]
    assert fingerprints(scans) == [frozenset({"i:/DCTDecode:/DeviceGray:8"})] * 2
    logo = io.BytesIO()
    canvas = Canvas(logo, pagesize=A4, invariant=1)
    canvas.setFont("Helvetica", 10)
    canvas.drawString(70, 700, "Invoice")
    canvas.drawImage(ImageReader(Image.new("RGB", (120, 40), "red")), 70, 750, 60, 20)
    canvas.showPage()
    canvas.save()
    tokens = fingerprints(logo.getvalue())[0]
    assert "f:/Helvetica:/Type1" in tokens
    assert any(t.startswith("i:120x40:") for t in tokens)


def _stream_page(fingerprint: frozenset[str]) -> StreamPage:
    from prefect_docai.engines.doctype.views import PageView
    from prefect_docai.engines.page.model import Word
    from prefect_docai.engines.paperflow.signals import page_signals

    words = [Word("text", (0.1, 0.2, 0.2, 0.22), 1.0, 0, 0, 10.0)]
    signals = page_signals(PageView(words, 595.0, 842.0, "text-layer"))
    return StreamPage(signals, np.full(3, 1 / 3), np.zeros(4), (595.0, 842.0), "text-layer",
                      fingerprint=fingerprint)


def test_fingerprint_pair_features() -> None:
    own = frozenset({"f:/AAAAAA+DejaVuSans:/TrueType", "p:0123456789abcdef", "f:/Helvetica:/Type1"})
    bold_page = frozenset({"f:/AAAAAA+DejaVuSans:/TrueType", "p:0123456789abcdef"})
    sibling = frozenset({"f:/AAAAAA+DejaVuSans:/TrueType", "p:fedcba9876543210", "f:/Helvetica:/Type1"})
    scan = frozenset({"i:754x1000:PNG:L::-"})
    pages = [_stream_page(f) for f in (own, bold_page, sibling, scan, frozenset(), scan)]
    x = pair_features(pages, sparse.csr_matrix(np.eye(len(pages))))
    disjoint = x[:, PAIR_FEATURES.index("fp_disjoint")].tolist()
    program = x[:, PAIR_FEATURES.index("fp_program_shared")].tolist()
    # same file; same producer's other file (names shared, program not); another source;
    # unknown on either side is neither
    assert disjoint == [0.0, 0.0, 1.0, FP_UNKNOWN, FP_UNKNOWN]
    assert program == [1.0, 0.0, 0.0, FP_UNKNOWN, FP_UNKNOWN]


def test_scorer_reads_the_file_of_origin() -> None:
    """Lookalike pages: the same text on both sides of the pair, so only the fingerprint
    differs. Another source raises P(new document), a shared font program lowers it; the
    content-only scorer (streams without file-of-origin evidence) never reads them."""
    model = default_boundary_model()
    text = sparse.csr_matrix(np.ones((2, 1)))
    a = frozenset({"f:/ABCDEF+Arial:/TrueType", "p:1111111111111111"})
    b = frozenset({"i:2480x3508:/DCTDecode:/DeviceGray:8"})
    pairs = {name: pair_features([_stream_page(x), _stream_page(y)], text)
             for name, (x, y) in {"same": (a, a), "other": (a, b)}.items()}
    with_origin = {name: float(model.score(x)[0]) for name, x in pairs.items()}
    assert with_origin["same"] + 0.2 < with_origin["other"]
    content = {name: float(model.score(x, origin=False)[0]) for name, x in pairs.items()}
    assert content["same"] == content["other"]


def test_origin_evidence_needs_fingerprints_that_differ() -> None:
    a, b = frozenset({"f:/Helvetica:/Type1"}), frozenset({"i:754x1000:PNG:L::-"})
    assert origin_evidence([a, a, b])
    assert not origin_evidence([b, b, b])  # one scanner, one encoding
    assert not origin_evidence([a, frozenset(), b])  # a page that says nothing
    assert not origin_evidence([])


def _scan(lines: list[str], dpi: int, mode: str = "L") -> bytes:
    """An image-only PDF page of A4 scanned at ``dpi`` (pixel size follows the setting)."""
    scale = dpi / 100
    image = Image.new(mode, (round(827 * scale), round(1169 * scale)), "white")
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default(size=round(18 * scale))
    for k, line in enumerate(lines):
        draw.text((round(80 * scale), round((90 + 34 * k) * scale)), line, fill=0, font=font)
    buf = io.BytesIO()
    image.save(buf, format="PDF", resolution=float(dpi))
    return buf.getvalue()


def test_scans_from_two_sources_split_on_their_fingerprints() -> None:
    """Two one-page scans of lookalike text (one form filled twice) joined into one PDF:
    the colour mode tells the two scanners apart. Without the fingerprint the same pair
    scores lower (both pages are A4 in points, OCR on both)."""
    stream, starts = make_stream([_scan(BODY[:16], 100), _scan(BODY[1:17], 150, "RGB")])
    with load_document(stream) as document:
        views = page_views(document)
        model = default_boundary_model()
        roles = page_roles(views, detect_barcodes=False)
        with_fp = model.score(stream_features(views, roles).pairs)[0]
        for view in views:
            view.fingerprint = frozenset()
        without = model.score(stream_features(views, roles).pairs)[0]
        assert with_fp > without + 0.2
        for view, fingerprint in zip(views, fingerprints(stream), strict=True):
            view.fingerprint = fingerprint
        assert [d.pages[0] + 1 for d in split_stream(views, detect_barcodes=False)] == starts
