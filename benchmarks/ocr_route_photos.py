"""Fit and score the page router's second rule (:mod:`prefect_docai.engines.page.route`):
a page the aspect rule leaves to Tesseract (width / height ≥ ``RULE_THRESHOLD``) goes to
RapidOCR when its text runs narrow (``text_width`` < ``WIDTH_THRESHOLD`` glyph heights).

The aspect rule was fitted on SROIE scans and rendered born-digital pages; a phone photo of
a till receipt, with the desk around it, is about as wide as an A4 page, so it went to
Tesseract, which loses whole columns of such photos (the amounts, the total line). Pages
read by both engines through the page loader, every one with aspect ≥ ``RULE_THRESHOLD``:

* ``photo`` — generated phone photos (``samples.scan.photograph``) of the template
  generator's receipts (all templates, de/en) read as the receipt tool reads them, and of
  A4 documents (invoices, letters, delivery notes, reports, bank statements, forms) read as
  ICR reads them; reference: the generated PDF's text layer; folds by template;
* ``sroie`` — the SROIE training pool's receipts scanned on A4-shaped sheets, read as the
  receipt tool reads them, against the annotated lines; folds by merchant;
* ``born`` — born-digital corpus pages rendered at 300 dpi (:func:`benchmarks.ocr.born_samples`;
  the first page of 16 documents by default), against their text layer; folds by document.

A page's error is 1 − case-folded word F1 (bag of words: the two engines order the rows of
a tilted photo differently, which would swamp a CER). The two thresholds (paper unevenness
above, text width below) minimise the mean routed error plus 0.01 per second of reading
(RapidOCR is 5-8 times slower on full pages), each set weighing the same, fitted on one fold and scored on the other,
then on all pages (the shipped ``UNEVEN_THRESHOLD`` / ``WIDTH_THRESHOLD`` are set from it
by hand). Readings are
cached under ``~/.cache/docai-bench/route-pages/<version>/``.

    OMP_THREAD_LIMIT=1 python -m benchmarks.ocr_route_photos [--seeds 0:3] [--limit-sroie N]

Writes ``benchmarks/results/ocr_route_photos.json``.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import itertools
import json
import statistics
import time
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchmarks.ocr import Score, born_samples, corpus_dir
from benchmarks.ocr_receipts import RESULTS, pool
from benchmarks.receipts_cv import cache_root

Page = dict[str, Any]
ENGINES = ("tesseract", "rapid")
A4_TYPES = ("invoice", "letter", "delivery_note", "report", "bank_statement", "form")
ROOT = Path(__file__).resolve().parent.parent


def version() -> str:
    """Hash of the code that decides a forced engine's words (not the router itself)."""
    src = ROOT / "src" / "prefect_docai" / "engines"
    digest = hashlib.sha256()
    for path in [*sorted((src / "page").glob("*.py")), src / "receipt" / "image.py"]:
        if path.name != "route.py":
            digest.update(path.name.encode() + path.read_bytes())
    return digest.hexdigest()[:16]


def reading(data: bytes, engine: str, receipt: bool) -> tuple[str, float]:
    """The page's text (rows top to bottom) as the tool reads it with ``engine`` forced, and
    the seconds it took; cached."""
    from prefect_docai.engines.extract.rows import document_layouts
    from prefect_docai.engines.page.document import load_document
    from prefect_docai.engines.receipt.image import receipt_views

    key = hashlib.sha256(data).hexdigest()
    path = cache_root().parent / "route-pages" / version() / f"{key}-{engine}-{int(receipt)}.json"
    if path.is_file():
        cached = json.loads(path.read_text())
        return str(cached["text"]), float(cached["seconds"])
    started = time.perf_counter()
    with load_document(
        data,
        languages=("deu", "eng"),
        dpi=300,
        prepare=receipt_views if receipt else None,
        ocr_engine=engine,  # type: ignore[arg-type]
    ) as document:
        layout = document_layouts(document)[0]
        text = "\n".join(" ".join(t.text for t in row.tokens) for row in layout.rows)
    seconds = time.perf_counter() - started
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"text": text, "seconds": seconds}))
    return text, seconds


def page(
    page_id: str, kind: str, fold: int, data: bytes, reference: str, receipt: bool
) -> Page | None:
    import numpy as np
    from PIL import Image

    from prefect_docai.engines.page.route import RULE_THRESHOLD, page_features

    with Image.open(io.BytesIO(data)) as image:
        features = page_features(np.asarray(image.convert("RGB")))
    if features["aspect"] < RULE_THRESHOLD:
        return None  # the aspect rule sends it to RapidOCR already
    error: dict[str, float] = {}
    seconds: dict[str, float] = {}
    for engine in ENGINES:
        text, took = reading(data, engine, receipt)
        score = Score()
        score.add(page_id, text, reference, took, casefold=True)
        error[engine] = 1.0 - score.f1
        seconds[engine] = took
    return {
        "id": page_id,
        "set": kind,
        "fold": fold,
        "features": features,
        "error": error,
        "seconds": seconds,
    }


def reference_text(pdf: bytes) -> str:
    from prefect_docai.engines.extract.rows import document_layouts
    from prefect_docai.engines.page.document import load_document

    with load_document(pdf, languages=("deu", "eng")) as document:
        layout = document_layouts(document)[0]
        return "\n".join(" ".join(t.text for t in row.tokens) for row in layout.rows)


def photo_pages(seeds: range, log: Callable[[str], None]) -> list[Page]:
    from prefect_docai.samples.generate import generate, templates
    from prefect_docai.samples.scan import photograph

    jobs = [
        ("receipt", t, lang, seed)
        for t in [*templates("receipt"), *templates("receipt", held_out=True)]
        for lang in ("de", "en")
        for seed in seeds
    ]
    jobs += [
        (doc_type, None, lang, seed)
        for doc_type in A4_TYPES
        for lang in ("de", "en")
        for seed in list(seeds)[:2]
    ]
    pages = []
    for doc_type, template, lang, seed in jobs:
        doc = generate(doc_type, seed=seed, lang=lang, template=template)
        reference = reference_text(doc.pdf)
        image = photograph(doc.pdf, seed=seed)
        fold = zlib.crc32(doc.template.encode()) % 2
        entry = page(
            f"{doc.template}/{lang}/{seed}", "photo", fold, image, reference, doc_type == "receipt"
        )
        if entry is not None:
            pages.append(entry)
            log(f"photo {entry['id']}: {entry['error']}")
    return pages


def sroie_pages(limit: int, log: Callable[[str], None]) -> list[Page]:
    pages = []
    for row in pool(limit):
        data = Path(row["image"]).read_bytes()
        entry = page(row["id"], "sroie", row["fold"], data, row["reference"], True)
        if entry is not None:
            pages.append(entry)
            log(f"sroie {entry['id']}: {entry['error']}")
    return pages


def born_pages(limit: int, log: Callable[[str], None]) -> list[Page]:
    """The first page of each of the first ``limit`` born-digital documents (RapidOCR takes
    ~25 s on such a page)."""
    pages: list[Page] = []
    seen: set[str] = set()
    for sample in born_samples(corpus_dir(), 0):
        document = sample.id.split("#")[0]
        if document in seen or len(seen) >= limit:
            continue
        seen.add(document)
        fold = zlib.crc32(sample.id.split("#")[0].encode()) % 2
        entry = page(sample.id, "born", fold, sample.image, sample.reference, False)
        if entry is not None:
            pages.append(entry)
            log(f"born {entry['id']}: {entry['error']}")
    return pages


def to_rapid(p: Page, rule: tuple[float, float]) -> bool:
    uneven, width = rule
    return bool(p["features"]["paper_unevenness"] > uneven and p["features"]["text_width"] < width)


SECOND_COST = 0.01
"""What a second of reading costs in the fit, in word-F1 points: RapidOCR takes 5-8 times as
long as Tesseract on a full page (11-15 s against 2-3 s here), so a page goes to it only
where it reads clearly better."""


def routed_error(pages: list[Page], rule: tuple[float, float], cost: float = 0.0) -> float:
    """Mean error (plus ``cost`` per second of reading) when the pages ``rule`` picks go to
    RapidOCR, each set weighing the same."""
    by_set: dict[str, list[float]] = {}
    for p in pages:
        engine = "rapid" if to_rapid(p, rule) else "tesseract"
        by_set.setdefault(p["set"], []).append(p["error"][engine] + cost * p["seconds"][engine])
    return statistics.mean(statistics.mean(v) for v in by_set.values())


def _cuts(values: list[float]) -> list[float]:
    ordered = sorted(set(values))
    return [
        ordered[0] - 1e-6,
        *((a + b) / 2 for a, b in itertools.pairwise(ordered)),
        ordered[-1] + 1e-6,
    ]


def fit(pages: list[Page]) -> tuple[float, float]:
    """The (paper unevenness, text width) thresholds (midpoints between observed values) of
    lowest routed error plus :data:`SECOND_COST` per second; ties go to the rule that sends
    the fewest pages to the slower RapidOCR."""
    rules = [
        (u, w)
        for u in _cuts([p["features"]["paper_unevenness"] for p in pages])
        for w in _cuts([p["features"]["text_width"] for p in pages])
    ]
    best = min(
        rules,
        key=lambda r: (
            round(routed_error(pages, r, SECOND_COST), 9),
            sum(to_rapid(p, r) for p in pages),
        ),
    )
    return round(best[0], 3), round(best[1], 1)


def summary(pages: list[Page], rule: tuple[float, float]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for kind in sorted({p["set"] for p in pages}):
        chosen = [p for p in pages if p["set"] == kind]
        routed = [p["error"]["rapid" if to_rapid(p, rule) else "tesseract"] for p in chosen]
        out[kind] = {
            "pages": len(chosen),
            "to_rapid": sum(to_rapid(p, rule) for p in chosen),
            "word_f1_routed": round(1 - statistics.mean(routed), 4),
            "word_f1_tesseract": round(
                1 - statistics.mean(p["error"]["tesseract"] for p in chosen), 4
            ),
            "word_f1_rapid": round(1 - statistics.mean(p["error"]["rapid"] for p in chosen), 4),
            "word_f1_oracle": round(
                1 - statistics.mean(min(p["error"].values()) for p in chosen), 4
            ),
        }
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seeds", default="0:3", help="generated photo seeds start:stop")
    parser.add_argument("--limit-sroie", type=int, default=0)
    parser.add_argument("--limit-born", type=int, default=16, help="born-digital documents")
    parser.add_argument("--sets", default="photo,sroie,born")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args(argv)

    def log(text: str) -> None:
        if args.verbose:
            print(text, flush=True)

    start, _, stop = args.seeds.partition(":")
    wanted = args.sets.split(",")
    pages: list[Page] = []
    if "photo" in wanted:
        pages += photo_pages(range(int(start), int(stop)), log)
    if "sroie" in wanted:
        pages += sroie_pages(args.limit_sroie, log)
    if "born" in wanted:
        pages += born_pages(args.limit_born, log)
    report: dict[str, Any] = {"held_out": {}}
    for fit_fold, test_fold in ((0, 1), (1, 0)):
        rule = fit([p for p in pages if p["fold"] == fit_fold])
        test = [p for p in pages if p["fold"] == test_fold]
        report["held_out"][f"fold{test_fold} (fitted on fold{fit_fold})"] = {
            "rule": {"paper_unevenness_above": rule[0], "text_width_below": rule[1]},
            "sets": summary(test, rule),
        }
    final = fit(pages)
    report["rule_fitted_on_all"] = {
        "paper_unevenness_above": final[0],
        "text_width_below": final[1],
    }
    report["in_sample"] = summary(pages, final)
    for kind in sorted({p["set"] for p in pages}):
        chosen = [p for p in pages if p["set"] == kind]
        report.setdefault("seconds_per_page", {})[kind] = {
            e: round(statistics.mean(p["seconds"][e] for p in chosen), 2) for e in ENGINES
        }
    report["pages"] = pages
    print(json.dumps({k: v for k, v in report.items() if k != "pages"}, indent=1))
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "ocr_route_photos.json").write_text(json.dumps(report, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
