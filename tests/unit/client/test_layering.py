"""The client layer stays free of Prefect and of the server (docs/architecture.md; import-linter checks it statically)."""

from __future__ import annotations

import subprocess
import sys


def test_client_imports_neither_prefect_nor_the_server() -> None:
    code = (
        "import sys, prefect_docai, prefect_docai.client; "
        "bad = sorted(m for m in sys.modules if m == 'prefect' or m.startswith(('prefect.', "
        "'prefect_docai.server', 'prefect_docai.blocks', 'prefect_docai.tasks', 'fastapi'))); "
        "print(','.join(bad))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert out.stdout.strip() == ""
