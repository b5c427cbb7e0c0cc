"""Reliability and security under hostile and heavy use: the figures of docs/reliability.md.

Run: ``python -m benchmarks.reliability [--soak-seconds 600] [--soak-clients 30]
[--only brute_force,soak,...]``. Every scenario starts ``docai serve`` (real engines, real
SQLite or a throwaway PostgreSQL, 2 workers) in its own process on loopback, drives it over
HTTP like a client would, and records what it saw; the hostile inputs are generated
(``tests/hostile.py``), never read from committed files. The report is rewritten at
``docs/reliability.md`` (figures of this run; the scenarios not run keep no figures) and
``benchmarks/results/reliability.json``.

Scenarios: ``brute_force`` (token endpoint), ``log_forgery``, ``headers``,
``rejected_upload`` (rate slot), ``hostile`` (the corpus, real engines), ``memory`` (4 × a
14000² PNG at once), ``fairness`` (2 × 1000-page jobs against a 1-page job), ``disk_full``
(a tmpfs; needs root), ``deletion``, ``replicas`` (two services on one PostgreSQL) and
``soak`` (N clients × T seconds, a mix of tools: 5xx, lost jobs, credits, RSS).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import platform
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import psutil

from benchmarks.api import _free_port

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"
REPORT = ROOT / "docs" / "reliability.md"
UPLOAD = "/api/FileUpload/v1/Upload/"
RESULT = "/api/Result/v1/JobResults/"
TOOLS = ("ICR", "Classify", "Invoice", "Receipt", "TableExtraction", "PaperFlow")


# --- a service in its own process --------------------------------------------------------


@dataclass
class Server:
    """``docai serve`` on a free loopback port; clients are made through the database."""

    data_dir: Path
    env: dict[str, str] = field(default_factory=dict)
    workers: int = 2
    base: str = ""
    log_path: Path = Path()
    process: subprocess.Popen[bytes] | None = None

    def start(self) -> Server:
        port = _free_port()
        self.base = f"http://127.0.0.1:{port}"
        self.log_path = self.data_dir.parent / f"serve-{port}.log"
        env = {**os.environ, "OMP_THREAD_LIMIT": "1", **self.env}
        docai = str(Path(sys.executable).with_name("docai"))
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(
                [
                    *(docai, "serve", "--port", str(port), "--data-dir", str(self.data_dir)),
                    *("--workers", str(self.workers), "--log-level", "info"),
                ],
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + 120
        while True:
            with contextlib.suppress(httpx.TransportError):
                if httpx.get(self.base + "/readyz").status_code == 200:
                    return self
            if time.monotonic() > deadline or self.process.poll() is not None:
                raise RuntimeError(f"the service did not start:\n{self.log()[-3000:]}")
            time.sleep(0.2)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(60)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def rss(self) -> tuple[int, int]:
        """Resident bytes of the API process and of its worker processes together."""
        assert self.process is not None
        main = psutil.Process(self.process.pid)
        workers = 0
        for child in main.children(recursive=True):
            with contextlib.suppress(psutil.Error):
                workers += child.memory_info().rss
        return main.memory_info().rss, workers

    def largest_worker_rss(self) -> int:
        """Resident bytes of the largest worker process."""
        assert self.process is not None
        largest = 0
        for child in psutil.Process(self.process.pid).children(recursive=True):
            with contextlib.suppress(psutil.Error):
                largest = max(largest, child.memory_info().rss)
        return largest

    def __enter__(self) -> Server:
        return self.start()

    def __exit__(self, *_: object) -> None:
        self.stop()


@contextlib.contextmanager
def _service(**settings: Any) -> Iterator[tuple[Server, Any]]:
    """A server with ``DOCAI_*`` settings and an admin handle on its database."""
    from prefect_docai.server.embedded import EmbeddedService

    root = Path(tempfile.mkdtemp(prefix="docai-reliab-"))
    data_dir = Path(settings.pop("data_dir", root / "data"))
    env = {f"DOCAI_{key.upper()}": str(value) for key, value in settings.items()}
    admin_settings = {
        key: value for key, value in settings.items() if key in ("database_url", "storage_url")
    }
    admin = EmbeddedService(data_dir, **admin_settings)
    try:
        admin.create_client("warm-up", credits=0)  # creates the schema before the server
        with Server(data_dir, env) as server:
            yield server, admin
    finally:
        admin.stop()
        shutil.rmtree(root, ignore_errors=True)


class Client:
    def __init__(self, server: Server, creds: Any, timeout: float = 120) -> None:
        self.server = server
        self.creds = creds
        self.http = httpx.Client(base_url=server.base, timeout=timeout)
        self._token = ""

    def token(self) -> str:
        if not self._token:
            response = self.http.post(
                "/oauth/token",
                data={
                    "grant_type": "client_credentials",
                    "client_id": self.creds.client_id,
                    "client_secret": self.creds.client_secret.get_secret_value(),
                },
            )
            response.raise_for_status()
            self._token = response.json()["access_token"]
        return self._token

    def upload(self, tool: str, data: bytes, name: str = "doc.pdf", **params: str) -> httpx.Response:
        return self.http.post(
            UPLOAD + tool,
            files={"file": (name, data, "application/octet-stream")},
            params=params,
            headers={"accessToken": self.token()},
        )

    def result(self, job_id: str, kind: str = "json", **params: str) -> httpx.Response:
        return self.http.get(
            f"{RESULT}{job_id}/{kind}", params=params, headers={"accessToken": self.token()}
        )

    def wait(self, job_id: str, timeout: float = 600) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            response = self.result(job_id)
            if response.status_code == 401:
                self._token = ""
                continue
            body: dict[str, Any] = response.json()
            if response.status_code != 404 or body.get("code") != "job_pending":
                return body
            if time.monotonic() > deadline:
                return {"status": "still pending", "jobId": job_id}
            time.sleep(0.5)

    def close(self) -> None:
        self.http.close()


def _one_page(text: str = "Reliability check 2026") -> bytes:
    from tests.hostile import text_pdf

    return text_pdf(text)


# --- scenarios ----------------------------------------------------------------------------


def brute_force(seconds: float = 5.0, concurrency: int = 20) -> dict[str, Any]:
    """Wrong secrets for one client id as fast as 20 connections go, then the right one."""
    with _service() as (server, admin):
        creds = admin.create_client("victim", credits=0)
        statuses: Counter[int] = Counter()
        stop = time.monotonic() + seconds
        reached: list[float] = []

        def attack() -> None:
            with httpx.Client(base_url=server.base) as http:
                while time.monotonic() < stop:
                    response = http.post(
                        "/oauth/token",
                        data={
                            "grant_type": "client_credentials",
                            "client_id": creds.client_id,
                            "client_secret": "guess-" + str(random.random()),
                        },
                    )
                    statuses[response.status_code] += 1
                    if response.status_code == 401:
                        reached.append(time.monotonic())

        threads = [threading.Thread(target=attack) for _ in range(concurrency)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        ended = time.monotonic()
        rightful = Client(server, creds)
        while True:
            response = rightful.http.post(
                "/oauth/token",
                data={
                    "grant_type": "client_credentials",
                    "client_id": creds.client_id,
                    "client_secret": creds.client_secret.get_secret_value(),
                },
            )
            if response.status_code == 200:
                break
            time.sleep(0.1)
        rightful.close()
        total = sum(statuses.values())
        return {
            "seconds": seconds,
            "connections": concurrency,
            "requests": total,
            "requests_per_s": round(total / seconds, 1),
            "statuses": dict(statuses),
            "secret_checks_per_s": round(len(reached) / seconds, 2),
            "rightful_client_waited_s": round(time.monotonic() - ended, 2),
        }


def log_forgery() -> dict[str, Any]:
    """A request path with CR LF and an escape sequence: does a forged line appear?"""
    with _service() as (server, _):
        forged = "/x%0d%0a127.0.0.1%20%22GET%20/forged-admin%20HTTP/1.1%22%20200%1b[2J"
        status = httpx.get(server.base + forged).status_code
        time.sleep(0.5)
        lines = server.log().splitlines()
        starts = [line for line in lines if line.startswith('127.0.0.1 "GET /forged-admin')]
        controls = sum(1 for line in lines if "\x1b" in line)
        return {"status": status, "forged_lines": len(starts), "lines_with_escape": controls}


def headers() -> dict[str, Any]:
    with _service() as (server, admin):
        client = Client(server, admin.create_client("h", credits=5))
        job = client.upload("ToolICR", _one_page()).json()["jobId"]
        client.wait(job)
        checked = {}
        for name, response in (
            ("token", client.http.post("/oauth/token", data={"grant_type": "client_credentials"})),
            ("result", client.result(job)),
            ("zip", client.result(job, "zip")),
            ("docs", client.http.get("/docs")),
        ):
            checked[name] = {
                "nosniff": response.headers.get("x-content-type-options") == "nosniff",
                "csp": "content-security-policy" in response.headers,
                "cache_control": response.headers.get("cache-control", ""),
            }
        import re

        page = client.http.get("/docs").text
        assets = re.findall(r'(?:src|href)="([^"]+)"', page)
        offline = all(a.startswith("/") and client.http.get(a).status_code == 200 for a in assets)
        modes = sorted(
            {
                oct(os.stat(os.path.join(root, name)).st_mode & 0o777)
                for root, dirs, files in os.walk(server.data_dir)
                for name in [*dirs, *files]
            }
        )
        client.close()
        return {"responses": checked, "docs_assets_local": offline, "file_modes": modes}


def rejected_upload() -> dict[str, Any]:
    with _service() as (server, admin):
        client = Client(server, admin.create_client("r", credits=5))
        first = client.http.post(
            UPLOAD + "ToolICR", files={"x": ("x", b"x")}, headers={"accessToken": client.token()}
        ).status_code
        second = client.upload("ToolICR", _one_page()).status_code
        third = client.upload("ToolICR", _one_page()).status_code
        client.close()
        return {"missing_file": first, "valid_right_after": second, "valid_again_at_once": third}


def hostile(bound: float = 240) -> dict[str, Any]:
    """Each input of the corpus (heavy ones included) on a fresh client; a job still
    running after ``bound`` seconds is recorded as such (it is handed back to the queue
    when the service stops, not lost)."""
    from tests.hostile import corpus

    rows = []
    with _service() as (server, admin):
        for item in corpus(heavy=True):
            client = Client(server, admin.create_client("hostile", credits=5000))
            started = time.monotonic()
            response = client.upload(item.tool, item.make(), name=item.file_name)
            row: dict[str, Any] = {"input": item.name, "tool": item.tool, "http": response.status_code}
            if response.status_code == 201:
                body = client.wait(response.json()["jobId"], timeout=bound)
                row["job"] = body.get("status")
                row["code"] = (body.get("error") or {}).get("code")
                row["leaked_passwd"] = "root:" in json.dumps(body)
            else:
                row["code"] = response.json().get("code")
            row["seconds"] = round(time.monotonic() - started, 1)
            row["charged"] = 5000 - admin.credits(client.creds.client_id)
            rows.append(row)
            client.close()
    return {
        "inputs": rows,
        "server_errors": sum(1 for r in rows if r["http"] >= 500),
        "leaks": sum(1 for r in rows if r.get("leaked_passwd")),
    }


def memory(uploads: int = 4) -> dict[str, Any]:
    """One client uploads ``uploads`` 14000x14000 RGB PNGs (a few hundred KB each, 588 MB
    each as RGB) at once, another client then a one-page job: the figures are the other
    job's time, the huge jobs' outcomes, the peak RSS of the worker processes and credits."""
    from tests.hostile import grey_png

    png = grey_png(14000, 14000, rgb=True)
    with _service(upload_rate_per_second=1000) as (server, admin):
        bomber = Client(server, admin.create_client("bomber", credits=100))
        bombers = [bomber] * uploads
        other = Client(server, admin.create_client("other", credits=100))
        peak = [0, 0]
        sampling = threading.Event()

        one_worker = [0]

        def sample() -> None:
            while not sampling.is_set():
                with contextlib.suppress(psutil.Error):
                    api, workers = server.rss()
                    peak[0], peak[1] = max(peak[0], api), max(peak[1], workers)
                    one_worker[0] = max(one_worker[0], server.largest_worker_rss())
                time.sleep(0.2)

        sampler = threading.Thread(target=sample)
        sampler.start()
        ids: dict[int, str] = {}
        answers: Counter[int] = Counter()

        def send(index: int) -> None:
            response = bombers[index].upload("ToolICR", png, "big.png")
            answers[response.status_code] += 1
            if response.status_code == 201:
                ids[index] = response.json()["jobId"]

        threads = [threading.Thread(target=send, args=(i,)) for i in range(uploads)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        started = time.monotonic()
        normal = other.upload("ToolClassify", _one_page()).json()["jobId"]
        normal_body = other.wait(normal)
        normal_seconds = time.monotonic() - started
        outcomes: Counter[str] = Counter()
        for index, job_id in ids.items():
            body = bombers[index].wait(job_id, timeout=900)
            outcomes[f"{body.get('status')}:{(body.get('error') or {}).get('code', '')}"] += 1
        sampling.set()
        sampler.join()
        result = {
            "png_bytes": len(png),
            "uploads": uploads,
            "upload_answers": dict(answers),
            "outcomes": dict(outcomes),
            "other_job": normal_body.get("status"),
            "other_job_seconds": round(normal_seconds, 1),
            "peak_api_rss_mb": round(peak[0] / 2**20),
            "peak_workers_rss_mb": round(peak[1] / 2**20),
            "peak_one_worker_rss_mb": round(one_worker[0] / 2**20),
            "bomber_credits_spent": 100 - admin.credits(bomber.creds.client_id),
            "other_credits_spent": 100 - admin.credits(other.creds.client_id),
            "oom_kills": server.log().count("Killed"),
        }
        bomber.close()
        other.close()
        return result


_DECODE_PROBE = """
import resource, sys, time
from prefect_docai.engines.page import decode
from prefect_docai.engines.page.document import load_document
data = open(sys.argv[2], "rb").read()
if sys.argv[1] == "full":
    decode.REDUCE_ABOVE = 10**15  # the plain path: what every image took before
started = time.monotonic()
with load_document(data) as document:
    shape = document.ocr_raster(1).shape
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024, time.monotonic() - started,
      *shape)
"""


_ICR_PROBE = """
import resource, sys, time
from prefect_docai.engines.icr.engine import IcrEngine
from prefect_docai.engines.pluginspec import EngineOptions
data = open(sys.argv[1], "rb").read()
started = time.monotonic()
IcrEngine().run(data, EngineOptions(output_formats=("PDF", "TXT")))
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024, time.monotonic() - started)
"""


def decode_rss() -> dict[str, Any]:
    """Peak RSS of one process that opens a 14000x14000 PNG (grey and RGB) and makes the
    raster OCR reads (80 MP), with the reduced decoding and with the plain full decode."""
    from tests.hostile import grey_png

    figures: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as folder:
        for kind, rgb in (("grey", False), ("rgb", True)):
            path = Path(folder) / f"{kind}.png"
            path.write_bytes(grey_png(14000, 14000, rgb=rgb))
            for path_name in ("reduced", "full"):
                out = subprocess.run(
                    [sys.executable, "-c", _DECODE_PROBE, path_name, str(path)],
                    capture_output=True, text=True, check=True, cwd=ROOT,
                    env={**os.environ, "PYTHONPATH": f"{ROOT / 'src'}:{ROOT}"},
                ).stdout.split()
                figures[f"{kind}_{path_name}"] = {
                    "peak_rss_mb": round(int(out[0]) / 2**20),
                    "seconds": round(float(out[1]), 1),
                    "ocr_raster": f"{out[3]}x{out[2]}",
                }
            figures[f"{kind}_png_bytes"] = path.stat().st_size
        # The whole ICR engine on the RGB image (OCR raster, OCR, searchable PDF, text).
        out = subprocess.run(
            [sys.executable, "-c", _ICR_PROBE, str(Path(folder) / "rgb.png")],
            capture_output=True, text=True, check=True, cwd=ROOT,
            env={**os.environ, "PYTHONPATH": f"{ROOT / 'src'}:{ROOT}", "DOCAI_OCR_THREADS": "1"},
        ).stdout.split()
        figures["icr_engine_rgb"] = {
            "peak_rss_mb": round(int(out[0]) / 2**20), "seconds": round(float(out[1]), 1)
        }
    return figures


def fairness(pages: int = 1000, bound: float = 180) -> dict[str, Any]:
    """One client uploads two ``pages``-page blank PDFs (ICR), then another client one
    page; how long the small job takes is the figure. The big jobs are followed for
    ``bound`` seconds more (their state then is recorded; they are not the question), and
    how many of their pages ran by then (batches of ``DOCAI_BATCH_PAGES``)."""
    from tests.hostile import blank_pdf

    big = blank_pdf(pages)
    with _service() as (server, admin):
        heavy = Client(server, admin.create_client("heavy", credits=10_000))
        light = Client(server, admin.create_client("light", credits=10))
        started = time.monotonic()
        big_ids = []
        for _ in range(2):
            while (response := heavy.upload("ToolICR", big, "big.pdf")).status_code == 429:
                time.sleep(float(response.headers.get("retry-after", "1")))
            big_ids.append(response.json()["jobId"])
        time.sleep(2)
        light_started = time.monotonic()
        small = light.upload("ToolICR", _one_page()).json()["jobId"]
        small_body = light.wait(small)
        small_seconds = time.monotonic() - light_started
        outcomes = []
        for job_id in big_ids:
            body = heavy.wait(job_id, timeout=bound)
            outcomes.append(
                {
                    "status": body.get("status"),
                    "code": (body.get("error") or {}).get("code"),
                    "seconds_since_upload": round(time.monotonic() - started),
                }
            )
        result = {
            "big_pdf_bytes": len(big),
            "big_pages": pages,
            "small_job": small_body.get("status"),
            "small_job_seconds": round(small_seconds, 1),
            "big_jobs": outcomes,
            "heavy_credits_left": admin.credits(heavy.creds.client_id),
            "big_pages_done": [admin.pages_done(job_id) for job_id in big_ids],
        }
        heavy.close()
        light.close()
        return result


def disk_full() -> dict[str, Any]:
    mount = Path(tempfile.mkdtemp(prefix="docai-tmpfs-"))
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=32m,mode=0700", "tmpfs", str(mount)],
        capture_output=True,
        check=False,
    )
    if done.returncode != 0:
        return {"skipped": f"cannot mount a tmpfs: {done.stderr.decode().strip()}"}
    try:
        with _service(data_dir=mount / "data", min_free_bytes=2 * 2**20) as (server, admin):
            client = Client(server, admin.create_client("disk", credits=100))
            accepted = client.upload("ToolICR", _one_page("accepted before the disk filled"))
            job = accepted.json()["jobId"]
            filler = mount / "filler"
            with contextlib.suppress(OSError), filler.open("wb", buffering=0) as handle:
                while True:
                    handle.write(b"\0" * 65536)
            log_before = len(server.log().splitlines())
            refused = client.upload("ToolICR", _one_page("while full"))
            ready = httpx.get(server.base + "/readyz")
            time.sleep(10)
            log_lines = len(server.log().splitlines()) - log_before
            tracebacks = server.log().count("Traceback")
            filler.unlink()
            freed = time.monotonic()
            while httpx.get(server.base + "/readyz").status_code != 200:
                time.sleep(0.2)
            recovered = time.monotonic() - freed
            body = client.wait(job)
            after = client.upload("ToolICR", _one_page("after"))
            result = {
                "upload_while_full": refused.status_code,
                "code": refused.json().get("code"),
                "retry_after": refused.headers.get("retry-after"),
                "readyz_while_full": ready.status_code,
                "log_lines_in_10s_full": log_lines,
                "tracebacks": tracebacks,
                "ready_again_after_s": round(recovered, 1),
                "accepted_job": body.get("status"),
                "upload_after_recovery": after.status_code,
                "credits_charged": 100 - admin.credits(client.creds.client_id),
            }
            client.close()
            return result
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)
        shutil.rmtree(mount, ignore_errors=True)


def deletion(ttl: float = 20, grace: float = 3) -> dict[str, Any]:
    from sqlalchemy import create_engine, text

    with _service(result_ttl=ttl, download_grace=grace, purge_interval=1) as (server, admin):
        client = Client(server, admin.create_client("del", credits=10))
        results = server.data_dir / "blobs" / "results"
        fetched = client.upload("ToolICR", _one_page(), email="who@example.com").json()["jobId"]
        client.wait(fetched)
        downloaded = time.monotonic()
        while (results / fetched).exists() and time.monotonic() - downloaded < ttl * 2:
            time.sleep(0.2)
        gone_after_download = time.monotonic() - downloaded
        time.sleep(2)  # the upload slot
        kept = client.upload("ToolICR", _one_page("never fetched")).json()["jobId"]
        engine = create_engine(f"sqlite:///{server.data_dir / 'docai.sqlite3'}")

        def row(job_id: str) -> dict[str, Any]:
            with engine.connect() as connection:
                return dict(
                    connection.execute(text("SELECT * FROM jobs WHERE id=:i"), {"i": job_id})
                    .mappings()
                    .one()
                )

        while row(kept)["status"] not in ("succeeded", "failed"):
            time.sleep(0.2)
        ended = time.monotonic()
        while (results / kept).exists() and time.monotonic() - ended < ttl * 3:
            time.sleep(0.2)
        gone_at_ttl = time.monotonic() - ended
        outbox = list((server.data_dir / "outbox").glob("*.eml"))
        while row(fetched)["file_name"] and time.monotonic() - ended < ttl * 3:
            time.sleep(0.2)
        anonymised = row(fetched)
        engine.dispose()
        client.close()
        return {
            "ttl_s": ttl,
            "grace_s": grace,
            "downloaded_result_deleted_after_s": round(gone_after_download, 1),
            "undownloaded_result_deleted_after_s": round(gone_at_ttl, 1),
            "outbox_mails_left_after_ttl": len(outbox),
            "row_after_ttl": {
                k: anonymised[k]
                for k in ("tool", "page_count", "credits_charged", "file_name", "sha256", "email")
            },
        }


def replicas() -> dict[str, Any]:
    from tests.api.postgres import start_server

    postgres = start_server()
    try:
        url = postgres.url(postgres.create_database())
        root = Path(tempfile.mkdtemp(prefix="docai-replicas-"))
        data_dir = root / "shared"
        from prefect_docai.server.embedded import EmbeddedService

        admin = EmbeddedService(data_dir, database_url=url)
        creds = admin.create_client("shared", credits=100)
        env = {"DOCAI_DATABASE_URL": url}
        with Server(data_dir, env) as first, Server(data_dir, env) as second:
            one, two = Client(first, creds), Client(second, creds)
            statuses = []
            for _ in range(10):
                statuses.append(one.upload("ToolClassify", _one_page()).status_code)
                statuses.append(two.upload("ToolClassify", _one_page()).status_code)
                time.sleep(1.05)
            one.close()
            two.close()
        admin.stop()
        shutil.rmtree(root, ignore_errors=True)
        return {
            "pattern": "upload on replica A then at once on replica B, 10 times, 1.05 s apart",
            "statuses": dict(Counter(statuses)),
        }
    finally:
        postgres.stop()


def _soak_documents(seed: int = 7) -> dict[str, list[tuple[str, bytes]]]:
    from prefect_docai import samples

    rng = random.Random(seed)
    docs: dict[str, list[tuple[str, bytes]]] = {tool: [] for tool in TOOLS}
    types = list(samples.DOC_TYPES)
    for i in range(8):
        docs["ICR"].append(("letter.pdf", samples.generate(rng.choice(types), seed=i).pdf))
        docs["Classify"].append(("doc.pdf", samples.generate(rng.choice(types), seed=100 + i).pdf))
        docs["Invoice"].append(("invoice.pdf", samples.generate("invoice", seed=200 + i).pdf))
        docs["Receipt"].append(("receipt.pdf", samples.generate("receipt", seed=300 + i).pdf))
        docs["TableExtraction"].append(
            ("table.pdf", samples.generate("invoice", seed=400 + i).pdf)
        )
        stream, _ = samples.sample_stream(500 + i, documents=2)
        docs["PaperFlow"].append(("stream.pdf", stream))
    return docs


def soak(seconds: float = 600, clients: int = 30, credits: int = 100_000) -> dict[str, Any]:
    """Closed loop: each client uploads (a random tool), waits for the result, fetches it,
    and goes again; tokens are renewed on expiry."""
    docs = _soak_documents()
    with _service(token_ttl=120) as (server, admin):
        creds = [admin.create_client(f"soak-{i}", credits=credits) for i in range(clients)]
        statuses: Counter[int] = Counter()
        accepted: dict[str, tuple[int, str]] = {}
        ended: dict[str, dict[str, Any]] = {}
        errors: list[str] = []
        transport_errors: Counter[str] = Counter()
        uploads_sent = [0] * clients
        rss: list[tuple[float, int, int]] = []
        stop_at = time.monotonic() + seconds
        started = time.monotonic()

        async def one(index: int) -> None:
            rng = random.Random(index)
            async with httpx.AsyncClient(base_url=server.base, timeout=300) as http:
                token = ""

                async def call(method: str, url: str, **kwargs: Any) -> httpx.Response:
                    # A kept-alive connection the server closed while idle fails the next
                    # request on it; like the project's client, retry (uploads carry an
                    # Idempotency-Key, so a retry never makes a second job).
                    for attempt in range(5):
                        try:
                            return await attempt_call(method, url, **kwargs)
                        except httpx.TransportError as exc:
                            transport_errors[type(exc).__name__] += 1
                            if attempt == 4:
                                raise
                            await asyncio.sleep(0.5 * (attempt + 1))
                    raise AssertionError("unreachable")

                async def attempt_call(method: str, url: str, **kwargs: Any) -> httpx.Response:
                    nonlocal token
                    extra = dict(kwargs.pop("headers", {}))
                    for _ in range(3):
                        if not token:
                            got = await http.post(
                                "/oauth/token",
                                data={
                                    "grant_type": "client_credentials",
                                    "client_id": creds[index].client_id,
                                    "client_secret": creds[index].client_secret.get_secret_value(),
                                },
                            )
                            statuses[got.status_code] += 1
                            token = got.json()["access_token"]
                        headers = {"accessToken": token, **extra}
                        response = await http.request(method, url, headers=headers, **kwargs)
                        statuses[response.status_code] += 1
                        if response.status_code != 401:
                            return response
                        token = ""
                    return response

                while time.monotonic() < stop_at:
                    tool = rng.choice(TOOLS)
                    name, data = rng.choice(docs[tool])
                    key = f"soak-{index}-{uploads_sent[index]}"
                    uploads_sent[index] += 1
                    response = await call(
                        "POST",
                        UPLOAD + "Tool" + tool,
                        files={"file": (name, data)},
                        headers={"Idempotency-Key": key},
                    )
                    if response.status_code == 429:
                        await asyncio.sleep(float(response.headers.get("retry-after", "1")))
                        continue
                    if response.status_code != 201:
                        errors.append(f"upload {response.status_code}: {response.text[:200]}")
                        continue
                    job_id = response.json()["jobId"]
                    accepted[job_id] = (index, tool)
                    while True:
                        got = await call("GET", f"{RESULT}{job_id}/json")
                        body = got.json()
                        if got.status_code == 404 and body.get("code") == "job_pending":
                            await asyncio.sleep(float(got.headers.get("retry-after", "2")))
                            continue
                        ended[job_id] = {"http": got.status_code, **body}
                        break

        async def sample() -> None:
            while time.monotonic() < stop_at + 5:
                with contextlib.suppress(psutil.Error):
                    api_rss, workers_rss = server.rss()
                    rss.append((time.monotonic() - started, api_rss, workers_rss))
                await asyncio.sleep(15)

        async def run() -> None:
            sampler = asyncio.create_task(sample())
            await asyncio.gather(*(one(i) for i in range(clients)))
            sampler.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await sampler

        asyncio.run(run())
        elapsed = time.monotonic() - started
        lost = [job_id for job_id in accepted if job_id not in ended]
        succeeded = [b for b in ended.values() if b.get("status") == "succeeded"]
        failed = [b for b in ended.values() if b.get("status") == "failed"]
        charged = sum(int(b.get("creditsCharged", 0)) for b in succeeded)
        balance = sum(admin.credits(c.client_id) for c in creds)
        by_tool = Counter(tool for _, tool in accepted.values())
        first_api = rss[0][1] if rss else 0
        api_series = [r[1] for r in rss]
        worker_series = [r[2] for r in rss]
        return {
            "clients": clients,
            "seconds": round(elapsed),
            "requests": sum(statuses.values()),
            "statuses": dict(sorted(statuses.items())),
            "server_errors": sum(n for s, n in statuses.items() if s >= 500),
            "jobs_accepted": len(accepted),
            "jobs_by_tool": dict(by_tool),
            "jobs_succeeded": len(succeeded),
            "jobs_failed": len(failed),
            "failed_codes": dict(Counter((b.get("error") or {}).get("code") for b in failed)),
            "jobs_lost": len(lost),
            "credits_expected": clients * credits - charged,
            "credits_actual": balance,
            "credits_exact": balance == clients * credits - charged,
            "unexpected_upload_answers": errors[:10],
            "transport_errors_retried": dict(transport_errors),
            "api_rss_mb_first_last_max": [
                round(first_api / 2**20),
                round(api_series[-1] / 2**20) if api_series else 0,
                round(max(api_series, default=0) / 2**20),
            ],
            "workers_rss_mb_first_last_max": [
                round(worker_series[0] / 2**20) if worker_series else 0,
                round(worker_series[-1] / 2**20) if worker_series else 0,
                round(max(worker_series, default=0) / 2**20),
            ],
            "rss_samples": [(round(t), round(a / 2**20), round(w / 2**20)) for t, a, w in rss],
        }


SCENARIOS: dict[str, Callable[..., dict[str, Any]]] = {
    "brute_force": brute_force,
    "log_forgery": log_forgery,
    "headers": headers,
    "rejected_upload": rejected_upload,
    "hostile": hostile,
    "memory": memory,
    "decode_rss": decode_rss,
    "fairness": fairness,
    "disk_full": disk_full,
    "deletion": deletion,
    "replicas": replicas,
    "soak": soak,
}


NOTES = [
    "- The machine was shared with other work throughout, so times are slow; the correctness",
    "  figures (5xx, lost jobs, credits) do not depend on it. Scenarios run since issue 18's",
    "  fairness work record the 1-minute load average before and after their run",
    "  (`load_average_before_after`, 2 CPUs); the earlier ones ran at a load of about 20.",
    "- Brute force: before issue 18 every wrong secret was checked (364 checks/s measured);",
    "  now a few per second pass the throttle (the burst, then 0.2/s per client id), the rest",
    "  get 429 `slow_down`, and the rightful client gets in once the Retry-After has passed.",
    "- Memory: one client uploads four 14000x14000 RGB PNGs at once (before issue 18's",
    "  cost-based turns the other client's job waited more than 10 minutes behind four such",
    "  images, and a worker reached 1.24 GB). Each image now costs 23 page units (8.7 MP a",
    "  unit), so the images are big jobs: at most `workers - 1` of them run at once and the",
    "  other client's job takes the worker left. Each is decoded straight to grey and reduced",
    "  to the 80 MP OCR raster before anything else is made (`engines/page/decode.py`).",
    "  The other job (ToolClassify) ran in the worker left free; most of its time is that",
    "  worker loading the classifier's models on a machine at a load average of about 20.",
    "- decode_rss: one process opening a 14000x14000 PNG and making the raster OCR reads:",
    "  the reduced decoding against the plain full decode every image took before. For PNG",
    "  the full-resolution grey plane (1 byte a pixel, 196 MB) still exists for a moment",
    "  (OpenCV decodes whole planes); the full RGB (588 MB) and its copies never do.",
    "  `icr_engine_rgb` is the whole ICR run on the RGB image (OCR raster, OCR, searchable",
    "  PDF, text): the same probe gave 2385 MB while the searchable PDF still embedded the",
    "  image decoded whole in colour (that was also most of the worker peak in `memory`'s",
    "  first run); now an image over 80 MP is embedded at the OCR raster's resolution.",
    "- Fairness: the 1000-page ICR jobs run in batches of `DOCAI_BATCH_PAGES` (25) pages;",
    "  between two batches the worker is free and the next turn runs. Both big jobs are one",
    "  account's, so they run in upload order, and as big jobs at most one at a time on the",
    "  2 workers (the other worker stays for small jobs). `big_pages_done` is",
    "  how far each had got when the scenario stopped following them (blank pages still",
    "  pass through OCR); they are handed back to the queue, with their batches kept, when",
    "  the service stops.",
    "- Hostile corpus: 21 inputs, no 5xx, /etc/passwd never in a result; every refusal",
    "  charged nothing. The 1999-page blank PDF was still running after the 240 s the",
    "  scenario waits (charged 1999 credits until it ends; refunded if it fails).",
    "- Soak: worker RSS grows while the engines load their models (first 200 s), then stays",
    "  within 1 % (770-774 MB); the API process grows 6 MB over the last 560 s. One",
    "  connection closed by the server while idle (keep-alive race) was retried by the client.",
]


TESTED = [
    "| issue 18 point | tests (real HTTP on loopback) |",
    "|---|---|",
    "| 1 rejected uploads keep the rate slot | `tests/api/test_upload_rate.py` |",
    "| 2 fairness, page batches, page cap per plan, time bound | `tests/api/test_fairness.py`, "
    "`tests/unit/test_icr_batches.py` (batched = single run), "
    "`tests/api/test_replica_limits.py::test_owners_take_turns_across_replicas` |",
    "| 3 worker memory bound, reduced decoding, turns by cost | `tests/api/test_memory.py` "
    "(one client's 4 x 10000x10000 RGB PNG at once beside another's job), "
    "`tests/unit/test_image_decode.py` |",
    "| 4 deletion after use | `tests/api/test_deletion.py`, `tests/api/test_retention.py` |",
    "| 5 token throttle, log escaping | `tests/api/test_hardening.py` |",
    "| 6 disk full | `tests/api/test_disk_full.py` (a 16 MiB tmpfs) |",
    "| 7 headers, offline docs, file modes | `tests/api/test_hardening.py` |",
    "| 8 limits across replicas, mail bounds | `tests/api/test_replica_limits.py` (PostgreSQL), "
    "`tests/api/test_mail_limits.py` |",
    "| hostile inputs | `tests/api/test_hostile.py` (corpus: `tests/hostile.py`) |",
]


def _load(before_after: Any) -> str:
    if not before_after:
        return ""
    return f" (load average {before_after[0]} → {before_after[1]})"


def _summary(scenarios: dict[str, Any]) -> list[str]:
    """One line per scenario with the figures that answer its question."""

    def get(name: str, *path: str) -> Any:
        value: Any = scenarios.get(name, {})
        for key in path:
            value = value.get(key) if isinstance(value, dict) else None
        return value

    rows: list[tuple[str, str, str]] = []
    if "brute_force" in scenarios:
        rows.append((
            "token endpoint under brute force",
            f"{get('brute_force', 'requests_per_s')} wrong-secret requests/s sent",
            f"{get('brute_force', 'secret_checks_per_s')} secret checks/s reached; rightful "
            f"client in again {get('brute_force', 'rightful_client_waited_s')} s after it stopped",
        ))
    if "log_forgery" in scenarios:
        rows.append((
            "CR LF in a URL path",
            "access log",
            f"{get('log_forgery', 'forged_lines')} forged lines",
        ))
    if "rejected_upload" in scenarios:
        rows.append((
            "valid upload right after a 400",
            "status",
            str(get("rejected_upload", "valid_right_after")),
        ))
    if "hostile" in scenarios:
        inputs = get("hostile", "inputs") or []
        rows.append((
            f"hostile corpus ({len(inputs)} inputs, real engines)",
            "5xx / leaked /etc/passwd",
            f"{get('hostile', 'server_errors')} / {get('hostile', 'leaks')}",
        ))
    if "memory" in scenarios:
        rows.append((
            "one client's 4 x 14000x14000 RGB PNG at once, another client's 1-page job",
            "peak RSS of one worker (all workers) / other job / huge jobs",
            f"{get('memory', 'peak_one_worker_rss_mb')} MB ({get('memory', 'peak_workers_rss_mb')}"
            f" MB) / {get('memory', 'other_job')} in "
            f"{get('memory', 'other_job_seconds')} s / {json.dumps(get('memory', 'outcomes'))}"
            f"{_load(get('memory', 'load_average_before_after'))}",
        ))
    if "decode_rss" in scenarios:
        rows.append((
            "decoding a 14000x14000 PNG for OCR (one process)",
            "peak RSS reduced vs full decode, grey / RGB PNG",
            f"{get('decode_rss', 'grey_reduced', 'peak_rss_mb')} vs "
            f"{get('decode_rss', 'grey_full', 'peak_rss_mb')} MB / "
            f"{get('decode_rss', 'rgb_reduced', 'peak_rss_mb')} vs "
            f"{get('decode_rss', 'rgb_full', 'peak_rss_mb')} MB; whole ICR run on the RGB PNG "
            f"{get('decode_rss', 'icr_engine_rgb', 'peak_rss_mb')} MB",
        ))
    if "fairness" in scenarios:
        rows.append((
            f"2 x {get('fairness', 'big_pages')}-page jobs vs another client's 1-page job",
            "1-page job done after",
            f"{get('fairness', 'small_job_seconds')} s ({get('fairness', 'small_job')})"
            f"{_load(get('fairness', 'load_average_before_after'))}",
        ))
    if "disk_full" in scenarios:
        rows.append((
            "disk full (tmpfs)",
            "upload / readyz / accepted job",
            f"{get('disk_full', 'upload_while_full')} / {get('disk_full', 'readyz_while_full')} / "
            f"{get('disk_full', 'accepted_job')}",
        ))
    if "deletion" in scenarios:
        rows.append((
            "deletion after use",
            "downloaded / undownloaded result deleted after",
            f"{get('deletion', 'downloaded_result_deleted_after_s')} s / "
            f"{get('deletion', 'undownloaded_result_deleted_after_s')} s",
        ))
    if "replicas" in scenarios:
        rows.append((
            "two replicas, one PostgreSQL",
            "upload statuses (A then B at once)",
            json.dumps(get("replicas", "statuses")),
        ))
    if "soak" in scenarios:
        rows.append((
            f"soak: {get('soak', 'clients')} clients x {get('soak', 'seconds')} s, mixed tools",
            "5xx / lost jobs / credits exact",
            f"{get('soak', 'server_errors')} / {get('soak', 'jobs_lost')} / "
            f"{get('soak', 'credits_exact')} ({get('soak', 'jobs_accepted')} jobs)",
        ))
        rows.append((
            "soak RSS (first, last, max MB)",
            "API process / workers",
            f"{get('soak', 'api_rss_mb_first_last_max')} / "
            f"{get('soak', 'workers_rss_mb_first_last_max')}",
        ))
    lines = ["| scenario | measured | result |", "|---|---|---|"]
    lines += [f"| {a} | {b} | {c} |" for a, b, c in rows]
    return lines


def _markdown(report: dict[str, Any]) -> str:
    lines = [
        "# Reliability and security figures",
        "",
        "Produced by `python -m benchmarks.reliability` (issue 18) on "
        f"{report['machine']}; each scenario",
        "carries the time of its run (`run_at`; `--only NAME` re-runs one and keeps the others).",
        "What each scenario does is in the module's docstrings; the hostile inputs are generated",
        "by `tests/hostile.py`, never committed. Every scenario runs `docai serve` with the real",
        "engines in its own process and talks to it over HTTP on loopback.",
        "",
        "## Summary",
        "",
        *_summary(report["scenarios"]),
        "",
        "## Reading the figures",
        "",
        *NOTES,
        "",
        "## Where each point is tested",
        "",
        *TESTED,
        "",
        "## Figures",
        "",
    ]
    for name, figures in report["scenarios"].items():
        lines += [f"### {name}", "", "```json", json.dumps(figures, indent=2, default=str), "```", ""]
    return "\n".join(lines)


def _record(out: Path, machine: str, name: str, figures: dict[str, Any]) -> None:
    """Store one scenario's figures, keeping the others' (read back just before writing,
    so runs of different scenarios at once do not drop each other's figures)."""
    report = json.loads(out.read_text()) if out.exists() else {"scenarios": {}}
    report["machine"] = machine
    report.setdefault("scenarios", {})[name] = figures
    order = list(SCENARIOS)
    report["scenarios"] = dict(
        sorted(report["scenarios"].items(), key=lambda item: order.index(item[0]))
    )
    tmp = out.with_suffix(".tmp")
    tmp.write_text(json.dumps(report, indent=2, default=str))
    tmp.replace(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default=",".join(SCENARIOS), help="comma-separated scenarios")
    parser.add_argument("--soak-seconds", type=float, default=600)
    parser.add_argument("--soak-clients", type=int, default=30)
    parser.add_argument("--fairness-pages", type=int, default=1000)
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    RESULTS.mkdir(parents=True, exist_ok=True)
    out = RESULTS / "reliability.json"
    machine = (
        f"{platform.machine()}, {os.cpu_count()} CPU(s), "
        f"{round(psutil.virtual_memory().total / 2**30)} GiB"
    )
    for name in filter(None, args.only.split(",")):
        print(f"--- {name}", flush=True)
        started = time.monotonic()
        load = round(os.getloadavg()[0], 2)
        kwargs: dict[str, Any] = {}
        if name == "soak":
            kwargs = {"seconds": args.soak_seconds, "clients": args.soak_clients}
        if name == "fairness":
            kwargs = {"pages": args.fairness_pages}
        try:
            figures = SCENARIOS[name](**kwargs)
        except Exception as exc:  # a scenario that breaks is reported, the others still run
            figures = {"error": f"{type(exc).__name__}: {exc}"}
        figures["wall_seconds"] = round(time.monotonic() - started, 1)
        # The machine is shared: its load (1-minute average) before and after the run.
        figures["load_average_before_after"] = [load, round(os.getloadavg()[0], 2)]
        figures["run_at"] = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
        print(json.dumps(figures, indent=2, default=str), flush=True)
        _record(out, machine, name, figures)
    # Rendered from the stored figures (also with --only '' : just re-render).
    report = json.loads(out.read_text()) if out.exists() else {"machine": machine, "scenarios": {}}
    REPORT.parent.mkdir(parents=True, exist_ok=True)
    REPORT.write_text(_markdown(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
