"""The service in this process on loopback: uvicorn in a background thread, real HTTP.

Used by ``docai demo``, the Prefect flows' local mode and the tests; clients talk to it over
HTTP exactly as to a remote service.
"""

from __future__ import annotations

import logging
import shutil
import sys
import tempfile
import threading
import time
from collections.abc import Iterable
from pathlib import Path
from types import TracebackType
from typing import Any

import httpx
import uvicorn

from prefect_docai.server import accounts, jobstore
from prefect_docai.server.accounts import SCOPES, ClientCredentials
from prefect_docai.server.app import create_app
from prefect_docai.server.db import Database
from prefect_docai.server.settings import Settings

__all__ = ["ClientCredentials", "EmbeddedService"]

_LOGGING_LOCK = threading.Lock()
_logging_ready = False


def _configure_uvicorn_logging() -> None:
    """Give uvicorn's loggers a stderr handler (unless they have one), without ``dictConfig``.

    uvicorn's default ``log_config`` runs ``logging.config.dictConfig``, which flushes and
    closes every handler of the process under the logging module's lock — Prefect's API log
    handler among them, whose flush waits for a thread that itself needs that lock to log:
    a run starting the embedded service hung (issue 19.1). So uvicorn gets
    ``log_config=None`` and this handler instead; nothing else's handlers are touched.
    """
    global _logging_ready
    with _LOGGING_LOCK:
        if _logging_ready:
            return
        uvicorn_logger = logging.getLogger("uvicorn")
        # Configured already (Prefect's logging config names uvicorn's loggers): keep that.
        if not uvicorn_logger.handlers:
            handler = logging.StreamHandler(sys.stderr)
            handler.setFormatter(logging.Formatter("%(levelname)s [docai-embedded] %(message)s"))
            uvicorn_logger.addHandler(handler)
            uvicorn_logger.propagate = False
        _logging_ready = True


class EmbeddedService:
    """The service in this process on loopback: uvicorn in a background thread, real HTTP.

    ``data_dir=None`` uses a temporary directory that is removed on :meth:`stop`. Extra
    keyword arguments override :class:`Settings` fields (``workers=1``,
    ``upload_rate_per_second=5`` …); everything else comes from ``DOCAI_*`` variables.
    """

    def __init__(
        self,
        data_dir: str | Path | None = None,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        **settings_overrides: Any,
    ) -> None:
        self._temp_dir: Path | None = None
        if data_dir is None:
            self._temp_dir = Path(tempfile.mkdtemp(prefix="docai-embedded-"))
            data_dir = self._temp_dir
        self.settings = Settings(data_dir=Path(data_dir), **settings_overrides)
        self.host = host
        self.port = port
        self.base_url = ""
        self.token_url = ""
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None
        self._db: Database | None = None

    # --- lifecycle -----------------------------------------------------------------------

    def start(self, timeout: float = 60.0) -> EmbeddedService:
        """Start uvicorn on the loopback port and wait until ``/readyz`` answers 200."""
        if self._thread is not None:
            return self
        _configure_uvicorn_logging()
        app = create_app(self.settings)
        # uvicorn binds the port itself: handing it a pre-bound socket (``sockets=``) costs
        # ~40 ms per response on Linux loopback here, so port 0 is resolved after startup.
        config = uvicorn.Config(
            app,
            host=self.host,
            port=self.port,
            log_config=None,
            log_level="warning",
            access_log=False,
            lifespan="on",
            timeout_graceful_shutdown=5,
        )
        server = uvicorn.Server(config)
        self._server = server
        self._thread = threading.Thread(target=server.run, name="docai-embedded", daemon=True)
        self._thread.start()
        deadline = time.monotonic() + timeout
        while not server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(
                    f"the embedded service could not start on {self.host}:{self.port}"
                )
            time.sleep(0.01)
        self.port = int(server.servers[0].sockets[0].getsockname()[1])
        host = f"[{self.host}]" if ":" in self.host else self.host
        self.base_url = f"http://{host}:{self.port}"
        self.token_url = self.base_url + self.settings.token_path
        self._wait_ready(max(1.0, deadline - time.monotonic()))
        return self

    def _wait_ready(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        with httpx.Client(timeout=2.0) as client:
            while time.monotonic() < deadline:
                if self._thread is None or not self._thread.is_alive():
                    self.stop()
                    raise RuntimeError("the embedded service stopped while starting (see the log)")
                try:
                    if client.get(self.base_url + "/readyz").status_code == 200:
                        return
                except httpx.TransportError:
                    pass
                time.sleep(0.05)
        self.stop()
        raise TimeoutError(f"the embedded service did not become ready within {timeout:g} s")

    def stop(self) -> None:
        """Stop uvicorn and the worker pool; jobs in progress go back to the queue."""
        server, thread = self._server, self._thread
        if server is not None and thread is not None:
            server.should_exit = True
            thread.join(30)
            if thread.is_alive():
                server.force_exit = True
                thread.join(10)
        self._server = None
        self._thread = None
        if self._db is not None:
            self._db.dispose()
            self._db = None
        if self._temp_dir is not None:
            shutil.rmtree(self._temp_dir, ignore_errors=True)
            self._temp_dir = None

    def __enter__(self) -> EmbeddedService:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    # --- administration (direct database access, like `docai admin`) ---------------------

    def _database(self) -> Database:
        if self._db is None:
            self.settings.data_dir.mkdir(parents=True, exist_ok=True)
            db = Database(self.settings.sqlalchemy_url)
            db.migrate()
            self._db = db
        return self._db

    def create_client(
        self, name: str = "embedded", credits: int = 1_000_000, scopes: Iterable[str] = SCOPES
    ) -> ClientCredentials:
        return accounts.create_client(self._database(), name, credits, scopes)

    def set_page_cap(self, account: str, pages: int | None) -> None:
        """The account's plan: at most ``pages`` per upload (None: the service default)."""
        accounts.set_max_pages(self._database(), account, pages)

    def pages_done(self, job_id: str) -> int | None:
        """Pages of a job run in batches so far (None: no such job)."""
        job = jobstore.get_job(self._database(), job_id)
        return None if job is None else (job.page_count if job.status == "succeeded" else job.pages_done)

    def add_credits(self, client_id: str, credits: int) -> int:
        return accounts.add_credits(self._database(), client_id, credits)

    def credits(self, client_id: str) -> int:
        return accounts.get_client(self._database(), client_id).credits
