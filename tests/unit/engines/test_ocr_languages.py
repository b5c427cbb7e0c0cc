"""The main language of an OCR page (issue #14): a scanned page first read with German and
English whose reading is French, Dutch, Italian or Spanish is read again with its own pack,
so its accents and labels survive. Detection on small generated documents, the page model's
re-reading, and the invoice engine on a French scan."""

from __future__ import annotations

from typing import Any

import pytest
from tests.docgen import image_pdf, make_text_pdf, rasterize

from prefect_docai.engines.invoice import InvoiceEngine
from prefect_docai.engines.invoice.engine import INVOICE_DETECTED, INVOICE_LANGUAGES
from prefect_docai.engines.page.document import load_document
from prefect_docai.engines.page.languages import main_language
from prefect_docai.engines.pluginspec import EngineOptions
from prefect_docai.samples.grammar import generate_varied
from prefect_docai.samples.scan import degrade


def _text_layer(pdf: bytes) -> str:
    with load_document(pdf) as document:
        return "\n".join(page.text for page in document.pages)


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("fr", ("fra", "eng")),
        ("nl", ("nld", "eng")),
        ("it", ("ita", "eng")),
        ("es", ("spa", "eng")),
        ("de", None),
        ("en", None),
    ],
)
@pytest.mark.parametrize("family", [2, 9, 17])
def test_main_language_of_generated_invoices(
    lang: str, expected: tuple[str, ...] | None, family: int
) -> None:
    """Each language's invoices of three layout families: German and English keep the
    first reading, the other four are read again with their pack and English."""
    text = _text_layer(generate_varied("invoice", seed=401 + family, lang=lang, family=family).pdf)
    assert main_language(text, INVOICE_LANGUAGES, INVOICE_DETECTED) == expected


def test_short_or_undetected_text_keeps_the_first_reading() -> None:
    assert main_language("Facture n° 12 Total TTC", INVOICE_LANGUAGES, INVOICE_DETECTED) is None
    text = "Veuillez trouver ci-dessous le détail de nos prestations de conseil. " * 4
    assert main_language(text, INVOICE_LANGUAGES, ()) is None
    assert main_language(text, INVOICE_LANGUAGES, INVOICE_DETECTED) == ("fra", "eng")
    # the detected pack replaces the first language only; the others stay, once each
    assert main_language(text, ("deu", "eng", "fra"), INVOICE_DETECTED) is None
    assert main_language(text, ("deu", "eng", "ita"), ("fra",)) == ("fra", "eng", "ita")


FRENCH_LINES = (
    "Facture n° 2024-0815",
    "Date d'émission : 14 mars 2024",
    "Échéance : 13 avril 2024",
    "Désignation                 Quantité",
    "Développement web           3 journées",
    "Frais de déplacement        1 forfait",
    "Période de prestation : février 2024",
    "Merci de régler avant l'échéance.",
    "Indemnité forfaitaire pour frais de recouvrement.",
)


@pytest.fixture(scope="module")
def french_scan() -> bytes:
    pdf = make_text_pdf(list(FRENCH_LINES), font_size=11, pagesize=(420.0, 298.0), margin=24)
    return image_pdf(rasterize(pdf, dpi=200), dpi=200)


def test_a_french_scan_is_read_again_in_french(french_scan: bytes) -> None:
    with load_document(french_scan, languages=INVOICE_LANGUAGES) as document:
        assert document.page(1).languages == INVOICE_LANGUAGES
    with load_document(
        french_scan, languages=INVOICE_LANGUAGES, detect=INVOICE_DETECTED
    ) as document:
        page = document.page(1)
        assert page.source == "ocr"
        assert page.languages == ("fra", "eng")
        for word in ("d'émission", "Échéance", "Désignation", "Quantité", "Période"):
            assert word in page.text


def test_a_doubtful_page_is_read_again_once(
    french_scan: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A doubtful first reading is read twice (plain, then contrast-equalized); the
    re-reading in the page's language reads only the copy that one settled on."""
    from prefect_docai.engines.page import document as page_document
    from prefect_docai.engines.page import ocr

    calls = _count_readings(monkeypatch)
    monkeypatch.setattr(page_document, "_doubtful", lambda words: True)
    monkeypatch.setattr(ocr, "detect_orientation", lambda gray, dpi: None)
    monkeypatch.setattr(page_document, "probe_language", lambda *args: None)
    with load_document(
        french_scan, languages=INVOICE_LANGUAGES, detect=INVOICE_DETECTED
    ) as document:
        assert document.page(1).languages == ("fra", "eng")
        assert "Échéance" in document.page(1).text
    assert calls == [("deu+eng", None), ("deu+eng", None), ("fra+eng", None)]


def _count_readings(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int | None]]:
    """Every Tesseract reading from now on, as (packs, page segmentation mode)."""
    from prefect_docai.engines.page import ocr

    calls: list[tuple[str, int | None]] = []
    recognize = ocr.recognize

    def counted(*args: Any, **kwargs: Any) -> list[ocr.OcrWord]:
        psm = args[3] if len(args) > 3 else kwargs.get("psm")
        calls.append((args[2], psm))
        return recognize(*args, **kwargs)

    monkeypatch.setattr(ocr, "recognize", counted)
    return calls


def test_a_french_scan_is_read_whole_once_in_french(
    french_scan: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The probe (a few of the page's lines, read with the requested packs) names French:
    the page is read whole with ``fra+eng`` only, never whole with ``deu+eng`` first."""
    calls = _count_readings(monkeypatch)
    with load_document(
        french_scan, languages=INVOICE_LANGUAGES, detect=INVOICE_DETECTED
    ) as document:
        assert document.page(1).languages == ("fra", "eng")
        assert "Échéance" in document.page(1).text
    whole = [packs for packs, psm in calls if psm is None]
    assert whole and set(whole) == {"fra+eng"}
    assert [packs for packs, psm in calls if psm is not None] == ["deu+eng"]


def test_a_misled_probe_is_put_right_by_the_whole_reading(
    french_scan: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where the probe names the wrong language, the whole reading names the right one and
    the page is read again with it, as a first reading in the requested packs leads to."""
    from prefect_docai.engines.page import document as page_document

    calls = _count_readings(monkeypatch)
    monkeypatch.setattr(page_document, "probe_language", lambda *args: ("ita", "eng"))
    with load_document(
        french_scan, languages=INVOICE_LANGUAGES, detect=INVOICE_DETECTED
    ) as document:
        assert document.page(1).languages == ("fra", "eng")
        assert "Échéance" in document.page(1).text
    assert [packs for packs, _ in calls] == ["ita+eng", "fra+eng"]


def test_a_german_scan_keeps_its_reading(german_pdf: bytes) -> None:
    scan = image_pdf(rasterize(german_pdf, dpi=200), dpi=200)
    with load_document(scan, languages=INVOICE_LANGUAGES, detect=INVOICE_DETECTED) as document:
        assert document.page(1).languages == INVOICE_LANGUAGES


def test_text_layer_pages_are_not_detected(english_pdf: bytes) -> None:
    with load_document(
        english_pdf, languages=INVOICE_LANGUAGES, detect=INVOICE_DETECTED
    ) as document:
        assert document.page(1).source == "text-layer"
        assert document.page(1).languages == INVOICE_LANGUAGES


def test_the_invoice_engine_reads_a_french_scans_accented_labels() -> None:
    """A generated French invoice, scanned (200 dpi grey, skew, noise): its text output
    prints the accented words the page carries ("Échéance", "Quantité", …; read with
    ``deu+eng`` alone, two of the five lose an accent)."""
    doc = generate_varied("invoice", seed=52, lang="fr", family=5)
    scan = degrade(doc.pdf, seed=52, dpi=200, rotate=0.7, blur=0.6, noise=7.0, quality=75)
    output = InvoiceEngine().run(scan, EngineOptions(output_formats=("JSON", "TXT")))
    text = next(f for f in output.files if f.output_type == "TXT").data.decode()
    printed = _text_layer(doc.pdf)
    accented = sorted(
        {
            word
            for word in printed.split()
            if any(c in "éèêàçÉ" for c in word) and word.isalpha() and len(word) > 4
        }
    )
    assert accented
    found = [word for word in accented if word in text]
    assert len(found) >= 0.8 * len(accented), (accented, found)
