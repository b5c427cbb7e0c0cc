"""Without the ``samples`` extra, ``docai samples`` and ``docai demo`` say what to install."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from prefect_docai.cli import app
from prefect_docai.cli.extras import extra_required

runner = CliRunner()


def _without(monkeypatch: pytest.MonkeyPatch, package: str) -> None:
    # None in sys.modules makes ``import package`` fail as if it were not installed; the
    # samples modules are dropped so that they import (and fail) afresh.
    monkeypatch.setitem(sys.modules, package, None)
    for name in [m for m in sys.modules if m.startswith("prefect_docai.samples")]:
        monkeypatch.delitem(sys.modules, name)


@pytest.mark.parametrize("package", ["faker", "reportlab"])
def test_samples_command_names_the_extra(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, package: str
) -> None:
    _without(monkeypatch, package)
    result = runner.invoke(app, ["samples", str(tmp_path / "out"), "--count", "1"])
    assert result.exit_code == 1
    lines = result.stderr.strip().splitlines()
    assert lines == [
        f"error: generating sample documents needs the 'samples' extra ({package} is not "
        "installed): pip install 'prefect-docai[samples]'"
    ]
    assert not (tmp_path / "out").exists()


def test_demo_names_the_extra_before_starting_anything(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    _without(monkeypatch, "faker")
    result = runner.invoke(
        app, ["demo", "--output", str(tmp_path / "lake"), "--samples", str(tmp_path / "in")]
    )
    assert result.exit_code == 1
    assert "pip install 'prefect-docai[samples]'" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "lake").exists()


def test_a_missing_module_of_the_package_itself_is_not_blamed_on_an_extra() -> None:
    with pytest.raises(ModuleNotFoundError), extra_required("samples", "anything"):
        import prefect_docai.no_such_module  # type: ignore[import-not-found]  # noqa: F401
