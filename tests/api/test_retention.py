"""Retention: results are purged after the TTL and then answer 404 job_expired; inputs no
job needs (left by a crash) are deleted after a grace period."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import httpx

from prefect_docai.server import storage
from prefect_docai.server.embedded import EmbeddedService
from prefect_docai.server.storage import BlobStore
from tests.api import documents
from tests.api.conftest import Api, problem
from tests.api.lifecycle_engine import ENGINES
from tests.api.serve_process import wait_until_ready

REPO = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_purge_expires_results() -> None:
    with EmbeddedService(workers=1, engines=ENGINES, result_ttl=1.5, purge_interval=0.2) as service:
        api = Api(service, service.create_client(credits=10))
        key = {"Idempotency-Key": "keep"}
        data = documents.pdf("short-lived")
        job_id = api.job("ToolICR", data, headers=key)
        assert api.wait(job_id).json()["status"] == "succeeded"
        results = service.settings.data_dir / "blobs" / "results" / job_id
        assert (results / "result.json").exists()
        deadline = time.monotonic() + 20
        while results.exists():
            assert time.monotonic() < deadline, "results were not purged"
            time.sleep(0.1)
        for kind in ("json", "zip", "file"):
            response = api.result(job_id, kind, outputType="PDF")
            assert response.status_code == 404
            body = problem(response)
            assert body["code"] == "job_expired"
            assert body["jobStatus"] == "expired"
        assert not (service.settings.data_dir / "blobs" / "inputs" / job_id).exists()
        # The key still names the same (now expired) job, and charges nothing again.
        time.sleep(1.0)
        again = api.upload("ToolICR", data, headers=key)
        assert again.status_code == 201 and again.json()["jobId"] == job_id
        assert api.credits() == 9
        api.close()


def _backdate(path: Path, seconds: float = 120) -> None:
    when = time.time() - seconds
    os.utime(path, (when, when))


def test_inputs_no_job_needs_are_swept_after_the_grace_period() -> None:
    with EmbeddedService(
        workers=1,
        engines=ENGINES,
        purge_interval=0.2,
        orphan_grace=60,
        upload_rate_per_second=1e6,
    ) as service:
        api = Api(service, service.create_client(credits=10))
        inputs = service.settings.data_dir / "blobs" / "inputs"
        store = BlobStore(service.settings.blob_url)
        # An ended job whose input survived (a crash between its end and the deletion).
        ended = api.job("ToolICR", documents.pdf("ended"))
        assert api.wait(ended).json()["status"] == "succeeded"
        store.put(storage.input_key(ended), b"left over")
        # A job being processed and one queued behind it: old inputs, still needed.
        processing = api.job("ToolICR", documents.pdf("SLEEP 4"))
        queued = api.job("ToolICR", documents.pdf("queued"))
        deadline = time.monotonic() + 30
        while api.result(processing).json().get("jobStatus") != "processing":
            assert time.monotonic() < deadline
            time.sleep(0.05)
        # Crashes between storing an upload and committing its job, and mid-write.
        crashed, half_written, in_flight = (str(uuid.uuid4()) for _ in range(3))
        store.put(storage.input_key(crashed), b"%PDF orphan")
        (inputs / f"{half_written}.part").write_bytes(b"%PDF half")
        store.put(storage.input_key(in_flight), b"%PDF just stored")  # within the grace
        for name in (ended, processing, queued, crashed, f"{half_written}.part"):
            _backdate(inputs / name)

        deadline = time.monotonic() + 10
        while any((inputs / name).exists() for name in (ended, crashed, f"{half_written}.part")):
            assert time.monotonic() < deadline, sorted(p.name for p in inputs.iterdir())
            time.sleep(0.1)
        assert api.result(processing).json().get("jobStatus") == "processing"
        assert (inputs / processing).exists() and (inputs / queued).exists()
        assert (inputs / in_flight).exists()
        # Both still-needed inputs were kept: their jobs complete.
        assert api.wait(processing).json()["status"] == "succeeded"
        assert api.wait(queued).json()["result"]["texts"] == ["queued"]
        assert sorted(p.name for p in inputs.iterdir()) == [in_flight]
        api.close()


def test_upload_stored_by_a_service_killed_before_queueing_it_is_swept(tmp_path: Path) -> None:
    """A real crash in the window: the database is held locked so the upload's transaction
    waits after its bytes are stored, and the service is killed there."""
    data_dir = tmp_path / "data"
    creds = EmbeddedService(data_dir).create_client("crash", credits=5)
    port = _free_port()
    env = {**os.environ, "DOCAI_ENGINES": ENGINES, "PYTHONPATH": os.pathsep.join([str(REPO / "src"), str(REPO)])}
    log_path = tmp_path / "serve.log"
    with log_path.open("wb") as log:
        server = subprocess.Popen(
            [
                str(Path(sys.executable).with_name("docai")),
                *("serve", "--port", str(port), "--data-dir", str(data_dir)),
                *("--workers", "1", "--log-level", "warning"),
            ],
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    inputs = data_dir / "blobs" / "inputs"
    lock = sqlite3.connect(data_dir / "docai.sqlite3", isolation_level=None)
    try:
        base = f"http://127.0.0.1:{port}"
        wait_until_ready(base, server, log_path)
        token = httpx.post(
            base + "/oauth/token",
            auth=(creds.client_id, creds.client_secret.get_secret_value()),
            data={"grant_type": "client_credentials"},
        ).json()["access_token"]
        lock.execute("BEGIN EXCLUSIVE")

        def upload() -> None:
            with contextlib.suppress(httpx.TransportError):
                httpx.post(
                    base + "/api/FileUpload/v1/Upload/ToolICR",
                    files={"file": ("lost.pdf", documents.pdf("never queued"))},
                    headers={"accessToken": token},
                    timeout=60,
                )

        sender = threading.Thread(target=upload, daemon=True)
        sender.start()
        deadline = time.monotonic() + 20
        while not (inputs.is_dir() and [p for p in inputs.iterdir() if "." not in p.name]):
            assert time.monotonic() < deadline, log_path.read_text()
            time.sleep(0.02)
        server.send_signal(signal.SIGKILL)
        server.wait(10)
        sender.join(10)
    finally:
        if lock.in_transaction:
            lock.rollback()
        lock.close()
        if server.poll() is None:
            server.kill()
            server.wait()
    (orphan,) = inputs.iterdir()
    rows = sqlite3.connect(data_dir / "docai.sqlite3").execute("SELECT count(*) FROM jobs")
    assert rows.fetchone() == (0,)

    with EmbeddedService(
        data_dir, workers=1, engines=ENGINES, purge_interval=0.2, orphan_grace=1
    ) as service:
        deadline = time.monotonic() + 15
        while orphan.exists():
            assert time.monotonic() < deadline, "the orphaned upload was never deleted"
            time.sleep(0.1)
        assert service.credits(creds.client_id) == 5  # nothing was charged
