"""Line items from column alignment: a header row names the columns, item rows below
carry an amount in the amount column; quantity × unit price = net amount picks the
quantity and price among the row's numbers."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from itertools import product

from prefect_docai.engines.extract import format_rate, parse_amount
from prefect_docai.engines.extract.amounts import close
from prefect_docai.engines.extract.candidates import Candidate, money_tokens, strip_currency
from prefect_docai.engines.extract.rows import PageLayout, Row, fold
from prefect_docai.engines.invoice.fields import _total_kind
from prefect_docai.engines.page.model import Word

_HEADER = {
    "description": re.compile(
        r"beschreibung|bezeichnung|artikel|produkt|leistung|description|item|product|"
        r"omschrijving|d[ée]signation|article|position|service|details", re.I),
    "quantity": re.compile(r"menge|anzahl|qty|quantity|aantal|quantit[ée]|\bstk\b|stück|^#$", re.I),
    "price": re.compile(r"einzelpreis|e-preis|preis|unit\s*price|price|prix|prijs|rate|vk", re.I),
    "amount": re.compile(r"betrag|gesamt|summe|total|amount|netto|montant|bedrag|prix\s*ht|zeilen", re.I),
    "tax": re.compile(r"ust|mwst|vat|tva|btw|steuer|tax|%", re.I),
}
_RATE = re.compile(r"^(\d{1,2}(?:[.,]\d{1,2})?)\s*%$")


@dataclass
class Item:
    description: Candidate | None
    quantity: Candidate | None
    unit: Candidate | None
    unit_price: Candidate | None
    net_amount: Candidate
    tax_rate: Candidate | None


def _header_kinds(row: Row) -> dict[str, tuple[float, float]]:
    kinds: dict[str, tuple[float, float]] = {}
    for segment in row.segments:
        text = fold(segment.text)
        for kind, pattern in _HEADER.items():
            if kind not in kinds and pattern.search(text):
                box = segment.bbox
                kinds[kind] = (box[0], box[2])
                break
    return kinds


def line_items(layouts: Sequence[PageLayout], decimal_separator: str | None) -> list[Item]:
    items: list[Item] = []
    header: dict[str, tuple[float, float]] | None = None
    for layout in layouts:
        # A table continued on the next page may not repeat its header: the last one
        # stays in force until a totals row ends the table.
        for row in layout.rows:
            kinds = _header_kinds(row)
            if len(kinds) >= 3 and "description" in kinds and ("amount" in kinds or "price" in kinds):
                header = kinds
                continue
            if header is None:
                continue
            if any(_total_kind(s.text) for s in row.segments[:2]) and money_tokens(
                row.tokens, decimal_separator
            ):
                header = None
                continue
            item = _item(row, header, decimal_separator)
            if item is not None:
                items.append(item)
            elif items and items[-1].description is None and not money_tokens(
                row.tokens, decimal_separator
            ):
                # The description of an item printed on the rows below its numbers.
                span = header.get("description", (0.0, 1.0))
                words = [t for t in row.tokens if _overlaps(t, span)]
                if words:
                    text = " ".join(t.text for t in words)
                    items[-1].description = Candidate(text, tuple(words), 0.6, text)
    return items


_NUMBER = re.compile(r"^[-(]?\d[\d.,']*\)?$")
_UNIT_WORDS = re.compile(
    r"^(?:stk|stück|st|pcs?|pc|pieces?|units?|unit\(s\)|h|std|hrs?|hours?|kg|g|l|liter|m|m2|m²|"
    r"km|pkg|pack|set|psch|pauschal|tag|tage|days?|monat|month|c62|ea|x)(?:\(s\))?\.?$",
    re.I,
)


def _number(token: Word, separator: str | None) -> Decimal | None:
    core, _ = strip_currency(token.text)
    if not _NUMBER.match(core):
        return None
    return parse_amount(core, separator)


def _item(row: Row, header: dict[str, tuple[float, float]], separator: str | None) -> Item | None:
    """One item row: the rightmost 2-decimal amount is the net amount; among the other
    numbers, the pair with quantity × unit price = net amount are quantity and price."""
    tokens = row.tokens
    amounts = money_tokens(tokens, separator)
    if not amounts:
        return None
    net, net_tokens, _ = amounts[-1]
    used = {id(t) for t in net_tokens}
    rate_candidate = None
    for index, token in enumerate(tokens):
        text = token.text.strip()
        joined = text + "%" if index + 1 < len(tokens) and tokens[index + 1].text == "%" else text
        match = _RATE.match(joined)
        if match and id(token) not in used:
            parts = (token, tokens[index + 1]) if joined != text else (token,)
            rate_candidate = Candidate(
                format_rate(Decimal(match.group(1).replace(",", "."))), parts, 0.8, joined
            )
            used |= {id(t) for t in parts}
    numbers = [
        (value, token) for token in tokens
        if id(token) not in used and (value := _number(token, separator)) is not None
        and token.bbox[2] <= net_tokens[0].bbox[0] + 1e-6
    ]
    quantity_candidate = price_candidate = None
    best_pair: tuple[float, Decimal, Word, Decimal, Word] | None = None
    for (q, q_token), (p, p_token) in product(numbers, numbers):
        if q_token is p_token or q <= 0:
            continue
        if not close(q * p, net, Decimal("0.011") + abs(net) * Decimal("0.0005")):
            continue
        # Columns decide which factor is the quantity; without them an integer count
        # and a price with decimals is the likelier reading.
        fit = 0.0
        fit += 2 if "quantity" in header and _overlaps(q_token, header["quantity"]) else 0
        fit += 2 if "price" in header and _overlaps(p_token, header["price"]) else 0
        fit += 1 if q == q.to_integral_value() else 0
        fit += 0.5 if re.search(r"[.,]\d", p_token.text) else 0
        if best_pair is None or fit > best_pair[0]:
            best_pair = (fit, q, q_token, p, p_token)
    if best_pair is not None:
        _, q, q_token, p, p_token = best_pair
        quantity_candidate = Candidate(_plain(q), (q_token,), 0.9, q_token.text)
        price_candidate = Candidate(p, (p_token,), 0.85, p_token.text)
        used |= {id(q_token), id(p_token)}
    if quantity_candidate is None and "quantity" in header:
        for value, token in numbers:
            if _overlaps(token, header["quantity"]) and value > 0:
                quantity_candidate = Candidate(_plain(value), (token,), 0.6, token.text)
                used.add(id(token))
                break
    unit_candidate = None
    if quantity_candidate is not None:
        q_token = quantity_candidate.tokens[0]
        position = tokens.index(q_token)
        if position + 1 < len(tokens) and _UNIT_WORDS.match(tokens[position + 1].text):
            unit_token = tokens[position + 1]
            unit_candidate = Candidate(unit_token.text.rstrip("."), (unit_token,), 0.7, unit_token.text)
            used.add(id(unit_token))
    worded = [
        t for t in tokens
        if id(t) not in used and re.search(r"[^\W\d_]{2}", t.text)
        and t.bbox[2] <= net_tokens[0].bbox[0]
    ]
    description_candidate = None
    if worded:
        # Numbers inside the description's cell ("Exchange 2010") belong to it.
        cells = [s for s in row.segments if any(t in s.tokens for t in worded)]
        description_tokens = [t for s in cells for t in s.tokens if id(t) not in used]
        description = " ".join(t.text for t in description_tokens)
        description_candidate = Candidate(description, tuple(description_tokens), 0.75, description)
    elif quantity_candidate is None:
        return None
    return Item(
        description=description_candidate,
        quantity=quantity_candidate,
        unit=unit_candidate,
        unit_price=price_candidate,
        net_amount=Candidate(net, net_tokens, 0.8, " ".join(t.text for t in net_tokens)),
        tax_rate=rate_candidate,
    )


def _plain(value: Decimal) -> str:
    """``Decimal("2E+1")`` → ``"20"``: quantities without exponent or trailing zeros."""
    return format(value.normalize(), "f")


def _overlaps(token: Word, span: tuple[float, float]) -> bool:
    return token.bbox[0] < span[1] + 0.02 and token.bbox[2] > span[0] - 0.02
