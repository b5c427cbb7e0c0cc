"""ToolInvoice accuracy on the corpus in three modes, invoice2data side by side.

Modes: ``xml`` (PDFs as published, embedded e-invoice XML), ``text`` (the XML attachment
removed with pikepdf: text-layer path), ``ocr`` (pages rasterized at 200 dpi with mild
noise: OCR path). Per-field exact match after normalization, micro-F1 over the fields of
issue #4, per mode and language. Run: ``python -m benchmarks.invoices [--modes xml,text]
[--ocr-limit N] [--no-invoice2data]``.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import re
import sys
import time
from collections import defaultdict
from decimal import Decimal
from pathlib import Path
from typing import Any

FIELDS = (
    "invoice_number", "invoice_date", "currency", "seller_name", "seller_vat_id",
    "buyer_name", "iban", "bic", "net_total", "tax_total", "gross_total",
)
ROOT = Path(__file__).resolve().parent.parent


def corpus_dir() -> Path:
    return Path(os.environ.get("DOCAI_CORPUS", ROOT.parent / "shared" / "corpus"))


def normalize(field: str, value: Any) -> str | None:
    if value is None or value == "" or value == []:
        return None
    if field in ("net_total", "tax_total", "gross_total"):
        try:
            return str(Decimal(str(value)).quantize(Decimal("0.01")))
        except ArithmeticError:
            return None
    if field in ("seller_vat_id", "iban", "bic", "invoice_number", "currency"):
        return re.sub(r"\s", "", str(value)).upper()
    if field.endswith("_name"):
        return re.sub(r"\s+", " ", str(value)).strip().casefold()
    return str(value).strip()


def predicted(result: dict[str, Any]) -> dict[str, Any]:
    def v(obj: Any) -> Any:
        return obj.get("value") if isinstance(obj, dict) else None

    return {
        "invoice_number": v(result.get("invoiceNumber")),
        "invoice_date": v(result.get("invoiceDate")),
        "currency": v(result.get("currency")),
        "seller_name": v(result["seller"].get("name")),
        "seller_vat_id": v(result["seller"].get("vatId")),
        "buyer_name": v(result["buyer"].get("name")),
        "iban": v(result["payment"].get("iban")),
        "bic": v(result["payment"].get("bic")),
        "net_total": v(result["totals"].get("net")),
        "tax_total": v(result["totals"].get("tax")),
        "gross_total": v(result["totals"].get("gross")),
    }


def strip_xml(data: bytes) -> bytes:
    """The PDF without embedded files (and their /AF references)."""
    import pikepdf

    with pikepdf.open(io.BytesIO(data)) as pdf:
        names = pdf.Root.get("/Names")
        if names is not None and "/EmbeddedFiles" in names:
            del names["/EmbeddedFiles"]
        if "/AF" in pdf.Root:
            del pdf.Root["/AF"]
        for page in pdf.pages:
            if "/AF" in page.obj:
                del page.obj["/AF"]
            annots = page.obj.get("/Annots")
            if annots is not None:
                keep = [a for a in annots if a.get("/Subtype") != "/FileAttachment"]
                page.obj["/Annots"] = pikepdf.Array(keep)
        out = io.BytesIO()
        pdf.save(out)
        return out.getvalue()


def rasterize(data: bytes, dpi: int = 200, seed: int = 0) -> bytes:
    """Every page as a 200-dpi grayscale image with mild noise, in an image-only PDF."""
    import numpy as np
    import pypdfium2 as pdfium
    from PIL import Image, ImageFilter

    rng = np.random.default_rng(seed)
    pdf = pdfium.PdfDocument(data)
    images = []
    for index in range(len(pdf)):
        image = pdf[index].render(scale=dpi / 72, grayscale=True).to_pil().convert("L")
        image = image.filter(ImageFilter.GaussianBlur(0.5))
        array = np.asarray(image, dtype=np.float32) + rng.normal(0, 8, (image.height, image.width))
        images.append(Image.fromarray(np.clip(array, 0, 255).astype("uint8")))
    pdf.close()
    out = io.BytesIO()
    images[0].save(out, "PDF", resolution=dpi, save_all=True, append_images=images[1:])
    return out.getvalue()


def score(rows: list[dict[str, Any]], known_only: bool = False) -> dict[str, Any]:
    """Micro-F1. ``known_only`` skips fields the truth leaves null: the corpus README reads
    null as "not given by the source" (an e-invoice XML without the IBAN its PDF prints),
    so there a value read from the page is not necessarily wrong. Partial truths are always
    scored that way."""
    tp = fp = fn = 0
    per_field: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for row in rows:
        for field in FIELDS:
            gold, pred = row["gold"].get(field), row["pred"].get(field)
            if gold is None and (row["partial"] or known_only):
                continue
            counts = per_field[field]
            if pred is not None and pred == gold:
                tp += 1
                counts[0] += 1
            else:
                if pred is not None:
                    fp += 1
                    counts[1] += 1
                if gold is not None:
                    fn += 1
                    counts[2] += 1
    def f1(t: int, p: int, n: int) -> float:
        return 2 * t / (2 * t + p + n) if t else 0.0
    return {
        "f1": round(f1(tp, fp, fn), 4), "tp": tp, "fp": fp, "fn": fn, "docs": len(rows),
        "fields": {k: round(f1(*v), 4) for k, v in per_field.items()},
    }


def run_invoice2data(data: bytes) -> dict[str, Any] | None:
    import tempfile

    from invoice2data import extract_data
    from invoice2data.extract.loader import read_templates

    templates = getattr(run_invoice2data, "_templates", None)
    if templates is None:
        templates = read_templates()
        run_invoice2data._templates = templates  # type: ignore[attr-defined]
    with tempfile.NamedTemporaryFile(suffix=".pdf") as handle:
        handle.write(data)
        handle.flush()
        try:
            result = extract_data(handle.name, templates=templates)
        except Exception:
            return None
    if not result:
        return None
    return {
        "invoice_number": result.get("invoice_number"),
        "invoice_date": result["date"].date().isoformat() if hasattr(result.get("date"), "date") else None,
        "currency": result.get("currency"),
        "seller_name": result.get("issuer"),
        "seller_vat_id": result.get("vat"),
        "buyer_name": None, "iban": None, "bic": None,
        "net_total": result.get("amount_untaxed"),
        "tax_total": result.get("amount_tax"),
        "gross_total": result.get("amount"),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--modes", default="xml,text,ocr")
    parser.add_argument("--ocr-limit", type=int, default=0, help="OCR mode on the first N docs")
    parser.add_argument("--no-invoice2data", action="store_true")
    parser.add_argument("--only", default="", help="comma-separated document ids")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args(argv)
    os.environ.setdefault("OMP_THREAD_LIMIT", "1")

    from prefect_docai.engines.invoice import InvoiceEngine
    from prefect_docai.engines.pluginspec import EngineOptions

    corpus = corpus_dir()
    if not (corpus / "manifest.json").is_file():
        print(f"no corpus at {corpus} (set DOCAI_CORPUS): skipped")
        return 0
    manifest = json.loads((corpus / "manifest.json").read_text())
    docs = [d for d in manifest["documents"] if "invoice_extraction" in d["tasks"]]
    if args.only:
        wanted = set(args.only.split(","))
        docs = [d for d in docs if d["id"] in wanted]
    engine = InvoiceEngine()
    options = EngineOptions(languages=("deu", "eng"), output_formats=("JSON",))
    modes = [m for m in args.modes.split(",") if m]
    if not args.no_invoice2data:
        try:
            import invoice2data  # noqa: F401

            modes.append("invoice2data")
        except ImportError:
            print("invoice2data not installed: skipped", file=sys.stderr)
    report: dict[str, Any] = {"modes": {}}
    print(f"{'mode':<13} {'lang':<5} {'docs':>4} {'F1':>6}  tp/fp/fn   time")
    for mode in modes:
        rows: list[dict[str, Any]] = []
        started = time.monotonic()
        selected = docs
        if mode == "ocr" and args.ocr_limit:
            selected = docs[: args.ocr_limit]
        for doc in selected:
            data = (corpus / doc["file"]).read_bytes()
            partial = doc["gt"].get("gt_quality") != "exact_embedded_xml"
            if mode == "xml" and partial:
                continue
            if mode == "text":
                data = strip_xml(data)
            elif mode == "ocr":
                data = rasterize(strip_xml(data))
            if mode == "invoice2data":
                pred_raw = run_invoice2data(data) or {}
            else:
                try:
                    result = engine.run(data, options).result.model_dump(mode="json", by_alias=True)
                except Exception as exc:  # a crash is a miss on every field, and is shown
                    print(f"  {doc['id']}: {type(exc).__name__}: {exc}", file=sys.stderr)
                    result = None
                pred_raw = predicted(result) if result else {}
            gold = {f: normalize(f, doc["gt"].get(f.replace("_total", "_total"))) for f in FIELDS}
            pred = {f: normalize(f, pred_raw.get(f)) for f in FIELDS}
            rows.append({"id": doc["id"], "lang": doc["lang"], "gold": gold, "pred": pred, "partial": partial})
            if args.verbose:
                misses = {f: (gold[f], pred[f]) for f in FIELDS if gold[f] != pred[f] and not (partial and gold[f] is None)}
                print(f"  {mode} {doc['id']}: {misses}")
        elapsed = time.monotonic() - started
        by_lang: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for row in rows:
            by_lang[row["lang"]].append(row)
        summary = {"all": score(rows), **{lang: score(r) for lang, r in sorted(by_lang.items())}}
        summary["known_only"] = score(rows, known_only=True)
        summary["seconds"] = round(elapsed, 1)
        report["modes"][mode] = summary
        for lang in ["all", *sorted(by_lang)]:
            s = summary[lang]
            print(f"{mode:<13} {lang:<5} {s['docs']:>4} {s['f1']:>6.3f}  {s['tp']}/{s['fp']}/{s['fn']}"
                  + (f"   {elapsed:.0f}s" if lang == "all" else ""))
        print(f"{'':<13} per field: " + ", ".join(f"{k}={v:.2f}" for k, v in summary["all"]["fields"].items()))
        known = summary["known_only"]
        print(f"{'':<13} fields the truth gives only: F1 {known['f1']:.3f}  {known['tp']}/{known['fp']}/{known['fn']}")
    out_dir = ROOT / "benchmarks" / "results"
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "invoices.json").write_text(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
