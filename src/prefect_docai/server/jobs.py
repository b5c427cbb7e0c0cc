"""Running jobs: claim queued jobs, run them in the worker pool, store outcomes.

State machine: ``queued → processing → succeeded | failed → expired``. A job being processed
holds a lease that its runner renews; when a runner stops it hands its jobs back to the
queue, and when it crashes the lease runs out and any runner (this or another replica)
requeues the job. Completion is guarded by the lease, so a job completes once.

Leases are renewed by a thread of their own, not by a task on the event loop: on a loaded
machine the loop can go without CPU for longer than a lease (requests, JSON, ZIPs and the
GIL all share it), and a lease that runs out under a job that is still running makes
another replica start the job again and, after ``max_job_attempts`` such "interruptions",
give it up as ``engine_crashed`` (issue 19: 3 jobs at N = 200, 12 at N = 400). Only a
process that is gone or frozen stops renewing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any, TypeVar

from prefect_docai.engines.pluginspec import EngineOptions
from prefect_docai.models.tools import Tool
from prefect_docai.server import batches, jobstore, storage
from prefect_docai.server.db import JobFileRow, JobRow, utcnow
from prefect_docai.server.diskspace import is_disk_full
from prefect_docai.server.jobwake import JobListener
from prefect_docai.server.resources import Resources
from prefect_docai.server.workers import WorkerCrashed, WorkOutcome

log = logging.getLogger("prefect_docai.server.jobs")
T = TypeVar("T")

# Formats an engine is always asked for because the tool's ZIP contains them
# (ICR: searchable PDF + text; PaperFlow: one PDF per document).
ZIP_FORMATS: dict[Tool, tuple[str, ...]] = {Tool.ICR: ("PDF", "TXT"), Tool.PAPERFLOW: ("PDF",)}


async def _in_thread(func: Callable[..., T], *args: Any) -> T:
    return await asyncio.to_thread(func, *args)


class JobRunner:
    def __init__(self, resources: Resources) -> None:
        self.resources = resources
        self.settings = resources.settings
        self._wake = asyncio.Event()
        self._running: dict[str, asyncio.Task[None]] = {}
        self._costs: dict[str, int] = {}
        self._loops: list[asyncio.Task[None]] = []
        self._stopping = False
        self._leased: set[str] = set()
        """Ids of the jobs this runner holds leases on, for the heartbeat thread: added in
        the claiming thread as the claim commits (the loop may stall before it registers
        the job), removed when the job's task ends."""
        self._leased_lock = threading.Lock()
        self._halt = threading.Event()
        self._heartbeat: threading.Thread | None = None
        self._listener: JobListener | None = None

    # --- lifecycle -------------------------------------------------------------------

    async def start(self) -> None:
        self.resources.job_wake.connect(self.notify)
        await _in_thread(self.requeue_expired_leases)
        await _in_thread(self.resources.pool.prestart)
        self._halt.clear()
        self._heartbeat = threading.Thread(
            target=self._heartbeat_thread, name="docai-heartbeat", daemon=True
        )
        self._heartbeat.start()
        self._loops = [asyncio.create_task(self._dispatch_loop(), name="docai-dispatch")]
        if self.resources.db.is_postgresql:
            # Jobs other replicas queue wake this runner at once (jobwake.py).
            self._listener = JobListener(self.resources.db.url, self.resources.job_wake).start()

    def notify(self) -> None:
        self._wake.set()

    async def stop(self) -> None:
        self._stopping = True
        for task in self._loops:
            task.cancel()
        running = list(self._running.values())
        for task in running:
            task.cancel()
        for task in [*self._loops, *running]:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._halt.set()
        if self._listener is not None:
            await _in_thread(self._listener.stop)
        if self._heartbeat is not None:
            await _in_thread(self._heartbeat.join, 30.0)
        await _in_thread(self._release_own_jobs)

    # --- dispatch --------------------------------------------------------------------

    async def _dispatch_loop(self) -> None:
        guard = self.resources.storage_guard
        while True:
            pause = self.settings.job_poll_seconds
            try:
                await _in_thread(self.requeue_expired_leases)
                free = self.settings.workers - len(self._running)
                if free > 0 and not await _in_thread(guard.ok):
                    # Out of space: queued jobs wait for it (a job run now could not store
                    # its result); the guard has logged it once.
                    free, pause = 0, guard.retry_after
                for _ in range(max(0, free)):
                    claimed = await _in_thread(self._claim, list(self._running))
                    if claimed is None:
                        break
                    job_id = claimed.job_id
                    task = asyncio.create_task(
                        self._run_logged(claimed), name=f"docai-job-{job_id}"
                    )
                    self._running[job_id] = task
                    self._costs[job_id] = claimed.cost
                    task.add_done_callback(self._finished_callback(job_id))
            except Exception as exc:
                if is_disk_full(exc):
                    guard.report(exc)
                    pause = guard.retry_after
                else:
                    log.exception("dispatching jobs failed; retrying")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout=pause)
            self._wake.clear()

    def _finished_callback(self, job_id: str) -> Callable[[asyncio.Task[None]], None]:
        return lambda _task: self._finished(job_id)

    def _finished(self, job_id: str) -> None:
        self._running.pop(job_id, None)
        self._costs.pop(job_id, None)
        with self._leased_lock:
            self._leased.discard(job_id)
        if not self._stopping:
            self._wake.set()

    def _heartbeat_thread(self) -> None:
        """Renew the running jobs' leases every third of a lease, whatever the loop does."""
        interval = max(0.2, self.settings.job_lease_seconds / 3)
        last = time.monotonic()
        while not self._halt.wait(interval):
            now = time.monotonic()
            if now - last > 2 * interval:
                # The whole process went without CPU (or was stopped): past a lease, another
                # replica may have taken its jobs over (their completion here is refused).
                log.warning(
                    "job leases renewed %.1f s after the last renewal (lease %g s)",
                    now - last,
                    self.settings.job_lease_seconds,
                )
            last = now
            try:
                self._renew_leases()
            except Exception as exc:
                if is_disk_full(exc):
                    self.resources.storage_guard.report(exc)
                else:
                    log.exception("renewing job leases failed")

    @property
    def _lease(self) -> timedelta:
        return timedelta(seconds=self.settings.job_lease_seconds)

    def _claim(self, running: list[str]) -> jobstore.Claim | None:
        """The next job (or batch of a long one), fairly chosen (jobstore.claim_next),
        under this runner's lease.

        Big jobs (costing over ``big_job_pages`` page units: many pages or a huge image)
        get at most ``workers - 1`` workers: with one left, a small job never waits for a
        big one to end.
        """
        limit = self.settings.big_job_pages
        big = sum(1 for cost in self._costs.values() if cost > limit)
        lane = max(1, self.settings.workers - 1)
        claimed = jobstore.claim_next(
            self.resources.db,
            self.resources.instance_id,
            self._lease,
            max_cost=limit if big >= lane else None,
            batch_pages=self.settings.batch_pages,
            batched_tools=batches.BATCHED_TOOLS,
            exclude=running,
        )
        if claimed is not None:
            with self._leased_lock:
                self._leased.add(claimed.job_id)
        return claimed

    def _held(self) -> list[str]:
        with self._leased_lock:
            return list(self._leased)

    def _renew_leases(self) -> None:
        leased = self._held()
        if leased:
            jobstore.renew_leases(
                self.resources.db, self.resources.instance_id, leased, self._lease
            )

    def requeue_expired_leases(self) -> None:
        """Jobs whose runner died: back to the queue, or failed after too many attempts."""
        now = utcnow()
        running = set(self._held())
        for job_id, attempts in jobstore.expired_leases(self.resources.db, now):
            if job_id in running:
                continue  # still running here: not interrupted, the heartbeat renews it
            if attempts >= self.settings.max_job_attempts:
                self._fail(
                    job_id,
                    None,
                    "engine_crashed",
                    f"Processing was interrupted {attempts} times; the document is not retried again.",
                )
                continue
            jobstore.requeue_expired(self.resources.db, job_id, now)
            log.warning("job %s: runner lease expired, requeued", job_id)

    def _hand_back(self, job_id: str) -> None:
        jobstore.requeue(self.resources.db, job_id, self.resources.instance_id, refund_attempt=True)

    def _release_own_jobs(self) -> None:
        # A clean stop is not the job's fault: it goes back to the queue without using up
        # one of its attempts.
        jobstore.release_owned(self.resources.db, self.resources.instance_id)

    # --- one job ---------------------------------------------------------------------

    async def _run_logged(self, claim: jobstore.Claim) -> None:
        job_id = claim.job_id
        try:
            await self._run(claim)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            if is_disk_full(exc):
                # Not the document's fault: back to the queue without using up an attempt,
                # to run again once there is space.
                self.resources.storage_guard.report(exc)
                with contextlib.suppress(Exception):
                    await _in_thread(self._hand_back, job_id)
                return
            # The lease is no longer renewed, so the job is requeued once it runs out.
            log.exception("job %s: runner failed; it will be retried", job_id)

    async def _run(self, claim: jobstore.Claim) -> None:
        job_id = claim.job_id
        job = await _in_thread(self._load, job_id)
        if job is None:
            return
        tool = Tool(job.tool)
        try:
            data = await _in_thread(self.resources.blobs.get, storage.input_key(job_id))
        except FileNotFoundError:
            await _in_thread(
                self._fail,
                job_id,
                self.resources.instance_id,
                "input_missing",
                "The uploaded file is no longer stored.",
                claim.batched,
            )
            return
        requested = tuple(job.output_formats.split(",")) if job.output_formats else ()
        formats = tuple(dict.fromkeys([*requested, *ZIP_FORMATS.get(tool, ())]))
        # "" = no languageHint: English, and the engine may find a scan's language.
        hinted = tuple(code for code in job.languages.split(",") if code)
        options = EngineOptions(
            languages=hinted or ("eng",),
            language_hinted=bool(hinted),
            output_formats=formats,
            threshold=job.threshold,
            file_name=job.file_name,
            pages=(claim.first, claim.last) if claim.batched else None,
        )
        engine = self.settings.engine_path(tool)
        timeout = self.settings.job_timeout
        try:
            outcome = await self.resources.pool.run(engine, data, options, timeout)
            if outcome.ok and outcome.partial:
                await _in_thread(
                    batches.store, self.resources.blobs, job_id, claim.first, claim.last, outcome
                )
                if claim.last < claim.page_count:
                    await _in_thread(self._next_batch, job_id, claim.last)
                    return
                parts = await _in_thread(
                    batches.load, self.resources.blobs, job_id, claim.page_count
                )
                outcome = await self.resources.pool.merge(engine, data, parts, options, timeout)
        except WorkerCrashed as exc:
            if job.attempts >= self.settings.max_job_attempts:
                await _in_thread(
                    self._fail,
                    job_id,
                    self.resources.instance_id,
                    "engine_crashed",
                    str(exc),
                    claim.batched,
                )
            else:
                await _in_thread(self._requeue, job_id)
            return
        except TimeoutError:
            await _in_thread(
                self._fail,
                job_id,
                self.resources.instance_id,
                "timeout",
                f"Processing took longer than {self.settings.job_timeout:g} s.",
                claim.batched,
            )
            return
        if outcome.ok:
            await _in_thread(self._succeed, job_id, outcome, claim.batched)
        else:
            await _in_thread(
                self._fail,
                job_id,
                self.resources.instance_id,
                outcome.error_code or "engine_error",
                outcome.error_detail or "The engine failed.",
                claim.batched,
            )

    def _load(self, job_id: str) -> JobRow | None:
        return jobstore.get_job(self.resources.db, job_id)

    def _next_batch(self, job_id: str, pages_done: int) -> None:
        """A batch is stored: the job waits for its owner's next turn, the worker is free."""
        if jobstore.batch_done(self.resources.db, job_id, self.resources.instance_id, pages_done):
            self.resources.job_wake()
        else:
            log.warning("job %s: lost its lease during a batch; the batch runs again", job_id)

    def _requeue(self, job_id: str) -> None:
        jobstore.requeue(self.resources.db, job_id, self.resources.instance_id)
        self.resources.job_wake()

    def _succeed(self, job_id: str, outcome: WorkOutcome, batched: bool = True) -> None:
        """Store the outcome and complete the job. ``batched``: the job ran in batches, so
        stored batch parts are deleted; otherwise there are none, and no listing of the
        blob store is spent looking for them (one per job on S3)."""
        blobs = self.resources.blobs
        blobs.put(
            storage.result_key(job_id), json.dumps(outcome.result, ensure_ascii=False).encode()
        )
        rows: list[JobFileRow] = []
        for index, file in enumerate(outcome.files):
            key = storage.file_key(job_id, index, file.name)
            blobs.put(key, file.data)
            output_type = file.output_type.upper() if file.output_type else None
            rows.append(
                JobFileRow(
                    job_id=job_id,
                    name=file.name,
                    media_type=file.media_type,
                    output_type="TXT" if output_type == "TEXT" else output_type,
                    size=len(file.data),
                    path=key,
                )
            )
        owner = self.resources.instance_id
        if not jobstore.complete(self.resources.db, job_id, owner, rows, list(outcome.warnings)):
            if jobstore.get_job(self.resources.db, job_id) is None:
                # Deleted while it ran (its account was deleted): keep none of its files.
                blobs.delete_prefix(storage.result_prefix(job_id))
                blobs.delete(storage.input_key(job_id))
            log.warning("job %s: lost its lease before completing; outcome dropped", job_id)
            return
        blobs.delete(storage.input_key(job_id))
        if batched:
            batches.delete(blobs, job_id)
        self.resources.mail_wake()

    def _fail(
        self, job_id: str, owner: str | None, code: str, detail: str, batched: bool = True
    ) -> None:
        """Fail a processing job and refund its credits (owner None: one whose lease expired)."""
        # Engine messages are free text: PostgreSQL text cannot hold NUL, and the code
        # column is short.
        code, detail = code[:100], detail.replace("\x00", "")
        if not jobstore.fail(self.resources.db, job_id, owner, code, detail):
            return
        self.resources.blobs.delete(storage.input_key(job_id))
        if batched:  # unknown (an expired lease): True
            batches.delete(self.resources.blobs, job_id)
        log.info("job %s failed: %s", job_id, code)
        self.resources.mail_wake()
