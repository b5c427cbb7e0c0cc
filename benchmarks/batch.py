"""The batch flow's wall time against the rate-limit floor, credits per page, peak RSS.

Run: ``python -m benchmarks.batch [--count 100] [--rate 1.0] [--corpus] [--concurrency 16]``.

A batch of ``--count`` files (generated samples by default: invoices incl. an e-invoice,
receipts, letters, delivery notes, reports, scans, a photo and a multi-document stream; or
the first files of the evaluation corpus with ``--corpus``) goes through
``process_documents`` with the service embedded on loopback, as ``docai run`` does.

Floor: every HTTP request the client sends (token, uploads, result polls) is counted; at
the service's allowed rate (``--rate`` requests/s, the spec's 1 by default) the batch
cannot be faster than requests ÷ rate. The ratio wall ÷ floor says how well the stages
overlap: 1.0 means the rate limit is the only thing the batch waited for.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import shutil
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"


def corpus_dir() -> Path:
    return Path(os.environ.get("DOCAI_CORPUS") or ROOT.parent / "shared" / "corpus")


def prepare(folder: Path, count: int, use_corpus: bool) -> str:
    if use_corpus:
        docs = sorted((corpus_dir() / "docs").iterdir())[:count]
        if not docs:
            raise SystemExit(f"no corpus documents under {corpus_dir()}")
        for doc in docs:
            shutil.copyfile(doc, folder / doc.name)
        return f"corpus ({len(docs)} files)"
    from prefect_docai.samples.batch import write_batch

    manifest = write_batch(folder, count=count, seed=7)
    kinds = Counter(d["variant"] for d in manifest["documents"])
    return "samples (" + ", ".join(f"{n} {k}" for k, n in sorted(kinds.items())) + ")"


def count_requests() -> Counter[str]:
    """Count every HTTP request DocAI clients send, by kind (instrumentation only)."""
    import httpx

    from prefect_docai.client.core import DocAIClient

    counts: Counter[str] = Counter()
    original_init = DocAIClient.__init__

    async def hook(request: httpx.Request) -> None:
        path = request.url.path
        kind = "upload" if "/Upload/" in path else "result" if "/JobResults/" in path else "token"
        counts[kind] += 1

    def init(self: DocAIClient, *args: Any, **kwargs: Any) -> None:
        original_init(self, *args, **kwargs)
        self._http.event_hooks["request"].append(hook)

    DocAIClient.__init__ = init  # type: ignore[method-assign]
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--rate", type=float, default=1.0, help="Allowed requests per second.")
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--corpus", action="store_true", help="Use the evaluation corpus.")
    args = parser.parse_args(argv)

    os.environ["DOCAI_UPLOAD_RATE_PER_SECOND"] = str(args.rate)
    os.environ.setdefault("OMP_THREAD_LIMIT", "1")
    os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")

    from prefect.settings import temporary_settings

    from prefect_docai.datasets import DatasetStore
    from prefect_docai.flows import BatchIncomplete, BatchOptions, BatchSummary, aprocess_documents

    counts = count_requests()
    work = Path(tempfile.mkdtemp(prefix="docai-bench-batch-"))
    try:
        source = work / "inbox"
        source.mkdir()
        what = prepare(source, args.count, args.corpus)
        dest = work / "lake"
        options = BatchOptions(max_concurrency=args.concurrency)
        started = time.monotonic()
        with temporary_settings(set_defaults={"server.ephemeral.startup_timeout_seconds": 300}):
            try:
                summary: BatchSummary = asyncio.run(
                    aprocess_documents(str(source), str(dest), options=options)
                )
            except BatchIncomplete as exc:
                summary = exc.summary
        elapsed = time.monotonic() - started
        rows = DatasetStore(str(dest)).row_counts()
    finally:
        shutil.rmtree(work, ignore_errors=True)

    requests = sum(counts.values())
    floor = requests / args.rate
    flow_wall = summary.wall_seconds
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    result: dict[str, Any] = {
        "batch": what,
        "files": summary.files_found,
        "pages": summary.pages,
        "segments": sum(summary.segments_by_type.values()),
        "segments_by_type": summary.segments_by_type,
        "processed": summary.processed,
        "partial": summary.partial,
        "failed": summary.failed,
        "deferred": summary.deferred,
        "errors": summary.errors,
        "requests": dict(counts),
        "requests_total": requests,
        "rate_per_second": args.rate,
        "floor_seconds": round(floor, 1),
        "flow_wall_seconds": flow_wall,
        "wall_over_floor": round(flow_wall / floor, 2) if floor else None,
        "total_seconds_incl_prefect_startup": round(elapsed, 1),
        "credits": summary.credits_used,
        "credits_per_page": round(summary.credits_used / summary.pages, 3) if summary.pages else None,
        "peak_rss_mib_flow_process": round(own, 1),
        "peak_rss_mib_largest_child": round(children, 1),
        "rows": rows,
        "concurrency": args.concurrency,
        "cpus": os.cpu_count(),
        "load_average_after": os.getloadavg(),
    }

    print(f"batch: {what}")
    print(f"{'metric':<34} value")
    for key in (
        "files", "pages", "segments", "processed", "partial", "failed", "deferred",
        "requests_total", "rate_per_second", "floor_seconds", "flow_wall_seconds",
        "wall_over_floor", "credits", "credits_per_page", "peak_rss_mib_flow_process",
        "peak_rss_mib_largest_child",
    ):
        print(f"{key:<34} {result[key]}")
    print(f"{'requests by kind':<34} {dict(counts)}")
    print(f"{'segments by type':<34} {summary.segments_by_type}")

    RESULTS.mkdir(parents=True, exist_ok=True)
    out = RESULTS / "batch.json"
    out.write_text(json.dumps(result, indent=2))
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
