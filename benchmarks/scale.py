"""Scale-out: a batch through the Dask runner against service replicas on PostgreSQL and S3.

Run: ``nice python -m benchmarks.scale [--documents 2000] [--replicas 2] [--dask-workers 2]
[--service-workers 1] [--rate 2] [--partitions 8] [--concurrency 8]``.

What runs, all on loopback:

* a throwaway PostgreSQL cluster (``tests/api/postgres.py``) and a moto S3 server;
* a moto S3 server whose conditional PUTs are atomic as on AWS (``tests/moto_s3.py``);
* ``--replicas`` ``docai serve`` processes on that one database with job blobs in
  ``s3://docai-blobs`` (``DOCAI_DATABASE_URL``, ``DOCAI_STORAGE_URL``), each with
  ``--service-workers`` engine workers and ``DOCAI_UPLOAD_RATE_PER_SECOND=--rate``;
* a Prefect server, and a parent flow on a ``DaskTaskRunner`` (``LocalCluster``,
  ``--dask-workers`` processes, one thread each) that maps ``process_documents`` over
  ``--partitions`` folders of ``s3://lake/inbox``, all into the *same* destination
  ``s3://lake/datasets``; a partition whose run deferred documents (``BatchIncomplete``)
  runs again, as an operator would, up to 3 passes. Dask worker *k* talks to replica
  *k mod replicas* (a credentials block per replica; a load balancer does this in
  production).

The bound: the service admits ``rate`` uploads per second per (client, tool), counted in
the database and so shared by all replicas (``server/ratelimit.py``), and each replica
runs ``W`` engine workers. So the batch cannot finish faster than

    bound = max( max_tool uploads[tool] / rate,  busy / (replicas × W) )

where ``uploads[tool]`` are the jobs the batch created per tool and ``busy`` the summed
engine time of those jobs (``completed_at − started_at`` in the jobs table). The report
gives wall ÷ bound, and checks: every document in ``documents`` exactly once, no
Idempotency-Key used by two jobs, and credits charged = credits in the rows (a job made
twice for one document would be charged but counted in no row).

Results: ``benchmarks/results/scale.json`` (and the figures quoted in ``docs/scale.md``).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"
CREDITS = 10_000_000


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


# --- infrastructure ------------------------------------------------------------------------


@contextlib.contextmanager
def prefect_server(home: Path) -> Iterator[str]:
    """A Prefect server in its own process; Dask workers inherit ``PREFECT_API_URL``."""
    import httpx

    port = _free_port()
    env = {
        **os.environ,
        "PREFECT_HOME": str(home),
        "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
        "PREFECT_UI_ENABLED": "false",
    }
    log = (home / "prefect-server.log").open("ab")
    prefect = str(Path(sys.executable).with_name("prefect"))
    process = subprocess.Popen(
        [prefect, "server", "start", "--host", "127.0.0.1", "--port", str(port)],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}/api"
    try:
        deadline = time.monotonic() + 240
        while True:
            with contextlib.suppress(httpx.TransportError):
                if httpx.get(url + "/health").status_code == 200:
                    break
            if time.monotonic() > deadline or process.poll() is not None:
                raise RuntimeError((home / "prefect-server.log").read_text()[-3000:])
            time.sleep(0.5)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()


def write_inbox(
    s3: dict[str, Any], documents: int, partitions: int, renders: int
) -> dict[str, int]:
    """``documents`` distinct files from ``renders`` generated documents.

    Rendering costs ~0.3 s of CPU a document here, so beyond ``renders`` a file is a copy
    of render ``i mod renders`` with a serial-number comment after ``%%EOF``: other bytes,
    other sha256, so the flow and the service treat it as a document of its own (its own
    jobs, credits and rows); only the engines see the same pages again.
    """
    import s3fs

    from prefect_docai.samples.generate import generate

    fs = s3fs.S3FileSystem(**s3)
    for bucket in ("lake", "docai-blobs"):
        fs.mkdir(bucket)
    kinds: Counter[str] = Counter()
    types = ("invoice", "receipt", "letter")
    made: list[bytes] = []
    for i in range(documents):
        render = i % renders
        doc_type = types[render % len(types)]
        if i < renders:
            lang = ("de", "en")[render // 3 % 2]
            made.append(generate(doc_type, seed=10_000 + render, lang=lang).pdf)
            data = made[render]
        else:
            data = made[render] + f"\n%docai-copy {i:06d}\n".encode()
        fs.pipe(f"lake/inbox/part-{i % partitions:03d}/doc-{i:05d}.pdf", data)
        kinds[doc_type] += 1
    return dict(kinds)


# --- the flow --------------------------------------------------------------------------------


def run_fan_out(
    partitions: list[str],
    destination: str,
    s3: dict[str, Any],
    replicas: int,
    dask_workers: int,
    concurrency: int,
) -> list[dict[str, Any]]:
    from prefect import flow, task, unmapped
    from prefect_dask import DaskTaskRunner

    from prefect_docai.flows import BatchIncomplete, BatchOptions, aprocess_documents

    @task(name="process-partition", task_run_name="{source}")
    async def one_partition(source: str, attempt: int) -> dict[str, Any]:
        from distributed import get_worker

        # Pin a Dask worker to one replica: one client limiter per replica's buckets.
        replica = int(get_worker().name) % replicas
        options = BatchOptions(
            max_concurrency=concurrency,
            source_storage_options=s3,
            destination_storage_options=s3,
        )
        try:
            summary = await aprocess_documents(source, destination, f"scale-{replica}", options)
            complete = True
        except BatchIncomplete as exc:
            # Deferred documents (e.g. 429 after the client's retries): by design the
            # next run finishes them, and the parent flow runs this partition again.
            summary, complete = exc.summary, False
        return {
            "source": source,
            "replica": replica,
            "attempt": attempt,
            "complete": complete,
            **summary.model_dump(mode="json"),
        }

    runner = DaskTaskRunner(
        cluster_kwargs={
            "n_workers": dask_workers,
            "threads_per_worker": 1,
            "processes": True,
            "dashboard_address": "127.0.0.1:0",
        }
    )

    @flow(name="scale-fan-out", task_runner=runner)
    def fan_out(sources: list[str]) -> list[dict[str, Any]]:
        runs: list[dict[str, Any]] = []
        for attempt in range(1, 4):
            # .result() on each: a failed partition fails the parent flow.
            done = [f.result() for f in one_partition.map(sources, attempt=unmapped(attempt))]
            runs += done
            sources = [r["source"] for r in done if not r["complete"]]
            if not sources:
                return runs
        raise RuntimeError(f"still incomplete after 3 passes: {sources}")

    return fan_out(partitions)


# --- measurement ---------------------------------------------------------------------------


DOWNLOAD_GRACE = 300.0  # the service's default: a downloaded result goes this long after


def timeline(
    postgres: Any, database: str, run_started: float, run_ended: float, engine_workers: int
) -> dict[str, Any]:
    """Where the wall time went, from the jobs' own timestamps (epoch seconds).

    Engine workers idle while *no* job was queued wait on the client (uploads paced by the
    rate, results fetched late, documents between stages); idle while one *was* queued
    wait on the service's dispatch. ``fetch_delay``: completed → first download
    (``expired_at − download_grace``).
    """
    rows = postgres.query(
        database,
        "SELECT EXTRACT(EPOCH FROM created_at), EXTRACT(EPOCH FROM started_at), "
        "EXTRACT(EPOCH FROM completed_at), EXTRACT(EPOCH FROM expired_at) FROM jobs "
        "WHERE started_at IS NOT NULL AND completed_at IS NOT NULL",
    )
    jobs = [tuple(float(v) if v is not None else None for v in r) for r in rows]
    if not jobs:
        return {}
    events: list[tuple[float, int, int]] = []  # (time, d_busy, d_queued)
    for created, started, completed, _ in jobs:
        assert started is not None and completed is not None and created is not None
        events += [(created, 0, 1), (started, 1, -1), (completed, -1, 0)]
    events.sort()
    idle_queued = idle_empty = 0.0
    busy = queued = 0
    last = run_started
    for at, d_busy, d_queued in events:
        span = max(0.0, at - last)
        idle = max(0, engine_workers - busy)
        if queued > 0:
            idle_queued += span * min(idle, queued)
            idle_empty += span * max(0, idle - queued)
        else:
            idle_empty += span * idle
        busy, queued, last = busy + d_busy, queued + d_queued, max(last, at)
    fetch = sorted(e - DOWNLOAD_GRACE - c for _, _, c, e in jobs if e is not None and c is not None)
    first_created = min(j[0] for j in jobs if j[0] is not None)
    last_completed = max(j[2] for j in jobs if j[2] is not None)
    return {
        "startup_seconds": round(first_created - run_started, 1),
        "tail_seconds": round(run_ended - last_completed, 1),
        "worker_idle_seconds_nothing_queued": round(idle_empty, 1),
        "worker_idle_seconds_while_queued": round(idle_queued, 1),
        "queue_wait_median_seconds": round(
            sorted(s - c for c, s, _, _ in jobs if s is not None and c is not None)[len(jobs) // 2],
            2,
        ),
        "fetch_delay_median_seconds": round(fetch[len(fetch) // 2], 2) if fetch else None,
        "fetch_delay_p90_seconds": round(fetch[int(len(fetch) * 0.9)], 2) if fetch else None,
    }


def job_figures(postgres: Any, database: str) -> dict[str, Any]:
    rows = postgres.query(
        database,
        "SELECT tool, status, credits_charged, idempotency_key, "
        "EXTRACT(EPOCH FROM completed_at - started_at) FROM jobs",
    )
    by_tool: Counter[str] = Counter(r[0] for r in rows)
    keys = Counter(r[3] for r in rows)
    return {
        "jobs": len(rows),
        "jobs_by_tool": dict(by_tool),
        "jobs_by_status": dict(Counter(r[1] for r in rows)),
        "credits_charged": sum(r[2] for r in rows),
        "duplicate_keys": sum(1 for n in keys.values() if n > 1),
        "busy_seconds": round(sum(float(r[4] or 0) for r in rows), 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--documents", type=int, default=2000)
    parser.add_argument("--replicas", type=int, default=2)
    parser.add_argument("--dask-workers", type=int, default=2)
    parser.add_argument("--service-workers", type=int, default=1)
    parser.add_argument(
        "--rate", type=float, default=2.0, help="uploads/s per client and tool (all replicas)"
    )
    parser.add_argument(
        "--burst", type=int, default=0, help="DOCAI_UPLOAD_BURST (0: 2 x dask workers)"
    )
    parser.add_argument("--partitions", type=int, default=8)
    parser.add_argument(
        "--renders", type=int, default=200, help="distinct renders (see write_inbox)"
    )
    parser.add_argument("--concurrency", type=int, default=8, help="documents in flight per run")
    parser.add_argument("--out", type=Path, default=RESULTS / "scale.json")
    args = parser.parse_args(argv)

    burst = args.burst or 2 * args.dask_workers
    from tests.api.postgres import start_server
    from tests.moto_s3 import moto_s3

    from benchmarks.reliability import Server

    root = Path(tempfile.mkdtemp(prefix="docai-scale-"))
    postgres = start_server()
    report: dict[str, Any] = {
        "settings": vars(args) | {"out": str(args.out), "burst": burst},
        "commit": subprocess.run(
            ["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=False,
        ).stdout.strip(),
    }
    try:
        database = postgres.create_database()
        url = postgres.url(database)
        with moto_s3() as s3, prefect_server(root) as api_url:
            os.environ["PREFECT_API_URL"] = api_url
            started = time.monotonic()
            report["documents_by_type"] = write_inbox(
                s3, args.documents, args.partitions, args.renders
            )
            report["generate_seconds"] = round(time.monotonic() - started, 1)

            from prefect_docai.blocks import DocAICredentials
            from prefect_docai.client.config import ClientConfig
            from prefect_docai.server.embedded import EmbeddedService

            data_dir = root / "service"
            storage = {"storage_url": "s3://docai-blobs", "storage_options": s3}
            admin = EmbeddedService(data_dir, database_url=url, **storage)
            creds = admin.create_client("scale", credits=CREDITS)
            env = {
                "DOCAI_DATABASE_URL": url,
                "DOCAI_STORAGE_URL": "s3://docai-blobs",
                "DOCAI_STORAGE_OPTIONS": json.dumps(s3),
                "DOCAI_UPLOAD_RATE_PER_SECOND": str(args.rate),
                # The Dask workers pace themselves independently against the one shared
                # limit: without a burst, two uploads a few ms apart collide (429).
                "DOCAI_UPLOAD_BURST": str(burst),
            }
            servers = [
                Server(data_dir, env, workers=args.service_workers).start()
                for _ in range(args.replicas)
            ]
            try:
                margin = ClientConfig.model_fields["pace_margin"].default
                tools = ("Classify", "Invoice", "Receipt", "ICR", "TableExtraction", "PaperFlow")
                for index, server in enumerate(servers):
                    DocAICredentials(
                        client_id=creds.client_id,
                        client_secret=creds.client_secret,
                        base_url=server.base,
                        token_url=server.base + "/oauth/token",
                        requests_per_second=50,
                        # Pace uploads just under the service's limit, which every replica
                        # counts in the one database: each Dask worker gets its share, 0.97 x
                        # rate / workers (the client spaces paced requests pace_margin = 10 %
                        # wider than asked; the service's burst absorbs the jitter instead).
                        tool_requests_per_second={
                            t: 0.97 * (1 + margin) * args.rate / args.dask_workers for t in tools
                        },
                    ).save(f"scale-{index}", overwrite=True)
                sources = [f"s3://lake/inbox/part-{p:03d}/*.pdf" for p in range(args.partitions)]
                started, started_epoch = time.monotonic(), time.time()
                summaries = run_fan_out(
                    sources,
                    "s3://lake/datasets",
                    s3,
                    args.replicas,
                    args.dask_workers,
                    args.concurrency,
                )
                wall = time.monotonic() - started
                ended_epoch = time.time()
            finally:
                for server in servers:
                    server.stop()
            remaining = admin.credits(creds.client_id)
            admin.stop()

            from prefect_docai.datasets import DatasetStore

            store = DatasetStore("s3://lake/datasets", s3)
            ids = store.read("documents").column("document_id").to_pylist()
            counts = Counter(ids)
            rows_credits = sum(store.read("documents").column("credits_charged").to_pylist())
            commits = len(store.manifests())
        jobs = job_figures(postgres, database)
        where = timeline(
            postgres, database, started_epoch, ended_epoch, args.replicas * args.service_workers
        )
        # The upload limit is counted in the database: all replicas share it.
        rate_bound = max(jobs["jobs_by_tool"].values()) / args.rate
        worker_bound = jobs["busy_seconds"] / (args.replicas * args.service_workers)
        bound = max(rate_bound, worker_bound)
        report |= {
            "wall_seconds": round(wall, 1),
            "rate_bound_seconds": round(rate_bound, 1),
            "worker_bound_seconds": round(worker_bound, 1),
            "bound_seconds": round(bound, 1),
            "wall_over_bound": round(wall / bound, 2),
            "documents_written": len(counts),
            "duplicate_documents": sum(n - 1 for n in counts.values() if n > 1),
            "lost_documents": args.documents - len(counts),
            "credits_spent": CREDITS - remaining,
            "credits_in_rows": rows_credits,
            "commits": commits,
            "runs": [
                {
                    k: s[k]
                    for k in (
                        "source",
                        "replica",
                        "attempt",
                        "processed",
                        "partial",
                        "failed",
                        "deferred",
                        "credits_used",
                        "wall_seconds",
                    )
                }
                for s in summaries
            ],
            "partition_reruns": sum(1 for s in summaries if s["attempt"] > 1),
            "where_the_time_went": where,
            **jobs,
        }
    finally:
        postgres.stop()
        shutil.rmtree(root, ignore_errors=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n")
    for key in (
        "documents_written",
        "duplicate_documents",
        "lost_documents",
        "wall_seconds",
        "rate_bound_seconds",
        "worker_bound_seconds",
        "wall_over_bound",
        "credits_spent",
        "credits_in_rows",
        "jobs_by_tool",
        "jobs_by_status",
        "commits",
        "partition_reruns",
        "where_the_time_went",
    ):
        print(f"{key:<22} {report[key]}")
    ok = report["duplicate_documents"] == 0 and report["lost_documents"] == 0
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
