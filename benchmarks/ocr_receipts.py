"""Receipt OCR on the SROIE training pool: the receipt tool's Tesseract reading next to
RapidOCR (PP-OCRv4 det/rec, ONNX, ``rapidocr_onnxruntime``) alone and combined with it
line by line by confidence.

Truth: the pool's ``box/*.csv`` annotated lines (``../shared/corpus/train/sroie/``, the 240
receipts with an image), put in reading order by :func:`benchmarks.ocr.row_major`. Every
engine's lines go through the same function, and CER / word F1 are
:class:`benchmarks.ocr.Score`'s (case-folded, whitespace collapsed, words as multisets).

* ``receipt``  — the receipt tool's page words (German + English, ``receipt_views``), read
  from :mod:`benchmarks.receipts_cv`'s OCR cache (OCR'd there when missing);
* ``rapid``    — RapidOCR, one ONNX thread, CJK characters dropped (SROIE's lines leave the
  Chinese print out; the receipt tool reads German and English). PP-OCR's recognizer
  often drops the space between Latin words ("ABCHOTRADING"), so a line is also split
  between two characters where the line's crop has a blank column run at least ``gap``
  line heights wide between their centres and the centres are more than ``pitch`` times
  the line's median character pitch apart (``rapid@gap/pitch``; ``99`` = the
  recognizer's own spaces only);
* ``rapid+tsp`` — RapidOCR's characters with Tesseract's word boundaries as well: each
  RapidOCR line is aligned (edit operations, case-folded) with the Tesseract words inside
  its box and split where those start a word;
* ``tess+rapid`` / ``rapid+tess`` / ``tess+rapid+tsp`` —
  :func:`prefect_docai.engines.page.ocr.merge_readings` of the two readings line by line
  by confidence (the first named is the first reading).

The free parameters (the gap ratio, which reading comes first) are chosen on one fold of
the pool and scored on the other (folds by merchant, so one seller's receipts never sit on
both sides); both directions are reported.

RapidOCR runs in a child process (its results cached in
``~/.cache/docai-bench/rapid-ocr/<package version>/<image sha256>.json``), which reports
seconds per image and its peak RSS.

    OMP_THREAD_LIMIT=1 python -m benchmarks.ocr_receipts [--limit N] [--cached-only] [--timing N]
        [--engine auto] [--tesseract-version KEY] [--engine-resources N]

RapidOCR (``rapidocr_onnxruntime``, ``requirements/rapidocr.txt``) is installed by ``make
setup`` (with ``--no-deps``: its wheel asks for ``opencv-python``, whose ``cv2/`` would
clash with the project's ``opencv-contrib-python-headless``); the benchmark exits without a
result where it is missing. The page loader's own RapidOCR reading
(``engines/page/rapid.py``, with the learned space scorer) is scored by ``--engine``.

Writes ``benchmarks/results/ocr_receipts.json``.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import itertools
import json
import os
import resource
import statistics
import subprocess
import sys
import time
import zlib
from pathlib import Path
from typing import Any

from benchmarks.ocr import Score, row_major
from benchmarks.receipts_cv import cache_root, cached_pages, corpus_dir, merchant_key
from prefect_docai.engines.page.rapid import _cjk, ink_gaps

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"
os.environ.setdefault("OMP_THREAD_LIMIT", "1")

SPLITS = (*((g, p) for g in (0.15, 0.2, 0.3) for p in (1.15, 1.3, 1.45)), (99.0, 0.0))
"""Candidate word splits: (blank run width / line height, centre distance / median pitch)."""


# --- samples -----------------------------------------------------------------------------


def pool(limit: int = 0, *, with_image: bool = True) -> list[dict[str, Any]]:
    """The pool's receipts with an image (all annotated ones: ``with_image=False``, the
    image then ``None`` where there is none): id, image path, annotated lines, reference
    text, fold (0/1, by merchant)."""
    base = corpus_dir() / "train" / "sroie"
    manifest = json.loads((base / "manifest.json").read_text())
    rows = []
    for row in sorted(manifest["receipts"], key=lambda r: r["id"]):
        if (with_image and not row.get("image")) or not row.get("box"):
            continue
        lines = []
        with (base / row["box"]).open(newline="", encoding="utf-8", errors="replace") as handle:
            for cells in csv.reader(handle):
                if len(cells) < 9:
                    continue
                xs = [float(v) for v in cells[0:8:2]]
                ys = [float(v) for v in cells[1:8:2]]
                lines.append(
                    {"bbox": [min(xs), min(ys), max(xs), max(ys)], "text": ",".join(cells[8:])}
                )
        key = json.loads((base / row["key"]).read_text())
        fold = zlib.crc32(merchant_key(key.get("company")).encode()) % 2
        rows.append(
            {
                "id": row["id"],
                "image": base / row["image"] if row.get("image") else None,
                "reference": row_major(lines),
                "lines": lines,
                "fold": fold,
            }
        )
    return rows[:limit] if limit else rows


# --- RapidOCR (child process, cached) ----------------------------------------------------


def rapid_version() -> str:
    from importlib.metadata import version

    from prefect_docai.engines.page.rapid import REC_MIN_WIDTH

    # The recognizer's input floor changes what it reads: another floor, another cache.
    return f"rapidocr_onnxruntime-{version('rapidocr_onnxruntime')}-rec{REC_MIN_WIDTH}"


def rapid_cache(data: bytes) -> Path:
    return (
        cache_root().parent
        / "rapid-ocr"
        / rapid_version()
        / f"{hashlib.sha256(data).hexdigest()}.json"
    )


def frames_cache(data: bytes) -> Path:
    """Where the recognizer's frames of :func:`rapid_cache`'s lines are kept (``.npz``)."""
    return rapid_cache(data).with_suffix(".frames.npz")


def write_frames(path: Path, result: Any, recorded: Any) -> None:
    """The :class:`~prefect_docai.engines.page.ctc.Frames` of each line of ``result`` (as
    :func:`prefect_docai.engines.page.rapid.with_frames` pairs them; none where they do
    not pair) as one ``.npz``."""
    import numpy as np

    from prefect_docai.engines.page.rapid import with_frames

    lines = with_frames(result, recorded)
    arrays: dict[str, Any] = {}
    for i, line in enumerate(lines):
        frames = line[6] if len(line) > 6 else None
        if frames is None:
            continue
        arrays[f"log_probs_{i}"] = frames.log_probs
        arrays[f"spans_{i}"] = np.asarray(frames.spans, dtype=np.int32).reshape(-1, 2)
        arrays.setdefault("classes", np.asarray(frames.classes))  # one recognizer's, shared
    arrays["meta"] = np.asarray(
        json.dumps([[str(line[1]), float(line[2])] for line in lines], ensure_ascii=False)
    )
    with path.open("wb") as handle:
        np.savez_compressed(handle, **arrays)


def read_frames(data: bytes) -> list[Any] | None:
    """The frames :func:`write_frames` kept for the image ``data``, one per cached line
    (``None`` for a line without), or ``None`` when none are cached."""
    import numpy as np

    from prefect_docai.engines.page.ctc import Frames

    path = frames_cache(data)
    if not path.is_file():
        return None
    with np.load(path) as arrays:
        meta = json.loads(str(arrays["meta"]))
        classes = tuple(str(c) for c in arrays["classes"]) if "classes" in arrays else ()
        out: list[Any] = []
        for i, (text, score) in enumerate(meta):
            if f"log_probs_{i}" not in arrays:
                out.append(None)
                continue
            out.append(
                Frames(
                    log_probs=arrays[f"log_probs_{i}"],
                    classes=classes,
                    spans=tuple((int(a), int(b)) for a, b in arrays[f"spans_{i}"]),
                    text=text,
                    score=score,
                )
            )
    return out


def rapid_child(paths: list[str], *, timing: bool = False) -> None:
    """OCR each image not cached yet (``timing``: each image, nothing cached); print wall
    and CPU seconds per image and the peak RSS (MB)."""
    from rapidocr_onnxruntime import RapidOCR

    from prefect_docai.engines.page.ctc import FrameRecorder
    from prefect_docai.engines.page.rapid import narrow_recognizer

    engine = RapidOCR(intra_op_num_threads=1, inter_op_num_threads=1)
    narrow_recognizer(engine.text_rec)
    engine.text_rec = FrameRecorder(engine.text_rec)
    seconds: list[float] = []
    cpu: list[float] = []
    for name in paths:
        data = Path(name).read_bytes()
        target = rapid_cache(data)
        if timing:
            started, cpu_started = time.perf_counter(), time.process_time()
            engine(data, return_word_box=True)
            seconds.append(time.perf_counter() - started)
            cpu.append(time.process_time() - cpu_started)
            continue
        if target.is_file() and frames_cache(data).is_file():
            continue
        started = time.perf_counter()
        result, _ = engine(data, return_word_box=True)
        elapsed = time.perf_counter() - started
        seconds.append(elapsed)
        lines = reading_lines(result)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps({"seconds": elapsed, "lines": lines}))
        write_frames(frames_cache(data), result or [], engine.text_rec.last)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        json.dumps(
            {"images": len(seconds), "seconds": seconds, "cpu": cpu, "peak_rss_mb": round(peak, 1)}
        )
    )


def reading_lines(result: Any) -> list[dict[str, Any]]:
    """RapidOCR's result (``return_word_box=True``) as JSON-able lines with character boxes."""
    return [
        {
            "box": [[float(v) for v in p] for p in r[0]],
            "text": r[1],
            "confidence": r[2],
            "chars": r[4] if len(r) > 4 else [],
            "char_conf": r[5] if len(r) > 5 else [],
            "char_boxes": (
                [[[float(v) for v in p] for p in b] for b in r[3]] if len(r) > 3 and r[3] else []
            ),
        }
        for r in (result or [])
    ]


def engine_child(paths: list[str]) -> None:
    """The receipt tool (as a worker runs it, ``DOCAI_OCR_ENGINE`` as set) on each image in
    this one process: wall and CPU seconds per image, the resident set after each image
    and the peak (MB)."""
    from prefect_docai.engines.pluginspec import EngineOptions
    from prefect_docai.engines.receipt import ReceiptEngine

    engine = ReceiptEngine()
    page = os.sysconf("SC_PAGE_SIZE")
    walls, cpus, rss = [], [], []
    for name in paths:
        data = Path(name).read_bytes()
        started, cpu_started = time.perf_counter(), time.process_time()
        engine.run(data, EngineOptions(languages=("deu", "eng")))
        walls.append(time.perf_counter() - started)
        cpus.append(time.process_time() - cpu_started)
        with open("/proc/self/statm") as statm:
            rss.append(int(statm.read().split()[1]) * page / 2**20)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"seconds": walls, "cpu": cpus, "rss_mb": rss, "peak_rss_mb": peak}))


def engine_resources(images: list[Path], engine: str) -> dict[str, Any]:
    """:func:`engine_child` in a fresh process with ``DOCAI_OCR_ENGINE=engine``."""
    result = subprocess.run(
        [sys.executable, "-m", "benchmarks.ocr_receipts", "--engine-child", *map(str, images)],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
        env={**os.environ, "DOCAI_OCR_ENGINE": engine, "OMP_THREAD_LIMIT": "1"},
    )
    child = json.loads(result.stdout.strip().splitlines()[-1])
    ordered = sorted(child["cpu"])
    return {
        "engine": engine,
        "images": len(child["cpu"]),
        "cpu_s_per_image_mean": round(statistics.mean(child["cpu"]), 2),
        "cpu_s_per_image_p95": round(ordered[int(0.95 * (len(ordered) - 1))], 2),
        "cpu_s_per_image_max": round(ordered[-1], 2),
        "wall_s_per_image_mean": round(statistics.mean(child["seconds"]), 2),
        "rss_mb_after_first": round(child["rss_mb"][0], 1),
        "rss_mb_after_last": round(child["rss_mb"][-1], 1),
        "peak_rss_mb": round(child["peak_rss_mb"], 1),
        "note": "one process, model loading included in the first image; CPU seconds are "
        "what one core needs (wall time depends on the shared machine)",
    }


def time_rapid(images: list[Path]) -> dict[str, Any]:
    """RapidOCR on ``images`` in a fresh child (model loading excluded, nothing cached)."""
    result = subprocess.run(
        [sys.executable, "-m", "benchmarks.ocr_receipts", "--time-child", *map(str, images)],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    child = json.loads(result.stdout.strip().splitlines()[-1])
    return {
        "images": child["images"],
        "wall_s_per_image_mean": round(statistics.mean(child["seconds"]), 2),
        "cpu_s_per_image_mean": round(statistics.mean(child["cpu"]), 2),
        "cpu_s_per_image_max": round(max(child["cpu"]), 2),
        "peak_rss_mb": child["peak_rss_mb"],
    }


def run_rapid(images: list[Path]) -> dict[str, Any]:
    missing = [
        str(p)
        for p in images
        if not (rapid_cache(p.read_bytes()).is_file() and frames_cache(p.read_bytes()).is_file())
    ]
    if not missing:
        return {"images": 0, "seconds": [], "peak_rss_mb": None}
    result = subprocess.run(
        [sys.executable, "-m", "benchmarks.ocr_receipts", "--rapid-child", *missing],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    return dict(json.loads(result.stdout.strip().splitlines()[-1]))


# --- readings as pixel lines -------------------------------------------------------------

Word = tuple[str, tuple[float, float, float, float], float, int]
"""text, pixel box, confidence 0..1, line id."""


def rapid_words(data: bytes, gap: float, gray: Any = None, pitch_ratio: float = 0.0) -> list[Word]:
    """RapidOCR's lines as words: split at the recognizer's spaces and, with ``gray`` (the
    image), at blank column runs at least ``gap`` line heights wide between two characters
    more than ``pitch_ratio`` median pitches apart; CJK characters dropped."""
    lines = json.loads(rapid_cache(data).read_text())["lines"]
    return split_lines(lines, gap, gray, pitch_ratio)


def split_lines(
    lines: list[dict[str, Any]],
    gap: float,
    gray: Any = None,
    pitch_ratio: float = 0.0,
    spacing: list[Word] | None = None,
) -> list[Word]:
    """:func:`rapid_words` of lines in :func:`reading_lines`' form. With ``spacing`` (another
    reading of the page, Tesseract's), a line is also split where that reading of the same
    stretch has a word boundary (the characters aligned by edit operations)."""
    words: list[Word] = []
    for line_id, line in enumerate(lines):
        chars, boxes, confs = line["chars"], line["char_boxes"], line["char_conf"]
        xs = [p[0] for p in line["box"]]
        ys = [p[1] for p in line["box"]]
        line_box = (min(xs), min(ys), max(xs), max(ys))
        if not chars or len(chars) != len(boxes):
            for token in line["text"].split():
                token = "".join(c for c in token if not _cjk(c))
                if token:
                    words.append((token, line_box, float(line["confidence"]), line_id))
            continue
        cuts = ink_gaps(gray, line_box, gap) if gray is not None and gap < 90 else []
        centres = [sum(p[0] for p in b) / 4 for b in boxes]
        steps = [b - a for a, b in itertools.pairwise(centres)]
        pitch = statistics.median(steps) if steps else 0.0
        borrowed = _borrowed_spaces(chars, line_box, spacing) if spacing else set()
        groups: list[list[int]] = [[]]
        for i, char in enumerate(chars):
            if char == " " or _cjk(char):
                groups.append([])
                continue
            last = groups[-1][-1] if groups[-1] else None
            if last is not None and (
                i in borrowed
                or (
                    any(centres[last] < c < centres[i] for c in cuts)
                    and centres[i] - centres[last] > pitch_ratio * pitch
                )
            ):
                groups.append([])
            groups[-1].append(i)
        for group in groups:
            if not group:
                continue
            gx = [p[0] for i in group for p in boxes[i]]
            gy = [p[1] for i in group for p in boxes[i]]
            conf = sum(float(confs[i]) for i in group) / len(group) if confs else 0.0
            words.append(
                (
                    "".join(chars[i] for i in group),
                    (min(gx), min(gy), max(gx), max(gy)),
                    conf,
                    line_id,
                )
            )
    return words


def _borrowed_spaces(
    chars: list[str], box: tuple[float, float, float, float], spacing: list[Word]
) -> set[int]:
    """Indexes of ``chars`` before which the other reading starts a word."""
    from rapidfuzz.distance import Levenshtein

    x0, y0, x1, y1 = box
    inside = sorted(
        (
            w
            for w in spacing
            if y0 <= (w[1][1] + w[1][3]) / 2 <= y1 and x0 <= (w[1][0] + w[1][2]) / 2 <= x1
        ),
        key=lambda w: w[1][0],
    )
    if len(inside) < 2:
        return set()
    other = ""
    starts: set[int] = set()
    for word in inside:
        if other:
            starts.add(len(other))
        other += word[0].upper()
    positions = [i for i, c in enumerate(chars) if c != " " and not _cjk(c)]
    mine = "".join(chars[i] for i in positions).upper()
    result: set[int] = set()
    for tag, a0, a1, b0, b1 in Levenshtein.opcodes(mine, other):
        if tag in ("equal", "replace") and a1 - a0 == b1 - b0:
            result.update(positions[a0 + k] for k in range(a1 - a0) if b0 + k in starts)
    return result


TESSERACT_VERSION: str | None = None
"""``benchmarks.receipts_cv`` cache key of the Tesseract reading (``--tesseract-version``;
default: the key of the current sources with ``DOCAI_OCR_ENGINE=tesseract``)."""


def engine_version(engine: str) -> str:
    """``benchmarks.receipts_cv``'s cache key of the receipt tool's reading with the page
    loader set to ``engine``."""
    from benchmarks.receipts_cv import ocr_version

    saved = os.environ.get("DOCAI_OCR_ENGINE")
    os.environ["DOCAI_OCR_ENGINE"] = engine
    try:
        return ocr_version()
    finally:
        if saved is None:
            del os.environ["DOCAI_OCR_ENGINE"]
        else:
            os.environ["DOCAI_OCR_ENGINE"] = saved


def tesseract_words(data: bytes, size: tuple[int, int], version: str | None = None) -> list[Word]:
    """The receipt tool's page words (cached; Tesseract unless ``version`` names another
    reading), boxes back in pixels of the image."""
    width, height = size
    words: list[Word] = []
    if version is None:
        version = TESSERACT_VERSION or engine_version("tesseract")
    for page in cached_pages(data, version):
        for text, b, conf, line, _block, _fs, _pg in page["words"]:
            words.append(
                (
                    text,
                    (b[0] * width, b[1] * height, b[2] * width, b[3] * height),
                    float(conf),
                    int(line),
                )
            )
    return words


def text_of(words: list[Word]) -> str:
    lines: dict[int, list[Word]] = {}
    for word in words:
        lines.setdefault(word[3], []).append(word)
    items = []
    for members in lines.values():
        members.sort(key=lambda w: w[1][0])
        box = [
            min(w[1][0] for w in members),
            min(w[1][1] for w in members),
            max(w[1][2] for w in members),
            max(w[1][3] for w in members),
        ]
        items.append({"bbox": box, "text": " ".join(w[0] for w in members)})
    return row_major(items)


def combine(first: list[Word], other: list[Word]) -> list[Word]:
    from prefect_docai.engines.page.ocr import OcrWord, merge_readings

    merged = merge_readings(
        [OcrWord(t, b, c, ln, 0) for t, b, c, ln in first],
        [OcrWord(t, b, c, ln, 1) for t, b, c, ln in other],
    )
    return [(w.text, w.box, w.confidence, w.line) for w in merged]


def fields(
    rows: list[dict[str, Any]],
    readings: dict[str, dict[str, tuple[list[Word], tuple[int, int]]]],
    name: str,
    *,
    visible: bool = False,
    shipped: bool = False,
) -> dict[str, Any]:
    """The receipt rules (no learned scorer: those were fitted on this pool; ``shipped``:
    the engine as packaged) on ``name``'s words, scored strictly as
    :mod:`benchmarks.receipts_cv` does, against the pool's (``visible``: the visible
    receipts') keys."""
    from benchmarks.receipts_cv import (
        Tally,
        layouts_of,
        pool_samples,
        predicted,
        rules_extractor,
        shipped_extractor,
        strict,
        visible_samples,
    )

    samples = visible_samples() if visible else pool_samples()
    truth = {s.id: s.truth for s in samples}
    extractor = shipped_extractor() if shipped else rules_extractor()
    tally = Tally(strict)
    for row in rows:
        words, (width, height) = readings[row["id"]][name]
        page = {
            "number": 1,
            "aspect": width / height,
            "source": "ocr",
            "words": [
                [t, [b[0] / width, b[1] / height, b[2] / width, b[3] / height], c, ln, 0, None, 1]
                for t, b, c, ln in words
            ],
        }
        tally.add(truth[row["id"]], predicted(extractor(layouts_of([page]))))
    return tally.report()


def visible_fields(report: dict[str, Any], table: dict[str, Any]) -> dict[str, Any]:
    """Fields of the visible receipts (in-sample for the rules, held out for the learned
    scorers and for every choice made here) with each family's variant of lowest pool CER."""
    import numpy as np
    from PIL import Image

    from benchmarks.receipts_cv import visible_samples

    samples = visible_samples()
    run_rapid([s.image for s in samples])
    chosen = {
        family: min(
            (v for v in table if v.startswith(family + "@")), key=lambda v: table[v]["all"]["cer"]
        )
        for family in ("rapid+tsp", "tess+rapid+tsp")
    }
    readings: dict[str, dict[str, tuple[list[Word], tuple[int, int]]]] = {}
    for sample in samples:
        data = sample.image.read_bytes()
        with Image.open(sample.image) as image:
            size = image.size
            gray = np.asarray(image.convert("L"))
        tess = tesseract_words(data, size)
        lines = json.loads(rapid_cache(data).read_text())["lines"]
        kept = readings.setdefault(sample.id, {"receipt": (tess, size)})
        for family, variant in chosen.items():
            gap, pitch = (float(v) for v in variant.split("@")[1].split("/"))
            words = split_lines(lines, gap, gray, pitch, spacing=tess)
            if family.startswith("tess+"):
                words = combine(tess, words)
            kept[variant] = (words, size)
    rows = [{"id": s.id} for s in samples]
    out: dict[str, Any] = {}
    for name in ("receipt", *chosen.values()):
        out[f"{name} rules"] = fields(rows, readings, name, visible=True)
        out[f"{name} shipped"] = fields(rows, readings, name, visible=True, shipped=True)
    return out


# --- main --------------------------------------------------------------------------------


def score(rows: list[dict[str, Any]], texts: dict[str, str]) -> Score:
    total = Score()
    for row in rows:
        total.add(row["id"], texts[row["id"]], row["reference"], 0.0, casefold=True)
    return total


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--limit", type=int, default=0)
    parser.add_argument(
        "--cached-only", action="store_true", help="score only images RapidOCR has read already"
    )
    parser.add_argument(
        "--timing", type=int, default=0, help="CPU seconds and RSS of RapidOCR on N images"
    )
    parser.add_argument(
        "--visible",
        action="store_true",
        help="also the visible receipts' fields with the variants chosen on the whole pool",
    )
    parser.add_argument(
        "--engine",
        action="append",
        default=[],
        choices=("auto", "rapid"),
        help="also the receipt tool's own reading with DOCAI_OCR_ENGINE set so (cached by "
        "benchmarks.receipts_cv --ocr-engine; read there when missing)",
    )
    parser.add_argument(
        "--tesseract-version",
        help="receipts_cv cache key of the Tesseract reading (default: current sources)",
    )
    parser.add_argument(
        "--engine-resources",
        type=int,
        default=0,
        help="the receipt tool with DOCAI_OCR_ENGINE=auto on N pool images in one child "
        "process: CPU s per image, RSS growth and peak",
    )
    parser.add_argument("--engine-child", nargs="*", help=argparse.SUPPRESS)
    parser.add_argument("--rapid-child", nargs="*", help=argparse.SUPPRESS)
    parser.add_argument("--time-child", nargs="*", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.rapid_child is not None:
        rapid_child(args.rapid_child)
        return 0
    if args.time_child is not None:
        rapid_child(args.time_child, timing=True)
        return 0
    if args.engine_child is not None:
        engine_child(args.engine_child)
        return 0
    import importlib.util

    import numpy as np
    from PIL import Image

    if importlib.util.find_spec("rapidocr_onnxruntime") is None:
        print(
            "rapidocr_onnxruntime is not installed (pip install rapidocr_onnxruntime==1.4.4 "
            "onnxruntime==1.32.0); skipped",
            file=sys.stderr,
        )
        return 0
    if not (corpus_dir() / "train" / "sroie" / "manifest.json").exists():
        print(f"training pool not found under {corpus_dir()}; set DOCAI_CORPUS", file=sys.stderr)
        return 0
    global TESSERACT_VERSION
    TESSERACT_VERSION = args.tesseract_version or engine_version("tesseract")
    engines = {name: engine_version(name) for name in args.engine}
    rows = pool(args.limit)
    if args.cached_only:
        rows = [r for r in rows if rapid_cache(r["image"].read_bytes()).is_file()]
    started = time.perf_counter()
    child = run_rapid([row["image"] for row in rows])
    print(
        f"rapid: {child['images']} images OCR'd in {time.perf_counter() - started:.0f} s, "
        f"peak RSS {child['peak_rss_mb']} MB",
        flush=True,
    )
    texts: dict[str, dict[str, str]] = {}
    readings: dict[str, dict[str, tuple[list[Word], tuple[int, int]]]] = {}
    seconds = []
    for row in rows:
        data = row["image"].read_bytes()
        with Image.open(row["image"]) as image:
            size = image.size
            gray = np.asarray(image.convert("L"))
        seconds.append(json.loads(rapid_cache(data).read_text())["seconds"])
        tess = tesseract_words(data, size)
        out = texts.setdefault(row["id"], {})
        out["receipt"] = text_of(tess)
        kept = readings.setdefault(row["id"], {})
        kept["receipt"] = (tess, size)
        for name, version in engines.items():
            words = tesseract_words(data, size, version)
            out[f"engine:{name}"] = text_of(words)
            kept[f"engine:{name}"] = (words, size)
        cached_lines = json.loads(rapid_cache(data).read_text())["lines"]
        for gap, pitch in SPLITS:
            rapid = rapid_words(data, gap, gray, pitch)
            spaced = split_lines(cached_lines, gap, gray, pitch, spacing=tess)
            for name, words in (
                (f"rapid+tsp@{gap}/{pitch}", spaced),
                (f"tess+rapid+tsp@{gap}/{pitch}", combine(tess, spaced)),
            ):
                out[name] = text_of(words)
                kept[name] = (words, size)
            for name, words in (
                (f"rapid@{gap}/{pitch}", rapid),
                (f"tess+rapid@{gap}/{pitch}", combine(tess, rapid)),
                (f"rapid+tess@{gap}/{pitch}", combine(rapid, tess)),
            ):
                out[name] = text_of(words)
                kept[name] = (words, size)
    variants = list(next(iter(texts.values())))
    folds = {f: [r for r in rows if r["fold"] == f] for f in (0, 1)}
    table: dict[str, dict[str, Any]] = {}
    for name in variants:
        table[name] = {}
        for label, subset in (("all", rows), ("fold0", folds[0]), ("fold1", folds[1])):
            s = score(subset, {r["id"]: texts[r["id"]][name] for r in subset})
            table[name][label] = {"cer": round(s.rate, 4), "word_f1": round(s.f1, 4), "n": s.pages}
    report: dict[str, Any] = {"images": len(rows), "variants": table, "held_out": {}}
    for tune, test in (("fold0", "fold1"), ("fold1", "fold0")):
        for family in ("rapid", "tess+rapid", "rapid+tess", "rapid+tsp", "tess+rapid+tsp"):
            best = min(
                (v for v in variants if v.startswith(family + "@")),
                key=lambda v: table[v][tune]["cer"],
            )
            report["held_out"][f"{family} tuned on {tune}"] = {
                "variant": best,
                "tuned": table[best][tune],
                "held_out": table[best][test],
                "receipt_held_out": table["receipt"][test],
            }
        best = min((v for v in variants if v != "receipt"), key=lambda v: table[v][tune]["cer"])
        report["held_out"][f"best tuned on {tune}"] = {
            "variant": best,
            "tuned": table[best][tune],
            "held_out": table[best][test],
            "receipt_held_out": table["receipt"][test],
        }
    report["fields"] = {}
    for tune, test in (("fold0", "fold1"), ("fold1", "fold0")):
        subset = folds[int(test[-1])]
        scores = {"receipt": fields(subset, readings, "receipt")}
        for name in engines:
            scores[f"engine:{name}"] = fields(subset, readings, f"engine:{name}")
        for family in ("rapid", "tess+rapid", "rapid+tess", "rapid+tsp", "tess+rapid+tsp"):
            chosen = report["held_out"][f"{family} tuned on {tune}"]["variant"]
            scores[chosen] = fields(subset, readings, chosen)
        report["fields"][f"{test} (variants chosen on {tune})"] = scores
    if args.visible:
        report["visible_fields"] = visible_fields(report, table)
        for name, result in report["visible_fields"].items():
            print(f"visible fields {name:34} micro F1 {result['micro_f1']:.4f} {result['fields']}")
    report["rapid_speed"] = {
        "seconds_per_image_mean": round(statistics.mean(seconds), 2),
        "seconds_per_image_p95": round(sorted(seconds)[int(0.95 * (len(seconds) - 1))], 2),
        "seconds_per_image_max": round(max(seconds), 2),
        "note": "one ONNX thread, wall time on a shared 2-core machine (cached runs keep the "
        "figure of the run that OCR'd the image)",
    }
    report["rapid_child_peak_rss_mb"] = child["peak_rss_mb"]
    if args.engine_resources:
        report["engine_resources"] = engine_resources(
            [row["image"] for row in rows[: args.engine_resources]], "auto"
        )
        print(f"receipt tool resources: {report['engine_resources']}")
    if args.timing:
        report["rapid_timing"] = time_rapid([row["image"] for row in rows[: args.timing]])
        print(f"rapid timing: {report['rapid_timing']}")
    print(
        f"{'variant':22}{'CER all':>9}{'F1 all':>9}{'CER f0':>9}{'CER f1':>9}"
        f"{'F1 f0':>9}{'F1 f1':>9}"
    )
    for name in variants:
        t = table[name]
        print(
            f"{name:22}{t['all']['cer']:9.4f}{t['all']['word_f1']:9.4f}"
            f"{t['fold0']['cer']:9.4f}{t['fold1']['cer']:9.4f}"
            f"{t['fold0']['word_f1']:9.4f}{t['fold1']['word_f1']:9.4f}"
        )
    print(json.dumps(report["held_out"], indent=1))
    for label, scores in report["fields"].items():
        for name, result in scores.items():
            print(f"fields {label} {name:24} micro F1 {result['micro_f1']:.4f} {result['fields']}")
    print(json.dumps(report["rapid_speed"]))
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "ocr_receipts.json").write_text(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
