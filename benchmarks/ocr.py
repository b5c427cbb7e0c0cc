"""OCR accuracy and speed: our page model (tesserocr + OSD + deskew) against the plain
``tesseract`` CLI and ``ocrmypdf`` on the same images.

Accuracy (character error rate, whitespace collapsed, case kept):
  * ``sroie``  — SROIE receipt photos/scans vs. their human line transcripts;
  * ``born``   — born-digital corpus pages rendered to 300 dpi PNG vs. their text layer
                 (``pdftotext -layout``), the page model's OCR path forced by the image.
Speed: scanned pages/s on both cores (a multi-page image-only PDF through ``IcrEngine``,
``tesseract`` with 2 parallel processes, ``ocrmypdf --jobs 2``), born-digital pages/s,
and peak RSS of ``IcrEngine`` on a long scanned PDF (child process).

``--peers receipt`` adds the receipt tool's OCR (German + English, ``receipt_views``);
``--peers rapid`` RapidOCR (``rapidocr_onnxruntime``, not a project dependency; see
``benchmarks.ocr_receipts``).

Run: ``python -m benchmarks.ocr [--subsets sroie,born] [--limit N] [--peers tesseract,ocrmypdf]
[--speed-pages N] [--rss-pages N]`` (``--rss-pages 0`` skips the RSS run; 200 is the goal size).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"
os.environ.setdefault("OMP_THREAD_LIMIT", "1")

_TESSERACT_LANG = {"de": "deu", "en": "eng", "fr": "fra", "nl": "nld"}


def corpus_dir() -> Path:
    return Path(os.environ.get("DOCAI_CORPUS", ROOT.parent / "shared" / "corpus"))


def collapse(text: str) -> str:
    return " ".join(text.split())


def cer(hypothesis: str, reference: str) -> tuple[int, int]:
    """(edit distance, reference length) on whitespace-collapsed text."""
    from rapidfuzz.distance import Levenshtein

    ref = collapse(reference)
    return Levenshtein.distance(collapse(hypothesis), ref), len(ref)


def word_f1(hypothesis: str, reference: str) -> tuple[int, int, int]:
    """(matched, hypothesis words, reference words) as multisets: order-insensitive, so
    engines that order blocks differently are compared on what they read."""
    from collections import Counter

    hyp = Counter(hypothesis.split())
    ref = Counter(reference.split())
    return sum((hyp & ref).values()), sum(hyp.values()), sum(ref.values())


def row_major(lines: list[dict[str, Any]]) -> str:
    """SROIE transcripts come in annotation order: put them in reading order (rows top to
    bottom by box centre, left to right within a row), as the engines read."""
    boxed = [(line["bbox"], line["text"]) for line in lines if line.get("bbox")]
    boxed.sort(key=lambda item: (item[0][1] + item[0][3]) / 2)
    rows: list[list[tuple[list[float], str]]] = []
    for box, text in boxed:
        centre, height = (box[1] + box[3]) / 2, box[3] - box[1]
        if rows:
            last = rows[-1][-1][0]
            if abs(centre - (last[1] + last[3]) / 2) <= 0.5 * min(height, last[3] - last[1]):
                rows[-1].append((box, text))
                continue
        rows.append([(box, text)])
    return "\n".join(" ".join(t for _, t in sorted(row, key=lambda i: i[0][0])) for row in rows)


@dataclass
class Sample:
    id: str
    image: bytes
    """PNG or JPEG bytes."""
    suffix: str
    reference: str
    languages: tuple[str, ...]
    casefold: bool = False
    """SROIE transcripts are upper case whatever the print: compare case-insensitively."""


@dataclass
class Score:
    errors: int = 0
    chars: int = 0
    matched: int = 0
    hyp_words: int = 0
    ref_words: int = 0
    seconds: float = 0.0
    pages: int = 0
    per_doc: dict[str, float] = field(default_factory=dict)

    def add(self, sample_id: str, hypothesis: str, reference: str, seconds: float,
            casefold: bool = False) -> None:
        if casefold:
            hypothesis, reference = hypothesis.upper(), reference.upper()
        errors, chars = cer(hypothesis, reference)
        self.errors += errors
        self.chars += chars
        matched, hyp, ref = word_f1(hypothesis, reference)
        self.matched += matched
        self.hyp_words += hyp
        self.ref_words += ref
        self.seconds += seconds
        self.pages += 1
        self.per_doc[sample_id] = round(errors / max(chars, 1), 4)

    @property
    def rate(self) -> float:
        return self.errors / max(self.chars, 1)

    @property
    def f1(self) -> float:
        precision = self.matched / max(self.hyp_words, 1)
        recall = self.matched / max(self.ref_words, 1)
        return 2 * precision * recall / max(precision + recall, 1e-9)

    def as_dict(self) -> dict[str, Any]:
        return {
            "cer": round(self.rate, 4),
            "word_f1": round(self.f1, 4),
            "errors": self.errors,
            "chars": self.chars,
            "pages": self.pages,
            "seconds_per_page": round(self.seconds / max(self.pages, 1), 3),
            "per_doc": self.per_doc,
        }


# --- samples ---------------------------------------------------------------------------


def sroie_samples(corpus: Path, limit: int) -> list[Sample]:
    manifest = json.loads((corpus / "manifest.json").read_text())
    samples = []
    for doc in manifest["documents"]:
        if "SROIE" not in doc["source"]["repo"] or not doc.get("ocr_gt"):
            continue
        truth = json.loads((corpus / doc["ocr_gt"]["file"]).read_text())
        lines = [line for page in truth["pages"] for line in page.get("lines", [])]
        samples.append(Sample(doc["id"], (corpus / doc["file"]).read_bytes(), ".jpg",
                              row_major(lines), ("eng",), casefold=True))
    return samples[:limit] if limit else samples


def born_samples(corpus: Path, limit: int) -> list[Sample]:
    """Born-digital pages rendered at 300 dpi (grayscale PNG) with their text-layer truth."""
    import pypdfium2 as pdfium

    manifest = json.loads((corpus / "manifest.json").read_text())
    samples: list[Sample] = []
    for doc in manifest["documents"]:
        quality = (doc.get("ocr_gt") or {}).get("quality")
        if quality != "pdf_text_layer":
            continue
        truth = json.loads((corpus / doc["ocr_gt"]["file"]).read_text())
        pdf = pdfium.PdfDocument((corpus / doc["file"]).read_bytes())
        languages = tuple(dict.fromkeys((_TESSERACT_LANG.get(doc["lang"], "eng"), "eng")))
        for page in truth["pages"]:
            reference = page.get("text", "")
            if len(collapse(reference)) < 20:
                continue
            bitmap = pdf[page["page"] - 1].render(scale=300 / 72, grayscale=True)
            image = bitmap.to_pil().convert("L")
            bitmap.close()
            buffer = io.BytesIO()
            image.save(buffer, format="PNG", dpi=(300, 300))
            samples.append(Sample(f"{doc['id']}#{page['page']}", buffer.getvalue(), ".png",
                                  reference, languages))
            if limit and len(samples) >= limit:
                pdf.close()
                return samples
        pdf.close()
    return samples


# --- engines ---------------------------------------------------------------------------


def ours(sample: Sample) -> str:
    from prefect_docai.engines.page.document import load_document

    with load_document(sample.image, languages=sample.languages) as document:
        return document.text()


def receipt(sample: Sample) -> str:
    """The page model as ToolReceipt reads a page: German + English, receipt views."""
    from prefect_docai.engines.page.document import load_document
    from prefect_docai.engines.receipt.engine import RECEIPT_LANGUAGES
    from prefect_docai.engines.receipt.image import receipt_views

    with load_document(sample.image, languages=RECEIPT_LANGUAGES,
                       prepare=receipt_views) as document:
        return document.text()


def tesseract_cli(sample: Sample) -> str:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"in{sample.suffix}"
        path.write_bytes(sample.image)
        result = subprocess.run(
            ["tesseract", str(path), "stdout", "-l", "+".join(sample.languages), "--dpi", "300"],
            capture_output=True, text=True, check=True, timeout=300,
            env={**os.environ, "OMP_THREAD_LIMIT": "1"},
        )
        return result.stdout


def _ocrmypdf_bin() -> str:
    local = Path(sys.executable).parent / "ocrmypdf"
    return str(local) if local.exists() else (shutil.which("ocrmypdf") or "ocrmypdf")


def ocrmypdf(sample: Sample) -> str:
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / f"in{sample.suffix}"
        source.write_bytes(sample.image)
        sidecar = Path(tmp) / "out.txt"
        subprocess.run(
            [_ocrmypdf_bin(), "-q", "--image-dpi", "300", "--output-type", "pdf", "-O", "0",
             "--jobs", "1", "-l", "+".join(sample.languages), "--sidecar", str(sidecar),
             str(source), str(Path(tmp) / "out.pdf")],
            capture_output=True, text=True, check=True, timeout=600,
            env={**os.environ, "OMP_THREAD_LIMIT": "1"},
        )
        return sidecar.read_text()


RAPID_SPLIT = (0.2, 1.3)
"""Word split of :func:`rapid` (``benchmarks.ocr_receipts``), chosen there on either fold of
the SROIE training pool; this corpus's receipts took no part in the choice."""
_rapid_local = threading.local()


def rapid(sample: Sample) -> str:
    """RapidOCR (PP-OCRv4 ONNX, one thread per engine), lines split into words and put in
    reading order as ``benchmarks.ocr_receipts`` does (needs ``rapidocr_onnxruntime``)."""
    import numpy as np
    from PIL import Image

    from benchmarks.ocr_receipts import reading_lines, split_lines, text_of

    engine = getattr(_rapid_local, "engine", None)
    if engine is None:
        from rapidocr_onnxruntime import RapidOCR

        engine = RapidOCR(intra_op_num_threads=1, inter_op_num_threads=1)
        _rapid_local.engine = engine
    result, _ = engine(sample.image, return_word_box=True)
    with Image.open(io.BytesIO(sample.image)) as image:
        gray = np.asarray(image.convert("L"))
    return text_of(split_lines(reading_lines(result), RAPID_SPLIT[0], gray, RAPID_SPLIT[1]))


ENGINES: dict[str, Callable[[Sample], str]] = {
    "ours": ours, "receipt": receipt, "tesseract": tesseract_cli, "ocrmypdf": ocrmypdf,
    "rapid": rapid,
}


def score_engine(name: str, samples: list[Sample], workers: int) -> Score:
    engine = ENGINES[name]
    score = Score()

    def one(sample: Sample) -> tuple[Sample, str, float]:
        started = time.perf_counter()
        try:
            text = engine(sample)
        except Exception as exc:  # a peer failing on one page is a result, not a crash
            print(f"  {name} failed on {sample.id}: {exc}", file=sys.stderr)
            text = ""
        return sample, text, time.perf_counter() - started

    with ThreadPoolExecutor(max_workers=workers) as pool:
        for sample, text, seconds in pool.map(one, samples):
            score.add(sample.id, text, sample.reference, seconds, sample.casefold)
    return score


# --- speed -----------------------------------------------------------------------------


def _scan_pdf(samples: Iterable[Sample]) -> bytes:
    from PIL import Image

    images = [Image.open(io.BytesIO(s.image)).convert("L") for s in samples]
    buffer = io.BytesIO()
    images[0].save(buffer, format="PDF", save_all=True, append_images=images[1:], resolution=300.0)
    return buffer.getvalue()


def _cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def speed(samples: list[Sample], peers: list[str]) -> dict[str, Any]:
    """Scanned pages/s with both cores: one multi-page image PDF per engine."""
    from prefect_docai.engines.icr.engine import IcrEngine
    from prefect_docai.engines.pluginspec import EngineOptions

    pdf = _scan_pdf(samples)
    pages = len(samples)
    results: dict[str, Any] = {"pages": pages}
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "scan.pdf"
        source.write_bytes(pdf)

        cpu, started = _cpu(), time.perf_counter()
        IcrEngine().run(pdf, EngineOptions(languages=("eng",), output_formats=("PDF", "TXT")))
        results["ours"] = _rate(pages, time.perf_counter() - started, _cpu() - cpu)

        if "tesseract" in peers:
            images = []
            for index, sample in enumerate(samples):
                path = Path(tmp) / f"p{index}{sample.suffix}"
                path.write_bytes(sample.image)
                images.append(str(path))
            cpu, started = _cpu(), time.perf_counter()
            with ThreadPoolExecutor(max_workers=2) as pool:
                list(pool.map(lambda p: subprocess.run(
                    ["tesseract", p, p + ".out", "-l", "eng", "--dpi", "300", "txt", "pdf"],
                    capture_output=True, check=True, env={**os.environ, "OMP_THREAD_LIMIT": "1"},
                ), images))
            results["tesseract"] = _rate(pages, time.perf_counter() - started, _cpu() - cpu)

        if "ocrmypdf" in peers:
            cpu, started = _cpu(), time.perf_counter()
            subprocess.run(
                [_ocrmypdf_bin(), "-q", "--output-type", "pdf", "-O", "0", "--jobs", "2", "-l",
                 "eng", str(source), str(Path(tmp) / "out.pdf")],
                capture_output=True, check=True, env={**os.environ, "OMP_THREAD_LIMIT": "1"},
            )
            results["ocrmypdf"] = _rate(pages, time.perf_counter() - started, _cpu() - cpu)
    return results


def _rate(pages: int, wall: float, cpu: float) -> dict[str, float]:
    return {"pages_per_s": round(pages / wall, 3), "wall_s": round(wall, 2),
            "cpu_s_per_page": round(cpu / pages, 3)}


def born_digital_speed(corpus: Path) -> dict[str, Any]:
    """Pages/s for text-layer pages: load + words + lines of every born-digital corpus PDF."""
    from prefect_docai.engines.page.document import load_document

    manifest = json.loads((corpus / "manifest.json").read_text())
    files = [corpus / d["file"] for d in manifest["documents"] if d["mime"] == "application/pdf"]
    datas = [path.read_bytes() for path in files]
    pages = ocr_pages = 0
    started, cpu = time.perf_counter(), time.process_time()
    for data in datas:
        with load_document(data) as document:
            for page in document.pages:
                if page.source == "text-layer":
                    _ = page.lines
                    pages += 1
                else:
                    ocr_pages += 1
    wall = time.perf_counter() - started
    cpu = time.process_time() - cpu
    # On a shared, overloaded machine wall time mostly measures the queue for the CPU;
    # pages per CPU-second is the per-core throughput.
    return {"pages": pages, "pages_per_s": round(pages / wall, 1), "wall_s": round(wall, 2),
            "pages_per_cpu_s": round(pages / max(cpu, 1e-9), 1), "cpu_s": round(cpu, 2),
            "skipped_ocr_pages": ocr_pages}


def rss_child(pages: int) -> None:
    """In a child process: OCR a ``pages``-page scanned PDF through IcrEngine, print peak RSS."""
    import numpy as np
    from PIL import Image, ImageDraw, ImageFont

    font = ImageFont.truetype("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", 42)
    with tempfile.TemporaryDirectory() as tmp:
        # Pages written one by one as JPEG inside a PDF (img2pdf-style), so the input itself
        # is not held as 200 rasters here either.
        import pikepdf

        pdf = pikepdf.new()
        rng = np.random.default_rng(0)
        for number in range(pages):
            image = Image.new("L", (2480, 3508), 255)
            draw = ImageDraw.Draw(image)
            for row in range(40):
                words = " ".join(f"w{int(v)}" for v in rng.integers(0, 99999, 8))
                draw.text((150, 150 + row * 80), f"Page {number + 1} line {row}: {words}",
                          font=font, fill=0)
            buffer = io.BytesIO()
            image.save(buffer, format="JPEG", quality=70)
            stream = pdf.make_stream(buffer.getvalue(), Type=pikepdf.Name.XObject,
                                     Subtype=pikepdf.Name.Image, Width=2480, Height=3508,
                                     ColorSpace=pikepdf.Name.DeviceGray, BitsPerComponent=8,
                                     Filter=pikepdf.Name.DCTDecode)
            page = pikepdf.Dictionary(
                Type=pikepdf.Name.Page, MediaBox=[0, 0, 595.2, 841.92],
                Resources=pikepdf.Dictionary(XObject=pikepdf.Dictionary(Im0=stream)),
                Contents=pdf.make_stream(b"q 595.2 0 0 841.92 0 0 cm /Im0 Do Q"),
            )
            pdf.pages.append(pikepdf.Page(page))
        path = Path(tmp) / "long.pdf"
        pdf.save(path)
        pdf.close()
        del pdf
        data = path.read_bytes()
    import gc

    gc.collect()
    from prefect_docai.engines.icr.engine import IcrEngine
    from prefect_docai.engines.pluginspec import EngineOptions

    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    started = time.perf_counter()
    output = IcrEngine().run(data, EngineOptions(languages=("eng",), output_formats=("PDF", "TXT")))
    wall = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({
        "pages": output.page_count, "input_mb": round(len(data) / 2**20, 1),
        "peak_rss_mb": round(peak / 1024, 1), "rss_before_run_mb": round(before / 1024, 1),
        "wall_s": round(wall, 1), "pages_per_s": round(output.page_count / wall, 3),
    }))


def rss(pages: int) -> dict[str, Any]:
    result = subprocess.run(
        [sys.executable, "-m", "benchmarks.ocr", "--rss-child", str(pages)],
        capture_output=True, text=True, check=True, cwd=ROOT, timeout=3600,
    )
    return dict(json.loads(result.stdout.strip().splitlines()[-1]))


# --- main ------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--subsets", default="sroie,born")
    parser.add_argument("--limit", type=int, default=0, help="samples per subset (0 = all)")
    parser.add_argument("--peers", default="tesseract,ocrmypdf")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--speed-pages", type=int, default=8)
    parser.add_argument("--rss-pages", type=int, default=0)
    parser.add_argument("--rss-child", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.rss_child:
        rss_child(args.rss_child)
        return 0

    corpus = corpus_dir()
    if not (corpus / "manifest.json").exists():
        print(f"corpus not found at {corpus}; set DOCAI_CORPUS", file=sys.stderr)
        return 0
    peers = [p for p in args.peers.split(",") if p]
    engines = ["ours", *peers]
    report: dict[str, Any] = {"accuracy": {}, "engines": engines}
    loaders = {"sroie": sroie_samples, "born": born_samples}
    born_for_speed: list[Sample] = []
    for subset in filter(None, args.subsets.split(",")):
        samples = loaders[subset](corpus, args.limit)
        if subset == "born":
            born_for_speed = samples
        report["accuracy"][subset] = {}
        for name in engines:
            score = score_engine(name, samples, args.workers)
            report["accuracy"][subset][name] = score.as_dict()
            print(f"{subset:6} {name:10} CER {score.rate:7.2%}  word F1 {score.f1:6.2%}  "
                  f"pages {score.pages:3}  "
                  f"{score.seconds / max(score.pages, 1):5.2f} s/page", flush=True)

    if args.speed_pages:
        pool = born_for_speed or born_samples(corpus, args.speed_pages)
        report["scan_speed"] = speed(pool[: args.speed_pages], peers)
    report["born_digital_speed"] = born_digital_speed(corpus)
    if args.rss_pages:
        report["rss"] = rss(args.rss_pages)

    print()
    print(f"{'':14}" + "".join(f"{name:>12}" for name in engines))
    for subset, scores in report["accuracy"].items():
        print(f"{subset + ' CER':14}" + "".join(f"{scores[n]['cer']:>12.2%}" for n in engines))
        print(f"{subset + ' F1':14}" + "".join(f"{scores[n]['word_f1']:>12.2%}" for n in engines))
    if "scan_speed" in report:
        speeds = report["scan_speed"]
        print(f"{'scan pages/s':14}" + "".join(
            f"{speeds[n]['pages_per_s']:>12.3f}" if n in speeds else f"{'-':>12}" for n in engines))
        print(f"{'cpu s/page':14}" + "".join(
            f"{speeds[n]['cpu_s_per_page']:>12.2f}" if n in speeds else f"{'-':>12}"
            for n in engines))
    born = report["born_digital_speed"]
    print(f"born-digital: {born['pages']} pages, {born['pages_per_s']} pages/s wall, "
          f"{born['pages_per_cpu_s']} pages per CPU-second")
    if "rss" in report:
        print(f"RSS: {report['rss']}")
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "ocr.json").write_text(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
