"""Grammar-generator invoices in French, Dutch, Italian and Spanish: parseable PDFs whose
truth values are printed, distractor dates that are not the invoice date, deterministic."""

from __future__ import annotations

import datetime as dt
import os
import random
import re
import subprocess
import sys

import pypdfium2 as pdfium
import pytest
from babel.dates import format_date
from stdnum import vatin

from prefect_docai.samples.grammar import INVOICE_LANGS, generate_varied
from prefect_docai.samples.grammar.intl import INTL_LANGS, NUMBER_LABELS
from prefect_docai.samples.parties import euro_vat_id


def _text(pdf: bytes) -> str:
    doc = pdfium.PdfDocument(pdf)
    try:
        return "\n".join(page.get_textpage().get_text_range() for page in doc)
    finally:
        doc.close()


def _date_forms(day: dt.date, locale: str) -> set[str]:
    numeric = {day.strftime(f) for f in ("%d/%m/%Y", "%d.%m.%Y", "%d-%m-%Y", "%d/%m/%y")}
    return numeric | {str(format_date(day, format="long", locale=locale))}


def _amount_printed(text: str, value: str) -> bool:
    """``value`` (``1234.56``) printed with a decimal comma and any grouping (or none)."""
    whole, cents = value.split(".")
    for match in re.finditer(r"\d{1,3}(?:[ .\u00a0]\d{3})*,\d{2}|\d+,\d{2}", text):
        digits = re.sub(r"\D", "", match.group(0))
        if digits == whole + cents:
            return True
    return False


@pytest.mark.parametrize("lang", INTL_LANGS)
def test_each_language_prints_its_truth(lang: str) -> None:
    seats = set()
    for family in range(0, 24, 3):
        doc = generate_varied("invoice", seed=40 + family, lang=lang, family=family)
        assert doc.lang == lang and doc.pdf.startswith(b"%PDF")
        truth = doc.truth
        text = _text(doc.pdf)
        flat = " ".join(text.split())
        assert truth["number"] in flat
        assert truth["seller"] in flat
        assert any(form in flat for form in _date_forms(dt.date.fromisoformat(truth["date"]),
                                                        truth["locale"]))  # fmt: skip
        for key in ("net", "tax", "gross"):
            assert _amount_printed(flat, truth[key]), (key, truth[key])
        assert truth["net"] != truth["gross"]
        seats.add(truth["seat"])
    assert len(seats) >= 3  # letterhead, seller block beside the buyer, logo/footer only


@pytest.mark.parametrize("lang", INTL_LANGS)
def test_distractor_dates_and_thousands(lang: str) -> None:
    """Over a few documents: delivery/period/due dates other than the invoice date appear,
    and totals in the thousands print a grouping separator."""
    distractors = grouped = 0
    for seed in range(12):
        doc = generate_varied("invoice", seed=seed, lang=lang, family=seed % 24)
        for key in ("delivery", "due", "order_date"):
            if key in doc.truth:
                assert doc.truth[key] != doc.truth["date"]
                distractors += 1
        if float(doc.truth["gross"]) >= 1000:
            whole = doc.truth["gross"].split(".")[0]
            grouped += bool(re.search(rf"{whole[:-3]}[ .\u00a0]{whole[-3:]},", _text(doc.pdf)))
    assert distractors >= 4
    assert grouped >= 3


def test_labels_are_the_languages_own() -> None:
    doc = generate_varied("invoice", seed=3, lang="fr", family=5)
    text = _text(doc.pdf)
    assert any(word in text for word in ("HT", "TVA", "TTC"))
    assert not any(word in text for word in ("Invoice", "Rechnung", "Subtotal"))
    assert all(NUMBER_LABELS[lang] for lang in INTL_LANGS)


def test_deterministic_and_seeded() -> None:
    a = generate_varied("invoice", seed=9, lang="it", family=4)
    b = generate_varied("invoice", seed=9, lang="it", family=4)
    c = generate_varied("invoice", seed=10, lang="it", family=4)
    assert a.pdf == b.pdf and a.truth == b.truth
    assert a.truth["number"] != c.truth["number"] or a.truth["gross"] != c.truth["gross"]


def test_other_types_stay_german_and_english() -> None:
    assert INVOICE_LANGS == ("de", "en", "fr", "nl", "it", "es")
    with pytest.raises(ValueError, match="unsupported language"):
        generate_varied("letter", seed=1, lang="fr")


@pytest.mark.parametrize("country", ["FR", "NL", "IT", "ES"])
def test_vat_ids_pass_their_check_digits(country: str) -> None:
    rng = random.Random(7)
    for _ in range(20):
        number = euro_vat_id(rng, country)
        assert number.startswith(country)
        assert vatin.is_valid(number), number


_TEXT_OF_SEED_3 = (
    "import sys, pypdfium2 as pdfium; from prefect_docai.samples.grammar import generate_varied; "
    "d = generate_varied('invoice', seed=3, lang=sys.argv[1]); doc = pdfium.PdfDocument(d.pdf); "
    "print(''.join(p.get_textpage().get_text_range() for p in doc)); print(sorted(d.truth.items()))"
)


@pytest.mark.parametrize("lang", INTL_LANGS)
def test_the_same_seed_gives_the_same_document_in_every_process(lang: str) -> None:
    # Faker's it_IT city list is built from a set: without sorting it, each process (its own
    # PYTHONHASHSEED) printed another city for the same seed.
    outputs = {
        subprocess.run(
            [sys.executable, "-c", _TEXT_OF_SEED_3, lang],
            env={**os.environ, "PYTHONHASHSEED": hash_seed},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for hash_seed in ("1", "2", "3")
    }
    assert len(outputs) == 1


def _english_dates(day: dt.date, locale: str) -> set[str]:
    forms = ("%d/%m/%Y", "%m/%d/%Y", "%d %b %Y", "%b %d, %Y", "%m/%d/%y", "%d.%m.%Y")
    return {day.strftime(f) for f in forms} | {str(format_date(day, format="long", locale=locale))}


def test_english_invoices_of_the_intl_composer() -> None:
    """``composer="intl"``: English invoices with the same distractor dates and seats,
    British or American, amounts with a decimal point and comma grouping."""
    seats, locales, distractors = set(), set(), 0
    for family in range(0, 24, 2):
        doc = generate_varied(
            "invoice", seed=60 + family, lang="en", family=family, composer="intl"
        )
        truth = doc.truth
        flat = " ".join(_text(doc.pdf).split())
        assert truth["number"] in flat and truth["seller"] in flat
        day = dt.date.fromisoformat(truth["date"])
        assert any(form in flat for form in _english_dates(day, truth["locale"]))
        for key in ("net", "tax", "gross"):
            whole, cents = truth[key].split(".")
            grouped = f"{int(whole):,}.{cents}"
            assert grouped in flat or f"{whole}.{cents}" in flat, (key, truth[key])
        assert not any(word in flat for word in ("Rechnung", "Facture", "TVA", "MwSt"))
        seats.add(truth["seat"])
        locales.add(truth["locale"])
        distractors += sum(key in truth for key in ("delivery", "due", "order_date", "period"))
    assert len(seats) >= 3 and locales == {"en_GB", "en_US"} and distractors >= 4


def test_composer_choice_is_checked() -> None:
    plain = generate_varied("invoice", seed=5, lang="en", family=2)
    rich = generate_varied("invoice", seed=5, lang="en", family=2, composer="intl")
    assert "seat" in rich.truth and "seat" not in plain.truth
    for kwargs in ({"lang": "de"}, {"lang": "en", "doc_type": "letter"}):
        args = {"doc_type": "invoice", "seed": 1, **kwargs}
        with pytest.raises(ValueError, match="composer"):
            generate_varied(args.pop("doc_type"), composer="intl", **args)
