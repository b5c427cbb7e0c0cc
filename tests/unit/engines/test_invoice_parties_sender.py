"""Invoice seller names scanned invoices cut short or swap (issue #14): a compound legal form
read whole ("Ladeck AG & Co. KGaA", not "Ladeck AG"), a sender line OCR set as rows of a
few segments each or cut at a comma, a street without number or street word under the
name, and a letterhead block the footer imprint names again."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from prefect_docai.engines.extract.rows import PageLayout, build_layout
from prefect_docai.engines.invoice.labels import LEGAL_FORM
from prefect_docai.engines.invoice.parties import (
    _Piece,
    legal_names,
    parse_block,
    parties,
    sender_line,
)
from prefect_docai.engines.page.model import Word

Segment = tuple[float, float, float, str]
"""(x, top, height, text) of a segment: its words in a row, each its own box."""


def _layout(segments: Sequence[Segment]) -> PageLayout:
    tokens = []
    for x, top, height, text in segments:
        for word in text.split():
            width = 0.0075 * len(word)
            tokens.append(Word(word, (x, top, x + width, top + height), 1.0, font_size=9.0))
            x += width + 0.004
    return build_layout(1, tokens, 0.7071, "ocr")


def _lines(lines: Sequence[tuple[float, Sequence[tuple[float, str]]]]) -> PageLayout:
    return _layout([(x, y, 0.011, text) for y, parts in lines for x, text in parts])


def _name(value: object) -> str:
    return " ".join(str(value).split()).casefold()


@pytest.mark.parametrize(
    "name",
    [
        "Ladeck AG & Co. KGaA",
        "Brenner GmbH & Co. KGaA",
        "Vogt SE & Co. KGaA",
        "Kramer Ltd. & Co. KG",
        "Hahn UG (haftungsbeschränkt) & Co. KG",
        "Dupuis S.A.S.",
        "Lux Invest S.à r.l.",
        "Banca Riquelme S.A.T.",
        "Rossi Costruzioni S.r.l.",
        "Bakker Logistiek B.V.",
        "Holmes Trading Ltd.",
    ],
)
def test_legal_form_match_ends_with_the_whole_form(name: str) -> None:
    found = LEGAL_FORM.search(name)
    assert found is not None and name[: found.end()] == name


def test_letterhead_company_name_keeps_its_compound_legal_form() -> None:
    layout = _lines([(0.04, [(0.20, "Ladeck AG & Co. KGaA"), (0.80, "36963 Hettstedt")])])
    assert [_name(c.value) for c in legal_names([layout])][:1] == ["ladeck ag & co. kgaa"]


def test_sender_line_split_into_rows_by_ocr_is_read_as_one_line() -> None:
    # the legal form's tail sits a little lower than the name (its own row)
    layout = _layout(
        [
            (0.12, 0.143, 0.011, "Ladeck AG"),
            (0.185, 0.149, 0.008, "& Co. KGaA"),
            (0.26, 0.143, 0.011, "- Heiner-Juncken-Weg 83a - 36963 Hettstedt"),
            (0.12, 0.16, 0.011, "Schönland AG & Co. OHG"),
            (0.12, 0.175, 0.011, "Hauptstraße 4"),
            (0.12, 0.19, 0.011, "70896 Worbis"),
        ]
    )
    assert sum(1 for row in layout.rows if 0.14 < row.bbox[1] < 0.155) == 2  # OCR's rows
    sender = sender_line([layout])
    assert sender is not None and sender.name is not None
    assert _name(sender.name.value) == "ladeck ag & co. kgaa"
    seller, buyer = parties([layout])
    assert seller.name is not None and _name(seller.name.value) == "ladeck ag & co. kgaa"
    assert buyer.name is not None and _name(buyer.name.value) == "schönland ag & co. ohg"


def test_sender_line_separator_on_its_own_row() -> None:
    layout = _layout(
        [
            (0.12, 0.147, 0.011, "Bruder - Hans-Günther-Jopich-Platz 115a"),
            (0.43, 0.153, 0.003, "-"),
            (0.44, 0.149, 0.011, "98644 Fürstenwalde"),
        ]
    )
    assert len(layout.rows) >= 2
    sender = sender_line([layout])
    assert sender is not None and sender.name is not None
    assert _name(sender.name.value) == "bruder"
    assert sender.city is not None and str(sender.city.value) == "Fürstenwalde"


def test_sender_line_cut_at_a_comma_between_segments() -> None:
    layout = _lines(
        [
            (
                0.143,
                [
                    (0.13, "Russell,"),
                    (0.21, "O'Brien and Patel - 173 Ryan Pines - Samuelstad CB75 5GU"),
                ],
            )
        ]
    )
    assert [len(row.segments) for row in layout.rows] == [2]
    sender = sender_line([layout])
    assert sender is not None and sender.name is not None
    assert _name(sender.name.value) == "russell, o'brien and patel"


def test_sender_line_house_number_on_its_own_row_joins_its_street() -> None:
    layout = _layout(
        [
            (0.13, 0.143, 0.011, "Benson-Price -"),
            (0.26, 0.149, 0.008, "90"),
            (0.28, 0.143, 0.011, "Bailey Spur - Davidsonhaven WV6M 8WH"),
        ]
    )
    sender = sender_line([layout])
    assert len(layout.rows) == 2
    assert sender is not None and sender.name is not None and sender.street is not None
    assert _name(sender.name.value) == "benson-price"
    assert _name(sender.street.value) == "90 bailey spur"


def _pieces(*lines: str) -> list[_Piece]:
    return [_Piece(line, ()) for line in lines]


def test_street_without_number_under_the_name_is_the_street() -> None:
    party = parse_block(_pieces("Walker Group", "Duncan Falls", "Lake Lynne TW9M 3RR"), 0.75)
    assert party is not None and party.name is not None and party.street is not None
    assert _name(party.name.value) == "walker group"
    assert _name(party.street.value) == "duncan falls"


def test_salutation_over_a_name_without_street_keeps_the_name() -> None:
    party = parse_block(_pieces("Herrn", "Max Mustermann", "12345 Musterstadt"), 0.75)
    assert party is not None and party.name is not None and party.street is None
    assert "max mustermann" in _name(party.name.value)


def test_single_top_block_named_again_in_the_footer_columns_is_the_seller() -> None:
    layout = _lines(
        [
            (0.048, [(0.10, "Charlton-Parry"), (0.76, "Invoice R240516-16")]),
            (0.069, [(0.10, "106 Clifford Forest")]),
            (0.081, [(0.10, "Jonesport NP9 2UU")]),
            (0.125, [(0.10, "Thomas-Scott"), (0.60, "Invoice number"), (0.85, "R240516-16")]),
            (0.140, [(0.10, "128 Louise Coves"), (0.60, "Tax point"), (0.85, "16 May 2024")]),
            (0.155, [(0.10, "Mitchellmouth LO SET")]),
            (0.911, [(0.09, "Charlton-Parry"), (0.51, "Clearbank Limited")]),
            (0.922, [(0.09, "106 Clifford Forest"), (0.51, "IBAN GB26 CLRB 7722 1745 8290 03")]),
            (0.931, [(0.09, "Jonesport NP9 2UU"), (0.51, "BIC CLRBGB22")]),
        ]
    )
    seller, buyer = parties([layout])
    assert seller.name is not None and _name(seller.name.value) == "charlton-parry"
    assert buyer.name is None or _name(buyer.name.value) != "charlton-parry"


def test_rows_of_a_split_sender_line_stay_out_of_the_buyers_block() -> None:
    # the separator's row ("-") is no line of the buyer's block ("- Yates Inc")
    layout = _layout(
        [
            (0.12, 0.147, 0.011, "Bruder - Hans-Günther-Jopich-Platz 115a"),
            (0.406, 0.153, 0.003, "-"),
            (0.42, 0.147, 0.011, "98644 Fürstenwalde"),
            (0.12, 0.163, 0.011, "Yates Inc"),
            (0.12, 0.178, 0.011, "126 Talbot Road"),
            (0.12, 0.193, 0.011, "Hutchinsontown M3 7SJ"),
        ]
    )
    seller, buyer = parties([layout])
    assert seller.name is not None and _name(seller.name.value) == "bruder"
    assert buyer.name is not None and _name(buyer.name.value) == "yates inc"


@pytest.mark.parametrize(
    ("line", "name"),
    [
        ("Howell-Smith - 63 Clarke Crossing - Katherineton KTO OYR", "howell-smith"),
        ("Tucker-Taylor - 71 Terry Prairie - West Eleanorhaven WR6 82]", "tucker-taylor"),
    ],
)
def test_sender_line_whose_british_postcode_ocr_misread(line: str, name: str) -> None:
    layout = _lines(
        [
            (0.143, [(0.12, line)]),
            (0.16, [(0.12, "Lorraine Walker")]),
            (0.175, [(0.12, "90 Young Mall")]),
        ]
    )
    sender = sender_line([layout])
    assert sender is not None and sender.name is not None
    assert _name(sender.name.value) == name


def test_separated_line_without_street_and_postcode_is_no_sender() -> None:
    layout = _lines([(0.143, [(0.12, "Invoice - Page 1 of 2 - Thank you CB OAK")])])
    assert sender_line([layout]) is None


def test_labelled_seller_block_whose_british_postcode_ocr_misread() -> None:
    layout = _lines(
        [
            (0.059, [(0.13, "Invoice to"), (0.51, "From")]),
            (0.071, [(0.13, "Walker, Roberts and Burton"), (0.51, "Holmes Group")]),
            (0.089, [(0.13, "150 Fisher Drives"), (0.51, "143 Wayne Street")]),
            (0.105, [(0.13, "Port Lesleymouth JE0 5XU"), (0.51, "Juliashire G2) 5D}")]),
            (0.121, [(0.51, "VAT Reg. No. GB393492615")]),
        ]
    )
    seller, buyer = parties([layout])
    assert seller.name is not None and _name(seller.name.value) == "holmes group"
    assert buyer.name is not None and _name(buyer.name.value) == "walker, roberts and burton"


def test_digit_speck_between_name_and_contact_line_is_no_name() -> None:
    # OCR read a speck under the company's name as "5" (a scanned generated invoice)
    party = parse_block(
        _pieces(
            "Moore, Russell and Vincent", "5", "FAO Kelly Smith", "71 Oliver Flat", "Melissaside E72 5YD"
        ),
        0.75,
    )
    assert party is not None and party.name is not None
    assert _name(party.name.value) == "moore, russell and vincent"
