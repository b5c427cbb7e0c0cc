"""What every engine takes and gives."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from pydantic import BaseModel

from prefect_docai.models.tools import Tool


class DocumentError(ValueError):
    """The input cannot be processed (corrupt, encrypted, too large, unsupported).

    ``code`` is a stable machine-readable code, reused as the problem+json ``code`` at
    upload and as the failed job's ``error.code``.
    """

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail


@dataclass(frozen=True)
class EngineOptions:
    """Upload parameters, validated and normalized by the server.

    ``languages`` are Tesseract codes (``deu``, ``eng``) already mapped from the ISO 639-1
    hint; ``("auto",)`` asks the engine to detect the script. ``output_formats`` are upper
    case with ``TEXT`` folded into ``TXT``.
    """

    languages: tuple[str, ...] = ("eng",)
    output_formats: tuple[str, ...] = ()
    threshold: float | None = None
    file_name: str = "document"


@dataclass(frozen=True)
class OutputFile:
    """A file an engine produced besides the JSON result.

    ``output_type`` is the ``outputType`` it answers on the `file` endpoint (``PDF``,
    ``TXT``, ``CSV``) or ``None`` for files that only go into the ZIP (e.g. PaperFlow's
    per-document PDFs).
    """

    name: str
    media_type: str
    data: bytes
    output_type: str | None = None


@dataclass
class EngineOutput:
    result: BaseModel
    page_count: int
    files: list[OutputFile] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


@runtime_checkable
class Engine(Protocol):
    tool: Tool

    def run(self, data: bytes, options: EngineOptions) -> EngineOutput:
        """Process one uploaded document. Raises :class:`DocumentError` for bad input."""
        ...
