"""The receipt total by weighing evidence, not by the first keyword that matches.

A till receipt states its total several times: on the total line, as the card payment,
as cash tendered minus change, as subtotal plus tax and rounding, in the tax summary. OCR
garbles some of these (a digit misread, "RM79.35" read as "179.35"), and some keyword lines
carry other amounts ("Total Qty", "Total Tax", the tax table's "Total" row). Every value a
total line or a payment relation proposes becomes a candidate; each is scored by the
keyword's strength plus the independent restatements that agree with it, and readings one
OCR slip apart share their evidence.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal

from prefect_docai.engines.extract.candidates import Candidate, money_tokens
from prefect_docai.engines.extract.rows import Row
from prefect_docai.engines.page.model import Word, union
from prefect_docai.engines.receipt import labels as L

MAX_TOTAL = Decimal("100000")
_CENT = Decimal("0.01")
_SPLIT_HEAD = re.compile(r"^[-(]?\d{1,6}[.,]$")
_SPLIT_TAIL = re.compile(r"^\d{2}[.)]?$")
_RM_GLUE = re.compile(r"^(?:R[MNHW]|MYR)\.?(?=\d)", re.IGNORECASE)


@dataclass(frozen=True)
class Amount:
    value: Decimal
    tokens: tuple[Word, ...]
    row: int

    @property
    def raw(self) -> str:
        return " ".join(t.text for t in self.tokens)


@dataclass
class _Evidence:
    label: float = 0.0
    support: float = 0.0
    reasons: list[str] = field(default_factory=list)
    amount: Amount | None = None


def _joined_tokens(tokens: Sequence[Word]) -> list[Word]:
    """Tokens with OCR-split amounts rejoined ("79." + "35") and an "RM" prefix read as
    "RN"/"RH" cut off, so that money parsing sees one amount."""
    out: list[Word] = []
    index = 0
    while index < len(tokens):
        token = tokens[index]
        text = _RM_GLUE.sub("", token.text)
        nxt = tokens[index + 1] if index + 1 < len(tokens) else None
        if (
            nxt is not None
            and _SPLIT_HEAD.match(text)
            and _SPLIT_TAIL.match(nxt.text)
            and nxt.bbox[0] - token.bbox[2] < 1.2 * max(token.height, nxt.height)
        ):
            merged = text + nxt.text.rstrip(".")
            out.append(replace(token, text=merged, bbox=union((token.bbox, nxt.bbox)),
                               confidence=min(token.confidence, nxt.confidence)))
            index += 2
            continue
        if text != token.text:
            token = replace(token, text=text)
        out.append(token)
        index += 1
    return out


def row_amounts(row: Row, index: int, separator: str | None) -> list[Amount]:
    return [
        Amount(value, tokens, index)
        for value, tokens, _ in money_tokens(_joined_tokens(row.tokens), separator)
    ]


def _variants(value: Decimal) -> set[Decimal]:
    """Readings one OCR slip away: one digit substituted, or a leading digit that is a
    misread currency prefix ("RM8.20" → "58.20", "€4,99" → "64,99")."""
    text = f"{value:.2f}"
    found: set[Decimal] = set()
    for position, char in enumerate(text):
        if not char.isdigit():
            continue
        for digit in "0123456789":
            if digit != char:
                found.add(Decimal(text[:position] + digit + text[position + 1 :]))
    if len(text) > 4 and text[0].isdigit():
        found.add(Decimal(text[1:]))
    found |= {Decimal(digit + text) for digit in "123456789"}
    found.discard(value)
    return found


_KEYWORD = re.compile(
    "|".join(p.pattern for p in (L.TOTAL, L.SUBTOTAL, L.CHANGE, L.TENDERED, L.CARD, L.ROUNDING)),
    re.IGNORECASE,
)


def _amount_only(label: str) -> bool:
    """A row holding an amount and at most a currency: "48,09", "RM 12.00", "€ 5,00"."""
    rest = re.sub(r"\b(?:rm|eur|euro|myr|usd|gbp|chf)\b|[€$£:*.,\s\d-]", "", label)
    return len(rest) <= 1


def _near(a: Decimal, b: Decimal) -> bool:
    return abs(a - b) <= _CENT


@dataclass
class TotalAnalysis:
    ranked: list[tuple[float, Decimal, list[str]]]
    """Candidate totals, best first: (score, value, why)."""
    total: Candidate | None
    subtotal: Amount | None
    tax: Amount | None
    candidates: list[TotalCandidate] = field(default_factory=list)
    """Every value the rules weighed, then every other printed amount (label and support
    0): what a learned scorer (:mod:`.total_model`) chooses from."""
    labels: list[str] = field(default_factory=list)
    amounts: list[list[Amount]] = field(default_factory=list)
    table_start: int = 0
    roundings: list[Amount] = field(default_factory=list)
    tendered: list[Amount] = field(default_factory=list)


@dataclass(frozen=True)
class TotalCandidate:
    """One value proposed for the total with the rules' evidence for it."""

    value: Decimal
    amount: Amount
    """Where the value is printed (the strongest keyword line's reading)."""
    label: float
    support: float
    score: float
    """The rules' score: label + support + a twin's keyword."""
    reasons: tuple[str, ...]


def totals_of(
    analysis: TotalAnalysis, choose: Callable[[TotalAnalysis], Candidate | None] | None = None
) -> dict[str, Candidate | None]:
    """Total, subtotal and tax of ``analysis`` (:func:`analyse_totals`; the caller keeps it
    for :func:`rounding_twin`); ``choose`` (a learned scorer) picks the total among the
    analysis's candidates instead of the rules' own ranking."""
    total = analysis.total if choose is None else choose(analysis)

    def as_candidate(amount: Amount | None, score: float) -> Candidate | None:
        return None if amount is None else Candidate(amount.value, amount.tokens, score, amount.raw)

    return {
        "total": total,
        "subtotal": as_candidate(analysis.subtotal, 0.75),
        "tax": as_candidate(analysis.tax, 0.65),
    }


ROUNDING_REACH = Decimal("0.02")
"""How far a rounded total may stand from the exact one: cash rounding to 5 cents moves an
amount by at most 2 cents."""


def rounding_twin(analysis: TotalAnalysis, value: Decimal) -> bool:
    """Whether another candidate of ``analysis`` lies within :data:`ROUNDING_REACH` of the
    total ``value`` chosen: the receipt prints the exact and the cash-rounded total (or a
    slip one cent away), and the two are equally the total. Receipts' keys take the one or
    the other (most of the SROIE pool's held-out total misses are such a cent or two), so a
    total with a twin is right less often than its scorer's probability says, however sure
    the scorer is which one the receipt calls the total."""
    return any(
        c.value != value and abs(c.value - value) <= ROUNDING_REACH for c in analysis.candidates
    )


def analyse_totals(rows: Sequence[Row], separator: str | None) -> TotalAnalysis:
    labels = [L.row_label(row) for row in rows]
    amounts = [row_amounts(row, index, separator) for index, row in enumerate(rows)]
    every = [a for row in amounts for a in row if 0 < abs(a.value) < MAX_TOTAL]
    table_start = next(
        (i for i, text in enumerate(labels) if L.TAX_TABLE.search(text)), len(rows)
    )

    subtotal = tax = None
    tendered: list[Amount] = []
    changes: list[Amount] = []
    cards: list[Amount] = []
    roundings: list[Amount] = []
    extras: list[Amount] = []  # service charges and the like, added before the total
    evidence: dict[Decimal, _Evidence] = {}

    def propose(amount: Amount, strength: float, reason: str) -> None:
        entry = evidence.setdefault(amount.value, _Evidence())
        if strength > entry.label or entry.amount is None:
            entry.label = max(entry.label, strength)
            entry.amount = amount
        entry.reasons.append(reason)

    for index, (text, found) in enumerate(zip(labels, amounts, strict=True)):
        if not found and _KEYWORD.search(text):
            # Skew or a wide gap put the amount on a row of its own, below or above.
            for near in (index + 1, index - 1):
                if 0 <= near < len(rows) and amounts[near] and _amount_only(labels[near]):
                    found = amounts[near]
                    break
        if not found:
            continue
        last = found[-1]
        if L.SUBTOTAL.search(text):
            if subtotal is None:
                subtotal = last
            continue
        if L.ROUNDING.search(text):
            roundings.append(last)
            continue
        if L.leads(L.CHANGE, text):
            changes.append(last)
            continue
        if L.TOTAL.search(text) and not L.not_total(text) and 0 < last.value < MAX_TOTAL:
            strength = 0.9 if L.STRONG_TOTAL.search(text) else 0.75
            if len(found) >= 3 or index > table_start:
                # "Summe 1,91 17,67 19,58" or a row under "GST Summary": the tax table
                # restates bases and taxes; its sum is weak evidence.
                strength -= 0.35
            if any(r.value != 0 and r.row < index for r in roundings):
                strength += 0.1  # the total restated after a rounding line is the final one
            propose(last, strength, "total line")
            continue
        if L.leads(L.CARD, text) and not L.TAX.search(text):
            cards.append(last)
            continue
        if L.leads(L.TENDERED, text):
            tendered.append(last)
            continue
        if L.TAX.search(text) and tax is None and index < table_start and not re.search(
            r"\d{1,2}(?:[.,]\d+)?\s*%.*\d.*\d", text
        ):
            tax = last
            continue
        if re.search(r"service|srv|svc|charge|bedienung", text) and index < table_start:
            extras.append(last)

    # The tax table's gross column: net + tax = gross on a row; the largest such gross is
    # the total when one rate applies (or on the table's sum row).
    table = [a for row in amounts[table_start + 1 :] for a in row if a.value >= 0]
    grosses = [
        c for c in table
        if c.value > 0 and any(
            _near(x.value + y.value, c.value) for x in table for y in table
            if x is not y and x is not c and y is not c and x.row >= c.row - 1
            and (y.value > 0 or x.value == c.value)  # a zero rate: net = gross
        )
    ]
    if grosses:
        gross = max(grosses, key=lambda a: a.value)
        rates = {a.row: a for a in grosses if a is not gross}
        if rates and not _near(sum((a.value for a in rates.values()), Decimal(0)), gross.value):
            # One gross per rate and no sum row: the total is their sum.
            parts = [gross, *rates.values()]
            gross = Amount(
                sum((a.value for a in parts), Decimal(0)),
                tuple(t for a in parts for t in a.tokens),
                gross.row,
            )
        propose(gross, 0.0, "tax table gross")
        evidence[gross.value].support += 0.5
    # Restatements of the total.
    for card in cards:
        if card.value > 0:
            propose(card, 0.0, "card payment")
            evidence[card.value].support += 0.5
    paid = [t for t in tendered if t.value > 0]
    for cash in paid:
        returned = [abs(c.value) for c in changes if abs(c.value) < cash.value]
        if returned:
            for change in returned:
                value = cash.value - change
                entry = evidence.setdefault(value, _Evidence())
                entry.support += 0.6 if change > 0 else 0.4
                entry.reasons.append("tendered - change")
        else:
            # Tendered without a change line: exact payment, weaker (may be rounded up).
            propose(cash, 0.0, "tendered")
            evidence[cash.value].support += 0.3
    if subtotal is not None:
        base = subtotal.value
        sums = {base}
        for extra in ([tax.value] if tax is not None else []) + [e.value for e in extras]:
            sums |= {s + extra for s in sums}
        sums |= {s + r.value for s in sums for r in roundings}
        printed = {v for v in sums if v != base and any(_near(a.value, v) for a in every)}
        for value in printed or {base}:
            # The subtotal is the total only when nothing printed adds tax or rounding to it.
            entry = evidence.setdefault(value, _Evidence())
            entry.support += 0.4 if value != base else 0.25
            entry.reasons.append("subtotal (+ tax/rounding)")
    # Restatements elsewhere above the tax table (which copies the total's parts).
    skip = {id(a) for a in (subtotal, tax) if a is not None}
    elsewhere = [a for a in every if a.row < table_start and id(a) not in skip]
    for value, entry in evidence.items():
        repeats = sum(1 for a in elsewhere if _near(a.value, value)) - (1 if entry.amount else 0)
        entry.support += min(0.45, 0.15 * max(repeats, 0))
        if entry.amount is None:
            # A relation-only value counts when the page prints it somewhere.
            match = next((a for a in every if _near(a.value, value)), None)
            entry.amount = match
    if subtotal is not None:
        for value, entry in evidence.items():
            if value < subtotal.value - _CENT and not any(L.DISCOUNT.search(t) for t in labels):
                entry.support -= 0.5
    if tax is not None and tax.value in evidence:
        evidence[tax.value].support -= 0.5

    scored: list[tuple[float, Decimal, _Evidence]] = []
    candidates: list[TotalCandidate] = []
    for value, entry in evidence.items():
        if entry.amount is None or not 0 < value < MAX_TOTAL:
            continue
        score = entry.label + entry.support
        # A reading one OCR slip from a better-supported one lends it its keyword.
        for other in _variants(value):
            twin = evidence.get(other)
            if twin is not None and twin.label > entry.label and entry.support > twin.support:
                score += 0.9 * (twin.label - entry.label)
        scored.append((score, value, entry))
        candidates.append(TotalCandidate(value, entry.amount, entry.label, entry.support, score,
                                         tuple(entry.reasons)))
    weighed = {c.value for c in candidates}
    for amount in every:
        if amount.value > 0 and amount.value not in weighed:
            weighed.add(amount.value)
            candidates.append(TotalCandidate(amount.value, amount, 0.0, 0.0, 0.0, ()))

    total = None
    if scored:
        score, value, entry = max(scored, key=lambda s: (s[0], s[2].label, s[1]))
        if score >= 0.5 and entry.amount is not None:
            confidence = max(0.4, min(0.95, 0.45 + score / 3))
            total = Candidate(value, entry.amount.tokens, confidence, entry.amount.raw)
    if total is None and every:
        # No keyword and no relation: the largest plausible amount, low confidence, among
        # amounts standing in the right-hand amount column (a "3 x 3,69" unit price or a
        # tax-table base on the left is no total, however large).
        left = min(r.bbox[0] for r in rows)
        right = max(r.bbox[2] for r in rows)
        edge = left + 0.6 * (right - left)
        largest = max(
            (
                a for a in every
                if a.value > 0 and a.tokens[-1].bbox[2] >= edge and a is amounts[a.row][-1]
                and a.row < table_start
            ),
            key=lambda a: a.value,
            default=None,
        )
        if largest is not None:
            total = Candidate(largest.value, largest.tokens, 0.45, largest.raw)
    ranked = sorted(((sc, v, e.reasons) for sc, v, e in scored), key=lambda s: -s[0])
    return TotalAnalysis(ranked, total, subtotal, tax, candidates, labels, amounts, table_start,
                         roundings, tendered)
