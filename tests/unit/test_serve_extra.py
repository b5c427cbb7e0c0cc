"""``docai serve`` without the ``server`` extra says what to install in one line (19.5)."""

from __future__ import annotations

import sys

import pytest
from typer.testing import CliRunner

from prefect_docai.cli import app


def test_serve_without_the_server_extra_names_it(monkeypatch: pytest.MonkeyPatch) -> None:
    # None in sys.modules makes ``import jwt`` fail as if PyJWT were not installed; the
    # server modules are dropped so that they import (and fail) afresh.
    monkeypatch.setitem(sys.modules, "jwt", None)
    for name in [m for m in sys.modules if m.startswith("prefect_docai.server")]:
        monkeypatch.delitem(sys.modules, name)
    result = CliRunner().invoke(app, ["serve", "--port", "0"])
    assert result.exit_code == 1
    assert result.stderr.strip().splitlines() == [
        "error: docai serve needs the 'server' extra (jwt is not installed): "
        "pip install 'prefect-docai[server]'"
    ]
