"""Train the receipt scorers shipped in ``engines/data/``: the total
(``receipt_total.json``) and the merchant's name row (``receipt_merchant.json``).

    OMP_THREAD_LIMIT=1 .venv/bin/python -m training.receipts [--corpus ../shared/corpus]
        [--folds 5] [--write total,merchant]

Data: the SROIE training pool's receipts with an image (``train/sroie/``, 240), read by the
receipt engine's own OCR (cached by :mod:`benchmarks.receipts_cv`). Totals: every candidate
of :func:`engines.receipt.totals.analyse_totals` is a row of ``TOTAL_FEATURES``, labelled 1
when its value is the key's total. Names: every row of
:func:`engines.receipt.merchant.name_candidates` is a row of ``NAME_FEATURES``, labelled 1
when the name read from it (:func:`engines.receipt.merchant.name_of`) is the closest of the
receipt's candidates to the key's company and at least 80 % similar (rapidfuzz ratio, case
and space folded): OCR slips in the right line still mark the right line. Each model is an L2
logistic regression or gradient-boosted trees (scikit-learn; which, and its strength or
depth, chosen by inner group folds, see ``SPECS``): deterministic, so the written files are
the same bytes on every run.

Evaluation, written to ``benchmarks/results/receipts_total_model.json``:

* **out-of-fold** — group k-fold by merchant (no merchant in both the fitted and the scored
  folds): every pool receipt's fields extracted with the models fitted on the other folds,
  next to today's rules on the same receipts, for the whole pool and for its receipts whose
  merchant is absent from the visible set;
* **visible** — the models fitted on the whole pool, on the visible SROIE receipts (never
  trained on) and on the visible German receipts (total only: the models never saw German),
  next to the rules.

Every variant is scored: the rules, the total model alone, the name model alone, both.
``--write`` stores the named models fitted on the whole pool in the package's data folder.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import math
import os
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

import numpy as np
from benchmarks.receipts_cv import (
    ROOT,
    Sample,
    Tally,
    benchmark_groups,
    cached_pages,
    corpus_dir,
    layouts_of,
    loose,
    predicted,
    strict,
)

from prefect_docai.engines.learned import LinearScorer, Scorer, Tree, TreeScorer

SPECS: tuple[tuple[str, float], ...] = (
    ("logistic", 0.05),
    ("logistic", 0.5),
    ("logistic", 5.0),
    ("trees", 2),
    ("trees", 3),
)
"""Models tried: L2 logistic regressions (inverse strength C) and gradient-boosted trees
(100 trees of this depth, learning rate 0.1). Each model's is chosen by an inner group
3-fold over the receipts it is fitted on (share of receipts whose best candidate is right;
ties: the first listed), never on the receipts it is scored on."""
INNER_FOLDS = 3
NAME_MIN_SIMILARITY = 80.0
DATA = ROOT / "src" / "prefect_docai" / "engines" / "data"
VARIANTS = ("rules", "total", "merchant", "both")


@dataclass
class Receipt:
    sample: Sample
    layouts: list[Any]
    total_x: list[list[float]]
    total_y: list[int]
    name_x: list[list[float]]
    name_y: list[int]


def _fold_text(text: str | None) -> str:
    return re.sub(r"\s+", " ", text or "").strip().casefold()


def read_receipt(sample: Sample) -> Receipt:
    """A receipt's layouts and its total and name-row candidates, featured and labelled."""
    from rapidfuzz import fuzz

    from prefect_docai.engines.extract import detect_decimal_separator
    from prefect_docai.engines.receipt.merchant import name_candidates, name_of
    from prefect_docai.engines.receipt.merchant_model import name_features
    from prefect_docai.engines.receipt.total_model import total_features
    from prefect_docai.engines.receipt.totals import analyse_totals

    layouts = layouts_of(cached_pages(sample.image.read_bytes()))
    rows = [row for layout in layouts for row in layout.rows]
    separator = detect_decimal_separator(t.text for r in rows for t in r.tokens)
    truth = sample.truth["total"]
    total_x, total_y = [], []
    for candidate, vector in total_features(analyse_totals(rows, separator), rows):
        total_x.append(vector)
        total_y.append(int(truth is not None and f"{candidate.value:.2f}" == truth))
    candidates = name_candidates(rows)
    name_x = name_features(rows, candidates)
    company = _fold_text(sample.truth["merchant"])
    similarity = [
        fuzz.ratio(_fold_text(name_of(rows, row)[0]), company) if company else 0.0
        for row in candidates
    ]
    best = max(similarity, default=0.0)
    name_y = [int(best >= NAME_MIN_SIMILARITY and s == best) for s in similarity]
    return Receipt(sample, layouts, total_x, total_y, name_x, name_y)


def fit(
    features: np.ndarray, labels: np.ndarray, names: tuple[str, ...], spec: tuple[str, float]
) -> Scorer:
    kind, value = spec
    if kind == "trees":
        return fit_trees(features, labels, names, int(value))
    from sklearn.linear_model import LogisticRegression

    mean = features.mean(axis=0)
    scale = features.std(axis=0)
    scale[scale < 1e-9] = 1.0
    regression = LogisticRegression(C=value, max_iter=5000, solver="lbfgs")
    regression.fit((features - mean) / scale, labels)
    return LinearScorer(
        names,
        tuple(float(v) for v in mean),
        tuple(float(v) for v in scale),
        tuple(float(v) for v in regression.coef_[0]),
        float(regression.intercept_[0]),
    )


def fit_trees(
    features: np.ndarray, labels: np.ndarray, names: tuple[str, ...], depth: int
) -> TreeScorer:
    """scikit-learn's gradient boosting, exported node by node (same probabilities)."""
    from sklearn.ensemble import GradientBoostingClassifier

    model = GradientBoostingClassifier(
        n_estimators=100, max_depth=depth, learning_rate=0.1, subsample=1.0, random_state=0
    )
    model.fit(features, labels)
    prior = float(model.init_.class_prior_[1])
    trees = tuple(
        Tree(
            tuple(int(v) for v in est.tree_.feature),
            tuple(float(v) for v in est.tree_.threshold),
            tuple(int(v) for v in est.tree_.children_left),
            tuple(int(v) for v in est.tree_.children_right),
            tuple(float(v) for v in est.tree_.value[:, 0, 0]),
        )
        for est in model.estimators_[:, 0]
    )
    scorer = TreeScorer(names, math.log(prior / (1 - prior)), float(model.learning_rate), trees)
    sample = features[: min(len(features), 300)]
    if len(sample):
        theirs = model.predict_proba(sample)[:, 1]
        gap = max(abs(scorer.probability(list(x)) - p) for x, p in zip(sample, theirs, strict=True))
        if gap > 1e-6:
            raise RuntimeError(f"tree export differs from scikit-learn by {gap}")
    return scorer


def _parts(receipt: Receipt, kind: str) -> tuple[list[list[float]], list[int]]:
    return (
        (receipt.total_x, receipt.total_y) if kind == "total" else (receipt.name_x, receipt.name_y)
    )


def _stack(receipts: Sequence[Receipt], kind: str, width: int) -> tuple[np.ndarray, np.ndarray]:
    x = [v for r in receipts for v in _parts(r, kind)[0]]
    y = [v for r in receipts for v in _parts(r, kind)[1]]
    return np.array(x, dtype=float).reshape(-1, width), np.array(y, dtype=int)


def best_candidates(
    receipts: Sequence[Receipt], kind: str, model: Scorer
) -> list[tuple[float, int]]:
    """(probability of the most probable candidate, whether it is right) per receipt with
    candidates."""
    out = []
    for receipt in receipts:
        x, y = _parts(receipt, kind)
        if x:
            p = [model.probability(v) for v in x]
            best = p.index(max(p))
            out.append((p[best], y[best]))
    return out


def right_share(receipts: Sequence[Receipt], kind: str, model: Scorer) -> float:
    """Share of receipts whose most probable candidate is a right one."""
    return sum(r for _, r in best_candidates(receipts, kind, model)) / max(len(receipts), 1)


def platt(pairs: Sequence[tuple[float, int]]) -> tuple[float, float]:
    """(a, b) of logistic(a · logit(p) + b) fitted to held-out (p, right) pairs."""
    from sklearn.linear_model import LogisticRegression

    labels = [r for _, r in pairs]
    if len(set(labels)) < 2:
        return (1.0, 0.0)
    z = np.array(
        [
            [math.log(min(max(p, 1e-9), 1 - 1e-9) / (1 - min(max(p, 1e-9), 1 - 1e-9)))]
            for p, _ in pairs
        ]
    )
    regression = LogisticRegression(C=100.0, max_iter=5000).fit(z, labels)
    return (float(regression.coef_[0][0]), float(regression.intercept_[0]))


CHOSEN: dict[str, list[list[Any]]] = {"total": [], "merchant": []}
"""The spec and calibration each fit chose, in order (outer folds, then the final fit)."""


def fit_kind(receipts: Sequence[Receipt], kind: str, names: tuple[str, ...]) -> Scorer:
    """The model of one kind with its spec chosen by the inner group folds, and its
    confidence calibrated on the same inner folds' held-out receipts."""
    folds = group_folds([r.sample for r in receipts], INNER_FOLDS)
    best_spec, best, best_pairs = SPECS[0], -1.0, []
    for spec in SPECS:
        pairs: list[tuple[float, int]] = []
        for fold in range(INNER_FOLDS):
            train = [r for r, f in zip(receipts, folds, strict=True) if f != fold]
            test = [r for r, f in zip(receipts, folds, strict=True) if f == fold]
            x, y = _stack(train, kind, len(names))
            pairs += best_candidates(test, kind, fit(x, y, names, spec))
        share = sum(r for _, r in pairs)
        if share > best + 1e-9:
            best_spec, best, best_pairs = spec, share, pairs
    calibration = platt(best_pairs)
    CHOSEN[kind].append([*best_spec, *(round(v, 4) for v in calibration)])
    x, y = _stack(receipts, kind, len(names))
    return dataclasses.replace(fit(x, y, names, best_spec), calibration=calibration)


def fit_models(receipts: Sequence[Receipt]) -> dict[str, Scorer]:
    from prefect_docai.engines.receipt.merchant_model import NAME_FEATURES
    from prefect_docai.engines.receipt.total_model import TOTAL_FEATURES

    return {
        "total": fit_kind(receipts, "total", TOTAL_FEATURES),
        "merchant": fit_kind(receipts, "merchant", NAME_FEATURES),
    }


def extract_variants(layouts: list[Any], models: dict[str, Scorer]) -> dict[str, Any]:
    """Predicted fields per variant: rules, each model alone, both."""
    from prefect_docai.engines.receipt.extract import extract_receipt

    choices = {
        "rules": (None, None),
        "total": (models["total"], None),
        "merchant": (None, models["merchant"]),
        "both": (models["total"], models["merchant"]),
    }
    out: dict[str, Any] = {}
    for name, (t, n) in choices.items():
        result = extract_receipt(layouts, total_model=t, name_model=n)
        out[name] = predicted(result)
        out[name]["_confidence"] = {
            "total": None if result.total is None else result.total.confidence,
            "merchant": None if result.merchant.name is None else result.merchant.name.confidence,
        }
    return out


def calibration(
    samples: Sequence[Sample], predictions: dict[str, dict[str, Any]], variant: str, field: str
) -> dict[str, Any]:
    """How far a field's confidence can be trusted: accuracy of the fields at confidence
    >= 0.9 and the expected calibration error over 10 bins (predicted fields only)."""
    pairs = []
    for sample in samples:
        pred = predictions[sample.id][variant]
        confidence = pred["_confidence"][field]
        if confidence is not None:
            right = strict(field, pred[field]) == strict(field, sample.truth[field])
            pairs.append((float(confidence), right))
    high = [r for c, r in pairs if c >= 0.9]
    ece = 0.0
    for b in range(10):
        inside = [(c, r) for c, r in pairs if b / 10 <= c < (b + 1) / 10 or (b == 9 and c == 1.0)]
        if inside:
            gap = sum(c for c, _ in inside) / len(inside) - sum(r for _, r in inside) / len(inside)
            ece += len(inside) / len(pairs) * abs(gap)
    return {
        "fields": len(pairs),
        "at_0.9_or_more": len(high),
        "right_at_0.9_or_more": round(sum(high) / len(high), 4) if high else None,
        "ece": round(ece, 4),
    }


def group_folds(samples: Sequence[Sample], folds: int) -> list[int]:
    """Fold of each receipt by scikit-learn's GroupKFold over merchants: no merchant in
    two folds (deterministic: largest merchants first, each to the lightest fold)."""
    from sklearn.model_selection import GroupKFold

    fold_of = [0] * len(samples)
    splitter = GroupKFold(n_splits=folds)
    groups = [s.merchant for s in samples]
    for fold, (_, test) in enumerate(splitter.split(np.zeros(len(samples)), groups=groups)):
        for index in test:
            fold_of[index] = fold
    return fold_of


def tallies(samples: Sequence[Sample], predictions: dict[str, dict[str, Any]]) -> dict[str, Any]:
    out = {}
    for name, norm in (("strict", strict), ("loose", loose)):
        tally = Tally(norm)
        for sample in samples:
            tally.add(sample.truth, predictions[sample.id])
        out[name] = tally.report()
    return out


def german_totals(models: dict[str, Scorer]) -> dict[str, Any]:
    """Visible German receipts: total right (strict), rules vs the total model."""
    from prefect_docai.engines.receipt.extract import extract_receipt

    manifest = json.loads((corpus_dir() / "manifest.json").read_text())
    docs = [
        d for d in manifest["documents"] if "receipt_extraction" in d["tasks"] and d["lang"] == "de"
    ]
    right = {"rules": 0, "total": 0}
    for doc in docs:
        layouts = layouts_of(cached_pages((corpus_dir() / doc["file"]).read_bytes()))
        truth = str(Decimal(str(doc["gt"]["total"])).quantize(Decimal("0.01")))
        for name, chosen in (("rules", None), ("total", models["total"])):
            total = extract_receipt(layouts, total_model=chosen, name_model=None).total
            right[name] += total is not None and strict("total", total.value) == truth
    return {"receipts": len(docs), "total_right": right}


def by_variant(
    samples: Sequence[Sample], predictions: dict[str, dict[str, dict[str, Any]]]
) -> dict[str, Any]:
    return {v: tallies(samples, {s.id: predictions[s.id][v] for s in samples}) for v in VARIANTS}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--corpus", type=Path, default=None)
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--write", default="", help="comma-separated: total, merchant")
    args = parser.parse_args(argv)
    if args.corpus is not None:
        os.environ["DOCAI_CORPUS"] = str(args.corpus.resolve())

    started = time.perf_counter()
    groups = benchmark_groups()
    pool, visible = groups["pool"], groups["visible"]
    unseen = {s.id for s in groups["pool_unseen_merchants"]}
    receipts = [read_receipt(sample) for sample in pool]
    folds = group_folds(pool, args.folds)

    oof: dict[str, dict[str, dict[str, Any]]] = {}
    for fold in range(args.folds):
        models = fit_models([r for r, f in zip(receipts, folds, strict=True) if f != fold])
        for receipt, f in zip(receipts, folds, strict=True):
            if f == fold:
                oof[receipt.sample.id] = extract_variants(receipt.layouts, models)

    final = fit_models(receipts)
    on_visible = {
        s.id: extract_variants(layouts_of(cached_pages(s.image.read_bytes())), final)
        for s in visible
    }
    pool_unseen = [s for s in pool if s.id in unseen]
    texts = {name: model.to_json() for name, model in final.items()}
    report: dict[str, Any] = {
        "command": "python -m training.receipts" + (f" --write {args.write}" if args.write else ""),
        "folds": args.folds,
        "fold_by": "merchant (GroupKFold; letters and digits of the key's company, case-folded)",
        "specs": [list(spec) for spec in SPECS],
        "chosen_per_outer_fold_then_final": CHOSEN,
        "pool_receipts": len(pool),
        "total_candidates": sum(len(r.total_y) for r in receipts),
        "total_truth_among_candidates": round(
            sum(1 for r in receipts if any(r.total_y)) / len(pool), 4
        ),
        "name_candidates": sum(len(r.name_y) for r in receipts),
        "name_row_found": round(sum(1 for r in receipts if any(r.name_y)) / len(pool), 4),
        "out_of_fold": {
            "pool": by_variant(pool, oof),
            "calibration_total": {
                v: calibration(pool, oof, v, "total") for v in ("rules", "total")
            },
            "pool_unseen_merchants": by_variant(pool_unseen, oof),
        },
        "visible_trained_on_pool": by_variant(visible, on_visible),
        "visible_german": german_totals(final),
        "model_sha256": {n: hashlib.sha256(t.encode()).hexdigest() for n, t in texts.items()},
    }
    report["seconds"] = round(time.perf_counter() - started, 1)
    for part, entry in (
        ("oof pool", report["out_of_fold"]["pool"]),
        ("oof unseen", report["out_of_fold"]["pool_unseen_merchants"]),
        ("visible", report["visible_trained_on_pool"]),
    ):
        for name in VARIANTS:
            r = entry[name]["strict"]
            print(
                f"{part:<11} {name:<9} n={r['receipts']:<4} "
                + " ".join(f"{f}={r['fields'][f]:.3f}" for f in r["fields"])
                + f" micro={r['micro_f1']:.3f}"
            )
    print(f"german visible totals right: {report['visible_german']}")
    print(
        f"truth total among candidates {report['total_truth_among_candidates']}, "
        f"name row found {report['name_row_found']}; sha256 {report['model_sha256']}"
    )
    out = ROOT / "benchmarks" / "results"
    out.mkdir(parents=True, exist_ok=True)
    (out / "receipts_models.json").write_text(json.dumps(report, indent=2) + "\n")
    files = {"total": "receipt_total.json", "merchant": "receipt_merchant.json"}
    for name in filter(None, args.write.split(",")):
        (DATA / files[name]).write_text(texts[name])
        print(f"wrote {DATA / files[name]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
