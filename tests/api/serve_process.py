"""Helpers for tests that run `docai serve` as a real subprocess."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import httpx


def wait_until_ready(
    base: str, server: subprocess.Popen[bytes], log_path: Path, timeout: float = 30.0
) -> None:
    """Poll ``/readyz`` until 200; fail with the server's log if it exits or times out."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            if httpx.get(base + "/readyz").status_code == 200:
                return
        except httpx.TransportError:
            pass
        assert time.monotonic() < deadline and server.poll() is None, log_path.read_text()
        time.sleep(0.1)
