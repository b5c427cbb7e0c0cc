"""training.receipts: folds by merchant, the exported tree ensemble and the linear model
give scikit-learn's probabilities, and both kinds load back from their JSON."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from benchmarks.receipts_cv import Sample
from training import receipts as tr

from prefect_docai.engines.learned import LinearScorer, TreeScorer, load_scorer

NAMES = ("a", "b", "c")


def data() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(0)
    x = rng.normal(size=(300, 3))
    y = (x[:, 0] + 0.5 * x[:, 1] * x[:, 2] > 0.2).astype(int)
    return x, y


def test_group_folds_keep_each_merchant_in_one_fold() -> None:
    samples = [
        Sample(
            f"r{i}",
            Path("x"),
            {"merchant": f"Shop {i % 7}", "address": None, "date": None, "total": None},
        )
        for i in range(40)
    ]
    folds = tr.group_folds(samples, 5)
    by_merchant: dict[str, set[int]] = {}
    for sample, fold in zip(samples, folds, strict=True):
        by_merchant.setdefault(sample.merchant, set()).add(fold)
    assert all(len(f) == 1 for f in by_merchant.values())
    assert set(folds) == set(range(5))


def test_exported_trees_match_scikit_learn_and_round_trip() -> None:
    from sklearn.ensemble import GradientBoostingClassifier

    x, y = data()
    scorer = tr.fit_trees(x, y, NAMES, 2)
    reference = GradientBoostingClassifier(
        n_estimators=100, max_depth=2, learning_rate=0.1, random_state=0
    ).fit(x, y)
    expected = reference.predict_proba(x[:20])[:, 1]
    got = [scorer.probability(list(row)) for row in x[:20]]
    assert got == pytest.approx(list(expected), abs=1e-9)
    again = load_scorer(scorer.to_json(), NAMES)
    assert isinstance(again, TreeScorer)
    assert [again.probability(list(row)) for row in x[:20]] == pytest.approx(got, abs=1e-9)
    assert again.to_json() == scorer.to_json()


def test_linear_fit_matches_scikit_learn_and_is_deterministic() -> None:
    from sklearn.linear_model import LogisticRegression

    x, y = data()
    scorer = tr.fit(x, y, NAMES, ("logistic", 0.5))
    assert isinstance(scorer, LinearScorer)
    mean, scale = x.mean(axis=0), x.std(axis=0)
    reference = LogisticRegression(C=0.5, max_iter=5000).fit((x - mean) / scale, y)
    expected = reference.predict_proba((x[:20] - mean) / scale)[:, 1]
    assert [scorer.probability(list(r)) for r in x[:20]] == pytest.approx(list(expected), abs=1e-9)
    assert tr.fit(x, y, NAMES, ("logistic", 0.5)).to_json() == scorer.to_json()
    assert isinstance(load_scorer(scorer.to_json(), NAMES), LinearScorer)


def test_a_model_for_other_features_is_refused() -> None:
    x, y = data()
    text = tr.fit_trees(x, y, NAMES, 2).to_json()
    with pytest.raises(ValueError):
        load_scorer(text, ("a", "b"))


def test_calibration_is_monotone_identity_by_default_and_kept_in_json() -> None:
    from dataclasses import replace

    from prefect_docai.engines.learned import calibrate

    assert calibrate(0.7, (1.0, 0.0)) == pytest.approx(0.7)
    values = [calibrate(p, (0.5, 0.4)) for p in (0.1, 0.5, 0.9, 0.99)]
    assert values == sorted(values) and values[-1] < 0.99
    x, y = data()
    scorer = replace(tr.fit(x, y, NAMES, ("logistic", 0.5)), calibration=(0.5, 0.4))
    again = load_scorer(scorer.to_json(), NAMES)
    assert again.calibration == (0.5, 0.4)
    assert again.confidence(0.9) == pytest.approx(calibrate(0.9, (0.5, 0.4)))


def test_platt_fits_overconfident_scores_down() -> None:
    # Best candidates at 0.95 that are right only 70 % of the time.
    pairs = [(0.95, 1)] * 70 + [(0.95, 0)] * 30 + [(0.3, 0)] * 50 + [(0.3, 1)] * 10
    a, b = tr.platt(pairs)
    from prefect_docai.engines.learned import calibrate

    assert calibrate(0.95, (a, b)) == pytest.approx(0.7, abs=0.02)
    assert calibrate(0.3, (a, b)) == pytest.approx(10 / 60, abs=0.02)
    assert tr.platt([(0.9, 1)] * 5) == (1.0, 0.0)


def _keyed(index: int, merchant: str, address: str) -> Sample:
    truth = {"merchant": merchant, "address": address, "date": None, "total": None}
    return Sample(f"k{index}", Path("x"), truth)


def test_the_address_lexicon_never_learns_from_a_scored_merchant() -> None:
    fitted = [tr.Receipt(_keyed(0, "Kedai Satu", "1 JALAN MELATI"), [], [], [], [], [], [], [], [])]
    extra = [
        _keyed(1, "Kedai Dua", "2 JALAN MELATI"),
        _keyed(2, "Kedai Tiga", "3 JALAN KENANGA, TAMAN MELATI"),
        _keyed(3, "Kedai Empat", "4 JALAN KENANGA"),
    ]
    held = {extra[1].merchant}  # "Kedai Tiga" is scored
    keys = tr.key_samples(fitted, extra, held)
    assert [s.id for s in keys] == ["k0", "k1", "k3"]
    lexicon = tr.lexicon_words([(s.merchant, s.truth["address"] or "") for s in keys])
    # KENANGA: only the unscored "Kedai Empat" prints it now.
    assert lexicon == {"JALAN": 3, "MELATI": 2}
