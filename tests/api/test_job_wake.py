"""A job queued at one replica starts at once on an idle worker of another (PostgreSQL
LISTEN/NOTIFY, ``server/jobwake.py``), not at that replica's next poll."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from prefect_docai.server.embedded import EmbeddedService
from tests.api import documents
from tests.api.conftest import Api, two_replicas
from tests.api.postgres import PostgresServer

POLL = 60.0  # idle runners would look for work only this often: the wake must do it


@pytest.fixture
def replicas(
    postgres: PostgresServer, database: str, tmp_path: Path
) -> Iterator[tuple[EmbeddedService, ...]]:
    with two_replicas(
        tmp_path / "shared",
        postgres.url(database),
        job_poll_seconds=POLL,
        upload_rate_per_second=100.0,
    ) as pair:
        yield pair


def _listeners(postgres: PostgresServer, database: str) -> int:
    rows = postgres.query(
        database,
        "SELECT count(*) FROM pg_stat_activity WHERE datname = %s AND query LIKE 'LISTEN%%'",
        database,
    )
    return int(rows[0][0])


def test_a_job_uploaded_at_one_replica_starts_on_the_others_idle_worker(
    replicas: tuple[EmbeddedService, ...], postgres: PostgresServer, database: str
) -> None:
    first, _second = replicas
    deadline = time.monotonic() + 15
    while _listeners(postgres, database) < 2 and time.monotonic() < deadline:
        time.sleep(0.1)
    # Both idle runners have made their start-up pass and now wait up to POLL seconds.
    time.sleep(1.0)
    api = Api(first, first.create_client("wake", credits=100))
    try:
        # Both uploads at the first replica: its one worker takes one job, the other job
        # can start at once only on the second replica's idle worker.
        jobs = [api.job("ToolICR", documents.pdf(f"SLEEP 4 #{i}")) for i in range(2)]
        for job_id in jobs:
            assert api.wait(job_id, timeout=30).json()["status"] == "succeeded"
    finally:
        api.close()
    rows = postgres.query(
        database,
        "SELECT id, EXTRACT(EPOCH FROM started_at - created_at) FROM jobs WHERE id = ANY(%s)",
        jobs,
    )
    waits = {job_id: float(wait) for job_id, wait in rows}
    # Without the wake the second job waits for the first (4 s) or for a poll (60 s).
    assert max(waits.values()) < 2.0, waits
