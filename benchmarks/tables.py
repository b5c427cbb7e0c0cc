"""Table extraction on the corpus tables (ICDAR 2013 + tabula-java fixtures).

Run: ``python -m benchmarks.tables [--tools ours,pdfplumber,...] [--raster] [--docs N]``.

Metrics (per tool, born-digital and pages rasterized to 200 dpi):

* detection precision/recall: a predicted table matches an ICDAR ground-truth table on the
  same page when their boxes overlap (intersection ≥ 60 % of the smaller box, IoU ≥ 0.2);
  one-to-one, greedy by IoU. tabula fixtures carry no page/box, so they only count towards
  recall, matched by content (best cell F1 ≥ 0.5 on any page).
* cell-content F1: non-empty grid cells ``(row, col, text)`` after whitespace removal and
  NFKC, micro-averaged over all ground-truth tables (a missed table contributes all its cells
  as misses). The grids are aligned by the row/column offset (|dr| ≤ 3, |dc| ≤ 2) that
  matches most cells, so a tool that adds a title row is not punished twice.
* adjacency-relation F1 (ICDAR 2013): every non-empty cell's nearest non-empty neighbour to
  the right and below, as ``(text, text, direction)`` multisets.

Peers run when importable: pdfplumber's table finder, camelot lattice/stream (installed with
``pip install --no-deps camelot-py==2.0.0`` plus ``openpyxl playa-pdf tabulate``) and
img2table (``pip install --no-deps img2table==2.0.0`` plus ``beautifulsoup4 xlsxwriter``).
On rasterized pages only OCR-capable tools run (ours, img2table with Tesseract); pdfplumber
and camelot need a text layer. The peers are deliberately not project dependencies: camelot
declares opencv-python-headless and img2table opencv-contrib-python, both of which would
replace the project's cv2 (opencv-contrib-python-headless) and fail ``pip check``; install
them by hand for a comparison run and uninstall them afterwards.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import os
import re
import shutil
import tempfile
import time
import unicodedata
import warnings
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"
RASTER_DPI = 200

Grid = list[list[str]]
Box = tuple[float, float, float, float]  # points, origin top-left


@dataclass
class Pred:
    page: int  # 1-based
    bbox: Box | None
    grid: Grid


@dataclass
class GtTable:
    doc: str
    page: int | None
    bbox: Box | None
    grid: Grid


@dataclass
class Doc:
    id: str
    path: Path
    pages: int
    tables: list[GtTable]
    page_sizes: list[tuple[float, float]] = field(default_factory=list)


def corpus_dir() -> Path:
    return Path(os.environ.get("DOCAI_CORPUS", ROOT.parent / "shared" / "corpus"))


def _read_csv(path: Path) -> Grid:
    with path.open(encoding="utf-8", newline="") as fh:
        rows = [list(r) for r in csv.reader(fh)]
    width = max((len(r) for r in rows), default=0)
    return [r + [""] * (width - len(r)) for r in rows]


def load_corpus(corpus: Path) -> list[Doc]:
    import pypdfium2 as pdfium

    manifest = json.loads((corpus / "manifest.json").read_text())
    docs: list[Doc] = []
    for entry in manifest["documents"]:
        if "table_extraction" not in entry["tasks"]:
            continue
        path = corpus / entry["file"]
        gt_file = corpus / "gt" / f"{entry['id']}.json"
        boxes: dict[str, tuple[int, Box]] = {}
        pdf = pdfium.PdfDocument(str(path))
        sizes = [(float(p.get_width()), float(p.get_height())) for p in pdf]
        pdf.close()
        if gt_file.exists():
            for table in json.loads(gt_file.read_text())["tables"]:
                cells = table["cells"]
                page = int(cells[0]["page"])
                height = sizes[page - 1][1]
                x0 = min(c["bbox_pdf"][0] for c in cells)
                x1 = max(c["bbox_pdf"][2] for c in cells)
                y0 = height - max(c["bbox_pdf"][3] for c in cells)
                y1 = height - min(c["bbox_pdf"][1] for c in cells)
                boxes[str(table["table_id"])] = (page, (x0, y0, x1, y1))
        tables = []
        for i, t in enumerate(entry["tables"], start=1):
            page_box = boxes.get(str(t.get("table_id", i)))
            tables.append(
                GtTable(
                    entry["id"],
                    page_box[0] if page_box else None,
                    page_box[1] if page_box else None,
                    _read_csv(corpus / t["csv"]),
                )
            )
        docs.append(Doc(entry["id"], path, int(entry["pages"]), tables, sizes))
    return docs


SAMPLE_TYPES = ("report", "invoice", "delivery_note", "purchase_order", "bank_statement")


def load_samples(per_template: int, directory: Path) -> list[Doc]:
    """The project's generated business documents whose truth lists every table cell
    (``prefect_docai.samples``; held-out templates included). Their tables carry no page
    box, so they are scored like the tabula fixtures (by content)."""
    import pypdfium2 as pdfium

    from prefect_docai.samples import generate, templates

    docs: list[Doc] = []
    for doc_type in SAMPLE_TYPES:
        for held_out in (False, True):
            for template in templates(doc_type, held_out=held_out):
                for seed in range(per_template):
                    lang = "de" if seed % 2 else "en"
                    doc = generate(
                        doc_type, seed=seed, lang=lang, template=template, held_out=held_out
                    )
                    path = directory / f"{template}-{seed}.pdf"
                    path.write_bytes(doc.pdf)
                    tables = [
                        GtTable(path.stem, None, None, [t["header"], *t["rows"]])
                        for t in doc.truth.get("tables") or []
                    ]
                    pdf = pdfium.PdfDocument(doc.pdf)
                    sizes = [(float(p.get_width()), float(p.get_height())) for p in pdf]
                    pdf.close()
                    docs.append(Doc(f"sample-{path.stem}", path, len(sizes), tables, sizes))
    return docs


# --- metrics ---------------------------------------------------------------------------


def norm(text: str) -> str:
    text = unicodedata.normalize("NFKC", text)
    text = re.sub(r"[\u2010-\u2015\u2212]", "-", text)
    return re.sub(r"\s+", "", text)


def _cells(grid: Grid) -> list[tuple[int, int, str]]:
    return [(r, c, norm(v)) for r, row in enumerate(grid) for c, v in enumerate(row) if norm(v)]


def cell_counts(gt: Grid, pred: Grid) -> tuple[int, int, int]:
    """(true positives, predicted non-empty, ground-truth non-empty) at the best offset."""
    g = Counter(_cells(gt))
    p = _cells(pred)
    best = 0
    for dr in range(-3, 4):
        for dc in range(-2, 3):
            shifted = Counter((r + dr, c + dc, t) for r, c, t in p)
            best = max(best, sum((g & shifted).values()))
    return best, len(p), sum(g.values())


def adjacency(grid: Grid) -> Counter[tuple[str, str, str]]:
    rel: Counter[tuple[str, str, str]] = Counter()
    rows = [[norm(v) for v in row] for row in grid]
    height = len(rows)
    for r, row in enumerate(rows):
        for c, text in enumerate(row):
            if not text:
                continue
            for c2 in range(c + 1, len(row)):
                if row[c2]:
                    rel[(text, row[c2], "h")] += 1
                    break
            for r2 in range(r + 1, height):
                if c < len(rows[r2]) and rows[r2][c]:
                    rel[(text, rows[r2][c], "v")] += 1
                    break
    return rel


def adjacency_counts(gt: Grid, pred: Grid) -> tuple[int, int, int]:
    g, p = adjacency(gt), adjacency(pred)
    return sum((g & p).values()), sum(p.values()), sum(g.values())


def f1(tp: int, npred: int, ngt: int) -> tuple[float, float, float]:
    p = tp / npred if npred else 0.0
    r = tp / ngt if ngt else 0.0
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def _overlap(a: Box, b: Box) -> tuple[float, float]:
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    area_a = max(1e-6, (a[2] - a[0]) * (a[3] - a[1]))
    area_b = max(1e-6, (b[2] - b[0]) * (b[3] - b[1]))
    return inter / min(area_a, area_b), inter / (area_a + area_b - inter)


def pair_tables(
    truth: Sequence[GtTable], boxes: Sequence[tuple[int, Box | None]]
) -> dict[int, int]:
    """One-to-one pairing of truth tables with predicted ones (METRICS.md): a pair needs the
    same page, overlap >= 0.6 of the smaller box and IoU >= 0.2; the best IoU pairs first.
    ``boxes``: (page, box) of each prediction. Returns truth index -> prediction index."""
    pairs = []
    for gi, g in enumerate(truth):
        for pi, (page, box) in enumerate(boxes):
            if page != g.page or box is None or g.bbox is None:
                continue
            ov, iou = _overlap(g.bbox, box)
            if ov >= 0.6 and iou >= 0.2:
                pairs.append((iou, gi, pi))
    used_g: set[int] = set()
    used_p: set[int] = set()
    match: dict[int, int] = {}
    for _, gi, pi in sorted(pairs, reverse=True):
        if gi not in used_g and pi not in used_p:
            used_g.add(gi)
            used_p.add(pi)
            match[gi] = pi
    return match


@dataclass
class Score:
    det_tp: int = 0
    det_pred: int = 0
    det_gt: int = 0
    cell: list[int] = field(default_factory=lambda: [0, 0, 0])
    adj: list[int] = field(default_factory=lambda: [0, 0, 0])
    seconds: float = 0.0
    pages: int = 0
    errors: int = 0
    skipped: int = 0
    """Documents left out when the time budget ran out (their tables are not counted)."""

    def add_cells(self, gt: Grid, pred: Grid | None) -> None:
        for acc, fn in ((self.cell, cell_counts), (self.adj, adjacency_counts)):
            tp, npred, ngt = fn(gt, pred) if pred is not None else (0, 0, fn(gt, gt)[2])
            acc[0] += tp
            acc[1] += npred
            acc[2] += ngt

    def row(self) -> dict[str, float]:
        dp, dr, _ = f1(self.det_tp, self.det_pred, self.det_gt)
        return {
            "det_precision": round(dp, 3),
            "det_recall": round(dr, 3),
            "cell_f1": round(f1(*self.cell)[2], 3),
            "cell_precision": round(f1(*self.cell)[0], 3),
            "cell_recall": round(f1(*self.cell)[1], 3),
            "adj_f1": round(f1(*self.adj)[2], 3),
            "s_per_page": round(self.seconds / max(1, self.pages), 3),
            "gt_tables": self.det_gt,
            "errors": self.errors,
            "skipped_docs": self.skipped,
        }


def score_doc(doc: Doc, preds: list[Pred], icdar: Score, tabula: Score) -> None:
    located = [t for t in doc.tables if t.page is not None and t.bbox is not None]
    if located:
        icdar.det_gt += len(located)
        icdar.det_pred += len(preds)
        match = pair_tables(located, [(p.page, p.bbox) for p in preds])
        icdar.det_tp += len(match)
        for gi, g in enumerate(located):
            icdar.add_cells(g.grid, preds[match[gi]].grid if gi in match else None)
    for g in doc.tables:
        if g.page is not None:
            continue
        tabula.det_gt += 1
        best: Grid | None = None
        best_f = -1.0
        for p in preds:
            fval = f1(*cell_counts(g.grid, p.grid))[2]
            if fval > best_f:
                best, best_f = p.grid, fval
        if best is not None and best_f >= 0.5:
            tabula.det_tp += 1
            tabula.det_pred += 1
        tabula.add_cells(g.grid, best)


# --- tools -----------------------------------------------------------------------------

Extractor = Callable[[Doc, list[int], bool], list[Pred]]


def _clean(v: Any) -> str:
    return "" if v is None else str(v)


def _pages_for(doc: Doc, raster: bool) -> list[int]:
    if not raster:
        return list(range(1, doc.pages + 1))
    pages = sorted({t.page for t in doc.tables if t.page is not None})
    return pages or list(range(1, doc.pages + 1))


def _png(doc: Doc, page: int) -> bytes:
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(str(doc.path))
    try:
        image = pdf[page - 1].render(scale=RASTER_DPI / 72, grayscale=True).to_pil()
    finally:
        pdf.close()
    buf = io.BytesIO()
    image.save(buf, format="PNG", dpi=(RASTER_DPI, RASTER_DPI))
    return buf.getvalue()


def run_ours(doc: Doc, pages: list[int], raster: bool) -> list[Pred]:
    from prefect_docai.engines.pluginspec import EngineOptions
    from prefect_docai.engines.tables import TableEngine
    from prefect_docai.models import TableExtractionResult

    engine = TableEngine()
    # as the HTTP API calls the engine for an upload without languageHint
    options = EngineOptions(language_hinted=False, output_formats=("JSON",))
    inputs: list[tuple[int, bytes]]
    inputs = [(page, _png(doc, page)) for page in pages] if raster else [(0, doc.path.read_bytes())]
    preds: list[Pred] = []
    for page_offset, data in inputs:
        result = engine.run(data, options).result
        assert isinstance(result, TableExtractionResult)
        for t in result.tables:
            page = page_offset or t.page
            w, h = doc.page_sizes[page - 1]
            grid = [["" for _ in range(t.column_count)] for _ in range(t.row_count)]
            for c in t.cells:
                grid[c.row][c.col] = c.text
            box = (t.bbox[0] * w, t.bbox[1] * h, t.bbox[2] * w, t.bbox[3] * h)
            preds.append(Pred(page, box, grid))
    return preds


def run_pdfplumber(doc: Doc, pages: list[int], raster: bool) -> list[Pred]:
    import pdfplumber

    preds: list[Pred] = []
    with pdfplumber.open(str(doc.path)) as pdf:
        for n in pages:
            for t in pdf.pages[n - 1].find_tables():
                grid = [[_clean(v) for v in row] for row in t.extract()]
                preds.append(Pred(n, tuple(t.bbox), grid))  # type: ignore[arg-type]
    return preds


def _camelot(flavor: str) -> Extractor:
    def run(doc: Doc, pages: list[int], raster: bool) -> list[Pred]:
        import camelot

        preds: list[Pred] = []
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tables = camelot.read_pdf(str(doc.path), pages=",".join(map(str, pages)), flavor=flavor)
        for t in tables:
            page = int(t.page)
            h = doc.page_sizes[page - 1][1]
            x0, y0, x1, y1 = t._bbox
            grid = [[_clean(v) for v in row] for row in t.df.values.tolist()]
            preds.append(Pred(page, (x0, h - y1, x1, h - y0), grid))
        return preds

    return run


def run_img2table(doc: Doc, pages: list[int], raster: bool) -> list[Pred]:
    from img2table.document import PDF, Image

    preds: list[Pred] = []
    if not raster:
        pdf = PDF(str(doc.path), pages=[p - 1 for p in pages], detect_rotation=False)
        found = pdf.extract_tables(borderless_tables=True, implicit_rows=True)
        for idx, tables in found.items():
            page = idx + 1
            _w, _h = doc.page_sizes[page - 1]
            # img2table renders PDF pages at 200 dpi; boxes are in those pixels
            scale = 72 / 200
            for t in tables:
                b = t.bbox
                grid = [[_clean(v) for v in row] for row in t.df.values.tolist()]
                box = (b.x1 * scale, b.y1 * scale, b.x2 * scale, b.y2 * scale)
                preds.append(Pred(page, box, grid))
        return preds
    ocr = _DpiTesseract(RASTER_DPI)
    for page in pages:
        image = Image(_png(doc, page), detect_rotation=False)
        scale = 72 / RASTER_DPI
        for t in image.extract_tables(ocr=ocr, borderless_tables=True, implicit_rows=True):
            b = t.bbox
            grid = [[_clean(v) for v in row] for row in t.df.values.tolist()]
            preds.append(Pred(page, (b.x1 * scale, b.y1 * scale, b.x2 * scale, b.y2 * scale), grid))
    return preds


def _dpi_tesseract_class() -> Any:
    import subprocess
    import tempfile

    import cv2
    from img2table.ocr import TesseractOCR

    class DpiTesseract(TesseractOCR):  # type: ignore[misc]
        """img2table writes a JPEG without DPI, so Tesseract guesses ~400 dpi and garbles
        tables (engines.md §3); pass the real resolution and psm 3."""

        def __init__(self, dpi: int) -> None:
            super().__init__(n_threads=1, lang="eng", psm=3)
            self.dpi = dpi

        def hocr(self, image: Any) -> str:
            with tempfile.NamedTemporaryFile(suffix=".png") as tmp:
                cv2.imwrite(tmp.name, image)
                out = subprocess.check_output(
                    [
                        "tesseract",
                        tmp.name,
                        "stdout",
                        "--dpi",
                        str(self.dpi),
                        "--psm",
                        str(self.psm),
                        "-l",
                        self.lang,
                        "hocr",
                    ],
                    env=self.env,
                    stderr=subprocess.DEVNULL,
                )
            return out.decode("utf-8")

    return DpiTesseract


def _DpiTesseract(dpi: int) -> Any:
    return _dpi_tesseract_class()(dpi)


TOOLS: dict[str, tuple[Extractor, bool]] = {
    # name: (extractor, works on rasterized pages)
    "ours": (run_ours, True),
    "pdfplumber": (run_pdfplumber, False),
    "camelot-lattice": (_camelot("lattice"), False),
    "camelot-stream": (_camelot("stream"), False),
    "img2table": (run_img2table, True),
}


def available(name: str) -> bool:
    module = {"camelot-lattice": "camelot", "camelot-stream": "camelot"}.get(name, name)
    if name == "ours":
        module = "prefect_docai.engines.tables"
    try:
        __import__(module)
    except Exception:
        return False
    return True


def evaluate(
    docs: Iterable[Doc], name: str, raster: bool, budget_s: float
) -> tuple[Score, Score, Score, dict[str, Any]]:
    extractor = TOOLS[name][0]
    icdar, tabula, samples = Score(), Score(), Score()
    per_doc: dict[str, Any] = {}
    started = time.monotonic()
    for doc in docs:
        if time.monotonic() - started > budget_s:
            per_doc[doc.id] = "skipped (time budget)"
            located = any(t.page is not None for t in doc.tables)
            generated = doc.id.startswith("sample-")
            (samples if generated else icdar if located else tabula).skipped += 1
            continue
        pages = _pages_for(doc, raster)
        t0 = time.monotonic()
        try:
            preds = extractor(doc, pages, raster)
        except Exception as exc:
            preds = []
            icdar.errors += 1
            per_doc[doc.id] = f"error: {type(exc).__name__}: {exc}"[:200]
        elapsed = time.monotonic() - t0
        generated = doc.id.startswith("sample-")
        located = any(t.page is not None for t in doc.tables)
        target = samples if generated else icdar if located else tabula
        target.seconds += elapsed
        target.pages += len(pages)
        scores = (icdar, tabula, samples)
        before = [list(x.cell) for x in scores]
        score_doc(doc, preds, icdar, samples if generated else tabula)
        if doc.id not in per_doc:
            tp, npred, ngt = (
                sum(x.cell[i] - b[i] for x, b in zip(scores, before, strict=True)) for i in range(3)
            )
            per_doc[doc.id] = {
                "tables": len(preds),
                "cell_f1": round(f1(tp, npred, ngt)[2], 3),
                "s": round(elapsed, 2),
            }
    return icdar, tabula, samples, per_doc


def _num(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tools", default=",".join(TOOLS))
    parser.add_argument("--no-raster", action="store_true", help="skip the 200 dpi run")
    parser.add_argument("--raster-only", action="store_true")
    parser.add_argument("--docs", default="", help="comma-separated document ids")
    parser.add_argument("--budget", type=float, default=600.0, help="seconds per tool and mode")
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument(
        "--samples",
        type=int,
        default=0,
        help="also score N generated business documents per sample template",
    )
    args = parser.parse_args()
    os.environ.setdefault("OMP_THREAD_LIMIT", "1")
    corpus = corpus_dir()
    if not (corpus / "manifest.json").exists():
        print(f"corpus not found at {corpus}; skipping")
        return 0
    docs = load_corpus(corpus)
    if args.samples:
        sample_dir = Path(tempfile.mkdtemp(prefix="docai-bench-tables-"))
        docs += load_samples(args.samples, sample_dir)
    if args.docs:
        wanted = set(args.docs.split(","))
        docs = [d for d in docs if d.id in wanted]
    modes = [] if args.raster_only else [False]
    if not args.no_raster:
        modes.append(True)
    report: dict[str, Any] = {"raster_dpi": RASTER_DPI, "runs": []}
    header = (
        f"{'tool':<16} {'input':<10} {'set':<7} {'detP':>5} {'detR':>5} {'cellP':>5} "
        f"{'cellR':>5} {'cellF1':>6} {'adjF1':>6} {'s/page':>7} {'tables':>6} {'skip':>4}"
    )
    lines = [header]
    for raster in modes:
        for name in args.tools.split(","):
            if name not in TOOLS:
                continue
            if raster and not TOOLS[name][1]:
                continue
            if not available(name):
                print(f"{name}: not installed, skipped")
                continue
            icdar, tabula, samples, per_doc = evaluate(docs, name, raster, args.budget)
            mode = f"{RASTER_DPI}dpi" if raster else "pdf"
            sets = [("icdar", icdar), ("tabula", tabula)]
            if args.samples:
                sets.append(("samples", samples))
            for set_name, score in sets:
                row: dict[str, Any] = dict(score.row())
                if set_name != "icdar":
                    row["det_precision"] = None  # no page/box truth: precision unknown
                report["runs"].append({"tool": name, "input": mode, "set": set_name, **row})
                lines.append(
                    f"{name:<16} {mode:<10} {set_name:<7} {_num(row['det_precision']):>5} "
                    f"{row['det_recall']:>5.2f} {row['cell_precision']:>5.2f} "
                    f"{row['cell_recall']:>5.2f} {row['cell_f1']:>6.3f} {row['adj_f1']:>6.3f} "
                    f"{row['s_per_page']:>7.3f} {row['gt_tables']:>6} {row['skipped_docs']:>4}"
                )
            report["runs"][-1]["per_doc"] = per_doc
            print(*lines[-len(sets) :], sep="\n", flush=True)
            if args.verbose:
                print(json.dumps(per_doc, indent=1))
    print("\n".join(lines))
    if args.samples:
        shutil.rmtree(sample_dir, ignore_errors=True)
    RESULTS.mkdir(parents=True, exist_ok=True)
    out = RESULTS / "tables.json"
    # runs of other tools/inputs from earlier invocations stay (slow raster runs are
    # usually made separately)
    if out.exists():
        fresh = {(r["tool"], r["input"]) for r in report["runs"]}
        try:
            earlier = json.loads(out.read_text()).get("runs", [])
        except ValueError:
            earlier = []
        report["runs"] = [r for r in earlier if (r["tool"], r["input"]) not in fresh] + report[
            "runs"
        ]
    out.write_text(json.dumps(report, indent=1))
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
