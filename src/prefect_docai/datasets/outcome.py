"""What the pipeline learned about one source document, before it becomes rows.

A :class:`DocumentOutcome` holds the service's result envelopes as they came over the wire
(``JobResult``), so normalizing is a pure function of it and can be repeated: the writer
checkpoints outcomes as JSON and turns them into Parquet only when a run commits.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Literal

from pydantic import BaseModel, Field

from prefect_docai.models import JobResult

DocumentStatus = Literal["processed", "partial", "failed"]
"""``partial``: the document was read but at least one segment stage failed."""


def segment_id(document_id: str, index: int) -> str:
    """The key of a split piece: stable across runs for the same source bytes."""
    return f"{document_id}/{index}"


class StageError(BaseModel):
    """A failure the batch recorded and went on from."""

    stage: str
    code: str
    detail: str = ""
    tool: str | None = None
    job_id: str | None = None
    segment_index: int | None = None
    occurred_at: datetime = Field(default_factory=lambda: datetime.now(UTC))


class SegmentOutcome(BaseModel):
    index: int
    start_page: int
    end_page: int
    split_confidence: float | None = None
    document_type: str = "unknown"
    """The routing decision: the classified type, or ``unknown`` below the threshold."""
    type_confidence: float | None = None
    classification: JobResult | None = None
    results: list[JobResult] = []
    """Extraction results (Invoice, Receipt, TableExtraction, ICR) in the order they ran."""

    @property
    def page_count(self) -> int:
        return self.end_page - self.start_page + 1

    @property
    def credits_charged(self) -> int:
        jobs = [self.classification, *self.results]
        return sum(job.credits_charged for job in jobs if job is not None)


class DocumentOutcome(BaseModel):
    document_id: str
    """sha256 of the source bytes, hex."""
    source_uri: str
    file_name: str
    media_type: str | None = None
    size_bytes: int | None = None
    page_count: int | None = None
    status: DocumentStatus = "processed"
    split: JobResult | None = None
    segments: list[SegmentOutcome] = []
    errors: list[StageError] = []
    processed_at: datetime = Field(default_factory=lambda: datetime.now(UTC))

    @property
    def credits_charged(self) -> int:
        split = self.split.credits_charged if self.split is not None else 0
        return split + sum(s.credits_charged for s in self.segments)
