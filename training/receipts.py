"""Train the receipt scorers shipped in ``engines/data/``: the total
(``receipt_total.json``), the merchant's name row (``receipt_merchant.json``) and the line
tagger of the merchant's name and address (``receipt_lines.json``).

    OMP_THREAD_LIMIT=1 .venv/bin/python -m training.receipts [--corpus ../shared/corpus]
        [--folds 5] [--fold-by merchant|receipt] [--write total,merchant,lines]

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
  folds; ``--fold-by receipt``: every k-th receipt, merchants repeat across folds, written
  to ``receipts_models_by_receipt.json``): every pool receipt's fields extracted with the
  models fitted on the other folds, next to today's rules on the same receipts, for the
  whole pool, for its receipts whose merchant is absent from the visible set and for those
  whose merchant no fitted fold holds;
* **visible** — the models fitted on the whole pool, on the visible SROIE receipts (never
  trained on) and on the visible German receipts (total only: the models never saw German),
  next to the rules.

Lines: every row of the receipt's head is a row of ``LINE_FEATURES``
(:mod:`engines.receipt.line_model`), labelled name / address when it lies in the run of
rows most similar to the key's company / address (:func:`span_labels`); two gradient-boosted
tree scorers (depth ``LINE_DEPTH``, fixed) give P(name row), P(address row). Beside the
pool they learn from the project's generated receipts (:func:`generated_receipts`: every
training template, German and English, seeds ``GENERATED_SEEDS``; never scored here). Each
field's confidence (Platt map) and its reporting floor (:func:`best_floor`) are fitted on
inner group folds of the pool. The tagger's address lexicon
(:func:`engines.receipt.line_model.lexicon_words`) is learned from the keys of the fitted
receipts and of the pool's receipts without an image, never from a scored merchant's
(by receipt: never from a scored receipt's).

Every variant is scored: the rules, the total model alone, the name model alone, both,
``lines`` (the total model with the line tagger for the address), ``lines_nolex`` (the same
without the tagger's address lexicon) and ``shipped`` (the engine as shipped: the total
model, the name model for the merchant's name and the line tagger for the address).
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
    pool_samples,
    predicted,
    strict,
)

from prefect_docai.engines.learned import LinearScorer, Scorer, Tree, TreeScorer
from prefect_docai.engines.receipt.line_model import (
    ADDRESS_MAX_ROWS,
    LINE_FEATURES,
    NAME_MAX_ROWS,
    LineModel,
    lexicon_words,
    line_features,
)

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
LINE_MIN_SIMILARITY = 60.0
LINE_DEPTH = 3
"""The line tagger's trees: 100 of this depth (learning rate 0.1), fixed, not tuned."""
DATA = ROOT / "src" / "prefect_docai" / "engines" / "data"
VARIANTS = ("rules", "total", "merchant", "both", "lines", "lines_nolex", "shipped")


@dataclass
class Receipt:
    sample: Sample
    layouts: list[Any]
    total_x: list[list[float]]
    total_y: list[int]
    name_x: list[list[float]]
    name_y: list[int]
    line_x: list[list[float]]
    line_name_y: list[int]
    line_address_y: list[int]


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
    line_x = line_features(rows)
    name_rows = span_labels(rows, sample.truth["merchant"], NAME_MAX_ROWS)
    address_rows = span_labels(rows, sample.truth["address"], ADDRESS_MAX_ROWS)
    return Receipt(
        sample,
        layouts,
        total_x,
        total_y,
        name_x,
        name_y,
        line_x,
        [int(k in name_rows) for k in range(len(line_x))],
        [int(k in address_rows) for k in range(len(line_x))],
    )


def span_labels(rows: Sequence[Any], truth: str | None, longest: int) -> set[int]:
    """The head rows that print ``truth`` (a name or an address): the contiguous run of at
    most ``longest`` rows whose cleaned text is the most similar to it (rapidfuzz ratio,
    case and space folded), when at least :data:`LINE_MIN_SIMILARITY` % similar; OCR slips
    in the right rows still mark them."""
    from rapidfuzz import fuzz

    from prefect_docai.engines.receipt.line_model import HEAD_ROWS
    from prefect_docai.engines.receipt.merchant import clean_text

    target = _fold_text(truth)
    if not target:
        return set()
    texts = [clean_text(r.text) for r in rows[:HEAD_ROWS]]
    best, span = 0.0, (0, 0)
    for start in range(len(texts)):
        for stop in range(start + 1, min(start + longest, len(texts)) + 1):
            similarity = fuzz.ratio(_fold_text(" ".join(texts[start:stop])), target)
            if similarity > best + 1e-9:
                best, span = similarity, (start, stop)
    return set(range(*span)) if best >= LINE_MIN_SIMILARITY else set()


def _fit_line_scorers(receipts: Sequence[Receipt], keys: Sequence[Sample] = ()) -> LineModel:
    """The two row scorers fitted on ``receipts``; the address lexicon learned from the
    keys of ``keys`` (:func:`.line_model.lexicon_words`)."""
    x = np.array([v for r in receipts for v in r.line_x], dtype=float).reshape(
        -1, len(LINE_FEATURES)
    )
    names = np.array([v for r in receipts for v in r.line_name_y], dtype=int)
    addresses = np.array([v for r in receipts for v in r.line_address_y], dtype=int)
    return LineModel(
        fit_trees(x, names, LINE_FEATURES, LINE_DEPTH),
        fit_trees(x, addresses, LINE_FEATURES, LINE_DEPTH),
        lexicon=lexicon_words([(s.merchant, s.truth["address"] or "") for s in keys]),
    )


def key_samples(
    receipts: Sequence[Receipt], extra: Sequence[Sample], held: set[str]
) -> list[Sample]:
    """The annotated keys a lexicon may learn from: the fitted ``receipts``' and those of
    ``extra`` (the pool's receipts without an image) whose merchant is not among the
    ``held`` (scored) ones."""
    return [*(r.sample for r in receipts), *(s for s in extra if s.merchant not in held)]


def line_blocks(receipt: Receipt, model: LineModel) -> list[tuple[float, int, bool]]:
    """Per field (name, address): the decoded block's mean row probability (-1 without a
    block), whether its text is exactly the key's (strict), whether the key has the field."""
    from prefect_docai.engines.receipt.line_model import address_text, name_text, read_blocks

    rows = [row for layout in receipt.layouts for row in layout.rows]
    blocks = read_blocks(rows, model)
    out = []
    for field, block, p in (
        ("merchant", blocks.name, blocks.name_p),
        ("address", blocks.address, blocks.address_p),
    ):
        truth = strict(field, receipt.sample.truth[field])
        picked = [rows[k] for k in block]
        if not block:
            value = None
        elif field == "merchant":
            value = name_text(picked)[0]
        else:
            value = address_text(picked, model.lexicon)[0]
        right = value is not None and strict(field, value) == truth
        out.append((p if block else -1.0, int(right), truth is not None))
    return out


def fit_lines(
    receipts: Sequence[Receipt],
    generated: Sequence[Receipt] = (),
    extra: Sequence[Sample] = (),
) -> LineModel:
    """The line tagger: one tree scorer for name rows, one for address rows, fitted on the
    pool's ``receipts`` and the ``generated`` ones, and the address lexicon learned from
    the keys of ``receipts`` and ``extra`` (never from a scored merchant's); each field's
    confidence calibrated on inner group folds of the pool (the generated receipts always
    on the fitted side)."""
    folds = group_folds([r.sample for r in receipts], INNER_FOLDS)
    held: list[list[tuple[float, int, bool]]] = [[], []]
    for fold in range(INNER_FOLDS):
        fitted = [r for r, f in zip(receipts, folds, strict=True) if f != fold]
        scored = {r.sample.merchant for r, f in zip(receipts, folds, strict=True) if f == fold}
        model = _fit_line_scorers([*fitted, *generated], key_samples(fitted, extra, scored))
        for receipt, f in zip(receipts, folds, strict=True):
            if f == fold:
                for field, entry in enumerate(line_blocks(receipt, model)):
                    held[field].append(entry)
    calibrations = [platt([(p, right) for p, right, _ in entries if p >= 0]) for entries in held]
    floors = [best_floor(entries) for entries in held]
    CHOSEN["lines"].append([*([round(v, 4) for v in c] for c in calibrations), floors])
    final = _fit_line_scorers([*receipts, *generated], key_samples(receipts, extra, set()))
    return LineModel(
        dataclasses.replace(final.name, calibration=calibrations[0]),
        dataclasses.replace(final.address, calibration=calibrations[1]),
        (floors[0], floors[1]),
        final.lexicon,
    )


LINE_FLOORS = (0.0, 0.01, 0.02, 0.05, 0.1)
"""Floors tried for a block's mean row probability (below it the field is not reported):
low ones only, to drop blocks the model is nearly sure are none; higher floors, chosen by
inner folds, varied from fold to fold and lowered the held-out name F1."""


def best_floor(entries: Sequence[tuple[float, int, bool]]) -> float:
    """The floor of :data:`LINE_FLOORS` with the best F1 over held-out (block probability
    or -1, exactly right, key has the field) entries; ties: the lowest."""
    best, chosen = -1.0, 0.0
    for floor in LINE_FLOORS:
        kept = [(p, right) for p, right, _ in entries if p >= 0 and p >= floor]
        tp = sum(r for _, r in kept)
        fp = len(kept) - tp
        fn = sum(1 for _, _, has in entries if has) - tp
        f1 = 2 * tp / max(2 * tp + fp + fn, 1)
        if f1 > best + 1e-9:
            best, chosen = f1, floor
    return chosen


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


CHOSEN: dict[str, list[list[Any]]] = {"total": [], "merchant": [], "lines": []}
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


def fit_models(
    receipts: Sequence[Receipt],
    generated: Sequence[Receipt] = (),
    extra: Sequence[Sample] = (),
) -> dict[str, Scorer | LineModel]:
    """The models fitted on ``receipts``; the line tagger also on ``generated``, its
    address lexicon also on the keys of ``extra``."""
    from prefect_docai.engines.receipt.merchant_model import NAME_FEATURES
    from prefect_docai.engines.receipt.total_model import TOTAL_FEATURES

    return {
        "total": fit_kind(receipts, "total", TOTAL_FEATURES),
        "merchant": fit_kind(receipts, "merchant", NAME_FEATURES),
        "lines": fit_lines(receipts, generated, extra),
    }


GENERATED_SEEDS = range(100, 108)
"""Seeds of the generated receipts the line tagger also learns from (the unit tests read
seeds 0 and 1; the held-out templates are never trained on)."""


def generated_receipts() -> list[Receipt]:
    """The project's generated till receipts (every training template and language,
    :data:`GENERATED_SEEDS`), read as the engine reads a PDF, their rows featured and
    labelled by the generator's truth: layouts and languages the SROIE pool lacks."""
    from prefect_docai.engines.extract.rows import document_layouts
    from prefect_docai.engines.page.document import load_document
    from prefect_docai.engines.receipt.engine import RECEIPT_LANGUAGES
    from prefect_docai.engines.receipt.image import receipt_views
    from prefect_docai.samples import generate, templates
    from prefect_docai.samples.core import LANGS

    out = []
    for template in templates("receipt", held_out=False):
        for lang in LANGS:
            for seed in GENERATED_SEEDS:
                doc = generate("receipt", seed=seed, lang=lang, template=template)
                with load_document(
                    doc.pdf, languages=RECEIPT_LANGUAGES, dpi=300, prepare=receipt_views
                ) as document:
                    layouts = document_layouts(document)
                truth = {
                    "merchant": doc.truth["merchant"]["name"],
                    "address": doc.truth["merchant"]["address"],
                    "date": None,
                    "total": None,
                }
                sample = Sample(f"generated-{template}-{lang}-{seed}", Path(), truth)
                rows = [row for layout in layouts for row in layout.rows]
                line_x = line_features(rows)
                name_rows = span_labels(rows, truth["merchant"], NAME_MAX_ROWS)
                address_rows = span_labels(rows, truth["address"], ADDRESS_MAX_ROWS)
                out.append(
                    Receipt(
                        sample,
                        layouts,
                        [],
                        [],
                        [],
                        [],
                        line_x,
                        [int(k in name_rows) for k in range(len(line_x))],
                        [int(k in address_rows) for k in range(len(line_x))],
                    )
                )
    return out


def extract_variants(layouts: list[Any], models: dict[str, Any]) -> dict[str, Any]:
    """Predicted fields per variant: rules, each model alone, both, and the total model
    with the line tagger (merchant and address)."""
    from prefect_docai.engines.receipt.extract import extract_receipt

    choices = {
        "rules": (None, None, None),
        "total": (models["total"], None, None),
        "merchant": (None, models["merchant"], None),
        "both": (models["total"], models["merchant"], None),
        "lines": (models["total"], None, models["lines"]),
        "lines_nolex": (models["total"], None, dataclasses.replace(models["lines"], lexicon={})),
        "shipped": (models["total"], models["merchant"], models["lines"]),
    }
    out: dict[str, Any] = {}
    for name, (t, n, lines) in choices.items():
        result = extract_receipt(
            layouts, total_model=t, name_model=n, line_model=lines, confidence_map=None
        )
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


def german_totals(models: dict[str, Any]) -> dict[str, Any]:
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
            total = extract_receipt(
                layouts, total_model=chosen, name_model=None, line_model=None
            ).total
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
    parser.add_argument("--write", default="", help="comma-separated: total, merchant, lines")
    parser.add_argument(
        "--fold-by",
        choices=("merchant", "receipt"),
        default="merchant",
        help="outer folds: by merchant (GroupKFold, default) or by receipt (every k-th)",
    )
    args = parser.parse_args(argv)
    if args.corpus is not None:
        os.environ["DOCAI_CORPUS"] = str(args.corpus.resolve())

    started = time.perf_counter()
    groups = benchmark_groups()
    pool, visible = groups["pool"], groups["visible"]
    unseen = {s.id for s in groups["pool_unseen_merchants"]}
    receipts = [read_receipt(sample) for sample in pool]
    generated = generated_receipts()
    with_image = {s.id for s in pool}
    extra = [s for s in pool_samples(with_image=False) if s.id not in with_image]
    folds = (
        group_folds(pool, args.folds)
        if args.fold_by == "merchant"
        else [k % args.folds for k in range(len(pool))]
    )

    oof: dict[str, dict[str, dict[str, Any]]] = {}
    for fold in range(args.folds):
        scored = {s.merchant for s, f in zip(pool, folds, strict=True) if f == fold}
        held_ids = {s.id for s, f in zip(pool, folds, strict=True) if f == fold}
        # By merchant: no key of a scored merchant is learned from. By receipt: only the
        # scored receipts' own keys are held back.
        kept = [
            s
            for s in extra
            if (s.merchant not in scored if args.fold_by == "merchant" else s.id not in held_ids)
        ]
        models = fit_models(
            [r for r, f in zip(receipts, folds, strict=True) if f != fold], generated, kept
        )
        for receipt, f in zip(receipts, folds, strict=True):
            if f == fold:
                oof[receipt.sample.id] = extract_variants(receipt.layouts, models)

    final = fit_models(receipts, generated, extra)
    on_visible = {
        s.id: extract_variants(layouts_of(cached_pages(s.image.read_bytes())), final)
        for s in visible
    }
    pool_unseen = [s for s in pool if s.id in unseen]
    # Receipts whose merchant no fitted fold holds (all of them when folding by merchant).
    fitted_merchants = [
        {s.merchant for s, f in zip(pool, folds, strict=True) if f != fold}
        for fold in range(args.folds)
    ]
    unfitted = [
        s for s, f in zip(pool, folds, strict=True) if s.merchant not in fitted_merchants[f]
    ]
    texts = {name: model.to_json() for name, model in final.items()}
    report: dict[str, Any] = {
        "command": "python -m training.receipts" + (f" --write {args.write}" if args.write else ""),
        "folds": args.folds,
        "fold_by": (
            "merchant (GroupKFold; letters and digits of the key's company, case-folded)"
            if args.fold_by == "merchant"
            else "receipt (every k-th receipt in id order; merchants repeat across folds)"
        ),
        "specs": [list(spec) for spec in SPECS],
        "chosen_per_outer_fold_then_final": CHOSEN,
        "pool_receipts": len(pool),
        "total_candidates": sum(len(r.total_y) for r in receipts),
        "total_truth_among_candidates": round(
            sum(1 for r in receipts if any(r.total_y)) / len(pool), 4
        ),
        "name_candidates": sum(len(r.name_y) for r in receipts),
        "name_row_found": round(sum(1 for r in receipts if any(r.name_y)) / len(pool), 4),
        "line_name_rows_found": round(
            sum(1 for r in receipts if any(r.line_name_y)) / len(pool), 4
        ),
        "line_address_rows_found": round(
            sum(1 for r in receipts if any(r.line_address_y)) / len(pool), 4
        ),
        "generated_receipts": len(generated),
        "generated_name_rows_found": sum(1 for r in generated if any(r.line_name_y)),
        "generated_address_rows_found": sum(1 for r in generated if any(r.line_address_y)),
        "out_of_fold": {
            "pool": by_variant(pool, oof),
            "calibration_total": {
                v: calibration(pool, oof, v, "total") for v in ("rules", "total")
            },
            "pool_unseen_merchants": by_variant(pool_unseen, oof),
            "pool_merchant_not_in_fitted_folds": by_variant(unfitted, oof),
        },
        "visible_trained_on_pool": by_variant(visible, on_visible),
        "visible_german": german_totals(final),
        "model_sha256": {n: hashlib.sha256(t.encode()).hexdigest() for n, t in texts.items()},
    }
    report["seconds"] = round(time.perf_counter() - started, 1)
    for part, entry in (
        ("oof pool", report["out_of_fold"]["pool"]),
        ("oof unseen", report["out_of_fold"]["pool_unseen_merchants"]),
        ("oof new", report["out_of_fold"]["pool_merchant_not_in_fitted_folds"]),
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
    name = (
        "receipts_models.json" if args.fold_by == "merchant" else "receipts_models_by_receipt.json"
    )
    (out / name).write_text(json.dumps(report, indent=2) + "\n")
    files = {
        "total": "receipt_total.json",
        "merchant": "receipt_merchant.json",
        "lines": "receipt_lines.json",
    }
    for name in filter(None, args.write.split(",")):
        (DATA / files[name]).write_text(texts[name])
        print(f"wrote {DATA / files[name]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
