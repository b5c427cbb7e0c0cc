"""VAT ids and VAT lines, as invoices and receipts print them."""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import Decimal
from itertools import product

from prefect_docai.engines.extract import format_rate, normalize_vat_id
from prefect_docai.engines.extract import labels as L
from prefect_docai.engines.extract.amounts import tax_line_consistent
from prefect_docai.engines.extract.candidates import Candidate, best, money_tokens
from prefect_docai.engines.extract.ids import vat_id_shape
from prefect_docai.engines.extract.rows import PageLayout, fold
from prefect_docai.engines.page.model import Word


def is_buyer_context(text: str) -> bool:
    """Whether a label reads as the buyer's (``Ihre USt-IdNr``, ``N° TVA client``)."""
    return L.BUYER_CONTEXT.search(fold(text)) is not None


def vat_ids(layouts: Sequence[PageLayout]) -> tuple[Candidate | None, Candidate | None]:
    """Seller and buyer VAT ids: a VAT-shaped id (valid check digit preferred), assigned
    to the buyer when its label says so (``Ihre USt-IdNr``, ``N° TVA client``)."""
    seller: list[Candidate] = []
    buyer: list[Candidate] = []
    for layout in layouts:
        for row in layout.rows:
            for index, segment in enumerate(row.segments):
                tokens = segment.tokens
                context = fold(segment.text)
                labelled = L.VAT_ID.search(context) is not None
                # A buyer's label in a segment of its own left of the value ("Ihre
                # USt-IdNr. | DE…": a gap OCR set between label and value) makes it the
                # buyer's as well; it adds no score (a misread "Ihre" would otherwise
                # make the buyer's id tie with the seller's labelled one).
                left = fold(row.segments[index - 1].text) if index > 0 and not labelled else ""
                buyers = (labelled and is_buyer_context(context)) or (
                    L.VAT_ID.search(left) is not None and is_buyer_context(left)
                )
                for start in range(len(tokens)):
                    for width in (1, 2, 3, 4, 5):
                        piece = tokens[start : start + width]
                        if len(piece) < width:
                            break
                        text = "".join(t.text for t in piece).strip(":,;()")
                        shaped = vat_id_shape(text)
                        if shaped is None:
                            continue
                        valid = normalize_vat_id(shaped) is not None
                        score = 0.55 + (0.25 if valid else 0) + (0.15 if labelled else 0)
                        candidate = Candidate(shaped, tuple(piece), score, " ".join(t.text for t in piece))
                        (buyer if buyers else seller).append(candidate)
                        break
    seller_best = best(seller)
    buyer_best = best([c for c in buyer if seller_best is None or c.value != seller_best.value])
    return seller_best, buyer_best


_RATE = re.compile(r"^(\d{1,2}(?:[.,]\d{1,2})?)\s*%?$")


def tax_breakdown(
    layouts: Sequence[PageLayout], decimal_separator: str | None
) -> list[tuple[Candidate, Candidate, Candidate]]:
    """VAT lines (rate, base, amount): rows holding a rate and two amounts with
    base × rate = amount — the arithmetic is what identifies them, in any layout."""
    found: list[tuple[Candidate, Candidate, Candidate]] = []
    seen: set[tuple[Decimal, Decimal, Decimal]] = set()
    for layout in layouts:
        for row in layout.rows:
            tokens = row.tokens
            amounts = money_tokens(tokens, decimal_separator)
            if len(amounts) < 2:
                continue
            rates: list[tuple[Decimal, Word]] = []
            for index, token in enumerate(tokens):
                text = token.text.strip()
                if text == "%" and index > 0:
                    text = tokens[index - 1].text + "%"
                    token = tokens[index - 1]
                match = _RATE.match(text)
                if match and (text.endswith("%") or re.fullmatch(r"\d{1,2}(?:[.,]\d{1,2})?", text)):
                    rate = Decimal(match.group(1).replace(",", "."))
                    if Decimal(0) < rate <= Decimal(30):
                        rates.append((rate, token))
            for rate, rate_token in rates:
                for (base, base_tokens, _), (amount, amount_tokens, _) in product(amounts, amounts):
                    if base_tokens == amount_tokens or base <= amount or base == 0:
                        continue
                    if base_tokens[0].bbox[0] > amount_tokens[0].bbox[0]:
                        continue
                    if not tax_line_consistent(base, rate, amount):
                        continue
                    key = (rate, base, amount)
                    if key in seen:
                        continue
                    seen.add(key)
                    found.append(
                        (
                            Candidate(format_rate(rate), (rate_token,), 0.9, rate_token.text),
                            Candidate(base, base_tokens, 0.9, " ".join(t.text for t in base_tokens)),
                            Candidate(amount, amount_tokens, 0.9, " ".join(t.text for t in amount_tokens)),
                        )
                    )
    return found
