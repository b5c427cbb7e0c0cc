"""ToolICR end to end on generated documents: JSON, searchable PDF, TXT, threshold, bad input."""

from __future__ import annotations

import io
import re
import struct
import time
import zlib

import numpy as np
import pikepdf
import pypdfium2 as pdfium
import pytest
from PIL import Image
from tests.docgen import image_bytes, image_pdf, rotate_image
from tests.unit.engines.conftest import A6, ENGLISH_LINES, GERMAN_LINES

from prefect_docai.engines.icr.engine import IcrEngine
from prefect_docai.engines.page.document import load_document
from prefect_docai.engines.pluginspec import (
    DocumentError,
    Engine,
    EngineOptions,
    EngineOutput,
    get_engine,
)
from prefect_docai.models.results import IcrResult
from prefect_docai.models.tools import Tool


def _run(data: bytes, **options: object) -> tuple[IcrResult, EngineOutput]:
    defaults: dict[str, object] = {"output_formats": ("PDF", "TXT", "JSON"), "file_name": "in.png"}
    defaults.update(options)
    output = IcrEngine().run(data, EngineOptions(**defaults))  # type: ignore[arg-type]
    assert isinstance(output.result, IcrResult)
    return output.result, output


def _file(output: EngineOutput, output_type: str) -> bytes:
    [match] = [f for f in output.files if f.output_type == output_type]
    return match.data


def _pdf_text(data: bytes) -> list[str]:
    document = pdfium.PdfDocument(data)
    try:
        texts = []
        for index in range(len(document)):
            page = document[index]
            textpage = page.get_textpage()
            texts.append(textpage.get_text_range())
            textpage.close()
            page.close()
        return texts
    finally:
        document.close()


def _words(text: str) -> list[str]:
    return re.findall(r"\w+", text.lower())


def _recall(expected: str, found: str) -> float:
    wanted = _words(expected)
    got = set(_words(found))
    return sum(word in got for word in wanted) / len(wanted)


ENGLISH = "\n".join(ENGLISH_LINES)


def test_registry_path_resolves_to_the_engine() -> None:
    engine = get_engine(Tool.ICR)
    assert isinstance(engine, IcrEngine)
    assert isinstance(engine, Engine)
    assert engine.tool is Tool.ICR


def test_born_digital_pdf_returns_its_own_text_and_bytes(english_pdf: bytes) -> None:
    result, output = _run(english_pdf, file_name="letter.pdf")
    assert output.page_count == 1
    assert _file(output, "PDF") == english_pdf
    assert [f.name for f in output.files] == ["letter.pdf", "letter.txt"]
    assert _file(output, "TXT").decode() == ENGLISH
    [page] = result.pages
    assert (page.source, page.rotation, page.confidence) == ("text-layer", 0, 1.0)
    assert (page.width, page.height) == pytest.approx(A6)
    assert [line.text for line in page.lines] == list(ENGLISH_LINES)
    assert result.text == ENGLISH
    assert result.language == "en"
    wire = result.to_json_dict()
    assert set(wire["pages"][0]) >= {"page", "width", "height", "rotation", "source", "text",
                                     "confidence", "lines"}
    assert set(wire["pages"][0]["lines"][0]["words"][0]) == {"text", "bbox", "confidence"}


def _check_text_layer_placement(pdf: bytes, result_page: object) -> None:
    """The searchable PDF's words sit where OCR found them, and on ink."""
    with load_document(pdf) as document:
        page = document.page(1)
        assert page.source == "text-layer"  # the invisible OCR layer is trusted
        assert (page.width, page.height) == pytest.approx(A6, abs=1)
        image = np.asarray(page.render(dpi=100))
        height, width = image.shape
        on_ink = 0
        for word in page.words:
            x0, y0, x1, y1 = word.bbox
            crop = image[int(y0 * height) : int(np.ceil(y1 * height)) + 1,
                         int(x0 * width) : int(np.ceil(x1 * width)) + 1]
            on_ink += bool(crop.size and crop.min() < 128)
        assert on_ink / len(page.words) >= 0.95
        found = [(w.text, w.bbox) for w in page.words]
    expected = [(w.text, w.bbox) for line in result_page.lines  # type: ignore[attr-defined]
                for w in line.words]
    assert [text for text, _ in found] == [text for text, _ in expected]
    for (_, got), (_, want) in zip(found, expected, strict=True):
        assert got[0] == pytest.approx(want[0], abs=0.01)
        assert got[2] == pytest.approx(want[2], abs=0.03)
        assert (got[1] + got[3]) / 2 == pytest.approx((want[1] + want[3]) / 2, abs=0.015)


def test_scan_becomes_searchable_pdf(english_scan: Image.Image) -> None:
    result, output = _run(image_bytes(english_scan, "PNG"))
    [page] = result.pages
    assert page.source == "ocr"
    assert _recall(ENGLISH, result.text) >= 0.95
    assert all(0 <= c <= 1 for line in page.lines for c in line.bbox)
    pdf = _file(output, "PDF")
    [extracted] = _pdf_text(pdf)
    assert _recall(ENGLISH, extracted) >= 0.95
    assert " ".join(extracted.split()) == " ".join(result.text.split())
    _check_text_layer_placement(pdf, page)
    assert _file(output, "TXT").decode() == result.text


def test_sideways_scan_gives_upright_searchable_pdf(english_scan: Image.Image) -> None:
    result, output = _run(image_bytes(rotate_image(english_scan, 90), "PNG"))
    [page] = result.pages
    assert page.rotation == 270
    pdf = _file(output, "PDF")
    rendered = pdfium.PdfDocument(pdf)[0].render(scale=1).to_pil()
    assert rendered.height > rendered.width
    _check_text_layer_placement(pdf, page)


def test_jpeg_is_embedded_unchanged(english_scan: Image.Image) -> None:
    jpeg = image_bytes(english_scan, "JPEG")
    _, output = _run(jpeg, output_formats=("PDF",))
    with pikepdf.open(io.BytesIO(_file(output, "PDF"))) as pdf:
        [image] = list(pdf.pages[0].images.values())
        assert image.read_raw_bytes() == jpeg


def test_mixed_pdf_keeps_born_digital_pages(english_pdf: bytes, english_scan: Image.Image) -> None:
    with pikepdf.open(io.BytesIO(english_pdf)) as born, pikepdf.open(
        io.BytesIO(image_pdf([english_scan]))
    ) as scanned:
        born.pages.extend(scanned.pages)
        buffer = io.BytesIO()
        born.save(buffer)
    result, output = _run(buffer.getvalue())
    assert [p.source for p in result.pages] == ["text-layer", "ocr"]
    first, second = result.text.split("\f")
    assert first == ENGLISH
    assert _recall(ENGLISH, second) >= 0.95
    texts = _pdf_text(_file(output, "PDF"))
    assert " ".join(texts[0].split()) == " ".join(ENGLISH.split())
    assert _recall(ENGLISH, texts[1]) >= 0.95
    assert _file(output, "TXT").decode().count("\f") == 1


def test_threshold_drops_words_from_every_output(english_scan: Image.Image) -> None:
    noisy = english_scan.copy()
    # Smudge one line so its words come out uncertain.
    pixels = np.asarray(noisy).copy()
    rng = np.random.default_rng(1)
    band = pixels[300:420]
    band[rng.random(band.shape) < 0.35] = 0
    noisy = Image.fromarray(pixels)
    noisy.info["dpi"] = (300, 300)
    data = image_bytes(noisy, "PNG")
    full, _ = _run(data)
    confidences = sorted(w.confidence for line in full.pages[0].lines for w in line.words)
    # Midway between two distinct (rounded) confidences, so rounding cannot blur the cut.
    quarter = confidences[len(confidences) // 4]
    above = min(c for c in confidences if c > quarter)
    threshold = (quarter + above) / 2
    dropped = [w.text for line in full.pages[0].lines for w in line.words
               if w.confidence < threshold]
    assert dropped
    result, output = _run(data, threshold=threshold)
    kept = [w for line in result.pages[0].lines for w in line.words]
    assert kept and all(w.confidence >= threshold for w in kept)
    assert len(kept) == len(confidences) - len(dropped)
    text_words = _file(output, "TXT").decode().split()
    pdf_words = _pdf_text(_file(output, "PDF"))[0].split()
    assert text_words == result.text.split()
    assert sorted(pdf_words) == sorted(w.text for w in kept)


def test_german_hint_reads_umlauts(german_scan: Image.Image) -> None:
    result, output = _run(image_bytes(german_scan, "PNG"), languages=("deu",))
    assert result.language == "de"
    for word in ("Müller", "Größe", "Äpfel", "Süßwaren", "Übergabe"):
        assert word in result.text
        assert word in _pdf_text(_file(output, "PDF"))[0]


def test_two_languages_pick_the_detected_one(german_pdf: bytes) -> None:
    result, _ = _run(german_pdf, languages=("eng", "deu"), output_formats=("JSON",))
    assert result.language == "de"
    assert result.text == "\n".join(GERMAN_LINES)


def test_default_output_is_pdf(english_pdf: bytes) -> None:
    _, output = _run(english_pdf, output_formats=())
    assert [f.output_type for f in output.files] == ["PDF"]


# --- hostile input ----------------------------------------------------------------------


def _png_header_only(width: int, height: int) -> bytes:
    def chunk(kind: bytes, body: bytes) -> bytes:
        return (struct.pack(">I", len(body)) + kind + body
                + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF))

    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"\0" * 64))


def _encrypted(pdf: bytes, user: str) -> bytes:
    buffer = io.BytesIO()
    with pikepdf.open(io.BytesIO(pdf)) as document:
        document.save(buffer, encryption=pikepdf.Encryption(user=user, owner="owner-secret"))
    return buffer.getvalue()


def _huge_page(pdf: bytes) -> bytes:
    buffer = io.BytesIO()
    with pikepdf.open(io.BytesIO(pdf)) as document:
        document.pages[0].MediaBox = [0, 0, 50_000, 50_000]
        document.save(buffer)
    return buffer.getvalue()


def _hostile_cases(english_pdf: bytes, english_scan: Image.Image) -> list[tuple[str, bytes, str]]:
    png = image_bytes(english_scan, "PNG")
    return [
        ("empty", b"", "empty_file"),
        ("random bytes", bytes(range(256)) * 4, "unsupported_media_type"),
        ("truncated pdf", english_pdf[: len(english_pdf) // 3], "corrupt_pdf"),
        ("pdf header only", b"%PDF-1.7\n%garbage\n", "corrupt_pdf"),
        ("encrypted pdf", _encrypted(english_pdf, "user-secret"), "encrypted_pdf"),
        ("owner-password pdf", _encrypted(english_pdf, ""), "encrypted_pdf"),
        ("absurd page size", _huge_page(english_pdf), "invalid_page_size"),
        ("decompression bomb", _png_header_only(40_000, 40_000), "image_too_large"),
        ("truncated png", png[: len(png) // 2], "corrupt_image"),
        ("xml", b"<?xml version='1.0'?><a/>", "unsupported_media_type"),
    ]


def test_hostile_input_raises_clear_errors(english_pdf: bytes, english_scan: Image.Image) -> None:
    engine = IcrEngine()
    for name, data, code in _hostile_cases(english_pdf, english_scan):
        started = time.monotonic()
        with pytest.raises(DocumentError) as caught:
            engine.run(data, EngineOptions(output_formats=("PDF", "TXT")))
        assert caught.value.code == code, name
        assert caught.value.detail, name
        assert time.monotonic() - started < 10, name
        with pytest.raises(DocumentError), load_document(data) as document:
            document.text()


def test_sideways_scanned_pdf_page_is_turned_in_place(english_scan: Image.Image) -> None:
    """A PDF page holding a sideways scan keeps its content; /Rotate turns it upright and
    the text layer lines up with the turned page."""
    result, output = _run(image_pdf([rotate_image(english_scan, 90)]), file_name="scan.pdf")
    [page] = result.pages
    assert page.rotation == 270
    assert _recall(ENGLISH, result.text) >= 0.95
    pdf = _file(output, "PDF")
    with pikepdf.open(io.BytesIO(pdf)) as document:
        assert int(document.pages[0].Rotate) == 270
    _check_text_layer_placement(pdf, page)
