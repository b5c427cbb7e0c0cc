"""Table tool speed on scanned pages, one core: CPU seconds per page (``time.process_time``,
one process, ``OMP_THREAD_LIMIT=1``) of the whole table tool (``TableEngine.run`` as a
worker runs it: OCR pass, rulings, second looks, finders, models, the cell read) on
generated table scans (``samples.tables.table_page``, seeds ``0..--generated-1``) and the
visible ICDAR documents rasterized as the table benchmarks scan them
(``training.tables.scanned_copy``: their table pages, 200 dpi grey, skew, blur, noise) and,
with ``--sheets N``, generated administrative sheets (``samples.sheets.sheet_page``, seeds
``0..N-1``, scanned at 150-300 dpi): dense pages of forms, lists and tables, the slowest
scans the tool meets (``benchmarks.tables_cv`` times them at about twice the others).

``benchmarks.tables_cv`` reports seconds per page too, but from its cache of page inputs
(timed once, when the cache was filled, under whatever load the machine had then, and
without the cell read); this times every run afresh. ``--against DIR`` also times another
checkout (e.g. the main tree before a change) on the same documents, in its own process,
one after the other (``--rounds`` alternates them), and says whether the two give the same
output (tables, cells, boxes, confidences, CSV) on every document: a speed change that must
not change what the tool finds is checked by the same run that measures it.

The first document is read once before timing (models and Tesseract's English pack
loaded); a language pack first met on a later page is loaded in its time, alike for both
trees. The machine is shared: compare the trees of one run, not runs of different times.

    OMP_THREAD_LIMIT=1 python -m benchmarks.tables_speed [--generated 10] [--icdar 10]
        [--sheets 0] [--against /work/main] [--rounds 1]

Goal (issue #15): scanned <= 4 s per page on one core. Writes
``benchmarks/results/tables_speed.json``.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"


def documents(
    generated: int, icdar: int, directory: Path, sheets: int = 0
) -> dict[str, list[str]]:
    """The timed scans written to ``directory``, their paths by group."""
    from prefect_docai.samples.sheets import sheet_page
    from prefect_docai.samples.tables import table_page

    groups: dict[str, list[str]] = {"generated": [], "icdar": [], "sheets": []}
    for seed in range(generated):
        path = directory / f"gen-{seed}-scan.pdf"
        path.write_bytes(table_page(seed, scanned=True).pdf)
        groups["generated"].append(str(path))
    for seed in range(sheets):
        path = directory / f"sheet-{seed}-scan.pdf"
        path.write_bytes(sheet_page(seed, scanned=True).pdf)
        groups["sheets"].append(str(path))
    if icdar:
        from training.tables import scan_pages, scanned_copy

        from benchmarks.receipts import corpus_dir
        from benchmarks.tables import load_corpus

        corpus = corpus_dir()
        if (corpus / "manifest.json").is_file():
            manifest = json.loads((corpus / "manifest.json").read_text())
            icdar_ids = {
                e["id"] for e in manifest["documents"] if "dataset-" in e["source"]["path"]
            }
            docs = [d for d in load_corpus(corpus) if d.id in icdar_ids][:icdar]
            for doc in docs:
                path = directory / f"{doc.id}-scan.pdf"
                path.write_bytes(scanned_copy(doc, scan_pages(doc)))
                groups["icdar"].append(str(path))
    return {name: paths for name, paths in groups.items() if paths}


def child(groups: dict[str, list[str]]) -> dict[str, Any]:
    """In this process (with the sources of the tree on its path first): the table tool on
    every document, CPU seconds, pages and a digest of its output each."""
    from prefect_docai.engines.pluginspec import EngineOptions
    from prefect_docai.engines.tables.engine import TableEngine

    engine = TableEngine()
    # as the HTTP API calls the engine for an upload without languageHint
    options = EngineOptions(language_hinted=False, output_formats=("JSON", "CSV"))
    first = next(iter(groups.values()))[0]
    engine.run(Path(first).read_bytes(), options)  # loads the models and Tesseract
    out: dict[str, Any] = {}
    for name, paths in groups.items():
        rows = []
        for path in paths:
            data = Path(path).read_bytes()
            started = time.process_time()
            result = engine.run(data, options)
            seconds = time.process_time() - started
            digest = hashlib.sha256(result.result.model_dump_json().encode())
            for file in result.files:
                digest.update(_content(file.data))
            rows.append([Path(path).name, seconds, result.page_count, digest.hexdigest()])
        out[name] = rows
    return out


def _content(data: bytes) -> bytes:
    """A file's bytes, or for a ZIP (several tables' CSVs) its members' names and bytes:
    the archive itself records the time it was written."""
    if not zipfile.is_zipfile(io.BytesIO(data)):
        return data
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return b"".join(
            name.encode() + b"\0" + archive.read(name) for name in archive.namelist()
        )


def run_tree(tree: Path, groups: dict[str, list[str]]) -> dict[str, Any]:
    """:func:`child` in a fresh process on ``tree``'s sources."""
    env = {
        **os.environ,
        "OMP_THREAD_LIMIT": "1",
        "DOCAI_OCR_THREADS": "1",  # a multi-page scan's pages one after the other: one core
        "PYTHONPATH": os.pathsep.join([str(tree / "src"), str(tree)]),
    }
    result = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--child"],
        input=json.dumps(groups),
        capture_output=True,
        text=True,
        check=True,
        cwd=tree,
        env=env,
    )
    raw: dict[str, Any] = json.loads(result.stdout.strip().splitlines()[-1])
    return raw


def summary(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Per group: pages, CPU seconds per page (mean over the documents' pages, and the
    slowest document's per page), averaged over the rounds."""
    report: dict[str, Any] = {}
    for name in runs[0]:
        pages = sum(row[2] for row in runs[0][name])
        per_page = [sum(r[1] for r in run[name]) / max(pages, 1) for run in runs]
        slowest = [max(r[1] / max(r[2], 1) for r in run[name]) for run in runs]
        report[name] = {
            "documents": len(runs[0][name]),
            "pages": pages,
            "cpu_s_per_page_mean": round(statistics.mean(per_page), 2),
            "cpu_s_per_page_slowest_document": round(statistics.mean(slowest), 2),
        }
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--generated", type=int, default=10, help="generated scans timed")
    parser.add_argument("--icdar", type=int, default=10, help="visible ICDAR scans timed")
    parser.add_argument("--sheets", type=int, default=0, help="generated sheet scans timed")
    parser.add_argument("--against", type=Path, help="another checkout timed alike")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(child(json.loads(sys.stdin.read()))))
        return 0
    trees = {"this": ROOT}
    if args.against is not None:
        trees = {"against": args.against.resolve(), "this": ROOT}
    with tempfile.TemporaryDirectory(prefix="tables-speed-") as tmp:
        groups = documents(args.generated, args.icdar, Path(tmp), args.sheets)
        runs: dict[str, list[dict[str, Any]]] = {name: [] for name in trees}
        for round_ in range(args.rounds):
            order = list(trees) if round_ % 2 == 0 else list(reversed(trees))
            for name in order:
                runs[name].append(run_tree(trees[name], groups))
    report: dict[str, Any] = {
        name: {"tree": str(trees[name]), **summary(runs[name])} for name in trees
    }
    if "against" in runs:
        report["same_output"] = {
            group: sum(
                a[3] == b[3]
                for a, b in zip(runs["against"][0][group], runs["this"][0][group], strict=True)
            )
            for group in groups
        }
        report["different_output"] = [
            a[0]
            for group in groups
            for a, b in zip(runs["against"][0][group], runs["this"][0][group], strict=True)
            if a[3] != b[3]
        ]
    print(json.dumps(report, indent=2))
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "tables_speed.json").write_text(
        json.dumps(
            {
                **report,
                "note": "CPU seconds per scanned page of TableEngine.run (time.process_time), "
                "one process per tree and round, one thread; the machine is shared, so "
                "compare the trees of one run",
            },
            indent=2,
        )
        + "\n"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
