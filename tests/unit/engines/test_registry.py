"""Engines register by tool name; a missing module means "not available"."""

from __future__ import annotations

import pytest

from prefect_docai.engines import pluginspec
from prefect_docai.engines.pluginspec import Engine, EngineOptions, EngineOutput
from prefect_docai.models import PaperFlowDocument, PaperFlowResult, Tool


class CountingEngine:
    tool = Tool.PAPERFLOW

    def run(self, data: bytes, options: EngineOptions) -> EngineOutput:
        document = PaperFlowDocument(index=1, start_page=1, end_page=1, page_count=1, confidence=1.0)
        return EngineOutput(result=PaperFlowResult(documents=[document]), page_count=len(data))


def test_env_override_and_register(monkeypatch: pytest.MonkeyPatch) -> None:
    path = f"{__name__}:CountingEngine"
    monkeypatch.setenv("DOCAI_ENGINES", "DocSplit=no.such.module:Engine")
    assert pluginspec.engine_path(Tool.PAPERFLOW) == "no.such.module:Engine"
    assert not pluginspec.is_available(Tool.PAPERFLOW)
    pluginspec.register(Tool.PAPERFLOW, path)
    try:
        assert pluginspec.is_available(Tool.PAPERFLOW)
        engine = pluginspec.get_engine(Tool.PAPERFLOW)
        assert isinstance(engine, Engine)
        assert engine.run(b"abc", EngineOptions()).page_count == 3
    finally:
        pluginspec._overrides.clear()
        pluginspec.get_engine.cache_clear()


def test_bad_override_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DOCAI_ENGINES", "Nope=x:y")
    with pytest.raises(ValueError, match="DOCAI_ENGINES"):
        pluginspec.engine_path(Tool.ICR)
