"""Receipt line items: a description on the left, the amount in the right-hand column.

The amount column is where the priced rows end (their last token, a VAT code letter
included). A row whose description stands left and whose last token reaches that column
is an item even when OCR garbled its amount (the amount is then null, not guessed). A
"2 x 3,99" or "0,162 kg x 1,15 EUR/kg" line belongs to the item above (or, when it carries
the amount, completes a description printed on the line before); a negative line is a
discount and an item of its own.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from statistics import median

from prefect_docai.engines.extract import format_amount
from prefect_docai.engines.extract.amounts import close
from prefect_docai.engines.extract.fields import make_field
from prefect_docai.engines.extract.rows import Row
from prefect_docai.engines.page.model import Word
from prefect_docai.engines.receipt import labels as L
from prefect_docai.engines.receipt.merchant import NOISE, is_header
from prefect_docai.engines.receipt.totals import Amount, row_amounts
from prefect_docai.models.results import Field, ReceiptItem

_UNIT_WORDS = re.compile(
    r"^(?:kg|g|l|stk|st|stck|x|eur|euro|eur/kg|euro/kg|/kg|pcs|pc|ea|rm|@|\*|=)$", re.IGNORECASE
)
_QTY_LINE = re.compile(
    r"^\s*(?P<q>\d+(?:[.,]\d+)?)\s*[°%'^]?\s*(?:kg|stk|st|pcs|pc|x|×|\*|@)[°%'^]?\s*"
    r"(?:x|×|\*|@)?\s*"
    r"(?P<p>\d+[.,]\d{2})?",
    re.IGNORECASE,
)
_COLUMN_TOLERANCE = 0.04
_COUNT = re.compile(r"\b(?:posten|anzahl|items?|qty|quantity|stückzahl)\b", re.IGNORECASE)


@dataclass
class _Item:
    description: list[Word] = field(default_factory=list)
    amount: Amount | None = None
    quantity: tuple[Decimal, tuple[Word, ...]] | None = None
    unit_price: Amount | None = None


def _words(tokens: Sequence[Word]) -> list[Word]:
    return [
        t for t in tokens
        if re.search(r"[^\W\d_]{3}", t.text) and not _UNIT_WORDS.match(t.text.strip(".:,"))
    ]


def _skip(row: Row) -> bool:
    text = L.row_label(row)
    return bool(
        any(
            L.leads(pattern, text)
            for pattern in (L.TOTAL, L.SUBTOTAL, L.TAX, L.CASH, L.CARD, L.CHANGE, L.ROUNDING)
        )
        or NOISE.search(row.text) or _COUNT.search(text)
        or is_header(row.text)
    )


def find_items(
    rows: Sequence[Row], separator: str | None, first: int, last: int
) -> list[ReceiptItem]:
    """Items between the merchant block (row ``first``) and the total (row ``last``)."""
    region = list(range(first + 1, min(last, len(rows))))
    texts = [i for i in region if _words(rows[i].tokens) and not _skip(rows[i])]
    if texts:
        # The items end at the first total, payment or card-slip line after them.
        end = next((i for i in region if i > texts[0] and _ends_items(rows[i])), None)
        if end is not None:
            region = [i for i in region if i < end]
    priced = [i for i in region if row_amounts(rows[i], i, separator) and not _skip(rows[i])]
    if not priced:
        return _unpriced(rows, region)
    # The amounts' right edge (a VAT letter may follow them, or be lost with them).
    column = median(row_amounts(rows[i], i, separator)[-1].tokens[-1].bbox[2] for i in priced)
    margin = median(rows[i].tokens[0].bbox[0] for i in priced) + 0.3
    found: list[_Item] = []
    pending: list[Word] = []  # a description printed on its own line above its amount
    waiting: list[list[Word]] = []
    started = False
    consumed: set[int] = set()
    for index in region:
        row = rows[index]
        if index in consumed:
            continue
        if started and _ends_items(row):
            break
        if _skip(row):
            pending = []
            continue
        tokens = row.tokens
        in_column = tokens[-1].bbox[2] >= column - _COLUMN_TOLERANCE
        amounts = [
            a for a in row_amounts(row, index, separator)
            if a.tokens[-1].bbox[2] >= column - 3 * _COLUMN_TOLERANCE
        ]
        amount = amounts[-1] if amounts else None
        if amount is not None:
            left = [t for t in tokens if t.bbox[2] <= amount.tokens[0].bbox[0]]
        elif in_column and len(row.segments) >= 2:
            # An unreadable amount: the last segment is what is left of it.
            left = [t for segment in row.segments[:-1] for t in segment.tokens]
        else:
            left = list(tokens)
        words = _words(left)
        # The description runs from its first word (a leading count or code is not part)
        # to the end of its column: later segments without words are quantity and price.
        lettered = [t for t in left if re.search(r"[^\W\d_]", t.text)]
        description = left[left.index(lettered[0]) :] if words else []
        if description and len(row.segments) >= 2:
            kept: list[Word] = []
            for segment in row.segments:
                inside = [t for t in segment.tokens if t in description]
                if not inside:
                    continue
                if kept and not _words(inside):
                    break
                kept.extend(inside)
            description = kept
        if description and tokens[0].bbox[0] > margin:
            description = []  # centred text or specks right of the item column
        qty = _QTY_LINE.match(row.text)
        if not started:
            if amount is None and not (qty is not None and pending):
                # Items above the first readable amount: a block of in-column rows.
                if description and in_column:
                    waiting.append(description)
                else:
                    waiting = []
                pending = description if description and not in_column else []
                continue
            started = True
            found.extend(_Item(description=d) for d in waiting)
        if (
            not description and qty is None and amount is not None and not pending
            and (not found or found[-1].amount is not None)
        ):
            # "A139  6  17.00  18.02  108.12" over "BESI Y 10": codes and amounts first,
            # the description on the line below.
            below = _description_only(rows, index + 1, last, column, separator)
            if below:
                item = _Item(description=below, amount=amount)
                every = row_amounts(row, index, separator)
                if len(every) >= 2:
                    _in_row_quantity(item, row, every)
                found.append(item)
                consumed.add(index + 1)
                continue
        if not description and (qty is not None or amount is not None):
            target = found[-1] if found and not pending else None
            if pending:
                target = _Item(description=pending)
                found.append(target)
                pending = []
            if target is None:
                continue
            printed = row_amounts(row, index, separator)
            if qty is not None:
                q = Decimal(qty["q"].replace(",", "."))
                target.quantity = (q, tuple(t for t in tokens if t.text.startswith(qty["q"][:1]))[:1])
                prices = [a for a in printed if amount is None or a.tokens != amount.tokens]
                if prices:
                    target.unit_price = prices[0]
                elif qty["p"] is not None and len(printed) == 1:
                    # "2 x 0,99" and nothing after it: the unit price; the line's amount
                    # was not read (null, not computed).
                    target.unit_price = printed[0]
                    continue
            if amount is not None and (target.amount is None or qty is not None):
                target.amount = amount
            continue
        if not description:
            if pending and in_column:
                found.append(_Item(description=pending))
                pending = []
            continue
        if amount is None and not in_column:
            # A description alone on its line: the amount follows on the next line. When
            # another one follows at the same margin instead, the first lost its amount.
            if (
                pending
                and abs(pending[0].bbox[0] - description[0].bbox[0]) < 0.02
                and not any(re.fullmatch(r"\d{6,}", t.text) for t in pending)  # article no.
            ):
                found.append(_Item(description=pending))
            pending = description
            continue
        if amount is not None and amount.value == 0 and L.DISCOUNT.search(L.row_label(row)):
            continue  # "Discount 0.00": no line of its own
        item = _Item(description=description, amount=amount)
        every = row_amounts(row, index, separator)
        if amount is not None and len(every) >= 2:
            _in_row_quantity(item, row, every)
        found.append(item)
        pending = []
    return [_result(item) for item in found]


_END = re.compile(r"\bauth(?:ori[sz]ation)?\b|genehmigungs|terminal|\bapproval\b", re.IGNORECASE)


def _ends_items(row: Row) -> bool:
    """The first line after the items: total, subtotal, a payment, the tax table, the card
    slip. Lines like "Total 6% supplies" between item groups do not end them."""
    text = L.row_label(row)
    return bool(
        (L.leads(L.TOTAL, text) and not L.not_total(text))
        or L.leads(L.SUBTOTAL, text, 1)
        or any(L.leads(p, text, 1) for p in (L.CARD, L.TENDERED, L.CHANGE))
        or L.TAX_TABLE.search(text)
        or _END.search(text)
    )


def _unpriced(rows: Sequence[Row], region: list[int]) -> list[ReceiptItem]:
    """Items when no amount could be read at all (a photo that lost its right-hand column):
    the description lines at the common left margin, amounts null."""
    lines = [
        rows[i] for i in region
        if not _skip(rows[i]) and _words(rows[i].tokens) and not _QTY_LINE.match(rows[i].text)
    ]
    if len(lines) < 2:
        return []
    left = median(r.tokens[0].bbox[0] for r in lines)
    found = [
        _Item(description=r.tokens[r.tokens.index(_words(r.tokens)[0]) :])
        for r in lines if abs(r.tokens[0].bbox[0] - left) <= _COLUMN_TOLERANCE
    ]
    return [_result(item) for item in found]


def _description_only(
    rows: Sequence[Row], index: int, last: int, column: float, separator: str | None
) -> list[Word]:
    """The words of row ``index`` when it is a description line without an amount."""
    if index >= min(last, len(rows)):
        return []
    row = rows[index]
    if _skip(row) or row_amounts(row, index, separator):
        return []
    if row.tokens[-1].bbox[2] >= column - _COLUMN_TOLERANCE or _QTY_LINE.match(row.text):
        return []
    words = _words(row.tokens)
    return row.tokens[row.tokens.index(words[0]) :] if words else []


def _in_row_quantity(item: _Item, row: Row, amounts: list[Amount]) -> None:
    """"2 x 3,50   7,00": a count next to a unit price that multiply to the amount."""
    assert item.amount is not None
    price = amounts[-2]
    used = {id(t) for a in amounts for t in a.tokens}
    for token in row.tokens:
        match = re.match(r"^(\d+(?:[.,]\d+)?)\s*[xX×@*]?$", token.text)
        if match and id(token) not in used:
            q = Decimal(match.group(1).replace(",", "."))
            if q > 0 and close(q * price.value, item.amount.value):
                item.quantity = (q, (token,))
                item.unit_price = price
                item.description = [t for t in item.description if t is not token]
                return


def _result(item: _Item) -> ReceiptItem:
    description = " ".join(t.text for t in item.description)
    quantity = item.quantity

    def money(amount: Amount | None) -> Field | None:
        if amount is None:
            return None
        return make_field(format_amount(amount.value), amount.tokens, 0.7, amount.raw)

    return ReceiptItem(
        description=make_field(description, item.description, 0.7, description),
        quantity=(
            make_field(format(quantity[0].normalize(), "f"), quantity[1], 0.7)
            if quantity is not None else None
        ),
        unit_price=money(item.unit_price),
        amount=money(item.amount),
    )
