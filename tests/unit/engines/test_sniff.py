"""Upload inspection: media type by content, page counts, refusal of unusable files."""

from __future__ import annotations

import io

import pikepdf
import pytest
from PIL import Image
from reportlab.pdfgen import canvas

from prefect_docai.engines.pluginspec import DocumentError
from prefect_docai.files.sniff import inspect_document, sniff_media_type


def _pdf(pages: int) -> bytes:
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer)
    for number in range(pages):
        pdf.drawString(72, 720, f"page {number + 1}")
        pdf.showPage()
    pdf.save()
    return buffer.getvalue()


def _image(fmt: str, frames: int = 1) -> bytes:
    buffer = io.BytesIO()
    images = [Image.new("L", (50, 40), color=200 - 10 * i) for i in range(frames)]
    images[0].save(buffer, format=fmt, save_all=frames > 1, append_images=images[1:])
    return buffer.getvalue()


@pytest.mark.parametrize(
    ("fmt", "media_type"),
    [
        ("PNG", "image/png"),
        ("JPEG", "image/jpeg"),
        ("TIFF", "image/tiff"),
        ("BMP", "image/bmp"),
        ("GIF", "image/gif"),
        ("WEBP", "image/webp"),
    ],
)
def test_images_are_one_page(fmt: str, media_type: str) -> None:
    info = inspect_document(_image(fmt))
    assert info.media_type == media_type
    assert info.page_count == 1


def test_tiff_frames_are_pages() -> None:
    assert inspect_document(_image("TIFF", frames=3)).page_count == 3


def test_pdf_pages_are_counted() -> None:
    info = inspect_document(_pdf(4))
    assert (info.media_type, info.page_count) == ("application/pdf", 4)


def test_type_comes_from_content_not_name() -> None:
    assert sniff_media_type(b"hello world") is None
    with pytest.raises(DocumentError) as caught:
        inspect_document(b"MZ\x90\x00 not a document")
    assert caught.value.code == "unsupported_media_type"


def test_empty_file_is_refused() -> None:
    with pytest.raises(DocumentError) as caught:
        inspect_document(b"")
    assert caught.value.code == "empty_file"


def test_truncated_pdf_is_corrupt() -> None:
    with pytest.raises(DocumentError) as caught:
        inspect_document(b"%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\n")
    assert caught.value.code == "corrupt_pdf"


@pytest.mark.parametrize("user_password", ["secret", ""])
def test_encrypted_pdf_is_refused(user_password: str) -> None:
    source = pikepdf.open(io.BytesIO(_pdf(1)))
    out = io.BytesIO()
    source.save(out, encryption=pikepdf.Encryption(owner="owner", user=user_password))
    with pytest.raises(DocumentError) as caught:
        inspect_document(out.getvalue())
    assert caught.value.code == "encrypted_pdf"


def test_decompression_bomb_is_refused() -> None:
    # A PNG header of 20,000 × 20,000 pixels (400 MP): refused from the header, never decoded.
    buffer = io.BytesIO()
    Image.new("1", (20_000, 20_000)).save(buffer, format="PNG")
    with pytest.raises(DocumentError) as caught:
        inspect_document(buffer.getvalue())
    assert caught.value.code == "image_too_large"


def test_bare_xml_is_an_e_invoice_candidate() -> None:
    info = inspect_document(b'<?xml version="1.0"?><rsm:CrossIndustryInvoice/>')
    assert (info.media_type, info.page_count) == ("application/xml", 1)
