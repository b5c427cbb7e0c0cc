"""What the client hands back: upload receipts, result files, typed tool results."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeVar

from pydantic import BaseModel

from prefect_docai.models import TOOL_RESULT_MODELS, JobResult, Tool

M = TypeVar("M", bound=BaseModel)


@dataclass(frozen=True)
class UploadReceipt:
    """A job the service accepted, and what was sent to create it."""

    job_id: str
    tool: Tool
    file_name: str
    sha256: str
    size: int
    idempotency_key: str


@dataclass(frozen=True)
class ResultFile:
    """A binary result (ZIP archive, CSV, …) as the server sent it."""

    job_id: str
    content: bytes
    media_type: str
    file_name: str | None = None


def tool_of(job: JobResult) -> Tool:
    """The tool of a result envelope; accepts ``ICR`` as well as ``ToolICR``-style names."""
    name = job.tool
    for candidate in (name, name.removeprefix("Tool")):
        tool = Tool.from_suffix(candidate)
        if tool is not None:
            return tool
    for tool in Tool:
        if name.endswith(tool.value):
            return tool
    if name.endswith("DocSplit"):
        return Tool.PAPERFLOW
    raise ValueError(f"unknown tool in result envelope: {name!r}")


def tool_result(job: JobResult) -> BaseModel:
    """The envelope's ``result`` parsed into the model of its tool (``IcrResult``, …)."""
    if job.result is None:
        raise ValueError(f"job {job.job_id} has no result (status {job.status})")
    model = TOOL_RESULT_MODELS[tool_of(job).value]
    return model.model_validate(job.result)


def result_as(job: JobResult, model: type[M]) -> M:
    """The envelope's ``result`` as ``model``, checked against the envelope's tool."""
    expected = TOOL_RESULT_MODELS[tool_of(job).value]
    if not issubclass(expected, model):
        raise TypeError(f"job {job.job_id} is a {job.tool} result, not {model.__name__}")
    if job.result is None:
        raise ValueError(f"job {job.job_id} has no result (status {job.status})")
    return model.model_validate(job.result)
