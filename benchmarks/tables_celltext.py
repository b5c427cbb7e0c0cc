"""How well a scan's words read each table cell, whatever the structure (issue 15).

Run (from the repo root; reuses ``training.tables``' cache of page inputs, the OCR pass):

    OMP_THREAD_LIMIT=1 nice -n 10 .venv/bin/python -m benchmarks.tables_celltext [--scanned 150]

Every truth cell of the scanned generated table pages (``samples.tables`` seeds
``0..--scanned-1``, the pages ``benchmarks.tables_cv`` scores) and of the rasterized visible
ICDAR 2013 pages is read as with perfect structure: the words the table finders see (the
page's inputs after ``wordboxes.as_text_layer``, as ``engine.find_candidates`` hands them on)
whose centre lies in the cell, joined as a cell's words are (the page inputs include the
second look at low-confidence words, ``secondlook.py``, as the engine reads them). The share
read exactly is the ceiling the OCR text puts on cell F1; the rest is bucketed:

* ``empty``: no word in the cell;
* ``junk_after`` / ``junk_before``: the true text followed / preceded by more (rule
  remains read as ``.`` ``:`` ``_``, specks);
* ``separator``: equal once ``.`` ``,`` ``'`` are dropped (a decimal or thousands
  separator lost or misread);
* ``minus``: equal but for a leading minus sign;
* ``close``: at least 80 % alike (a few characters wrong);
* ``garbled``: the rest.

Cheap (no training, the OCR cached), so a change to how a scan's words are read can be
measured on the generator's pages and, as a check of whether it generalizes, on ICDAR's.
"""

from __future__ import annotations

import argparse
import difflib
import hashlib
import json
import os
from collections import Counter
from pathlib import Path

from training.tables import cached_inputs, scan_pages, scanned_copy

from benchmarks.tables import corpus_dir, load_corpus, norm
from prefect_docai.engines.tables.geometry import PageInput
from prefect_docai.engines.tables.grid import join_words
from prefect_docai.engines.tables.wordboxes import as_text_layer

ROOT = Path(__file__).resolve().parent
BUCKETS = ("ok", "empty", "junk_after", "junk_before", "separator", "minus", "close", "garbled")
Rect = tuple[float, float, float, float]


def bucket(truth: str, read: str) -> str:
    """The bucket of a cell whose (normalised) truth is ``truth`` and reading ``read``."""
    if read == truth:
        return "ok"
    if not read:
        return "empty"
    if read.startswith(truth):
        return "junk_after"
    if read.endswith(truth):
        return "junk_before"

    def bare(text: str) -> str:
        return text.replace(".", "").replace(",", "").replace("'", "")

    if bare(read) == bare(truth):
        return "separator"
    if truth.startswith("-") and truth[1:] == read.lstrip("-=~"):
        return "minus"
    if difflib.SequenceMatcher(None, truth, read).ratio() >= 0.8:
        return "close"
    return "garbled"


def read_cells(page: PageInput, cells: list[tuple[Rect, str]]) -> Counter[str]:
    """The buckets of ``cells`` (box in points, true text) on one scanned ``page``."""
    words = as_text_layer(page).words
    out: Counter[str] = Counter()
    for (x0, y0, x1, y1), text in cells:
        inside = [w for w in words if x0 - 1 <= w.box.cx <= x1 + 1 and y0 - 1 <= w.box.cy <= y1 + 1]
        out[bucket(norm(text), norm(join_words(inside)))] += 1
    return out


def generated(count: int) -> Counter[str]:
    from prefect_docai.samples.tables import table_page

    out: Counter[str] = Counter()
    for seed in range(count):
        page = table_page(seed, scanned=True)
        digest = hashlib.sha256(page.pdf).hexdigest()[:12]
        pages, _ = cached_inputs(page.pdf, f"gen-{seed}-scan-{digest}", True)
        for scan in pages:
            cells = [
                (c.bbox, c.text)
                for t in page.tables
                if t.page == scan.number
                for c in t.cells
                if c.text.strip()
            ]
            out.update(read_cells(scan, cells))
    return out


def icdar(corpus: Path) -> Counter[str]:
    out: Counter[str] = Counter()
    for doc in load_corpus(corpus):
        truth = corpus / "gt" / f"{doc.id}.json"
        if not truth.exists():
            continue
        pages = scan_pages(doc)
        data = scanned_copy(doc, pages)
        scans, _ = cached_inputs(data, f"{doc.id}-scan", True)
        tables = json.loads(truth.read_text())["tables"]
        for scan, number in zip(scans, pages, strict=True):
            height = doc.page_sizes[number - 1][1]
            cells = [
                ((x0, height - y1, x1, height - y0), str(c["text"]))
                for t in tables
                for c in t["cells"]
                if int(c["page"]) == number and str(c.get("text", "")).strip()
                for x0, y0, x1, y1 in [[float(v) for v in c["bbox_pdf"]]]
            ]
            out.update(read_cells(scan, cells))
    return out


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--scanned", type=int, default=150)
    args = parser.parse_args()
    os.environ.setdefault("OMP_THREAD_LIMIT", "1")
    results = {"scan generated": generated(args.scanned), "scan icdar": icdar(corpus_dir())}
    print(f"{'set':<15} {'cells':>6} " + " ".join(f"{b:>11}" for b in BUCKETS))
    report: dict[str, dict[str, float]] = {}
    for name, counts in results.items():
        total = sum(counts.values())
        shares = {b: counts[b] / max(1, total) for b in BUCKETS}
        report[name] = {"cells": total, **shares}
        print(f"{name:<15} {total:>6} " + " ".join(f"{shares[b]:>11.3f}" for b in BUCKETS))
    out = ROOT / "results" / "tables_celltext.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=1) + "\n")
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
