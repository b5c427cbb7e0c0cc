"""Fit the invoice fields' confidence map shipped as ``engines/data/invoice_confidence.json``
(issue #14, point 2), and measure it on held-out folds.

    OMP_THREAD_LIMIT=1 nice -n 10 .venv/bin/python -m training.calibration
        [--tool invoice|receipt] [--folds 5] [--template-docs 48] [--grammar-docs 24]
        [--intl-docs 12] [--intl-langs en,fr,nl,it,es] [--write | --out FILE] [--no-eval]

Data: the samples of :mod:`benchmarks.invoices_cv` (visible corpus invoices grouped by
seller, template-generator invoices grouped by template, grammar-generator invoices grouped
by layout family, and ``--intl-docs`` invoices per language of ``--intl-langs`` of the
intl composer: English, French, Dutch, Italian, Spanish, grouped by layout family too), all
at the default seeds (never those of the held-out draws, ``--seed-base`` 71001 and 81001 of
the benchmark), each read in both modes (text layer without the XML, and scanned through
OCR; page words cached). Every field of :data:`engines.invoice.confidence.CALIBRATED` the
engine reads with a value, and whose truth the benchmark scores (``counted``), is a row:
its raw score and features (:data:`engines.invoice.confidence.FEATURES`), labelled 1 when
its value is the truth.

The raw scores are out-of-fold: the learned scorers shipped in ``engines/data/`` (today the
invoice date's) are refitted per outer group fold by ``training.invoices.fit_field`` on the
other folds' documents of their own recipe (no intl invoices, as ``training.invoices``
fits them), and each document is read with the ones that never saw its group — what the
map meets on a new invoice (the shipped scorer's own training documents would give it
optimistic raw scores). Map per field: L2 logistic regressions over the features (which
features and strength: :data:`SPECS`), each with its raw weight held ≥ 0 (when the fit gives
a negative one, the raw feature is dropped: weight 0), blended in logit space with the
weights that best predict inner group folds (stacking, :func:`fit_map`), so the map is
monotone in the raw score. Both maps (invoice and receipt) are fitted so. The fit before
picked the one spec of the lowest inner-fold loss: on the receipt rows that pick made the
held-out ECE move by 0.02 between refits on resampled or re-split rows; on the invoice rows
(three times as many) pick and blend are alike held out (group CV ECE 0.0201 and 0.0206,
over group-bootstrap refits 0.0217 ± 0.0040 and 0.0216 ± 0.0047), so one fit serves both.
Deterministic: ``--write`` gives the same bytes on every run. Every figure comes with
``ece_if_calibrated``: the ECE a perfectly calibrated map would show on the same
confidences (mean, spread; :func:`ece_if_calibrated`) — a few hundred fields in ten bins
give about 0.025 by sampling alone.

Evaluation (printed and written into ``benchmarks/results/invoices_cv.json``, key
``calibration``), per mode, the share right among fields at confidence ≥ 0.9 and the
expected calibration error (10 bins):

* ``raw_shipped`` — the engine's raw scores with the shipped scorers (today's figure);
* ``raw_oof`` — the raw scores the map is fitted on;
* ``group_cv`` — the map fitted on the other folds' rows, applied to each fold's;
* ``generated->visible`` — the map fitted on generated documents only, applied to the
  visible corpus invoices (their raw scores are the out-of-fold ones above);
* ``in_sample`` — fitted on every row, applied to every row (optimistic, for contrast).

The figure on documents drawn at seeds no map was fitted on is the benchmark's:
``python -m benchmarks.invoices_cv --seed-base 81001 --intl-langs en,fr,nl,it,es`` reads
them with the shipped map.

It also checks that the map changes no value: every document is read with and without it
and the values compared (field F1 unchanged).

``--tool receipt`` fits ``engines/data/receipt_confidence.json`` the same way for the receipt
fields of :data:`engines.receipt.confidence.CALIBRATED` (merchant name, address, date, total;
features :data:`engines.receipt.confidence.FEATURES`): rows from the SROIE training pool's
240 receipts with an image (OCR cached by :mod:`benchmarks.receipts_cv`), raw scores out of
fold (the shipped receipt scorers refitted by ``training.receipts.fit_models`` on the other
merchant folds and the generated receipts). Evaluation, written to
``benchmarks/results/receipts_calibration.json``: the pool by merchant group folds, the map
fitted on the pool applied to the visible SROIE receipts (never fitted on; read with the
shipped scorers, themselves fitted on the pool), in-sample.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from benchmarks.invoices import normalize
from benchmarks.invoices_cv import (
    RESULTS,
    ROOT,
    Document,
    all_samples,
    confidence_report,
    counted,
    deal_groups,
    group_folds,
    intl_samples,
    read_documents,
    source_of,
)

from prefect_docai.engines.calibration import ConfidenceMap, FieldMap, raw_logit
from prefect_docai.engines.invoice.confidence import CALIBRATED, FEATURES, MAP_FILE

DATA = ROOT / "src" / "prefect_docai" / "engines" / "data"
FITTED_LANGS = ("en", "fr", "nl", "it", "es")
"""Languages of the intl-composer invoices the map is fitted on (``en``: English ones of that
composer, British and American forms): the languages the held-out draws cover."""


@dataclass(frozen=True)
class Row:
    doc: str
    group: str
    source: str
    """``visible``, ``template`` or ``grammar``."""
    mode: str
    field: str
    raw: float
    extra: tuple[float, ...]
    right: int

    def x(self) -> list[float]:
        return [raw_logit(self.raw), *self.extra]


def rows_of(document: Document, result: Any) -> list[Row]:
    """The calibrated fields of ``result`` (read from ``document``) the benchmark scores."""
    from prefect_docai.engines.invoice.confidence import field_features

    out = []
    for name, (found, extra) in field_features(result).items():
        if not counted(document, name):
            continue
        value = normalize(name, found.value)
        if value is None:
            continue
        sample = document.sample
        out.append(
            Row(
                sample.id,
                sample.group,
                sample.source,
                document.mode,
                name,
                float(found.confidence),
                tuple(extra),
                int(value == sample.truth.get(name)),
            )
        )
    return out


def shipped_learned() -> list[str]:
    from prefect_docai.engines.invoice.scoring import MODEL_FILES, shipped

    return [name for name in MODEL_FILES if shipped(name) is not None]


def read_raw(
    documents: Sequence[Document],
    fold_of: dict[str, int],
    folds: int,
    scorer_ids: set[str] | None = None,
) -> tuple[list[Row], list[Row]]:
    """Rows of every document: with the shipped scorers, and out-of-fold (the shipped
    learned fields' scorers refitted without the document's fold, on the documents of
    ``scorer_ids`` only when given: the shipped scorers' own recipe)."""
    from prefect_docai.engines.invoice.text import extract_invoice
    from training import invoices as T

    learned = shipped_learned()
    shipped_rows: list[Row] = []
    for document in documents:
        layouts = document.layouts
        result = extract_invoice(layouts, source_of(layouts), None, confidence_map=None)
        shipped_rows += rows_of(document, result)
    if not learned:
        return shipped_rows, shipped_rows
    items = [T.featurize(document) for document in documents]
    oof_rows: list[Row] = []
    for fold in range(folds):
        train = [
            it
            for it in items
            if fold_of[it.document.sample.id] != fold
            and (scorer_ids is None or it.document.sample.id in scorer_ids)
        ]
        models: dict[str, Any] = dict.fromkeys(T.LEARNED_FIELDS)
        for name in learned:
            models[name] = T.fit_field(train, name)
        for item in items:
            document = item.document
            if fold_of[document.sample.id] != fold:
                continue
            layouts = document.layouts
            result = extract_invoice(layouts, source_of(layouts), models, confidence_map=None)
            oof_rows += rows_of(document, result)
        print(f"  raw scores, fold {fold + 1}/{folds}", flush=True)
    return shipped_rows, oof_rows


def specs_for(features: tuple[str, ...]) -> list[tuple[tuple[str, ...], float]]:
    """Maps blended per field: the features used (the others get weight 0) and the inverse
    L2 strength; their weights are set by inner group folds over the rows a map is fitted
    on, never on the rows it is scored on (:func:`fit_map`)."""
    specs: list[tuple[tuple[str, ...], float]] = [(("raw",), 1.0)]
    if "ocr" in features:
        specs.append((("raw", "ocr"), 1.0))
    if "reading" in features:
        specs.append((("raw", "reading"), 1.0))
    return [*specs, (features, 1.0), (features, 0.1), (IDENTITY, 0.0)]


IDENTITY = ("identity",)
"""The spec that keeps the raw score (weight 1 on its logit, nothing else): weighted up where
the raw score is already calibrated (a learned scorer's Platt-mapped probability) and no
fitted map beats it on the inner folds."""


SPECS = specs_for(FEATURES)
"""The invoice map's specs (:func:`specs_for`)."""
INNER_FOLDS = 3


def inner_folds(rows: Sequence[Row], folds: int) -> list[int]:
    """Fold of each row, whole groups per fold (as ``benchmarks.invoices_cv.group_folds``:
    groups by size then name, each to the lightest fold)."""
    fold_of = deal_groups([row.group for row in rows], folds)
    return [fold_of[row.group] for row in rows]


def fit_field(
    rows: Sequence[Row],
    used: tuple[str, ...],
    strength: float,
    features: tuple[str, ...] = FEATURES,
) -> FieldMap:
    """One field's logistic map over the features ``used``, monotone in the raw score (a
    negative raw weight drops the raw feature); one class only: a constant map at the
    smoothed share right."""
    from sklearn.linear_model import LogisticRegression

    if used == IDENTITY:
        return FieldMap((1.0,) + (0.0,) * (len(features) - 1), 0.0)
    y = np.array([row.right for row in rows], dtype=int)
    share = (y.sum() + 1) / (len(y) + 2)
    constant = FieldMap((0.0,) * len(features), float(np.log(share / (1 - share))))
    if len(set(y.tolist())) < 2:
        return constant
    x = np.array([row.x() for row in rows], dtype=float)
    columns = [features.index(f) for f in used]
    while True:
        if not columns:
            return constant
        model = LogisticRegression(C=strength, max_iter=1000)
        model.fit(x[:, columns], y)
        coef = dict(zip(columns, model.coef_[0].tolist(), strict=True))
        if 0 not in coef or coef[0] >= 0:
            break
        columns = [c for c in columns if c != 0]
    return FieldMap(
        tuple(coef.get(i, 0.0) for i in range(len(features))), float(model.intercept_[0])
    )


def stack_weights(logits: np.ndarray, right: np.ndarray) -> np.ndarray:
    """Simplex weights ``w`` (one per column of ``logits``: a spec's out-of-fold logits of
    the rows) maximizing the log likelihood of ``right`` under ``logistic(logits @ w)``.

    Stacking (Yao et al. 2018) rather than picking the best spec: the log likelihood is
    concave in ``w``, so the weights move smoothly with the data, where a pick jumps from
    one spec to another when two are close (what made the map's held-out ECE move by
    0.01 between two nearly identical models). Solved by SLSQP from equal weights;
    deterministic."""
    from scipy.optimize import minimize

    k = logits.shape[1]
    sign = 2.0 * right - 1.0

    def loss(w: np.ndarray) -> tuple[float, np.ndarray]:
        margin = sign * (logits @ w)
        value = float(np.sum(np.logaddexp(0.0, -margin)))
        gradient = -(logits * (sign / (1.0 + np.exp(margin)))[:, None]).sum(axis=0)
        return value, gradient

    best = minimize(
        loss,
        np.full(k, 1.0 / k),
        jac=True,
        method="SLSQP",
        bounds=[(0.0, 1.0)] * k,
        constraints=[{"type": "eq", "fun": lambda w: float(np.sum(w) - 1.0)}],
        options={"ftol": 1e-10, "maxiter": 500},
    )
    # the solver leaves ~1e-17 on the specs it drops: zero them (they are no weight)
    w = np.asarray(best.x, dtype=float)
    w = np.where(w < WEIGHT_FLOOR, 0.0, w)
    weights: np.ndarray = w / w.sum()
    return weights


WEIGHT_FLOOR = 1e-6
"""Stacking weights below this are the solver's rounding, set to 0."""


def blend(maps: Sequence[FieldMap], weights: Sequence[float]) -> FieldMap:
    """The logistic map whose logit is the ``weights``-weighted sum of the ``maps``' logits
    (one map again: the shipped format is unchanged); monotone in the raw score as each of
    them is (every raw weight ≥ 0, every weight ≥ 0)."""
    size = len(maps[0].coef)
    coef = tuple(
        float(sum(w * m.coef[i] for w, m in zip(weights, maps, strict=True))) for i in range(size)
    )
    intercept = float(sum(w * m.intercept for w, m in zip(weights, maps, strict=True)))
    return FieldMap(coef, intercept)


def _logit(entry: FieldMap, row: Row) -> float:
    p = min(max(entry.probability(row.raw, row.extra), 1e-6), 1 - 1e-6)
    return float(np.log(p / (1 - p)))


CHOSEN: dict[str, list[list[Any]]] = defaultdict(list)
"""Per field, of each map fitted (the final map first): the specs' stacking weights."""


def fit_map(
    rows: Sequence[Row],
    info: dict[str, Any] | None = None,
    names: Sequence[str] = tuple(CALIBRATED),
    features: tuple[str, ...] = FEATURES,
) -> ConfidenceMap:
    """Per field of ``names`` a logistic map over ``features``: every spec
    (:func:`specs_for`) fitted, blended in logit space with the weights that predict inner
    group folds best (each spec fitted without a fold, scored on its rows;
    :func:`stack_weights`, :func:`blend`). Not the one spec of the lowest inner-fold loss:
    a pick jumps between specs that score about the same, a blend moves smoothly."""
    by_field: dict[str, list[Row]] = defaultdict(list)
    for row in rows:
        by_field[row.field].append(row)
    fields: dict[str, FieldMap] = {}
    specs = specs_for(features)
    for name in names:
        members = by_field.get(name, [])
        if not members:
            continue
        fold_of = inner_folds(members, INNER_FOLDS)
        logits = np.zeros((len(members), len(specs)))
        for column, spec in enumerate(specs):
            for fold in range(INNER_FOLDS):
                train = [r for r, f in zip(members, fold_of, strict=True) if f != fold]
                test = [i for i, f in enumerate(fold_of) if f == fold]
                if not train or not test:
                    continue
                entry = fit_field(train, *spec, features)
                for i in test:
                    logits[i, column] = _logit(entry, members[i])
        right = np.array([row.right for row in members], dtype=float)
        weights = stack_weights(logits, right)
        CHOSEN[name].append([round(float(w), 4) for w in weights])
        fitted = [fit_field(members, *spec, features) for spec in specs]
        fields[name] = blend(fitted, weights.tolist())
    return ConfidenceMap(features, fields, info or {})


def apply(confidence_map: ConfidenceMap, rows: Sequence[Row]) -> list[tuple[float, bool]]:
    return [
        (confidence_map.confidence(row.field, row.raw, row.extra), bool(row.right)) for row in rows
    ]


def raw_pairs(rows: Sequence[Row]) -> list[tuple[float, bool]]:
    return [(row.raw, bool(row.right)) for row in rows]


def ece_if_calibrated(
    confidences: Sequence[float], draws: int = 400, seed: int = 0
) -> tuple[float, float]:
    """Mean and spread of the ECE (10 bins, as :func:`benchmarks.invoices_cv.confidence_report`)
    that a perfectly calibrated map would show on these confidences: each field drawn right
    with probability its confidence, ``draws`` times (fixed seed: deterministic).

    The ECE of a few hundred fields is not 0 even for a perfect map (each bin's share right
    is a sample); this is the figure to read a measured ECE against."""
    if not confidences:
        return 0.0, 0.0
    c = np.asarray(confidences, dtype=float)
    bins = np.minimum((c * 10).astype(int), 9)
    onehot = np.zeros((len(c), 10))
    onehot[np.arange(len(c)), bins] = 1.0
    counts = onehot.sum(axis=0)
    filled = counts > 0
    mean_conf = (c @ onehot)[filled] / counts[filled]
    right = np.random.default_rng(seed).random((draws, len(c))) < c
    share = (right.astype(float) @ onehot)[:, filled] / counts[filled]
    eces = (np.abs(share - mean_conf) * counts[filled]).sum(axis=1) / len(c)
    return round(float(eces.mean()), 4), round(float(eces.std()), 4)


def report_of(pairs: Sequence[tuple[float, bool]]) -> dict[str, Any]:
    """:func:`benchmarks.invoices_cv.confidence_report` and :func:`ece_if_calibrated`."""
    entry = confidence_report(pairs)
    if pairs:
        entry["ece_if_calibrated"] = list(ece_if_calibrated([c for c, _ in pairs]))
    return entry


def per_mode(
    pairs_of: Any, rows: Sequence[Row], modes: Sequence[str], names: Sequence[str] = CALIBRATED
) -> dict[str, Any]:
    """The confidence check per mode, per source within it and per field."""
    out: dict[str, Any] = {}
    for mode in modes:
        subset = [r for r in rows if r.mode == mode]
        entry: dict[str, Any] = {"all": report_of(pairs_of(subset))}
        for source in sorted({r.source for r in subset}):
            part = [r for r in subset if r.source == source]
            if part:
                entry[source] = report_of(pairs_of(part))
        entry["fields"] = {
            name: report_of(pairs_of([r for r in subset if r.field == name]))
            for name in names
            if any(r.field == name for r in subset)
        }
        out[mode] = entry
    return out


def reliability(pairs: Sequence[tuple[float, bool]]) -> list[list[float]]:
    """Per confidence tenth with members: [bin low, fields, mean confidence, share right]."""
    out = []
    for low in range(10):
        members = [
            (c, r) for c, r in pairs if low / 10 <= c < (low + 1) / 10 or (low == 9 and c >= 1)
        ]
        if members:
            out.append(
                [
                    low / 10,
                    len(members),
                    round(sum(c for c, _ in members) / len(members), 3),
                    round(sum(r for _, r in members) / len(members), 3),
                ]
            )
    return out


def values_unchanged(documents: Sequence[Document], confidence_map: ConfidenceMap) -> int:
    """Documents read with and without the map: the number whose values differ (0 expected:
    the map changes confidences only)."""
    from prefect_docai.engines.invoice.text import extract_invoice

    def strip(result: Any) -> Any:
        def walk(node: Any) -> Any:
            if isinstance(node, dict):
                return {k: walk(v) for k, v in node.items() if k != "confidence"}
            if isinstance(node, list):
                return [walk(v) for v in node]
            return node

        return walk(result.model_dump(mode="json"))

    differ = 0
    for document in documents:
        layouts = document.layouts
        source = source_of(layouts)
        plain = extract_invoice(layouts, source, None, confidence_map=None)
        mapped = extract_invoice(layouts, source, None, confidence_map=confidence_map)
        differ += strip(plain) != strip(mapped)
    return differ


# --- receipts ---------------------------------------------------------------------------


def receipt_rows(sample: Any, read: tuple[Any, Any], source: str) -> list[Row]:
    """The calibrated fields of a receipt read (``extract_receipt_raw``'s result and its
    :class:`engines.receipt.confidence.Signals`) with a value, against ``sample``'s truth
    (compared as ``benchmarks.receipts_cv`` does: strict)."""
    from benchmarks.receipts_cv import strict

    from prefect_docai.engines.receipt.confidence import field_features

    out = []
    result, signals = read
    for name, (found, extra) in field_features(result, signals).items():
        truth = strict(name, sample.truth.get(name))
        value = strict(name, found.value)
        if truth is None or value is None:
            continue
        out.append(
            Row(
                sample.id,
                sample.merchant,
                source,
                "ocr",
                name,
                float(found.confidence),
                tuple(extra),
                int(value == truth),
            )
        )
    return out


def read_receipts_raw(folds: int) -> tuple[list[Row], list[Row], list[Row], list[int], list[Any]]:
    """Rows of the SROIE pool's receipts read with the shipped scorers (in-sample for
    them) and out-of-fold (the shipped scorers refitted by ``training.receipts`` on the
    other merchant folds and the generated receipts), rows of the visible SROIE receipts
    (shipped scorers: fitted on the pool, never on them), each pool receipt's fold, and
    the pool's samples."""
    from benchmarks.receipts_cv import benchmark_groups, cached_pages, layouts_of

    from prefect_docai.engines.receipt.extract import extract_receipt_raw
    from prefect_docai.engines.receipt.line_model import shipped_model as shipped_lines
    from prefect_docai.engines.receipt.merchant_model import shipped_model as shipped_names
    from prefect_docai.engines.receipt.total_model import shipped_model as shipped_totals
    from training import receipts as R

    groups = benchmark_groups()
    pool, visible = groups["pool"], groups["visible"]
    receipts = [R.read_receipt(sample) for sample in pool]
    generated = R.generated_receipts()
    fold_of = R.group_folds(pool, folds)
    shipped = {
        "total": shipped_totals() is not None,
        "merchant": shipped_names() is not None,
        "lines": shipped_lines() is not None,
    }
    shipped_rows: list[Row] = []
    for receipt in receipts:
        read = extract_receipt_raw(receipt.layouts)
        shipped_rows += receipt_rows(receipt.sample, read, "pool")
    oof_rows: list[Row] = []
    for fold in range(folds):
        train = [r for r, f in zip(receipts, fold_of, strict=True) if f != fold]
        models = R.fit_models(train, generated)
        for receipt, f in zip(receipts, fold_of, strict=True):
            if f != fold:
                continue
            read = extract_receipt_raw(
                receipt.layouts,
                total_model=models["total"] if shipped["total"] else None,
                name_model=models["merchant"] if shipped["merchant"] else None,
                line_model=models["lines"] if shipped["lines"] else None,
            )
            oof_rows += receipt_rows(receipt.sample, read, "pool")
        print(f"  raw scores, fold {fold + 1}/{folds}", flush=True)
    visible_rows: list[Row] = []
    for sample in visible:
        layouts = layouts_of(cached_pages(sample.image.read_bytes()))
        read = extract_receipt_raw(layouts)
        visible_rows += receipt_rows(sample, read, "visible")
    return shipped_rows, oof_rows, visible_rows, fold_of, pool


def main_receipt(args: argparse.Namespace, argv: list[str] | None) -> int:
    from prefect_docai.engines.receipt import confidence as RC

    names, features = tuple(RC.CALIBRATED), RC.FEATURES
    shipped_rows, rows, visible_rows, folds_list, pool = read_receipts_raw(args.folds)
    fold_of = {sample.id: fold for sample, fold in zip(pool, folds_list, strict=True)}
    info = {
        "trained_by": "python -m training.calibration --tool receipt --write",
        "rows": len(rows),
        "receipts": len(pool),
        "specs": [[list(used), strength] for used, strength in specs_for(features)],
        "fit": "specs stacked on inner group folds",
    }
    final = fit_map(rows, info, names, features)
    if not args.no_eval:
        calibrated_cv: dict[tuple[str, str], float] = {}
        for fold in range(args.folds):
            train = [r for r in rows if fold_of[r.doc] != fold]
            fold_map = fit_map(train, None, names, features)
            for row in rows:
                if fold_of[row.doc] == fold:
                    calibrated_cv[(row.doc, row.field)] = fold_map.confidence(
                        row.field, row.raw, row.extra
                    )

        def cv(part: Sequence[Row]) -> list[tuple[float, bool]]:
            return [(calibrated_cv[(r.doc, r.field)], bool(r.right)) for r in part]

        def mapped(part: Sequence[Row]) -> list[tuple[float, bool]]:
            return apply(final, part)

        modes = ["ocr"]
        report: dict[str, Any] = {
            "command": "python -m training.calibration " + " ".join(argv or []),
            "rows": len(rows),
            "raw_shipped_pool": per_mode(raw_pairs, shipped_rows, modes, names),
            "raw_oof_pool": per_mode(raw_pairs, rows, modes, names),
            "group_cv_pool": per_mode(cv, rows, modes, names),
            "pool->visible": {
                "raw": per_mode(raw_pairs, visible_rows, modes, names),
                "calibrated": per_mode(mapped, visible_rows, modes, names),
            },
            "in_sample_pool": per_mode(mapped, rows, modes, names),
            "reliability": {
                name: {
                    "raw_oof": reliability(raw_pairs([r for r in rows if r.field == name])),
                    "group_cv": reliability(cv([r for r in rows if r.field == name])),
                }
                for name in names
            },
            "spec_weights_final_then_per_fold": CHOSEN,
        }
        out = ROOT / "benchmarks" / "results" / "receipts_calibration.json"
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(report, indent=1) + "\n")
        for key, entry in (
            ("raw shipped pool", report["raw_shipped_pool"]["ocr"]),
            ("raw oof pool", report["raw_oof_pool"]["ocr"]),
            ("group cv pool", report["group_cv_pool"]["ocr"]),
            ("visible raw", report["pool->visible"]["raw"]["ocr"]),
            ("pool->visible map", report["pool->visible"]["calibrated"]["ocr"]),
            ("in-sample pool", report["in_sample_pool"]["ocr"]),
        ):
            fields = " ".join(
                f"{n}: {e.get('right_at_0.9')}@{e.get('at_0.9')}/{e.get('fields')} "
                f"ECE {e.get('ece')}"
                for n, e in entry["fields"].items()
            )
            a = entry["all"]
            print(
                f"{key:<18} all: {a.get('right_at_0.9')}@{a.get('at_0.9')}/{a.get('fields')} "
                f"ECE {a.get('ece')} (a calibrated map: {a.get('ece_if_calibrated')}) | {fields}"
            )
    if args.write or args.out is not None:
        path = args.out if args.out is not None else DATA / RC.MAP_FILE
        path.write_text(final.to_json())
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        print(f"wrote {path} sha256 {digest}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--modes", default="text,scan")
    parser.add_argument("--template-docs", type=int, default=48)
    parser.add_argument("--grammar-docs", type=int, default=24)
    parser.add_argument(
        "--intl-docs",
        type=int,
        default=12,
        help="grammar invoices of the intl composer per language of --intl-langs (fitted on)",
    )
    parser.add_argument("--intl-langs", default=",".join(FITTED_LANGS))
    parser.add_argument(
        "--write", action="store_true", help="write engines/data/<tool>_confidence.json"
    )
    parser.add_argument("--out", type=Path, default=None, help="write the map here instead")
    parser.add_argument("--no-eval", action="store_true", help="only fit (and write)")
    parser.add_argument("--tool", choices=("invoice", "receipt"), default="invoice")
    args = parser.parse_args(argv)
    os.environ.setdefault("OMP_THREAD_LIMIT", "1")
    if args.tool == "receipt":
        return main_receipt(args, argv)
    modes = [m for m in args.modes.split(",") if m]
    intl_langs = [lang for lang in args.intl_langs.split(",") if lang]
    recipe = all_samples(args.template_docs, args.grammar_docs)
    intl = intl_samples(args.intl_docs, intl_langs)
    samples = [*recipe, *intl]
    fold_of = group_folds(samples, args.folds)
    documents = read_documents(samples, modes, log=False)
    everything = [d for mode in modes for d in documents[mode]]
    # the learned scorers are refitted on the shipped recipe's documents (training.invoices
    # fits them without intl invoices), so the raw scores are those the shipped ones give
    shipped_rows, rows = read_raw(everything, fold_of, args.folds, {s.id for s in recipe})
    info = {
        "trained_by": "python -m training.calibration --write",
        "rows": len(rows),
        "documents": len(samples),
        "intl_docs": [args.intl_docs, intl_langs],
        "modes": modes,
        "specs": [[list(used), strength] for used, strength in SPECS],
        "fit": "specs stacked on inner group folds",
    }
    final = fit_map(rows, info)

    if not args.no_eval:
        cv_rows: list[Row] = []
        calibrated_cv: dict[tuple[str, str, str], float] = {}
        for fold in range(args.folds):
            train = [r for r in rows if fold_of[r.doc] != fold]
            test = [r for r in rows if fold_of[r.doc] == fold]
            fold_map = fit_map(train)
            for row in test:
                calibrated_cv[(row.doc, row.mode, row.field)] = fold_map.confidence(
                    row.field, row.raw, row.extra
                )
            cv_rows += test
        generated = [r for r in rows if r.source != "visible"]
        visible = [r for r in rows if r.source == "visible"]
        loso = fit_map(generated)

        def cv(part: Sequence[Row]) -> list[tuple[float, bool]]:
            return [(calibrated_cv[(r.doc, r.mode, r.field)], bool(r.right)) for r in part]

        report: dict[str, Any] = {
            "command": "python -m training.calibration " + " ".join(argv or []),
            "rows": len(rows),
            "raw_shipped": per_mode(raw_pairs, shipped_rows, modes),
            "raw_oof": per_mode(raw_pairs, rows, modes),
            "group_cv": per_mode(cv, cv_rows, modes),
            "generated->visible": {
                "raw_oof": per_mode(raw_pairs, visible, modes),
                "calibrated": per_mode(lambda part: apply(loso, part), visible, modes),
            },
            "in_sample": per_mode(lambda part: apply(final, part), rows, modes),
            "reliability": {
                mode: {
                    name: {
                        "raw_oof": reliability(
                            raw_pairs([r for r in rows if r.mode == mode and r.field == name])
                        ),
                        "group_cv": reliability(
                            cv([r for r in rows if r.mode == mode and r.field == name])
                        ),
                    }
                    for name in CALIBRATED
                }
                for mode in modes
            },
            "spec_weights_final_then_per_fold_then_generated_only": CHOSEN,
            "documents_whose_values_differ_with_the_map": values_unchanged(everything, final),
        }
        results: dict[str, Any] = json.loads(RESULTS.read_text()) if RESULTS.is_file() else {}
        results["calibration"] = report
        RESULTS.parent.mkdir(parents=True, exist_ok=True)
        RESULTS.write_text(json.dumps(results, indent=1) + "\n")
        for mode in modes:
            for key, entry in (
                ("raw shipped", report["raw_shipped"][mode]),
                ("raw oof", report["raw_oof"][mode]),
                ("group cv", report["group_cv"][mode]),
                ("gen->visible raw", report["generated->visible"]["raw_oof"][mode]),
                ("gen->visible map", report["generated->visible"]["calibrated"][mode]),
                ("in-sample", report["in_sample"][mode]),
            ):
                line = " ".join(
                    f"{src}: {e.get('right_at_0.9')}@{e.get('at_0.9')}/{e.get('fields')} "
                    f"ECE {e.get('ece')} (a calibrated map: {e.get('ece_if_calibrated')})"
                    for src, e in entry.items()
                    if src != "fields"
                )
                print(f"{mode:<5} {key:<17} {line}")
        print(
            "documents whose values differ with the map:",
            report["documents_whose_values_differ_with_the_map"],
        )

    if args.write or args.out is not None:
        path = args.out if args.out is not None else DATA / MAP_FILE
        path.write_text(final.to_json())
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        print(f"wrote {path} sha256 {digest}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
