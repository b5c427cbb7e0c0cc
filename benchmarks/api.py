"""Service throughput and latency on loopback: token, upload and result fetch.

Run: ``python -m benchmarks.api [--clients 50] [--seconds 8] [--paced-rate 1.0]``.

The service runs as ``docai serve`` in its own process (so the load generator does not
share its interpreter) with one engine worker and the upload rate limit raised. Per
endpoint two runs with 50 concurrent clients:

* ``saturated``: every client sends its next request as soon as the previous one answers
  (closed loop) — the service's capacity on this machine;
* ``paced``: every client sends at the spec's 1 request/s (open loop) — the latency a
  well-behaved population of 50 clients sees.

Uploads go to ToolClassify with a one-page born-digital PDF; the engine runs in the worker
process meanwhile, as in production. Results are fetched for finished jobs.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import aiohttp
import httpx

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"


def _pdf() -> bytes:
    from reportlab.pdfgen import canvas

    buffer = io.BytesIO()
    c = canvas.Canvas(buffer)
    c.drawString(72, 720, "Invoice 2024-001  Total 119.00 EUR")
    c.showPage()
    c.save()
    return buffer.getvalue()


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


async def _run(
    clients: int,
    seconds: float,
    request: Callable[[int, aiohttp.ClientSession], Awaitable[int]],
    pace: float | None,
) -> dict[str, Any]:
    latencies: list[float] = []
    statuses: dict[int, int] = {}
    stop_at = time.perf_counter() + seconds

    async def one(index: int, http: aiohttp.ClientSession) -> None:
        # Spread paced clients over the first interval so they do not fire in lockstep.
        next_at = time.perf_counter() + (index / clients) / pace if pace else 0.0
        while True:
            if pace:
                delay = next_at - time.perf_counter()
                if delay > 0:
                    await asyncio.sleep(delay)
                next_at += 1.0 / pace
            if time.perf_counter() >= stop_at:
                return
            started = time.perf_counter()
            try:
                status = await request(index, http)
            except (aiohttp.ClientError, TimeoutError):
                status = -1
            latencies.append((time.perf_counter() - started) * 1000)
            statuses[status] = statuses.get(status, 0) + 1

    # aiohttp as the load generator: httpx's async pool costs more CPU per request than the
    # service itself on a 2-core machine, which would measure the client, not the server.
    connector = aiohttp.TCPConnector(limit=clients)
    async with aiohttp.ClientSession(
        connector=connector, timeout=aiohttp.ClientTimeout(total=60)
    ) as http:
        began = time.perf_counter()
        await asyncio.gather(*(one(i, http) for i in range(clients)))
        elapsed = time.perf_counter() - began
    return {
        "requests": len(latencies),
        "rps": len(latencies) / elapsed,
        "p50_ms": _percentile(latencies, 50),
        "p90_ms": _percentile(latencies, 90),
        "p99_ms": _percentile(latencies, 99),
        "max_ms": max(latencies) if latencies else float("nan"),
        "mean_ms": statistics.fmean(latencies) if latencies else float("nan"),
        "statuses": {str(k): v for k, v in sorted(statuses.items())},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=8.0, help="per run")
    parser.add_argument(
        "--paced-rate", type=float, default=1.0, help="requests/s per client in the paced runs"
    )
    parser.add_argument("--endpoints", default="token,result,upload", help="comma-separated subset")
    args = parser.parse_args(argv)

    from prefect_docai.server.embedded import EmbeddedService

    data_dir = Path(tempfile.mkdtemp(prefix="docai-bench-"))
    admin = EmbeddedService(data_dir)
    creds = [admin.create_client(f"bench-{i}", credits=10_000_000) for i in range(args.clients)]
    port = _free_port()
    env = {
        **os.environ,
        "DOCAI_UPLOAD_RATE_PER_SECOND": "100000",
        "DOCAI_WORKERS": "1",
        "DOCAI_RESULT_TTL": "86400",
        "OMP_THREAD_LIMIT": "1",
    }
    docai = str(Path(sys.executable).with_name("docai"))
    server = subprocess.Popen(
        [
            docai,
            "serve",
            "--port",
            str(port),
            "--data-dir",
            str(data_dir),
            "--workers",
            "1",
            "--log-level",
            "warning",
        ],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(base + "/readyz").status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline or server.poll() is not None:
                print("the service did not start", file=sys.stderr)
                return 1
            time.sleep(0.1)
        report = asyncio.run(_benchmark(base, creds, args))
    finally:
        server.terminate()
        try:
            server.wait(30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        admin.stop()
        import shutil

        shutil.rmtree(data_dir, ignore_errors=True)

    print(
        f"\n{args.clients} concurrent clients, {args.seconds:g} s per run, loopback, {os.cpu_count()} CPU(s)"
    )
    header = f"{'endpoint':<10} {'mode':<10} {'requests':>8} {'req/s':>8} {'p50 ms':>8} {'p90 ms':>8} {'p99 ms':>8} {'max ms':>8}  statuses"
    print(header)
    print("-" * len(header))
    for row in report["runs"]:
        print(
            f"{row['endpoint']:<10} {row['mode']:<10} {row['requests']:>8} {row['rps']:>8.0f} {row['p50_ms']:>8.1f} "
            f"{row['p90_ms']:>8.1f} {row['p99_ms']:>8.1f} {row['max_ms']:>8.1f}  {row['statuses']}"
        )
    RESULTS.mkdir(parents=True, exist_ok=True)
    out = RESULTS / "api.json"
    out.write_text(json.dumps(report, indent=2))
    print(f"\nwritten to {out.relative_to(ROOT)}")
    return 0


async def _benchmark(base: str, creds: list[Any], args: argparse.Namespace) -> dict[str, Any]:
    token_url = base + "/oauth/token"
    forms = [
        {
            "grant_type": "client_credentials",
            "client_id": c.client_id,
            "client_secret": c.client_secret.get_secret_value(),
        }
        for c in creds
    ]
    async with httpx.AsyncClient(timeout=60) as http:
        tokens = [(await http.post(token_url, data=form)).json()["access_token"] for form in forms]
    pdf = _pdf()
    # Finished jobs first: later uploads queue behind them, and the engine backlog the upload
    # runs leave behind must not run during the token and fetch runs.
    finished = await _finished_jobs(base, tokens)

    async def token(index: int, http: aiohttp.ClientSession) -> int:
        async with http.post(token_url, data=forms[index]) as response:
            await response.read()
            return response.status

    async def upload(index: int, http: aiohttp.ClientSession) -> int:
        form = aiohttp.FormData()
        form.add_field("file", pdf, filename="bench.pdf", content_type="application/pdf")
        url = base + "/api/FileUpload/v1/Upload/ToolClassify"
        async with http.post(url, data=form, headers={"accessToken": tokens[index]}) as response:
            await response.read()
            return response.status

    async def fetch(index: int, http: aiohttp.ClientSession) -> int:
        url = f"{base}/api/Result/v1/JobResults/{finished[index]}/json"
        async with http.get(url, headers={"accessToken": tokens[index]}) as response:
            await response.read()
            return response.status

    runs: list[dict[str, Any]] = []
    modes = (("saturated", None), ("paced", args.paced_rate))
    wanted = set(args.endpoints.split(","))
    for name, request in (("token", token), ("result", fetch), ("upload", upload)):
        if name not in wanted:
            continue
        for mode, pace in modes:
            result = await _run(args.clients, args.seconds, request, pace)
            runs.append({"endpoint": name, "mode": mode, **result})
    return {
        "clients": args.clients,
        "seconds_per_run": args.seconds,
        "paced_rate": args.paced_rate,
        "cpus": os.cpu_count(),
        "runs": runs,
    }


async def _finished_jobs(base: str, tokens: list[str]) -> list[str]:
    """Upload one document per client and wait (bounded) until each has a result."""
    pdf = _pdf()
    async with httpx.AsyncClient(timeout=60) as http:
        ids = []
        for token in tokens:
            response = await http.post(
                base + "/api/FileUpload/v1/Upload/ToolClassify",
                files={"file": ("fetch.pdf", pdf, "application/pdf")},
                headers={"accessToken": token, "Idempotency-Key": "bench-fetch"},
            )
            ids.append(response.json()["jobId"])
        deadline = time.monotonic() + 600
        for job_id, token in zip(ids, tokens, strict=True):
            while True:
                response = await http.get(
                    f"{base}/api/Result/v1/JobResults/{job_id}/json", headers={"accessToken": token}
                )
                if response.status_code == 200:
                    break
                if time.monotonic() > deadline:
                    raise TimeoutError("jobs for the fetch benchmark did not finish")
                await asyncio.sleep(0.5)
    return ids


if __name__ == "__main__":
    raise SystemExit(main())
