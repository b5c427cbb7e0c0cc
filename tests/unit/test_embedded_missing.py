"""A plugin-only install (no ``server`` extra) gets a clear message instead of a bare
ModuleNotFoundError when a flow runs without credentials."""

from __future__ import annotations

import sys

import anyio
import pytest

from prefect_docai.flows.service import connect


def test_connect_without_server_extra_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # None in sys.modules makes the import fail as if the package were not installed.
    monkeypatch.setitem(sys.modules, "prefect_docai.server.embedded", None)

    async def enter() -> None:
        async with connect(None):
            pass

    with pytest.raises(RuntimeError, match=r"pip install 'prefect-docai\[server\]'"):
        anyio.run(enter)
