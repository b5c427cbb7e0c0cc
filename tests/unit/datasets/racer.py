"""One writer of the concurrent-commit race test, run as its own process.

``python -m tests.unit.datasets.racer DEST RUN_ID INDEX DOCUMENTS WRITERS GATE [OPTIONS_JSON]``:
stages its share of the documents (as an overlapping run that processed them would), says
so in ``GATE.ready-<INDEX>``, waits for ``GATE`` so every writer commits at the same moment,
then commits and prints the manifest's document count (or 0).
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from tests.unit.datasets.conftest import failed_document, invoice_document

from prefect_docai.datasets import DatasetStore


def share(index: int, documents: int, writers: int) -> list[int]:
    """Every document is staged by at least two writers (all of them when there are two)."""
    if writers <= 2:
        return list(range(documents))
    return [j for j in range(documents) if (j + index) % writers != 0]


def outcome(j: int):  # type: ignore[no-untyped-def]
    return failed_document(f"doc-{j}.pdf") if j % 5 == 4 else invoice_document(f"doc-{j}.pdf")


def main() -> None:
    dest, run_id, index, documents, writers, gate = sys.argv[1:7]
    options = json.loads(sys.argv[7]) if len(sys.argv) > 7 else None
    store = DatasetStore(dest, options)
    store.recover()
    store.ledger()  # what this run saw when it started: nothing committed yet
    for j in share(int(index), int(documents), int(writers)):
        store.stage(outcome(j))
    Path(f"{gate}.ready-{index}").touch()
    while not Path(gate).exists():
        time.sleep(0.01)
    manifest = store.commit(run_id)
    print(len(manifest.documents) if manifest is not None else 0)


if __name__ == "__main__":
    main()
