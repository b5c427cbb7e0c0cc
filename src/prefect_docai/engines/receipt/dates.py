"""The receipt's date: every plausible reading on the page, scored by where it stands.

Till receipts print dates in many shapes ("30/04/2018", "30-Apr-18", "05 May 18",
"01.06.2018 15:20") and OCR damages them ("3O/O4/2018", "30/64/2018", "3004/2018"). Each
row yields readings: as printed, with letters read for digits, with a lost separator put
back, and (on a "Date"/"Datum" row only) with one commonly confused digit swapped or from
the row's digit groups. A reading is scored by its repair cost, a date label, a time on the
same row and plausibility (year 2000 or later, not in the future).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import date, timedelta

from prefect_docai.engines.extract.candidates import Candidate, date_in
from prefect_docai.engines.extract.rows import Row
from prefect_docai.engines.page.model import Word

_I = re.IGNORECASE
DATE_LABEL = re.compile(r"\b(?:dates?|datum|dated|tarikh|dt)\b|^d\s?d\b", _I)
OTHER_DATE = re.compile(
    r"valid|expir|exp\b|gültig|g[uü]ltig|until|bis\b|mhd|best\s*before|due|f[aä]llig|"
    r"birth|geburt|print",
    _I,
)
"""Dates that are not the purchase date (vouchers, expiry, print stamps) score lower."""
_TIME = re.compile(r"\b\d{1,2}[:.]\d{2}(?:[:.]\d{2})?\b|\b\d{1,2}:\d{2}\s?[ap]m\b", _I)
_LETTER_DIGITS = str.maketrans({"O": "0", "o": "0", "D": "0", "Q": "0", "I": "1", "l": "1",
                                "|": "1", "i": "1", "!": "1", "S": "5", "s": "5", "B": "8",
                                "Z": "2", "z": "2", "G": "6", "b": "6", "g": "9", "q": "9"})
_MONTHS = {
    "jan": 1, "feb": 2, "mar": 3, "mär": 3, "mrz": 3, "apr": 4, "may": 5, "mai": 5,
    "jun": 6, "jul": 7, "aug": 8, "sep": 9, "okt": 10, "oct": 10, "nov": 11, "dec": 12,
    "dez": 12,
}
_MONTH_NAME = re.compile(
    r"\b(\d{1,2})\s*[-./ ]?\s*(jan|feb|m[aä]r|mrz|apr|ma[yi]|jun|jul|aug|sep|o[ck]t|nov|de[cz])"
    r"[a-zä]*\.?\s*[-./ ,]?\s*'?(\d{4}(?=\d{1,2}:\d{2})|\d{4}\b|\d{2}\b)",
    _I,
)
"""The year may run into the time when OCR lost the blank ("4 September202414:59")."""
_GLUED_TIME = re.compile(r"(.*?\d{4})\d{1,2}:\d{2}(?::\d{2})?")
"""A date whose year runs into the time: "05.01.202609:05" (RapidOCR lost the blank)."""
_MONTH_FIRST_NAME = re.compile(
    r"\b(jan|feb|m[aä]r|apr|ma[yi]|jun|jul|aug|sep|o[ck]t|nov|de[cz])[a-z]*\.?\s+(\d{1,2}),?\s+(\d{4})\b",
    _I,
)
_DATEISH = re.compile(r"^[\dOoDQIl|i!SsBZzGbgq]{1,4}[./-][\dOoDQIl|i!SsBZzGbgq]{1,4}(?:[./-][\dOoDQIl|i!SsBZzGbgq]{2,4})?$")
_JOINED = re.compile(r"^(\d{2})(\d{2})[./-](\d{2}|\d{4})$|^(\d{2})[./-](\d{2})(\d{4})$|^(\d{2})[./-](\d{2})[./-]?(\d{4})$")
_CONFUSED_DIGITS = {"6": "0", "0": "8", "8": "0", "9": "0", "3": "8", "5": "6", "1": "7", "7": "1", "4": "1"}


@dataclass(frozen=True)
class DateReading:
    value: date
    tokens: tuple[Word, ...]
    cost: float


def _valid(year: int, month: int, day: int, today: date) -> date | None:
    if year < 100:
        year += 2000
    if not year >= 2000:
        return None
    try:
        value = date(year, month, day)
    except ValueError:
        return None
    return value if value <= today + timedelta(days=1) else None


def _numeric(text: str, month_first: bool, today: date) -> date | None:
    match = re.fullmatch(r"(\d{1,2})[./-](\d{1,2})[./,-](\d{2}|\d{4})", text)
    if match is not None:
        first, second, year = int(match[1]), int(match[2]), int(match[3])
        day, month = (second, first) if month_first else (first, second)
        return _valid(year, month, day, today) or _valid(year, day, month, today)
    match = re.fullmatch(r"(\d{4})[./-](\d{1,2})[./-](\d{1,2})", text)
    if match is not None:
        return _valid(int(match[1]), int(match[2]), int(match[3]), today)
    return None


def _readings(row: Row, month_first: bool, labelled: bool, today: date) -> Iterator[DateReading]:
    tokens = row.tokens
    hit = date_in(tokens, month_first=month_first)
    if hit is not None and _valid(hit[0].year, hit[0].month, hit[0].day, today) is not None:
        yield DateReading(hit[0], hit[1], 0.0)
    text = row.text
    for match in _MONTH_NAME.finditer(text):
        month = _MONTHS.get(match[2].lower()[:3], 0)
        value = _valid(int(match[3]), month, int(match[1]), today) if month else None
        if value is not None:
            yield DateReading(value, _span(row, match.start(), match.end()), 0.0)
    for match in _MONTH_FIRST_NAME.finditer(text):
        month = _MONTHS.get(match[1].lower()[:3], 0)
        value = _valid(int(match[3]), month, int(match[2]), today) if month else None
        if value is not None:
            yield DateReading(value, _span(row, match.start(), match.end()), 0.0)
    for token in tokens:
        raw = token.text.strip(".,:;()[]'\"“”‘’")
        glued = _GLUED_TIME.fullmatch(raw)
        if glued is not None:
            raw = glued[1]
        if not _DATEISH.match(raw) and not re.fullmatch(r"\d{6,8}|\d{2}[./-]\d{6}|\d{4,5}[./-]\d{4}", raw):
            continue
        fixed = raw.translate(_LETTER_DIGITS)
        cost = 0.0 if fixed == raw else 0.15
        value = _numeric(fixed, month_first, today)
        if value is not None:
            # Also when read as printed: "05/07/2025." with its full stop escapes date_in.
            yield DateReading(value, (token,), cost)
            continue
        joined = _JOINED.match(fixed)
        if joined is not None:
            d, m, y = (g for g in joined.groups() if g is not None)
            value = _valid(int(y), int(m), int(d), today)
            if value is not None:
                yield DateReading(value, (token,), cost + 0.2)
                continue
        slash = re.fullmatch(r"(\d{2})[17](\d{2})[./-](\d{4})", fixed)
        if labelled and slash is not None:
            # "13707/2017": the first "/" read as a 7 or 1, next to a date label.
            value = _valid(int(slash[3]), int(slash[2]), int(slash[1]), today)
            if value is not None:
                yield DateReading(value, (token,), cost + 0.3)
                continue
        if labelled:
            # One commonly confused digit ("30/64/2018"): only next to a date label.
            for position, char in enumerate(fixed):
                swap = _CONFUSED_DIGITS.get(char)
                if swap is None:
                    continue
                value = _numeric(fixed[:position] + swap + fixed[position + 1 :], month_first, today)
                if value is not None:
                    yield DateReading(value, (token,), cost + 0.3)
                    break
    if labelled:
        # A date OCR tore apart ("Date : O1- “06 aa 18"): day, month, year as the first
        # digit groups after the label.
        label = DATE_LABEL.search(text)
        rest = text[label.end() :] if label else text
        rest = _TIME.sub(" ", rest)
        groups = re.findall(r"[\dOoIl|]{1,4}", rest)
        digits = [g.translate(_LETTER_DIGITS) for g in groups if re.search(r"\d", g)]
        if len(digits) >= 3 and all(d.isdigit() for d in digits[:3]):
            d, m, y = (int(x) for x in digits[:3])
            value = _valid(y, m, d, today) if len(digits[2]) in (2, 4) else None
            if value is not None:
                yield DateReading(value, tuple(tokens), 0.45)


def _span(row: Row, start: int, end: int) -> tuple[Word, ...]:
    out: list[Word] = []
    position = 0
    for token in row.tokens:
        if position < end and position + len(token.text) > start:
            out.append(token)
        position += len(token.text) + 1
    return tuple(out) or tuple(row.tokens)


def receipt_date(
    rows: Sequence[Row], *, month_first: bool = False, today: date | None = None
) -> Candidate | None:
    today = today or date.today()
    best: tuple[float, int, DateReading] | None = None
    for index, row in enumerate(rows):
        labelled = bool(DATE_LABEL.search(row.text))
        for reading in _readings(row, month_first, labelled, today):
            score = 0.8 - reading.cost
            if labelled:
                score += 0.1
            if _TIME.search(row.text):
                score += 0.05
            if OTHER_DATE.search(row.text):
                score -= 0.3
            if best is None or score > best[0] + 1e-9:
                best = (score, index, reading)
    if best is None:
        return None
    score, _, reading = best
    raw = " ".join(t.text for t in reading.tokens)
    return Candidate(reading.value.isoformat(), reading.tokens, max(0.3, min(0.95, score)), raw)
