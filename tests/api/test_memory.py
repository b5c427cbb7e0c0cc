"""Worker memory is bounded (issue 18, item 3): a document that needs more memory than a
worker may use fails clearly (``out_of_memory``, refunded) in its own worker, four at once
cause no OOM, and a job running next to them is not disturbed."""

from __future__ import annotations

import os
import threading
from datetime import datetime
from pathlib import Path

import psutil
import pytest

from prefect_docai.server.embedded import EmbeddedService
from tests import hostile
from tests.api import documents
from tests.api.conftest import Api
from tests.api.lifecycle_engine import ENGINES

LIMIT = 700 * 1024 * 1024


def _huge_png(side: int) -> bytes:
    """A blank RGB PNG of ``side``² pixels: a few hundred KB, 3 bytes a pixel decoded."""
    return hostile.grey_png(side, side, rgb=True)


def _peak_worker_memory() -> int:
    """The largest peak resident size (VmHWM) of this process's worker processes."""
    peak = 0
    for child in psutil.Process(os.getpid()).children(recursive=True):
        try:
            status = Path(f"/proc/{child.pid}/status").read_text()
        except OSError:
            continue
        for line in status.splitlines():
            if line.startswith("VmHWM:"):
                peak = max(peak, int(line.split()[1]) * 1024)
    return peak


def test_four_huge_images_at_once_stay_within_the_worker_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One account uploads four 10000² RGB PNGs at once (100 MP each: 300 MB as RGB, over
    1 GB on the full-decode path, which this worker limit does not allow), another a
    one-page PDF. The images are decoded reduced (no OOM: all four succeed), they cost 12
    page units each so at most one runs beside the small job (big_job_pages=5), and the
    small job is not queued behind them."""
    run_log = tmp_path / "runs.log"
    monkeypatch.setenv("DOCAI_TEST_RUN_LOG", str(run_log))
    png = _huge_png(10_000)
    assert len(png) < 400 * 1024
    with EmbeddedService(
        workers=2, engines=ENGINES, upload_rate_per_second=1e6, worker_memory_limit=LIMIT,
        big_job_pages=5,
    ) as service:
        bomber = Api(service, service.create_client("bomber", credits=100))
        bystander = Api(service, service.create_client("bystander", credits=100))
        try:
            huge: list[str] = []
            uploads = [
                threading.Thread(target=lambda: huge.append(bomber.job("ToolICR", png, name="big.png")))
                for _ in range(4)
            ]
            for thread in uploads:
                thread.start()
            for thread in uploads:
                thread.join()
            assert len(huge) == 4
            normal = bystander.job("ToolICR", documents.pdf("ordinary"))
            body = bystander.wait(normal, timeout=300).json()
            assert body["status"] == "succeeded", body
            small_done = datetime.fromisoformat(body["completedAt"])
            ended = []
            for job_id in huge:
                result = bomber.wait(job_id, timeout=300).json()
                # Decoded reduced within the limit: no out_of_memory, no crash.
                assert result["status"] == "succeeded", result
                ended.append(datetime.fromisoformat(result["completedAt"]))
            # The big ones ran one at a time, a worker left for it: it ended before the
            # second of them (on two workers taken by two of them, it waits for one).
            assert small_done < sorted(ended)[1]
            assert bomber.credits() == 96 and bystander.credits() == 99
            assert _peak_worker_memory() <= LIMIT
            # Every document ran once: nothing was retried after a crash.
            assert run_log.read_text().count("\n") == 5
        finally:
            bomber.close()
            bystander.close()


def test_a_worker_over_its_limit_fails_only_its_own_job(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run_log = tmp_path / "runs.log"
    monkeypatch.setenv("DOCAI_TEST_RUN_LOG", str(run_log))
    with EmbeddedService(
        workers=2, engines=ENGINES, upload_rate_per_second=1e6, worker_memory_limit=LIMIT
    ) as service:
        api = Api(service, service.create_client("alloc", credits=100))
        try:
            hungry = api.job("ToolICR", documents.pdf("ALLOC 2000"))
            fine = api.job("ToolClassify", documents.pdf("SLEEP 1 ALLOC 100"))
            assert api.wait(fine, timeout=60).json()["status"] == "succeeded"
            failed = api.wait(hungry, timeout=60).json()
            assert failed["status"] == "failed" and failed["error"]["code"] == "out_of_memory"
            assert api.credits() == 99
        finally:
            api.close()
