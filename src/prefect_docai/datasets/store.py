"""The destination: Parquet datasets, run manifests, the ledger and per-document checkpoints.

Layout under the destination URL (any fsspec filesystem)::

    <dataset>/ingest_date=YYYY-MM-DD/run_id=<run>/part-0.parquet   the data, one file per run
    _docai/runs/<run>.json                                          run manifest (commit record)
    _docai/runs/<run>.pending.json                                  a commit in progress
    _docai/ledger/<document_id>.<status>                            one marker per source file
    _docai/staging/<document_id>.json                               finished, not yet committed

Why this shape: object stores have no atomic rename and no multi-object transaction, but a
single object PUT is atomic. So each dataset gets exactly one file per run, written in one
PUT (locally: temp file + rename), and the files of a run appear only after its manifest
says which ones they are. A glob reader of one dataset (DuckDB, Polars, pandas) therefore
sees a run's rows for that dataset entirely or not at all; :meth:`DatasetStore.read` reads
only committed runs and is consistent across datasets.

A document's outcome is checkpointed in ``staging`` as soon as it finishes, so a run that
dies midway loses no paid-for work: the next run commits those checkpoints instead of
calling the service again. The commit protocol (:meth:`DatasetStore.commit`):

1. ``runs/<run>.pending.json`` (lists documents and target paths),
2. data files, one per dataset,
3. ``runs/<run>.json``: the commit point,
4. ledger markers,
5. checkpoints and the pending record deleted.

:meth:`DatasetStore.recover` finishes an interrupted commit from the checkpoints (rolling
forward, byte-identical rows at the same paths), so a crash at any step leaves neither a
duplicate nor a gap. One writer per destination at a time (the deployments set a
concurrency limit of 1).
"""

from __future__ import annotations

import contextlib
import io
import json
import logging
import posixpath
import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import Any, Literal

import fsspec
import pyarrow as pa
import pyarrow.parquet as pq
from fsspec.implementations.local import LocalFileSystem
from pydantic import BaseModel, ValidationError

from prefect_docai.datasets.normalize import to_tables
from prefect_docai.datasets.outcome import DocumentOutcome, DocumentStatus
from prefect_docai.datasets.schemas import DATASETS, SCHEMA_VERSION, SCHEMAS

logger = logging.getLogger(__name__)

_META = "_docai"


class RunFile(BaseModel):
    path: str
    """Relative to the destination root."""
    rows: int


class RunManifest(BaseModel):
    run_id: str
    ingest_date: date
    schema_version: str = SCHEMA_VERSION
    state: Literal["pending", "committed"] = "pending"
    created_at: datetime
    committed_at: datetime | None = None
    documents: dict[str, DocumentStatus]
    """document_id → status, for every document this run commits."""
    files: dict[str, RunFile] = {}


@dataclass
class RecoveryReport:
    rolled_forward: list[str] = field(default_factory=list)
    """Runs whose interrupted commit was finished."""
    rolled_back: list[str] = field(default_factory=list)
    """Pending runs whose checkpoints were gone: their partial files were removed."""
    ledger_repaired: int = 0
    staging_cleared: int = 0


def partition_path(dataset: str, ingest_date: date, run_id: str) -> str:
    return f"{dataset}/ingest_date={ingest_date.isoformat()}/run_id={run_id}/part-0.parquet"


def _parquet_bytes(table: pa.Table) -> bytes:
    sink = io.BytesIO()
    pq.write_table(table, sink, compression="zstd")
    return sink.getvalue()


class DatasetStore:
    """Reads and writes one destination. Not safe for two concurrent writers."""

    def __init__(self, destination: str, storage_options: dict[str, Any] | None = None) -> None:
        self.destination = destination
        fs, root = fsspec.core.url_to_fs(destination, **(storage_options or {}))
        self.fs: fsspec.AbstractFileSystem = fs
        self.root: str = root.rstrip("/")
        self._local = isinstance(fs, LocalFileSystem)

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

    def _read_json(self, path: str) -> Any:
        return json.loads(self.fs.cat_file(path))

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

    # --- ledger ------------------------------------------------------------------------

    def ledger(self) -> dict[str, DocumentStatus]:
        """document_id → status of every committed document, from one listing."""
        out: dict[str, DocumentStatus] = {}
        for name in self._ls_names(_META, "ledger"):
            doc_id, _, status = name.partition(".")
            if status in ("processed", "partial", "failed"):
                out[doc_id] = status  # type: ignore[assignment]
        return out

    def _mark(
        self, document_id: str, status: DocumentStatus, run_id: str, previous: str | None
    ) -> None:
        if previous is not None and previous != status:
            # A retried document: its marker changes name with its status.
            self._rm(self._path(_META, "ledger", f"{document_id}.{previous}"))
        self._write_atomic(
            self._path(_META, "ledger", f"{document_id}.{status}"),
            json.dumps({"run_id": run_id}).encode(),
        )

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
            except (ValidationError, ValueError):
                # A checkpoint cut short by a crash: that document simply runs again.
                logger.warning("discarding unreadable checkpoint %s", name)
                self._rm(path)
        return outcomes

    # --- manifests -------------------------------------------------------------------

    def _manifest_path(self, run_id: str, state: str) -> str:
        suffix = ".json" if state == "committed" else ".pending.json"
        return self._path(_META, "runs", f"{run_id}{suffix}")

    def manifests(self, *, pending: bool = False) -> list[RunManifest]:
        """Committed run manifests, oldest first (or the pending ones)."""
        out = []
        for name in self._ls_names(_META, "runs"):
            if name.startswith(".") or not name.endswith(".json"):
                continue
            if name.endswith(".pending.json") != pending:
                continue
            out.append(RunManifest.model_validate(self._read_json(self._path(_META, "runs", name))))
        return sorted(out, key=lambda m: (m.created_at, m.run_id))

    def _write_manifest(self, manifest: RunManifest) -> None:
        self._write_atomic(
            self._manifest_path(manifest.run_id, manifest.state),
            manifest.model_dump_json(indent=2).encode(),
        )

    # --- commit ----------------------------------------------------------------------

    def commit(
        self,
        run_id: str,
        outcomes: Sequence[DocumentOutcome] | None = None,
        *,
        ingest_date: date | None = None,
    ) -> RunManifest | None:
        """Publish ``outcomes`` (default: every checkpoint) as run ``run_id``.

        Returns the committed manifest, or ``None`` when there was nothing to commit.
        """
        if outcomes is None:
            outcomes = self.staged()
        if not outcomes:
            return None
        now = datetime.now(UTC)
        day = ingest_date or now.date()
        manifest = RunManifest(
            run_id=run_id,
            ingest_date=day,
            created_at=now,
            documents={o.document_id: o.status for o in outcomes},
        )
        tables = to_tables(outcomes)
        manifest.files = {
            name: RunFile(path=partition_path(name, day, run_id), rows=tables[name].num_rows)
            for name in DATASETS
        }
        self._write_manifest(manifest)
        return self._finish(manifest, tables)

    def _finish(self, manifest: RunManifest, tables: dict[str, pa.Table]) -> RunManifest:
        for name in DATASETS:
            self._write_atomic(self._path(manifest.files[name].path), _parquet_bytes(tables[name]))
        committed = manifest.model_copy(
            update={"state": "committed", "committed_at": datetime.now(UTC)}
        )
        self._write_manifest(committed)  # the commit point
        self._rm(self._manifest_path(manifest.run_id, "pending"))
        self._settle(committed, self.ledger())
        return committed

    def _settle(self, manifest: RunManifest, ledger: dict[str, DocumentStatus]) -> tuple[int, int]:
        """Ledger markers and checkpoint removal: idempotent, after the commit point."""
        marked = cleared = 0
        for doc_id, status in manifest.documents.items():
            previous = ledger.get(doc_id)
            if previous != status:
                self._mark(doc_id, status, manifest.run_id, previous)
                ledger[doc_id] = status
                marked += 1
        staged = set(self._ls_names(_META, "staging"))
        for doc_id in manifest.documents:
            if f"{doc_id}.json" in staged:
                self._rm(self._path(_META, "staging", f"{doc_id}.json"))
                cleared += 1
        return marked, cleared

    def recover(self) -> RecoveryReport:
        """Finish or undo whatever an interrupted run left; two listings when nothing was."""
        report = RecoveryReport()
        pending = self.manifests(pending=True)
        staged_names = self._ls_names(_META, "staging")
        if not pending and not staged_names:
            return report
        committed = self.manifests()
        committed_ids = {m.run_id for m in committed}
        staged = {o.document_id: o for o in self.staged()}
        for manifest in pending:
            if manifest.run_id in committed_ids:
                # Died after the commit point, before the pending record was removed.
                self._rm(self._manifest_path(manifest.run_id, "pending"))
                continue
            outcomes = [staged.get(doc_id) for doc_id in manifest.documents]
            present = [o for o in outcomes if o is not None]
            if len(present) == len(outcomes):
                # Same checkpoints → same rows: the files land exactly as first planned.
                self._finish(manifest, to_tables(present))
                report.rolled_forward.append(manifest.run_id)
            else:
                for run_file in manifest.files.values():
                    self._rm(self._path(run_file.path))
                self._rm(self._manifest_path(manifest.run_id, "pending"))
                report.rolled_back.append(manifest.run_id)
        # Died between the commit point and the end of settling: those documents are
        # published, so their leftover checkpoints must not be committed a second time.
        leftover = {
            name.removesuffix(".json") for name in self._ls_names(_META, "staging")
        }
        if leftover:
            ledger = self.ledger()
            for manifest in committed:
                if leftover.intersection(manifest.documents):
                    marked, cleared = self._settle(manifest, ledger)
                    report.ledger_repaired += marked
                    report.staging_cleared += cleared
        return report

    # --- reading ---------------------------------------------------------------------

    def read(self, dataset: str, *, runs: Iterable[str] | None = None) -> pa.Table:
        """Every committed row of ``dataset`` with ``ingest_date`` and ``run_id`` columns.

        Only runs whose manifest says ``committed`` are read, so the result is consistent
        across datasets even while another run is being published.
        """
        wanted = set(runs) if runs is not None else None
        base = SCHEMAS[dataset]
        out_schema = base.append(pa.field("ingest_date", pa.date32())).append(
            pa.field("run_id", pa.string())
        )
        parts = []
        for manifest in self.manifests():
            if wanted is not None and manifest.run_id not in wanted:
                continue
            run_file = manifest.files.get(dataset)
            if run_file is None or run_file.rows == 0:
                continue
            with self.fs.open(self._path(run_file.path), "rb") as handle:
                table = pq.read_table(handle, schema=base)
            n = table.num_rows
            table = table.append_column(
                "ingest_date", pa.array([manifest.ingest_date] * n, pa.date32())
            ).append_column("run_id", pa.array([manifest.run_id] * n, pa.string()))
            parts.append(table)
        if not parts:
            return out_schema.empty_table()
        return pa.concat_tables(parts).replace_schema_metadata(base.metadata)

    def row_counts(self) -> dict[str, int]:
        """Committed rows per dataset, from the manifests alone."""
        counts = dict.fromkeys(DATASETS, 0)
        for manifest in self.manifests():
            for name, run_file in manifest.files.items():
                if name in counts:
                    counts[name] += run_file.rows
        return counts
