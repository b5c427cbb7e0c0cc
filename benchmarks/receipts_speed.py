"""Receipt tool speed and memory on one core: CPU seconds per image (``time.process_time``,
one process, ``OMP_THREAD_LIMIT=1``, onnxruntime one intra-op thread) of the receipt tool
(``ReceiptEngine``, German + English, as a worker runs it) on the visible German receipts
(300-dpi flatbed scans, 2,800-3,500 px long), a sample of the SROIE training pool's photos and
the visible SROIE receipts, and the worker's peak RSS.

Each variant runs in a fresh child process, one after the other (measure before and after
back to back: the machine is shared, CPU time moves less than wall time but still moves).
The first image is read once before timing (model loading is left out). ``--models both``
times RapidOCR's derived models (``engines/data/rapid_*.onnx``, ``training/rapid_models.py``)
next to the wheel's own (``DOCAI_RAPID_MODELS=wheel``).

    OMP_THREAD_LIMIT=1 python -m benchmarks.receipts_speed [--models derived|wheel|both]
        [--sroie 20] [--no-visible-sroie]

Goal (issue #14): receipt <= 3 s per image on one core, peak RSS <= 1.2 GB. Writes
``benchmarks/results/receipts_speed.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from benchmarks.receipts import corpus_dir

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"


def images(sroie: int, visible_sroie: bool) -> dict[str, list[Path]]:
    """The timed images per group: visible German receipts, every k-th pool photo (sorted by
    id, ``sroie`` of them), the visible SROIE receipts."""
    corpus = corpus_dir()
    groups: dict[str, list[Path]] = {}
    manifest = corpus / "manifest.json"
    if manifest.is_file():
        docs = [
            d
            for d in json.loads(manifest.read_text())["documents"]
            if "receipt_extraction" in d["tasks"]
        ]
        groups["german_visible"] = [corpus / d["file"] for d in docs if d["lang"] == "de"]
        if visible_sroie:
            groups["sroie_visible"] = [corpus / d["file"] for d in docs if d["lang"] == "en"]
    pool = corpus / "train" / "sroie" / "manifest.json"
    if pool.is_file() and sroie:
        rows = sorted(
            (r for r in json.loads(pool.read_text())["receipts"] if r.get("image")),
            key=lambda r: r["id"],
        )
        step = max(1, len(rows) // sroie)
        groups["sroie_pool"] = [pool.parent / r["image"] for r in rows[::step][:sroie]]
    return {name: paths for name, paths in groups.items() if paths}


def child(groups: dict[str, list[str]]) -> dict[str, Any]:
    """In this process: the receipt tool on every image, CPU seconds each, RSS, peak RSS."""
    from prefect_docai.engines.pluginspec import EngineOptions
    from prefect_docai.engines.receipt import ReceiptEngine

    engine = ReceiptEngine()
    options = EngineOptions(languages=("deu", "eng"))
    first = next(iter(groups.values()))[0]
    engine.run(Path(first).read_bytes(), options)  # loads the models
    page = os.sysconf("SC_PAGE_SIZE")
    out: dict[str, Any] = {}
    for name, paths in groups.items():
        cpu: list[float] = []
        for path in paths:
            data = Path(path).read_bytes()
            started = time.process_time()
            engine.run(data, options)
            cpu.append(time.process_time() - started)
        out[name] = cpu
    with open("/proc/self/statm") as statm:
        rss = int(statm.read().split()[1]) * page / 2**20
    out["rss_mb_after"] = rss
    out["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return out


def run_variant(models: str, groups: dict[str, list[Path]]) -> dict[str, Any]:
    env = {**os.environ, "OMP_THREAD_LIMIT": "1"}
    if models == "wheel":
        env["DOCAI_RAPID_MODELS"] = "wheel"
    else:
        env.pop("DOCAI_RAPID_MODELS", None)
    payload = json.dumps({k: [str(p) for p in v] for k, v in groups.items()})
    result = subprocess.run(
        [sys.executable, "-m", "benchmarks.receipts_speed", "--child"],
        input=payload,
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
        env=env,
    )
    raw = json.loads(result.stdout.strip().splitlines()[-1])
    report: dict[str, Any] = {"models": models}
    for name in groups:
        cpu = sorted(raw[name])
        report[name] = {
            "images": len(cpu),
            "cpu_s_per_image_mean": round(statistics.mean(cpu), 2),
            "cpu_s_per_image_max": round(cpu[-1], 2),
        }
    report["peak_rss_mb"] = round(raw["peak_rss_mb"], 1)
    report["rss_mb_after"] = round(raw["rss_mb_after"], 1)
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--models", choices=("derived", "wheel", "both"), default="derived")
    parser.add_argument("--sroie", type=int, default=20, help="SROIE pool photos timed")
    parser.add_argument("--no-visible-sroie", action="store_true")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(child(json.loads(sys.stdin.read()))))
        return 0
    groups = images(args.sroie, not args.no_visible_sroie)
    if not groups:
        print(f"no corpus at {corpus_dir()} (set DOCAI_CORPUS): skipped")
        return 0
    variants = ("wheel", "derived") if args.models == "both" else (args.models,)
    reports = []
    for models in variants:
        report = run_variant(models, groups)
        reports.append(report)
        print(json.dumps(report), flush=True)
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "receipts_speed.json").write_text(
        json.dumps(
            {
                "variants": reports,
                "note": "CPU seconds per image (time.process_time), one process per variant, "
                "one thread, models loaded before timing; the machine is shared, so compare "
                "variants of one run",
            },
            indent=2,
        )
        + "\n"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
