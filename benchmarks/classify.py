"""Document-type classification: accuracy and macro-F1.

Run: ``python -m benchmarks.classify [--per-template N] [--scans N] [--cv K] [--budget S]``.

Three sets:

* ``corpus``: the visible corpus documents of the classification task (invoice, receipt,
  form, purchase_order, report) through the engine path (loader + OCR for scans). The
  shipped model was trained with the visible corpus included, so this is in-sample.
* ``corpus-cv``: honest numbers for the corpus classes: K-fold cross-validation by
  document, retraining the same model on generated pages plus the other folds' corpus pages
  (the training.classifier recipe) and predicting the held-out fold.
* ``generated-held-out``: documents from the sample generator's held-out templates (layouts
  never used in training), born-digital and as degraded scans through OCR, for all classes
  the generator has.
* ``grammar-held-out-families``: documents of the block grammar's layout families of fold 0
  (``samples.grammar``; the shipped model is trained without them), born-digital and with
  OCR-like noise, per class and language. Leave-family-out and leave-generator-out
  retraining (and PaperFlow on held-out families) is ``benchmarks/generalization.py``.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"

os.environ.setdefault("OMP_THREAD_LIMIT", "1")


def corpus_dir() -> Path | None:
    path = Path(os.environ.get("DOCAI_CORPUS", ROOT.parent / "shared" / "corpus"))
    return path if (path / "manifest.json").exists() else None


def scores(truth: list[str], pred: list[str]) -> dict[str, Any]:
    labels = sorted(set(truth))
    f1s = {}
    for label in labels:
        tp = sum(t == p == label for t, p in zip(truth, pred, strict=True))
        fp = sum(p == label and t != label for t, p in zip(truth, pred, strict=True))
        fn = sum(t == label and p != label for t, p in zip(truth, pred, strict=True))
        precision = tp / (tp + fp) if tp + fp else 0.0
        recall = tp / (tp + fn) if tp + fn else 0.0
        f1s[label] = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    confusion = Counter(f"{t}->{p}" for t, p in zip(truth, pred, strict=True) if t != p)
    return {
        "n": len(truth),
        "accuracy": sum(t == p for t, p in zip(truth, pred, strict=True)) / max(len(truth), 1),
        "macro_f1": float(np.mean(list(f1s.values()))) if f1s else 0.0,
        "f1": f1s,
        "errors": dict(confusion.most_common()),
    }


def run_corpus(corpus: Path, budget: float) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    from training.data import corpus_documents

    from prefect_docai.engines.classify import ClassifyEngine
    from prefect_docai.engines.pluginspec import EngineOptions

    engine = ClassifyEngine()
    truth, pred, rows = [], [], []
    started = time.monotonic()
    for entry in corpus_documents(corpus):
        if time.monotonic() - started > budget:
            print(f"corpus: time budget reached after {len(truth)} documents")
            break
        t0 = time.monotonic()
        out = engine.run((corpus / entry["file"]).read_bytes(), EngineOptions())
        result = out.result.model_dump()
        truth.append(entry["doc_type"])
        pred.append(result["document_type"])
        rows.append({"id": entry["id"], "truth": entry["doc_type"], "pred": result["document_type"],
                     "confidence": result["confidence"], "seconds": round(time.monotonic() - t0, 2)})
    return scores(truth, pred), rows


def run_corpus_cv(
    corpus: Path, folds: int, per_template: int, per_family: int = 2
) -> dict[str, Any]:
    from training import classifier as tc
    from training import data as training_data

    from prefect_docai.engines.doctype.scoring import document_probs

    generated = tc.generated_training_samples(per_template, per_family)
    corpus_all = training_data.corpus_samples(corpus)
    eval_ids = sorted(e["id"] for e in training_data.corpus_documents(corpus))
    rng = np.random.default_rng(0)
    order = rng.permutation(len(eval_ids))
    truth, pred = [], []
    for fold in range(folds):
        held = {eval_ids[i] for i in order[fold::folds]}
        train = generated + [s for s in corpus_all if s.group.removeprefix("corpus:") not in held]
        model = tc.fit(train, training_data.CLASSES)
        for doc_id in sorted(held):
            pages = [s for s in corpus_all if s.group == f"corpus:{doc_id}"]
            probs = model.predict_proba([s.text for s in pages], np.vstack([s.dense for s in pages]))
            doc = document_probs(probs)
            truth.append(pages[0].label)
            pred.append(training_data.CLASSES[int(np.argmax(doc))])
    return scores(truth, pred)


def run_generated(per_template: int, scans: int) -> tuple[dict[str, Any], dict[str, Any]]:
    from training.data import CLASSES, generated_docs, scanned_view

    from prefect_docai.engines.doctype.scoring import classify_pages

    truth, pred, scan_truth, scan_pred = [], [], [], []
    per_class_scans: Counter[str] = Counter()
    for doc in generated_docs(per_template, seed=424242, held_out=True, doc_types=CLASSES):
        result = classify_pages(doc.views)
        truth.append(doc.doc_type)
        pred.append(result.document_type)
        if per_class_scans[doc.doc_type] < scans:
            per_class_scans[doc.doc_type] += 1
            view = scanned_view(doc.pdf, 0, f"bench:{doc.group}")
            scan_truth.append(doc.doc_type)
            scan_pred.append(classify_pages([view]).document_type)
    return scores(truth, pred), scores(scan_truth, scan_pred)


def run_grammar_held_out() -> dict[str, Any]:
    """The shipped model on the block grammar's fold-0 layout families (never trained on)."""
    from training.data import grammar_docs

    from benchmarks.generalization import EVAL_SEED, evaluate
    from prefect_docai.engines.doctype.model import default_model
    from prefect_docai.samples.grammar import family_ids

    held = family_ids("invoice", fold=0, held_out_group=True)
    return evaluate(default_model(), list(grammar_docs(4, EVAL_SEED, held)), 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-template", type=int, default=4)
    parser.add_argument("--scans", type=int, default=4, help="scanned documents per class")
    parser.add_argument("--cv", type=int, default=0, help="K-fold CV on the corpus (0: skip)")
    parser.add_argument("--budget", type=float, default=600.0, help="seconds for the corpus run")
    args = parser.parse_args()
    report: dict[str, Any] = {}
    started = time.monotonic()
    generated, scanned = run_generated(args.per_template, args.scans)
    report["generated-held-out"] = generated
    report["generated-held-out-scans"] = scanned
    families = run_grammar_held_out()
    report["grammar-held-out-families"] = families["born-digital"]
    report["grammar-held-out-families-noisy"] = families["ocr-noise"]
    corpus = corpus_dir()
    if corpus is not None:
        report["corpus"], report["corpus_documents"] = run_corpus(corpus, args.budget)
        if args.cv:
            report["corpus-cv"] = run_corpus_cv(corpus, args.cv, 6)
    else:
        print("corpus not found: set DOCAI_CORPUS")
    print(f"\n{'set':32} {'n':>5} {'accuracy':>9} {'macro-F1':>9}")
    names = ("corpus", "corpus-cv", "generated-held-out", "generated-held-out-scans",
             "grammar-held-out-families", "grammar-held-out-families-noisy")
    for name in names:
        if name in report:
            r = report[name]
            print(f"{name:32} {r['n']:5d} {r['accuracy']:9.3f} {r['macro_f1']:9.3f}")
            if "per_lang" in r:
                print(f"{'':32} per language {r['per_lang']}; per class {r['per_class']}")
            if r["errors"]:
                print(f"{'':32} errors: {r['errors']}")
    print(f"total {time.monotonic() - started:.0f} s")
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "classify.json").write_text(json.dumps(report, indent=2, default=str))


if __name__ == "__main__":
    main()
