"""Line items from column alignment: a header row names the columns, item rows below
carry an amount in the amount column; quantity × unit price = net amount picks the
quantity and price among the row's numbers."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from prefect_docai.engines.invoice.candidates import Candidate, money_tokens
from prefect_docai.engines.invoice.checks import close
from prefect_docai.engines.invoice.fields import _total_kind
from prefect_docai.engines.parsing import format_rate, parse_amount
from prefect_docai.engines.parsing.layout import PageLayout, Row, Token, fold

_HEADER = {
    "description": re.compile(
        r"beschreibung|bezeichnung|artikel|produkt|leistung|description|item|product|"
        r"omschrijving|d[ée]signation|article|position|service|details", re.I),
    "quantity": re.compile(r"menge|anzahl|qty|quantity|aantal|quantit[ée]|\bstk\b|stück|^#$", re.I),
    "price": re.compile(r"einzelpreis|e-preis|preis|unit\s*price|price|prix|prijs|rate|vk", re.I),
    "amount": re.compile(r"betrag|gesamt|summe|total|amount|netto|montant|bedrag|prix\s*ht|zeilen", re.I),
    "tax": re.compile(r"ust|mwst|vat|tva|btw|steuer|tax|%", re.I),
}
_QTY = re.compile(r"^\d+(?:[.,]\d{1,3})?$")
_RATE = re.compile(r"^(\d{1,2}(?:[.,]\d{1,2})?)\s*%$")


@dataclass
class Item:
    description: Candidate | None
    quantity: Candidate | None
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
    for layout in layouts:
        header: dict[str, tuple[float, float]] | None = None
        for row in layout.rows:
            kinds = _header_kinds(row)
            if len(kinds) >= 3 and "description" in kinds and ("amount" in kinds or "price" in kinds):
                header = kinds
                continue
            if header is None:
                continue
            if any(_total_kind(s.text) for s in row.segments[:2]):
                header = None
                continue
            item = _item(row, header, decimal_separator)
            if item is not None:
                items.append(item)
    return items


def _item(row: Row, header: dict[str, tuple[float, float]], separator: str | None) -> Item | None:
    tokens = row.tokens
    amounts = money_tokens(tokens, separator)
    if not amounts:
        return None
    net, net_tokens, _ = amounts[-1]
    used = {id(t) for t in net_tokens}
    unit_price = None
    price_tokens: tuple[Token, ...] = ()
    if len(amounts) >= 2:
        unit_price, price_tokens, _ = amounts[-2]
        used |= {id(t) for t in price_tokens}
    rate_candidate = None
    for token in tokens:
        match = _RATE.match(token.text.strip())
        if match:
            rate_candidate = Candidate(
                format_rate(Decimal(match.group(1).replace(",", "."))), (token,), 0.8, token.text
            )
            used.add(id(token))
    quantity_candidate = None
    desc_right = header.get("quantity", header.get("price", header.get("amount", (1.0, 1.0))))[0]
    for token in tokens:
        if id(token) in used or not _QTY.match(token.text.strip()):
            continue
        quantity = parse_amount(token.text, separator)
        if quantity is None or quantity == 0:
            continue
        fits = unit_price is not None and close(quantity * unit_price, net, Decimal("0.02"))
        in_column = "quantity" in header and _overlaps(token, header["quantity"])
        if fits or in_column:
            quantity_candidate = Candidate(
                str(quantity.normalize()), (token,), 0.9 if fits else 0.7, token.text
            )
            used.add(id(token))
            break
    if unit_price is not None and quantity_candidate is None and not close(unit_price, net):
        # Two amounts but no quantity making them consistent: the left one is not a price.
        unit_price = None
        price_tokens = ()
    description_tokens = [
        t for t in tokens
        if id(t) not in used and t.bbox[2] <= desc_right + 0.01 and not _QTY.match(t.text)
    ]
    if not description_tokens:
        description_tokens = [t for t in tokens if id(t) not in used and re.search(r"[^\W\d_]{2}", t.text)]
    if not description_tokens:
        return None
    description = " ".join(t.text for t in description_tokens)
    return Item(
        description=Candidate(description, tuple(description_tokens), 0.75, description),
        quantity=quantity_candidate,
        unit_price=Candidate(unit_price, price_tokens, 0.75, " ".join(t.text for t in price_tokens))
        if unit_price is not None
        else None,
        net_amount=Candidate(net, net_tokens, 0.8, " ".join(t.text for t in net_tokens)),
        tax_rate=rate_candidate,
    )


def _overlaps(token: Token, span: tuple[float, float]) -> bool:
    return token.bbox[0] < span[1] + 0.02 and token.bbox[2] > span[0] - 0.02
