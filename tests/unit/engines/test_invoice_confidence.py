"""The invoice fields' calibrated confidences (issue #14 point 2): the shipped map loads and
is monotone in the raw score per field, a raw 0 (and an empty page) gives 0, and the
engine's confidences go through the map, which changes no value."""

from __future__ import annotations

import itertools
import json

import pytest
from tests.unit.engines.invoice_docs import make_invoice
from tests.unit.engines.word_pages import constant_map

from prefect_docai.engines.calibration import ConfidenceMap
from prefect_docai.engines.extract.rows import build_layout
from prefect_docai.engines.invoice import InvoiceEngine
from prefect_docai.engines.invoice import confidence as C
from prefect_docai.engines.invoice.text import extract_invoice
from prefect_docai.engines.page.model import Word
from prefect_docai.engines.pluginspec import EngineOptions
from prefect_docai.models.results import Field, InvoiceResult

RAWS = [0.001, 0.01, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99, 1.0]
EXTRAS = list(itertools.product((0.0, 1.0), (-1.0, 0.0, 1.0), (0.0, 1.0)))


def _constant_map(value: float) -> ConfidenceMap:
    return constant_map(C.FEATURES, C.CALIBRATED, value)


def _fields(result: InvoiceResult) -> dict[str, Field]:
    return {name: found for name, (found, _) in C.field_features(result).items()}


def test_shipped_map_loads_covers_every_field_and_is_monotone() -> None:
    shipped = C.shipped_map()
    assert shipped is not None, f"engines/data/{C.MAP_FILE} is shipped"
    assert shipped.features == C.FEATURES
    assert set(shipped.fields) == set(C.CALIBRATED)
    assert ConfidenceMap.from_json(shipped.to_json()) == shipped
    for name in C.CALIBRATED:
        for extra in EXTRAS:
            values = [shipped.confidence(name, raw, extra) for raw in RAWS]
            assert all(0.0 <= v <= 1.0 for v in values), (name, extra, values)
            assert values == sorted(values), (name, extra, values)
            assert shipped.confidence(name, 0.0, extra) == 0.0


def test_a_map_that_lowers_confidence_with_the_raw_score_is_refused() -> None:
    blob = json.loads(_constant_map(0.5).to_json())
    assert ConfidenceMap.from_json(json.dumps(blob)) == _constant_map(0.5)
    blob["fields"]["iban"]["coef"][0] = -1.0
    with pytest.raises(ValueError, match="monotone"):
        ConfidenceMap.from_json(json.dumps(blob))


def test_an_empty_page_gives_no_confident_field() -> None:
    words = [
        Word("Dies", (0.1, 0.1, 0.14, 0.112), 1.0, font_size=9.0),
        Word("ist", (0.15, 0.1, 0.18, 0.112), 1.0, font_size=9.0),
        Word("ein", (0.19, 0.1, 0.22, 0.112), 1.0, font_size=9.0),
        Word("Brief.", (0.23, 0.1, 0.29, 0.112), 1.0, font_size=9.0),
    ]
    for layout in (build_layout(1, [], 0.7071, "ocr"), build_layout(1, words, 0.7071, "ocr")):
        result = extract_invoice([layout], "ocr")
        assert all(f.confidence == 0.0 for f in _fields(result).values())


def test_the_engine_confidences_go_through_the_map(monkeypatch: pytest.MonkeyPatch) -> None:
    pdf, truth = make_invoice(seed=5, german=True, n_items=3)
    options = EngineOptions(output_formats=("JSON",))
    shipped = InvoiceEngine().run(pdf, options).result
    assert isinstance(shipped, InvoiceResult)
    monkeypatch.setattr(C, "packaged_map", lambda name: _constant_map(0.123))
    mapped = InvoiceEngine().run(pdf, options).result
    assert isinstance(mapped, InvoiceResult)
    fields = _fields(mapped)
    assert {"invoice_number", "invoice_date", "gross_total", "iban"} <= set(fields)
    assert {f.confidence for f in fields.values()} == {0.123}
    # only confidences change: values, pages and boxes are the same
    for name, found in _fields(shipped).items():
        other = fields[name]
        assert (found.value, found.page, found.bbox) == (other.value, other.page, other.bbox)
    assert mapped.invoice_number is not None and mapped.invoice_number.value == truth.number
    # a field the map does not cover keeps its raw score
    assert mapped.due_date is not None and shipped.due_date is not None
    assert mapped.due_date.confidence == shipped.due_date.confidence


def test_extract_invoice_applies_the_shipped_map_once() -> None:
    pdf, _ = make_invoice(seed=6, german=False, n_items=2)
    from prefect_docai.engines.extract.rows import document_layouts
    from prefect_docai.engines.page.document import load_document

    with load_document(pdf, languages=("deu", "eng"), dpi=300) as document:
        layouts = document_layouts(document)
    raw = extract_invoice(layouts, "text-layer", confidence_map=None)
    shipped = extract_invoice(layouts, "text-layer")
    assert shipped == C.calibrated(raw, C.shipped_map())
