"""One job block per tool, the pattern of prefect-dbt's ``DbtCloudJob``.

``job.trigger()`` uploads the document and returns a :class:`DocAIJobRun`;
``run.wait_for_completion()`` polls until the service is done; ``run.fetch_result()``
returns the result envelope (``run.fetch_tool_result()`` the tool's typed result). Every
step has one name for sync and async code (Prefect's ``async_dispatch``): in an async flow,
task or coroutine it returns an awaitable.

    invoice = DocAIInvoiceJob(credentials=DocAICredentials.load("docai"), document="in.pdf")
    run = invoice.trigger()
    run.wait_for_completion()
    envelope = run.fetch_result()
"""

from __future__ import annotations

import uuid
from abc import ABC
from typing import ClassVar

from prefect._internal.compatibility.async_dispatch import async_dispatch
from prefect.blocks.abstract import JobBlock, JobRun
from pydantic import BaseModel, Field

from prefect_docai.blocks.credentials import DocAICredentials
from prefect_docai.blocks.upload import UploadParameters
from prefect_docai.client import UploadReceipt, result_as
from prefect_docai.models import (
    ClassifyResult,
    IcrResult,
    InvoiceResult,
    JobResult,
    PaperFlowResult,
    ReceiptResult,
    TableExtractionResult,
    Tool,
)


class DocAIJobRun(JobRun[JobResult]):
    """A job the service accepted: wait for it, then fetch its result."""

    def __init__(self, job: DocAIJob, receipt: UploadReceipt) -> None:
        self.job = job
        self.receipt = receipt
        self._result: JobResult | None = None

    @property
    def job_id(self) -> str:
        return self.receipt.job_id

    def _done(self, result: JobResult) -> None:
        self._result = result
        self.logger.info("%s job %s %s", self.job.tool.value, self.job_id, result.status)

    async def _acompletion(self) -> None:
        async with self.job.credentials.get_client() as client:
            self._done(
                await client.wait_for_result(
                    self.job_id, timeout=self.job.timeout, poll_interval=self.job.poll_interval
                )
            )

    @async_dispatch(_acompletion)
    def wait_for_completion(self) -> None:  # type: ignore[override]
        """Poll until the job is done (``timeout`` of the block); a failed job raises."""
        with self.job.credentials.get_sync_client() as client:
            self._done(
                client.wait_for_result(
                    self.job_id, timeout=self.job.timeout, poll_interval=self.job.poll_interval
                )
            )

    async def _afetch(self) -> JobResult:
        if self._result is None:
            async with self.job.credentials.get_client() as client:
                self._result = await client.get_json_result(self.job_id)
        return self._result

    @async_dispatch(_afetch)
    def fetch_result(self) -> JobResult:  # type: ignore[override]
        """The result envelope (fetched once; raises while the job is still running)."""
        if self._result is None:
            with self.job.credentials.get_sync_client() as client:
                self._result = client.get_json_result(self.job_id)
        return self._result

    async def _afetch_tool_result(self) -> BaseModel:
        return result_as(await self._afetch(), self.job.result_model)

    @async_dispatch(_afetch_tool_result)
    def fetch_tool_result(self) -> BaseModel:
        """The tool's own result model (``InvoiceResult`` for the invoice job, …)."""
        envelope = self.fetch_result()
        assert isinstance(envelope, JobResult)  # sync context: the sync twin ran
        return result_as(envelope, self.job.result_model)


class DocAIJob(JobBlock[JobResult], ABC):
    """A document for one DocAI tool, as a block: ``trigger()`` → ``wait_for_completion()``
    → ``fetch_result()``. Use the subclass of the tool (``DocAIInvoiceJob`` …); this base is
    abstract (``ABC``), so Prefect registers only the tools' block types."""

    tool: ClassVar[Tool]
    result_model: ClassVar[type[BaseModel]]

    credentials: DocAICredentials = Field(description="Where the service is and who we are.")
    document: str = Field(
        description="The document: a local path or any fsspec URL (s3://bucket/in.pdf)."
    )
    options: UploadParameters = Field(
        default_factory=UploadParameters, description="Optional upload parameters."
    )
    timeout: float = Field(default=600.0, gt=0, description="Seconds to wait for the result.")
    poll_interval: float = Field(default=1.0, gt=0, description="Seconds between polls.")

    def _key(self) -> str:
        # One key per trigger: the client's own retries of the upload reuse it (one job,
        # one charge); triggering again is a new job, as with any JobBlock.
        return f"docai-job-block-{uuid.uuid4().hex}"

    def _run(self, receipt: UploadReceipt) -> DocAIJobRun:
        self.logger.info(
            "%s → %s job %s", receipt.file_name, self.tool.value, receipt.job_id
        )
        return DocAIJobRun(self, receipt)

    async def _atrigger(self) -> DocAIJobRun:
        async with self.credentials.get_client() as client:
            receipt = await client.upload(
                self.tool, self.document, **self.options.client_options(self._key())
            )
        return self._run(receipt)

    @async_dispatch(_atrigger)
    def trigger(self) -> DocAIJobRun:  # type: ignore[override]
        """Upload the document to the tool; the returned run carries the job id."""
        with self.credentials.get_sync_client() as client:
            receipt = client.upload(
                self.tool, self.document, **self.options.client_options(self._key())
            )
        return self._run(receipt)


class DocAIIcrJob(DocAIJob):
    """ICR (OCR to text and searchable PDF) of one document."""

    tool: ClassVar[Tool] = Tool.ICR
    result_model: ClassVar[type[BaseModel]] = IcrResult
    _block_type_name = "DocAI ICR Job"
    _block_type_slug = "docai-icr-job"


class DocAIClassifyJob(DocAIJob):
    """Classification of one document."""

    tool: ClassVar[Tool] = Tool.CLASSIFY
    result_model: ClassVar[type[BaseModel]] = ClassifyResult
    _block_type_name = "DocAI Classify Job"
    _block_type_slug = "docai-classify-job"


class DocAIInvoiceJob(DocAIJob):
    """Invoice extraction of one document."""

    tool: ClassVar[Tool] = Tool.INVOICE
    result_model: ClassVar[type[BaseModel]] = InvoiceResult
    _block_type_name = "DocAI Invoice Job"
    _block_type_slug = "docai-invoice-job"


class DocAIReceiptJob(DocAIJob):
    """Receipt extraction of one document."""

    tool: ClassVar[Tool] = Tool.RECEIPT
    result_model: ClassVar[type[BaseModel]] = ReceiptResult
    _block_type_name = "DocAI Receipt Job"
    _block_type_slug = "docai-receipt-job"


class DocAITableExtractionJob(DocAIJob):
    """Table extraction of one document."""

    tool: ClassVar[Tool] = Tool.TABLE_EXTRACTION
    result_model: ClassVar[type[BaseModel]] = TableExtractionResult
    _block_type_name = "DocAI Table Extraction Job"
    _block_type_slug = "docai-table-extraction-job"


class DocAIPaperFlowJob(DocAIJob):
    """PaperFlow (splitting a stream of pages into documents) of one file."""

    tool: ClassVar[Tool] = Tool.PAPERFLOW
    result_model: ClassVar[type[BaseModel]] = PaperFlowResult
    _block_type_name = "DocAI PaperFlow Job"
    _block_type_slug = "docai-paperflow-job"


JOB_BLOCKS: tuple[type[DocAIJob], ...] = (
    DocAIIcrJob,
    DocAIClassifyJob,
    DocAIInvoiceJob,
    DocAIReceiptJob,
    DocAITableExtractionJob,
    DocAIPaperFlowJob,
)
"""The job block of every tool."""
