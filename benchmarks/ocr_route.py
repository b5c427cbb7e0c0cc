"""Fit and score the page router of ``DOCAI_OCR_ENGINE=auto``
(:mod:`prefect_docai.engines.page.route`): which pages RapidOCR reads instead of Tesseract.

Pages read by both engines:

* the SROIE training pool's 240 receipt images (``../shared/corpus/train/sroie/``):
  Tesseract as the receipt tool reads them (``benchmarks.receipts_cv``'s cache of the
  Tesseract-only loader, ``--tesseract-version``), RapidOCR from ``benchmarks.ocr_receipts``'
  cache with the word split the page loader uses; CER case-folded against the annotated
  lines;
* born-digital corpus pages rendered at 300 dpi as images, from the per-page CERs of
  ``python -m benchmarks.ocr --subsets born --peers rapid`` (``--born``: its JSON).

Each page's label is the engine with the lower CER. For every feature of
:func:`route.page_features` a one-threshold rule (either direction) is fitted to minimise
the mean CER of the routed readings (each set's mean weighing the same) on one fold and scored on the other (SROIE folds by
merchant, born pages by document), both directions; the feature is chosen on the fitting
fold too. The rule fitted on all pages is printed (``route.RULE_FEATURE`` /
``RULE_THRESHOLD`` are set from it by hand). Also fitted the same way: a RapidOCR confidence
below which a receipt would go back to Tesseract (it came out as none on either fold: even
the least confident RapidOCR readings of the pool beat Tesseract's).

    OMP_THREAD_LIMIT=1 python -m benchmarks.ocr_route --born /path/to/ocr.json

Writes ``benchmarks/results/ocr_route.json``.
"""

from __future__ import annotations

import argparse
import itertools
import json
import statistics
import sys
import zlib
from pathlib import Path
from typing import Any

from benchmarks.ocr import Score, born_samples
from benchmarks.ocr_receipts import RESULTS, pool, rapid_cache, text_of

Page = dict[str, Any]


def _cer(hypothesis: str, reference: str, casefold: bool) -> float:
    score = Score()
    score.add("x", hypothesis, reference, 0.0, casefold=casefold)
    return score.rate


def sroie_pages(tesseract_version: str, limit: int = 0) -> list[Page]:
    import numpy as np
    from PIL import Image

    from benchmarks.receipts_cv import cached_pages
    from prefect_docai.engines.page.rapid import split_lines
    from prefect_docai.engines.page.route import page_features

    pages = []
    for row in pool(limit):
        data = row["image"].read_bytes()
        cached = rapid_cache(data)
        if not cached.is_file():
            continue
        with Image.open(row["image"]) as image:
            rgb = np.asarray(image.convert("RGB"))
        size = (rgb.shape[1], rgb.shape[0])
        gray = np.asarray(Image.fromarray(rgb).convert("L"))
        tess_pages = cached_pages(data, tesseract_version)
        width, height = size
        tess = [
            (t, (b[0] * width, b[1] * height, b[2] * width, b[3] * height), float(c), int(ln))
            for page in tess_pages
            for t, b, c, ln, _bl, _fs, _pg in page["words"]
        ]
        lines = json.loads(cached.read_text())["lines"]
        result = [
            [
                line["box"],
                line["text"],
                line["confidence"],
                line["char_boxes"],
                line["chars"],
                line["char_conf"],
            ]
            for line in lines
        ]
        found = split_lines(result, gray)
        rapid = [(w.text, w.box, w.confidence, w.line) for w in found]
        pages.append(
            {
                "id": row["id"],
                "set": "sroie",
                "fold": row["fold"],
                "features": page_features(rgb),
                "rapid_confidence": rapid_confidence(found),
                "cer": {
                    "tesseract": _cer(text_of(tess), row["reference"], True),
                    "rapid": _cer(text_of(rapid), row["reference"], True),
                },
            }
        )
    return pages


def rapid_confidence(words: list[Any]) -> float:
    """RapidOCR's character-weighted mean confidence of a page (0 for no words)."""
    from prefect_docai.engines.page.rapid import reading_confidence

    return reading_confidence(words)


def fit_fallback(pages: list[Page]) -> dict[str, Any]:
    """The RapidOCR confidence below which a page RapidOCR read goes back to Tesseract,
    chosen to minimise the mean CER of ``pages`` (all routed to RapidOCR)."""
    values = sorted({p["rapid_confidence"] for p in pages})
    best = {"below": 0.0, "cer": statistics.mean(p["cer"]["rapid"] for p in pages)}
    for a, b in itertools.pairwise(values):
        cut = (a + b) / 2
        cer = statistics.mean(
            p["cer"]["tesseract" if p["rapid_confidence"] < cut else "rapid"] for p in pages
        )
        if cer < best["cer"] - 1e-12:
            best = {"below": round(cut, 4), "cer": cer}
    return best


def fallback_summary(pages: list[Page], below: float) -> dict[str, Any]:
    if not pages:
        return {"pages": 0}
    return {
        "pages": len(pages),
        "rapid": round(statistics.mean(p["cer"]["rapid"] for p in pages), 4),
        "with_fallback": round(
            statistics.mean(
                p["cer"]["tesseract" if p["rapid_confidence"] < below else "rapid"] for p in pages
            ),
            4,
        ),
        "fell_back": sum(p["rapid_confidence"] < below for p in pages),
    }


def born_pages(report: Path) -> list[Page]:
    import io

    import numpy as np
    from PIL import Image

    from benchmarks.ocr import corpus_dir
    from prefect_docai.engines.page.route import page_features

    data = json.loads(report.read_text())["accuracy"]["born"]
    ours, rapid = data["ours"]["per_doc"], data["rapid"]["per_doc"]
    samples = {s.id: s for s in born_samples(corpus_dir(), len(ours))}
    pages = []
    for page_id, cer in ours.items():
        if page_id not in rapid or page_id not in samples:
            continue
        with Image.open(io.BytesIO(samples[page_id].image)) as image:
            gray = np.asarray(image.convert("L"))
        pages.append(
            {
                "id": page_id,
                "set": "born",
                "fold": zlib.crc32(page_id.split("#")[0].encode()) % 2,
                "features": page_features(gray),
                "cer": {"tesseract": float(cer), "rapid": float(rapid[page_id])},
            }
        )
    return pages


def routed_cer(pages: list[Page], feature: str, threshold: float, below: str) -> float:
    """Mean per-page CER when pages with ``feature < threshold`` go to ``below``, each set
    (receipts, rendered pages) weighing the same: the router serves both kinds of material,
    and the receipts outnumber the rendered pages 15 to 1."""
    other = "tesseract" if below == "rapid" else "rapid"
    by_set: dict[str, list[float]] = {}
    for p in pages:
        engine = below if p["features"][feature] < threshold else other
        by_set.setdefault(p["set"], []).append(p["cer"][engine])
    return statistics.mean(statistics.mean(values) for values in by_set.values())


def fit(pages: list[Page], features: tuple[str, ...]) -> dict[str, Any]:
    """The feature, threshold (midpoint between two observed values) and direction of
    lowest mean routed CER on ``pages``."""
    best: dict[str, Any] | None = None
    for feature in features:
        values = sorted({p["features"][feature] for p in pages})
        cuts = [
            values[0] - 1e-6,
            *((a + b) / 2 for a, b in itertools.pairwise(values)),
            values[-1] + 1e-6,
        ]
        for cut in cuts:
            for below in ("rapid", "tesseract"):
                cer = routed_cer(pages, feature, cut, below)
                if best is None or cer < best["cer"] - 1e-12:
                    best = {
                        "feature": feature,
                        "threshold": round(cut, 4),
                        "below": below,
                        "cer": cer,
                    }
    assert best is not None
    return best


def summary(pages: list[Page], rule: dict[str, Any] | None) -> dict[str, Any]:
    out: dict[str, Any] = {"pages": len(pages)}
    if not pages:
        return out
    for name in ("tesseract", "rapid"):
        out[f"always_{name}"] = round(statistics.mean(p["cer"][name] for p in pages), 4)
    out["note"] = "plain means over these pages (the fit weighs each set the same)"
    out["oracle"] = round(statistics.mean(min(p["cer"].values()) for p in pages), 4)
    if rule is not None:
        out["routed"] = round(
            routed_cer(pages, rule["feature"], rule["threshold"], rule["below"]), 4
        )
        chosen = [
            rule["below"]
            if p["features"][rule["feature"]] < rule["threshold"]
            else ("tesseract" if rule["below"] == "rapid" else "rapid")
            for p in pages
        ]
        best = [min(p["cer"], key=p["cer"].get) for p in pages]
        out["agreement_with_oracle"] = round(
            sum(a == b for a, b in zip(chosen, best, strict=True)) / len(pages), 4
        )
        out["to_rapid"] = sum(c == "rapid" for c in chosen)
    return out


def main(argv: list[str] | None = None) -> int:
    from prefect_docai.engines.page.route import FEATURES

    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--born", type=Path, help="benchmarks.ocr JSON (--peers rapid)")
    parser.add_argument(
        "--tesseract-version",
        required=True,
        help="benchmarks.receipts_cv cache key of the Tesseract-only receipt reading",
    )
    parser.add_argument("--limit", type=int, default=0)
    args = parser.parse_args(argv)
    born = born_pages(args.born) if args.born and args.born.is_file() else []
    pages = sroie_pages(args.tesseract_version, args.limit) + born
    if not pages:
        print("no pages read by both engines", file=sys.stderr)
        return 0
    features = tuple(f for f in FEATURES if f != "saturation")  # grey rasters have none
    report: dict[str, Any] = {"features": features, "held_out": {}}
    for fit_fold, test_fold in ((0, 1), (1, 0)):
        fitted = fit([p for p in pages if p["fold"] == fit_fold], features)
        test = [p for p in pages if p["fold"] == test_fold]
        report["held_out"][f"fold{test_fold} (fitted on fold{fit_fold})"] = {
            "rule": fitted,
            "all": summary(test, fitted),
            "sroie": summary([p for p in test if p["set"] == "sroie"], fitted),
            "born": summary([p for p in test if p["set"] == "born"], fitted),
        }
    report["fallback_held_out"] = {}
    for fit_fold, test_fold in ((0, 1), (1, 0)):
        receipts = [p for p in pages if p["set"] == "sroie"]
        fitted = fit_fallback([p for p in receipts if p["fold"] == fit_fold])
        report["fallback_held_out"][f"fold{test_fold} (fitted on fold{fit_fold})"] = {
            "fitted": fitted,
            "held_out": fallback_summary(
                [p for p in receipts if p["fold"] == test_fold], fitted["below"]
            ),
        }
    report["fallback_fitted_on_all"] = fit_fallback([p for p in pages if p["set"] == "sroie"])
    final = fit(pages, features)
    report["rule_fitted_on_all"] = final
    report["in_sample"] = {
        "all": summary(pages, final),
        "sroie": summary([p for p in pages if p["set"] == "sroie"], final),
        "born": summary([p for p in pages if p["set"] == "born"], final),
    }
    report["pages"] = pages
    print(json.dumps({k: v for k, v in report.items() if k != "pages"}, indent=1))
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "ocr_route.json").write_text(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
