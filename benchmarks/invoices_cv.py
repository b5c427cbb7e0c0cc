"""Invoice fields on documents whose seller (or layout family) was never seen: the
held-out evaluation of issue #14, invoice half.

    OMP_THREAD_LIMIT=1 nice -n 10 .venv/bin/python -m benchmarks.invoices_cv
        [--modes text,scan] [--template-docs 48] [--grammar-docs 24] [--intl-docs 12]
        [--intl-langs fr,nl,it,es] [--seed-base N] [--verbose]

Samples, each in a group that no fold splits:

* ``visible`` — the corpus' invoices (``manifest.json``, task ``invoice_extraction``),
  grouped by seller (case-folded name: one seller's documents are one group, whichever
  repository they came from). Truth: the exact embedded XML's values, or for the
  ``partial_template_expected`` ones only the fields their truth gives;
* ``template`` — documents of the template generator (``samples.generate``, de/en), grouped
  by template (every document has its own seller): full truth;
* ``grammar`` — documents of the grammar generator (``samples.grammar``), grouped by
  layout family: truth for invoice number, date, seller name, net, tax and gross (the other
  fields are not scored). ``--grammar-docs`` German and English ones, and ``--intl-docs``
  per language in French, Dutch, Italian and Spanish (``samples.grammar.intl``: delivery,
  service-period, order and due dates beside the invoice date, seller blocks beside the
  buyer's or the seller only in a logo line or footer, totals in the thousands); one
  family's documents are one group whatever their language. ``--intl-langs`` picks those
  languages; ``en`` adds English invoices of the same composer (``composer="intl"``:
  British or American date and number forms, "Invoice No.", "Tax Invoice", "Amount due",
  "Balance due", "Bill to"...).

``--seed-base N`` draws the generated documents at other seeds (template ``N + i``, grammar
``N + 2000 + i``, intl ``N + 4000 + 1000 * language + i``): a fresh draw nobody has looked
at, for a held-out figure of rules tuned on the default seeds (keep one range for
development and another, never inspected, for the reported figure). Its figures go under
``<key>@<N>`` in the results file, beside the default draw's.

Modes: ``text`` (embedded XML removed: the text-layer path) and ``scan`` (the text PDF
rasterized at 200 dpi grey with skew ≤ 0.7°, blur, noise and specks by
:func:`samples.scan.degrade`: the OCR path). As in ``../shared/corpus/METRICS.md``, a truth
value the page itself does not print (not found in the page's text layer) is not counted.
Metric: micro P/R/F1 over the fields of :data:`benchmarks.invoices.FIELDS` (normalised as
there), per source, mode, field and language; and the confidence check (share right among
fields at confidence ≥ 0.9, expected calibration error over 10 bins).

The page words the invoice engine reads (text layer or OCR) are cached in
``~/.cache/docai-bench/invoice-pages/<version>/<sha256>.json`` (``DOCAI_BENCH_CACHE``
overrides the root; the version hashes the page loader's sources and Tesseract's version),
so reruns extract from cached words in milliseconds.

``--key engine`` (default) scores the engine as shipped (rules plus the scorers in
``engines/data/``), ``--key rules`` the rules alone. Rules are not trained: their figure is
the same for any fold. Learned scorers are trained
and scored by ``training/invoices.py`` on these samples, with group folds (``group_folds``)
and leave-one-source-out; it writes its figures next to the rules' in
``benchmarks/results/invoices_cv.json``.

The confidence check of ``--key engine`` is in-sample: the shipped confidence map
(``engines/data/invoice_confidence.json``) was fitted on these documents. Its held-out
figures (group folds, and generated → visible) are those of ``training/calibration.py``
(key ``calibration`` of the same results file).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.invoices import FIELDS, corpus_dir, normalize, predicted, strip_xml
from benchmarks.receipts_cv import layouts_of

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results" / "invoices_cv.json"
MODES = ("text", "scan")


def cache_root() -> Path:
    default = Path.home() / ".cache" / "docai-bench"
    return Path(os.environ.get("DOCAI_BENCH_CACHE", default)) / "invoice-pages"


# --- samples --------------------------------------------------------------------------


@dataclass
class Sample:
    id: str
    source: str
    """``visible``, ``template`` or ``grammar``."""
    group: str
    lang: str
    truth: dict[str, str | None]
    """Normalised truth per field; ``None`` where the source gives none."""
    partial: bool
    """Only the non-null truth fields are scored."""
    make_pdf: Callable[[], bytes] = field(repr=False)
    """The document without embedded XML (text mode)."""
    seed: int = 0

    def pdf(self, mode: str) -> bytes:
        data = self.make_pdf()
        if mode == "text":
            return data
        from prefect_docai.samples.scan import degrade

        return degrade(
            data, seed=self.seed, dpi=200, rotate=0.7, blur=0.6, noise=7.0, quality=75, grey=True
        )


def _fold_name(text: object) -> str:
    return re.sub(r"\s+", " ", str(text or "")).strip().casefold()


def visible_samples() -> list[Sample]:
    corpus = corpus_dir()
    manifest_path = corpus / "manifest.json"
    if not manifest_path.is_file():
        return []
    manifest = json.loads(manifest_path.read_text())
    samples = []
    for index, doc in enumerate(manifest["documents"]):
        if "invoice_extraction" not in doc["tasks"]:
            continue
        path = corpus / doc["file"]
        truth = {f: normalize(f, doc["gt"].get(f)) for f in FIELDS}
        samples.append(
            Sample(
                id=doc["id"],
                source="visible",
                group="visible:" + _fold_name(doc["gt"].get("seller_name")),
                lang=doc["lang"],
                truth=truth,
                partial=doc["gt"].get("gt_quality") != "exact_embedded_xml",
                make_pdf=lambda path=path: strip_xml(path.read_bytes()),
                seed=1000 + index,
            )
        )
    return samples


def _template_truth(truth: dict[str, Any]) -> dict[str, str | None]:
    raw = {
        "invoice_number": truth.get("invoiceNumber"),
        "invoice_date": truth.get("invoiceDate"),
        "currency": truth.get("currency"),
        "seller_name": truth["seller"].get("name"),
        "seller_vat_id": truth["seller"].get("vatId"),
        "buyer_name": truth["buyer"].get("name"),
        "iban": truth.get("iban"),
        "bic": truth.get("bic"),
        "net_total": truth.get("net"),
        "tax_total": truth.get("tax"),
        "gross_total": truth.get("gross"),
    }
    return {f: normalize(f, raw[f]) for f in FIELDS}


def template_samples(count: int, seed_base: int = 7001) -> list[Sample]:
    """``count`` template-generator invoices, de and en alternating, templates in turn."""
    from prefect_docai.samples.generate import generate, templates

    names = templates("invoice") + templates("invoice", held_out=True)
    samples = []
    for index in range(count):
        lang = ("de", "en")[index % 2]
        template = names[(index // 2) % len(names)]
        seed = seed_base + index

        def make(seed: int = seed, lang: str = lang, template: str = template) -> bytes:
            return generate(
                "invoice", seed=seed, lang=lang, template=template, seller_seed=seed
            ).pdf

        doc = generate("invoice", seed=seed, lang=lang, template=template, seller_seed=seed)
        samples.append(
            Sample(
                id=f"template-{template}-{lang}-{seed}",
                source="template",
                group=f"template:{template}",
                lang=lang,
                truth=_template_truth(doc.truth),
                partial=False,
                make_pdf=make,
                seed=seed,
            )
        )
    return samples


def grammar_samples(count: int, seed_base: int = 9001) -> list[Sample]:
    """``count`` grammar-generator invoices (number, date, seller, totals known), de and en
    alternating, families in turn."""
    return [
        _grammar_sample(("de", "en")[index % 2], (index * 7) % FAMILY_COUNT, seed_base + index)
        for index in range(count)
    ]


def _grammar_sample(lang: str, family: int, seed: int, composer: str | None = None) -> Sample:
    from prefect_docai.samples.grammar import generate_varied

    def make(seed: int = seed, lang: str = lang, family: int = family) -> bytes:
        return generate_varied(
            "invoice", seed=seed, lang=lang, family=family, composer=composer
        ).pdf

    doc = generate_varied("invoice", seed=seed, lang=lang, family=family, composer=composer)
    truth: dict[str, str | None] = dict.fromkeys(FIELDS)
    truth["invoice_number"] = normalize("invoice_number", doc.truth.get("number"))
    truth["invoice_date"] = normalize("invoice_date", doc.truth.get("date"))
    truth["seller_name"] = normalize("seller_name", doc.truth.get("seller"))
    for name, key in (("net_total", "net"), ("tax_total", "tax"), ("gross_total", "gross")):
        truth[name] = normalize(name, doc.truth.get(key))
    return Sample(
        id=f"grammar{'-' + composer if composer else ''}-f{family:02d}-{lang}-{seed}",
        source="grammar",
        group=f"grammar:{family}",
        lang=lang,
        truth=truth,
        partial=True,
        make_pdf=make,
        seed=seed,
    )


INTL_LANGS = ("fr", "nl", "it", "es")


def intl_samples(
    per_language: int, langs: Sequence[str] = INTL_LANGS, seed_base: int = 9501
) -> list[Sample]:
    """``per_language`` grammar-generator invoices in each of ``langs`` (fr, nl, it, es;
    ``en``: English ones of the same composer, ``composer="intl"``), families in turn
    (shifted per language, so a family appears in several languages)."""
    samples = []
    for number, lang in enumerate(langs):
        for index in range(per_language):
            family = (index * 7 + 3 * number) % FAMILY_COUNT
            seed = seed_base + 1000 * number + index
            composer = "intl" if lang not in INTL_LANGS else None
            samples.append(_grammar_sample(lang, family, seed, composer))
    return samples


FAMILY_COUNT = 24
"""``samples.grammar.FAMILIES`` (checked by the tests)."""


def all_samples(
    template_docs: int,
    grammar_docs: int,
    intl_docs: int = 0,
    *,
    seed_base: int | None = None,
    intl_langs: Sequence[str] = INTL_LANGS,
) -> list[Sample]:
    """The visible invoices and the generated ones; ``seed_base`` draws the generated ones
    at other seeds (template ``seed_base + i``, grammar ``+ 2000``, intl ``+ 4000``), for a
    held-out draw no one has looked at."""
    if seed_base is None:
        generated = [
            *template_samples(template_docs),
            *grammar_samples(grammar_docs),
            *intl_samples(intl_docs, intl_langs),
        ]
    else:
        generated = [
            *template_samples(template_docs, seed_base),
            *grammar_samples(grammar_docs, seed_base + 2000),
            *intl_samples(intl_docs, intl_langs, seed_base + 4000),
        ]
    return [*visible_samples(), *generated]


# --- page words, cached ---------------------------------------------------------------


def pages_version() -> str:
    """Hash of what decides the words the invoice engine reads from a PDF."""
    src = ROOT / "src" / "prefect_docai" / "engines"
    from prefect_docai.engines.invoice.engine import INVOICE_DETECTED, INVOICE_LANGUAGES

    digest = hashlib.sha256(",".join(INVOICE_LANGUAGES).encode())
    digest.update(("|" + ",".join(INVOICE_DETECTED)).encode())
    # RapidOCR's learned word spaces, respellings and commas (a photographed page is read
    # by RapidOCR) as well.
    learned = [src / "data" / f"rapid_{name}.json" for name in ("spaces", "respell", "punct")]
    for path in [*sorted((src / "page").glob("*.py")), *learned]:
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    try:
        tesseract = subprocess.run(
            ["tesseract", "--version"], capture_output=True, text=True, check=False
        ).stdout.splitlines()[:1]
    except OSError:
        tesseract = []
    digest.update("".join(tesseract).encode())
    return digest.hexdigest()[:16]


def read_pages(data: bytes) -> list[dict[str, Any]]:
    """Per page its number, aspect, source and words, as the invoice engine loads them."""
    from prefect_docai.engines.invoice.engine import INVOICE_DETECTED, INVOICE_LANGUAGES
    from prefect_docai.engines.page.document import load_document

    with load_document(
        data, languages=INVOICE_LANGUAGES, dpi=300, detect=INVOICE_DETECTED
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


def cached_pages(data: bytes, version: str) -> list[dict[str, Any]]:
    folder = cache_root() / version
    path = folder / f"{hashlib.sha256(data).hexdigest()}.json"
    if path.is_file():
        cached: list[dict[str, Any]] = json.loads(path.read_text())
        return cached
    pages = read_pages(data)
    folder.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    tmp.write_text(json.dumps(pages))
    tmp.replace(path)
    return pages


def source_of(layouts: Sequence[Any]) -> str:
    ocr_pages = sum(1 for layout in layouts if layout.source == "ocr")
    return "ocr" if ocr_pages * 2 > len(layouts) else "text-layer"


@dataclass
class Document:
    """A sample read in one mode: its layouts, and which truth fields the page prints."""

    sample: Sample
    mode: str
    layouts: list[Any]
    shown: frozenset[str]


_SYMBOLS = {"EUR": "€", "USD": "$", "GBP": "£", "CHF": "CHF", "JPY": "¥"}
_NUMBER = re.compile(r"\d{1,3}(?:[ .,'\u202f\u00a0]\d{3})*[.,]\d{2}(?!\d)|\d+[.,]\d{2}(?!\d)")


def _printed_amounts(text: str) -> set[str]:
    """Every amount with two decimals the text prints, as ``1234.56`` (grouping removed)."""
    found = set()
    for match in _NUMBER.finditer(text):
        digits = re.sub(r"[^\d]", "", match.group(0))
        found.add(f"{int(digits[:-2])}.{digits[-2:]}")
    return found


def shown_fields(sample: Sample, text_layouts: Sequence[Any]) -> frozenset[str]:
    """Truth fields whose value the page's text layer prints: a date (any format, numeric
    ones read day-first and month-first), an
    amount (any grouping; sign aside), an id with or without blanks, a name's words in
    sequence, a currency's code or symbol."""
    from prefect_docai.engines.extract.candidates import date_in
    from prefect_docai.engines.invoice.locate import _Index
    from prefect_docai.models.results import Field

    index = _Index(text_layouts)
    rows = [row.text for layout in text_layouts for row in layout.rows]
    text = "\n".join(rows)
    squeezed = re.sub(r"\s", "", text).upper()
    dates = set()
    for layout in text_layouts:
        for row in layout.rows:
            for start in range(len(row.tokens)):
                # Both readings of a numeric date: 11/03/2017 shows 3 November on a
                # month-first (US) page as surely as 11 March on a day-first one.
                for month_first in (False, True):
                    hit = date_in(row.tokens[start : start + 5], month_first, every_language=True)
                    if hit is not None:
                        dates.add(hit[0].isoformat())
    amounts = set().union(*(_printed_amounts(row) for row in rows)) if rows else set()
    shown = set()
    for name, value in sample.truth.items():
        if value is None:
            continue
        if name == "currency":
            ok = value in text or _SYMBOLS.get(value, "\0") in text
        elif name == "invoice_date":
            ok = value in dates
        elif name.endswith("_total"):
            ok = value.lstrip("-") in amounts
        elif name.endswith("_name"):
            ok = bool(index.find(name, Field(value=value, confidence=1.0)))
        else:
            ok = value in squeezed
        if ok:
            shown.add(name)
    return frozenset(shown)


def read_documents(
    samples: Sequence[Sample], modes: Sequence[str], *, log: bool = True
) -> dict[str, list[Document]]:
    version = pages_version()
    documents: dict[str, list[Document]] = {mode: [] for mode in modes}
    for number, sample in enumerate(samples, start=1):
        text_pdf = sample.pdf("text")
        text_layouts = layouts_of(cached_pages(text_pdf, version))
        shown = shown_fields(sample, text_layouts)
        for mode in modes:
            started = time.monotonic()
            layouts = (
                text_layouts
                if mode == "text"
                else layouts_of(cached_pages(sample.pdf(mode), version))
            )
            documents[mode].append(Document(sample, mode, layouts, shown))
            seconds = time.monotonic() - started
            if log and seconds > 2:
                print(f"  [{number}/{len(samples)}] {sample.id} {mode}: {seconds:.0f}s", flush=True)
    return documents


# --- extraction and scoring -------------------------------------------------------------

Prediction = dict[str, tuple[str | None, float]]
"""Field → (normalised value, confidence)."""


def rules_prediction(layouts: Sequence[Any], models: dict[str, Any] | None = None) -> Prediction:
    """The invoice read from ``layouts`` as the engine reads it: with the scorers shipped
    in ``engines/data/`` (``models`` None), or with ``models`` (``{}``: the rules alone)."""
    from prefect_docai.engines.invoice.text import extract_invoice

    source = source_of(layouts)
    read = (
        extract_invoice(layouts, source)
        if models is None
        else extract_invoice(layouts, source, models)
    )
    result = read.model_dump(mode="json", by_alias=True)
    values = predicted(result)
    confidences = _confidences(result)
    return {f: (normalize(f, values.get(f)), confidences.get(f, 0.0)) for f in FIELDS}


def _confidences(result: dict[str, Any]) -> dict[str, float]:
    def c(obj: Any) -> float:
        return float(obj.get("confidence", 0.0)) if isinstance(obj, dict) else 0.0

    return {
        "invoice_number": c(result.get("invoiceNumber")),
        "invoice_date": c(result.get("invoiceDate")),
        "currency": c(result.get("currency")),
        "seller_name": c(result["seller"].get("name")),
        "seller_vat_id": c(result["seller"].get("vatId")),
        "buyer_name": c(result["buyer"].get("name")),
        "iban": c(result["payment"].get("iban")),
        "bic": c(result["payment"].get("bic")),
        "net_total": c(result["totals"].get("net")),
        "tax_total": c(result["totals"].get("tax")),
        "gross_total": c(result["totals"].get("gross")),
    }


def counted(document: Document, name: str) -> bool:
    """Whether field ``name`` of ``document`` is scored: its truth is printed on the page,
    or (exact truth only) the truth has no value, where any prediction is a false positive."""
    gold = document.sample.truth.get(name)
    if gold is None:
        return not document.sample.partial
    return name in document.shown


class Tally:
    """Micro P/R/F1, per field and per language, and the confidence check."""

    def __init__(self) -> None:
        self.counts: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
        self.langs: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
        self.confident: list[tuple[float, bool]] = []
        self.docs = 0

    def add(self, document: Document, prediction: Prediction) -> dict[str, Any]:
        self.docs += 1
        misses: dict[str, Any] = {}
        for name in FIELDS:
            if not counted(document, name):
                continue
            gold = document.sample.truth.get(name)
            value, confidence = prediction.get(name, (None, 0.0))
            for target in (self.counts[name], self.counts["all"], self.langs[document.sample.lang]):
                if value is not None and value == gold:
                    target[0] += 1
                else:
                    target[1] += value is not None
                    target[2] += gold is not None
            if value is not None:
                self.confident.append((confidence, value == gold))
            if value != gold:
                misses[name] = (gold, value)
        return misses

    @staticmethod
    def _f1(t: int, p: int, n: int) -> float:
        return round(2 * t / (2 * t + p + n), 4) if t else 0.0

    def report(self) -> dict[str, Any]:
        all_counts = self.counts["all"]
        fields = {k: self._f1(*v) for k, v in self.counts.items() if k != "all"}
        return {
            "f1": self._f1(*all_counts),
            "tp_fp_fn": list(all_counts),
            "docs": self.docs,
            "fields": {k: fields[k] for k in FIELDS if k in fields},
            "langs": {k: self._f1(*v) for k, v in sorted(self.langs.items())},
            "confidence": confidence_report(self.confident),
        }


def confidence_report(pairs: Sequence[tuple[float, bool]]) -> dict[str, Any]:
    """Share right among fields at confidence ≥ 0.9 and expected calibration error."""
    if not pairs:
        return {"fields": 0}
    high = [right for conf, right in pairs if conf >= 0.9]
    ece = 0.0
    for low in range(10):
        members = [
            (c, r) for c, r in pairs if low / 10 <= c < (low + 1) / 10 or (low == 9 and c >= 1)
        ]
        if members:
            mean_conf = sum(c for c, _ in members) / len(members)
            accuracy = sum(r for _, r in members) / len(members)
            ece += len(members) / len(pairs) * abs(mean_conf - accuracy)
    return {
        "fields": len(pairs),
        "at_0.9": len(high),
        "right_at_0.9": round(sum(high) / len(high), 4) if high else None,
        "ece": round(ece, 4),
    }


def evaluate(
    documents: Iterable[Document],
    predictions: dict[str, Prediction],
    *,
    verbose: bool = False,
    label: str = "",
) -> dict[str, Any]:
    """Tallies per source (and over all) of ``predictions`` keyed by sample id."""
    tallies: dict[str, Tally] = defaultdict(Tally)
    for document in documents:
        prediction = predictions[document.sample.id]
        for key in ("all", document.sample.source):
            misses = tallies[key].add(document, prediction)
        if verbose and misses:
            print(f"  {label} {document.mode} {document.sample.id}: {misses}")
    return {key: tally.report() for key, tally in sorted(tallies.items())}


def group_folds(samples: Sequence[Sample], folds: int) -> dict[str, int]:
    """Sample id → fold, whole groups per fold (:func:`deal_groups`)."""
    fold_of_group = deal_groups([s.group for s in samples], folds)
    return {s.id: fold_of_group[s.group] for s in samples}


def deal_groups(groups: Sequence[str], folds: int) -> dict[str, int]:
    """Group → fold for one group name per sample: groups sorted by size, then name, each
    dealt out to the lightest fold (deterministic, balanced)."""
    sizes: dict[str, int] = defaultdict(int)
    for group in groups:
        sizes[group] += 1
    load = [0] * folds
    fold_of_group: dict[str, int] = {}
    for group in sorted(sizes, key=lambda g: (-sizes[g], g)):
        target = min(range(folds), key=lambda f: (load[f], f))
        fold_of_group[group] = target
        load[target] += sizes[group]
    return fold_of_group


def print_report(title: str, report: dict[str, Any]) -> None:
    for key, r in report.items():
        fields = " ".join(
            f"{k.split('_')[0][:4]}{'_' + k.split('_')[1][:3] if '_' in k else ''}={v:.2f}"
            for k, v in r["fields"].items()
        )
        conf = r["confidence"]
        print(
            f"{title:<22} {key:<9} docs {r['docs']:>3} F1 {r['f1']:.3f}  "
            f"langs {r['langs']}  conf≥0.9 right {conf.get('right_at_0.9')} "
            f"ECE {conf.get('ece')}\n{'':<32}{fields}"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--modes", default=",".join(MODES))
    parser.add_argument("--template-docs", type=int, default=48)
    parser.add_argument("--grammar-docs", type=int, default=24)
    parser.add_argument(
        "--intl-docs", type=int, default=12, help="grammar invoices per language fr, nl, it, es"
    )
    parser.add_argument(
        "--intl-langs",
        default=",".join(INTL_LANGS),
        help="languages of the --intl-docs (fr,nl,it,es; en: English of the same composer)",
    )
    parser.add_argument(
        "--seed-base",
        type=int,
        default=None,
        help="draw the generated invoices at other seeds (a held-out draw); the figures go "
        "under '<key>@<seed-base>' in the results",
    )
    parser.add_argument("--sources", default="", help="only these sources (comma-separated)")
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument(
        "--key",
        default="engine",
        help="where the figures go in the results: engine (as shipped), rules (no scorer)",
    )
    args = parser.parse_args(argv)
    os.environ.setdefault("OMP_THREAD_LIMIT", "1")
    modes = [m for m in args.modes.split(",") if m]
    samples = all_samples(
        args.template_docs,
        args.grammar_docs,
        args.intl_docs,
        seed_base=args.seed_base,
        intl_langs=[lang for lang in args.intl_langs.split(",") if lang],
    )
    if args.sources:
        samples = [s for s in samples if s.source in args.sources.split(",")]
    documents = read_documents(samples, modes)
    report: dict[str, Any] = json.loads(RESULTS.read_text()) if RESULTS.is_file() else {}
    key = args.key if args.seed_base is None else f"{args.key}@{args.seed_base}"
    counts = {
        "visible": sum(s.source == "visible" for s in samples),
        "template": sum(s.source == "template" for s in samples),
        "grammar": sum(s.source == "grammar" for s in samples),
        "groups": len({s.group for s in samples}),
        "command": "python -m benchmarks.invoices_cv " + " ".join(argv or sys.argv[1:]),
    }
    if args.seed_base is None:
        report["samples"] = counts
    rules = report.setdefault(key, {"samples": counts} if args.seed_base is not None else {})
    for mode in modes:
        models = {} if args.key == "rules" else None
        predictions = {d.sample.id: rules_prediction(d.layouts, models) for d in documents[mode]}
        rules[mode] = evaluate(documents[mode], predictions, verbose=args.verbose, label="rules")
        print_report(f"{key} {mode}", rules[mode])
    if args.sources:  # a partial run does not replace the recorded figures
        return 0
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(report, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
