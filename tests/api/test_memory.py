"""Worker memory is bounded (issue 18, item 3): a document that needs more memory than a
worker may use fails clearly (``out_of_memory``, refunded) in its own worker, four at once
cause no OOM, and a job running next to them is not disturbed."""

from __future__ import annotations

import io
import os
import threading
from pathlib import Path

import psutil
import pytest

from prefect_docai.server.embedded import EmbeddedService
from tests.api import documents
from tests.api.conftest import Api
from tests.api.lifecycle_engine import ENGINES

LIMIT = 700 * 1024 * 1024


def _huge_png(side: int = 14_000) -> bytes:
    """A blank grey PNG of ``side``² pixels: about 24 KB, about 0.8 GB once decoded to RGB."""
    from PIL import Image

    buffer = io.BytesIO()
    Image.new("L", (side, side), 255).save(buffer, format="PNG", optimize=True)
    return buffer.getvalue()


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
    run_log = tmp_path / "runs.log"
    monkeypatch.setenv("DOCAI_TEST_RUN_LOG", str(run_log))
    png = _huge_png()
    assert len(png) < 400 * 1024
    with EmbeddedService(
        workers=2, engines=ENGINES, upload_rate_per_second=1e6, worker_memory_limit=LIMIT
    ) as service:
        bomber = Api(service, service.create_client("bomber", credits=100))
        bystander = Api(service, service.create_client("bystander", credits=100))
        try:
            huge = []
            uploads = [
                threading.Thread(target=lambda: huge.append(bomber.job("ToolICR", png, name="big.png")))
                for _ in range(4)
            ]
            for thread in uploads:
                thread.start()
            normal = bystander.job("ToolICR", documents.pdf("SLEEP 2 ordinary"))
            for thread in uploads:
                thread.join()
            assert len(huge) == 4
            body = bystander.wait(normal, timeout=120).json()
            assert body["status"] == "succeeded", body
            for job_id in huge:
                result = bomber.wait(job_id, timeout=120).json()
                # A clear failure of its own, refunded; never a crash that takes others along.
                assert result["status"] == "failed", result
                assert result["error"]["code"] in {"out_of_memory", "image_too_large"}, result
            assert bomber.credits() == 100 and bystander.credits() == 99
            assert _peak_worker_memory() <= LIMIT
            # The bystander's document ran once: nothing of it was retried.
            assert run_log.read_text().count("\n") == 1
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
