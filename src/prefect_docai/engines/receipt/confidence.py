"""The receipt fields' confidences, calibrated: the last step of
:func:`.extract.extract_receipt`.

The map (:class:`engines.calibration.ConfidenceMap`, ``engines/data/receipt_confidence.json``,
fitted by ``training/calibration.py --tool receipt``) covers the fields of
:data:`CALIBRATED`; every other field keeps its raw score. Only confidences change.

The ``reading`` feature needs the words a field was read from, the ``margin`` feature the
name row's rivals and the ``twin`` feature the total's, which the result does not keep:
:func:`.extract.extract_receipt_raw` returns them as :class:`Signals` next to the
uncalibrated result, and the map is applied with both (:func:`calibrated`); the training
script gets its rows from the same function.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from prefect_docai.engines import calibration
from prefect_docai.engines.calibration import ConfidenceMap, clipped_logit, field_at, packaged_map
from prefect_docai.engines.page.model import Word
from prefect_docai.models.results import Field, ReceiptResult

MAP_FILE = "receipt_confidence.json"
FEATURES = ("raw", "check", "located", "reading", "margin", "twin", "words")
"""``raw``: logit of the raw score; ``check``: for the total +1 when the line items sum to
it, -1 when they do not, 0 when unknown (0 for the other fields); ``located``: 1 when the
value has a box on the page; ``reading``: how surely the OCR read the field's words, the
logit of the lowest recognizer confidence among them (:func:`reading`); ``margin``: for the
merchant's name, how far its row's probability stands above the runner-up row's
(:func:`.merchant_model.runner_up_margin`; 0 for the other fields); ``twin``: for the total
1 when another candidate stands within two cents of it, the exact and the cash-rounded
total both printed (:func:`.totals.rounding_twin`: the keys take either), 0 otherwise and
for the other fields; ``words``: for the address, the log of the number of words in its
value (:func:`words`; 0 for the other fields)."""

READING_CLIP = 0.01
"""Word confidences are clipped into [READING_CLIP, 1 - READING_CLIP] before the logit."""
NEUTRAL_READING = 0.0
"""The ``reading`` of a field read from no word (logit 0: confidence 0.5, neither sure nor
unsure; such a field has no box either, which ``located`` already says)."""

NEUTRAL_MARGIN = 0.0
"""The ``margin`` of a name no learned scorer chose (the rules' pick: no rival scored)."""

CALIBRATED: dict[str, tuple[str, ...]] = {
    "merchant": ("merchant", "name"),
    "address": ("merchant", "address"),
    "date": ("date",),
    "total": ("total",),
}
"""Field name (as ``benchmarks.receipts_cv`` scores it) → its path in :class:`ReceiptResult`."""


def reading(tokens: Sequence[Word]) -> float:
    """The ``reading`` feature of a field read from ``tokens``: the logit of the lowest
    recognizer confidence among them (one badly read word is enough to make the value
    wrong), clipped into [READING_CLIP, 1 - READING_CLIP]; :data:`NEUTRAL_READING` for
    no token."""
    if not tokens:
        return NEUTRAL_READING
    return clipped_logit(min(t.confidence for t in tokens), READING_CLIP)


def words(value: object) -> float:
    """The ``words`` feature of an address read as ``value``: the log of its number of
    words (at least one). The address's raw score is its rows' mean probability of being
    address rows, which a block of more rows (the edge rows less sure) lowers, though
    the text read from it is whole: on held-out merchants of the SROIE pool an address of
    12 to 14 words is right 63 % of the time at a mean raw score of 0.43, one of 6 to 11
    words 42 % at 0.50. The length tells the map what the mean hides; its weight is fitted
    (positive on every fold of every split tried), not set here."""
    return math.log(max(len(str(value).split()), 1))


def readings(tokens_of: Mapping[str, Sequence[Word] | None]) -> dict[str, float]:
    """Per calibrated field name of ``tokens_of`` whose candidate was found: its
    :func:`reading`."""
    return {
        name: reading(tokens)
        for name, tokens in tokens_of.items()
        if name in CALIBRATED and tokens is not None
    }


@dataclass(frozen=True)
class Signals:
    """What the map needs besides the result, as :func:`.extract.extract_receipt_raw` gives
    it: per calibrated field its :func:`reading` (a field missing there gets
    :data:`NEUTRAL_READING`), the merchant name row's ``margin``, and whether the total has
    a rounding ``twin``."""

    readings: Mapping[str, float]
    name_margin: float = NEUTRAL_MARGIN
    total_twin: bool = False


def field_features(result: ReceiptResult, signals: Signals) -> dict[str, tuple[Field, list[float]]]:
    """Per calibrated field that has a value: the field and its features after ``raw``."""
    items = result.checks.items_sum_to_total
    out = {}
    for name, path in CALIBRATED.items():
        found = field_at(result, path)
        if found is None:
            continue
        check = 0.0 if name != "total" or items is None else (1.0 if items else -1.0)
        located = 1.0 if found.bbox is not None else 0.0
        reading_of = signals.readings.get(name, NEUTRAL_READING)
        margin = signals.name_margin if name == "merchant" else 0.0
        twin = 1.0 if name == "total" and signals.total_twin else 0.0
        length = words(found.value) if name == "address" else 0.0
        out[name] = (found, [check, located, reading_of, margin, twin, length])
    return out


def shipped_map() -> ConfidenceMap | None:
    return packaged_map(MAP_FILE)


def calibrated(
    result: ReceiptResult, signals: Signals, confidence_map: ConfidenceMap | None
) -> ReceiptResult:
    """``result`` with the confidences of :data:`CALIBRATED` fields replaced by the map's
    (``result`` itself when the map is ``None``); ``signals`` as for :func:`field_features`."""
    features = {name: extra for name, (_, extra) in field_features(result, signals).items()}
    return calibration.calibrated(result, CALIBRATED, features, confidence_map)
