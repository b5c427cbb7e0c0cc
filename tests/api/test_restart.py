"""Jobs survive a stop and a crash of the service, complete once and are charged once;
the worker processes never outlive the service."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from prefect_docai.server.db import Database, JobRow
from prefect_docai.server.embedded import EmbeddedService
from tests.api import documents
from tests.api.conftest import Api
from tests.api.lifecycle_engine import ENGINES
from tests.api.serve_process import wait_until_ready

REPO = Path(__file__).resolve().parents[2]


def _wait_status(api: Api, job_id: str, status: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        body = api.result(job_id).json()
        if body.get("jobStatus", body.get("status")) == status:
            return
        time.sleep(0.05)
    raise AssertionError(f"job {job_id} never reached {status}")


def _job(data_dir: Path, job_id: str) -> JobRow:
    db = Database(f"sqlite:///{data_dir / 'docai.sqlite3'}")
    try:
        with db.session() as session:
            job = session.get(JobRow, job_id)
            assert job is not None
            return job
    finally:
        db.dispose()


def _descendants(pid: int) -> set[int]:
    found: set[int] = set()
    todo = [pid]
    while todo:
        current = todo.pop()
        for task in Path(f"/proc/{current}/task").glob("*"):
            try:
                children = (task / "children").read_text().split()
            except OSError:
                continue
            for child in map(int, children):
                if child not in found:
                    found.add(child)
                    todo.append(child)
    return found


def _workers(pids: set[int]) -> set[int]:
    """Engine workers among ``pids`` (multiprocessing's resource tracker is one per Python
    process, shared by every pool, and lives as long as its parent by design)."""
    found = set()
    for pid in pids:
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if b"resource_tracker" not in cmdline:
            found.add(pid)
    return found


def _alive(pid: int) -> bool:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return "\nState:\tZ" not in status


def test_clean_stop_requeues_and_restart_completes_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run_log = tmp_path / "runs.log"
    monkeypatch.setenv("DOCAI_TEST_RUN_LOG", str(run_log))
    data_dir = tmp_path / "data"
    before = _descendants(os.getpid())
    service = EmbeddedService(data_dir, workers=1, engines=ENGINES).start()
    creds = service.create_client(credits=10)
    api = Api(service, creds)
    job_id = api.job("ToolICR", documents.pdf("SLEEP 3", "two"))
    _wait_status(api, job_id, "processing")
    # The job is processing once claimed; its worker process is spawned right after.
    deadline = time.monotonic() + 15
    while not (workers := _workers(_descendants(os.getpid()) - before)):
        assert time.monotonic() < deadline, "no worker process was started"
        time.sleep(0.05)
    started = time.monotonic()
    service.stop()
    api.close()
    assert time.monotonic() - started < 10
    assert _job(data_dir, job_id).status == "queued"
    time.sleep(0.5)
    assert not [pid for pid in workers if _alive(pid)], "worker processes outlived the service"

    with EmbeddedService(data_dir, workers=1, engines=ENGINES) as again:
        api = Api(again, creds)
        body = api.wait(job_id, timeout=60).json()
        assert api.credits() == 8  # charged once
        api.close()
    assert body["status"] == "succeeded"
    assert body["creditsCharged"] == 2
    assert run_log.read_text().splitlines() == [body["document"]["sha256"]]
    job = _job(data_dir, job_id)
    assert job.attempts == 1  # the interrupted run did not count against the job


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_crash_mid_job_recovers_on_next_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data_dir = tmp_path / "data"
    run_log = tmp_path / "runs.log"
    admin = EmbeddedService(data_dir)
    creds = admin.create_client("crash", credits=5)
    secret = creds.client_secret.get_secret_value()
    port = _free_port()
    env = {
        **os.environ,
        "DOCAI_ENGINES": ENGINES,
        "DOCAI_JOB_LEASE_SECONDS": "1",
        "DOCAI_TEST_RUN_LOG": str(run_log),
        "PYTHONPATH": os.pathsep.join([str(REPO / "src"), str(REPO)]),
    }
    log_path = tmp_path / "serve.log"
    with log_path.open("wb") as log:
        server = subprocess.Popen(
            [
                str(Path(sys.executable).with_name("docai")),
                "serve",
                "--port",
                str(port),
                "--data-dir",
                str(data_dir),
                "--workers",
                "1",
            ],
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            cwd=tmp_path,
        )
    try:
        base = f"http://127.0.0.1:{port}"
        wait_until_ready(base, server, log_path)
        token_response = httpx.post(
            base + "/oauth/token",
            data={
                "grant_type": "client_credentials",
                "client_id": creds.client_id,
                "client_secret": secret,
            },
        )
        token = token_response.json()["access_token"]
        upload = httpx.post(
            base + "/api/FileUpload/v1/Upload/ToolICR",
            files={"file": ("crash.pdf", documents.pdf("SLEEP 2"))},
            headers={"accessToken": token},
        )
        assert upload.status_code == 201, upload.text
        job_id = upload.json()["jobId"]
        deadline = time.monotonic() + 30
        while (
            httpx.get(
                f"{base}/api/Result/v1/JobResults/{job_id}/json", headers={"accessToken": token}
            )
            .json()
            .get("jobStatus")
            != "processing"
        ):
            assert time.monotonic() < deadline
            time.sleep(0.05)
        deadline = time.monotonic() + 15
        while not _workers(_descendants(server.pid)):
            assert time.monotonic() < deadline, "no worker process was started"
            time.sleep(0.05)
        workers = _descendants(server.pid)  # resource tracker included: it must go too
        server.send_signal(signal.SIGKILL)
        server.wait(10)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
    deadline = time.monotonic() + 10
    while [pid for pid in workers if _alive(pid)]:
        assert time.monotonic() < deadline, "orphaned worker processes after a crash"
        time.sleep(0.2)
    assert _job(data_dir, job_id).status == "processing"
    assert not run_log.exists()

    monkeypatch.setenv("DOCAI_TEST_RUN_LOG", str(run_log))
    with EmbeddedService(data_dir, workers=1, engines=ENGINES, job_lease_seconds=1) as again:
        api = Api(again, creds)
        body = api.wait(job_id, timeout=60).json()
        assert api.credits() == 4  # charged once
        api.close()
    assert body["status"] == "succeeded"
    assert run_log.read_text().splitlines() == [body["document"]["sha256"]]
    # Access logs show requests but never credentials.
    served = log_path.read_text()
    assert "/api/FileUpload/v1/Upload/ToolICR" in served
    assert token not in served and secret not in served
