"""Invoice seller and number on layouts real invoices share (issue #14): the seller's block
printed beside the buyer's and named again in the page footer, a salutation that is no
company name, a footer imprint with a British address, bare number labels and titles."""

from __future__ import annotations

from tests.unit.engines.invoice_layouts import Line
from tests.unit.engines.invoice_layouts import layout as _layout

from prefect_docai.engines.invoice.fields import invoice_number
from prefect_docai.engines.invoice.labels import GENERIC_NUMBER, INVOICE_TITLE
from prefect_docai.engines.invoice.parties import footer_name, legal_names, parties


def _name(value: object) -> str:
    return " ".join(str(value).split()).casefold()


SIDE_BY_SIDE: list[Line] = [
    (0.07, [(0.09, "Facture 2024/1740")]),
    (0.11, [(0.09, "Brun"), (0.52, "Andre SARL")]),
    (0.125, [(0.09, "24, rue Berthelot"), (0.52, "207, rue Philippine Blot")]),
    (0.14, [(0.09, "69850 Paris"), (0.52, "26812 Traore-sur-Guyot")]),
    (0.155, [(0.09, "N° TVA FR67201759016")]),
    (0.22, [(0.56, "Date de facture :"), (0.81, "26.12.2024")]),
    (0.93, [(0.09, "Brun | 24, rue Berthelot | 69850 Paris | N° TVA FR67201759016")]),
]


def test_seller_block_beside_the_buyer_named_again_in_the_footer() -> None:
    seller, buyer = parties([_layout(SIDE_BY_SIDE)])
    assert seller.name is not None and _name(seller.name.value) == "brun"
    assert buyer.name is not None and _name(buyer.name.value) == "andre sarl"


def test_left_block_without_a_footer_imprint_stays_the_buyer() -> None:
    seller, buyer = parties([_layout(SIDE_BY_SIDE[:-1])])
    assert buyer.name is not None and _name(buyer.name.value) == "brun"
    assert seller.name is None or _name(seller.name.value) != "brun"


def test_company_named_by_the_footer_wins_over_the_buyers_legal_name() -> None:
    layout = _layout(
        [
            (0.18, [(0.54, "Lemaître S.A.S.")]),
            (0.20, [(0.54, "41, chemin de Lesage")]),
            (0.22, [(0.54, "15691 Saint Manonnec")]),
            (0.91, [(0.13, "Lagarde SARL | 18, rue de Rodrigues | 83539 Dumontnec | IBAN")]),
        ]
    )
    seller, _buyer = parties([layout])
    assert seller.name is not None and _name(seller.name.value) == "lagarde sarl"


def test_salutation_and_body_text_are_no_company_name() -> None:
    layout = _layout(
        [
            (0.28, [(0.12, "Hello Walter,")]),
            (0.30, [(0.12, "we charge you for our services as follows:")]),
            (0.50, [(0.12, "Fjord Shipping AS")]),
        ]
    )
    names = [_name(c.value) for c in legal_names([layout])]
    assert names == ["fjord shipping as"]


def test_footer_imprint_with_a_british_address() -> None:
    layout = _layout(
        [
            (
                0.93,
                [(0.07, "Nicholls Group | 150 Lewis Trail | South Elliotview L3T 1HQ | Tel 0161")],
            )
        ]
    )
    found = footer_name([layout], None)
    assert found is not None and found.value == "Nicholls Group"
    # a footer of other parts (no address after the first) names no seller
    other = _layout([(0.93, [(0.07, "Thank you | Page 1 of 2 | Terms apply")])])
    assert footer_name([other], None) is None


def test_bare_number_labels_and_titles() -> None:
    assert GENERIC_NUMBER.search("nr. 04/25 erstellt am")
    assert GENERIC_NUMBER.search("number") and not GENERIC_NUMBER.search("kunden-nr.")
    assert INVOICE_TITLE.search("ihre rechnung 04/25") and INVOICE_TITLE.search("faktura 17")
    assert INVOICE_TITLE.search("bill kv298106") and not INVOICE_TITLE.search("bill to")
    assert not INVOICE_TITLE.search("bill smith")
    generic = _layout(
        [
            (0.26, [(0.10, "Number"), (0.22, "KV298106")]),
            (0.27, [(0.10, "Dated"), (0.22, "Oct 20, 2024")]),
        ]
    )
    found = invoice_number([generic])
    assert found is not None and found.value == "KV298106"
    titled = _layout([(0.10, [(0.61, "Faktura 2025-2689")])])
    found = invoice_number([titled])
    assert found is not None and found.value == "2025-2689"
    # a labelled invoice number outranks a bare "Nr." (a customer's or an order's)
    both = _layout(
        [
            (0.20, [(0.10, "Nr."), (0.25, "70243")]),
            (0.22, [(0.10, "Invoice number"), (0.25, "INV-2025-0042")]),
        ]
    )
    found = invoice_number([both])
    assert found is not None and found.value == "INV-2025-0042"


def test_account_number_after_the_invoice_date_is_no_title_number() -> None:
    from prefect_docai.engines.invoice.labels import INVOICE_NUMBER_IN_TITLE

    assert not INVOICE_NUMBER_IN_TITLE.search("invoice date mar 19, 2026 account no. 66291")
    assert INVOICE_NUMBER_IN_TITLE.search("rechnung (380) nr. 4711 vom")
    layout = _layout(
        [
            (0.30, [(0.39, "Invoice 2026/9073")]),
            (0.37, [(0.17, "Invoice Date Mar 19, 2026 Account no. 66291")]),
        ]
    )
    found = invoice_number([layout])
    assert found is not None and found.value == "2026/9073"


def test_ship_date_is_not_the_invoice_date() -> None:
    from prefect_docai.engines.invoice.fields import dates

    layout = _layout(
        [
            (0.27, [(0.07, "Ship date"), (0.50, "Date")]),
            (0.28, [(0.07, "Jan 20, 2026"), (0.50, "Feb 09, 2026")]),
        ]
    )
    invoice, _due, delivery, _month_first = dates([layout])
    assert invoice is not None and invoice.value == "2026-02-09"
    assert delivery is not None and delivery.value == "2026-01-20"


def test_bank_over_its_account_is_no_seller_and_the_footer_column_names_the_issuer() -> None:
    from prefect_docai.engines.invoice.parties import footer_block

    lines: list[Line] = [
        (0.55, [(0.10, "Crown Agents Bank Limited"), (0.40, "IBAN: GB75 CRAS 3659 7110 5221 99")]),
        (0.91, [(0.10, "Bennett-Chapman"), (0.52, "Mizuho Bank, Ltd.")]),
        (0.92, [(0.10, "13 Anderson Bridge"), (0.52, "IBAN GB69 MHCB 6937 8051 2310 97")]),
        (0.93, [(0.10, "Lake Matthewfort E6 6YQ"), (0.52, "BIC MHCBGB2LXXX")]),
    ]
    layout = _layout(lines)
    assert legal_names([layout]) == []
    found = footer_block([layout], None)
    assert found is not None and found.value == "Bennett-Chapman"
    seller, _buyer = parties([layout])
    assert seller.name is not None and seller.name.value == "Bennett-Chapman"
    # a bank issuing its own invoice, no account printed beside its name, stays a seller
    own = _layout([(0.05, [(0.10, "Banca Privada Riquelme S.A.")])])
    assert [c.value for c in legal_names([own])] == ["Banca Privada Riquelme S.A."]


def test_totals_without_tax_are_net_in_every_language() -> None:
    from prefect_docai.engines.invoice.fields import _total_kind

    for label in (
        "Total sin IVA",
        "Totale senza IVA",
        "Imponibile IVA esclusa",
        "Total hors TVA",
        "Totaal zonder BTW",
        "Total ex VAT",
        "Pre-tax total",
    ):
        assert _total_kind(label) == [("net", 1.0)], label
    assert _total_kind("Total (IVA incl.)") == [("gross", 1.0)]
    assert _total_kind("IVA 21 %") == [("tax", 1.0)]
