"""One source document through the service: split → classify → route → extract.

Plain asyncio over :class:`~prefect_docai.client.DocAIClient`; the Prefect flow wraps it.
Many documents run at once and every request goes through the client's shared rate
limiter, so uploads, polls and processing of different documents overlap and a batch takes
about (requests ÷ rate) rather than the sum of the stage times.

Failure policy:
- the document itself is unusable (corrupt, encrypted, unsupported, too large) → the
  outcome is ``failed`` with an error row; the batch goes on;
- one stage of a segment fails for good (a job failed, a tool without an engine, a bad
  parameter) → an error row, the segment goes on with what it has (``partial``);
- the service is unreachable, rate limits never clear, a result never comes, credits run
  out → :class:`Deferred`: nothing is recorded, the next run tries the document again.
"""

from __future__ import annotations

import asyncio
import hashlib
import itertools
import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field

from prefect_docai.client import (
    DocAIClient,
    DocAIError,
    InsufficientCreditsError,
    JobFailedError,
    ResultTimeoutError,
    is_transient,
)
from prefect_docai.datasets import DatasetStore, DocumentOutcome, SegmentOutcome, StageError
from prefect_docai.files.cut import cut_pages
from prefect_docai.files.errors import DocumentError
from prefect_docai.files.sniff import inspect_document
from prefect_docai.flows.options import BatchOptions
from prefect_docai.flows.sources import SourceFile
from prefect_docai.models import ClassifyResult, JobResult, PaperFlowResult, Tool

logger = logging.getLogger(__name__)


class Deferred(Exception):
    """The document could not be finished now for reasons outside it; try again later."""

    def __init__(self, message: str, *, stop_batch: bool = False) -> None:
        super().__init__(message)
        self.stop_batch = stop_batch


class StageFailed(Exception):
    def __init__(self, error: StageError) -> None:
        super().__init__(f"{error.stage}: {error.code}: {error.detail}")
        self.error = error


@dataclass
class Budget:
    """Credits promised to documents in flight plus credits spent; never above ``limit``."""

    limit: int | None
    used: int = 0
    reserved: int = 0
    _lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    async def reserve(self, amount: int) -> bool:
        async with self._lock:
            if self.limit is not None and self.used + self.reserved + amount > self.limit:
                return False
            self.reserved += amount
            return True

    async def settle(self, reserved: int, spent: int) -> None:
        async with self._lock:
            self.reserved -= reserved
            self.used += spent


def estimate_credits(page_count: int, options: BatchOptions) -> tuple[int, int]:
    """(lowest, highest) credits one document can cost under ``options``.

    Highest: split every page, every page its own segment (classify each), the most tools
    on every page. Lowest: no split needed, one segment, one tool.
    """
    split = page_count if options.split and page_count > 1 else 0
    classify_max = page_count if split else 1
    highest = split + classify_max + page_count * options.max_tools_per_segment
    lowest = split + 1 + page_count
    return lowest, highest


def _idempotency_key(
    document_id: str, tool: str, start: int, end: int, params: dict[str, str]
) -> str:
    """The same logical request in a later run maps to the same job on the service."""
    blob = json.dumps([document_id, tool, start, end, sorted(params.items())])
    return hashlib.sha256(blob.encode()).hexdigest()


class DocumentPipeline:
    """``store``: where each finished job's result is checkpointed until its document is
    staged, so a document deferred midway reuses what it paid for on the next run, even
    after the service has deleted the downloaded result (``download_grace``)."""

    def __init__(
        self, client: DocAIClient, options: BatchOptions, store: DatasetStore | None = None
    ) -> None:
        self.client = client
        self.options = options
        self.store = store
        self.checkpoints: dict[str, set[str]] = {}
        """Per document, the keys of its job checkpoints this pipeline wrote or read: what
        ``DatasetStore.clear_jobs`` deletes by name once the document is staged."""

    async def _run(
        self,
        tool: Tool,
        data: bytes,
        file_name: str,
        *,
        document_id: str,
        pages: tuple[int, int],
        stage: str,
        segment_index: int | None,
        threshold: float | None = None,
        language_hint: str | None = None,
        output_formats: Sequence[str] = ("JSON",),
    ) -> JobResult:
        params = {"formats": ",".join(output_formats)}
        if threshold is not None:
            params["threshold"] = repr(threshold)
        if language_hint:
            params["languageHint"] = language_hint
        key = _idempotency_key(document_id, tool.value, *pages, params)
        if self.store is not None:
            staged = await asyncio.to_thread(self.store.staged_job, document_id, key)
            if staged is not None:
                self.checkpoints.setdefault(document_id, set()).add(key)
                return staged
        try:
            job = await self.client.run_tool(
                tool,
                data,
                file_name=file_name,
                output_formats=list(output_formats),
                threshold=threshold,
                language_hint=language_hint,
                idempotency_key=key,
                timeout=self.options.result_timeout,
            )
        except InsufficientCreditsError as exc:
            raise Deferred(f"out of credits at {tool.value}: {exc}", stop_batch=True) from exc
        except ResultTimeoutError as exc:
            raise Deferred(f"{tool.value} result not ready in time: {exc}") from exc
        except JobFailedError as exc:
            raise StageFailed(
                StageError(
                    stage=stage,
                    tool=tool.value,
                    code=exc.code or "job_failed",
                    detail=exc.detail or str(exc),
                    job_id=exc.job_id,
                    segment_index=segment_index,
                )
            ) from exc
        except DocAIError as exc:
            if is_transient(exc):
                raise Deferred(f"{tool.value}: {exc}") from exc
            raise StageFailed(
                StageError(
                    stage=stage,
                    tool=tool.value,
                    code=exc.code or f"http_{exc.status or 'error'}",
                    detail=exc.detail or str(exc),
                    segment_index=segment_index,
                )
            ) from exc
        if self.store is not None:
            await asyncio.to_thread(self.store.stage_job, document_id, key, job)
            self.checkpoints.setdefault(document_id, set()).add(key)
        return job

    async def process(self, file: SourceFile, data: bytes, document_id: str) -> DocumentOutcome:
        outcome = DocumentOutcome(
            document_id=document_id,
            source_uri=file.url,
            file_name=file.name,
            size_bytes=len(data),
        )
        try:
            info = await asyncio.to_thread(inspect_document, data)
        except DocumentError as exc:
            outcome.status = "failed"
            outcome.errors.append(StageError(stage="inspect", code=exc.code, detail=exc.detail))
            return outcome
        outcome.media_type = info.media_type
        outcome.page_count = info.page_count

        ranges = await self._split(outcome, data, info.page_count)
        outcome.segments = list(
            await asyncio.gather(
                *(
                    self._segment(outcome, data, index, start, end, confidence)
                    for index, (start, end, confidence) in enumerate(ranges)
                )
            )
        )
        outcome.segments.sort(key=lambda s: s.index)
        jobs = [outcome.split] + [
            job for seg in outcome.segments for job in (seg.classification, *seg.results)
        ]
        succeeded = any(job is not None and job.status == "succeeded" for job in jobs)
        if outcome.errors:
            outcome.status = "partial" if succeeded else "failed"
        return outcome

    async def _split(
        self, outcome: DocumentOutcome, data: bytes, page_count: int
    ) -> list[tuple[int, int, float | None]]:
        whole: list[tuple[int, int, float | None]] = [(1, page_count, None)]
        if not self.options.split or page_count < 2:
            return whole
        try:
            job = await self._run(
                Tool.PAPERFLOW,
                data,
                outcome.file_name,
                document_id=outcome.document_id,
                pages=(1, page_count),
                stage="split",
                segment_index=None,
            )
        except StageFailed as exc:
            # Without a split the file is still worth reading as one document.
            outcome.errors.append(exc.error)
            return whole
        outcome.split = job
        result = PaperFlowResult.model_validate(job.result or {})
        ranges: list[tuple[int, int, float | None]] = [
            (d.start_page, d.end_page, d.confidence)
            for d in sorted(result.documents, key=lambda d: d.start_page)
            if 1 <= d.start_page <= d.end_page <= page_count
        ]
        # Pages outside every segment are separator sheets; overlaps mean a broken answer.
        overlapping = any(b[0] <= a[1] for a, b in itertools.pairwise(ranges))
        if not ranges or overlapping:
            outcome.errors.append(
                StageError(
                    stage="split",
                    tool=Tool.PAPERFLOW.value,
                    code="inconsistent_split",
                    detail=f"segments {[(a, b) for a, b, _ in ranges]} of {page_count} pages; "
                    "kept as one document",
                    job_id=job.job_id,
                )
            )
            return whole
        return ranges

    async def _segment(
        self,
        outcome: DocumentOutcome,
        data: bytes,
        index: int,
        start: int,
        end: int,
        split_confidence: float | None,
    ) -> SegmentOutcome:
        media_type = outcome.media_type or "application/pdf"
        page_count = outcome.page_count or 1
        segment = SegmentOutcome(
            index=index, start_page=start, end_page=end, split_confidence=split_confidence
        )
        name = outcome.file_name
        if end - start + 1 < page_count:
            name = f"{_stem(outcome.file_name)}-p{start}-{end}{_suffix(media_type)}"
        piece = await asyncio.to_thread(cut_pages, data, media_type, start, end, page_count)

        if media_type == "application/xml":
            # A bare e-invoice: nothing to look at, the XML says what it is.
            segment.document_type = "invoice"
        else:
            first = piece
            if end > start:
                first = await asyncio.to_thread(
                    cut_pages, data, media_type, start, start, page_count
                )
            await self._classify(outcome, segment, first, name)

        tools = self.options.tools_for(segment.document_type)
        jobs = await asyncio.gather(
            *(self._extract(outcome, segment, Tool(tool), piece, name) for tool in tools)
        )
        segment.results = [job for job in jobs if job is not None]
        return segment

    async def _classify(
        self, outcome: DocumentOutcome, segment: SegmentOutcome, first_page: bytes, name: str
    ) -> None:
        threshold = self.options.classify_threshold
        try:
            job = await self._run(
                Tool.CLASSIFY,
                first_page,
                name,
                document_id=outcome.document_id,
                pages=(segment.start_page, segment.start_page),
                stage="classify",
                segment_index=segment.index,
                threshold=threshold,
            )
        except StageFailed as exc:
            outcome.errors.append(exc.error)
            return
        segment.classification = job
        result = ClassifyResult.model_validate(job.result or {})
        segment.type_confidence = result.confidence
        segment.document_type = (
            result.document_type if result.confidence >= threshold else "unknown"
        )

    async def _extract(
        self,
        outcome: DocumentOutcome,
        segment: SegmentOutcome,
        tool: Tool,
        piece: bytes,
        name: str,
    ) -> JobResult | None:
        language = self.options.language_hint if tool in (Tool.ICR, Tool.TABLE_EXTRACTION) else None
        try:
            return await self._run(
                tool,
                piece,
                name,
                document_id=outcome.document_id,
                pages=(segment.start_page, segment.end_page),
                stage="extract",
                segment_index=segment.index,
                language_hint=language,
            )
        except StageFailed as exc:
            outcome.errors.append(exc.error)
            return None


def _stem(name: str) -> str:
    return name.rsplit(".", 1)[0] if "." in name else name


def _suffix(media_type: str) -> str:
    return {"application/pdf": ".pdf", "image/tiff": ".tif"}.get(media_type, "")
