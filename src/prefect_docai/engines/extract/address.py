"""Address lines invoices and receipts share."""

from __future__ import annotations

import re

from prefect_docai.engines.extract import labels as L

_UK_PARTS = re.compile(r"^([A-Z]{1,2})([\dO])([A-Z\d]?)(\s?)([\dO])([A-Z]{2})$")


def uk_postcode(text: str) -> str | None:
    """A British postcode as printed, its digits put back where OCR read a 0 as the letter
    O (``M7W OLB`` → ``M7W 0LB``, ``KAOP 9GF`` → ``KA0P 9GF``, ``NO 8GY`` → ``N0 8GY``): the
    district's first character after the area letters, a character after it and the
    sector's are digits wherever the letter O stands (British postcodes have no O there).
    ``None`` when ``text`` is no postcode of that shape, has no true digit (``GO OAK`` is
    words) or, read with an O put back, ends in a letter no postcode ends in (C, I, K, M,
    O, V: ``HOON 5KG`` is a weight)."""
    match = _UK_PARTS.match(text)
    if match is None or not re.search(r"\d", text):
        return None
    area, district, sub, blank, sector, unit = match.groups()
    digits = [part.replace("O", "0") for part in (district, sub, sector)]
    if digits != [district, sub, sector] and re.search(r"[CIKMOV]", unit):
        return None  # no postcode's last letters: "HOON 5KG" is a weight
    return f"{area}{digits[0]}{digits[1]}{blank}{digits[2]}{unit}"


def _postcode(printed: str) -> str | None:
    """The postcode of a matched line: a British one with its digits put back, any other
    as printed; ``None`` when a British-shaped one has no true digit."""
    if re.fullmatch(L.UK_POSTCODE, printed) and "O" in printed:
        return uk_postcode(printed)
    return printed


def postcode_city(text: str) -> tuple[str, str, str | None] | None:
    """Postcode, city and a country prefix (``D-63571``) from an address line, in the
    continental order (postcode first) or the US/UK order (city first). A British
    postcode's digits read as the letter O are put back (:func:`uk_postcode`)."""
    value = text.strip().rstrip(".,")
    match = L.POSTCODE_CITY.match(value)
    if match is not None:
        postcode = _postcode(match["pc"] or match["pc5"])
        if postcode is not None:
            return postcode, match["city"].strip(), match["cc"]
    match = L.CITY_POSTCODE.match(value)
    if match is not None:
        postcode = _postcode(match["pc"])
        if postcode is not None:
            return postcode, match["city"].strip(), None
    return None
