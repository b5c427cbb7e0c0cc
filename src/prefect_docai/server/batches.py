"""Long documents in page batches: pages, not documents, are the unit of work.

A job of a tool in :data:`BATCHED_TOOLS` with more than ``DOCAI_BATCH_PAGES`` pages is
claimed one batch of pages at a time (``jobstore.claim_next``). A batch's outcome is stored
here, the job goes back to the queue, and the worker is free: other owners' work runs
between two batches of a 1000-page job, in the order their turns give. When the last batch
has run, the engine merges the stored parts into the one result a single run would give
(``PageBatchEngine.merge``). Parts live below the job's result prefix, so expiry and
account deletion remove them with the result; a batch that ran again after a crash
overwrites its own part.
"""

from __future__ import annotations

import json

from prefect_docai.engines.pluginspec import EnginePart, OutputFile
from prefect_docai.models.tools import Tool
from prefect_docai.server import storage
from prefect_docai.server.storage import BlobStore
from prefect_docai.server.workers import WorkOutcome

BATCHED_TOOLS: frozenset[str] = frozenset({Tool.ICR.value})
"""Tools whose result is page by page (their engines implement ``PageBatchEngine``)."""


def prefix(job_id: str) -> str:
    return f"{storage.result_prefix(job_id)}batches/"


def _manifest_key(job_id: str, first: int) -> str:
    return f"{prefix(job_id)}{first:05d}.json"


def store(blobs: BlobStore, job_id: str, first: int, last: int, outcome: WorkOutcome) -> None:
    """Keep one batch's outcome (pages ``first..last``) until the merge."""
    files = []
    for index, file in enumerate(outcome.files):
        key = f"{prefix(job_id)}{first:05d}-{index:02d}"
        blobs.put(key, file.data)
        files.append(
            {"name": file.name, "media_type": file.media_type,
             "output_type": file.output_type, "key": key}
        )
    manifest = {
        "first": first,
        "last": last,
        "page_count": outcome.page_count,
        "result": outcome.result,
        "warnings": outcome.warnings,
        "files": files,
    }
    # The manifest last: a part is there only once its files are.
    blobs.put(_manifest_key(job_id, first), json.dumps(manifest, ensure_ascii=False).encode())


def load(blobs: BlobStore, job_id: str, page_count: int) -> list[EnginePart]:
    """The stored parts covering pages 1..``page_count`` in order; raises
    ``FileNotFoundError`` when one is missing."""
    parts: list[EnginePart] = []
    first = 1
    while first <= page_count:
        manifest = json.loads(blobs.get(_manifest_key(job_id, first)))
        files = [
            OutputFile(f["name"], f["media_type"], blobs.get(f["key"]), f["output_type"])
            for f in manifest["files"]
        ]
        parts.append(
            EnginePart(manifest["result"], int(manifest["page_count"]), files,
                       list(manifest["warnings"]))
        )
        first = int(manifest["last"]) + 1
    return parts


def delete(blobs: BlobStore, job_id: str) -> None:
    blobs.delete_prefix(prefix(job_id))
