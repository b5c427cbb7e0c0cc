"""The ``docai`` console script's Ctrl+C outside any command (prefect_docai/console.py)."""

from __future__ import annotations

import sys

import pytest

import prefect_docai.cli
from prefect_docai import console


def test_ctrl_c_while_typer_builds_the_commands_exits_130_in_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Typer builds the Click command tree (reading every command's signature) before
    # Click's main, which alone turns a KeyboardInterrupt into exit 130.
    def building() -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(prefect_docai.cli, "app", building)
    with pytest.raises(SystemExit) as exited:
        console.main()
    assert exited.value.code == 130
    assert capsys.readouterr().err == "docai: interrupted\n"


def test_the_console_script_runs_the_cli(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "argv", ["docai", "--help"])
    with pytest.raises(SystemExit) as exited:
        console.main()
    assert exited.value.code == 0
    assert "serve" in capsys.readouterr().out
