"""``write_batch`` / ``docai samples``: files on disk match the manifest and its truth."""

from __future__ import annotations

import hashlib
import io
import json
from pathlib import Path

import pypdfium2 as pdfium
from PIL import Image
from typer.testing import CliRunner

from prefect_docai.cli import app


def test_cli_writes_a_batch_whose_manifest_matches_the_files(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["samples", str(tmp_path), "--count", "12", "--seed", "3"])
    assert result.exit_code == 0, result.output
    manifest = json.loads((tmp_path / "manifest.json").read_text(encoding="utf-8"))
    docs = manifest["documents"]
    assert len(docs) == 12
    variants = {(d["docType"], d["variant"]) for d in docs}
    assert {
        ("invoice", "e-invoice"),
        ("stream", "stream"),
        ("receipt", "photo"),
        ("invoice", "scanned"),
        ("report", "born-digital"),
    } <= variants
    types = {d["docType"] for d in docs}
    assert {"invoice", "receipt", "letter", "delivery_note", "report"} <= types
    langs = {d["lang"] for d in docs}
    assert langs == {"de", "en"}
    for d in docs:
        data = (tmp_path / d["file"]).read_bytes()
        assert hashlib.sha256(data).hexdigest() == d["sha256"]
        if d["mediaType"] == "image/jpeg":
            assert Image.open(io.BytesIO(data)).format == "JPEG"
            continue
        pdf = pdfium.PdfDocument(data)
        assert len(pdf) == d["pages"]
        text = "".join(page.get_textpage().get_text_range() for page in pdf)
        if d["variant"] == "scanned":
            assert not text.strip()
        elif d["docType"] == "invoice":
            assert d["truth"]["invoiceNumber"] in text
        pdf.close()


def test_einvoice_carries_xml_that_matches_the_truth(tmp_path: Path) -> None:
    from drafthorse.models.document import Document
    from facturx import get_xml_from_pdf

    from prefect_docai.samples import write_batch

    manifest = write_batch(tmp_path, count=1, seed=5)
    (entry,) = manifest["documents"]
    assert entry["variant"] == "e-invoice"
    name, xml = get_xml_from_pdf((tmp_path / entry["file"]).read_bytes())
    assert name == "factur-x.xml"
    doc = Document.parse(xml)
    truth = entry["truth"]
    assert doc.header.id._text == truth["invoiceNumber"]
    sums = doc.trade.settlement.monetary_summation
    assert str(sums.grand_total._amount) == truth["gross"]
    assert str(sums.tax_basis_total._amount) == truth["net"]
    assert doc.trade.agreement.seller.name._text == truth["seller"]["name"]


def test_stream_segments_start_where_the_manifest_says(tmp_path: Path) -> None:
    from prefect_docai.samples import write_batch

    manifest = write_batch(tmp_path, count=2, seed=9)
    stream = manifest["documents"][1]
    assert stream["variant"] == "stream"
    pdf = pdfium.PdfDocument((tmp_path / stream["file"]).read_bytes())
    texts = [page.get_textpage().get_text_range() for page in pdf]
    assert len(texts) == stream["pages"]
    segments = stream["segments"]
    assert [s["startPage"] for s in segments] == stream["documentStartPages"]
    assert segments[0]["startPage"] == 1
    for seg in segments:
        first = texts[seg["startPage"] - 1]
        assert seg["truth"]["title"].split()[0].lower() in first.lower()
    for sep in stream["separatorPages"]:
        assert sep["page"] not in {s["startPage"] for s in segments}
        if sep["kind"] == "blank":
            assert not texts[sep["page"] - 1].strip()
    covered = sum(s["pageCount"] for s in segments) + len(stream["separatorPages"])
    assert covered == stream["pages"]


def test_einvoice_xml_for_many_invoices() -> None:
    from facturx import get_xml_from_pdf

    from prefect_docai.samples.einvoice import generate_einvoice

    for seed in range(6):
        doc = generate_einvoice(seed=seed, lang="de" if seed % 2 else "en")
        name, xml = get_xml_from_pdf(doc.pdf)
        assert name == "factur-x.xml"
        assert doc.truth["invoiceNumber"].encode() in xml
        assert doc.truth["gross"].encode() in xml
