"""Locale formatting of money, numbers and dates as printed on documents."""

from __future__ import annotations

import datetime as dt
from decimal import ROUND_HALF_UP, Decimal

from babel.dates import format_date
from babel.numbers import format_decimal

CENT = Decimal("0.01")

CURRENCY_SYMBOL = {"EUR": "€", "GBP": "£", "USD": "$"}


def q2(value: Decimal) -> Decimal:
    """Round to cents the way invoices do (half up)."""
    return value.quantize(CENT, rounding=ROUND_HALF_UP)


def dec(value: Decimal) -> str:
    """Truth form of an amount: plain decimal string with two places (``"1163.40"``)."""
    return str(q2(value))


def rate(value: Decimal) -> str:
    """Truth form of a percentage: two places at least (``"19.00"``), more when needed."""
    text = str(q2(value))
    return text if q2(value) == value else str(value.normalize())


def number(value: Decimal, locale: str, places: int = 2) -> str:
    """``1.234,56`` (de_DE) or ``1,234.56`` (en_*)."""
    pattern = "#,##0." + "0" * places if places else "#,##0"
    return str(format_decimal(value, format=pattern, locale=locale))


def quantity(value: Decimal, locale: str) -> str:
    """A quantity without trailing zeros: ``3``, ``2,5``."""
    if value == value.to_integral_value():
        return number(value, locale, 0)
    return str(format_decimal(value, format="#,##0.###", locale=locale))


def money(value: Decimal, currency: str, locale: str, *, style: int = 0) -> str:
    """An amount with its currency in one of a few common print styles."""
    amount = number(value, locale)
    symbol = CURRENCY_SYMBOL.get(currency, currency)
    if locale.startswith("de"):
        return (f"{amount} {symbol}", f"{amount} {currency}", f"{symbol} {amount}")[style % 3]
    return (f"{symbol}{amount}", f"{currency} {amount}", f"{amount} {currency}")[style % 3]


def percent(rate: Decimal, locale: str) -> str:
    """``19 %`` / ``7,5 %`` (German) or ``20%`` (English)."""
    text = quantity(rate, locale)
    return f"{text} %" if locale.startswith("de") else f"{text}%"


def date(value: dt.date, locale: str, *, style: int = 0) -> str:
    """A date in one of the common numeric or long forms of the locale."""
    if locale.startswith("de"):
        forms = (
            value.strftime("%d.%m.%Y"),
            str(format_date(value, format="long", locale=locale)),
            value.strftime("%d.%m.%y"),
        )
    elif locale == "en_US":
        forms = (
            value.strftime("%m/%d/%Y"),
            str(format_date(value, format="long", locale=locale)),
            str(format_date(value, format="medium", locale=locale)),
        )
    else:
        forms = (
            value.strftime("%d/%m/%Y"),
            str(format_date(value, format="long", locale=locale)),
            str(format_date(value, format="d MMM yyyy", locale=locale)),
        )
    return forms[style % len(forms)]
