"""Limits every replica shares (issue 18, item 8): two services on one PostgreSQL database
see one upload rate per client and tool, one token-failure throttle and one turn order."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from prefect_docai.server.embedded import EmbeddedService
from tests.api import documents
from tests.api.conftest import Api, problem, two_replicas
from tests.api.postgres import PostgresServer


@pytest.fixture
def replicas(
    postgres: PostgresServer, database: str, tmp_path: Path
) -> Iterator[tuple[EmbeddedService, ...]]:
    with two_replicas(
        tmp_path / "shared",
        postgres.url(database),
        token_failures_burst=4,
        token_failures_per_second=0.2,
    ) as pair:
        yield pair


def test_the_upload_rate_is_one_across_replicas(replicas: tuple[EmbeddedService, ...]) -> None:
    first, second = replicas
    creds = first.create_client("shared", credits=100)
    one, two = Api(first, creds), Api(second, creds)
    try:
        assert one.upload("ToolICR", documents.pdf("on the first")).status_code == 201
        other = two.upload("ToolICR", documents.pdf("on the second"))
        assert other.status_code == 429, other.text
        assert problem(other)["code"] == "rate_limited"
    finally:
        one.close()
        two.close()


def test_token_failures_add_up_across_replicas(replicas: tuple[EmbeddedService, ...]) -> None:
    creds = replicas[0].create_client("victim", credits=0)
    statuses = []
    for attempt in range(5):
        service = replicas[attempt % 2]
        response = httpx.post(
            service.token_url,
            data={
                "grant_type": "client_credentials",
                "client_id": creds.client_id,
                "client_secret": "guess",
            },
        )
        statuses.append(response.status_code)
    assert statuses == [401, 401, 401, 401, 429]


def test_owners_take_turns_across_replicas(
    replicas: tuple[EmbeddedService, ...], postgres: PostgresServer, database: str
) -> None:
    first, second = replicas
    heavy_creds = first.create_client("heavy", credits=100)
    light_creds = first.create_client("light", credits=100)
    heavy = [Api(first, heavy_creds), Api(second, heavy_creds)]
    light = Api(second, light_creds)
    try:
        backlog = []
        for i in range(6):
            api = heavy[i % 2]
            while (
                response := api.upload("ToolICR", documents.pdf(f"SLEEP 3 #{i}"))
            ).status_code == 429:
                time.sleep(0.2)
            assert response.status_code == 201, response.text
            backlog.append(response.json()["jobId"])
        mine = light.job("ToolICR", documents.pdf("light"))
        assert light.wait(mine, timeout=60).json()["status"] == "succeeded"
        for job_id in backlog:
            assert heavy[0].wait(job_id, timeout=120).json()["status"] == "succeeded"
        rows = postgres.query(database, "SELECT id, created_at, started_at FROM jobs")
        times = {job_id: (created, started) for job_id, created, started in rows}
        light_created, light_started = times[mine]
        # No heavy job that was still waiting when the light one arrived started before it.
        overtaking = [
            job_id
            for job_id in backlog
            if times[job_id][1] > light_created and times[job_id][1] < light_started
        ]
        assert not overtaking, (overtaking, times)
        # And the heavy client's backlog was really still queued then (the test means it).
        assert sum(1 for job_id in backlog if times[job_id][1] > light_created) >= 1
    finally:
        for api in [*heavy, light]:
            api.close()


@pytest.fixture
def bursty_replicas(
    postgres: PostgresServer, database: str, tmp_path: Path
) -> Iterator[tuple[EmbeddedService, ...]]:
    with two_replicas(
        tmp_path / "shared", postgres.url(database), upload_rate_per_second=0.5, upload_burst=2
    ) as pair:
        yield pair


def test_an_upload_burst_is_one_across_replicas(
    bursty_replicas: tuple[EmbeddedService, ...],
) -> None:
    """Burst 2 at 0.5/s: two uploads at once, one at each replica, are both accepted (two
    workers sharing a client id do not collide); a third within 4 s is refused at either,
    with the wait until the older of the two leaves the window, the same average rate."""
    first, second = bursty_replicas
    creds = first.create_client("bursty", credits=100)
    one, two = Api(first, creds), Api(second, creds)
    try:
        assert one.upload("ToolICR", documents.pdf("a")).status_code == 201
        assert two.upload("ToolICR", documents.pdf("b")).status_code == 201
        accepted = time.monotonic()
        for api in (one, two):
            refused = api.upload("ToolICR", documents.pdf("c"))
            assert refused.status_code == 429, refused.text
            assert problem(refused)["code"] == "rate_limited"
            assert 1 <= int(refused.headers["retry-after"]) <= 4
        # The window is burst / rate = 4 s: past it, the next two, and no third.
        while time.monotonic() - accepted < 4.2:
            time.sleep(0.1)
        assert two.upload("ToolICR", documents.pdf("d")).status_code == 201
        assert one.upload("ToolICR", documents.pdf("e")).status_code == 201
        assert two.upload("ToolICR", documents.pdf("f")).status_code == 429
    finally:
        one.close()
        two.close()
