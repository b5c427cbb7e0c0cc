"""Money amounts and percentages as printed in German, English, French and Dutch documents."""

from __future__ import annotations

import re
from collections.abc import Iterable
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

from price_parser import Price

CURRENCY_SYMBOLS: dict[str, str] = {"€": "EUR", "$": "USD", "£": "GBP", "¥": "JPY", "₹": "INR"}
CURRENCY_CODES: frozenset[str] = frozenset(
    {"EUR", "USD", "GBP", "CHF", "JPY", "SEK", "NOK", "DKK", "PLN", "CZK", "HUF", "CAD",
     "AUD", "MYR", "SGD", "CNY", "INR", "RM"}
)

_AMOUNT = re.compile(
    r"""^[-−–]?\(?                       # sign or accounting parenthesis
        (?:\d{1,3}(?:[.,'\u202f\u00a0]\d{3})+|\d+)   # integer part, maybe grouped
        (?:[.,](?:\d{1,4}|-{1,2}))?      # decimals, or ",-" / ",--"
        \)?[-−–]?$""",
    re.VERBOSE,
)
_STRIP = " \t*:;=€$£¥₹"


def _strip_currency(text: str) -> str:
    value = text.strip().strip(_STRIP)
    for code in CURRENCY_CODES:
        if value.upper().startswith(code) and len(value) > len(code):
            value = value[len(code):]
        if value.upper().endswith(code) and len(value) > len(code):
            value = value[: -len(code)]
    return value.strip().strip(_STRIP)


def detect_decimal_separator(tokens: Iterable[str]) -> str | None:
    """The document's decimal separator (``","`` or ``"."``) by a vote over amount-like
    tokens with exactly two decimals; ``None`` when there is no evidence."""
    comma = dot = 0
    for token in tokens:
        value = _strip_currency(token)
        if re.fullmatch(r"-?[\d.']*\d,\d{2}-?", value):
            comma += 1
        elif re.fullmatch(r"-?[\d,']*\d\.\d{2}-?", value):
            dot += 1
    if comma == dot:
        return None
    return "," if comma > dot else "."


def parse_amount(text: str, decimal_separator: str | None = None) -> Decimal | None:
    """``"1.234,56 €"`` → ``Decimal("1234.56")``; ``None`` when the text is not an amount.

    A lone separator followed by exactly three digits is a thousands separator unless the
    document's ``decimal_separator`` says otherwise; price-parser makes the final call.
    """
    value = _strip_currency(text)
    if not value or not _AMOUNT.match(value):
        return None
    dash_decimals = re.search(r"[.,]-{1,2}\)?$", value)
    if dash_decimals:
        value = value[: dash_decimals.start()] + ("" if not value.endswith(")") else ")")
    negative = value[0] in "-−–(" or value[-1] in "-−–)"
    core = value.strip("-−–()").replace("'", "").replace("\u202f", "").replace("\u00a0", "")
    separator = _decimal_separator(core, decimal_separator)
    price = Price.fromstring(core, decimal_separator=separator)
    if price.amount is None:
        return None
    try:
        amount = Decimal(price.amount)
    except InvalidOperation:
        return None
    return -amount if negative else amount


def _decimal_separator(core: str, hint: str | None) -> str:
    """Both separators: the last is the decimal one. One kind, used once and followed by
    other than three digits: decimal. Otherwise (``1.234``, ``1,234,567``) the hint
    decides, and without a hint the separator is taken for grouping."""
    last_comma, last_dot = core.rfind(","), core.rfind(".")
    if last_comma >= 0 and last_dot >= 0:
        return "," if last_comma > last_dot else "."
    last = max(last_comma, last_dot)
    if last < 0:
        return hint or "."
    mark = core[last]
    if core.count(mark) == 1 and len(core) - last - 1 != 3:
        return mark
    if core.count(mark) == 1 and hint == mark:
        return mark
    return "." if mark == "," else ","


def format_amount(amount: Decimal) -> str:
    """Two decimals, half-up, no grouping: ``"1234.50"``."""
    return str(amount.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def parse_rate(text: str) -> Decimal | None:
    """``"19 %"``, ``"7,0%"``, ``"19.00"`` → the percentage; ``None`` outside 0..100."""
    match = re.search(r"(\d{1,2}(?:[.,]\d{1,2})?)\s*%?", text)
    if match is None:
        return None
    rate = Decimal(match.group(1).replace(",", "."))
    return rate if 0 <= rate <= 100 else None


def format_rate(rate: Decimal) -> str:
    return format_amount(rate)


# --- arithmetic checks -----------------------------------------------------------------

CENT = Decimal("0.01")


def close(a: Decimal, b: Decimal, tolerance: Decimal = CENT) -> bool:
    return abs(a - b) <= tolerance


def tax_line_consistent(base: Decimal, rate: Decimal, amount: Decimal) -> bool:
    """base × rate = amount, allowing a cent of rounding per started 1000 of base."""
    tolerance = CENT * (1 + abs(base) // 1000)
    return close((base * rate / 100), amount, tolerance + CENT / 2)
