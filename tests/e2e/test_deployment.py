"""deployments/prefect.yaml for real: a local ``prefect server start``, ``prefect deploy``,
a process worker, a run of the nightly deployment and an event-triggered run.

Everything binds 127.0.0.1; the Prefect server has its own temporary home and database.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from prefect_docai.datasets import DatasetStore

pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]

REPO = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _wait(predicate: Any, timeout: float, what: str, interval: float = 0.5) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout:g} s waiting for {what}")


@pytest.fixture(scope="module")
def prefect_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    home = tmp_path_factory.mktemp("prefect-home")
    port = _free_port()
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith("PREFECT_") and not key.startswith("DOCAI_")
    }
    env.update(
        PREFECT_HOME=str(home),
        PREFECT_SERVER_ANALYTICS_ENABLED="false",
        PREFECT_SERVER_UI_ENABLED="false",
        PREFECT_SERVER_API_HOST="127.0.0.1",
        PREFECT_SERVER_API_PORT=str(port),
    )
    log = (home / "server.log").open("wb")
    proc = subprocess.Popen(
        [str(BIN / "prefect"), "server", "start", "--host", "127.0.0.1", "--port", str(port)],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    api = f"http://127.0.0.1:{port}/api"

    def healthy() -> bool:
        if proc.poll() is not None:
            raise AssertionError((home / "server.log").read_text()[-3000:])
        try:
            return httpx.get(f"{api}/health", timeout=2).status_code == 200
        except httpx.HTTPError:
            return False

    try:
        _wait(healthy, 180, "prefect server start")
        yield {**env, "PREFECT_API_URL": api}
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(10)
        log.close()


def _prefect(env: dict[str, str], *args: str, timeout: float = 180) -> str:
    done = subprocess.run(
        [str(BIN / "prefect"), *args],
        env=env,
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert done.returncode == 0, f"prefect {' '.join(args)}:\n{done.stdout}\n{done.stderr}"
    return done.stdout


def _api(env: dict[str, str], method: str, path: str, body: Any = None) -> Any:
    response = httpx.request(method, env["PREFECT_API_URL"] + path, json=body, timeout=30)
    response.raise_for_status()
    return response.json()


def _final_state(env: dict[str, str], flow_run_id: str, timeout: float) -> str:
    def final() -> str | None:
        state = _api(env, "GET", f"/flow_runs/{flow_run_id}")["state"]
        return state["type"] if state["type"] in ("COMPLETED", "FAILED", "CRASHED", "CANCELLED") else None

    result: str = _wait(final, timeout, f"flow run {flow_run_id}", interval=1.0)
    return result


def _work_once(env: dict[str, str], flow_run_id: str) -> str:
    """A process worker picks the run up; return its final state type."""
    worker = subprocess.Popen(
        [str(BIN / "prefect"), "worker", "start", "--pool", "docai", "--run-once"],
        env=env,
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        state = _final_state(env, flow_run_id, 300)
        worker.wait(60)
        return state
    finally:
        if worker.poll() is None:
            os.killpg(worker.pid, signal.SIGKILL)
            worker.wait(10)


def test_prefect_yaml_deploys_and_runs(prefect_server: dict[str, str], tmp_path: Path) -> None:
    from prefect_docai.samples.generate import generate

    inbox = tmp_path / "inbox"
    arrivals = tmp_path / "arrivals"
    arrivals.mkdir()
    invoice = generate("invoice", seed=17, lang="en")
    (arrivals / "invoice.pdf").write_bytes(invoice.pdf)
    nightly_dest = tmp_path / "lake-nightly"
    event_dest = tmp_path / "lake-events"

    env = {
        **prefect_server,
        "DOCAI_SOURCE": str(inbox),
        "DOCAI_DESTINATION": str(nightly_dest),
        "DOCAI_CREDENTIALS_BLOCK": "",
        "DOCAI_UPLOAD_RATE_PER_SECOND": "20",
        "DOCAI_RETRY_AFTER": "1",
        "OMP_THREAD_LIMIT": "1",
    }
    _prefect(env, "work-pool", "create", "docai", "--type", "process")
    _prefect(env, "--no-prompt", "deploy", "--all", "--prefect-file", "deployments/prefect.yaml")

    deployments = {
        d["name"]: d for d in _api(env, "POST", "/deployments/filter", {"limit": 50})
    }
    assert {"nightly", "on-arrival"} <= set(deployments)
    nightly = deployments["nightly"]
    assert [s["schedule"]["cron"] for s in nightly["schedules"]] == ["30 2 * * *"]
    assert nightly["parameters"]["source"] == str(inbox)
    assert nightly["global_concurrency_limit"]["limit"] == 1
    automations = _api(env, "POST", "/automations/filter", {"limit": 50})
    (trigger,) = [
        a for a in automations
        if a["actions"][0].get("deployment_id") == deployments["on-arrival"]["id"]
    ]
    assert trigger["trigger"]["expect"] == ["docai.batch.arrived"]
    assert trigger["trigger"]["match"] == {"prefect.resource.id": "docai.inbox.*"}

    assert nightly["parameters"]["destination"] == str(nightly_dest)
    assert nightly["parameters"]["credentials"] == ""  # → the embedded service

    # The event-triggered deployment: announce a batch, the automation creates the run,
    # a process worker executes it (the nightly one runs the same way, on its schedule).
    _prefect(
        env,
        "event", "emit", "docai.batch.arrived",
        "--resource-id", "docai.inbox.arrivals",
        "--payload", json.dumps({"source": str(arrivals), "destination": str(event_dest)}),
    )

    def triggered() -> str | None:
        runs = _api(
            env,
            "POST",
            "/flow_runs/filter",
            {"deployments": {"id": {"any_": [deployments["on-arrival"]["id"]]}}},
        )
        return runs[0]["id"] if runs else None

    flow_run_id = _wait(triggered, 120, "the automation to create a flow run", interval=1.0)
    parameters = _api(env, "GET", f"/flow_runs/{flow_run_id}")["parameters"]
    assert parameters["source"] == str(arrivals)
    assert _work_once(env, flow_run_id) == "COMPLETED"
    # What the engines made of the page is the flow tests' business; here: the announced
    # source landed in the announced destination, once.
    events = DatasetStore(str(event_dest))
    (document,) = events.read("documents").to_pylist()
    assert document["source_uri"] == f"file://{arrivals / 'invoice.pdf'}"
    assert events.row_counts()["segments"] == 1


def test_serve_script_registers_both_deployments(
    prefect_server: dict[str, str], tmp_path: Path
) -> None:
    serve = subprocess.Popen(
        [
            sys.executable, str(REPO / "deployments" / "serve.py"),
            "--source", str(tmp_path / "inbox"), "--destination", str(tmp_path / "lake"),
            "--cron", "0 3 * * *",
        ],
        env=prefect_server,
        cwd=REPO,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        def served() -> dict[str, Any] | None:
            if serve.poll() is not None:
                raise AssertionError(f"serve.py exited with {serve.returncode}")
            found = {
                d["name"]: d
                for d in _api(prefect_server, "POST", "/deployments/filter", {"limit": 50})
            }
            return found if {"docai-nightly", "docai-on-arrival"} <= set(found) else None

        deployments = _wait(served, 120, "serve.py to register its deployments")
    finally:
        os.killpg(serve.pid, signal.SIGTERM)
        try:
            serve.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(serve.pid, signal.SIGKILL)
            serve.wait(10)
    nightly = deployments["docai-nightly"]
    assert [s["schedule"]["cron"] for s in nightly["schedules"]] == ["0 3 * * *"]
    assert nightly["parameters"]["destination"] == str(tmp_path / "lake")
    automations = _api(prefect_server, "POST", "/automations/filter", {"limit": 50})
    assert any(
        a["actions"][0].get("deployment_id") == deployments["docai-on-arrival"]["id"]
        for a in automations
    )
