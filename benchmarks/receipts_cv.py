"""Receipt extraction scored honestly: the visible SROIE receipts next to the SROIE
training pool (``../shared/corpus/train/sroie/``, 240 of its 456 receipts have an image)
as a held-out set, and the pool's receipts whose merchant is absent from the visible set.

    OMP_THREAD_LIMIT=1 python -m benchmarks.receipts_cv [--limit N] [--verbose]
        [--extractor rules|shipped] [--check N] [--timing N] [--ocr-engine auto|tesseract|rapid]

Company, address, date and total are compared strictly as ``METRICS.md`` defines it
(case/space folded exact; amounts to 2 decimals, dates ISO); beside it the looser
normalization of :mod:`benchmarks.receipts` (also folds ``,`` and ``.``) so the two
reports can be compared. Per field: F1 from tp/fp/fn counted as in
:mod:`benchmarks.receipts` (a wrong value is a false positive and a false negative).

The visible set is in-sample for today's rules (they were tuned on it); the pool is
held out for them. ``--extractor rules`` (default) runs the rules alone, ``shipped`` the
engine as packaged, with the learned scorers of ``engines/data/`` — those were fitted on the
pool, so for them only the visible figure is held out (the pool's held-out figure is the
out-of-fold one of ``training/receipts.py``). OCR output (the page words the receipt engine reads) is cached outside
the repository, in ``~/.cache/docai-bench/receipt-ocr/<ocr version>/<image sha256>.json``
(``DOCAI_BENCH_CACHE`` overrides the root), where the OCR version hashes the sources of the
page loader, the receipt image preparation, the Tesseract version and the recognizer the
loader is set to (``--ocr-engine`` / ``DOCAI_OCR_ENGINE``, with RapidOCR's version): reruns re-extract
from cached words in a few ms per receipt. ``--check N`` runs the real engine on the first
N images and asserts it gives the same result as the cached path.

Writes ``benchmarks/results/receipts_cv.json`` (``receipts_cv_<extractor>.json`` for a
non-default extractor).
"""

from __future__ import annotations

import argparse
import calendar
import functools
import hashlib
import json
import os
import re
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
FIELDS = ("merchant", "address", "date", "total")


def corpus_dir() -> Path:
    return Path(os.environ.get("DOCAI_CORPUS", ROOT.parent / "shared" / "corpus"))


def cache_root() -> Path:
    default = Path.home() / ".cache" / "docai-bench"
    return Path(os.environ.get("DOCAI_BENCH_CACHE", default)) / "receipt-ocr"


# --- truth -----------------------------------------------------------------------------

_MONTHS = {m.upper(): i for i, m in enumerate(calendar.month_abbr) if m}


def truth_date(text: str) -> str | None:
    """An SROIE key date as printed ("25/12/2018", "12-01-19", "30 MAR 2018",
    "OCT 9, 2018", "20180412") → ISO; day first as Malaysian receipts print it."""
    value = text.strip().strip("()").upper()
    patterns: list[tuple[str, tuple[str, str, str]]] = [
        (r"(\d{4})[-/](\d{1,2})[-/](\d{1,2})", ("y", "m", "d")),
        (r"(\d{1,2})[-/ ](\d{1,2}|[A-Z]{3})[-/ ](\d{2,4})", ("d", "m", "y")),
        (r"([A-Z]{3}) (\d{1,2}), (\d{4})", ("m", "d", "y")),
        (r"(\d{4})(\d{2})(\d{2})", ("y", "m", "d")),
    ]
    for pattern, order in patterns:
        match = re.fullmatch(pattern, value)
        if match is None:
            continue
        parts = dict(zip(order, match.groups(), strict=True))
        month = _MONTHS.get(parts["m"]) if parts["m"].isalpha() else int(parts["m"])
        year = int(parts["y"])
        year += 2000 if year < 100 else 0
        if month is None or not 1 <= month <= 12 or not 1 <= int(parts["d"]) <= 31:
            return None
        return f"{year:04d}-{month:02d}-{int(parts['d']):02d}"
    return None


def truth_total(text: str) -> str | None:
    value = re.sub(r"^(?:RM|\$)\s*", "", text.strip()).replace(",", "")
    try:
        return str(Decimal(value).quantize(Decimal("0.01")))
    except (InvalidOperation, ValueError):
        return None


def merchant_key(name: str | None) -> str:
    """A merchant's identity for grouping: letters and digits only, case-folded."""
    return re.sub(r"[\W_]+", "", (name or "").casefold())


@dataclass(frozen=True)
class Sample:
    id: str
    image: Path
    truth: dict[str, str | None]
    """merchant, address, date (ISO), total (2 decimals)."""

    @property
    def merchant(self) -> str:
        return merchant_key(self.truth["merchant"])


def visible_samples(corpus: Path | None = None) -> list[Sample]:
    corpus = corpus or corpus_dir()
    manifest = json.loads((corpus / "manifest.json").read_text())
    samples = []
    for doc in manifest["documents"]:
        if "receipt_extraction" not in doc["tasks"] or doc["lang"] != "en":
            continue
        gt = doc["gt"]
        total = None if gt.get("total") is None else truth_total(str(gt["total_raw"]))
        samples.append(
            Sample(
                doc["id"],
                corpus / doc["file"],
                {
                    "merchant": gt.get("merchant"),
                    "address": gt.get("merchant_address"),
                    "date": gt.get("date"),
                    "total": total,
                },
            )
        )
    return samples


def pool_samples(corpus: Path | None = None, *, with_image: bool = True) -> list[Sample]:
    """The SROIE training pool's receipts (only those with an image by default), in id order."""
    pool = (corpus or corpus_dir()) / "train" / "sroie"
    manifest = json.loads((pool / "manifest.json").read_text())
    samples = []
    for row in sorted(manifest["receipts"], key=lambda r: r["id"]):
        if with_image and not row.get("image"):
            continue
        key = json.loads((pool / row["key"]).read_text())
        samples.append(
            Sample(
                row["id"],
                pool / (row.get("image") or ""),
                {
                    "merchant": key.get("company") or None,
                    "address": key.get("address") or None,
                    "date": truth_date(key.get("date") or ""),
                    "total": truth_total(key.get("total") or ""),
                },
            )
        )
    return samples


# --- OCR, cached -------------------------------------------------------------------------


def ocr_version() -> str:
    """Hash of what decides the words the receipt engine reads from an image."""
    src = ROOT / "src" / "prefect_docai" / "engines"
    digest = hashlib.sha256()
    files = [
        *sorted((src / "page").glob("*.py")),
        src / "receipt" / "image.py",
        src / "receipt" / "engine.py",
        # RapidOCR's learned word spaces, marks and look-alikes decide its words as much as
        # the sources do.
        src / "data" / "rapid_spaces.json",
        src / "data" / "rapid_respell.json",
        src / "data" / "rapid_punct.json",
        src / "data" / "rapid_tail.json",
        src / "data" / "rapid_subst.json",
    ]
    for path in files:
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    try:
        tesseract = subprocess.run(
            ["tesseract", "--version"], capture_output=True, text=True, check=False
        ).stdout.splitlines()[:1]
    except OSError:
        tesseract = []
    digest.update("".join(tesseract).encode())
    # The recognizer the page loader is set to (DOCAI_OCR_ENGINE) and RapidOCR's version:
    # another engine's words are cached under another key.
    from prefect_docai.engines.page.document import ocr_engine_setting

    engine = ocr_engine_setting()
    digest.update(engine.encode())
    if engine != "tesseract":
        from importlib.metadata import PackageNotFoundError, version

        try:
            digest.update(f"rapidocr_onnxruntime-{version('rapidocr_onnxruntime')}".encode())
        except PackageNotFoundError:
            digest.update(b"no-rapidocr")
    return digest.hexdigest()[:16]


def read_pages(data: bytes) -> list[dict[str, Any]]:
    """The receipt engine's OCR of one image: per page its number, aspect, source, words."""
    from prefect_docai.engines.page.document import load_document
    from prefect_docai.engines.receipt.engine import RECEIPT_LANGUAGES
    from prefect_docai.engines.receipt.image import receipt_views

    with load_document(
        data, languages=RECEIPT_LANGUAGES, dpi=300, prepare=receipt_views
    ) as document:
        document.prefetch()
        pages = []
        for page in document.pages:
            aspect = page.width / page.height if page.height else 0.7071
            words = [
                [w.text, list(w.bbox), w.confidence, w.line, w.block, w.font_size, w.page]
                for w in page.words
            ]
            pages.append(
                {"number": page.number, "aspect": aspect, "source": page.source, "words": words}
            )
        return pages


def cached_pages(data: bytes, version: str | None = None) -> list[dict[str, Any]]:
    folder = cache_root() / (version or ocr_version())
    path = folder / f"{hashlib.sha256(data).hexdigest()}.json"
    if path.is_file():
        cached: list[dict[str, Any]] = json.loads(path.read_text())
        return cached
    pages = read_pages(data)
    folder.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(pages))
    tmp.replace(path)
    return pages


def layouts_of(pages: Sequence[dict[str, Any]]) -> list[Any]:
    from prefect_docai.engines.extract.rows import build_layout
    from prefect_docai.engines.page.model import Word

    layouts = []
    for page in pages:
        words = [
            Word(t, (b[0], b[1], b[2], b[3]), c, ln, bl, fs, pg)
            for t, b, c, ln, bl, fs, pg in page["words"]
        ]
        layouts.append(build_layout(page["number"], words, page["aspect"], page["source"]))
    return layouts


# --- scoring ---------------------------------------------------------------------------


def strict(field: str, value: Any) -> str | None:
    """METRICS.md: text case/space folded exact, amounts to 2 decimals, dates ISO."""
    if value is None or value == "":
        return None
    if field == "total":
        try:
            return str(Decimal(str(value)).quantize(Decimal("0.01")))
        except ArithmeticError:
            return None
    if field in ("merchant", "address"):
        return re.sub(r"\s+", " ", str(value)).strip().casefold()
    return str(value).strip()


def loose(field: str, value: Any) -> str | None:
    from benchmarks.receipts import normalize

    return normalize(field, value)


def predicted(result: Any) -> dict[str, Any]:
    def value(field: Any) -> Any:
        return None if field is None else field.value

    return {
        "merchant": value(result.merchant.name),
        "address": value(result.merchant.address),
        "date": value(result.date),
        "total": value(result.total),
    }


class Tally:
    """tp/fp/fn per field under one normalization."""

    def __init__(self, norm: Callable[[str, Any], str | None]) -> None:
        self.norm = norm
        self.counts: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
        self.receipts = 0
        self.all_right = 0

    def add(self, truth: dict[str, Any], pred: dict[str, Any]) -> dict[str, tuple[Any, Any]]:
        misses = {}
        self.receipts += 1
        for field in FIELDS:
            g, p = self.norm(field, truth[field]), self.norm(field, pred[field])
            c = self.counts[field]
            if p is not None and p == g:
                c[0] += 1
            else:
                misses[field] = (g, p)
                c[1] += p is not None
                c[2] += g is not None
        self.all_right += not misses
        return misses

    def report(self) -> dict[str, Any]:
        def f1(t: int, p: int, n: int) -> float:
            return round(2 * t / (2 * t + p + n), 4) if t else 0.0

        tp, fp, fn = (sum(c[i] for c in self.counts.values()) for i in range(3))
        return {
            "receipts": self.receipts,
            "micro_f1": f1(tp, fp, fn),
            "fields": {f: f1(*self.counts[f]) for f in FIELDS},
            "counts": {f: self.counts[f] for f in FIELDS},
            "all_four_right": round(self.all_right / self.receipts, 4) if self.receipts else 0.0,
        }


Extractor = Callable[[Sequence[Any]], Any]
"""layouts → ReceiptResult."""


def rules_extractor() -> Extractor:
    """Today's rules alone (no learned total scorer)."""
    from prefect_docai.engines.receipt.extract import extract_receipt

    return functools.partial(extract_receipt, total_model=None, name_model=None, line_model=None)


def shipped_extractor() -> Extractor:
    """The engine as shipped: the packaged total model where there is one."""
    from prefect_docai.engines.receipt.extract import extract_receipt

    return extract_receipt


def evaluate(
    groups: dict[str, Sequence[Sample]],
    extractor: Extractor,
    *,
    verbose: bool = False,
    predictions: dict[str, dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """Score ``extractor`` (or precomputed ``predictions`` by sample id) per group."""
    report: dict[str, Any] = {}
    version = ocr_version()
    for name, samples in groups.items():
        tallies = {"strict": Tally(strict), "loose": Tally(loose)}
        seconds = 0.0
        for sample in samples:
            if predictions is not None and sample.id in predictions:
                pred = predictions[sample.id]
            else:
                pages = cached_pages(sample.image.read_bytes(), version)
                started = time.perf_counter()
                pred = predicted(extractor(layouts_of(pages)))
                seconds += time.perf_counter() - started
            misses = tallies["strict"].add(sample.truth, pred)
            tallies["loose"].add(sample.truth, pred)
            if verbose and misses:
                print(f"  {name} {sample.id}: {misses}")
        report[name] = {k: t.report() for k, t in tallies.items()}
        report[name]["extract_ms_per_receipt"] = round(1000 * seconds / max(len(samples), 1), 1)
    return report


def benchmark_groups(limit: int = 0) -> dict[str, list[Sample]]:
    visible = visible_samples()
    pool = pool_samples()
    if limit:
        visible, pool = visible[:limit], pool[:limit]
    seen = {s.merchant for s in visible_samples()}
    return {
        "visible": visible,
        "pool": pool,
        "pool_unseen_merchants": [s for s in pool if s.merchant not in seen],
    }


def warm_cache(samples: Sequence[Sample]) -> dict[str, float]:
    """OCR every image not cached yet; seconds per image OCRed (engine wall time)."""
    version = ocr_version()
    timings: dict[str, float] = {}
    for index, sample in enumerate(samples):
        data = sample.image.read_bytes()
        path = cache_root() / version / f"{hashlib.sha256(data).hexdigest()}.json"
        if path.is_file():
            continue
        started = time.perf_counter()
        cached_pages(data, version)
        timings[sample.id] = time.perf_counter() - started
        print(
            f"  ocr {index + 1}/{len(samples)} {sample.id} {timings[sample.id]:.1f}s",
            file=sys.stderr,
            flush=True,
        )
    return timings


def check_engine(samples: Sequence[Sample], extractor: Extractor) -> None:
    """The real engine on the image and the cached path give the same fields."""
    from prefect_docai.engines.pluginspec import EngineOptions
    from prefect_docai.engines.receipt import ReceiptEngine

    engine = ReceiptEngine()
    for sample in samples:
        data = sample.image.read_bytes()
        live = predicted(engine.run(data, EngineOptions(languages=("deu", "eng"))).result)
        cached = predicted(extractor(layouts_of(cached_pages(data))))
        if live != cached:
            raise SystemExit(f"{sample.id}: engine {live} != cached path {cached}")
        print(f"  check {sample.id}: same", file=sys.stderr)


def time_engine(samples: Sequence[Sample]) -> dict[str, Any]:
    """The real engine (OCR included, no cache) on each image: wall and CPU seconds (CPU
    time of this process, all threads: what one core would need; wall time depends on
    what else the machine runs)."""
    from prefect_docai.engines.pluginspec import EngineOptions
    from prefect_docai.engines.receipt import ReceiptEngine

    engine = ReceiptEngine()
    walls, cpus = [], []
    for sample in samples:
        data = sample.image.read_bytes()
        wall, cpu = time.perf_counter(), time.process_time()
        engine.run(data, EngineOptions(languages=("deu", "eng")))
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)

    def summary(values: list[float]) -> dict[str, float]:
        ordered = sorted(values)
        return {
            "mean": round(sum(values) / len(values), 2),
            "median": round(ordered[len(ordered) // 2], 2),
            "max": round(ordered[-1], 2),
        }

    return {"n": len(samples), "wall_s": summary(walls), "cpu_s": summary(cpus)}


def print_report(report: dict[str, Any]) -> None:
    print(f"{'set':<22} {'n':>4} {'norm':<6} " + " ".join(f"{f:>8}" for f in FIELDS) + "    micro")
    for name, entry in report.items():
        if not isinstance(entry, dict) or "strict" not in entry:
            continue
        for norm in ("strict", "loose"):
            r = entry[norm]
            print(
                f"{name:<22} {r['receipts']:>4} {norm:<6} "
                + " ".join(f"{r['fields'][f]:>8.3f}" for f in FIELDS)
                + f"  {r['micro_f1']:>7.3f}"
            )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--limit", type=int, default=0)
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--check", type=int, default=0)
    parser.add_argument(
        "--timing", type=int, default=0, help="time the engine (OCR included) on N images per set"
    )
    parser.add_argument("--extractor", choices=("rules", "shipped"), default="rules")
    parser.add_argument(
        "--ocr-engine",
        choices=("auto", "tesseract", "rapid"),
        help="the page loader's recognizer (sets DOCAI_OCR_ENGINE; default: as set, auto)",
    )
    args = parser.parse_args(argv)
    os.environ.setdefault("OMP_THREAD_LIMIT", "1")
    if args.ocr_engine:
        os.environ["DOCAI_OCR_ENGINE"] = args.ocr_engine
    if not (corpus_dir() / "train" / "sroie" / "manifest.json").is_file():
        print(f"no SROIE pool under {corpus_dir()} (set DOCAI_CORPUS): skipped")
        return 0
    groups = benchmark_groups(args.limit)
    ocr_seconds = warm_cache([*groups["visible"], *groups["pool"]])
    extractor = rules_extractor() if args.extractor == "rules" else shipped_extractor()
    if args.check:
        check_engine(groups["pool"][: args.check], shipped_extractor())
    report = evaluate(groups, extractor, verbose=args.verbose)
    if args.timing:
        report["engine_seconds_per_image"] = {
            name: time_engine(groups[name][: args.timing]) for name in ("visible", "pool")
        }
        print(f"engine seconds per image: {report['engine_seconds_per_image']}")
    report["ocr_version"] = ocr_version()
    report["ocr_engine"] = os.environ.get("DOCAI_OCR_ENGINE", "auto")
    report["extractor"] = args.extractor
    if args.extractor == "shipped":
        report["note"] = (
            "the shipped models were fitted on the whole pool: 'pool' figures are in-sample "
            "for them; their held-out pool figures are training.receipts' out-of-fold ones"
        )
    if ocr_seconds:
        values = sorted(ocr_seconds.values())
        report["ocr_seconds_per_image_this_run"] = {
            "n": len(values),
            "mean": round(sum(values) / len(values), 2),
            "median": round(values[len(values) // 2], 2),
            "max": round(values[-1], 2),
        }
    print_report(report)
    out_dir = ROOT / "benchmarks" / "results"
    out_dir.mkdir(parents=True, exist_ok=True)
    name = "receipts_cv.json" if args.extractor == "rules" else f"receipts_cv_{args.extractor}.json"
    if args.ocr_engine:
        name = name.replace(".json", f"_{args.ocr_engine}.json")
    (out_dir / name).write_text(json.dumps(report, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
