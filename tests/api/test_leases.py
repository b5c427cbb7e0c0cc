"""A running job keeps its lease while its service's event loop is starved (issue 19).

Under load the scale benchmark lost jobs as ``engine_crashed``: a job's lease ran out while
the job was still running, another replica requeued it, and after ``max_job_attempts``
such interruptions gave it up. The mechanism, without load: two replicas on one database,
a tiny lease, a slow job, and the owning replica's event loop blocked for three leases
(as a loop that gets no CPU is). The lease must hold, the other replica must not take
the job, and the job must succeed on its first attempt.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

from prefect_docai.server import jobstore
from prefect_docai.server.db import utcnow
from prefect_docai.server.embedded import EmbeddedService
from prefect_docai.server.resources import Resources
from tests.api import documents
from tests.api.conftest import Api
from tests.api.lifecycle_engine import ENGINES

LEASE = 2.0


def _resources(service: EmbeddedService) -> Resources:
    assert service._server is not None
    resources = service._server.config.app.state.resources
    assert isinstance(resources, Resources)
    return resources


def _loop(resources: Resources) -> asyncio.AbstractEventLoop:
    loop = resources.job_wake._loop  # the loop the job runner runs on
    assert loop is not None
    return loop


def test_a_starved_event_loop_does_not_lose_a_running_jobs_lease(tmp_path: Path) -> None:
    common: dict[str, Any] = {
        "workers": 1,
        "engines": ENGINES,
        "job_lease_seconds": LEASE,
        # One interruption is one too many: a lost lease fails the job at once.
        "max_job_attempts": 1,
    }
    data_dir = tmp_path / "shared"  # one SQLite database and blob folder for both
    with EmbeddedService(data_dir, **common) as first, EmbeddedService(data_dir, **common) as second:
        api = Api(first, first.create_client("lease", credits=10))
        try:
            job_id = api.job("ToolICR", documents.pdf("SLEEP 10 slow job"))
            deadline = time.monotonic() + 30
            while (job := jobstore.get_job(_resources(first).db, job_id)).status != "processing":
                assert time.monotonic() < deadline, job.status
                time.sleep(0.05)
            owner = next(
                s for s in (first, second) if _resources(s).instance_id == job.lease_owner
            )
            db = _resources(owner).db
            # The owner's loop gets no time for three leases; the other replica's runs on.
            _loop(_resources(owner)).call_soon_threadsafe(time.sleep, 3 * LEASE)
            time.sleep(2 * LEASE)
            during = jobstore.get_job(db, job_id)
            assert during is not None and during.status == "processing", (
                during and (during.status, during.error_code, during.error_detail)
            )
            assert jobstore.expired_leases(db, utcnow()) == []
            body = api.wait(job_id, timeout=60).json()
            job = jobstore.get_job(db, job_id)
        finally:
            api.close()
    assert body.get("jobStatus", body.get("status")) == "succeeded", body
    assert job is not None and job.attempts == 1
