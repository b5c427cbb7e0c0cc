"""``docai serve`` stops on the first Ctrl+C (or SIGTERM) whenever it comes: while Python
starts, while the service starts, while the database does not answer, and once serving."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

DOCAI = str(Path(sys.executable).with_name("docai"))
# A background job of a non-interactive shell (CI runners, nohup) inherits SIGINT ignored,
# and so would the server: a terminal's Ctrl+C reaches a process whose SIGINT is default.
_DEFAULT_SIGINT = (
    "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
    "os.execv(sys.argv[1], sys.argv[1:])"
)


class Serve:
    def __init__(self, tmp_path: Path, env: dict[str, str] | None = None) -> None:
        tmp_path.mkdir(parents=True, exist_ok=True)
        self.log_path = tmp_path / "serve.log"
        self.port = _free_port()
        with self.log_path.open("wb") as log:
            self.process = subprocess.Popen(
                [
                    sys.executable,
                    "-c",
                    _DEFAULT_SIGINT,
                    DOCAI,
                    *("serve", "--port", str(self.port), "--data-dir", str(tmp_path / "data")),
                    *("--workers", "1"),
                ],
                env={**os.environ, **(env or {})},
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        self.started = time.monotonic()

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def wait_for_log(self, text: str, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while text not in self.log():
            assert self.process.poll() is None, self.log()
            assert time.monotonic() < deadline, self.log()
            time.sleep(0.02)

    def stop_within(self, sig: signal.Signals, timeout: float) -> tuple[int, float]:
        """Send ``sig``; the exit status and how long the exit took."""
        sent = time.monotonic()
        self.process.send_signal(sig)
        try:
            code = self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            raise AssertionError(
                f"still running {timeout:g} s after {sig.name}:\n{self.log()}"
            ) from None
        return code, time.monotonic() - sent

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[list[Serve]]:
    started: list[Serve] = []
    yield started
    for server in started:
        server.kill()


def test_ctrl_c_right_after_start(tmp_path: Path, serve: list[Serve]) -> None:
    # While Python starts, while Typer loads and while the server's modules are imported
    # (pydantic-core builds their schemas in native code); the last may already serve.
    for delay in (0.2, 0.4, 0.6, 0.8):
        early = Serve(tmp_path / f"early-{delay}")
        serve.append(early)
        time.sleep(delay)
        code, took = early.stop_within(signal.SIGINT, 10)
        # 130 once Typer runs; killed by the signal itself while Python is still importing;
        # 0 if it was serving already.
        assert code in (0, 130, -signal.SIGINT), early.log()
        assert "Traceback" not in early.log()
        assert took < 5

    starting = Serve(tmp_path / "starting")
    serve.append(starting)
    starting.wait_for_log("Waiting for application startup.")
    code, took = starting.stop_within(signal.SIGINT, 10)
    assert code in (0, 130), starting.log()
    assert took < 5

    serving = Serve(tmp_path / "serving")
    serve.append(serving)
    deadline = time.monotonic() + 30
    while True:
        try:
            if httpx.get(f"http://127.0.0.1:{serving.port}/readyz").status_code == 200:
                break
        except httpx.TransportError:
            pass
        assert time.monotonic() < deadline and serving.process.poll() is None, serving.log()
        time.sleep(0.05)
    code, took = serving.stop_within(signal.SIGINT, 15)
    assert code == 0 and took < 10, serving.log()
    assert "Application shutdown complete." in serving.log()


@pytest.fixture
def silent_database() -> Iterator[str]:
    """A PostgreSQL URL whose server accepts connections and never answers."""
    pytest.importorskip("psycopg")
    hole = socket.socket()
    hole.bind(("127.0.0.1", 0))
    hole.listen(16)
    yield f"postgresql://docai:secret@127.0.0.1:{hole.getsockname()[1]}/docai"
    hole.close()


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_first_signal_stops_a_start_stuck_on_the_database(
    tmp_path: Path, serve: list[Serve], silent_database: str, sig: signal.Signals
) -> None:
    server = Serve(tmp_path, {"DOCAI_DATABASE_URL": silent_database})
    serve.append(server)
    server.wait_for_log("Waiting for application startup.")
    time.sleep(0.5)  # inside the connection attempt
    assert server.process.poll() is None, server.log()
    code, took = server.stop_within(sig, 10)
    assert code == 128 + sig, server.log()
    assert took < 6  # the startup grace (3 s) and exit
    assert f"docai serve: {sig.name} while starting" in server.log()
    assert "secret" not in server.log()


def test_second_ctrl_c_while_starting_exits_at_once(
    tmp_path: Path, serve: list[Serve], silent_database: str
) -> None:
    server = Serve(tmp_path, {"DOCAI_DATABASE_URL": silent_database})
    serve.append(server)
    server.wait_for_log("Waiting for application startup.")
    time.sleep(0.3)
    server.process.send_signal(signal.SIGINT)
    time.sleep(0.3)
    code, took = server.stop_within(signal.SIGINT, 10)
    assert code == 130 and took < 1.5, server.log()
