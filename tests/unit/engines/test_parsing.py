"""Shared normalizers: amounts, dates, bank and tax ids, countries."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from prefect_docai.engines.extract import (
    country_code,
    detect_decimal_separator,
    format_amount,
    normalize_bic,
    normalize_iban,
    normalize_tax_number,
    normalize_vat_id,
    parse_amount,
    parse_date,
    parse_time,
)
from prefect_docai.engines.extract.ids import find_ibans, vat_id_shape


@pytest.mark.parametrize(
    ("text", "hint", "expected"),
    [
        ("1.234,56 €", None, "1234.56"),
        ("1,234.56", None, "1234.56"),
        ("EUR 12,50", None, "12.50"),
        ("12,50-", None, "-12.50"),
        ("(12.50)", None, "-12.50"),
        ("5,-", None, "5"),
        ("12.345.678,90 EUR", None, "12345678.90"),
        ("1.234", ",", "1234"),
        ("1.234", ".", "1.234"),
    ],
)
def test_parse_amount(text: str, hint: str | None, expected: str) -> None:
    assert parse_amount(text, hint) == Decimal(expected)


def test_parse_amount_rejects_non_amounts() -> None:
    assert parse_amount("05.03.2018") is None
    assert parse_amount("Summe") is None
    assert format_amount(Decimal("1234.5")) == "1234.50"


def test_decimal_separator_vote() -> None:
    assert detect_decimal_separator(["1.234,56", "9,90", "x"]) == ","
    assert detect_decimal_separator(["1,234.56", "9.90"]) == "."
    assert detect_decimal_separator(["abc"]) is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("05.03.2018", date(2018, 3, 5)),
        ("17/04/18", date(2018, 4, 17)),
        ("2018-03-05", date(2018, 3, 5)),
        ("7. Mai 2014", date(2014, 5, 7)),
        ("March 3, 2024", date(2024, 3, 3)),
        ("20140418", date(2014, 4, 18)),
    ],
)
def test_parse_date(text: str, expected: date) -> None:
    assert parse_date(text) == expected


def test_parse_date_rejects() -> None:
    assert parse_date("32.13.2018") is None
    assert parse_date("Musterstraße 12") is None
    assert parse_time("14:05") == "14:05"
    assert parse_time("2:05 PM") == "14:05"
    assert parse_time("25:00") is None


def test_bank_ids() -> None:
    assert normalize_iban("DE88 2008 0000 0970 3757 00") == "DE88200800000970375700"
    assert normalize_iban("DE88 2008 0000 0970 3757 01") is None
    assert find_ibans("IBAN DE88 2008 0000 0970 3757 00 BIC COBADEFFXXX")[0][0] == (
        "DE88200800000970375700"
    )
    assert normalize_bic("COBADEFFXXX") == "COBADEFFXXX"
    assert normalize_bic("COBA DE") is None
    assert normalize_bic("COBADEFXXX") is None


def test_tax_ids() -> None:
    assert normalize_vat_id("DE 136 695 976") == "DE136695976"
    assert normalize_vat_id("DE136695978") is None
    assert vat_id_shape("DE 123 456 789") == "DE123456789"
    assert normalize_vat_id("NL810433941B01") == "NL810433941B01"
    assert normalize_tax_number("201/113/40209") == "201/113/40209"
    assert normalize_tax_number("12/34") is None


def test_country_codes() -> None:
    assert country_code("Deutschland") == "DE"
    assert country_code("Germany") == "DE"
    assert country_code("Allemagne") == "DE"
    assert country_code("D") == "DE"
    assert country_code("Musterstadt") is None
