"""Labels invoices and receipts share (German, English, French, Dutch), as regular
expressions over folded (lower-case, blank-collapsed) text: VAT-id labels, the words that
make a label the buyer's, and the postcode/city line of an address."""

from __future__ import annotations

import re


def rx(*alternatives: str) -> re.Pattern[str]:
    """One case-insensitive pattern matching any of ``alternatives``."""
    return re.compile("|".join(f"(?:{a})" for a in alternatives), re.IGNORECASE)


BUYER_CONTEXT = rx(
    r"kunde", r"customer", r"client", r"klant", r"k[äa]ufer", r"buyer", r"ihre?\b",
    r"your\b", r"empf[äa]nger", r"acheteur",
)

VAT_ID = rx(
    r"u\.?\s*st\.?[\s.-]*id", r"ust[\s.-]*id", r"ustid", r"umsatzsteuer[\s-]*id",
    r"vat\s*(?:reg(?:istration)?\.?\s*)?(?:no|number|id|nr)", r"\bvat\b", r"n[°o]\s*tva",
    r"\btva\b", r"btw[\s-]*(?:nummer|nr|id)?", r"tax\s*id", r"\bvat\s*:", r"mwst[\s-]*nr",
    r"identifikationsnummer", r"intracom",
)

UK_POSTCODE = r"[A-Z]{1,2}[\dO][A-Z\d]?\s?[\dO][A-Z]{2}"
"""A British postcode ("SW1A 1AA", "M7W 0LB"), its digits as OCR may read them: the
district's digit and the sector's (the first of the last three) also as the letter O, which
British postcodes never have there (:func:`engines.extract.address.uk_postcode` puts the 0
back and wants one true digit)."""

CITY_POSTCODE = re.compile(
    r"^(?P<city>[^\W\d_][\w .'-]*?),?\s+(?:(?P<state>[A-Z]{2})\s+)?"
    r"(?P<pc>\d{5}(?:-\d{4})?|(?=\S+\s\S{3}$)" + UK_POSTCODE + r")$"
)
"""US ("Fremont CA 94538") and UK ("London SW1A 1AA") order: city first."""

POSTCODE_CITY = re.compile(
    r"^(?:(?P<cc>[A-Z]{1,2})[- ])?(?:(?P<pc>\d{4}\s?[A-Z]{2}(?=\s)|\d{4}|\d{5}"
    r"|" + UK_POSTCODE + r")\s+|(?P<pc5>\d{5}))(?P<city>[^\W\d_][\w .'()/-]*?)\s*$"
)
"""Continental order (``D-63571 Gelnhausen``, ``1012 AB Amsterdam``): postcode first."""
