"""Invoice seller and number on scans (issue #14): characters Tesseract confuses, read back
where their place says what they must be — a British postcode's 0 read as the letter O
(the address line, hence the seller's block, was lost), a Spanish "nº" read as "n.2" or
"N?" (the label was lost and "n.2" taken for the invoice number)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from tests.unit.engines.invoice_layouts import Line, layout

from prefect_docai.engines.extract.address import postcode_city, uk_postcode
from prefect_docai.engines.extract.rows import PageLayout
from prefect_docai.engines.invoice.fields import invoice_number
from prefect_docai.engines.invoice.labels import INVOICE_NUMBER
from prefect_docai.engines.invoice.parties import footer_name, parties


def _layout(lines: Sequence[Line]) -> PageLayout:
    return layout(lines, source="ocr", confidence=0.9)


@pytest.mark.parametrize(
    ("line", "postcode", "city"),
    [
        ("Annettehaven M7W OLB", "M7W 0LB", "Annettehaven"),  # sector digit
        ("Port Tonyport KAOP 9GF", "KA0P 9GF", "Port Tonyport"),  # district digit
        ("Wilsonberg NO 8GY", "N0 8GY", "Wilsonberg"),  # one-letter area
        ("Maryland LD51 OER", "LD51 0ER", "Maryland"),
        ("SW1A OAA London", "SW1A 0AA", "London"),  # postcode first
        ("Southampton SO15 2AB", "SO15 2AB", "Southampton"),  # the area's O is a letter
        ("London W1O 4AB", "W10 4AB", "London"),
    ],
)
def test_british_postcode_with_a_zero_read_as_o(line: str, postcode: str, city: str) -> None:
    assert postcode_city(line) == (postcode, city, None)


def test_letters_in_a_postcodes_shape_without_a_digit_are_words() -> None:
    assert uk_postcode("GO OAK") is None
    assert postcode_city("Stratford GO OAK") is None
    assert uk_postcode("M7W 0LB") == "M7W 0LB"
    # an item line of a receipt: no postcode ends in K, C, I, M, O or V
    assert postcode_city("KCL SOH HOON 5KG") is None


def test_seller_block_over_a_misread_british_postcode() -> None:
    layout = _layout(
        [
            (0.05, [(0.08, "Gill, Cooper and Patel")]),
            (0.065, [(0.08, "173 Liam Springs")]),
            (0.08, [(0.08, "Annettehaven M7W OLB")]),
            (0.20, [(0.08, "Bill to")]),
            (0.215, [(0.08, "Rhys Evans")]),
            (0.23, [(0.08, "4 Byrne Road")]),
            (0.245, [(0.08, "Byrneburgh B8U 1SY")]),
        ]
    )
    seller, buyer = parties([layout])
    assert seller.name is not None and seller.name.value == "Gill, Cooper and Patel"
    assert seller.postal_code is not None and seller.postal_code.value == "M7W 0LB"
    assert buyer.name is not None and buyer.name.value == "Rhys Evans"


def test_footer_imprint_over_a_misread_british_postcode() -> None:
    footer = "Dobson-Sullivan | 98 Pugh Cliff | Port Tonyport KAOP 9GF | VAT Reg. No GB328696906"
    found = footer_name([_layout([(0.93, [(0.07, footer)])])], None)
    assert found is not None and found.value == "Dobson-Sullivan"


@pytest.mark.parametrize(
    "label", ["Factura n.2:", "Factura N2", "N? factura:", "N2 de factura:", "Facture N?"]
)
def test_number_sign_read_as_2_or_question_mark(label: str) -> None:
    assert INVOICE_NUMBER.search(label.lower())
    layout = _layout(
        [
            (0.10, [(0.55, label), (0.75, "2024-735")]),
            (0.12, [(0.55, "Fecha:"), (0.75, "12/03/2025")]),
        ]
    )
    found = invoice_number([layout])
    assert found is not None and found.value == "2024-735"


def test_a_number_after_n_dot_is_no_misread_sign() -> None:
    # "n.25" and "n. 2" are numbers after the abbreviation, not a misread "nº"
    assert not INVOICE_NUMBER.search("pedido n.25")
    assert not INVOICE_NUMBER.search("factura n.25")
    assert not INVOICE_NUMBER.search("n.2 pedido")
