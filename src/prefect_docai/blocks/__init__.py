"""Prefect blocks of prefect-docai: credentials, and a job block per tool."""

from prefect_docai.blocks.credentials import DocAICredentials, prefect_rate_limit
from prefect_docai.blocks.jobs import (
    JOB_BLOCKS,
    DocAIClassifyJob,
    DocAIIcrJob,
    DocAIInvoiceJob,
    DocAIJob,
    DocAIJobRun,
    DocAIPaperFlowJob,
    DocAIReceiptJob,
    DocAITableExtractionJob,
)
from prefect_docai.blocks.upload import UploadParameters

__all__ = [
    "JOB_BLOCKS",
    "DocAIClassifyJob",
    "DocAICredentials",
    "DocAIIcrJob",
    "DocAIInvoiceJob",
    "DocAIJob",
    "DocAIJobRun",
    "DocAIPaperFlowJob",
    "DocAIReceiptJob",
    "DocAITableExtractionJob",
    "UploadParameters",
    "prefect_rate_limit",
]
