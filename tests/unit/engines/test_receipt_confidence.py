"""The receipt fields' calibrated confidences (issue #14 point 2): the shipped map loads and
is monotone in the raw score per field, an empty page gives no confident field, and the
engine's confidences go through the map, which changes no value."""

from __future__ import annotations

import itertools

import pytest
from tests.unit.engines.invoice_docs import make_receipt
from tests.unit.engines.word_pages import constant_map

from prefect_docai.engines.calibration import ConfidenceMap
from prefect_docai.engines.extract.rows import build_layout
from prefect_docai.engines.pluginspec import EngineOptions
from prefect_docai.engines.receipt import ReceiptEngine
from prefect_docai.engines.receipt import confidence as C
from prefect_docai.engines.receipt.extract import extract_receipt
from prefect_docai.models.results import Field, ReceiptResult

RAWS = [0.001, 0.01, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99, 1.0]
EXTRAS = list(itertools.product((-1.0, 0.0, 1.0), (0.0, 1.0)))


def _constant_map(value: float) -> ConfidenceMap:
    return constant_map(C.FEATURES, C.CALIBRATED, value)


def _fields(result: ReceiptResult) -> dict[str, Field]:
    return {name: found for name, (found, _) in C.field_features(result).items()}


def test_shipped_map_loads_covers_every_field_and_is_monotone() -> None:
    shipped = C.shipped_map()
    assert shipped is not None, f"engines/data/{C.MAP_FILE} is shipped"
    assert shipped.features == C.FEATURES
    assert set(shipped.fields) == set(C.CALIBRATED)
    for name in C.CALIBRATED:
        for extra in EXTRAS:
            values = [shipped.confidence(name, raw, extra) for raw in RAWS]
            assert all(0.0 <= v <= 1.0 for v in values), (name, extra, values)
            assert values == sorted(values), (name, extra, values)
            assert shipped.confidence(name, 0.0, extra) == 0.0


def test_an_empty_page_gives_no_confident_field() -> None:
    result = extract_receipt([build_layout(1, [], 0.4, "ocr")])
    assert all(f.confidence == 0.0 for f in _fields(result).values())


def test_the_engine_confidences_go_through_the_map(monkeypatch: pytest.MonkeyPatch) -> None:
    pdf, truth = make_receipt(seed=7, german=True)
    options = EngineOptions()
    shipped = ReceiptEngine().run(pdf, options).result
    assert isinstance(shipped, ReceiptResult)
    monkeypatch.setattr(C, "packaged_map", lambda name: _constant_map(0.123))
    mapped = ReceiptEngine().run(pdf, options).result
    assert isinstance(mapped, ReceiptResult)
    fields = _fields(mapped)
    assert {"merchant", "date", "total"} <= set(fields)
    assert {f.confidence for f in fields.values()} == {0.123}
    for name, found in _fields(shipped).items():
        other = fields[name]
        assert (found.value, found.page, found.bbox) == (other.value, other.page, other.bbox)
    assert mapped.total is not None and mapped.total.value == f"{truth.total:.2f}"
    # a field the map does not cover keeps its raw score
    assert mapped.time is not None and shipped.time is not None
    assert mapped.time.confidence == shipped.time.confidence
