"""docs/results.md names every field of the result models (prefect_docai.models), per tool."""

from __future__ import annotations

import re
import typing
from pathlib import Path

import pytest
from pydantic import BaseModel

from prefect_docai.models import TOOL_RESULT_MODELS, Field, JobResult, Tool

DOC = Path(__file__).resolve().parents[2] / "docs" / "results.md"


def _sections() -> dict[str, str]:
    text = DOC.read_text(encoding="utf-8")
    parts = re.split(r"^## (.+)$", text, flags=re.M)
    return {parts[i].strip(): parts[i + 1] for i in range(1, len(parts) - 1, 2)}


def _models_in(annotation: object) -> list[type[BaseModel]]:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    return [m for arg in typing.get_args(annotation) for m in _models_in(arg)]


def _json_names(model: type[BaseModel]) -> set[str]:
    """Every JSON name under ``model``; a Field value is documented once, in its section."""
    names: set[str] = set()
    for name, info in model.model_fields.items():
        names.add(info.alias or name)
        for inner in _models_in(info.annotation):
            if inner is not Field:
                names |= _json_names(inner)
    return names


def _section_for(tool: str) -> str:
    sections = _sections()
    matches = [body for title, body in sections.items() if title.split()[0] == f"Tool{tool}"]
    assert len(matches) == 1, f"docs/results.md has no single section for Tool{tool}"
    return matches[0]


@pytest.mark.parametrize("tool", [t.value for t in Tool])
def test_every_result_field_of_a_tool_is_documented(tool: str) -> None:
    body = _section_for(tool)
    missing = sorted(n for n in _json_names(TOOL_RESULT_MODELS[tool]) if f'"{n}"' not in body)
    assert not missing, f"Tool{tool} fields missing from docs/results.md: {missing}"


@pytest.mark.parametrize(("section", "model"), [("Envelope", JobResult), ("Field", Field)])
def test_envelope_and_field_are_documented(section: str, model: type[BaseModel]) -> None:
    body = _sections()[section]
    missing = sorted(n for n in _json_names(model) if f'"{n}"' not in body)
    assert not missing, f"{section} fields missing from docs/results.md: {missing}"


def test_the_document_types_are_listed() -> None:
    from prefect_docai.models import DOCUMENT_TYPES

    body = _sections()["ToolClassify"]
    assert all(f"`{t}`" in body for t in DOCUMENT_TYPES)
