"""What one running service holds, built before anything that uses it: settings, database,
blobs, signing keys, limits, the storage guard, the worker pool, and two wake-ups.

The job runner, the mail sender, the purger and the routes take a :class:`Resources`;
``service.Service`` builds it first and runs those loops on top of it.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections.abc import Callable
from pathlib import Path

from prefect_docai.server.db import Database
from prefect_docai.server.diskspace import StorageGuard
from prefect_docai.server.settings import Settings
from prefect_docai.server.storage import BlobStore, private_dirs
from prefect_docai.server.throttle import Throttle
from prefect_docai.server.tokens import TokenService, load_or_create_key
from prefect_docai.server.workers import WorkerPool


class Wake:
    """A callback run on the event loop it was connected from; calling it is safe from any
    thread, and a no-op before it is connected or after the loop has closed."""

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._callback: Callable[[], None] | None = None

    def connect(self, callback: Callable[[], None]) -> None:
        """Called on the running loop by the component that is to be woken."""
        self._loop = asyncio.get_running_loop()
        self._callback = callback

    def __call__(self) -> None:
        loop, callback = self._loop, self._callback
        if loop is None or callback is None or loop.is_closed():
            return
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(callback)


class Resources:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.instance_id = secrets.token_hex(8)
        # Keys, database, documents and mail: for the service's user only.
        private_dirs(settings.data_dir)
        self.db = Database(settings.sqlalchemy_url)
        self.blobs = BlobStore(settings.blob_url, **settings.storage_options)
        self.tokens = TokenService(
            load_or_create_key(settings.key_path),
            settings.issuer,
            settings.audience,
            settings.token_ttl,
        )
        self.throttle = Throttle(self.db)
        watched = [settings.data_dir]
        if (database := self.db.sqlite_file) is not None:
            watched.append(database.parent)
        if self.blobs.is_local:
            watched.append(Path(self.blobs.root))
        self.storage_guard = StorageGuard(watched, settings.min_free_bytes)
        self.pool = WorkerPool(settings.workers, settings.worker_memory_bytes)
        self.job_wake = Wake()
        """A job was queued or handed back (connected by the job runner)."""
        self.mail_wake = Wake()
        """A job ended with a mail to send (connected by the mail sender)."""
        self.ready = False
        """Set once the service's loops run; ``/readyz`` reports it."""
