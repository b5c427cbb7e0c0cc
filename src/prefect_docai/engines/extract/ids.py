"""Bank and tax identifiers, validated: IBAN/BIC by schwifty, VAT ids by python-stdnum."""

from __future__ import annotations

import re

_IBAN_START = re.compile(r"\b([A-Z]{2}\s?[\dOIl]{2})")
_BIC = re.compile(r"^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}(?:[A-Z0-9]{3})?$")
_STNR = re.compile(r"^\d{2,3}/\d{3,4}/\d{4,5}$|^\d{10,13}$|^\d{2,3} \d{3,4} \d{4,5}$")


def normalize_iban(text: str) -> str | None:
    """The compact IBAN when ``text`` is one with a valid checksum, else ``None``."""
    from schwifty import IBAN
    from schwifty.exceptions import SchwiftyException

    compact = re.sub(r"[\s.-]", "", text).upper()
    try:
        return str(IBAN(compact).compact)
    except (SchwiftyException, ValueError):
        return None


def find_ibans(text: str) -> list[tuple[str, int, int]]:
    """Valid IBANs in free text with their character spans, greedy over blank groups
    (``DE88 2008 0000 0970 3757 00``), the longest valid prefix winning."""
    found: list[tuple[str, int, int]] = []
    upper = text.upper()
    for start_match in _IBAN_START.finditer(upper):
        start = start_match.start()
        tail = upper[start:]
        chunk = re.match(r"[A-Z0-9]+(?:[ ][A-Z0-9]+){0,9}", tail)
        if chunk is None:
            continue
        # Try ever shorter prefixes that end at a group boundary or inside the last group.
        candidate = chunk.group(0)
        for end in range(min(len(candidate), 42), 14, -1):
            piece = candidate[:end]
            if piece.endswith(" "):
                continue
            iban = normalize_iban(piece) or normalize_iban(_ocr_digits(piece))
            if iban is not None:
                found.append((iban, start, start + end))
                break
    return found


_DIGIT_LOOKALIKES = str.maketrans("OoQDIlSZB", "000011528")
_NUMERIC_BBAN = frozenset(
    {"DE", "AT", "BE", "DK", "EE", "FI", "HR", "LT", "LU", "SI", "SK", "CZ", "PL", "HU", "SE",
     "NO", "PT", "ES"}
)


def _ocr_digits(text: str) -> str:
    """An IBAN with OCR letter-for-digit slips repaired where the format wants digits
    (the check digits, and the whole BBAN of all-numeric countries such as DE/AT); the
    mod-97 checksum then confirms or rejects the repair."""
    compact = re.sub(r"\s", "", text)
    if len(compact) < 5:
        return text
    head = compact[:2] + compact[2:4].translate(_DIGIT_LOOKALIKES)
    body = compact[4:]
    if compact[:2] in _NUMERIC_BBAN:
        body = body.translate(_DIGIT_LOOKALIKES)
    return head + body


def normalize_bic(text: str) -> str | None:
    """The BIC (8 or 11 characters, known country) or ``None``."""
    from schwifty import BIC
    from schwifty.exceptions import SchwiftyException

    compact = re.sub(r"\s", "", text).upper()
    if not _BIC.match(compact):
        return None
    try:
        bic = BIC(compact)
        if bic.country is None:
            return None
    except (SchwiftyException, ValueError):
        return None
    return compact


def bic_matches_iban(bic: str, iban: str) -> bool | None:
    """Whether the BIC belongs to the IBAN's bank, where schwifty's registry knows it."""
    from schwifty import IBAN

    try:
        known = IBAN(iban).bic
    except ValueError:
        return None
    if known is None:
        return None
    return str(known)[:8] == bic[:8]


_VAT_SHAPE = re.compile(
    r"^(?:ATU\d{8}|BE[01]\d{9}|DE\d{9}|DK\d{8}|FR[0-9A-Z]{2}\d{9}|NL\d{9}B\d{2}|LU\d{8}"
    r"|IT\d{11}|ES[0-9A-Z]\d{7}[0-9A-Z]|PL\d{10}|CZ\d{8,10}|GB\d{9}(?:\d{3})?|CHE\d{9}"
    r"|IE\d{7}[A-Z]{1,2}|IE\d[A-Z]\d{5}[A-Z]|SE\d{12}|FI\d{8}|PT\d{9}|EL\d{9}|SK\d{10}"
    r"|SI\d{8}|HU\d{8}|RO\d{2,10}|BG\d{9,10}|HR\d{11}|EE\d{9}|LV\d{11}|LT\d{9,12}"
    r"|MT\d{8}|CY\d{8}[A-Z])(?:MWST|TVA|IVA)?$"
)


def vat_id_shape(text: str) -> str | None:
    """The compact VAT id when ``text`` has a country's VAT id format, checksum or not
    (sample and test documents print ids like ``DE123456789`` that fail the check)."""
    compact = re.sub(r"[\s.-]", "", text).upper()
    return compact if _VAT_SHAPE.match(compact) else None


def normalize_vat_id(text: str) -> str | None:
    """A VAT id with a valid check digit (EU states via ``stdnum.eu.vat``, plus GB, CH)."""
    from stdnum import exceptions
    from stdnum.eu import vat

    compact = re.sub(r"[\s.-]", "", text).upper()
    if not re.match(r"^[A-Z]{2}[0-9A-Z]{2,14}$", compact):
        return None
    try:
        if compact[:2].lower() in vat.MEMBER_STATES or compact[:2] == "EL":
            return str(vat.validate(compact))
        if compact.startswith("GB"):
            from stdnum.gb import vat as gb_vat

            return "GB" + str(gb_vat.validate(compact[2:]))
        if compact.startswith("CHE"):
            from stdnum.ch import vat as ch_vat

            return str(ch_vat.compact(ch_vat.validate(compact)))
    except exceptions.ValidationError:
        return None
    return None


def normalize_tax_number(text: str) -> str | None:
    """A German Steuernummer as printed (``201/113/40209``); stdnum checks only its shape
    and region, so the printed form is kept rather than a guessed canonical one."""
    value = text.strip().strip(".,;")
    if not _STNR.match(value):
        return None
    digits = re.sub(r"\D", "", value)
    if not 10 <= len(digits) <= 13:
        return None
    return value
