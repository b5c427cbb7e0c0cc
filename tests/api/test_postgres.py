"""The service on PostgreSQL by URL: the job lifecycle over real HTTP, restart recovery, and
two replicas sharing one database and one storage folder, each job run exactly once."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner

from prefect_docai.server.embedded import EmbeddedService
from tests.api import documents
from tests.api.conftest import Api, problem
from tests.api.lifecycle_engine import ENGINES
from tests.api.postgres import PostgresServer
from tests.api.serve_process import wait_until_ready

REPO = Path(__file__).resolve().parents[2]



def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _wait_status(api: Api, job_id: str, status: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        body = api.result(job_id).json()
        if body.get("jobStatus", body.get("status")) == status:
            return
        time.sleep(0.05)
    raise AssertionError(f"job {job_id} never reached {status}")


def _installed_iso_codes() -> list[str]:
    import pycountry

    from prefect_docai.engines.page.languages import LanguageError, parse_language_hint

    codes = []
    for language in pycountry.languages:
        code = getattr(language, "alpha_2", None)
        try:
            if code and parse_language_hint(code):
                codes.append(code)
        except LanguageError:
            continue
    return codes


def test_lifecycle_on_postgresql(
    postgres: PostgresServer, database: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data_dir = tmp_path / "data"
    url = postgres.url(database)
    # The rate limit is in-process (tested elsewhere); here it would only slow the test.
    with EmbeddedService(
        data_dir, workers=1, engines=ENGINES, database_url=url, upload_rate_per_second=1e6
    ) as service:
        api = Api(service, service.create_client("pg", credits=7))
        data = documents.pdf("on postgres", "page two")
        key = {"Idempotency-Key": "pg-once"}
        job_id = api.job("ToolICR", data, headers=key, params={"outputFormats": "PDF,TXT"})
        body = api.wait(job_id).json()
        assert body["status"] == "succeeded", body
        assert body["result"]["texts"] == ["on postgres", "page two"]
        assert api.result(job_id, "file", outputType="PDF").content == data
        replay = api.upload("ToolICR", data, headers=key)
        assert replay.status_code == 201 and replay.json()["jobId"] == job_id
        assert replay.headers["Idempotent-Replayed"] == "true"
        assert api.credits() == 5  # two pages, charged once

        # A failed job is refunded; a document over the balance is refused.
        failed = api.wait(api.job("ToolClassify", documents.pdf("FAIL"))).json()
        assert failed["status"] == "failed" and failed["error"]["code"] == "test_failure"
        assert api.credits() == 5
        over = api.upload("ToolInvoice", documents.pdf("1", "2", "3", "4", "5", "6"))
        assert over.status_code == 400 and problem(over)["code"] == "insufficient_credits"

        # Many languages expand to more Tesseract packs than a short column would hold.
        many = ",".join(_installed_iso_codes())
        polyglot = api.wait(api.job("ToolTableExtraction", data, params={"languageHint": many}))
        assert polyglot.json()["status"] == "succeeded"
        assert len(",".join(polyglot.json()["result"]["languages"])) > 200

        # A raw control character in the file name (PostgreSQL text cannot hold NUL).
        boundary = "docai-boundary"
        body_bytes = (
            (
                f'--{boundary}\r\nContent-Disposition: form-data; name="file"; '
                f'filename="bad\x00na\x07me.pdf"\r\nContent-Type: application/pdf\r\n\r\n'
            ).encode()
            + data
            + f"\r\n--{boundary}--\r\n".encode()
        )
        raw = api.http.post(
            "/api/FileUpload/v1/Upload/ToolICR",
            content=body_bytes,
            headers={**api.auth(), "Content-Type": f"multipart/form-data; boundary={boundary}"},
        )
        assert raw.status_code == 201, raw.text
        named = api.wait(raw.json()["jobId"]).json()
        assert named["document"]["fileName"] == "badname.pdf"
        api.close()

    # Everything is in PostgreSQL: no SQLite file, and the rows are there.
    assert not (data_dir / "docai.sqlite3").exists()
    rows = dict(postgres.query(database, "SELECT id, status FROM jobs"))
    assert rows[job_id] == "succeeded" and len(rows) == 4
    (balance,) = postgres.query(database, "SELECT credits FROM accounts")
    assert balance == (7 - 2 - 2 - 2,)

    # `docai admin` reaches the same database through DOCAI_DATABASE_URL.
    from prefect_docai.cli import app

    monkeypatch.setenv("DOCAI_DATABASE_URL", url)
    listed = CliRunner().invoke(app, ["admin", "clients", "--json", "--data-dir", str(data_dir)])
    assert listed.exit_code == 0, listed.output
    (client,) = json.loads(listed.stdout)
    assert client["credits"] == 1 and client["name"] == "pg"


def test_restart_recovery_on_postgresql(
    postgres: PostgresServer, database: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run_log = tmp_path / "runs.log"
    monkeypatch.setenv("DOCAI_TEST_RUN_LOG", str(run_log))
    data_dir = tmp_path / "data"
    url = postgres.url(database)
    service = EmbeddedService(data_dir, workers=1, engines=ENGINES, database_url=url).start()
    creds = service.create_client(credits=10)
    api = Api(service, creds)
    job_id = api.job("ToolICR", documents.pdf("SLEEP 1.5", "two"))
    _wait_status(api, job_id, "processing")
    service.stop()
    api.close()
    assert postgres.query(database, "SELECT status FROM jobs") == [("queued",)]

    with EmbeddedService(data_dir, workers=1, engines=ENGINES, database_url=url) as again:
        api = Api(again, creds)
        body = api.wait(job_id, timeout=60).json()
        assert api.credits() == 8  # charged once
        api.close()
    assert body["status"] == "succeeded"
    assert run_log.read_text().splitlines() == [body["document"]["sha256"]]
    assert postgres.query(database, "SELECT attempts FROM jobs") == [(1,)]


def test_two_replicas_share_one_database(
    postgres: PostgresServer, database: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Uploads spread over two replicas; both run jobs, every job runs exactly once."""
    run_log = tmp_path / "runs.log"
    monkeypatch.setenv("DOCAI_TEST_RUN_LOG", str(run_log))
    data_dir = tmp_path / "shared"  # one storage folder and signing key for both
    common: dict[str, Any] = {
        "workers": 1,
        "engines": ENGINES,
        "database_url": postgres.url(database),
        "upload_rate_per_second": 1e6,
    }
    jobs = 8
    with (
        EmbeddedService(data_dir, **common) as first,
        EmbeddedService(data_dir, **common) as second,
    ):
        creds = first.create_client("shared", credits=100)
        apis = [Api(first, creds), Api(second, creds)]
        owners: set[str] = set()
        watching = threading.Event()

        def watch() -> None:
            # Which replica holds each processing job, seen from the database.
            while not watching.is_set():
                for (owner,) in postgres.query(
                    database, "SELECT lease_owner FROM jobs WHERE status = 'processing'"
                ):
                    owners.add(owner)
                time.sleep(0.05)

        watcher = threading.Thread(target=watch, daemon=True)
        watcher.start()
        submitted = {
            apis[i % 2].job("ToolICR", documents.pdf(f"SLEEP 0.4 document {i}")): i
            for i in range(jobs)
        }
        bodies = [apis[i % 2].wait(job_id, timeout=60).json() for job_id, i in submitted.items()]
        watching.set()
        watcher.join(5)
        for api in apis:
            api.close()
        assert first.credits(creds.client_id) == 100 - jobs  # each charged once

    assert all(body["status"] == "succeeded" for body in bodies), bodies
    runs = Counter(run_log.read_text().splitlines())
    assert sorted(runs) == sorted(body["document"]["sha256"] for body in bodies)
    assert set(runs.values()) == {1}, runs  # exactly once each
    assert len(owners) == 2, f"only {owners} ran jobs"
    attempts = postgres.query(database, "SELECT attempts, count(*) FROM jobs GROUP BY attempts")
    assert attempts == [(1, jobs)]


def test_crashed_replica_job_completes_on_another(
    postgres: PostgresServer, database: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A `docai serve` replica is killed mid-job; a replica started later on the same
    database takes the job over once its lease has run out, and runs it once."""
    run_log = tmp_path / "runs.log"
    data_dir = tmp_path / "shared"
    url = postgres.url(database)
    admin = EmbeddedService(data_dir, database_url=url)
    creds = admin.create_client("crash", credits=5)
    port = _free_port()
    env = {
        **os.environ,
        "DOCAI_DATABASE_URL": url,
        "DOCAI_ENGINES": ENGINES,
        "DOCAI_JOB_LEASE_SECONDS": "1",
        "PYTHONPATH": os.pathsep.join([str(REPO / "src"), str(REPO)]),
    }
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
    try:
        base = f"http://127.0.0.1:{port}"
        wait_until_ready(base, server, log_path)
        token = httpx.post(
            base + "/oauth/token",
            auth=(creds.client_id, creds.client_secret.get_secret_value()),
            data={"grant_type": "client_credentials"},
        ).json()["access_token"]
        upload = httpx.post(
            base + "/api/FileUpload/v1/Upload/ToolICR",
            files={"file": ("crash.pdf", documents.pdf("SLEEP 2"))},
            headers={"accessToken": token},
        )
        assert upload.status_code == 201, upload.text
        job_id = upload.json()["jobId"]
        deadline = time.monotonic() + 30
        while postgres.query(database, "SELECT status FROM jobs") != [("processing",)]:
            assert time.monotonic() < deadline, log_path.read_text()
            time.sleep(0.05)
        server.send_signal(signal.SIGKILL)
        server.wait(10)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
    assert not run_log.exists()
    monkeypatch.setenv("DOCAI_TEST_RUN_LOG", str(run_log))
    with EmbeddedService(data_dir, workers=1, engines=ENGINES, database_url=url) as replica:
        api = Api(replica, creds)
        body = api.wait(job_id, timeout=60).json()
        assert api.credits() == 4  # charged once
        api.close()
    assert body["status"] == "succeeded"
    assert run_log.read_text().splitlines() == [body["document"]["sha256"]]
    # The crashed run counts as an attempt (a document that kills its runner is not
    # retried forever).
    assert postgres.query(database, "SELECT attempts FROM jobs") == [(2,)]


def test_missing_postgresql_fails_in_ci_and_skips_locally(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tests.api import postgres as pg

    monkeypatch.setattr(pg, "find_bindir", lambda: None)
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="cannot run in CI"):
        pg.start_server()
    monkeypatch.delenv("CI")
    with pytest.raises(pytest.skip.Exception, match="postgresql"):
        pg.start_server()


def test_a_database_that_never_answers_fails_instead_of_hanging() -> None:
    import sqlalchemy.exc

    from prefect_docai.server.db import Database

    pytest.importorskip("psycopg")
    with socket.socket() as hole:
        hole.bind(("127.0.0.1", 0))
        hole.listen(4)
        port = hole.getsockname()[1]
        db = Database(f"postgresql://u:p@127.0.0.1:{port}/db?connect_timeout=1")
        started = time.monotonic()
        with pytest.raises(sqlalchemy.exc.OperationalError):
            db.create_all()
        db.dispose()
        assert time.monotonic() - started < 5
