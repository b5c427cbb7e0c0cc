"""Receipt field rules on small hand-built layouts: the OCR-damaged shapes real till
receipts come back in (split amounts, glued currency prefixes, garbled keywords and dates,
one-line merchant + branch, reg-number lines), without running Tesseract."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from prefect_docai.engines.extract.rows import PageLayout, Row, build_layout
from prefect_docai.engines.page.model import Word
from prefect_docai.engines.receipt.dates import receipt_date
from prefect_docai.engines.receipt.extract import extract_receipt
from prefect_docai.engines.receipt.items import find_items
from prefect_docai.engines.receipt.labels import repair_words
from prefect_docai.engines.receipt.merchant import (
    clean_text,
    correct_address_words,
    merchant,
    unify_spellings,
)
from prefect_docai.engines.receipt.totals import analyse_totals

CHAR = 0.011
LINE = 0.025


def layout(lines: list[str | tuple[str, ...]], *, width: float = 0.9) -> PageLayout:
    """A receipt page: each line is one left-aligned string, or segments spread across the
    line with the last flush right (label … amount)."""
    tokens: list[Word] = []
    for number, line in enumerate(lines):
        y = 0.03 + number * LINE
        segments = (line,) if isinstance(line, str) else line
        starts = [0.05] if len(segments) == 1 else [
            0.05 + i * (width - 0.05) / len(segments) for i in range(len(segments))
        ]
        for position, (segment, start) in enumerate(zip(segments, starts, strict=True)):
            words = segment.split()
            length = len(segment) * CHAR
            x = width - length if position == len(segments) - 1 and position > 0 else start
            for word in words:
                x1 = x + len(word) * CHAR
                tokens.append(Word(word, (x, y, x1, y + 0.012), 0.9))
                x = x1 + CHAR
    return build_layout(1, tokens, 0.5, "ocr")


def rows_of(lines: list[str | tuple[str, ...]]) -> list[Row]:
    return layout(lines).rows


def total_of(lines: list[str | tuple[str, ...]], separator: str | None = ".") -> Decimal | None:
    found = analyse_totals(rows_of(lines), separator).total
    return None if found is None else Decimal(str(found.value))


# --- totals -------------------------------------------------------------------------


def test_glued_currency_prefix_loses_to_the_repeated_reading() -> None:
    # "RM8.20" read as "$8.20" on one line and as "58.20" on the "Nett Total" line.
    lines: list[str | tuple[str, ...]] = [
        ("Vegetable", "7.10"),
        ("Rice", "1.10"),
        ("Total Amount:", "$8.20"),
        ("GST @0%:", "0.00"),
        ("Nett Total:", "58.20"),
        ("CASH", "$8.20"),
        ("Change", "0.00"),
    ]
    assert total_of(lines) == Decimal("8.20")


def test_subtotal_plus_tax_beats_the_tax_table_total_row() -> None:
    lines: list[str | tuple[str, ...]] = [
        ("TAPE 18MM", "6.60"),
        ("CORRECTION PEN", "10.38"),
        ("SUB-", "16.98"),
        ("TOTAL TAX", "1.02"),
        ("~", "18.00"),
        ("CHANGE", "0.00"),
        "GST SUMMARY",
        ("SR", "6.00", "16.98", "1.02"),
        ("TOTAL:", "16.98", "1.02"),
    ]
    assert total_of(lines) == Decimal("18.00")


def test_split_amount_and_tendered_minus_change_outvote_a_misread_net_line() -> None:
    lines: list[str | tuple[str, ...]] = [
        ("MILK THISTLE", "72.35"),
        ("TRILON CRM", "7.00"),
        ("TOTAL (Including GST)", "79. 35"),
        ("ROUNDING", "0.00"),
        ("NET", "179.35"),
        ("TENDER", "100.00"),
        ("CHANGE/BALANCE", "20.65"),
    ]
    assert total_of(lines) == Decimal("79.35")


def test_garbled_total_keyword_and_cash_change_in_german() -> None:
    lines: list[str | tuple[str, ...]] = [
        ("Bananen", "0,19 A"),
        ("Rum", "9,69 B"),
        ("T OT Al", "19,58"),
        ("Bar", "20,00"),
        ("Rückgeld", "-0,42"),
        ("MWST", "Netto", "Brutto"),
        ("Summe", "1,91", "17,67", "19,98"),
    ]
    assert total_of(lines, ",") == Decimal("19.58")


def test_tax_table_sum_is_not_preferred_over_the_card_payment() -> None:
    lines: list[str | tuple[str, ...]] = [
        ("KIWI", "1,99"),
        ("Mastercard", "EUR 12,07"),
        ("MwSt", "Netto", "Brutto"),
        ("Summe", "1,91", "10,16", "12,01"),
    ]
    assert total_of(lines, ",") == Decimal("12.07")


def test_total_after_the_rounding_line_is_the_final_one() -> None:
    lines: list[str | tuple[str, ...]] = [
        ("Dry Curry", "12.28"),
        ("Sub Total", "24.46"),
        ("10% Srv Chg:", "2.45"),
        ("GST @6%", "1.61"),
        ("Total:", "28.52"),
        ("Rounding:", "-0.02"),
        ("Total:", "28.50"),
    ]
    assert total_of(lines) == Decimal("28.50")


def test_total_inclusive_of_tax_is_a_total_line() -> None:
    lines: list[str | tuple[str, ...]] = [
        ("COMPRESSOR OIL", "25.85"),
        ("Total Sales (Excluding GST)", "24.39"),
        ("Total GST", "1.46"),
        ("Total Incl. GST @6%", "25.85"),
        ("Cash", "50.00"),
    ]
    assert total_of(lines) == Decimal("25.85")


def test_total_from_the_tax_table_when_the_amount_column_is_lost() -> None:
    # A photo whose right-hand column OCR lost: only the VAT table is left to read.
    lines: list[str | tuple[str, ...]] = [
        "Waschmittel",
        "Butter 250g",
        ("MwSt", "Netto", "Steuer", "Brutto"),
        ("A 19 %", "33,21", "6,31", "39,52"),
        ("B 7 %", "8,01", "0,56", "8,57"),
    ]
    assert total_of(lines, ",") == Decimal("48.09")
    single = [*lines[:4]]
    assert total_of(single, ",") == Decimal("39.52")


def test_amounts_on_their_own_rows_and_a_zero_rate_vat_table() -> None:
    # A skewed photo: each amount lands on a row of its own under its keyword.
    lines: list[str | tuple[str, ...]] = [
        ("Bread", "2.15"),
        "Cash tendered",
        ("~", "50.00"),
        "Change",
        ("~", "2.85"),
        ("VAT", "Net", "VAT", "Gross"),
        ("A 0%", "47.15", "0.00", "47.15"),
    ]
    assert total_of(lines) == Decimal("47.15")


def test_a_summary_heading_above_the_items_is_no_tax_table() -> None:
    lines: list[str | tuple[str, ...]] = [
        "ORDER SUMMARY",
        ("Burger", "12.50"),
        ("Fries", "4.10"),
        ("Voucher", "-0.60"),
        ("Amount", "16.00"),
    ]
    assert total_of(lines) == Decimal("16.00")


@pytest.mark.parametrize(
    ("damaged", "repaired"),
    [("T0TAL", "total"), ("TOTAI", "total"), ("6ST @6%", "gst @6%"), ("T OT Al", "total"),
     ("Service Charge", "service charge")],
)
def test_keyword_repair(damaged: str, repaired: str) -> None:
    assert repair_words(damaged) == repaired


# --- dates --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("05 May 18 18:06:40", "2018-05-05"),
        ("Date: 30-Apr-18 12:01", "2018-04-30"),
        ("Date: 30/64/2018", "2018-04-30"),
        ("Date: 3O/O4/2018", "2018-04-30"),
        ("Datum: 3004/2018", "2018-04-30"),
        ("Date : O1- “06 aa 18: at: 08", "2018-06-01"),
        ("01.06.2018 15:20", "2018-06-01"),
        ("05/07/2025. 07:20:44", "2025-07-05"),
        ("RECEIPT #: CSP0397224 DATES 13707/2017", "2017-07-13"),
        # the blank between date and time lost by OCR
        ("05.01.202509:05 Bon-Nr.46000", "2025-01-05"),
        ("4 September202414:59 Receiptno.52423", "2024-09-04"),
        ("11 Dec202417:01:33", "2024-12-11"),
    ],
)
def test_damaged_dates(line: str, expected: str) -> None:
    found = receipt_date(rows_of(["SHOP SDN BHD", line]), today=date(2026, 1, 1))
    assert found is not None and found.value == expected


def test_purchase_date_wins_over_expiry_and_future_dates() -> None:
    rows = rows_of([
        "Voucher valid until 31/12/2019",
        "Date: 14/03/2019 10:22",
        "Next visit 01/01/2031",
    ])
    found = receipt_date(rows, today=date(2024, 1, 1))
    assert found is not None and found.value == "2019-03-14"
    assert receipt_date(rows_of(["01/01/2031"]), today=date(2024, 1, 1)) is None


# --- merchant and address -----------------------------------------------------------


def test_name_ends_at_its_legal_form_and_address_follows() -> None:
    rows = rows_of([
        "EIGHT OUNCE COFFEE CO. THE GARDENS MALL",
        "F.KO6, First Floor, The Gardens Mall,",
        "Mid Valley City, Lingkaran Syed Putra,",
        "59200 Kuala Lumpur.",
        "GST No. 002063339520",
    ])
    name, address, _ = merchant(rows)
    assert name is not None and name.value == "EIGHT OUNCE COFFEE CO."
    assert address is not None and address.value == (
        "F.K06, First Floor, The Gardens Mall, Mid Valley City, Lingkaran Syed Putra, "
        "59200 Kuala Lumpur."
    )


def test_two_line_name_and_reg_number_and_date_before_the_address() -> None:
    rows = rows_of([
        "AIK HUAT HARDWARE ENTERPRISE",
        "(SETIA ALAM) SDN BHD",
        "30 Mar 2018 18:17",
        "(867388-U)",
        "NO. 17-G, JALAN SETIA INDAH,",
        "40170 SHAH ALAM,",
        "SELANGOR",
        "TEL: 012-6651 783",
    ])
    name, address, _ = merchant(rows)
    assert name is not None and name.value == "AIK HUAT HARDWARE ENTERPRISE (SETIA ALAM) SDN BHD"
    assert address is not None
    assert address.value == "NO. 17-G, JALAN SETIA INDAH, 40170 SHAH ALAM, SELANGOR"


def test_phone_on_the_postcode_line_ends_the_address() -> None:
    rows = rows_of([
        "TEO HENG STATIONERY & BOOKS",
        "(001451637-M)",
        "NO. 53, JALAN BESAR,",
        "45600 BATANG BERJUNTAI TEL: 03-3271 9872",
        "GST No. : 000689913856",
    ])
    name, address, _ = merchant(rows)
    assert name is not None and name.value == "TEO HENG STATIONERY & BOOKS"
    assert address is not None and address.value == "NO. 53, JALAN BESAR, 45600 BATANG BERJUNTAI"


def test_name_without_legal_form_continues_on_a_short_line() -> None:
    rows = rows_of([
        "SYARIKAT PERNIAGAAN",
        "GIN KEE",
        "NO 290, JALAN AIR PANAS, SETAPAK TEL: 03-40210276",
        "GST REG : 000750673920",
    ])
    name, address, _ = merchant(rows)
    assert name is not None and name.value == "SYARIKAT PERNIAGAAN GIN KEE"
    assert address is not None and address.value == "NO 290, JALAN AIR PANAS, SETAPAK"
    # A legal form completes the name: the line under it is not part of it.
    name, _, _ = merchant(rows_of(["KEDAI RUNCIT SDN BHD", "KAJANG", "NO 5, JALAN 1, 43000 KAJANG"]))
    assert name is not None and name.value == "KEDAI RUNCIT SDN BHD"


def test_registration_number_line_with_ocr_noise_is_no_address_line() -> None:
    rows = rows_of([
        "PROSPER NIAGA",
        "Company y No : SA0099552-P",
        "LOT PT 1138 PT 33122,",
        "BANDAR MAHKOTA CHERAS",
        "43200 CHERAS, SELANGOR",
        "Site : 2365",
    ])
    address = merchant(rows)[1]
    assert address is not None
    assert address.value == "LOT PT 1138 PT 33122, BANDAR MAHKOTA CHERAS 43200 CHERAS, SELANGOR"


def test_dollar_sign_misread_for_rm_keeps_dates_day_first() -> None:
    lines: list[str | tuple[str, ...]] = [
        "FARMASI MALURI S/B (587969-U)",
        "23, Jln Burung Jentayu, 52100 KL.",
        "GST NO: 000342237184",
        ("Receipt : 71857936", "02/03/18 05:16 PM"),
        ("TOTAL (Including GST)", "$79.35"),
    ]
    result = extract_receipt([layout(lines)])
    assert result.date is not None and result.date.value == "2018-03-02"
    us = extract_receipt([layout(["Carter DIY Centre", "7914 Smith Extensions",
                                  "New Katrina, PR 12046", ("TOTAL", "$37.13"), "06/02/2024"])])
    assert us.date is not None and us.date.value == "2024-06-02"


def test_a_word_read_twice_takes_the_surer_spelling() -> None:
    tokens = [
        Word("Jalan", (0, 0, 0.1, 0.01), 0.93),
        Word("Tampoi", (0, 0, 0.1, 0.01), 0.93),
        Word("Tampol,81200", (0, 0, 0.1, 0.01), 0.86),
    ]
    assert unify_spellings("12, Jalan Tampoi 7/4, Tampol,81200 Johor", tokens) == (
        "12, Jalan Tampoi 7/4, Tampoi,81200 Johor"
    )


def test_lot_number_is_not_a_postcode() -> None:
    rows = rows_of([
        "99 SPEED MART 5/8 (519537-X)",
        "LOT P.T, 33198, BATU 4",
        "JALAN KAPAR, MUKIM KAPAR",
        "42100 KLANG, SELANGOR",
        "GST ID. NO: 000181747712",
    ])
    name, address, _ = merchant(rows)
    assert name is not None and name.value == "99 SPEED MART S/B"
    assert address is not None
    assert address.value == "LOT P.T, 33198, BATU 4 JALAN KAPAR, MUKIM KAPAR 42100 KLANG, SELANGOR"


def test_registration_number_marks_the_name_line_and_street_lines_are_no_names() -> None:
    rows = rows_of([
        "99 SPEED WART 5/5 (519537-X",
        "LOT P.T, 33198, BATU 4",
        "JALAN KAPAR, MUKIM KAPAR",
        "42100 KLANG, SELANGOR",
        "GST ID. NO : 000181747712",
    ])
    name, address, _ = merchant(rows)
    assert name is not None and name.value == "99 SPEED WART 5/5"
    assert address is not None and address.value.endswith("42100 KLANG, SELANGOR")
    assert merchant(rows[1:])[0] is None


def test_logo_debris_with_low_ocr_confidence_is_no_name() -> None:
    page = layout(["Siombst anole", "Pohlweg 110", "33100 Paderborn"])
    doubtful = [
        Word(t.text, t.bbox, 0.3 if index == 0 else 0.9, page=t.page)
        for index, row in enumerate(page.rows) for t in row.tokens
    ]
    rows = build_layout(1, doubtful, 0.5, "ocr").rows
    name, address, _ = merchant(rows)
    assert name is None
    assert address is not None and address.value == "Pohlweg 110 33100 Paderborn"
    assert merchant(page.rows)[0] is not None  # the same line read with confidence


def test_no_merchant_rather_than_a_table_header_or_debris() -> None:
    rows = rows_of([
        "TAX INVOICE",
        "RECEIPT #2 CS00031180 DATE: 04/12/2017",
        ("ITEM", "QTY", "WP", "AMOUNT"),
        ("12089", "2", "3.50", "7.00"),
    ])
    name, address, _ = merchant(rows)
    assert name is None and address is None
    assert merchant(rows_of(["SERSY EN", "TEL: 612 6635", "ids Si his", "CASH:"]))[0] is None
    assert merchant(rows_of(["‚ENTERPRISE (5", "NO. 17-G, JALAN SETIA INDAH", "40170 SHAH ALAM"]))[0] is None


@pytest.mark.parametrize(
    ("ocr", "clean"),
    [("GOLDEN LEAF FAMILY MART SON BHD", "GOLDEN LEAF FAMILY MART SDN BHD"),
     ("BHPetro] Palekbang", "BHPetrol Palekbang"),
     ("LOT PT 1138 ‚PT 33122,", "LOT PT 1138 PT 33122,"),
     ('"Baumarkt Mohaupt', "Baumarkt Mohaupt")],
)
def test_ocr_debris_in_names(ocr: str, clean: str) -> None:
    assert clean_text(ocr) == clean


def test_postcode_digits_read_as_letters() -> None:
    rows = rows_of(["toom Baumarkt GmbH", "Grüner Weg 7", "33O98 Paderborn", "Tel. 05251-871871"])
    address = merchant(rows)[1]
    assert address is not None and address.value == "Grüner Weg 7 33098 Paderborn"


@pytest.mark.parametrize(
    ("ocr", "clean"),
    [("No, 89&91, Jalan Utarna, Taman Mutia Rini, 81300 Skudai, Johor.",
      "No, 89&91, Jalan Utama, Taman Mutia Rini, 81300 Skudai, Johor."),
     ("12, JAIAN TAMPOI 7/4, 81200 Johor Bahru, Joher", "12, JALAN TAMPOI 7/4, 81200 Johor Bahru, Johor"),
     ("43200 Cheras, Selangoı", "43200 Cheras, Selangor"),
     ("Joher Street 5, Leeds", "Joher Street 5, Leeds")],
)
def test_address_words_restored(ocr: str, clean: str) -> None:
    assert correct_address_words(ocr) == clean


# --- items --------------------------------------------------------------------------


def test_items_with_unreadable_amounts_and_quantity_lines() -> None:
    rows = rows_of([
        "Pohlweg 110",
        "33100 Paderborn",
        ("WÜRFELZUCKER", "0,89 C"),
        ("KAMILLENTEE", "Dida."),
        "Toilettenpapier 8 Rollen",
        ("3 x 3,79", "11,37 A"),
        ("Milk chocolate bar", "2,19 A"),
        ("Bananen", "0,19 A"),
        ("0,162 kg x 1,15 EUR/kg", ""),
        ("SUMME EUR", "14,64"),
    ])
    rows = [r for r in rows if r.text.strip()]
    found = find_items(rows, ",", 1, len(rows) - 1)
    assert [i.description.value for i in found if i.description] == [
        "WÜRFELZUCKER", "KAMILLENTEE", "Toilettenpapier 8 Rollen", "Milk chocolate bar", "Bananen",
    ]
    assert [i.amount.value if i.amount else None for i in found] == [
        "0.89", None, "11.37", "2.19", "0.19",
    ]
    assert found[2].quantity is not None and found[2].quantity.value == "3"
    assert found[2].unit_price is not None and found[2].unit_price.value == "3.79"
    assert found[4].quantity is not None and found[4].quantity.value == "0.162"


def test_items_sum_check_needs_every_amount() -> None:
    result = extract_receipt([layout([
        "KIOSK MARKT",
        "Hauptstr. 5",
        "33100 Paderborn",
        ("Zeitung", "2,50 A"),
        ("Kaffee", "Dida."),
        ("SUMME EUR", "4,50"),
        ("Bar", "5,00"),
        ("Rückgeld", "0,50"),
        "Datum 03.02.2020 10:11",
    ])])
    assert result.total is not None and result.total.value == "4.50"
    assert len(result.items) == 2 and result.checks.items_sum_to_total is None
    assert result.date is not None and result.date.value == "2020-02-03"


def test_item_description_under_its_amounts_row() -> None:
    rows = rows_of([
        ("Item", "Qty", "S/Price", "Amount"),
        ("A139", "6", "18.02", "108.12"),
        "BESI Y 10 (CQ)",
        ("100135", "4", "8.48", "33.92"),
        "BESI R 5.5 (CQ)",
        ("Total Qty:", "10"),
        ("Total Sales (Inclusive of GST) :", "142.04"),
    ])
    found = find_items(rows, ".", -1, len(rows) - 1)
    assert [(i.description.value if i.description else None, i.amount.value if i.amount else None)
            for i in found] == [("BESI Y 10 (CQ)", "108.12"), ("BESI R 5.5 (CQ)", "33.92")]
    assert found[1].quantity is not None and found[1].quantity.value == "4"


def test_items_without_any_readable_amount_end_at_the_card_slip() -> None:
    # A photo that lost the amount column: descriptions stay, amounts are null, and the
    # card slip below is no item.
    rows = rows_of([
        "Butter 250g",
        "Cheddar mature",
        "2x 0.99",
        "Chicken breast",
        "Contactless MASTERCARD",
        "Auth code 205724",
        "Thank you for shopping",
    ])
    found = find_items(rows, ".", -1, len(rows))
    assert [i.description.value for i in found if i.description] == [
        "Butter 250g", "Cheddar mature", "Chicken breast",
    ]
    assert all(i.amount is None for i in found)
    priced = find_items(rows_of([
        "Bananas", ("4 x 2.39", "9.56"), "Natural yoghurt", "2 x 0.99", "Card",
    ]), ".", -1, 5)
    assert [(i.amount.value if i.amount else None, i.unit_price.value if i.unit_price else None)
            for i in priced] == [("9.56", "2.39"), (None, "0.99")]


def test_description_lines_that_lost_their_amounts_stay_items() -> None:
    rows = rows_of([
        "Clear silicone sealant",
        "3 x 7.09",
        "Masking tape 50m",
        "Garden hose 20m",
        "Compost 40l",
        ("2 x 9.09", "18.18 A"),
        ("TOTAL", "80.43"),
    ])
    found = find_items(rows, ".", -1, len(rows) - 1)
    assert [(i.description.value if i.description else None, i.amount.value if i.amount else None)
            for i in found] == [
        ("Clear silicone sealant", None), ("Masking tape 50m", None), ("Garden hose 20m", None),
        ("Compost 40l", "18.18"),
    ]
    assert found[0].unit_price is not None and found[0].unit_price.value == "7.09"


_WORDS = st.sampled_from([
    "TOTAL", "T0TAL", "Sub-Total", "GST", "Rounding", "CASH", "Change", "Bar", "Rückgeld",
    "SUMME", "EUR", "RM", "Datum", "Date:", "SDN BHD", "(123456-X)", "JALAN", "12.50", "-0,42",
    "3 x", "0,99 A", "30/04/2018", "3O/O4/2O18", "05 May 18", "43200", "Tel:", "MwSt", "Netto",
    "Brutto", "19%", "x", "|", "“", "(", ")", "$8.20", "179.35", "79.", "35", "1.000", "STK",
])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(_WORDS, min_size=1, max_size=5), min_size=0, max_size=14))
def test_any_row_soup_gives_a_result_without_errors(lines: list[list[str]]) -> None:
    rows: list[str | tuple[str, ...]] = [tuple(words) if len(words) > 1 else words[0]
                                         for words in lines]
    result = extract_receipt([layout(rows)])
    if result.total is not None:
        assert Decimal(str(result.total.value)) > 0
    for item in result.items:
        assert item.description is not None and item.description.value
