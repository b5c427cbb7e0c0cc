"""The learned receipt total: candidates and their features on hand-built layouts, the
model file's format, and that the engine's total is the shipped model's choice."""

from __future__ import annotations

from decimal import Decimal

import pytest
from tests.unit.engines.test_receipt_fields import layout

from prefect_docai.engines.extract.rows import Row
from prefect_docai.engines.receipt.extract import extract_receipt
from prefect_docai.engines.receipt.total_model import (
    TOTAL_FEATURES,
    TotalModel,
    choose_total,
    shipped_model,
    total_features,
)
from prefect_docai.engines.receipt.totals import analyse_totals

LINES: list[str | tuple[str, ...]] = [
    "KEDAI MAJU SDN BHD",
    "NO 5, JALAN BESAR, 81300 SKUDAI",
    ("Rice", "4.22"),
    ("Tea", "2.35"),
    ("Sub Total", "6.57"),
    ("Rounding Adj", "-0.02"),
    ("Grand Total", "6.55"),
    ("Cash", "10.00"),
    ("Change", "3.45"),
]


def rows_of(lines: list[str | tuple[str, ...]]) -> list[Row]:
    return layout(lines).rows


def features_by_value(lines: list[str | tuple[str, ...]]) -> dict[Decimal, dict[str, float]]:
    rows = rows_of(lines)
    analysis = analyse_totals(rows, ".")
    return {
        candidate.value: dict(zip(TOTAL_FEATURES, vector, strict=True))
        for candidate, vector in total_features(analysis, rows)
    }


def test_every_printed_amount_is_a_candidate_with_one_value_per_feature() -> None:
    found = features_by_value(LINES)
    assert set(found) >= {Decimal(v) for v in ("4.22", "2.35", "6.57", "6.55", "10.00", "3.45")}
    assert all(len(f) == len(TOTAL_FEATURES) for f in found.values())


def test_features_describe_keywords_position_and_arithmetic() -> None:
    found = features_by_value(LINES)
    total, cash, rice = found[Decimal("6.55")], found[Decimal("10.00")], found[Decimal("4.22")]
    assert total["kw_total"] == 1.0 and total["kw_strong"] == 1.0
    assert total["kw_subtotal"] == 0.0 and total["kw_not_total"] == 0.0
    assert total["r_total_line"] == 1.0 and total["near_subtotal"] == 1.0
    assert total["equals_subtotal"] == 0.0 and found[Decimal("6.57")]["equals_subtotal"] == 1.0
    assert found[Decimal("6.57")]["kw_subtotal"] == 1.0
    assert total["occurrences"] == 1.0
    assert total["has_rounding"] == 1.0
    assert cash["kw_cash"] == 1.0 and cash["is_max"] == 1.0 and cash["kw_total"] == 0.0
    # 10.00 minus 3.45 change restates 6.55; the cash amount exceeds no tendered amount.
    assert total["r_change"] == 1.0 and cash["over_tendered"] == 0.0
    assert rice["label"] == 0.0 and rice["kw_total"] == 0.0 and rice["first_row"] < 0.5
    assert rice["five_cents"] == 0.0 and total["five_cents"] == 1.0
    assert found[Decimal("3.45")]["kw_change"] == 1.0


def test_a_value_over_the_cash_tendered_is_flagged() -> None:
    lines: list[str | tuple[str, ...]] = [
        ("Item", "12.00"),
        ("Total", "12.00"),
        ("Cash", "20.00"),
        ("Change", "8.00"),
        ("Points", "31.00"),
    ]
    found = features_by_value(lines)
    assert found[Decimal("31.00")]["over_tendered"] == 1.0
    assert found[Decimal("12.00")]["over_tendered"] == 0.0


def one_feature_model(name: str, weight: float = 4.0) -> TotalModel:
    n = len(TOTAL_FEATURES)
    coef = [0.0] * n
    coef[TOTAL_FEATURES.index(name)] = weight
    return TotalModel(TOTAL_FEATURES, (0.0,) * n, (1.0,) * n, tuple(coef), -2.0)


def test_choose_total_takes_the_most_probable_candidate_and_its_probability() -> None:
    rows = rows_of(LINES)
    analysis = analyse_totals(rows, ".")
    chosen = choose_total(analysis, rows, one_feature_model("is_max"))
    assert chosen is not None and chosen.value == Decimal("10.00")
    assert chosen.score == pytest.approx(1 / (1 + 2.718281828459045**-2), abs=1e-4)
    chosen = choose_total(analysis, rows, one_feature_model("kw_change"))
    assert chosen is not None and chosen.value == Decimal("3.45")


def test_extract_receipt_takes_a_given_model_and_none_means_rules() -> None:
    page = layout(LINES)
    by_model = extract_receipt([page], total_model=one_feature_model("is_max")).total
    by_rules = extract_receipt([page], total_model=None).total
    assert by_model is not None and by_model.value == "10.00"
    assert by_rules is not None and by_rules.value == "6.55"


def test_model_json_round_trips_and_refuses_other_features() -> None:
    model = one_feature_model("kw_total")
    text = model.to_json()
    assert TotalModel.from_json(text, TOTAL_FEATURES) == model
    assert model.to_json() == TotalModel.from_json(text, TOTAL_FEATURES).to_json()
    import json

    blob = json.loads(text)
    blob["features"] = blob["features"][:-1]
    with pytest.raises(ValueError):
        TotalModel.from_json(json.dumps(blob), TOTAL_FEATURES)


def test_the_engine_uses_the_shipped_model() -> None:
    model = shipped_model()
    assert model is not None, "engines/data/receipt_total.json is not shipped"
    page = layout(LINES)
    rows = page.rows
    analysis = analyse_totals(rows, ".")
    expected = choose_total(analysis, rows, model)
    # Without the confidence map (engines/receipt/confidence.py, tested on its own) the
    # total's confidence is the model's probability, not the rules' 0.45 + score / 3.
    total = extract_receipt([page], confidence_map=None).total
    assert expected is not None and total is not None
    assert total.value == f"{expected.value:.2f}"
    assert total.confidence == pytest.approx(expected.score, abs=1e-3)
    rules = extract_receipt([page], total_model=None, confidence_map=None).total
    assert rules is not None and total.confidence != pytest.approx(rules.confidence, abs=1e-4)


def test_the_shipped_model_reads_a_plain_total_line() -> None:
    total = extract_receipt([layout(LINES)]).total
    assert total is not None and total.value == "6.55"


def test_no_amounts_no_total() -> None:
    page = layout(["KEDAI MAJU", "Thank you"])
    assert extract_receipt([page], total_model=one_feature_model("is_max")).total is None
