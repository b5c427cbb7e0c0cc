"""Retention: results are deleted ``result_ttl`` seconds after a job ended.

Input bytes are already deleted when a job ends (jobs.py). The job row stays, marked
``expired``, so a late result request can say "expired" instead of "unknown", and an
``Idempotency-Key`` keeps pointing at the same job.

An upload is stored before its job row is committed (the row must never point at a blob
that is not there), so a crash in between leaves an input no job refers to; so does one
between a job's end and the deletion of its input. Each purge run deletes inputs without
a queued or processing job once they are older than ``orphan_grace``, which leaves
uploads still on their way to the database alone.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import UTC, datetime, timedelta

from prefect_docai.server import jobstore, storage
from prefect_docai.server.db import utcnow
from prefect_docai.server.diskspace import is_disk_full
from prefect_docai.server.resources import Resources

log = logging.getLogger("prefect_docai.server.retention")


class Purger:
    def __init__(self, resources: Resources) -> None:
        self.resources = resources
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self._task = asyncio.create_task(self._loop(), name="docai-purge")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task

    async def _loop(self) -> None:
        while True:
            try:
                count = await asyncio.to_thread(self.purge)
                if count:
                    log.info("purged the results of %d job(s)", count)
                orphans = await asyncio.to_thread(self.sweep_orphaned_inputs)
                if orphans:
                    log.info("deleted %d input(s) that no job needs", orphans)
                await asyncio.to_thread(self.resources.throttle.forget_full)
            except Exception as exc:
                if is_disk_full(exc):
                    self.resources.storage_guard.report(exc)
                else:
                    log.exception("purging results failed; retrying")
            await asyncio.sleep(self.resources.settings.purge_interval)

    def purge(self) -> int:
        """Expire every ended job older than the retention period or downloaded and past
        its grace window, anonymise the rows and delete the outbox mail older than the
        retention period; returns how many jobs were expired."""
        db, blobs = self.resources.db, self.resources.blobs
        cutoff = utcnow() - timedelta(seconds=self.resources.settings.result_ttl)
        due = jobstore.ended_before(db, cutoff)
        for job_id in due:
            # Blobs first: if this stops halfway the row still says "ended" and the next
            # run deletes the rest.
            blobs.delete_prefix(storage.result_prefix(job_id))
            blobs.delete(storage.input_key(job_id))
            jobstore.expire(db, job_id)
        jobstore.anonymise_before(db, cutoff)
        self.sweep_outbox(cutoff)
        jobstore.forget_turns(db)
        return len(due)

    def sweep_outbox(self, cutoff: datetime) -> int:
        """Delete outbox messages written before ``cutoff`` (the outbox is a hand-over
        folder: whatever picks messages up has had the retention period to do it)."""
        outbox = self.resources.settings.outbox_dir
        deleted = 0
        for path in outbox.glob("*.eml*") if outbox.is_dir() else ():
            with contextlib.suppress(FileNotFoundError):
                if datetime.fromtimestamp(path.stat().st_mtime, UTC) < cutoff:
                    path.unlink()
                    deleted += 1
        return deleted

    def sweep_orphaned_inputs(self) -> int:
        """Delete inputs older than ``orphan_grace`` that no queued or processing job
        needs; returns how many."""
        db, blobs = self.resources.db, self.resources.blobs
        cutoff = utcnow() - timedelta(seconds=self.resources.settings.orphan_grace)
        old = sorted(
            name for name, modified in blobs.modified(storage.INPUTS).items() if modified < cutoff
        )
        live = jobstore.live_among(db, old)
        orphans = [name for name in old if name not in live]
        for name in orphans:
            blobs.delete(storage.input_key(name))
        return len(orphans)
