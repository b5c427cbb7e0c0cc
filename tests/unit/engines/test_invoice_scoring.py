"""The learned invoice scorers (issue #14): candidates and features on hand-built layouts
in several languages, the grouped-thousands amount fix, the model files' loading, and that
the engine's field is the model's choice with its calibrated confidence."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest
from tests.unit.engines.word_pages import layout as _layout
from tests.unit.engines.word_pages import words as _words

from prefect_docai.engines.extract.rows import PageLayout, build_layout
from prefect_docai.engines.invoice import scoring
from prefect_docai.engines.invoice.fields import join_digit_groups, totals
from prefect_docai.engines.invoice.text import extract_invoice
from prefect_docai.engines.learned import LinearScorer, load_scorer

FRENCH = _layout(
    _words(0.05, ("Au Moulin SARL", 0.08)),
    _words(0.20, ("FACTURE", 0.08)),
    _words(0.24, ("Facture n° FA-2024-117", 0.08), ("Client n° 40711", 0.60)),
    _words(0.27, ("Date de facture : 12/03/2024", 0.08)),
    _words(0.30, ("Date de livraison : 05/03/2024", 0.08)),
    _words(0.33, ("Période du 01/02/2024 au 29/02/2024", 0.08)),
    _words(0.60, ("Total HT", 0.55), ("1 561,18", 0.80)),
    _words(0.63, ("TVA 20 %", 0.55), ("312,24", 0.80)),
    _words(0.66, ("Total TTC", 0.55), ("1 873,42", 0.80)),
)


def _by_value(field: str, layout: PageLayout) -> dict[str, list[dict[str, float]]]:
    spots, features = scoring.spots_and_features(field, [layout], None)
    out: dict[str, list[dict[str, float]]] = {}
    for spot, vector in zip(spots, features, strict=True):
        assert len(vector) == len(scoring.FEATURES[field])
        out.setdefault(spot.value, []).append(
            dict(zip(scoring.FEATURES[field], vector, strict=True))
        )
    return out


def test_every_date_is_a_candidate_with_its_label_kind() -> None:
    found = _by_value("invoice_date", FRENCH)
    assert set(found) == {"2024-03-12", "2024-03-05", "2024-02-01", "2024-02-29"}
    invoice, delivery = found["2024-03-12"][0], found["2024-03-05"][0]
    assert invoice["invoice_label"] == 1.0 and invoice["delivery_label"] == 0.0
    assert delivery["delivery_label"] == 1.0 and delivery["invoice_label"] == 0.0
    period_start = found["2024-02-01"][0]
    assert period_start["range"] == 1.0 and period_start["delivery_label_row"] == 1.0
    assert invoice["range"] == 0.0
    assert found["2024-02-01"][0]["earliest"] == 1.0 and invoice["latest"] == 1.0


def test_id_candidates_leave_out_dates_and_amounts_and_see_their_labels() -> None:
    found = _by_value("invoice_number", FRENCH)
    assert "FA-2024-117" in found and "40711" in found
    assert not {"12/03/2024", "312,24", "561,18"} & set(found)
    number, customer = found["FA-2024-117"][0], found["40711"][0]
    assert number["invoice_number_label"] == 1.0 and number["other_id_label"] == 0.0
    assert customer["other_id_label"] == 1.0 and customer["invoice_number_label"] == 0.0
    assert number["has_letter"] == 1.0 and number["has_separator"] == 1.0


def test_label_words_of_six_languages() -> None:
    for label in (
        "Rechnungsnummer",
        "Invoice No.",
        "Facture n°",
        "Factuurnummer",
        "Fattura n.",
        "Número de factura",
    ):
        assert scoring.INVOICE_NUMBER_LABEL.search(label.lower()), label
    for label in (
        "Rechnungsdatum",
        "Invoice date",
        "Date de facture",
        "Factuurdatum",
        "Data fattura",
        "Fecha de factura",
    ):
        assert scoring.INVOICE_DATE_LABEL.search(label.lower()), label
    for label in ("Lieferdatum", "Service period", "Date de livraison", "Periodo", "Leverdatum"):
        assert scoring.DELIVERY_DATE_LABEL.search(label.lower()), label


def test_thousands_group_split_off_is_joined_but_a_column_gap_is_not() -> None:
    tight = _words(0.5, ("1 561,18", 0.70))
    assert [t.text for t in join_digit_groups(tight, 0.7071)] == ["1\u202f561,18"]
    columns = _words(0.5, ("1", 0.50), ("561,18", 0.70))
    assert [t.text for t in join_digit_groups(columns, 0.7071)] == ["1", "561,18"]
    chosen = totals([FRENCH], ",", None)
    assert chosen["net"] is not None and chosen["net"].value == Decimal("1561.18")
    assert chosen["gross"] is not None and chosen["gross"].value == Decimal("1873.42")


def _label_model(
    field: str, feature: str, calibration: tuple[float, float] = (1.0, 0.0)
) -> LinearScorer:
    names = scoring.FEATURES[field]
    coef = tuple(4.0 if n == feature else 0.0 for n in names)
    return LinearScorer(names, (0.0,) * len(names), (1.0,) * len(names), coef, -2.0, calibration)


def test_the_engine_field_is_the_models_choice_with_its_calibrated_confidence() -> None:
    model = _label_model("invoice_number", "invoice_number_label", (2.0, 0.5))
    # the scorer's confidence is the field's raw score (the engine's confidence map,
    # tests/unit/engines/test_invoice_confidence.py, goes on top of it)
    result = extract_invoice([FRENCH], "text-layer", {"invoice_number": model}, confidence_map=None)
    assert result.invoice_number is not None
    assert result.invoice_number.value == "FA-2024-117"
    assert result.invoice_number.confidence == pytest.approx(
        model.confidence(model.probability(_vector("invoice_number", "FA-2024-117"))), abs=1e-3
    )
    assert result.invoice_number.bbox is not None and result.invoice_number.page == 1
    # a model that trusts the delivery label picks the delivery date: the choice is the model's
    wrong = _label_model("invoice_date", "delivery_label")
    result = extract_invoice([FRENCH], "text-layer", {"invoice_date": wrong})
    assert result.invoice_date is not None and result.invoice_date.value == "2024-03-05"
    right = _label_model("invoice_date", "invoice_label")
    result = extract_invoice([FRENCH], "text-layer", {"invoice_date": right})
    assert result.invoice_date is not None and result.invoice_date.value == "2024-03-12"


def _vector(field: str, value: str) -> list[float]:
    spots, features = scoring.spots_and_features(field, [FRENCH], None)
    return next(v for s, v in zip(spots, features, strict=True) if s.value == value)


def test_empty_pages_give_no_candidate_and_no_field() -> None:
    empty = build_layout(1, [], 0.7071, "ocr")
    model = _label_model("invoice_date", "invoice_label")
    result = extract_invoice([empty], "ocr", {"invoice_date": model, "invoice_number": None})
    assert result.invoice_date is None and result.invoice_number is None


def test_model_files_load_only_with_their_features() -> None:
    model = _label_model("invoice_date", "invoice_label", (1.5, -0.25))
    text = model.to_json()
    loaded = load_scorer(text, scoring.DATE_FEATURES)
    assert loaded == model
    with pytest.raises(ValueError, match="other features"):
        load_scorer(text, scoring.NUMBER_FEATURES)
    blob = json.loads(text)
    assert blob["features"] == list(scoring.DATE_FEATURES)


@pytest.mark.parametrize("field", sorted(scoring.MODEL_FILES))
def test_shipped_models_match_the_features_code(field: str) -> None:
    from importlib import resources

    ref = resources.files("prefect_docai.engines").joinpath("data", scoring.MODEL_FILES[field])
    if not ref.is_file():
        assert scoring.shipped(field) is None
        return
    model = scoring.shipped(field)
    assert model is not None and model.features == scoring.FEATURES[field]
    p = model.probability([0.0] * len(scoring.FEATURES[field]))
    assert 0.0 <= model.confidence(p) <= 1.0


LETTER = _layout(
    _words(0.04, ("Bäckerei Korn GmbH", 0.08)),
    _words(0.06, ("Tel. 030 123456 · info@korn.example", 0.08)),
    _words(0.15, ("Bäckerei Korn GmbH, Hauptstr. 5, 10115 Berlin", 0.08)),
    _words(0.17, ("Herrn", 0.08)),
    _words(0.19, ("Max Muster", 0.08)),
    _words(0.21, ("Gartenweg 2", 0.08)),
    _words(0.23, ("80331 München", 0.08)),
    _words(0.30, ("Rechnung Nr. 2024-77", 0.08), ("Datum: 01.03.2024", 0.60)),
)


def test_seller_candidates_and_features_tell_the_letterhead_from_the_recipient() -> None:
    found = _by_value("seller_name", LETTER)
    head = found["Bäckerei Korn GmbH"]
    assert len(head) == 2  # the letterhead and the sender line's first part
    assert any(f["comma_cut"] == 1.0 for f in head)
    letterhead = next(f for f in head if f["comma_cut"] == 0.0)
    assert letterhead["legal_form"] == 1.0 and letterhead["repeats"] >= 1.0
    assert letterhead["contact_near"] == 1.0 and letterhead["top_quarter"] == 1.0
    recipient = found["Max Muster"][0]
    assert recipient["salutation_above"] == 1.0 and recipient["legal_form"] == 0.0
    assert recipient["sender_line_above"] == 1.0 and letterhead["sender_line_above"] == 0.0
    assert "Rechnung Nr. 2024-77" in found and found["Rechnung Nr. 2024-77"][0]["not_a_name"] == 1.0
    model = _label_model("seller_name", "legal_form")
    result = extract_invoice([LETTER], "text-layer", {"seller_name": model})
    assert result.seller.name is not None and result.seller.name.value == "Bäckerei Korn GmbH"


def test_shipped_date_model_takes_the_invoice_date_not_delivery_or_period() -> None:
    model = scoring.shipped("invoice_date")
    assert model is not None, "engines/data/invoice_date.json is shipped"
    result = extract_invoice([FRENCH], "text-layer")
    assert result.invoice_date is not None and result.invoice_date.value == "2024-03-12"
    assert 0.5 <= result.invoice_date.confidence <= 1.0
    spots, features = scoring.spots_and_features("invoice_date", [FRENCH], None)
    p = {s.value: model.probability(v) for s, v in zip(spots, features, strict=True)}
    assert p["2024-03-12"] > max(p["2024-03-05"], p["2024-02-01"], p["2024-02-29"])


US_DATES = _layout(
    _words(0.05, ("Northwind Traders LLC", 0.08)),
    _words(0.20, ("INVOICE", 0.08)),
    _words(0.24, ("Invoice Number INV/2017/0042", 0.08)),
    _words(0.27, ("Invoice Date 11/03/2017", 0.08), ("Due Date 12/03/2017", 0.55)),
    _words(0.60, ("Total", 0.55), ("623.00", 0.80)),
    _words(0.70, ("Payment received 11/17/2017", 0.08), ("623.00", 0.80)),
)


def test_the_learned_invoice_date_reads_the_pages_month_first_order() -> None:
    """11/17/2017 can only be month-first: the ambiguous 11/03/2017 is then 3 November,
    for the shipped scorer's candidates as for the rules (the scorer used to parse its
    candidates day-first and report 11 March)."""
    assert scoring.shipped("invoice_date") is not None
    result = extract_invoice([US_DATES], "text-layer")
    assert result.invoice_date is not None and result.invoice_date.value == "2017-11-03"
    assert result.due_date is not None and result.due_date.value == "2017-12-03"
    spots, _ = scoring.spots_and_features("invoice_date", [US_DATES], None, month_first=True)
    assert {spot.value for spot in spots} == {"2017-11-03", "2017-12-03", "2017-11-17"}
