"""Engines register by tool name, as import paths resolved on first use.

Import paths (not objects) keep the API process light and let each worker process import
only the engines it runs. A tool whose module is not importable is "not available": the
server answers 501 ``engine_not_available`` before charging anything.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
from functools import cache

from prefect_docai.engines.base import Engine
from prefect_docai.models.tools import Tool

_DEFAULT_ENGINES: dict[Tool, str] = {
    Tool.ICR: "prefect_docai.engines.icr:IcrEngine",
    Tool.CLASSIFY: "prefect_docai.engines.classify:ClassifyEngine",
    Tool.INVOICE: "prefect_docai.engines.invoice:InvoiceEngine",
    Tool.RECEIPT: "prefect_docai.engines.receipt:ReceiptEngine",
    Tool.TABLE_EXTRACTION: "prefect_docai.engines.tables:TableEngine",
    Tool.PAPERFLOW: "prefect_docai.engines.paperflow:PaperFlowEngine",
}

_overrides: dict[Tool, str] = {}


def _env_overrides() -> dict[Tool, str]:
    """``DOCAI_ENGINES="ICR=pkg.mod:Cls,Classify=..."`` replaces engines in every process
    (worker processes inherit the environment; tests use it for a trivial engine)."""
    spec = os.environ.get("DOCAI_ENGINES", "").strip()
    result: dict[Tool, str] = {}
    for item in filter(None, (part.strip() for part in spec.split(","))):
        name, _, path = item.partition("=")
        tool = Tool.from_suffix(name.strip())
        if tool is None or ":" not in path:
            raise ValueError(f"DOCAI_ENGINES: cannot read {item!r} (want Tool=module:Class)")
        result[tool] = path.strip()
    return result


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
