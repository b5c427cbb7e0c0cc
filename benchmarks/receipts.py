"""ToolReceipt accuracy on the corpus: SROIE (merchant, address, date, total) and the
German receipts (date, total); exact match after normalization (amounts 2 decimals, dates
ISO, text case/space/punctuation-folded), plus how often the number of line items found
equals the truth's item count (German receipts). Run: ``python -m benchmarks.receipts
[--limit N] [--verbose]``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from collections import defaultdict
from decimal import Decimal
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def corpus_dir() -> Path:
    return Path(os.environ.get("DOCAI_CORPUS", ROOT.parent / "shared" / "corpus"))


def normalize(field: str, value: Any) -> str | None:
    if value is None or value == "":
        return None
    if field == "total":
        try:
            return str(Decimal(str(value)).quantize(Decimal("0.01")))
        except ArithmeticError:
            return None
    if field in ("merchant", "address"):
        return re.sub(r"[\s,.]+", " ", str(value)).strip().casefold()
    return str(value).strip()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--limit", type=int, default=0)
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args(argv)
    os.environ.setdefault("OMP_THREAD_LIMIT", "1")

    from prefect_docai.engines.pluginspec import EngineOptions
    from prefect_docai.engines.receipt import ReceiptEngine

    corpus = corpus_dir()
    if not (corpus / "manifest.json").is_file():
        print(f"no corpus at {corpus} (set DOCAI_CORPUS): skipped")
        return 0
    manifest = json.loads((corpus / "manifest.json").read_text())
    docs = [d for d in manifest["documents"] if "receipt_extraction" in d["tasks"]]
    if args.limit:
        docs = docs[: args.limit]
    engine = ReceiptEngine()
    options = EngineOptions(languages=("deu", "eng"))
    counts: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0, 0]))
    item_counts = [0, 0]  # receipts whose item count matches the truth, receipts with one
    started = time.monotonic()
    for doc in docs:
        group = "sroie" if doc["lang"] == "en" else "de"
        fields = ("merchant", "address", "date", "total") if group == "sroie" else ("date", "total")
        data = (corpus / doc["file"]).read_bytes()
        try:
            result = engine.run(data, options).result.model_dump(mode="json", by_alias=True)
        except Exception as exc:  # a crash is a miss on every field, and is shown
            print(f"  {doc['id']}: {type(exc).__name__}: {exc}", file=sys.stderr)
            result = {"merchant": {}}
        def v(obj: Any) -> Any:
            return obj.get("value") if isinstance(obj, dict) else None
        pred = {
            "merchant": v(result["merchant"].get("name")),
            "address": v(result["merchant"].get("address")),
            "date": v(result.get("date")),
            "total": v(result.get("total")),
        }
        gold = {"merchant": doc["gt"].get("merchant"), "address": doc["gt"].get("merchant_address"),
                "date": doc["gt"].get("date"), "total": doc["gt"].get("total")}
        misses = {}
        if doc["gt"].get("item_count") is not None:
            # Reported beside the F1 (not part of it): the truth has counts, not lines.
            found = len(result.get("items") or [])
            item_counts[1] += 1
            item_counts[0] += found == doc["gt"]["item_count"]
            if found != doc["gt"]["item_count"]:
                misses["item_count"] = (doc["gt"]["item_count"], found)
        for field in fields:
            g, p = normalize(field, gold[field]), normalize(field, pred[field])
            c = counts[group][field]
            if p is not None and p == g:
                c[0] += 1
            else:
                misses[field] = (g, p)
                if p is not None:
                    c[1] += 1
                if g is not None:
                    c[2] += 1
        if args.verbose:
            print(f"  {doc['id']}: {misses}")
    elapsed = time.monotonic() - started
    report: dict[str, Any] = {"seconds": round(elapsed, 1), "groups": {}}
    print(f"{'set':<6} {'field':<9} {'F1':>6}  tp/fp/fn")
    for group, fields_counts in counts.items():
        tp = sum(c[0] for c in fields_counts.values())
        fp = sum(c[1] for c in fields_counts.values())
        fn = sum(c[2] for c in fields_counts.values())
        f1 = 2 * tp / (2 * tp + fp + fn) if tp else 0.0
        report["groups"][group] = {"f1": round(f1, 4), "fields": {}}
        for field, (t, p, n) in fields_counts.items():
            ff = 2 * t / (2 * t + p + n) if t else 0.0
            report["groups"][group]["fields"][field] = round(ff, 4)
            print(f"{group:<6} {field:<9} {ff:>6.3f}  {t}/{p}/{n}")
        print(f"{group:<6} {'micro':<9} {f1:>6.3f}  {tp}/{fp}/{fn}")
    if item_counts[1]:
        report["item_count_exact"] = round(item_counts[0] / item_counts[1], 4)
        print(f"item count exact: {item_counts[0]}/{item_counts[1]}")
    print(f"{len(docs)} receipts in {elapsed:.0f}s")
    out_dir = ROOT / "benchmarks" / "results"
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "receipts.json").write_text(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
