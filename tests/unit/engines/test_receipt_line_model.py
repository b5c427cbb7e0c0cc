"""The learned line tagger of the merchant's name and address: row features on hand-built
heads, the block decoding from row probabilities, the text read from the blocks, and the
shipped model file (loads, refuses other features, reads a receipt head)."""

from __future__ import annotations

import json

import pytest
from tests.unit.engines.test_receipt_fields import layout

from prefect_docai.engines.learned import Tree, TreeScorer
from prefect_docai.engines.receipt.extract import extract_receipt
from prefect_docai.engines.receipt.line_model import (
    HEAD_ROWS,
    LINE_FEATURES,
    REPORTED_FIELDS,
    LineModel,
    address_text,
    decode,
    line_features,
    name_text,
    name_words,
    shipped_model,
    tag_merchant,
)
from prefect_docai.engines.receipt.merchant import _clean_address, clean_text

HEAD: list[str | tuple[str, ...]] = [
    "tan woon yann",
    "POPULAR BOOK",
    "CO. (M) SDN BHD",
    "(Co. No. 113825-W)",
    "No 8, Jalan 7/118B, Desa Tun Razak",
    "56000 Kuala Lumpur, Malaysia",
    "Tel : 03-9201 6281",
    ("Tea", "2.35"),
    ("Total", "2.35"),
]


def features_of(lines: list[str | tuple[str, ...]]) -> list[dict[str, float]]:
    rows = layout(lines).rows
    return [dict(zip(LINE_FEATURES, v, strict=True)) for v in line_features(rows)]


def test_features_describe_each_head_row_and_its_neighbours() -> None:
    found = features_of(HEAD)
    assert len(found) == len(HEAD)
    assert all(len(f) == len(LINE_FEATURES) for f in found)
    person, top, form, reg, street, city, phone = found[:7]
    assert top["rank"] == 1.0 and person["rank"] == 0.0
    assert form["legal_form"] == 1.0 and top["legal_form"] == 0.0
    assert top["next_legal_form"] == 1.0 and person["next_legal_form"] == 0.0
    assert reg["registration"] == 1.0 and top["registration"] == 0.0
    assert street["address_words"] >= 2.0 and city["postcode"] == 1.0
    assert phone["phone"] == 1.0 and city["phone"] == 0.0
    assert top["caps"] == 1.0 and person["caps"] == 0.0
    assert person["prev_height"] == -1.0  # no row above the first
    assert found[-1]["money"] == 1.0


def test_only_the_head_rows_are_featured() -> None:
    lines: list[str | tuple[str, ...]] = [f"LINE {i}" for i in range(HEAD_ROWS + 5)]
    assert len(features_of(lines)) == HEAD_ROWS


def test_decode_takes_the_likeliest_name_block_and_the_address_run_after_it() -> None:
    p_name = [0.1, 0.7, 0.9, 0.05, 0.01, 0.01, 0.01]
    p_address = [0.01, 0.01, 0.02, 0.1, 0.9, 0.8, 0.3]
    blocks = decode(p_name, p_address)
    assert blocks.name == (1, 2)
    assert blocks.address == (4, 5)
    assert blocks.name_p == pytest.approx(0.8)


def test_decode_always_names_someone_but_takes_no_unlikely_address() -> None:
    blocks = decode([0.2, 0.3, 0.1], [0.01, 0.02, 0.01])
    assert blocks.name == (1,)
    assert blocks.address == ()
    assert decode([], []).name == ()


def test_decode_limits_the_gap_between_name_and_address() -> None:
    p_name = [0.9] + [0.01] * 9
    p_address = [0.01] * 6 + [0.9, 0.9, 0.01, 0.01]
    blocks = decode(p_name, p_address)
    assert blocks.name == (0,)
    # Too far below the name to be its address, yet the likeliest run: taken on its own.
    assert blocks.address == (6, 7)


def test_decode_needs_a_name_word_in_the_name_block() -> None:
    # "PASAR RAYA MEGA MAJU" over "(SEMENYIH) SDN BHD": the legal form alone is no name.
    p_name, p_address = [0.3, 0.99, 0.01], [0.01, 0.01, 0.9]
    assert decode(p_name, p_address).name == (1,)
    assert decode(p_name, p_address, [True, False, True]).name == (0, 1)
    assert decode(p_name, p_address, [False, False, False]).name == ()


def test_decode_needs_a_number_in_the_address() -> None:
    p_name, p_address = [0.9, 0.01, 0.01, 0.01], [0.01, 0.9, 0.9, 0.01]
    assert decode(p_name, p_address).address == (1, 2)
    assert decode(p_name, p_address, None, [False, False, True, False]).address == (1, 2)
    assert decode(p_name, p_address, None, [False, False, False, False]).address == ()


def test_a_block_below_the_models_floor_is_not_reported() -> None:
    rows = layout(HEAD).rows
    scorers = (one_feature_scorer("next_registration"), one_feature_scorer("address_words"))
    name, address, _ = tag_merchant(rows, LineModel(*scorers, (0.6, 0.0)))
    assert name is None and address is not None  # the name block's mean p is 0.5
    name, address, _ = tag_merchant(rows, LineModel(*scorers, (0.4, 0.99)))
    assert name is not None and address is None


def test_name_text_drops_registration_and_date() -> None:
    rows = layout(["99 SPEED MART 5/B 1519537-X)", ("UNIHAKKA SDN BHD", "05/03/2018")]).rows
    assert name_text(rows[:1])[0] == "99 SPEED MART S/B"
    assert name_text(rows[1:])[0] == "UNIHAKKA SDN BHD"
    rows = layout(["EIGHT OUNCE COFFEE CO. THE GARDENS MALL", "ENTERPRISE (5 In"]).rows
    assert name_text(rows[:1])[0] == "EIGHT OUNCE COFFEE CO."
    assert name_text(rows[1:])[0] is None
    assert name_words("(SEMENYIH) SDN BHD 767840-W") == []
    assert name_words("Farmasi Maluri S/B(587969-U)") == ["Farmasi", "Maluri"]


def test_address_text_joins_rows_and_cuts_the_phone() -> None:
    rows = layout(["No 8, Jalan Kurau,", "81620 Pengerang, Johor. Tel: 07-8263254"]).rows
    assert address_text(rows)[0] == "No 8, Jalan Kurau, 81620 Pengerang, Johor."


def test_address_rows_join_with_the_keys_punctuation() -> None:
    # A row's closing period before the next address row is the keys' comma; a doubled
    # comma is one; an abbreviation's period and the last row's stop stay.
    def joined(*lines: str) -> str | None:
        return address_text(layout(list(lines)).rows)[0]

    assert (
        joined("NO.53 JALAN PUTRA 1,", "TAMAN SRI PUTRA.", "81200 JOHOR BAHRU", "JOHOR")
        == "NO.53 JALAN PUTRA 1, TAMAN SRI PUTRA, 81200 JOHOR BAHRU JOHOR"
    )
    assert (
        joined("No.49, Jalan Dinar G U3/G.", "Subang Perdana,", "40150 Shah Alam, D.E.")
        == "No.49, Jalan Dinar G U3/G, Subang Perdana, 40150 Shah Alam, D.E."
    )
    assert joined("SETAPAK,", "53200,, KUALA LUMPUR.") == "SETAPAK, 53200, KUALA LUMPUR."
    assert joined("UTARA SELATAN.,", "84600 PAGOH") == "UTARA SELATAN, 84600 PAGOH"
    assert joined("LOT NO.", "12, JALAN SS4C/5") == "LOT NO. 12, JALAN SS4C/5"
    assert joined("SELANGOR D.E.", "MALAYSIA.") == "SELANGOR D.E. MALAYSIA."


def test_address_repairs_are_generic_ocr_slips() -> None:
    assert _clean_address("JALAN $$21/39, LOT $25") == "JALAN SS21/39, LOT S25"
    assert _clean_address("NO: G3, BIK G, J1N PJU 1A/3") == "NO: G3, BLK G, JLN PJU 1A/3"
    assert _clean_address("J1n Kiara, Mont Kiara") == "Jln Kiara, Mont Kiara"
    assert _clean_address("Jin Kiara") == "Jin Kiara"
    assert _clean_address("SEKSYEN U3, | SUBANG") == "SEKSYEN U3, SUBANG"
    assert clean_text("WATSON’S PERSONAL CARE") == "WATSON'S PERSONAL CARE"
    assert clean_text("KING'S CONFECTIONERY $/8") == "KING'S CONFECTIONERY S/B"


def one_feature_scorer(feature: str) -> TreeScorer:
    """P = logistic(-3 + 6 · [feature > 0.5])."""
    tree = Tree(
        (LINE_FEATURES.index(feature), -2, -2),
        (0.5, 0.0, 0.0),
        (1, -1, -1),
        (2, -1, -1),
        (0.0, 0.0, 6.0),
    )
    return TreeScorer(LINE_FEATURES, -3.0, 1.0, (tree,))


def test_a_given_model_tags_name_and_address() -> None:
    model = LineModel(one_feature_scorer("next_registration"), one_feature_scorer("address_words"))
    rows = layout(HEAD).rows
    name, address, last = tag_merchant(rows, model)
    # "CO. (M) SDN BHD" alone names nobody: the block takes the row above it.
    assert name is not None and name.value == "POPULAR BOOK CO. (M) SDN BHD"
    assert name.score == pytest.approx(0.5)
    assert address is not None
    assert address.value == "No 8, Jalan 7/118B, Desa Tun Razak 56000 Kuala Lumpur, Malaysia"
    assert last == 5
    # Raw scores (no confidence map): the tagger's own probability is what is checked here;
    # the shipped map is refitted whenever the OCR moves (tests/unit/engines/test_receipt_confidence.py).
    result = extract_receipt(
        [layout(HEAD)], total_model=None, name_model=None, line_model=model, confidence_map=None
    )
    rules = extract_receipt(
        [layout(HEAD)], total_model=None, name_model=None, line_model=None, confidence_map=None
    )
    # The engine takes the tagger's address; the name stays the rules' (REPORTED_FIELDS).
    assert REPORTED_FIELDS == ("address",)
    assert result.merchant.name == rules.merchant.name
    assert result.merchant.address is not None
    assert result.merchant.address.value == address.value
    assert result.merchant.address.confidence == pytest.approx(0.953, abs=1e-3)


def test_model_json_round_trip_and_feature_check() -> None:
    model = LineModel(one_feature_scorer("legal_form"), one_feature_scorer("postcode"), (0.05, 0.1))
    again = LineModel.from_json(model.to_json())
    assert again == model
    blob = json.loads(model.to_json())
    blob["name"]["features"] = blob["name"]["features"][:-1]
    with pytest.raises(ValueError):
        LineModel.from_json(json.dumps(blob))
    with pytest.raises(ValueError):
        LineModel.from_json(json.dumps({"kind": "gradient-boosting"}))


def test_shipped_model_reads_a_receipt_head() -> None:
    model = shipped_model()
    assert model is not None
    name, address, _ = tag_merchant(layout(HEAD).rows, model)
    assert name is not None and "SDN BHD" in str(name.value)
    assert address is not None and "56000 Kuala Lumpur" in str(address.value)
    assert 0.0 < name.score <= 1.0
