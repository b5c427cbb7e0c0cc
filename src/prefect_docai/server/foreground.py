"""The service in the foreground (``docai serve``): uvicorn in the main thread, stopped by
the first Ctrl+C or SIGTERM at any point, including while it is still starting.

uvicorn notes a signal during startup but only acts on it once the application's startup
has finished, and that waits for the database for as long as the database takes: with one
that does not answer, Ctrl+C did nothing. Here a signal during startup gives the startup a
short grace to finish (then the service stops cleanly, handing back any job it claimed);
after that, or at a second signal, the process exits at once. Nothing has been served by
then, and a job claimed meanwhile is taken over by lease expiry like after a crash.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import sys
import threading
from types import FrameType
from typing import Any, NoReturn

import uvicorn

STARTUP_GRACE = 3.0
"""Seconds a startup interrupted by a signal may take to finish before the process exits."""


class ForegroundServer(uvicorn.Server):
    def __init__(self, config: uvicorn.Config, grace: float = STARTUP_GRACE) -> None:
        super().__init__(config)
        self.grace = grace
        self.signals: list[int] = []
        self._abandon: threading.Timer | None = None
        self._lock = threading.Lock()

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        self.signals.append(sig)
        super().handle_exit(sig, frame)
        if self.started:
            return
        with self._lock:
            if self._abandon is not None:
                # A second signal while starting: the user will not wait.
                abandon_startup(sig)
            timer = threading.Timer(self.grace, abandon_startup, args=(sig,))
            timer.daemon = True
            timer.start()
            self._abandon = timer

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        # Started: from here uvicorn's own shutdown (bounded by the service's timeouts)
        # runs, and must not be cut short.
        with self._lock:
            if self._abandon is not None:
                self._abandon.cancel()


def abandon_startup(sig: int) -> NoReturn:
    name = signal.Signals(sig).name
    sys.stdout.flush()
    sys.stderr.write(f"docai serve: {name} while starting; exiting without waiting for it\n")
    sys.stderr.flush()
    os._exit(128 + sig)


def run(app: Any, host: str, port: int, log_level: str) -> int:
    """Serve until stopped; returns the process exit status."""
    # uvicorn's own access log prints query strings; ours (middleware.AccessLog) does not.
    config = uvicorn.Config(app, host=host, port=port, access_log=False, log_level=log_level)
    server = ForegroundServer(config)
    # uvicorn re-raises the signal it stopped on once it has shut down.
    with contextlib.suppress(KeyboardInterrupt):
        server.run()
    if server.started:
        return 0
    if server.signals:
        return 128 + server.signals[0]
    return 3  # uvicorn's STARTUP_FAILURE: the log says why
