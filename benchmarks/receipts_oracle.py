"""How much of the receipts' merchant and address loss is OCR, how much is choosing lines.

    OMP_THREAD_LIMIT=1 python -m benchmarks.receipts_oracle [--limit N] [--show CLASS]

On the SROIE training pool's receipts with an image (OCR cached by
:mod:`benchmarks.receipts_cv`), per field (merchant name, address):

* **oracle** — the best any choice of the OCR'd words can give: a contiguous run of words
  of the receipt's head (reading order, rows joined by a blank), taken as OCR read it
  (``raw``) or passed through the engine's own cleaning of the field (``cleaned``: debris,
  legal forms, look-alike digits, brackets, address words repaired, also from the line
  model's lexicon), compared strictly (``METRICS.md``:
  case and space folded exact). Below it, how near the nearest run comes: equal once every
  blank is removed (spacing, e.g. "NO.5, JALAN" against the key's "NO.5,JALAN"), equal on
  letters and digits alone (punctuation: commas, dots, hyphens), else the run's similarity
  (rapidfuzz ratio on letters and digits: OCR character errors);
* **ours** — what the engine gives (rules for the name, the shipped line tagger for the
  address, or ``--lines PATH`` for another line model), classed by how it misses: nothing
  given, spacing only, punctuation only, the right words but OCR slips in them, words
  missing from the nearest run (a line or part of one lost), words extra, or other words.

Nothing is fitted here. The shipped tagger was fitted on this pool, so "ours" is its
in-sample figure; the classes, not the rate, are the point. Writes
``benchmarks/results/receipts_oracle.json``.
"""

from __future__ import annotations

import argparse
import json
import re
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from benchmarks.receipts_cv import ROOT, benchmark_groups, cached_pages, layouts_of, strict

HEAD_ROWS = 25
MAX_WORDS = 40


def _alnum(text: str) -> str:
    return re.sub(r"[\W_]+", "", text.casefold())


def _bare(text: str) -> str:
    return re.sub(r"\s+", "", text.casefold())


def _clean(field: str, text: str, lexicon: dict[str, int] | None = None) -> str:
    """The engine's own repairs of a name's or an address's text (the address also from
    the line model's ``lexicon``)."""
    from prefect_docai.engines.receipt import merchant as M
    from prefect_docai.engines.receipt.line_model import correct_from_lexicon

    if field == "merchant":
        return M.repair_name(M.clean_text(text))
    text = M.correct_address_words(M._clean_address(text))
    return M.tidy_brackets(correct_from_lexicon(text, lexicon or {}))


def oracle(
    field: str, truth: str, words: Sequence[tuple[int, str]], lexicon: dict[str, int] | None = None
) -> dict[str, Any]:
    """The best run of ``words`` ((row, text) in reading order) against ``truth``."""
    from rapidfuzz import fuzz

    target, bare, alnum = strict(field, truth), _bare(truth), _alnum(truth)
    best: dict[str, Any] = {"level": "ocr", "similarity": 0.0, "span": (0, 0)}
    rank = {"raw": 5, "cleaned": 4, "spacing": 3, "punctuation": 2, "ocr": 1}
    for i in range(len(words)):
        text = ""
        for j in range(i, min(i + MAX_WORDS, len(words))):
            text = words[j][1] if j == i else f"{text} {words[j][1]}"
            candidate_alnum = _alnum(text)
            if len(candidate_alnum) > 1.5 * len(alnum) + 5:
                break
            if len(candidate_alnum) < 0.5 * len(alnum):
                continue
            if strict(field, text) == target:
                level = "raw"
            else:
                cleaned = _clean(field, text, lexicon)
                if strict(field, cleaned) == target:
                    level = "cleaned"
                elif _bare(cleaned) == bare or _bare(text) == bare:
                    level = "spacing"
                elif _alnum(cleaned) == alnum:
                    level = "punctuation"
                else:
                    level = "ocr"
            similarity = fuzz.ratio(_alnum(_clean(field, text, lexicon)), alnum)
            key = (rank[level], similarity)
            if key > (rank[best["level"]], best["similarity"]):
                best = {"level": level, "similarity": similarity, "span": (i, j + 1)}
    rows = {words[k][0] for k in range(*best["span"])}
    best["rows"] = len(rows)
    best["partial_rows"] = any(
        (words[k][0] in rows) != (best["span"][0] <= k < best["span"][1]) for k in range(len(words))
    )
    return best


def classify(
    field: str, truth: str, value: str | None, picked: set[int], span: tuple[int, int]
) -> str:
    """How ``value`` (read from words ``picked``) misses ``truth``; ``span``: the oracle's
    nearest run of words."""
    if value is None:
        return "none"
    if strict(field, value) == strict(field, truth):
        return "right"
    if _bare(value) == _bare(truth):
        return "spacing"
    if _alnum(value) == _alnum(truth):
        return "punctuation"
    best = set(range(*span))
    if picked == best:
        return "ocr_chars"
    if picked < best:
        return "words_missing"
    if picked > best:
        return "words_extra"
    if picked & best:
        return "shifted"
    return "wrong_lines"


def analyse(limit: int = 0, lines: Path | None = None) -> dict[str, Any]:
    from prefect_docai.engines.receipt import merchant as M
    from prefect_docai.engines.receipt.line_model import LineModel, shipped_model, tag_merchant

    model = LineModel.from_json(lines.read_text()) if lines else shipped_model()
    pool = benchmark_groups()["pool"]
    if limit:
        pool = pool[:limit]
    out: dict[str, Any] = {}
    details: list[dict[str, Any]] = []
    counts: dict[str, Counter[str]] = {f: Counter() for f in ("merchant", "address")}
    for sample in pool:
        rows = [r for lay in layouts_of(cached_pages(sample.image.read_bytes())) for r in lay.rows]
        head = rows[:HEAD_ROWS]
        tokens = [t for r in head for t in r.tokens]
        index = {id(t): k for k, t in enumerate(tokens)}
        words = [(ri, t.text) for ri, r in enumerate(head) for t in r.tokens]
        name, _, _ = M.merchant(rows)
        address = None
        if model is not None:
            _, address, _ = tag_merchant(rows, model)
        for field, cand in (("merchant", name), ("address", address)):
            truth = sample.truth[field]
            if not truth:
                continue
            best = oracle(field, truth, words, None if model is None else model.lexicon)
            value = None if cand is None else str(cand.value)
            picked = set() if cand is None else {index.get(id(t), -1) for t in cand.tokens}
            cls = classify(field, truth, value, picked, best["span"])
            c = counts[field]
            c[f"oracle_{best['level']}"] += 1
            c[f"ours_{cls}"] += 1
            c["receipts"] += 1
            if best["level"] in ("raw", "cleaned"):
                c[f"reachable_ours_{cls}"] += 1
            details.append(
                {
                    "id": sample.id,
                    "field": field,
                    "truth": truth,
                    "ours": value,
                    "class": cls,
                    "oracle": best["level"],
                    "oracle_text": " ".join(w for _, w in words[slice(*best["span"])]),
                    "similarity": round(best["similarity"], 1),
                    "oracle_rows": best["rows"],
                    "oracle_partial_rows": best["partial_rows"],
                }
            )
    for field, c in counts.items():
        n = c["receipts"]
        out[field] = {
            "receipts": n,
            "ours_right": round(c["ours_right"] / n, 4) if n else 0.0,
            "oracle_exact": round((c["oracle_raw"] + c["oracle_cleaned"]) / n, 4) if n else 0.0,
            "oracle_exact_or_spacing": round(
                (c["oracle_raw"] + c["oracle_cleaned"] + c["oracle_spacing"]) / n, 4
            )
            if n
            else 0.0,
            "counts": dict(sorted(c.items())),
        }
    out["details"] = details
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--limit", type=int, default=0)
    parser.add_argument("--lines", type=Path, default=None, help="a line model JSON to use")
    parser.add_argument("--show", default="", help="print the receipts of this class")
    args = parser.parse_args(argv)
    report = analyse(args.limit, args.lines)
    for field in ("merchant", "address"):
        entry = report[field]
        print(
            f"{field}: n={entry['receipts']} ours {entry['ours_right']:.3f} "
            f"oracle exact {entry['oracle_exact']:.3f} "
            f"(+spacing {entry['oracle_exact_or_spacing']:.3f})"
        )
        for key, value in entry["counts"].items():
            print(f"  {key:<32} {value}")
    if args.show:
        for d in report["details"]:
            if args.show in (d["class"], f"oracle_{d['oracle']}"):
                print(json.dumps(d))
    out = ROOT / "benchmarks" / "results"
    out.mkdir(parents=True, exist_ok=True)
    (out / "receipts_oracle.json").write_text(json.dumps(report, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
