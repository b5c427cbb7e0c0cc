"""Candidate values found on the page: what a label points to, where, and how sure."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from datetime import date
from decimal import Decimal

from prefect_docai.engines.extract import parse_amount, parse_date
from prefect_docai.engines.extract.amounts import CURRENCY_CODES, CURRENCY_SYMBOLS
from prefect_docai.engines.extract.rows import PageLayout, Row, Segment, fold
from prefect_docai.engines.page.model import Word

_MONEY = re.compile(r"^[-−(]?[\d.,'\u202f]*\d[.,]\d{2}[-)]?$")
_CURRENCY_TOKEN = {c.lower() for c in CURRENCY_CODES} | set(CURRENCY_SYMBOLS)


@dataclass(frozen=True)
class Candidate:
    value: object
    tokens: tuple[Word, ...]
    score: float
    raw: str

    @property
    def page(self) -> int:
        return self.tokens[0].page if self.tokens else 0

    @property
    def y(self) -> float:
        return self.tokens[0].bbox[1] if self.tokens else 0.0


def strip_currency(text: str) -> tuple[str, str | None]:
    """Split a leading/trailing currency symbol or code off a token."""
    value = text.strip().rstrip(":;*")
    for symbol, code in CURRENCY_SYMBOLS.items():
        if value.startswith(symbol) or value.endswith(symbol):
            return value.strip(symbol).strip(), code
    upper = value.upper()
    for code in CURRENCY_CODES:
        if upper.startswith(code) and upper[len(code) :][:1].isdigit():
            return value[len(code) :], code
        if upper.endswith(code) and upper[: -len(code)][-1:].isdigit():
            return value[: -len(code)], code
    return value, None


def money_tokens(
    tokens: Sequence[Word], decimal_separator: str | None
) -> list[tuple[Decimal, tuple[Word, ...], str | None]]:
    """Amounts printed with two decimals (``1.234,56``, ``€ 399,00``, ``12,50 EUR``) in
    reading order, each with the tokens it spans and an adjacent currency if any."""
    found: list[tuple[Decimal, tuple[Word, ...], str | None]] = []
    for index, token in enumerate(tokens):
        core, currency = strip_currency(token.text)
        # "(35,13 €)" on an invoice is an amount shown for information (tax included),
        # not an accounting negative.
        if core.startswith("(") and core.endswith(")"):
            core = core[1:-1]
        if not _MONEY.match(core):
            continue
        amount = parse_amount(core, decimal_separator)
        if amount is None:
            continue
        span = [token]
        if index > 0 and tokens[index - 1].text.strip().lower() in _CURRENCY_TOKEN:
            span.insert(0, tokens[index - 1])
            currency = currency or _code(tokens[index - 1].text)
        if index + 1 < len(tokens) and tokens[index + 1].text.strip().lower() in _CURRENCY_TOKEN:
            span.append(tokens[index + 1])
            currency = currency or _code(tokens[index + 1].text)
        found.append((amount, tuple(span), currency))
    return found


def _code(text: str) -> str | None:
    value = text.strip()
    if value in CURRENCY_SYMBOLS:
        return CURRENCY_SYMBOLS[value]
    return value.upper() if value.upper() in CURRENCY_CODES else None


def date_in(
    tokens: Sequence[Word], month_first: bool = False, *, every_language: bool = False
) -> tuple[date, tuple[Word, ...]] | None:
    """The first date in a token run (numeric in one token, or up to four tokens with a
    month name such as ``7. Mai 2014``; with ``every_language`` also Italian and Spanish
    names and five tokens: ``5 de marzo de 2024``)."""
    widths = (1, 3, 2, 4, 5) if every_language else (1, 3, 2, 4)
    for start in range(len(tokens)):
        for width in widths:
            piece = tokens[start : start + width]
            if len(piece) < width:
                continue
            text = " ".join(t.text for t in piece)
            parsed = parse_date(text, month_first=month_first, every_language=every_language)
            if parsed is not None:
                return parsed, tuple(piece)
    return None


def label_hits(
    layouts: Sequence[PageLayout], pattern: re.Pattern[str], *, whole_rows: bool = False
) -> Iterator[tuple[PageLayout, Row, Segment, int]]:
    """Every segment whose folded text matches ``pattern``, with the label's end offset.
    ``whole_rows`` matches across a row's segments (title lines such as
    ``Rechnung (380) | Nr. 4711 vom | 05.06.2025`` that OCR or layout split up)."""
    for layout in layouts:
        for row in layout.rows:
            segments = [Segment(row.tokens, row.page, row.index)] if whole_rows else row.segments
            for segment in segments:
                match = pattern.search(fold(segment.text))
                if match is not None:
                    yield layout, row, segment, _end_offset(segment.text, match.end())


def _end_offset(text: str, folded_end: int) -> int:
    """Map an offset in the folded text back to the segment text (blanks may differ)."""
    folded = 0
    for index, char in enumerate(text):
        if folded >= folded_end:
            return index
        if char.isspace() and index > 0 and text[index - 1].isspace():
            continue
        folded += 1
    return len(text)


def value_runs(
    layout: PageLayout, row: Row, segment: Segment, end: int
) -> Iterator[tuple[list[Word], float]]:
    """Where a label's value may stand, best first, with a position factor: after the
    label in its segment, in the next segment of the row, or in the segment just below."""
    rest = segment.after(end)
    split = _split_token(segment, end)
    if split is not None:
        rest = [split, *rest]
    if rest:
        yield rest, 1.0
    # A whole-row pseudo segment (title lines) has no next segment of its own.
    position = next((i for i, s in enumerate(row.segments) if s is segment), None)
    if position is not None and position + 1 < len(row.segments):
        yield row.segments[position + 1].tokens, 0.95
    below = below_segments(layout, row, segment, limit=1)
    for other in below:
        yield other.tokens, 0.8


def _split_token(segment: Segment, end: int) -> Word | None:
    """The part after ``end`` of a token the label ends inside (``Nr.:4711`` printed
    without a blank), with a proportional share of the token's box."""
    for token, begin in zip(segment.tokens, segment.starts, strict=True):
        if begin < end < begin + len(token.text):
            cut = end - begin
            tail = token.text[cut:].lstrip(":# ")
            if not tail:
                return None
            x0, y0, x1, y1 = token.bbox
            share = (len(token.text) - len(tail)) / len(token.text)
            return replace(token, text=tail, bbox=(x0 + (x1 - x0) * share, y0, x1, y1))
    return None


def below_segments(layout: PageLayout, row: Row, segment: Segment, limit: int) -> list[Segment]:
    """Segments in the rows just below that overlap the segment horizontally."""
    found: list[Segment] = []
    x0, _, x1, y1 = segment.bbox
    height = max(y1 - segment.bbox[1], 1e-3)
    last_bottom = y1
    for other_row in layout.rows[row.index + 1 :]:
        if other_row.bbox[1] - last_bottom > 2.5 * height:
            break
        for other in other_row.segments:
            ox0, _, ox1, _ = other.bbox
            if ox0 < x1 and ox1 > x0:
                found.append(other)
                last_bottom = other.bbox[3]
                break
        if len(found) >= limit:
            break
    return found


def best(candidates: Sequence[Candidate]) -> Candidate | None:
    return max(candidates, key=lambda c: c.score, default=None)
