"""PDFium is not thread-safe: one module owns pypdfium2 and its lock, and everything else
(upload route, flows, engines, samples) goes through it."""

from __future__ import annotations

import ast
import threading
from pathlib import Path

from tests.docgen import make_text_pdf

import prefect_docai
from prefect_docai.files import pdfium, sniff

PACKAGE = Path(prefect_docai.__file__).parent


def _imported_modules(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
    return found


def test_only_files_pdfium_imports_pypdfium2() -> None:
    importers = sorted(
        str(path.relative_to(PACKAGE))
        for path in PACKAGE.rglob("*.py")
        if any(m.split(".")[0] == "pypdfium2" for m in _imported_modules(path))
    )
    assert importers == ["files/pdfium.py"]


def test_files_and_flows_do_not_import_engines() -> None:
    """The upload route, the flows and the engines share the lock through a low layer
    that needs neither the engines nor the server extra (flows start the embedded server
    only when asked to, and never import the engines)."""
    forbidden = {
        "files": ("prefect_docai.engines", "prefect_docai.server"),
        "flows": ("prefect_docai.engines",),
    }
    for folder, prefixes in forbidden.items():
        for path in (PACKAGE / folder).rglob("*.py"):
            bad = {m for m in _imported_modules(path) if m.startswith(prefixes)}
            assert not bad, f"{path.relative_to(PACKAGE)} imports {sorted(bad)}"


def test_sniffing_waits_for_the_pdfium_lock() -> None:
    """A page count asked while another thread holds the lock waits for it."""
    pdf = make_text_pdf([["one"], ["two"]])
    done = threading.Event()
    counted: list[int] = []

    def count() -> None:
        counted.append(sniff.inspect_document(pdf).page_count)
        done.set()

    with pdfium.LOCK:
        worker = threading.Thread(target=count)
        worker.start()
        assert not done.wait(0.3), "PDFium was called without the lock"
    worker.join(10)
    assert counted == [2]
