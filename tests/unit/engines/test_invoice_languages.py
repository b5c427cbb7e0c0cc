"""Invoice rules in French, Dutch, Italian and Spanish (issue #14): number and date labels,
dates that are not the invoice's (delivery, service period, order), month names, a number
closing the title line, the seller named only in the footer, bank names after an IBAN.
Small layouts built here, and grammar-generator documents read through the engine."""

from __future__ import annotations

from decimal import Decimal

import pytest
from tests.unit.engines.word_pages import layout as _layout
from tests.unit.engines.word_pages import words as _words

from prefect_docai.engines.extract.dates import parse_date
from prefect_docai.engines.invoice import InvoiceEngine
from prefect_docai.engines.invoice.fields import dates, invoice_number, join_digit_groups, totals
from prefect_docai.engines.invoice.parties import parties
from prefect_docai.engines.page.model import Word
from prefect_docai.engines.pluginspec import EngineOptions
from prefect_docai.models.results import InvoiceResult
from prefect_docai.samples.grammar import generate_varied


@pytest.mark.parametrize(
    ("label", "date_label"),
    [
        ("Fattura n.", "Data emissione"),
        ("Numero documento", "Data documento"),
        ("Factura nº", "Fecha de emisión"),
        ("Nº de factura", "Fecha factura"),
        ("Réf. facture", "Date de facturation"),
        ("Factuurnr.", "Datum factuur"),
    ],
)
def test_number_and_date_labels(label: str, date_label: str) -> None:
    layout = _layout(
        _words(0.20, (label, 0.08), ("2024/0815", 0.40)),
        _words(0.24, (date_label, 0.08), ("14/03/2024", 0.40)),
    )
    number = invoice_number([layout])
    invoice, _due, _delivery, _month_first = dates([layout])
    assert number is not None and number.value == "2024/0815"
    assert invoice is not None and invoice.value == "2024-03-14"


@pytest.mark.parametrize(
    "other",
    [
        "Data di consegna",
        "Date de prestation",
        "Livré le",
        "Fecha de entrega",
        "Date de commande",
        "Data ordine",
        "Leveringsdatum",
        "Scadenza",
        "Vencimiento",
    ],
)
def test_other_dates_printed_first_are_not_the_invoice_date(other: str) -> None:
    """The other date stands first (a generic ``Date``/``Data``/``Fecha`` label or the
    first date of the page would take it); the invoice's is under its own label."""
    layout = _layout(
        _words(0.20, (other, 0.08), ("Data", 0.40)),
        _words(0.23, ("02/03/2024", 0.08), ("14/03/2024", 0.40)),
    )
    invoice, _due, _delivery, _month_first = dates([layout])
    assert invoice is not None and invoice.value == "2024-03-14"


def test_unlabelled_date_skips_the_delivery_date_above_it() -> None:
    layout = _layout(
        _words(0.10, ("Periodo", 0.08), ("dal 01/02/2024 al 29/02/2024", 0.30)),
        _words(0.14, ("Milano, 05/03/2024", 0.60)),
    )
    invoice, _due, delivery, _month_first = dates([layout])
    assert delivery is not None and delivery.value == "2024-02-01"
    assert invoice is not None and invoice.value == "2024-03-05"


@pytest.mark.parametrize(
    ("text", "iso"),
    [
        ("5 de marzo de 2024", "2024-03-05"),
        ("3 settembre 2025", "2025-09-03"),
        ("12 mrt 2024", "2024-03-12"),
        ("1 ene 2024", "2024-01-01"),
        ("7. Mai 2014", "2014-05-07"),
    ],
)
def test_italian_spanish_and_dutch_month_names(text: str, iso: str) -> None:
    parsed = parse_date(text, every_language=True)
    assert parsed is not None and parsed.isoformat() == iso


@pytest.mark.parametrize(
    "title",
    ["Fattura di vendita 283/2025", "Note d'honoraires FAC20258858", "VOORSCHOTFACTUUR 2026-0822"],
)
def test_number_closing_the_title_line(title: str) -> None:
    layout = _layout(_words(0.20, (title, 0.08)), _words(0.30, ("Omschrijving Prezzo", 0.08)))
    number = invoice_number([layout])
    assert number is not None and number.value == title.split()[-1]


def test_seller_named_only_in_the_footer_and_not_the_bank() -> None:
    layout = _layout(
        _words(0.10, ("Martineau Conseil", 0.08)),
        _words(0.13, ("32, chemin Marguerite", 0.08)),
        _words(0.16, ("13688 Cohen", 0.08)),
        _words(0.70, ("IBAN FR7630004000000587331628819 BIC BNPAFRPP Nexi Payments S.p.A.", 0.08)),
        _words(0.92, ("Dupuy | 83, chemin de Gallet | 58838 Evrard | Tél. 0170443860", 0.08)),
    )
    seller, _buyer = parties([layout])
    assert seller.name is not None and seller.name.value == "Dupuy"


def _engine(data: bytes) -> InvoiceResult:
    result = InvoiceEngine().run(data, EngineOptions(output_formats=("JSON",))).result
    assert isinstance(result, InvoiceResult)
    return result


@pytest.mark.parametrize(("lang", "family"), [("fr", 7), ("nl", 10), ("it", 6), ("es", 13)])
def test_generated_invoices_read_in_each_language(lang: str, family: int) -> None:
    doc = generate_varied("invoice", seed=77, lang=lang, family=family)
    result = _engine(doc.pdf)
    assert result.invoice_number is not None
    assert result.invoice_number.value == doc.truth["number"]
    assert result.invoice_date is not None
    assert str(result.invoice_date.value) == doc.truth["date"]
    assert result.totals.gross is not None
    assert f"{Decimal(str(result.totals.gross.value)):.2f}" == doc.truth["gross"]


def test_other_engines_keep_their_month_names() -> None:
    """Italian and Spanish names are read for invoices only (receipt features unchanged)."""
    assert parse_date("3 settembre 2025") is None
    assert parse_date("7 mars 2024") is not None


def test_thousands_group_of_a_monospaced_scan_is_joined() -> None:
    """OCR of ``26 674,49`` in a monospaced face: the blank measures about one digit height
    ink to ink (the leading ``26`` was lost as a separate token); a column gap twice as wide
    still separates."""
    height, aspect = 0.0083, 0.7071
    unit = height / aspect

    def pair(gap: float) -> list[Word]:
        return [
            Word("26", (0.79, 0.45, 0.81, 0.45 + height), 0.9),
            Word("674,49", (0.81 + gap, 0.45, 0.87 + gap, 0.45 + height), 0.9),
        ]

    assert [t.text for t in join_digit_groups(pair(1.03 * unit), aspect)] == ["26\u202f674,49"]
    assert [t.text for t in join_digit_groups(pair(2.5 * unit), aspect)] == ["26", "674,49"]


def test_buyer_block_beside_the_seller_block_is_not_run_together() -> None:
    """Labelled blocks side by side ("Destinataire" | "Émetteur", the second within the
    first's reach): each party's lines are its own column's."""
    layout = _layout(
        _words(0.06, ("Destinataire", 0.13), ("Émetteur", 0.47)),
        _words(0.08, ("Vallet Alves S.A.", 0.13), ("Colin Dijoux SARL", 0.47)),
        _words(0.10, ("18, rue de Regnier", 0.13), ("46, boulevard Gabriel Vidal", 0.47)),
        _words(0.12, ("78540 Baudry", 0.13), ("78175 Grondinnec", 0.47)),
    )
    seller, buyer = parties([layout])
    assert buyer.name is not None and buyer.name.value == "Vallet Alves S.A."
    assert seller.name is not None and seller.name.value == "Colin Dijoux SARL"


@pytest.mark.parametrize(
    ("net", "gross"),
    [
        ("Totale imponibile", "Netto a pagare"),
        ("Subtotaal", "Factuurbedrag"),
        ("Total HT", "Net à payer"),
    ],
)
def test_amount_to_pay_words_name_the_gross_not_the_net(net: str, gross: str) -> None:
    layout = _layout(
        _words(0.60, (net, 0.55), ("6.474,92", 0.80)),
        _words(0.63, ("IVA 22 %", 0.55), ("1.424,48", 0.80)),
        _words(0.66, (gross, 0.55), ("7.899,40", 0.80)),
    )
    chosen = totals([layout], ",", None)
    assert chosen["net"] is not None and chosen["net"].value == Decimal("6474.92")
    assert chosen["gross"] is not None and chosen["gross"].value == Decimal("7899.40")


def test_the_date_scorer_sees_italian_and_spanish_dates() -> None:
    from prefect_docai.engines.invoice.scoring import date_spots

    layout = _layout(
        _words(0.20, ("Data emissione 3 settembre 2025", 0.08)),
        _words(0.23, ("Fecha 5 abr 2024", 0.08)),
    )
    assert {s.value for s in date_spots([layout])} == {"2025-09-03", "2024-04-05"}
