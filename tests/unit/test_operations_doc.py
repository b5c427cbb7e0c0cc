"""docs/operations.md lists every service setting as its DOCAI_* variable."""

from __future__ import annotations

from pathlib import Path

from prefect_docai.server.settings import Settings

DOC = Path(__file__).resolve().parents[2] / "docs" / "operations.md"


def test_every_setting_is_documented() -> None:
    text = DOC.read_text(encoding="utf-8")
    missing = sorted(
        f"DOCAI_{name.upper()}"
        for name in Settings.model_fields
        if f"`DOCAI_{name.upper()}`" not in text
    )
    assert not missing, f"settings missing from docs/operations.md: {missing}"
