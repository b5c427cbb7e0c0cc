"""``process_documents``: a batch of files from any fsspec source → Parquet datasets."""

# No ``from __future__ import annotations``: Prefect builds the flow's parameter model from
# these annotations, and a flow pickled by value (Dask, Ray) has no module globals to resolve
# strings like "BatchOptions" in (PydanticUserError: model not fully defined; issue 19.3).

import asyncio
import hashlib
import time
import uuid
from collections import Counter
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

from prefect import flow, get_run_logger, task
from prefect._internal.compatibility.async_dispatch import async_dispatch
from prefect.artifacts import (
    acreate_markdown_artifact,
    acreate_progress_artifact,
    acreate_table_artifact,
    aupdate_progress_artifact,
)
from prefect.cache_policies import NO_CACHE
from prefect.events import emit_event
from prefect.runtime import flow_run
from prefect.utilities.annotations import quote
from prefect.utilities.asyncutils import run_coro_as_sync

from prefect_docai.datasets import DatasetStore, DocumentOutcome, DocumentStatus
from prefect_docai.files.errors import DocumentError
from prefect_docai.files.sniff import inspect_document
from prefect_docai.flows.options import BatchOptions
from prefect_docai.flows.pipeline import Budget, Deferred, DocumentPipeline, estimate_credits
from prefect_docai.flows.report import BatchSummary, markdown_report
from prefect_docai.flows.service import ServiceNotInstalled, connect
from prefect_docai.flows.sources import Source, SourceFile


class BatchIncomplete(RuntimeError):
    """Some documents were deferred or not started; the datasets hold everything else."""

    def __init__(self, summary: BatchSummary) -> None:
        super().__init__(
            f"{summary.deferred} document(s) deferred and {summary.over_budget} not started "
            f"(credit budget); run again to finish them"
        )
        self.summary = summary

    def __reduce__(self) -> tuple[type["BatchIncomplete"], tuple[BatchSummary]]:
        # Unpickling calls the class with ``args`` (the message); a Dask or Ray worker
        # hands the exception back pickled, so rebuild it from the summary instead.
        return (type(self), (self.summary,))


@dataclass
class _Batch:
    """State shared by the documents of one run."""

    run_id: str
    store: DatasetStore
    source: Source
    options: BatchOptions
    ledger: dict[str, DocumentStatus]
    checkpointed: set[str]
    summary: BatchSummary
    with_jobs: set[str] = field(default_factory=set)
    """Documents with job checkpoints when the run started (an earlier run's, perhaps under
    keys this run will not use): theirs are cleared by listing, the others' by name."""
    credentials: str | None = None
    stack: AsyncExitStack = field(default_factory=AsyncExitStack)
    _pipeline: DocumentPipeline | None = None
    budget: Budget = field(default_factory=lambda: Budget(None))
    progress_id: UUID | None = None
    total: int = 0
    finished: int = 0
    seen: set[str] = field(default_factory=set)
    stop: bool = False
    types: Counter[str] = field(default_factory=Counter)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    connect_lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    async def pipeline(self) -> DocumentPipeline:
        """Connect on first need: a run with nothing new never starts a service."""
        async with self.connect_lock:
            if self._pipeline is None:
                connection = await self.stack.enter_async_context(
                    connect(self.credentials, self.options.credit_budget)
                )
                self.summary.service = connection.description
                self._pipeline = DocumentPipeline(connection.client, self.options, self.store)
            return self._pipeline


def _resource(outcome_id: str, file: SourceFile) -> dict[str, str]:
    return {
        "prefect.resource.id": f"docai.document.{outcome_id}",
        "prefect.resource.name": file.name,
        "docai.source": file.url,
    }


async def _progress(batch: _Batch) -> None:
    async with batch.lock:
        batch.finished += 1
        if batch.progress_id is not None and batch.total:
            await aupdate_progress_artifact(
                batch.progress_id, round(100.0 * batch.finished / batch.total, 1)
            )


def _record(batch: _Batch, outcome: DocumentOutcome) -> None:
    summary = batch.summary
    if outcome.status == "processed":
        summary.processed += 1
    elif outcome.status == "partial":
        summary.partial += 1
    else:
        summary.failed += 1
        summary.failed_files.append(outcome.file_name)
    summary.pages += outcome.page_count or 0
    summary.credits_used += outcome.credits_charged
    summary.errors += len(outcome.errors)
    batch.types.update(seg.document_type for seg in outcome.segments)


@task(name="process-document", task_run_name="{name}", cache_policy=NO_CACHE)
async def process_file(name: str, batch: _Batch, file: SourceFile) -> str:
    """One source file: skip, resume, or run it through the service and checkpoint it.

    ``batch`` and ``file`` arrive ``quote``d: Prefect must not walk (and copy) the shared
    batch state when it resolves task inputs.
    """
    logger = get_run_logger()
    data = await asyncio.to_thread(batch.source.read, file)
    document_id = hashlib.sha256(data).hexdigest()
    done = batch.ledger.get(document_id)
    if done is not None and (done == "processed" or not batch.options.retry_failed):
        batch.summary.skipped += 1
        return "skipped"
    if document_id in batch.checkpointed:
        batch.summary.resumed += 1
        return "resumed"
    if document_id in batch.seen:
        batch.summary.duplicates += 1
        return "duplicate"
    batch.seen.add(document_id)
    if batch.stop:
        batch.summary.deferred += 1
        return "deferred"

    try:
        pages = (await asyncio.to_thread(inspect_document, data)).page_count
    except DocumentError:
        pages = 1  # the pipeline records why; rejecting it costs nothing
    _, highest = estimate_credits(pages, batch.options)
    if not await batch.budget.reserve(highest):
        batch.summary.over_budget += 1
        logger.info("%s: not started, the credit budget could be exceeded", file.name)
        return "over_budget"

    pipeline = await batch.pipeline()
    spent = 0
    try:
        outcome = await pipeline.process(file, data, document_id)
        spent = outcome.credits_charged
    except Deferred as exc:
        batch.summary.deferred += 1
        batch.stop = batch.stop or exc.stop_batch
        logger.warning("%s: deferred to the next run: %s", file.name, exc)
        emit_event(
            "docai.document.failed",
            resource=_resource(document_id, file),
            payload={"deferred": True, "reason": str(exc), "run_id": batch.run_id},
        )
        return "deferred"
    finally:
        await batch.budget.settle(highest, spent)

    await asyncio.to_thread(batch.store.stage, outcome)
    # The staged outcome holds every job's result now: its job checkpoints are done.
    keys: set[str] | None = pipeline.checkpoints.pop(document_id, set())
    if document_id in batch.with_jobs:
        keys = None  # an earlier run's checkpoints may sit under other keys
    await asyncio.to_thread(batch.store.clear_jobs, document_id, keys)
    _record(batch, outcome)
    payload: dict[str, Any] = {
        "run_id": batch.run_id,
        "status": outcome.status,
        "pages": outcome.page_count,
        "segments": [seg.document_type for seg in outcome.segments],
        "credits": outcome.credits_charged,
        "errors": [f"{e.stage}:{e.code}" for e in outcome.errors],
        "destination": batch.store.destination,
    }
    event = "docai.document.failed" if outcome.status == "failed" else "docai.document.processed"
    emit_event(event, resource=_resource(document_id, file), payload=payload)
    if outcome.errors:
        logger.warning("%s: %s (%s)", file.name, outcome.status, "; ".join(payload["errors"]))
    return outcome.status


async def _dry_run(batch: _Batch, files: list[SourceFile]) -> None:
    summary = batch.summary
    sem = asyncio.Semaphore(batch.options.max_concurrency)
    low = high = 0

    async def count(file: SourceFile) -> None:
        nonlocal low, high
        async with sem:
            data = await asyncio.to_thread(batch.source.read, file)
        document_id = hashlib.sha256(data).hexdigest()
        if document_id in batch.ledger or document_id in batch.checkpointed:
            summary.skipped += 1
            return
        try:
            pages = (await asyncio.to_thread(inspect_document, data)).page_count
        except DocumentError:
            summary.failed += 1
            summary.failed_files.append(file.name)
            return
        summary.pages += pages
        lo, hi = estimate_credits(pages, batch.options)
        low += lo
        high += hi

    await asyncio.gather(*(count(f) for f in files))
    summary.estimated_credits_low = low
    summary.estimated_credits_high = high


@flow(name="process-documents", log_prints=True)
async def aprocess_documents(
    source: str,
    destination: str,
    credentials: str | None = None,
    options: BatchOptions = BatchOptions(),
) -> BatchSummary:
    """Split, classify, route and extract a batch of documents into Parquet datasets.

    One name for sync and async callers: ``process_documents(...)`` runs the flow and returns
    its :class:`BatchSummary` in sync code, and returns an awaitable in async code (a flow,
    a task or a coroutine); ``aprocess_documents`` is the async flow itself (the deployments'
    entrypoint).

    Args:
        source: a folder, file or glob on any fsspec filesystem (``s3://bucket/inbox/**/*.pdf``,
            ``gs://…``, ``file://…``, a local path).
        destination: fsspec URL of the datasets (see ``prefect_docai.datasets``).
        credentials: name of a saved ``DocAICredentials`` block; none starts the service
            in this process on loopback for the duration of the run.
        options: see :class:`BatchOptions`.
    """
    return await _process_batch(source, destination, credentials, options)


@async_dispatch(aprocess_documents)
@flow(name="process-documents", log_prints=True)
def process_documents(
    source: str,
    destination: str,
    credentials: str | None = None,
    options: BatchOptions = BatchOptions(),
) -> BatchSummary:
    """The batch flow under one name for sync and async callers (see ``aprocess_documents``)."""
    # The batch is asyncio inside; Prefect's run-sync loop keeps this run's context.
    return run_coro_as_sync(_process_batch(source, destination, credentials, options))


async def _process_batch(
    source: str, destination: str, credentials: str | None, options: BatchOptions
) -> BatchSummary:
    logger = get_run_logger()
    started = time.monotonic()
    run_id = str(flow_run.id or uuid.uuid4())
    store = DatasetStore(destination, options.destination_storage_options)
    recovery = await asyncio.to_thread(store.recover)
    if recovery.rolled_forward or recovery.rolled_back or recovery.ledger_repaired:
        logger.info("finished an interrupted commit: %s", recovery)
    ledger = await asyncio.to_thread(store.ledger)
    checkpointed = {o.document_id for o in await asyncio.to_thread(store.staged)}
    with_jobs = await asyncio.to_thread(store.documents_with_jobs)
    src = Source(source, options.patterns, options.source_storage_options)
    files = await asyncio.to_thread(src.list)
    summary = BatchSummary(
        run_id=run_id,
        source=source,
        destination=destination,
        dry_run=options.dry_run,
        files_found=len(files),
        left_out=src.left_out,
    )
    batch = _Batch(
        run_id=run_id,
        store=store,
        source=src,
        options=options,
        ledger=ledger,
        checkpointed=checkpointed,
        summary=summary,
        with_jobs=with_jobs,
        budget=Budget(options.credit_budget),
        total=len(files),
    )
    logger.info(
        "%d file(s) in %s; %d already in the ledger, %d checkpointed",
        len(files),
        source,
        len(ledger),
        len(checkpointed),
    )

    if options.dry_run:
        await _dry_run(batch, files)
        summary.wall_seconds = time.monotonic() - started
        await acreate_table_artifact(
            summary.table(), key="docai-batch-estimate", description="Dry run: pages and credits"
        )
        return summary

    batch.progress_id = await acreate_progress_artifact(
        0.0, key="docai-batch-progress", description=f"Documents of {source}"
    )
    batch.credentials = credentials
    async with batch.stack:
        sem = asyncio.Semaphore(options.max_concurrency)

        async def one(file: SourceFile) -> None:
            async with sem:
                try:
                    await process_file(file.name, quote(batch), quote(file))  # type: ignore[call-overload]
                except ServiceNotInstalled:
                    raise  # no document can succeed: fail the run and say what to install
                except Exception:
                    # A bug or an outage the pipeline did not classify: the task run shows
                    # it as failed, the document stays out of the ledger, the batch goes on.
                    logger.exception("%s: deferred after an unexpected error", file.name)
                    summary.deferred += 1
                finally:
                    await _progress(batch)

        await asyncio.gather(*(one(f) for f in files))

    manifest = await asyncio.to_thread(store.commit, run_id)
    if manifest is not None:
        summary.rows = {name: f.rows for name, f in manifest.files.items()}
    summary.segments_by_type = dict(batch.types)
    summary.wall_seconds = round(time.monotonic() - started, 2)
    await acreate_table_artifact(
        summary.table(), key="docai-batch-summary", description=f"Batch {run_id}"
    )
    await acreate_markdown_artifact(
        markdown_report(summary, store), key="docai-batch-report", description=f"Batch {run_id}"
    )
    logger.info(
        "done in %.1f s: %d processed, %d partial, %d failed, %d skipped, %d resumed, "
        "%d deferred, %d credits",
        summary.wall_seconds,
        summary.processed,
        summary.partial,
        summary.failed,
        summary.skipped,
        summary.resumed,
        summary.deferred,
        summary.credits_used,
    )
    if summary.failed_files:
        logger.warning("failed: %s", ", ".join(sorted(summary.failed_files)))
    if summary.left_out:
        logger.warning(
            "left out, no pattern matches (options.patterns): %s", ", ".join(summary.left_out)
        )
    if not summary.complete:
        raise BatchIncomplete(summary)
    return summary
