"""Fair scheduling (issue 18, item 2): owners take turns, a big document cannot take every
worker, a job has a page cap and a time bound with a clear failure and a refund."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from prefect_docai.server.embedded import EmbeddedService
from tests.api import documents
from tests.api.conftest import Api, problem
from tests.api.lifecycle_engine import ENGINES


@pytest.fixture(scope="module")
def one_worker() -> Iterator[EmbeddedService]:
    with EmbeddedService(workers=1, engines=ENGINES, upload_rate_per_second=1000) as service:
        yield service


def _completed(api: Api, job_id: str) -> datetime:
    body = api.wait(job_id, timeout=60).json()
    assert body["status"] == "succeeded", body
    return datetime.fromisoformat(body["completedAt"])


def test_owners_take_turns(one_worker: EmbeddedService) -> None:
    heavy = Api(one_worker, one_worker.create_client("heavy", credits=100))
    light = Api(one_worker, one_worker.create_client("light", credits=100))
    try:
        backlog = [heavy.job("ToolICR", documents.pdf(f"SLEEP 1 job {i}")) for i in range(4)]
        mine = light.job("ToolICR", documents.pdf("light job"))
        done = _completed(light, mine)
        finished = [_completed(heavy, job_id) for job_id in backlog]
        # The light client's job ran right after the heavy client's first one, not after
        # its whole backlog.
        assert sum(1 for when in finished if when < done) <= 1, (finished, done)
    finally:
        heavy.close()
        light.close()


def test_a_big_document_leaves_a_worker_for_others() -> None:
    with EmbeddedService(
        workers=2, engines=ENGINES, upload_rate_per_second=1000, big_job_pages=3
    ) as service:
        heavy = Api(service, service.create_client("heavy", credits=100))
        light = Api(service, service.create_client("light", credits=100))
        try:
            big = [heavy.job("ToolICR", documents.pdf("SLEEP 8", "b", "c", "d")) for _ in range(2)]
            time.sleep(0.5)
            started = time.monotonic()
            small = light.job("ToolICR", documents.pdf("small"))
            assert light.wait(small, timeout=60).json()["status"] == "succeeded"
            # The bound is 10 s; the big jobs sleep 8 s, so FIFO would take >= 8 s.
            assert time.monotonic() - started < 6.0
            for job_id in big:
                assert heavy.wait(job_id, timeout=60).json()["status"] == "succeeded"
        finally:
            heavy.close()
            light.close()


def test_pages_per_job_are_capped() -> None:
    with EmbeddedService(workers=1, engines=ENGINES, max_pages_per_job=3) as service:
        api = Api(service, service.create_client("cap", credits=100))
        try:
            refused = api.upload("ToolICR", documents.pdf("a", "b", "c", "d"))
            assert refused.status_code == 400, refused.text
            body = problem(refused)
            assert body["code"] == "too_many_pages" and body["limit"] == 3
            assert api.credits() == 100
            assert api.upload("ToolICR", documents.pdf("a", "b", "c")).status_code == 201
        finally:
            api.close()


def test_a_job_over_its_time_bound_fails_clearly_and_is_refunded() -> None:
    with EmbeddedService(workers=1, engines=ENGINES, job_timeout=2) as service:
        api = Api(service, service.create_client("slow", credits=10))
        try:
            job_id = api.job("ToolICR", documents.pdf("SLEEP 30", "two"))
            body = api.wait(job_id, timeout=60).json()
            assert body["status"] == "failed" and body["error"]["code"] == "timeout", body
            assert "2 s" in body["error"]["detail"]
            assert body["creditsCharged"] == 0 and api.credits() == 10
        finally:
            api.close()


def test_long_documents_run_in_page_batches_and_yield_the_worker() -> None:
    """One worker, two owners with 6-page jobs in batches of 2 pages (1 s each), and a
    one-page job from a third: the batches interleave by turns, the small job runs after
    one batch instead of after a whole document, and the merged results are exactly those
    of a run over the whole document."""
    with EmbeddedService(
        workers=1, engines=ENGINES, upload_rate_per_second=1000, batch_pages=2
    ) as service:
        first = Api(service, service.create_client("first", credits=100))
        second = Api(service, service.create_client("second", credits=100))
        light = Api(service, service.create_client("light", credits=100))
        pages = [f"SLEEP 1 page {n}" for n in range(1, 7)]
        try:
            long_a = first.job("ToolICR", documents.pdf(*pages), params={"outputFormats": "TXT"})
            long_b = second.job("ToolICR", documents.pdf(*pages))
            time.sleep(0.3)
            small = light.job("ToolICR", documents.pdf("small"))
            done_small = _completed(light, small)
            done_a, done_b = _completed(first, long_a), _completed(second, long_b)
            # Without batches the only worker would run the first document to its end.
            assert done_small < done_a and done_small < done_b
            body = first.wait(long_a).json()
            assert body["result"]["texts"] == pages and body["result"]["page_count"] == 6
            assert first.result(long_a, "file", outputType="TXT").text == "\n".join(pages)
            assert second.wait(long_b).json()["result"]["texts"] == pages
            assert first.credits() == 94 and second.credits() == 94 and light.credits() == 99
        finally:
            first.close()
            second.close()
            light.close()


def test_an_accounts_plan_caps_its_pages_per_job() -> None:
    with EmbeddedService(workers=1, engines=ENGINES, max_pages_per_job=10) as service:
        small_plan = service.create_client("small plan", credits=100)
        service.set_page_cap(small_plan.client_id, 2)  # its account has its id
        api = Api(service, small_plan)
        other = Api(service, service.create_client("default plan", credits=100))
        try:
            refused = api.upload("ToolICR", documents.pdf("a", "b", "c"))
            assert refused.status_code == 400, refused.text
            body = problem(refused)
            assert body["code"] == "too_many_pages" and body["limit"] == 2
            assert body["pageCount"] == 3 and "plan" in body["detail"]
            assert api.credits() == 100
            # Accounts without a plan of their own keep the service's cap.
            assert other.upload("ToolICR", documents.pdf("a", "b", "c")).status_code == 201
            time.sleep(1.1)
            assert api.upload("ToolICR", documents.pdf("a", "b")).status_code == 201
        finally:
            api.close()
            other.close()


def test_a_batched_job_keeps_its_batches_over_a_restart(tmp_path: Path) -> None:
    """Stopped between batches, the job resumes after its stored batches on the next start
    (they are not run again) and completes once, charged once, with the whole result."""
    data_dir = tmp_path / "data"
    pages = [f"SLEEP 1 page {n}" for n in range(1, 7)]
    settings: dict[str, Any] = {"workers": 1, "engines": ENGINES, "batch_pages": 2}
    service = EmbeddedService(data_dir, **settings).start()
    creds = service.create_client(credits=10)
    api = Api(service, creds)
    try:
        job_id = api.job("ToolICR", documents.pdf(*pages))
        deadline = time.monotonic() + 60
        while (service.pages_done(job_id) or 0) < 2:
            assert time.monotonic() < deadline, "the first batch never ended"
            time.sleep(0.1)
    finally:
        api.close()
        service.stop()
    done = service.pages_done(job_id)
    assert done is not None and 2 <= done < 6
    with EmbeddedService(data_dir, **settings) as again:
        api = Api(again, creds)
        try:
            body = api.wait(job_id, timeout=60).json()
            assert body["status"] == "succeeded", body
            assert body["result"]["texts"] == pages and body["creditsCharged"] == 6
            assert api.credits() == 4
        finally:
            api.close()


def test_batch_parts_are_looked_for_only_after_batched_jobs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Deleting a job's batch parts lists the blob store (one LIST per job on S3, and a
    scan of the whole bucket on moto): done for a job that ran in batches, and its parts
    are gone; skipped for one that did not (it has none)."""
    from prefect_docai.server import batches

    cleared: list[str] = []
    delete = batches.delete

    def spy(blobs: Any, job_id: str) -> None:
        cleared.append(job_id)
        delete(blobs, job_id)

    monkeypatch.setattr(batches, "delete", spy)
    with EmbeddedService(
        workers=1, engines=ENGINES, upload_rate_per_second=1000, batch_pages=2
    ) as service:
        api = Api(service, service.create_client("parts", credits=100))
        try:
            short = api.job("ToolICR", documents.pdf("one", "two"))
            long = api.job("ToolICR", documents.pdf(*(f"page {n}" for n in range(1, 6))))
            assert api.wait(short).json()["status"] == "succeeded"
            assert api.wait(long).json()["result"]["page_count"] == 5
            assert cleared == [long]
            left = [
                path
                for path in Path(service.settings.data_dir).rglob("*")
                if path.is_file() and f"{long}/batches/" in path.as_posix()
            ]
            assert not left
        finally:
            api.close()
