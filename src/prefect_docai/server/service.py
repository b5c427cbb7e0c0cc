"""Everything one running service holds: settings, database, blobs, keys, workers, loops."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from pathlib import Path

from sqlalchemy.engine import make_url

from prefect_docai.server.db import Database
from prefect_docai.server.diskspace import StorageGuard
from prefect_docai.server.ratelimit import RateLimiter
from prefect_docai.server.settings import Settings
from prefect_docai.server.storage import BlobStore, private_dirs
from prefect_docai.server.throttle import Throttle
from prefect_docai.server.tokens import TokenService, load_or_create_key
from prefect_docai.server.workers import WorkerPool


class Service:
    def __init__(self, settings: Settings) -> None:
        from prefect_docai.server.jobs import JobRunner
        from prefect_docai.server.mail import MailSender
        from prefect_docai.server.retention import Purger

        self.settings = settings
        self.instance_id = secrets.token_hex(8)
        # Keys, database, documents and mail: for the service's user only.
        private_dirs(settings.data_dir)
        self.db = Database(settings.sqlalchemy_url)
        self.store = BlobStore(settings.blob_url, **settings.storage_options)
        self.tokens = TokenService(
            load_or_create_key(settings.key_path),
            settings.issuer,
            settings.audience,
            settings.token_ttl,
        )
        self.rate_limiter = RateLimiter(settings.upload_rate_per_second)
        self.throttle = Throttle(self.db)
        watched = [settings.data_dir]
        if self.db.is_sqlite and (database := make_url(self.db.url).database):
            watched.append(Path(database).parent)
        if self.store.is_local:
            watched.append(Path(self.store.root))
        self.storage_guard = StorageGuard(watched, settings.min_free_bytes)
        self.pool = WorkerPool(settings.workers, settings.worker_memory_bytes)
        self.runner = JobRunner(self)
        self.mailer = MailSender(self)
        self.purger = Purger(self)
        self.ready = False
        self._loop: asyncio.AbstractEventLoop | None = None

    async def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        await asyncio.to_thread(self.db.migrate)
        await self.runner.start()
        await self.mailer.start()
        await self.purger.start()
        self.ready = True

    async def stop(self) -> None:
        self.ready = False
        await self.purger.stop()
        await self.mailer.stop()
        await self.runner.stop()
        await asyncio.to_thread(self.pool.close)
        self.db.dispose()

    def _call_in_loop(self, callback: object) -> None:
        loop = self._loop
        if loop is None or loop.is_closed() or not callable(callback):
            return
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(callback)

    def job_wake(self) -> None:
        """Safe from any thread: a job was queued."""
        self._call_in_loop(self.runner.notify)

    def mail_wake(self) -> None:
        """Safe from any thread: a job ended with a mail to send."""
        self._call_in_loop(self.mailer.notify)
