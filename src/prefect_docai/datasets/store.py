"""The destination: Parquet datasets, a commit log, and per-document checkpoints.

Layout under the destination URL (any fsspec filesystem)::

    <dataset>/ingest_date=YYYY-MM-DD/run_id=<run>/part-<attempt>.parquet   data, one file per commit
    _docai/log/<version>.json              committed run manifests: the commit log (20-digit versions)
    _docai/pending/<run>.<attempt>.json    a commit in progress (lists its target paths)
    _docai/staging/<document_id>.json      finished, not yet committed
    _docai/jobs/<document_id>/<key>.json   a finished job's downloaded result (document unfinished)

Why this shape: object stores have no atomic rename and no multi-object transaction, but
a single PUT is atomic and S3 can make it conditional (``If-None-Match: *``). So every
commit writes its data files under paths of its own (a fresh ``attempt`` id), then
publishes them by *creating* the next log entry ``_docai/log/<head + 1>.json`` only if it
does not exist yet (:mod:`prefect_docai.datasets.conditional`). That create is the commit
point, and exactly one writer can win each version: the log is a total order of commits
across processes and machines, the same optimistic protocol Delta Lake's log uses, but over
all eleven datasets at once.

A writer that loses a version reads the entries it missed and drops every document they
already committed (it would be a duplicate), rewrites its files if that changed them, and
tries the next version. Which documents a commit may publish is decided against the log
version the run started from (:attr:`DatasetStore.version`, remembered by :meth:`ledger`):
a document committed after that version was processed by an overlapping run, and a document
committed as ``processed`` at any version is never published again. A re-run of a
``failed`` document (``retry_failed``) still commits its new outcome.

A document's outcome is checkpointed in ``staging`` as soon as it finishes, so a run that
dies midway loses no paid-for work: the next commit publishes those checkpoints instead of
calling the service again. :meth:`DatasetStore.recover` finishes commits that died: a
pending record older than ``stale_after`` is re-committed from its checkpoints with a log
entry that *fences* the dead attempt (should it wake up, it sees the fence and gives up),
and only then are the dead attempt's files deleted. Readers that go through the log
(:meth:`DatasetStore.read`, :func:`prefect_docai.datasets.read`) see whole commits only;
a plain glob over the data files can also see a commit in flight or a dead one's files
until recovery removes them.
"""

from __future__ import annotations

import contextlib
import io
import logging
import posixpath
import uuid
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from typing import Any, Literal

import fsspec
import pyarrow as pa
import pyarrow.dataset as ds
import pyarrow.fs as pafs
import pyarrow.parquet as pq
from fsspec.implementations.local import LocalFileSystem
from pydantic import BaseModel, ValidationError

from prefect_docai.datasets.conditional import create_exclusive, is_atomic
from prefect_docai.datasets.normalize import to_tables
from prefect_docai.datasets.outcome import DocumentOutcome, DocumentStatus
from prefect_docai.datasets.schemas import DATASETS, SCHEMA_VERSION, SCHEMAS
from prefect_docai.models import JobResult

logger = logging.getLogger(__name__)

_META = "_docai"
_DIGITS = 20
STALE_AFTER = timedelta(minutes=15)
"""A pending commit older than this is taken for dead by :meth:`DatasetStore.recover`.
Only availability depends on it: a commit taken for dead but still alive is fenced off
and gives up, so nothing is published twice."""

PARTITIONING = pa.schema([pa.field("ingest_date", pa.date32()), pa.field("run_id", pa.string())])
"""The hive partition columns, typed (a bare hive reader infers ``ingest_date`` as text)."""


class RunFile(BaseModel):
    path: str
    """Relative to the destination root."""
    rows: int


class RunManifest(BaseModel):
    run_id: str
    attempt: str = "0"
    """Names this commit's files; a new one for every rewrite, so no two commits share a path."""
    ingest_date: date
    schema_version: str = SCHEMA_VERSION
    state: Literal["pending", "committed"] = "pending"
    version: int | None = None
    """The log version this commit won (``None`` while pending)."""
    base_version: int = -1
    """The log version the run decided against: documents committed after it are not its."""
    created_at: datetime
    committed_at: datetime | None = None
    documents: dict[str, DocumentStatus]
    """document_id → status, for every document this run commits."""
    files: dict[str, RunFile] = {}
    fenced: list[str] = []
    """Attempts of dead commits this entry replaces; they must never be published."""


@dataclass
class RecoveryReport:
    rolled_forward: list[str] = field(default_factory=list)
    """Runs whose dead commit was published again from its checkpoints."""
    rolled_back: list[str] = field(default_factory=list)
    """Dead commits with nothing left to publish: fenced off, their files removed."""
    ledger_repaired: int = 0
    """Commits that had landed but died before clearing their checkpoints."""
    staging_cleared: int = 0


def partition_path(dataset: str, ingest_date: date, run_id: str, attempt: str = "0") -> str:
    return f"{dataset}/ingest_date={ingest_date.isoformat()}/run_id={run_id}/part-{attempt}.parquet"


def _parquet_bytes(table: pa.Table) -> bytes:
    sink = io.BytesIO()
    pq.write_table(table, sink, compression="zstd")
    return sink.getvalue()


def _head(entries: Sequence[RunManifest]) -> int:
    return entries[-1].version if entries and entries[-1].version is not None else -1


def _fresh(
    outcomes: Sequence[DocumentOutcome], entries: Iterable[RunManifest], base: int
) -> list[DocumentOutcome]:
    """The outcomes no commit has published for this run yet (the rest would be duplicates)."""
    taken: set[str] = set()
    for entry in entries:
        newer = (entry.version or 0) > base
        taken.update(d for d, s in entry.documents.items() if newer or s == "processed")
    return [o for o in outcomes if o.document_id not in taken]


class DatasetStore:
    """Reads and writes one destination; any number of concurrent writers is safe."""

    def __init__(self, destination: str, storage_options: dict[str, Any] | None = None) -> None:
        self.destination = destination
        fs, root = fsspec.core.url_to_fs(destination, **(storage_options or {}))
        self.fs: fsspec.AbstractFileSystem = fs
        self.root: str = root.rstrip("/")
        self._local = isinstance(fs, LocalFileSystem)
        self._entries: dict[int, RunManifest] = {}
        self.version: int | None = None
        """The log version :meth:`ledger` last read; commits decide against it."""
        if not is_atomic(fs):
            logger.warning(
                "%s cannot create a file only if it is absent atomically: "
                "run one writer at a time on this destination",
                type(fs).__name__,
            )

    # --- paths -----------------------------------------------------------------------

    def _path(self, *parts: str) -> str:
        return posixpath.join(self.root, *parts)

    def url(self, *parts: str) -> str:
        """A URL of a path below the destination, for readers (DuckDB, Polars)."""
        path = self._path(*parts)
        if self._local:
            return path
        return str(self.fs.unstrip_protocol(path))

    def glob_url(self, dataset: str) -> str:
        """A glob matching every data file of ``dataset`` (hive partitions below it)."""
        return self.url(dataset, "*", "*", "*.parquet")

    # --- low-level I/O -----------------------------------------------------------------

    def _write_atomic(self, path: str, data: bytes) -> None:
        """Whole or nothing: one PUT on object stores, temp file + rename locally."""
        parent = posixpath.dirname(path)
        if self._local:
            self.fs.makedirs(parent, exist_ok=True)
            # A dot prefix and a non-.parquet suffix keep globs and pyarrow from seeing it.
            tmp = posixpath.join(parent, f".{posixpath.basename(path)}.{uuid.uuid4().hex}.tmp")
            self.fs.pipe_file(tmp, data)
            self.fs.mv(tmp, path)
        else:
            self.fs.pipe_file(path, data)

    def _ls_names(self, *parts: str) -> list[str]:
        path = self._path(*parts)
        try:
            entries = self.fs.ls(path, detail=False, refresh=True)
        except FileNotFoundError:
            return []
        return sorted(posixpath.basename(str(e).rstrip("/")) for e in entries)

    def _rm(self, path: str) -> None:
        with contextlib.suppress(FileNotFoundError):
            self.fs.rm_file(path)

    # --- the commit log --------------------------------------------------------------

    def _log_path(self, version: int) -> str:
        return self._path(_META, "log", f"{version:0{_DIGITS}d}.json")

    def _log(self) -> list[RunManifest]:
        """Every committed entry in version order; entries never change, so each is read once."""
        versions = sorted(
            int(name[:-5])
            for name in self._ls_names(_META, "log")
            if name.endswith(".json") and name[:-5].isdigit()
        )
        missing = [v for v in versions if v not in self._entries]
        if missing:
            paths = [self._log_path(v) for v in missing]
            contents = self.fs.cat(paths)
            for version, path in zip(missing, paths, strict=True):
                self._entries[version] = RunManifest.model_validate_json(contents[path])
        return [self._entries[v] for v in versions]

    def ledger(self) -> dict[str, DocumentStatus]:
        """document_id → latest committed status, from the log; remembers the version read."""
        entries = self._log()
        self.version = _head(entries)
        out: dict[str, DocumentStatus] = {}
        for entry in entries:
            out.update(entry.documents)
        return out

    # --- checkpoints -----------------------------------------------------------------

    def stage(self, outcome: DocumentOutcome) -> None:
        """Checkpoint a finished document so a crash after this loses nothing."""
        self._write_atomic(
            self._path(_META, "staging", f"{outcome.document_id}.json"),
            outcome.model_dump_json().encode(),
        )

    def staged(self) -> list[DocumentOutcome]:
        """Finished but uncommitted documents, from this run or an interrupted one."""
        outcomes = []
        for name in self._ls_names(_META, "staging"):
            if not name.endswith(".json") or name.startswith("."):
                continue
            path = self._path(_META, "staging", name)
            try:
                outcomes.append(DocumentOutcome.model_validate_json(self.fs.cat_file(path)))
            except FileNotFoundError:
                continue  # committed by a concurrent writer since the listing
            except (ValidationError, ValueError):
                # A checkpoint cut short by a crash: that document simply runs again.
                logger.warning("discarding unreadable checkpoint %s", name)
                self._rm(path)
        return outcomes

    def _clear_checkpoints(self, document_ids: Iterable[str]) -> int:
        wanted = {f"{d}.json" for d in document_ids}
        present = wanted.intersection(self._ls_names(_META, "staging")) if wanted else set()
        for name in present:
            self._rm(self._path(_META, "staging", name))
        return len(present)

    # --- job checkpoints -------------------------------------------------------------
    #
    # A document can stop between jobs (deferred: rate limit, credits, timeout) after some
    # of its jobs finished and were downloaded. The service deletes a downloaded result
    # ``download_grace`` later, so the next run's replay of the same Idempotency-Key may
    # find the job expired: each finished job's result is kept here until the document's
    # outcome is staged, and the next run reuses it instead of fetching it again.

    def _job_path(self, document_id: str, key: str) -> str:
        return self._path(_META, "jobs", document_id, f"{key}.json")

    def stage_job(self, document_id: str, key: str, job: JobResult) -> None:
        """Checkpoint one finished job of an unfinished document under its request key."""
        self._write_atomic(self._job_path(document_id, key), job.model_dump_json().encode())

    def staged_job(self, document_id: str, key: str) -> JobResult | None:
        """The checkpointed job of ``document_id`` under ``key``, or None."""
        path = self._job_path(document_id, key)
        try:
            return JobResult.model_validate_json(self.fs.cat_file(path))
        except FileNotFoundError:
            return None
        except (ValidationError, ValueError):
            logger.warning("discarding unreadable job checkpoint %s", path)
            self._rm(path)
            return None

    def documents_with_jobs(self) -> set[str]:
        """Documents that have job checkpoints now (one listing for the destination)."""
        return set(self._ls_names(_META, "jobs"))

    def clear_jobs(self, document_id: str, keys: Collection[str] | None = None) -> None:
        """Forget a document's job checkpoints (its outcome is staged: they are in it):
        those under ``keys`` by name (no listing: one delete each on an object store), or,
        with ``keys`` None, every one a listing finds."""
        if keys is None:
            paths = [
                self._path(_META, "jobs", document_id, n)
                for n in self._ls_names(_META, "jobs", document_id)
            ]
        else:
            paths = [self._job_path(document_id, key) for key in sorted(keys)]
        for path in paths:
            self._rm(path)
        if self._local:
            with contextlib.suppress(OSError):
                self.fs.rmdir(self._path(_META, "jobs", document_id))

    # --- manifests -------------------------------------------------------------------

    def _pending_path(self, manifest: RunManifest) -> str:
        return self._path(_META, "pending", f"{manifest.run_id}.{manifest.attempt}.json")

    def manifests(self, *, pending: bool = False) -> list[RunManifest]:
        """Committed run manifests in commit order (or the pending ones, oldest first)."""
        if not pending:
            return [e for e in self._log() if e.documents]
        out = []
        for name in self._ls_names(_META, "pending"):
            if name.startswith(".") or not name.endswith(".json"):
                continue
            try:
                raw = self.fs.cat_file(self._path(_META, "pending", name))
            except FileNotFoundError:
                continue  # finished since the listing
            out.append(RunManifest.model_validate_json(raw))
        return sorted(out, key=lambda m: (m.created_at, m.run_id))

    # --- commit ----------------------------------------------------------------------

    def commit(
        self,
        run_id: str,
        outcomes: Sequence[DocumentOutcome] | None = None,
        *,
        ingest_date: date | None = None,
        base_version: int | None = None,
    ) -> RunManifest | None:
        """Publish ``outcomes`` (default: every checkpoint) as run ``run_id``, exactly once.

        ``base_version`` is the log version the run decided against (default: what
        :meth:`ledger` last read, else the current head). Returns the committed manifest,
        or ``None`` when there was nothing (left) to commit.
        """
        if outcomes is None:
            outcomes = self.staged()
        if not outcomes:
            return None
        entries = self._log()
        if base_version is None:
            base_version = self.version if self.version is not None else _head(entries)
        day = ingest_date or datetime.now(UTC).date()
        return self._publish(run_id, outcomes, day, base_version, entries, fenced=[])

    def _plan(
        self,
        run_id: str,
        day: date,
        base: int,
        documents: dict[str, DocumentStatus],
        tables: dict[str, pa.Table] | None,
        fenced: list[str],
    ) -> RunManifest:
        attempt = uuid.uuid4().hex[:12]
        files = (
            {
                name: RunFile(path=partition_path(name, day, run_id, attempt), rows=t.num_rows)
                for name, t in tables.items()
            }
            if tables is not None
            else {}
        )
        return RunManifest(
            run_id=run_id,
            attempt=attempt,
            ingest_date=day,
            base_version=base,
            created_at=datetime.now(UTC),
            documents=documents,
            files=files,
            fenced=fenced,
        )

    def _discard(self, manifest: RunManifest) -> None:
        """Remove an attempt that will never be published (its files, then its record)."""
        for run_file in manifest.files.values():
            self._rm(self._path(run_file.path))
        self._rm(self._pending_path(manifest))

    def _publish(
        self,
        run_id: str,
        outcomes: Sequence[DocumentOutcome],
        day: date,
        base: int,
        entries: list[RunManifest],
        fenced: list[str],
    ) -> RunManifest | None:
        """Write files under a fresh attempt, then win the next log version (or adapt and retry)."""
        while True:
            keep = _fresh(outcomes, entries, base)
            # Published by an overlapping run: those checkpoints are done with.
            self._clear_checkpoints(
                {o.document_id for o in outcomes} - {o.document_id for o in keep}
            )
            if not keep and not fenced:
                return None
            tables = to_tables(keep) if keep else None
            manifest = self._plan(
                run_id, day, base, {o.document_id: o.status for o in keep}, tables, fenced
            )
            if tables is not None:
                self._write_atomic(
                    self._pending_path(manifest), manifest.model_dump_json(indent=2).encode()
                )
                for name in DATASETS:
                    self._write_atomic(
                        self._path(manifest.files[name].path), _parquet_bytes(tables[name])
                    )
            while True:
                version = _head(entries) + 1
                committed = manifest.model_copy(
                    update={
                        "state": "committed",
                        "version": version,
                        "committed_at": datetime.now(UTC),
                    }
                )
                if create_exclusive(
                    self.fs, self._log_path(version), committed.model_dump_json(indent=2).encode()
                ):
                    self._entries[version] = committed
                    # Checkpoints before the pending record: recovery finds a landed commit
                    # by its pending record and clears what is left.
                    self._clear_checkpoints(committed.documents)
                    self._rm(self._pending_path(manifest))
                    return committed
                # Another writer won this version: learn what it published.
                entries = self._log()
                if any(manifest.attempt in e.fenced for e in entries):
                    # Taken for dead and re-published by recovery: nothing is left to do.
                    self._discard(manifest)
                    return None
                if len(_fresh(keep, entries, base)) != len(keep):
                    self._discard(manifest)
                    outcomes = keep
                    break  # plan again without the documents the winner published

    def recover(self, *, stale_after: timedelta = STALE_AFTER) -> RecoveryReport:
        """Finish what dead commits left; one listing when nothing was left.

        A pending commit younger than ``stale_after`` may belong to a live concurrent
        writer and is left alone.
        """
        report = RecoveryReport()
        pending = self.manifests(pending=True)
        if not pending:
            return report
        entries = self._log()
        landed = {e.attempt for e in entries} | {a for e in entries for a in e.fenced}
        now = datetime.now(UTC)
        staged: dict[str, DocumentOutcome] | None = None
        for manifest in pending:
            if manifest.attempt in landed:
                # Died after its commit point (or was fenced): finish the bookkeeping.
                report.staging_cleared += self._clear_checkpoints(manifest.documents)
                self._rm(self._pending_path(manifest))
                report.ledger_repaired += 1
                continue
            if now - manifest.created_at < stale_after:
                continue
            if staged is None:
                staged = {o.document_id: o for o in self.staged()}
            outcomes = [staged[d] for d in manifest.documents if d in staged]
            # Fence first: the dead attempt's files may go only once the log says it is dead.
            result = self._publish(
                manifest.run_id,
                outcomes,
                manifest.ingest_date,
                manifest.base_version,
                entries,
                fenced=[manifest.attempt],
            )
            entries = self._log()
            self._discard(manifest)
            if result is not None and result.documents:
                report.rolled_forward.append(manifest.run_id)
            else:
                report.rolled_back.append(manifest.run_id)
        return report

    # --- reading ---------------------------------------------------------------------

    def files(self, dataset: str, *, runs: Iterable[str] | None = None) -> list[str]:
        """The committed, non-empty files of ``dataset``, relative to the root, in log order."""
        if dataset not in SCHEMAS:
            raise KeyError(f"unknown dataset {dataset!r}; known: {', '.join(DATASETS)}")
        wanted = set(runs) if runs is not None else None
        return [
            entry.files[dataset].path
            for entry in self._log()
            if dataset in entry.files
            and entry.files[dataset].rows
            and (wanted is None or entry.run_id in wanted)
        ]

    def dataset(self, dataset: str, *, runs: Iterable[str] | None = None) -> ds.Dataset:
        """A pyarrow dataset over the committed files of ``dataset``, partitions typed.

        ``ingest_date`` is ``date32`` and ``run_id`` a string, from the hive paths; filters
        on them prune files. Only files the log published are in it.
        """
        paths = [self._path(p) for p in self.files(dataset, runs=runs)]
        base = SCHEMAS[dataset]
        full = pa.schema([*base, *PARTITIONING], metadata=base.metadata)
        filesystem: pafs.FileSystem = (
            pafs.LocalFileSystem()
            if self._local
            else pafs.PyFileSystem(pafs.FSSpecHandler(self.fs))
        )
        return ds.dataset(
            paths,
            schema=full,
            format="parquet",
            filesystem=filesystem,
            partitioning=ds.partitioning(PARTITIONING, flavor="hive"),
            partition_base_dir=self.root,
        )

    def read(self, dataset: str, *, runs: Iterable[str] | None = None) -> pa.Table:
        """Every committed row of ``dataset`` with ``ingest_date`` and ``run_id`` columns."""
        return self.dataset(dataset, runs=runs).to_table()

    def row_counts(self) -> dict[str, int]:
        """Committed rows per dataset, from the log alone."""
        counts = dict.fromkeys(DATASETS, 0)
        for entry in self._log():
            for name, run_file in entry.files.items():
                if name in counts:
                    counts[name] += run_file.rows
        return counts
