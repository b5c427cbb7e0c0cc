"""The receipt fields' confidences, calibrated: the last step of
:func:`.extract.extract_receipt`.

The map (:class:`engines.calibration.ConfidenceMap`, ``engines/data/receipt_confidence.json``,
fitted by ``training/calibration.py --tool receipt``) covers the fields of
:data:`CALIBRATED`; every other field keeps its raw score. Only confidences change.
"""

from __future__ import annotations

from prefect_docai.engines import calibration
from prefect_docai.engines.calibration import ConfidenceMap, field_at, packaged_map
from prefect_docai.models.results import Field, ReceiptResult

MAP_FILE = "receipt_confidence.json"
FEATURES = ("raw", "check", "located")
"""``raw``: logit of the raw score; ``check``: for the total +1 when the line items sum to
it, -1 when they do not, 0 when unknown (0 for the other fields); ``located``: 1 when the
value has a box on the page."""

CALIBRATED: dict[str, tuple[str, ...]] = {
    "merchant": ("merchant", "name"),
    "address": ("merchant", "address"),
    "date": ("date",),
    "total": ("total",),
}
"""Field name (as ``benchmarks.receipts_cv`` scores it) → its path in :class:`ReceiptResult`."""


def field_features(result: ReceiptResult) -> dict[str, tuple[Field, list[float]]]:
    """Per calibrated field that has a value: the field and its features after ``raw``."""
    items = result.checks.items_sum_to_total
    out = {}
    for name, path in CALIBRATED.items():
        found = field_at(result, path)
        if found is None:
            continue
        check = 0.0 if name != "total" or items is None else (1.0 if items else -1.0)
        out[name] = (found, [check, 1.0 if found.bbox is not None else 0.0])
    return out


def shipped_map() -> ConfidenceMap | None:
    return packaged_map(MAP_FILE)


def calibrated(result: ReceiptResult, confidence_map: ConfidenceMap | None) -> ReceiptResult:
    """``result`` with the confidences of :data:`CALIBRATED` fields replaced by the map's
    (``result`` itself when the map is ``None``)."""
    features = {name: extra for name, (_, extra) in field_features(result).items()}
    return calibration.calibrated(result, CALIBRATED, features, confidence_map)
