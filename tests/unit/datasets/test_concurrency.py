"""Concurrent writers on one destination: N processes commit overlapping runs at once.

Each writer is a real process (``racer.py``) that stages an overlapping share of the same
40 documents and commits at the same moment as the others, as two deployments fired by one
event would. Whatever the interleaving, every document must be committed exactly once.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.moto_s3 import moto_s3
from tests.unit.datasets.racer import outcome

from prefect_docai.datasets import DatasetStore

DOCUMENTS = 40
ROOT = Path(__file__).resolve().parents[3]


def race(dest: str, writers: int, gate: Path, options: dict[str, Any] | None = None) -> list[int]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT)])}
    args = [json.dumps(options)] if options else []
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "tests.unit.datasets.racer", dest, f"run-{i}", str(i),
             str(DOCUMENTS), str(writers), str(gate), *args],
            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        for i in range(writers)
    ]
    deadline = time.monotonic() + 120
    while not all(Path(f"{gate}.ready-{i}").exists() for i in range(writers)):
        assert all(p.poll() is None for p in procs), [p.communicate() for p in procs]
        assert time.monotonic() < deadline
        time.sleep(0.05)
    gate.touch()
    committed = []
    for proc in procs:
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
        committed.append(int(out.strip().splitlines()[-1]))
    return committed


def assert_exactly_once(store: DatasetStore, committed: list[int]) -> None:
    ids = store.read("documents").column("document_id").to_pylist()
    duplicated = {k: n for k, n in Counter(ids).items() if n > 1}
    assert not duplicated, f"{len(ids)} rows for {len(set(ids))} documents"
    expected = {outcome(j).document_id for j in range(DOCUMENTS)}
    assert set(ids) == expected, f"lost {len(expected - set(ids))}"
    assert sum(committed) == DOCUMENTS
    # Each invoice document has 2 invoice lines; nothing else may double either.
    invoices = sum(1 for j in range(DOCUMENTS) if j % 5 != 4)
    assert store.read("invoice_lines").num_rows == 2 * invoices
    assert store.read("errors").num_rows == DOCUMENTS - invoices
    assert store.row_counts() == {n: store.read(n).num_rows for n in store.row_counts()}
    assert set(store.ledger()) == expected
    assert store.staged() == []


@pytest.mark.parametrize("writers", [2, 4])
def test_processes_racing_on_a_local_destination(tmp_path: Path, writers: int) -> None:
    dest = tmp_path / "lake"
    committed = race(str(dest), writers, tmp_path / "go")
    assert_exactly_once(DatasetStore(str(dest)), committed)


@pytest.fixture
def s3(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, Any]]:
    monkeypatch.setenv("AWS_DEFAULT_REGION", "us-east-1")
    with moto_s3() as options:
        yield options


def test_processes_racing_on_moto_s3(tmp_path: Path, s3: dict[str, Any]) -> None:
    import s3fs

    bucket = f"race-{uuid.uuid4().hex[:8]}"
    s3fs.S3FileSystem(**s3).mkdir(bucket)
    dest = f"s3://{bucket}/lake"
    committed = race(dest, 3, tmp_path / "go", s3)
    assert_exactly_once(DatasetStore(dest, s3), committed)
