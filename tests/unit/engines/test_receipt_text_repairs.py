"""Receipt names and addresses: OCR slips repaired in the text read from the chosen rows
(look-alike digits in words, legal forms' dots, blanks around brackets, words one letter
off a learned address lexicon, words OCR split in two). Receipts here are invented; none
is copied from a corpus."""

from __future__ import annotations

import pytest
from tests.unit.engines.test_receipt_fields import layout
from tests.unit.engines.test_receipt_line_model import one_feature_scorer

from prefect_docai.engines.receipt.extract import extract_receipt
from prefect_docai.engines.receipt.line_model import (
    LineModel,
    address_text,
    correct_from_lexicon,
    lexicon_words,
    tag_merchant,
)
from prefect_docai.engines.receipt.merchant import (
    _clean_address,
    clean_text,
    repair_letter_digits,
    tidy_brackets,
)


@pytest.mark.parametrize(
    ("read", "printed"),
    [
        ("L0T 12, Ja1an Merbuk 3", "LOT 12, Jalan Merbuk 3"),
        ("47300 Peta1ing Jaya", "47300 Petaling Jaya"),
        ("Leve1 2, Wisma Cahaya", "Level 2, Wisma Cahaya"),
        ("The Orchard Mal1, Jalan Kenari", "The Orchard Mall, Jalan Kenari"),
        ("JALAN BUKIT GEM8ILANG", "JALAN BUKIT GEMBILANG"),
        ("KEDAI F00D RIA", "KEDAI FOOD RIA"),
        # Numbers and codes stay as printed.
        ("JALAN SS21/39, U13/BG", "JALAN SS21/39, U13/BG"),
        ("JALAN 7/1l8B", "JALAN 7/1l8B"),
        ("NO.15, LOT PT1058", "NO.15, LOT PT1058"),
        ("UPTOWN5 TSJ2 G8", "UPTOWN5 TSJ2 G8"),
        ("Southport SA0H 5HR", "Southport SA0H 5HR"),
        # "1" between capitals may be an I or an L: left alone.
        ("JA1AN", "JA1AN"),
    ],
)
def test_look_alike_digits_in_words_are_letters(read: str, printed: str) -> None:
    assert repair_letter_digits(read) == printed


def test_letters_in_a_run_of_digits_are_digits() -> None:
    assert _clean_address("TAMAN MAWAR, 431S0 KAJANG") == "TAMAN MAWAR, 43150 KAJANG"
    assert _clean_address("4O3o0 Shah Alam") == "40300 Shah Alam"
    assert _clean_address("LOT S100, JALAN MAWAR") == "LOT S100, JALAN MAWAR"


def test_legal_form_keeps_its_dots_and_brackets_get_their_blanks() -> None:
    assert clean_text("KEDAI MAJU SON. 8HD.") == "KEDAI MAJU SDN. BHD."
    assert clean_text("KEDAI MAJU SDN BHD") == "KEDAI MAJU SDN BHD"
    assert clean_text("KEDAI MAJU SDNBHD") == "KEDAI MAJU SDN BHD"
    assert tidy_brackets("ROTI CERIA(KL)SDN BHD") == "ROTI CERIA (KL) SDN BHD"
    assert tidy_brackets("MOTOR ( SUNGAI BESAR ) SDN BHD") == "MOTOR (SUNGAI BESAR) SDN BHD"
    assert tidy_brackets("JALAN MAWAR (X) U2/X") == "JALAN MAWAR (X) U2/X"


HEAD: list[str | tuple[str, ...]] = [
    "ROTI CERIA(KL)SDN. BHD.",
    "(654321-K)",
    "L0T 7, Ja1an Cempaka 2,",
    "47300 Peta1ing Jaya, Selangor",
    "Tel: 03-1234 5678",
    ("Roti Kaya", "5.00"),
    ("Total", "5.00"),
]


def test_the_engine_returns_the_repaired_name_and_address() -> None:
    result = extract_receipt([layout(HEAD)], total_model=None, name_model=None, line_model=None)
    assert result.merchant.name is not None
    assert result.merchant.name.value == "ROTI CERIA (KL) SDN. BHD."
    assert result.merchant.address is not None
    assert result.merchant.address.value == "LOT 7, Jalan Cempaka 2, 47300 Petaling Jaya, Selangor"


LEXICON = lexicon_words(
    [
        ("kedai a", "12, JALAN MELATI 3, TAMAN MELATI, 53100 KUALA LUMPUR"),
        ("kedai b", "3 JALAN MELATI, 53100 KUALA LUMPUR"),
        ("kedai c", "9 JALAN KENANGA, 43000 KAJANG"),
        ("kedai c", "9 JALAN KENANGA, 43000 KAJANG"),
    ]
)


def test_the_lexicon_holds_words_several_merchants_print() -> None:
    # KENANGA and KAJANG: one merchant's own words; TAMAN: one merchant; LUMPUR: two.
    assert LEXICON == {"JALAN": 3, "KUALA": 2, "LUMPUR": 2, "MELATI": 2}


def test_words_one_letter_off_the_lexicon_take_its_spelling() -> None:
    text = "12, Jalan Mclati 3, 53100 Kuala Lunpur"
    assert correct_from_lexicon(text, LEXICON) == "12, Jalan Melati 3, 53100 Kuala Lumpur"
    # Two letters off, shorter than five letters, or no lexicon: as read.
    assert correct_from_lexicon("Jalan Mxlatx, Kuala", LEXICON) == "Jalan Mxlatx, Kuala"
    assert correct_from_lexicon("Jalan Satu, Kuala", {**LEXICON, "BATU": 5}) == (
        "Jalan Satu, Kuala"
    )
    assert correct_from_lexicon("Kuala Lunpur", {}) == "Kuala Lunpur"
    # An address of another region (fewer than two lexicon words) is left as read.
    assert correct_from_lexicon("Melatiring 5, 10115 Berlin", LEXICON) == (
        "Melatiring 5, 10115 Berlin"
    )
    assert correct_from_lexicon("Jalan Mclati", LEXICON) == "Jalan Mclati"
    rows = layout(["12, Jalan Mclati 3,", "53100 Kuala Lunpur"]).rows
    assert address_text(rows, LEXICON)[0] == "12, Jalan Melati 3, 53100 Kuala Lumpur"
    assert address_text(rows)[0] == "12, Jalan Mclati 3, 53100 Kuala Lunpur"


def test_the_line_model_carries_its_lexicon() -> None:
    model = LineModel(
        one_feature_scorer("next_registration"),
        one_feature_scorer("address_words"),
        (0.0, 0.0),
        LEXICON,
    )
    assert LineModel.from_json(model.to_json()) == model
    head: list[str | tuple[str, ...]] = [
        "KEDAI MELATI",
        "(765432-A)",
        "12, Jalan Mclati 3,",
        "53100 Kuala Lunpur",
        ("Total", "3.00"),
    ]
    _, address, _ = tag_merchant(layout(head).rows, model)
    assert address is not None and address.value == "12, Jalan Melati 3, 53100 Kuala Lumpur"


def test_words_ocr_split_in_two_are_joined_from_the_lexicon() -> None:
    assert correct_from_lexicon("3 JAL AN MELATI, KUALA LUMPUR", LEXICON) == (
        "3 JALAN MELATI, KUALA LUMPUR"
    )
    assert correct_from_lexicon("JALAN MELATI, 53100 KUAL A L UMPUR", LEXICON) == (
        "JALAN MELATI, 53100 KUALA LUMPUR"
    )
    assert correct_from_lexicon("Jalan Melati, Kuala Lum pur.", LEXICON) == (
        "Jalan Melati, Kuala Lumpur."
    )
    # Two words of the lexicon, or pieces that make no lexicon word, stay apart.
    assert correct_from_lexicon("KUALA LUMPUR", {**LEXICON, "KUALALUMPUR": 2}) == "KUALA LUMPUR"
    assert correct_from_lexicon("JALAN SERI AMAN", LEXICON) == "JALAN SERI AMAN"


def test_a_shop_word_and_legal_form_line_continues_the_name_above() -> None:
    head: list[str | tuple[str, ...]] = [
        "PUSAKA INDAH CAHAYA MAKMUR",
        "RESTAURANT SDN BHD",
        "(123456-A)",
        "NO 3, JALAN MAWAR 2,",
        "43000 KAJANG, SELANGOR",
        ("Total", "5.00"),
    ]
    result = extract_receipt([layout(head)], total_model=None, name_model=None, line_model=None)
    assert result.merchant.name is not None
    assert result.merchant.name.value == "PUSAKA INDAH CAHAYA MAKMUR RESTAURANT SDN BHD"
    # A name of its own on the legal form's line stays alone.
    head[1] = "SERI MAWAR RESTAURANT SDN BHD"
    result = extract_receipt([layout(head)], total_model=None, name_model=None, line_model=None)
    assert result.merchant.name is not None
    assert result.merchant.name.value == "SERI MAWAR RESTAURANT SDN BHD"
