"""The receipt fields' calibrated confidences (issue #14 point 2): the shipped map loads and
is monotone in the raw score per field, an empty page gives no confident field, the
engine's confidences go through the map, which changes no value, the ``reading``
feature comes from the recognizer confidences of the field's words, and the ``margin``
feature from how far the name row's probability stands above its runner-up's (the shipped
map trusts a name with a close rival less), and the ``twin`` feature from another total
candidate within two cents of the total (the shipped map trusts such a total less), and
the ``words`` feature from the address's length."""

from __future__ import annotations

import dataclasses
import itertools
import math

import pytest
from tests.unit.engines.invoice_docs import make_receipt
from tests.unit.engines.test_receipt_fields import layout
from tests.unit.engines.test_receipt_merchant_model import one_feature_model
from tests.unit.engines.word_pages import constant_map

from prefect_docai.engines.calibration import ConfidenceMap, FieldMap
from prefect_docai.engines.extract.rows import PageLayout, build_layout
from prefect_docai.engines.pluginspec import EngineOptions
from prefect_docai.engines.receipt import ReceiptEngine
from prefect_docai.engines.receipt import confidence as C
from prefect_docai.engines.receipt.extract import extract_receipt, extract_receipt_raw
from prefect_docai.engines.receipt.merchant_model import MARGIN_CLIP, runner_up_margin
from prefect_docai.models.results import Field, ReceiptResult

RAWS = [0.001, 0.01, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99, 1.0]
EXTRAS = list(
    itertools.product(
        (-1.0, 0.0, 1.0), (0.0, 1.0), (-4.6, 0.0, 4.6), (0.0, 2.0, 10.0), (0.0, 1.0), (0.0, 2.5)
    )
)


def _constant_map(value: float) -> ConfidenceMap:
    return constant_map(C.FEATURES, C.CALIBRATED, value)


def _fields(result: ReceiptResult) -> dict[str, Field]:
    return {name: found for name, (found, _) in C.field_features(result, C.Signals({})).items()}


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


HEAD: list[str | tuple[str, ...]] = [
    "INDAH GIFT & HOME DECO",
    "27, JALAN DEDAP 13,",
    "TAMAN JOHOR JAYA,",
    "81100 JOHOR BAHRU, JOHOR.",
    "Date: 19/10/2018",
    ("Tea", "2.35"),
    ("Total", "2.35"),
]


def _head(low: dict[str, float]) -> PageLayout:
    """:data:`HEAD` with the words of ``low`` read at those confidences (the others 0.9)."""
    words = [
        dataclasses.replace(w, confidence=low.get(w.text, w.confidence))
        for row in layout(HEAD).rows
        for w in row.tokens
    ]
    return build_layout(1, words, 0.5, "ocr")


def _logit(p: float) -> float:
    return math.log(p / (1 - p))


def test_reading_is_the_logit_of_the_least_sure_word_clipped() -> None:
    words = layout(["A B"]).rows[0].tokens
    assert C.reading([]) == C.NEUTRAL_READING
    assert C.reading(words) == pytest.approx(_logit(0.9))
    low = [words[0], dataclasses.replace(words[1], confidence=0.3)]
    assert C.reading(low) == pytest.approx(_logit(0.3))
    assert C.reading([dataclasses.replace(words[0], confidence=0.0)]) == pytest.approx(
        _logit(C.READING_CLIP)
    )


def test_the_reading_comes_from_the_field_words_and_moves_the_confidence() -> None:
    rules = {"total_model": None, "name_model": None, "line_model": None}
    sure, sure_readings = extract_receipt_raw([_head({})], **rules)
    unsure, unsure_readings = extract_receipt_raw([_head({"DEDAP": 0.3})], **rules)
    address = sure.merchant.address
    assert address is not None and "DEDAP" in str(address.value)
    assert unsure.merchant.address is not None
    assert unsure.merchant.address.value == address.value
    assert sure_readings.readings["address"] == pytest.approx(_logit(0.9))
    assert unsure_readings.readings["address"] == pytest.approx(_logit(0.3))
    # a word outside the address leaves its reading alone
    total = unsure_readings.readings["total"]
    assert total == sure_readings.readings["total"] == pytest.approx(_logit(0.9))
    # a map weighing only the reading: the address's confidence follows its least sure word
    weights = tuple(1.0 if f == "reading" else 0.0 for f in C.FEATURES)
    by_reading = ConfidenceMap(C.FEATURES, {"address": FieldMap(weights, 0.0)}, {})
    high = extract_receipt([_head({})], **rules, confidence_map=by_reading).merchant.address
    low = extract_receipt(
        [_head({"DEDAP": 0.3})], **rules, confidence_map=by_reading
    ).merchant.address
    assert high is not None and low is not None
    assert high.value == low.value
    assert high.confidence == pytest.approx(0.9, abs=1e-3)
    assert low.confidence == pytest.approx(0.3, abs=1e-3)


def test_the_margin_is_the_logit_gap_to_the_runner_up() -> None:
    assert runner_up_margin([]) == 0.0
    assert runner_up_margin([0.7]) == MARGIN_CLIP
    assert runner_up_margin([0.5, 0.9, 0.1]) == pytest.approx(_logit(0.9))
    assert runner_up_margin([0.8, 0.8]) == 0.0
    assert runner_up_margin([1.0, 0.0]) == MARGIN_CLIP


def test_the_margin_comes_from_the_name_rows_and_moves_the_merchant_confidence() -> None:
    lines: list[str | tuple[str, ...]] = ["tan woon yann", *HEAD]
    plain = {"total_model": None, "line_model": None}
    # one row scored apart from the rest (the rules' pick): p = 0.88 against 0.12
    apart, apart_signals = extract_receipt_raw(
        [layout(lines)], name_model=one_feature_model("rule_choice"), **plain
    )
    # every capitals-only row scored alike: the chosen one has rivals as likely
    alike, alike_signals = extract_receipt_raw(
        [layout(lines)], name_model=one_feature_model("capitals"), **plain
    )
    _, rules_signals = extract_receipt_raw([layout(lines)], name_model=None, **plain)
    assert apart.merchant.name is not None and alike.merchant.name is not None
    assert apart_signals.name_margin == pytest.approx(4.0)
    assert alike_signals.name_margin == 0.0
    assert rules_signals.name_margin == C.NEUTRAL_MARGIN
    at = C.FEATURES.index("margin") - 1
    features = C.field_features(apart, apart_signals)
    assert features["merchant"][1][at] == pytest.approx(4.0)
    assert all(extra[at] == 0.0 for name, (_, extra) in features.items() if name != "merchant")
    # a map weighing only the margin: the name's confidence follows it
    weights = tuple(1.0 if f == "margin" else 0.0 for f in C.FEATURES)
    by_margin = ConfidenceMap(C.FEATURES, {"merchant": FieldMap(weights, 0.0)}, {})
    sure = C.calibrated(apart, apart_signals, by_margin).merchant.name
    unsure = C.calibrated(alike, alike_signals, by_margin).merchant.name
    assert sure is not None and unsure is not None
    assert sure.confidence == pytest.approx(1 / (1 + math.exp(-4.0)), abs=1e-3)
    assert unsure.confidence == pytest.approx(0.5, abs=1e-3)


def test_the_shipped_map_trusts_a_name_with_a_close_rival_less() -> None:
    shipped = C.shipped_map()
    assert shipped is not None
    for raw in (0.6, 0.8, 0.95):
        close = shipped.confidence("merchant", raw, (0.0, 1.0, 2.0, 0.5, 0.0, 0.0))
        apart = shipped.confidence("merchant", raw, (0.0, 1.0, 2.0, 6.0, 0.0, 0.0))
        assert close < apart, (raw, close, apart)


def _total_lines(*totals: tuple[str, str]) -> list[str | tuple[str, ...]]:
    return [*HEAD[:5], ("Tea", "25.44"), *totals]


def test_a_total_beside_its_cash_rounded_twin_has_a_twin() -> None:
    rules = {"name_model": None, "line_model": None}
    exact = _total_lines(("Total", "25.44"), ("Rounding", "0.01"), ("Rounded Total", "25.45"))
    twinned, twinned_signals = extract_receipt_raw([layout(exact)], **rules)
    assert twinned.total is not None and twinned.total.value in ("25.44", "25.45")
    assert twinned_signals.total_twin
    at = C.FEATURES.index("twin") - 1
    features = C.field_features(twinned, twinned_signals)
    assert features["total"][1][at] == 1.0
    assert all(extra[at] == 0.0 for name, (_, extra) in features.items() if name != "total")
    # a lone total, and one whose nearest other amount is more than two cents away
    for lines in (
        _total_lines(("Total", "25.44")),
        _total_lines(("Total", "25.44"), ("Cash", "25.50"), ("Change", "0.06")),
    ):
        alone, alone_signals = extract_receipt_raw([layout(lines)], **rules)
        assert alone.total is not None and alone.total.value == "25.44"
        assert not alone_signals.total_twin
        assert C.field_features(alone, alone_signals)["total"][1][at] == 0.0


def test_the_shipped_map_trusts_a_total_with_a_rounding_twin_less() -> None:
    shipped = C.shipped_map()
    assert shipped is not None
    at = C.FEATURES.index("twin") - 1
    for check in (-1.0, 0.0, 1.0):
        for raw in (0.8, 0.95, 0.99):
            base = [check, 1.0, 4.6, 0.0, 0.0, 0.0]
            alone = shipped.confidence("total", raw, base)
            base[at] = 1.0
            twinned = shipped.confidence("total", raw, base)
            assert twinned < alone, (check, raw, twinned, alone)


def test_the_words_feature_is_the_log_of_the_address_length() -> None:
    rules = {"total_model": None, "name_model": None, "line_model": None}
    result, signals = extract_receipt_raw([_head({})], **rules)
    address = result.merchant.address
    assert address is not None
    at = C.FEATURES.index("words") - 1
    features = C.field_features(result, signals)
    count = len(str(address.value).split())
    assert count > 5
    assert features["address"][1][at] == pytest.approx(math.log(count))
    assert all(extra[at] == 0.0 for name, (_, extra) in features.items() if name != "address")
    assert C.words("") == 0.0


def test_the_words_feature_moves_the_address_confidence() -> None:
    rules = {"total_model": None, "name_model": None, "line_model": None}
    weights = tuple(1.0 if f == "words" else 0.0 for f in C.FEATURES)
    by_words = ConfidenceMap(C.FEATURES, {"address": FieldMap(weights, 0.0)}, {})
    result, signals = extract_receipt_raw([_head({})], **rules)
    address = C.calibrated(result, signals, by_words).merchant.address
    assert address is not None
    count = len(str(address.value).split())
    assert address.confidence == pytest.approx(count / (count + 1), abs=1e-3)
