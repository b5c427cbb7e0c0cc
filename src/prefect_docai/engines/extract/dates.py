"""Dates and times as printed (numeric day-first/ISO formats, month names in de/en/fr/nl;
with ``every_language`` also Dutch abbreviations, Italian and Spanish)."""

from __future__ import annotations

import re
from datetime import date
from functools import lru_cache

_NUMERIC = re.compile(r"^(\d{1,2})[./-](\d{1,2})[./,-](\d{2}|\d{4})$")
"""Day-first numeric dates; a comma before the year is a common OCR misreading of "."."""
_ISO = re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2})$")
_COMPACT = re.compile(r"^(\d{4})(\d{2})(\d{2})$")
_TIME = re.compile(r"^(\d{1,2})[:.h](\d{2})(?::(\d{2}))?\s*([AaPp][Mm])?$")

MONTH_WORDS: frozenset[str] = frozenset(
    [
        "jan",
        "januar",
        "january",
        "janvier",
        "januari",
        "janv",
        "feb",
        "februar",
        "february",
        "février",
        "fevrier",
        "februari",
        "févr",
        "fevr",
        "mär",
        "mrz",
        "märz",
        "march",
        "mars",
        "maart",
        "mar",
        "apr",
        "april",
        "avril",
        "avr",
        "mai",
        "may",
        "mei",
        "juni",
        "june",
        "juin",
        "jun",
        "juli",
        "july",
        "juillet",
        "juil",
        "jul",
        "aug",
        "august",
        "august",
        "août",
        "aout",
        "augustus",
        "sep",
        "sept",
        "september",
        "septembre",
        "okt",
        "oktober",
        "october",
        "octobre",
        "oct",
        "oktober",
        "nov",
        "november",
        "novembre",
        "dez",
        "dezember",
        "december",
        "décembre",
        "decembre",
        "dec",
    ]
)

_LANGUAGES = ["de", "en", "fr", "nl"]

OTHER_MONTH_WORDS: frozenset[str] = frozenset(
    [
        "mrt",
        "gennaio",
        "febbraio",
        "marzo",
        "aprile",
        "maggio",
        "giugno",
        "luglio",
        "agosto",
        "settembre",
        "ottobre",
        "dicembre",
        "gen",
        "mag",
        "giu",
        "lug",
        "ago",
        "set",
        "ott",
        "dic",
        "enero",
        "febrero",
        "abril",
        "mayo",
        "junio",
        "julio",
        "septiembre",
        "setiembre",
        "octubre",
        "noviembre",
        "diciembre",
        "ene",
        "abr",
    ]
)
"""Month names read only with ``every_language`` (the invoice engine: issue #14)."""
_ALL_LANGUAGES = [*_LANGUAGES, "it", "es"]


def _valid(year: int, month: int, day: int) -> date | None:
    if not 1990 <= year <= 2100:
        return None
    try:
        return date(year, month, day)
    except ValueError:
        return None


def parse_date(
    text: str, *, month_first: bool = False, every_language: bool = False
) -> date | None:
    """A printed date → :class:`date`; ``None`` when the text is not one date.

    Numeric dates are day-first (DE/FR/NL/UK custom) unless ``month_first`` (US documents)
    or day-first is impossible; dates with month names go to dateparser (de/en/fr/nl, and
    it/es with ``every_language``).
    """
    value = text.strip().strip(",;:()").strip()
    if not value:
        return None
    if m := _ISO.match(value):
        return _valid(int(m[1]), int(m[2]), int(m[3]))
    if m := _COMPACT.match(value):
        return _valid(int(m[1]), int(m[2]), int(m[3]))
    if m := _NUMERIC.match(value):
        first, second, year = int(m[1]), int(m[2]), int(m[3])
        if year < 100:
            year += 2000
        day, month = (second, first) if month_first else (first, second)
        if month > 12 and day <= 12:
            day, month = month, day
        return _valid(year, month, day)
    words = re.findall(r"[^\W\d_]+", value.lower())
    months = MONTH_WORDS | OTHER_MONTH_WORDS if every_language else MONTH_WORDS
    if not words or not any(w.rstrip(".") in months for w in words):
        return None
    if not re.search(r"\d{4}", value):
        return None
    return _dateparse(value, every_language)


@lru_cache(maxsize=4096)
def _dateparse(value: str, every_language: bool = False) -> date | None:
    import dateparser

    parsed = dateparser.parse(
        value,
        languages=_ALL_LANGUAGES if every_language else _LANGUAGES,
        settings={"DATE_ORDER": "DMY", "PREFER_DAY_OF_MONTH": "first", "STRICT_PARSING": True},
    )
    if parsed is None:
        return None
    return _valid(parsed.year, parsed.month, parsed.day)


def parse_time(text: str) -> str | None:
    """``"14:05"``, ``"2:05 PM"``, ``"14:05:33"`` → ``"14:05"`` / ``"14:05:33"`` (24 h)."""
    m = _TIME.match(text.strip())
    if m is None:
        return None
    hour, minute = int(m[1]), int(m[2])
    if m[4]:
        if hour > 12:
            return None
        hour = hour % 12 + (12 if m[4].lower() == "pm" else 0)
    if hour > 23 or minute > 59:
        return None
    if m[3] is not None:
        second = int(m[3])
        return f"{hour:02d}:{minute:02d}:{second:02d}" if second < 60 else None
    return f"{hour:02d}:{minute:02d}"
