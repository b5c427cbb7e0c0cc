"""Every extension point of the engines, in one place (like OCRmyPDF's ``pluginspec.py``).

* the contract: what an engine takes (:class:`EngineOptions`) and gives
  (:class:`EngineOutput`, :class:`OutputFile`), the :class:`Engine` protocol and the
  :class:`DocumentError` it raises for bad input;
* the registry: engines register by tool name as import paths resolved on first use
  (:func:`register`, ``DOCAI_ENGINES``, :func:`get_engine`).

Import paths (not objects) keep the API process light and let each worker process import
only the engines it runs. A tool whose module is not importable is "not available": the
server answers 501 ``engine_not_available`` before charging anything.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Protocol, runtime_checkable

from pydantic import BaseModel

from prefect_docai.files.errors import DocumentError
from prefect_docai.models.tools import Tool

__all__ = [
    "DocumentError",
    "Engine",
    "EngineOptions",
    "EngineOutput",
    "EnginePart",
    "OutputFile",
    "PageBatchEngine",
    "engine_path",
    "get_engine",
    "is_available",
    "normalize_threshold",
    "parse_engine_overrides",
    "register",
]


@dataclass(frozen=True)
class EngineOptions:
    """Upload parameters, validated and normalized by the server.

    ``languages`` are Tesseract codes (``deu``, ``eng``) already mapped from the ISO 639-1
    hint; ``("auto",)`` asks the engine to detect the script. ``output_formats`` are upper
    case with ``TEXT`` folded into ``TXT``.
    """

    languages: tuple[str, ...] = ("eng",)
    language_hinted: bool = True
    """``False`` when the upload named no language (``languageHint`` absent or empty):
    ``languages`` is then the spec's default English, and an engine may find a scanned
    page's main language itself (ToolTableExtraction reads such a page again in German,
    French, Dutch, Italian or Spanish, ``engines.tables.inputs``). ``True``: the hint
    forces ``languages``."""
    output_formats: tuple[str, ...] = ()
    threshold: float | None = None
    file_name: str = "document"
    pages: tuple[int, int] | None = None
    """Only pages ``first..last`` (1-based, inclusive): one batch of a long job, for a
    :class:`PageBatchEngine` (other engines are never given it)."""


def normalize_threshold(threshold: float | None) -> float | None:
    """The spec leaves the ``threshold`` format open: 0..1 is a probability, 1..100 a
    percentage (as some clients send it); the result is clamped to 0..1."""
    if threshold is None:
        return None
    if threshold > 1.0:
        threshold /= 100.0
    return min(max(threshold, 0.0), 1.0)


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


@dataclass
class EnginePart:
    """One batch's output as the server stored it: the result as JSON (by alias), files,
    warnings."""

    result: dict[str, Any]
    page_count: int
    files: list[OutputFile] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


@runtime_checkable
class PageBatchEngine(Engine, Protocol):
    """An engine whose result is page by page, so a long document can run in batches of
    pages (``EngineOptions.pages``), a worker free between them for other owners' work.
    :meth:`merge` must give exactly the output of one run over the whole document."""

    def merge(self, data: bytes, parts: list[EnginePart], options: EngineOptions) -> EngineOutput:
        """The whole document's output from its batches' outputs (in page order)."""
        ...


# --- registry ----------------------------------------------------------------------

_DEFAULT_ENGINES: dict[Tool, str] = {
    Tool.ICR: "prefect_docai.engines.icr.engine:IcrEngine",
    Tool.CLASSIFY: "prefect_docai.engines.classify.engine:ClassifyEngine",
    Tool.INVOICE: "prefect_docai.engines.invoice.engine:InvoiceEngine",
    Tool.RECEIPT: "prefect_docai.engines.receipt.engine:ReceiptEngine",
    Tool.TABLE_EXTRACTION: "prefect_docai.engines.tables.engine:TableEngine",
    Tool.PAPERFLOW: "prefect_docai.engines.paperflow.engine:PaperFlowEngine",
}

_overrides: dict[Tool, str] = {}


def parse_engine_overrides(spec: str) -> dict[Tool, str]:
    """``"ICR=pkg.mod:Cls,Classify=..."`` as tool → import path; raises ``ValueError`` on a
    malformed entry."""
    result: dict[Tool, str] = {}
    for item in filter(None, (part.strip() for part in spec.split(","))):
        name, _, path = item.partition("=")
        tool = Tool.from_suffix(name.strip())
        if tool is None or ":" not in path:
            raise ValueError(f"DOCAI_ENGINES: cannot read {item!r} (want Tool=module:Class)")
        result[tool] = path.strip()
    return result


def _env_overrides() -> dict[Tool, str]:
    """``DOCAI_ENGINES`` replaces engines in every process (worker processes inherit the
    environment; tests use it for a trivial engine)."""
    return parse_engine_overrides(os.environ.get("DOCAI_ENGINES", "").strip())


def register(tool: Tool, import_path: str) -> None:
    """Register ``module:Class`` for ``tool`` in this process (and clear the cache)."""
    _overrides[tool] = import_path
    get_engine.cache_clear()


def engine_path(tool: Tool) -> str:
    return _overrides.get(tool) or _env_overrides().get(tool) or _DEFAULT_ENGINES[tool]


def is_available(tool: Tool) -> bool:
    module, _, _ = engine_path(tool).partition(":")
    try:
        return importlib.util.find_spec(module) is not None
    except ModuleNotFoundError:
        return False


@cache
def get_engine(tool: Tool) -> Engine:
    """The engine instance for ``tool`` (one per process: engines may hold loaded models)."""
    module_name, _, class_name = engine_path(tool).partition(":")
    module = importlib.import_module(module_name)
    engine = getattr(module, class_name)()
    if not isinstance(engine, Engine):
        raise TypeError(f"{module_name}:{class_name} is not an Engine")
    return engine
