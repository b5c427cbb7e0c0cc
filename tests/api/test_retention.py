"""Retention: results are purged after the TTL and then answer 404 job_expired."""

from __future__ import annotations

import time

from prefect_docai.server.embedded import EmbeddedService
from tests.api import documents
from tests.api.conftest import Api, problem
from tests.api.lifecycle_engine import ENGINES


def test_purge_expires_results() -> None:
    with EmbeddedService(workers=1, engines=ENGINES, result_ttl=1.5, purge_interval=0.2) as service:
        api = Api(service, service.create_client(credits=10))
        key = {"Idempotency-Key": "keep"}
        data = documents.pdf("short-lived")
        job_id = api.job("ToolICR", data, headers=key)
        assert api.wait(job_id).json()["status"] == "succeeded"
        results = service.settings.data_dir / "blobs" / "results" / job_id
        assert (results / "result.json").exists()
        deadline = time.monotonic() + 20
        while results.exists():
            assert time.monotonic() < deadline, "results were not purged"
            time.sleep(0.1)
        for kind in ("json", "zip", "file"):
            response = api.result(job_id, kind, outputType="PDF")
            assert response.status_code == 404
            body = problem(response)
            assert body["code"] == "job_expired"
            assert body["jobStatus"] == "expired"
        assert not (service.settings.data_dir / "blobs" / "inputs" / job_id).exists()
        # The key still names the same (now expired) job, and charges nothing again.
        time.sleep(1.0)
        again = api.upload("ToolICR", data, headers=key)
        assert again.status_code == 201 and again.json()["jobId"] == job_id
        assert api.credits() == 9
        api.close()
