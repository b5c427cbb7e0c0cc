"""The learned name-row scorer: candidate rows and their features on hand-built heads, and
that a given model, and the shipped one (``engines/data/receipt_merchant.json``), picks the
name."""

from __future__ import annotations

import math

import pytest
from tests.unit.engines.test_receipt_fields import layout

from prefect_docai.engines.learned import LinearScorer
from prefect_docai.engines.receipt.extract import extract_receipt
from prefect_docai.engines.receipt.merchant import merchant, name_candidates, name_of, rule_choice
from prefect_docai.engines.receipt.merchant_model import (
    NAME_FEATURES,
    choose_name_row,
    name_features,
    shipped_model,
)

HEAD: list[str | tuple[str, ...]] = [
    "tan woon yann",
    "INDAH GIFT & HOME DECO",
    "27, JALAN DEDAP 13,",
    "TAMAN JOHOR JAYA,",
    "81100 JOHOR BAHRU, JOHOR.",
    ("Tea", "2.35"),
    ("Total", "2.35"),
]


def one_feature_model(name: str, weight: float = 4.0) -> LinearScorer:
    n = len(NAME_FEATURES)
    coef = [0.0] * n
    coef[NAME_FEATURES.index(name)] = weight
    return LinearScorer(NAME_FEATURES, (0.0,) * n, (1.0,) * n, tuple(coef), -2.0)


def features_of(lines: list[str | tuple[str, ...]]) -> list[dict[str, float]]:
    rows = layout(lines).rows
    return [
        dict(zip(NAME_FEATURES, v, strict=True)) for v in name_features(rows, name_candidates(rows))
    ]


def test_candidates_are_the_head_text_rows_before_the_first_amount() -> None:
    rows = layout(HEAD).rows
    texts = [r.text for r in name_candidates(rows)]
    assert texts[:2] == ["tan woon yann", "INDAH GIFT & HOME DECO"]
    assert not any("2.35" in t for t in texts)


def test_features_describe_position_patterns_and_neighbours() -> None:
    found = features_of(HEAD)
    assert all(len(f) == len(NAME_FEATURES) for f in found)
    first, name, street = found[0], found[1], found[2]
    assert first["candidate_index"] == 0.0 and name["candidate_index"] == 1.0
    assert name["next_street_or_postcode"] == 1.0 and first["next_street_or_postcode"] == 0.0
    assert street["street"] == 1.0 and name["street"] == 0.0
    assert found[-1]["postcode"] == 1.0
    assert name["capitals"] == 1.0 and first["capitals"] == 0.0
    assert street["digits"] > 0.0 and name["digits"] == 0.0
    assert name["has_address"] == 1.0
    assert sum(f["rule_choice"] for f in found) == 1.0


def test_rule_choice_is_the_rules_pick() -> None:
    rows = layout(HEAD).rows
    picked = rule_choice(name_candidates(rows))
    name, _, _ = merchant(rows)
    assert picked is not None and name is not None
    assert picked[0].text == "tan woon yann" == name.value


def test_a_given_model_picks_the_row_and_its_probability_is_the_confidence() -> None:
    rows = layout(HEAD).rows
    model = one_feature_model("next_street_or_postcode")
    picked = choose_name_row(rows, name_candidates(rows), model)
    assert picked is not None and picked[0].text == "INDAH GIFT & HOME DECO"
    assert picked[1] == pytest.approx(1 / (1 + math.exp(-2.0)))
    result = extract_receipt(
        [layout(HEAD)], total_model=None, name_model=model, line_model=None, confidence_map=None
    )
    assert result.merchant.name is not None
    assert result.merchant.name.value == "INDAH GIFT & HOME DECO"
    assert result.merchant.name.confidence == pytest.approx(1 / (1 + math.exp(-2.0)), abs=1e-3)
    assert result.merchant.address is not None
    assert str(result.merchant.address.value).startswith("27, JALAN DEDAP 13")


def test_an_improbable_best_row_names_nobody() -> None:
    model = one_feature_model("next_street_or_postcode", weight=0.0)  # p = 0.12 everywhere
    result = extract_receipt([layout(HEAD)], total_model=None, name_model=model, line_model=None)
    assert result.merchant.name is None


def test_the_shipped_name_model_reads_the_name() -> None:
    # training/receipts.py, RapidOCR reading, out of fold by merchant: strict merchant F1
    # 0.738 against the rules' 0.729 (unseen merchants 0.660 against 0.645).
    model = shipped_model()
    assert model is not None
    rows = layout(HEAD).rows
    picked = choose_name_row(rows, name_candidates(rows), model)
    assert picked is not None
    name = extract_receipt([layout(HEAD)], line_model=None, confidence_map=None).merchant.name
    assert name is not None and name.value == picked[0].text
    # The field's confidence is the model's probability, not the rules' score.
    assert name.confidence == pytest.approx(picked[1], abs=1e-3)
    rules = extract_receipt(
        [layout(HEAD)], name_model=None, line_model=None, confidence_map=None
    ).merchant.name
    assert rules is not None and rules.confidence != name.confidence
    # The shipped line tagger (engines/data/receipt_lines.json) reads the address block.
    address = extract_receipt([layout(HEAD)]).merchant.address
    assert address is not None
    assert address.value == "27, JALAN DEDAP 13, TAMAN JOHOR JAYA, 81100 JOHOR BAHRU, JOHOR."


def test_candidates_take_colon_lines_and_a_head_under_a_stray_number() -> None:
    # A line printing the name beside a colon is a candidate for the learned scorer (its
    # colon is a feature), not for the rules; a number above the first text line
    # ("050.20" read from a stamp) does not end the head before it has begun.
    lines: list[str | tuple[str, ...]] = [
        "050.20",
        "AMBER LANTERN GRILL",
        "Dimiliki Oleh : Kestrel Holdings Sdn Bhd",
        "Reg No : 40217-W",
        "No 7, Jln Seri Kenanga, 81200 Johor Bahru",
        ("Total", "2.35"),
    ]
    rows = layout(lines).rows
    texts = [r.text for r in name_candidates(rows)]
    assert texts[:2] == ["AMBER LANTERN GRILL", "Dimiliki Oleh : Kestrel Holdings Sdn Bhd"]
    assert not any("Reg No" in t for t in texts)
    picked = rule_choice(name_candidates(rows))
    assert picked is not None and picked[0].text == "AMBER LANTERN GRILL"
    colon = [f["colon"] for f in features_of(lines)]
    assert colon[:2] == [0.0, 1.0]


def test_the_name_beside_its_registration_and_across_a_gap_is_read_whole() -> None:
    # "(Co. No:31877-K)" holds no legal form "Co."; a wide gap inside the name
    # ("GOLDEN LEAF FAMILY   MART SDN BHD") does not cut its start off.
    rows = layout(
        [
            "Hartono Realties Sdn Bhd (Co. No:31877-K)",
            ("GOLDEN LEAF FAMILY", "MART SDN BHD"),
            "No. 12&14, Jalan Merbau, 81300 Skudai",
        ]
    ).rows
    assert len(rows[1].segments) == 2
    assert name_of(rows, rows[0])[0] == "Hartono Realties Sdn Bhd"
    assert name_of(rows, rows[1])[0] == "GOLDEN LEAF FAMILY MART SDN BHD"
