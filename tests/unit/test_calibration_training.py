"""training.calibration's map fitting on synthetic rows: monotone in the raw score even when
the data say otherwise, a learned map beats the raw score where the raw score is off,
deterministic, and whole groups kept in one inner fold."""

from __future__ import annotations

import random
from collections.abc import Callable

from training.calibration import Row, fit_map, inner_folds

from prefect_docai.engines.invoice.confidence import FEATURES


def _rows(
    field: str, probability: Callable[[float, float], float], n: int = 400, seed: int = 1
) -> list[Row]:
    rng = random.Random(seed)
    rows = []
    for i in range(n):
        raw = rng.uniform(0.05, 0.95)
        ocr = float(rng.random() < 0.5)
        p = probability(raw, ocr)
        right = int(rng.random() < p)
        rows.append(
            Row(f"d{i}", f"g{i % 20}", "template", "text", field, raw, (ocr, 0.0, 1.0), right)
        )
    return rows


def test_a_map_never_lowers_confidence_as_the_raw_score_rises() -> None:
    # right less often the higher the raw score: the fit would want a negative raw weight
    rows = _rows("net_total", lambda raw, ocr: 1.0 - raw)
    mapped = fit_map(rows)
    entry = mapped.fields["net_total"]
    assert entry.coef[0] >= 0.0
    values = [mapped.confidence("net_total", raw, (0.0, 0.0, 1.0)) for raw in (0.1, 0.5, 0.9)]
    assert values == sorted(values)


def test_an_underconfident_raw_score_is_raised_and_the_fit_is_deterministic() -> None:
    # right 97 % of the time whatever the raw score (as the invoice totals are)
    rows = _rows("gross_total", lambda raw, ocr: 0.97)
    first, second = fit_map(rows), fit_map(rows)
    assert first.to_json() == second.to_json()
    assert first.confidence("gross_total", 0.5, (0.0, 0.0, 1.0)) > 0.9
    assert set(first.fields) == {"gross_total"} and first.features == FEATURES


def test_inner_folds_keep_a_group_together() -> None:
    rows = _rows("iban", lambda raw, ocr: raw)
    folds = inner_folds(rows, 3)
    fold_of_group: dict[str, set[int]] = {}
    for row, fold in zip(rows, folds, strict=True):
        fold_of_group.setdefault(row.group, set()).add(fold)
    assert all(len(f) == 1 for f in fold_of_group.values())
    assert set(folds) == {0, 1, 2}
