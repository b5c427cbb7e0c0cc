"""Address lines invoices and receipts share."""

from __future__ import annotations

from prefect_docai.engines.extract import labels as L


def postcode_city(text: str) -> tuple[str, str, str | None] | None:
    """Postcode, city and a country prefix (``D-63571``) from an address line, in the
    continental order (postcode first) or the US/UK order (city first)."""
    value = text.strip().rstrip(".,")
    match = L.POSTCODE_CITY.match(value)
    if match is not None:
        return match["pc"] or match["pc5"], match["city"].strip(), match["cc"]
    match = L.CITY_POSTCODE.match(value)
    if match is not None:
        return match["pc"], match["city"].strip(), None
    return None
