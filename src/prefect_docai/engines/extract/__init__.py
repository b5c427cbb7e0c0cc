"""What invoice and receipt extraction share: words regrouped into rows and segments
(``rows``), candidates and result fields, labels, VAT ids and lines, addresses, and the
normalizers for amounts, dates, identifiers and countries (re-exported here).

Each parser takes printed text and answers the normalized form (docs/results.md: amounts as
2-decimal strings, ISO dates, ids without blanks, ISO 3166 alpha-2 countries) or ``None``
when the text is not a valid value — callers use ``None`` to reject a candidate.
"""

from prefect_docai.engines.extract.amounts import (
    detect_decimal_separator,
    format_amount,
    format_rate,
    parse_amount,
    parse_rate,
)
from prefect_docai.engines.extract.countries import country_code
from prefect_docai.engines.extract.dates import parse_date, parse_time
from prefect_docai.engines.extract.ids import (
    find_ibans,
    normalize_bic,
    normalize_iban,
    normalize_tax_number,
    normalize_vat_id,
)

__all__ = [
    "country_code",
    "detect_decimal_separator",
    "find_ibans",
    "format_amount",
    "format_rate",
    "normalize_bic",
    "normalize_iban",
    "normalize_tax_number",
    "normalize_vat_id",
    "parse_amount",
    "parse_date",
    "parse_rate",
    "parse_time",
]
