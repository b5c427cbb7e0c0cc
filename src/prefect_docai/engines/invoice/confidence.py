"""The invoice fields' confidences, calibrated: the last step of :func:`.text.extract_invoice`.

The map (:class:`engines.calibration.ConfidenceMap`, ``engines/data/invoice_confidence.json``,
fitted by ``training/calibration.py``) covers the header fields of :data:`CALIBRATED`; every
other field keeps its raw score. Only confidences change: values, pages and boxes stay.
"""

from __future__ import annotations

from prefect_docai.engines import calibration
from prefect_docai.engines.calibration import ConfidenceMap, field_at, packaged_map
from prefect_docai.models.results import Field, InvoiceResult

MAP_FILE = "invoice_confidence.json"
FEATURES = ("raw", "ocr", "check", "located")
"""``raw``: logit of the raw score; ``ocr``: 1 when the pages were read by OCR; ``check``:
+1 when the invoice's own arithmetic or checksum confirms the field (net + tax = gross for
the totals, the IBAN's check digits, the BIC's and VAT id's format), -1 when it refutes it,
0 when there is none; ``located``: 1 when the value has a box on the page."""

CALIBRATED: dict[str, tuple[str, ...]] = {
    "invoice_number": ("invoice_number",),
    "invoice_date": ("invoice_date",),
    "currency": ("currency",),
    "seller_name": ("seller", "name"),
    "seller_vat_id": ("seller", "vat_id"),
    "buyer_name": ("buyer", "name"),
    "iban": ("payment", "iban"),
    "bic": ("payment", "bic"),
    "net_total": ("totals", "net"),
    "tax_total": ("totals", "tax"),
    "gross_total": ("totals", "gross"),
}
"""Field name → its path in :class:`InvoiceResult`."""


def _sign(flag: bool | None) -> float:
    return 0.0 if flag is None else (1.0 if flag else -1.0)


def field_features(result: InvoiceResult) -> dict[str, tuple[Field, list[float]]]:
    """Per calibrated field that has a value: the field and its features after ``raw``
    (:data:`FEATURES`)."""
    checks = result.checks
    check = {
        "net_total": _sign(checks.totals_consistent),
        "tax_total": _sign(checks.totals_consistent),
        "gross_total": _sign(checks.totals_consistent),
        "iban": _sign(checks.iban_valid),
        "bic": _sign(checks.bic_valid),
        "seller_vat_id": _sign(checks.vat_id_valid),
    }
    ocr = 1.0 if result.source == "ocr" else 0.0
    out = {}
    for name, path in CALIBRATED.items():
        found = field_at(result, path)
        if found is None:
            continue
        out[name] = (found, [ocr, check.get(name, 0.0), 1.0 if found.bbox is not None else 0.0])
    return out


def shipped_map() -> ConfidenceMap | None:
    return packaged_map(MAP_FILE)


def calibrated(result: InvoiceResult, confidence_map: ConfidenceMap | None) -> InvoiceResult:
    """``result`` with the confidences of :data:`CALIBRATED` fields replaced by the map's
    (``result`` itself when the map is ``None``). ``result.checks`` must be computed."""
    features = {name: extra for name, (_, extra) in field_features(result).items()}
    return calibration.calibrated(result, CALIBRATED, features, confidence_map)
