"""Invoice fields the held-out calibration found wrong at high confidence (issue #14), on
hand-built pages with invented names: a logo's monogram over the seller's name, a sender
line's street taken into the buyer's name, an OCR speck between street and postcode, a
speck before a company name, a row of several labelled dates, a page whose numeric dates
are all ambiguous but whose addresses are American, a fee note's title numbering the
invoice, and an insurer's premium totals."""

from __future__ import annotations

from tests.unit.engines.word_pages import layout as _layout
from tests.unit.engines.word_pages import words as _words

from prefect_docai.engines.invoice import parties as P
from prefect_docai.engines.invoice.fields import dates
from prefect_docai.engines.invoice.parties import parties
from prefect_docai.engines.invoice.text import extract_invoice
from prefect_docai.engines.page.model import Word


def _name(field: object) -> str:
    value = getattr(field, "value", None)
    return " ".join(str(value).split()).casefold()


def _big(y: float, text: str, x: float, size: float) -> list[Word]:
    """A line set in a larger face (a logo's letters)."""
    out = []
    for word in text.split():
        width = 0.02 * len(word)
        out.append(Word(word, (x, y, x + width, y + size), 1.0, font_size=9.0 * size / 0.012))
        x += width + 0.01
    return out


def test_a_logo_monogram_over_the_letterhead_is_not_part_of_the_sellers_name() -> None:
    for letters in ("KW", "En"):  # the logo's letters, and as OCR misread them
        page = _layout(
            _big(0.04, letters, 0.10, 0.03),
            _words(0.085, ("Kessler Werke GmbH", 0.10)),
            _words(0.10, ("Lindenstraße 4", 0.10)),
            _words(0.115, ("47110 Wendberg", 0.10)),
            _words(0.18, ("Rechnung an", 0.10), ("Rechnung Nr.", 0.57), ("RE-5531", 0.80)),
            _words(0.195, ("Moosbach Druck KG", 0.10), ("Rechnungsdatum", 0.57), ("14.02.2025", 0.80)),
            _words(0.21, ("Am Anger 9", 0.10)),
            _words(0.225, ("30159 Hannover", 0.10)),
        )
        seller, buyer = parties([page])
        assert _name(seller.name) == "kessler werke gmbh", letters
        assert _name(buyer.name) == "moosbach druck kg", letters


def test_a_sender_lines_street_row_is_not_joined_to_the_recipients_name() -> None:
    # The small sender line over the address window, its postcode and city lost by OCR,
    # a row the window's column takes in: "Name - Street" is no first half of the buyer's
    # name.
    page = _layout(
        _words(0.04, ("Rautenberg", 0.19), ("Kastanienallee 12", 0.79)),
        _words(0.146, ("Rautenberg - Kastanienallee", 0.12)),
        _words(0.161, ("Ostwind Solar e.V.", 0.12), ("Rechnungsnummer", 0.59), ("88120", 0.85)),
        _words(0.18, ("Birkenweg 85", 0.12)),
        _words(0.195, ("13294 Neustadt", 0.12)),
    )
    _, buyer = parties([page])
    assert _name(buyer.name) == "ostwind solar e.v."


def test_a_speck_line_between_street_and_postcode_leaves_the_name_standing() -> None:
    page = _layout(
        _words(0.060, ("Verkoper", 0.07), ("Aan", 0.51)),
        _words(0.074, ("Stichting Veldhoven", 0.07), ("Joris de Wit", 0.51)),
        _words(0.089, ("Kerkpad 1", 0.07), ("Dijkweg 47", 0.51)),
        [Word("_", (0.05, 0.0985, 0.058, 0.1005), 0.4, font_size=9.0)],  # a speck, OCR'd
        _words(0.103, ("5888 NS Ossendrecht", 0.07), ("9848 AF Aldeboarn", 0.51)),
    )
    seller, buyer = parties([page])
    assert _name(seller.name) == "stichting veldhoven"
    assert _name(buyer.name) == "joris de wit"


def test_a_speck_before_a_company_name_is_cut_off() -> None:
    assert P.strip_junk("G) Finanzas Ruiz S.C.P") == "Finanzas Ruiz S.C.P"
    assert P.strip_junk("| Moosbach Druck KG") == "Moosbach Druck KG"
    assert P.strip_junk("A. Meier GmbH") == "A. Meier GmbH"  # an initial stays
    page = _layout(
        _words(0.04, ("G) Finanzas Ruiz S.C.P", 0.06)),
        _words(0.13, ("Marta Gil Soto", 0.06)),
        _words(0.145, ("Calle Mayor 76", 0.06)),
        _words(0.16, ("40854 Badajoz", 0.06)),
        _words(0.90, ("Finanzas Ruiz S.C.P - Calle del Río 3 - 28001 Madrid", 0.06)),
    )
    result = extract_invoice([page], "text-layer")
    assert _name(result.seller.name) == "finanzas ruiz s.c.p"


def test_a_row_of_labelled_dates_gives_each_date_its_own_label() -> None:
    page = _layout(
        _words(0.05, ("Harlow Tools Ltd, 12 Mill Lane, Leeds LS1 4AB", 0.10)),
        _words(0.23, ("Fee Note", 0.76)),
        _words(
            0.27,
            ("Ref.: XB551200 Created: 19/09/2026 Client ref.: 83208 Supply date: 16/09/2026", 0.10),
        ),
        _words(0.48, ("Total due", 0.65), ("2,887.93 GBP", 0.78)),
    )
    found = dates([page]).invoice
    assert found is not None and found.value == "2026-09-19"
    result = extract_invoice([page], "text-layer")
    assert result.invoice_date is not None and result.invoice_date.value == "2026-09-19"


def test_ambiguous_dates_on_an_american_page_read_month_first() -> None:
    page = _layout(
        _words(0.13, ("Carter, Quinn and Lowe, 127 Kane Light, Brookfield, IL 23988", 0.10)),
        _words(0.143, ("Dalton, Webb and Ortiz", 0.10)),
        _words(0.158, ("89 Harbor Mews", 0.10)),
        _words(0.173, ("East Milford, OH 43894", 0.10)),
        _words(0.27, ("Invoice date: 06/09/2026", 0.10), ("Ship date: 06/06/2026", 0.55)),
        _words(0.48, ("Total due", 0.65), ("2,887.93 USD", 0.78)),
    )
    assert dates([page]).month_first
    result = extract_invoice([page], "text-layer")
    assert result.invoice_date is not None and result.invoice_date.value == "2026-06-09"
    # the same dates under British addresses stay day-first
    british = _layout(
        _words(0.13, ("Harlow Tools Ltd, 12 Mill Lane, Leeds LS1 4AB", 0.10)),
        _words(0.27, ("Invoice date: 06/09/2026", 0.10), ("Ship date: 06/06/2026", 0.55)),
    )
    assert not dates([british]).month_first


def test_a_fee_notes_title_numbers_the_invoice_not_the_order_number() -> None:
    page = _layout(
        _words(0.04, ("Bufete Lorca S.L.", 0.06)),
        _words(0.13, ("Marta Gil Soto", 0.06)),
        _words(0.145, ("Calle Mayor 76", 0.06)),
        _words(0.16, ("40854 Badajoz", 0.06)),
        _words(0.22, ("Minuta de honorarios 253657", 0.30)),
        _words(0.25, ("Fecha de emisión:", 0.57), ("23/11/2024", 0.85)),
        _words(0.27, ("N° de pedido:", 0.57), ("67267", 0.88)),
        _words(0.29, ("Fecha de pedido:", 0.57), ("28/09/2024", 0.85)),
    )
    result = extract_invoice([page], "text-layer")
    assert result.invoice_number is not None and result.invoice_number.value == "253657"


def test_an_insurers_premium_totals_settle_net_and_gross() -> None:
    page = _layout(
        _words(0.05, ("Hanse Vorsorge VVaG", 0.12)),
        _words(0.34, ("Beitragsrechnung", 0.12), ("24. Januar 2025", 0.71)),
        _words(0.53, ("Privathaftpflicht", 0.12), ("80,00 €", 0.49)),
        _words(0.56, ("Gesamtbeitrag", 0.12), ("80,00 €", 0.49)),
        _words(0.576, ("Versicherungsteuer 19 %", 0.12), ("15,20 €", 0.50)),
        _words(0.592, ("Rechnungsbeitrag", 0.12), ("95,20 €", 0.49)),
    )
    result = extract_invoice([page], "text-layer")
    assert result.totals.gross is not None and str(result.totals.gross.value) == "95.20"
    assert result.totals.net is not None and str(result.totals.net.value) == "80.00"



def test_a_party_label_over_the_sellers_block_is_not_part_of_its_name() -> None:
    # the seller's postcode misread ("1" as "I"), so its labelled block does not parse and
    # the name comes from its legal form, with the line above it when that is a first half
    page = _layout(
        _words(0.059, ("Invoice to", 0.13), ("From", 0.51)),
        _words(0.074, ("Nora Hale", 0.13), ("Fenwick PLC", 0.51)),
        _words(0.089, ("145 Hartley Crest", 0.13), ("1 Marlow Alley", 0.51)),
        _words(0.105, ("Westbury L9 6GB", 0.13), ("Moorefort NEIM 1QA", 0.51)),
    )
    result = extract_invoice([page], "text-layer")
    assert _name(result.seller.name) == "fenwick plc"


def test_an_invoice_number_ocr_cut_at_a_gap_is_read_whole_where_the_page_prints_it_whole() -> None:
    from prefect_docai.engines.invoice.fields import invoice_number

    def page(labelled: str, title: str) -> list[Word]:
        return [
            *_words(0.04, ("Harlow Supplies Ltd", 0.17)),
            *_words(0.16, ("Kingsley Group", 0.12), ("Invoice No.", 0.55), (labelled, 0.75)),
            *_words(0.18, ("Date", 0.55), ("20 Feb 2026", 0.75)),
            *_words(0.32, (title, 0.10)),
        ]

    cut = invoice_number([_layout(page("KT-2026-06 142", "INVOICE KT-2026-06142"))])
    assert cut is not None and cut.value == "KT-2026-06142"
    # the next word joins only where the page prints the joined id
    apart = invoice_number([_layout(page("KT-2026-06 142", "INVOICE"))])
    assert apart is not None and apart.value == "KT-2026-06"


def test_a_buyers_vat_id_whose_label_ocr_set_apart_is_not_the_sellers() -> None:
    from prefect_docai.engines.extract.tax import vat_ids

    # "Ihre USt-IdNr." and the id in segments of their own (a wide gap between them);
    # the footer's seller id lost to OCR
    page = _layout(
        _words(0.04, ("Lindauer Metall AG", 0.17)),
        _words(0.16, ("Rechnung Nr.", 0.55), ("2025-4157", 0.75)),
        _words(0.24, ("Ihre USt-IdNr.", 0.55), ("DE164499247", 0.75)),
    )
    seller, buyer = vat_ids([page])
    assert seller is None
    assert buyer is not None and buyer.value == "DE164499247"


def test_a_misread_buyers_label_set_apart_does_not_outscore_the_sellers_labelled_id() -> None:
    from prefect_docai.engines.extract.tax import vat_ids

    # "Ihre" read as "thre": the id is no longer the buyer's, but it gains no label score
    # either, so the footer's labelled seller id stays the seller's
    page = _layout(
        _words(0.04, ("Lindauer Metall AG", 0.17)),
        _words(0.19, ("thre USt-IdNr.", 0.55), ("DE150231154", 0.75)),
        _words(0.92, ("Lindauer Metall AG", 0.10), ("USt-IdNr. DE765121012", 0.60)),
    )
    seller, _ = vat_ids([page])
    assert seller is not None and seller.value == "DE765121012"
