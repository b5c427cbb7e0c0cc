"""A scanned table page's language (issue 15): without a language hint the table engine
reads a German, French, Dutch, Italian or Spanish scan again in its language (English a
companion), so the cells keep their umlauts and accents; an explicit hint forces the
language; a born-digital page is never OCRed."""

from __future__ import annotations

import re
from typing import Any

import pytest

from prefect_docai.engines.page import ocr
from prefect_docai.engines.page.languages import main_language
from prefect_docai.engines.pluginspec import EngineOptions
from prefect_docai.engines.tables import TableEngine
from prefect_docai.engines.tables.inputs import DETECTED, detected_languages
from prefect_docai.models import TableExtractionResult
from prefect_docai.samples.tables import table_page

_ACCENTED = re.compile("[À-ÿ]")


def _accented(words: set[str]) -> set[str]:
    return {w for w in words if _ACCENTED.search(w)}


def _run(
    pdf: bytes, options: EngineOptions, monkeypatch: pytest.MonkeyPatch
) -> tuple[set[str], set[str]]:
    """The words of the cells the engine returns, and the packs every OCR call read with."""
    packs: set[str] = set()
    recognize = ocr.recognize

    def spy(image: Any, dpi: int, languages: str, *args: Any, **kwargs: Any) -> Any:
        packs.add(languages)
        return recognize(image, dpi, languages, *args, **kwargs)

    monkeypatch.setattr(ocr, "recognize", spy)
    result = TableEngine().run(pdf, options).result
    monkeypatch.setattr(ocr, "recognize", recognize)
    assert isinstance(result, TableExtractionResult)
    return {w for t in result.tables for c in t.cells for w in c.text.split()}, packs


def test_a_german_scan_without_hint_keeps_its_umlauts(monkeypatch: pytest.MonkeyPatch) -> None:
    page = table_page(
        1, lang="de", layout="single", scanned=True, dpi=200, look_alikes=False, records=False
    )
    truth = _accented({w for t in page.tables for row in t.grid for c in row for w in c.split()})
    assert len(truth) >= 6  # Büromaterial, Verzögerungen, Rückstand, Liquidität, ...

    found, packs = _run(page.pdf, EngineOptions(language_hinted=False), monkeypatch)
    assert "deu+eng" in packs
    assert len(truth & found) >= 0.75 * len(truth)

    # "en" given: English only, as asked; the umlauts are lost.
    found, packs = _run(page.pdf, EngineOptions(languages=("eng",)), monkeypatch)
    assert packs == {"eng"}
    assert len(truth & found) <= 0.25 * len(truth)


def test_a_born_digital_page_is_not_read(monkeypatch: pytest.MonkeyPatch) -> None:
    # a table of figures with accented labels (the page as before the tables of records)
    page = table_page(3, lang="fr", layout="single", records=False)
    found, packs = _run(page.pdf, EngineOptions(language_hinted=False), monkeypatch)
    assert packs == set()
    assert {"Énergie", "détaillés"} <= found


def test_only_an_absent_hint_detects() -> None:
    assert detected_languages(EngineOptions(language_hinted=False)) == DETECTED
    assert detected_languages(EngineOptions(languages=("eng",))) == ()
    assert detected_languages(EngineOptions(languages=("deu",))) == ()
    assert detected_languages(EngineOptions(languages=("auto",), language_hinted=False)) == ()


def test_english_stays_a_companion() -> None:
    text = (
        "Les résultats détaillés de la deuxième région ont progressé pendant l'été; "
        "la consommation des ménages a enregistré une évolution supérieure aux attentes."
    )
    assert main_language(text, ("eng",), DETECTED) == ("fra", "eng")
    english = (
        "The detailed results of the second region improved during the summer; household "
        "consumption recorded a change above expectations in every quarter of the year."
    )
    assert main_language(english, ("eng",), DETECTED) is None


def test_the_language_re_read_takes_the_first_reading_s_straight_page(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The page read again in its language is the same image as the English reading's: its
    # skew is measured and its pixels turned straight once, for both readings.
    from prefect_docai.engines.page import raster

    page = table_page(
        1, lang="de", layout="single", scanned=True, dpi=200, look_alikes=False, records=False
    )
    straightened: list[float] = []
    deskew = raster.deskew

    def counted(gray: Any) -> raster.Deskewed:
        out = deskew(gray)
        straightened.append(out.angle)
        return out

    monkeypatch.setattr(raster, "deskew", counted)
    _, packs = _run(page.pdf, EngineOptions(language_hinted=False), monkeypatch)
    assert {"eng", "deu+eng"} <= packs  # read in English, then again in German
    assert len(straightened) == 1
