"""A full disk (issue 18, item 6): 507 problem+json with Retry-After, /readyz not ready, a
quiet log, and recovery without losing an accepted job.

The service's data folder (SQLite file, blobs, outbox) is a 16 MiB tmpfs mounted for the
test, so "no space left" is the kernel's own answer, not a mock. Mounting needs root (or
CAP_SYS_ADMIN): elsewhere the test is skipped locally and fails in CI.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from prefect_docai.server.embedded import EmbeddedService
from tests.api import documents
from tests.api.conftest import Api, problem
from tests.api.lifecycle_engine import ENGINES
from tests.api.postgres import unavailable


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    mount = tmp_path / "disk"
    mount.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=16m,mode=0700", "tmpfs", str(mount)],
        capture_output=True,
        check=False,
    )
    if done.returncode != 0:
        unavailable(f"cannot mount a tmpfs: {done.stderr.decode(errors='replace').strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def _fill(path: Path, leave: int = 0) -> int:
    """Write ``path`` until the volume has about ``leave`` bytes free; returns its size."""
    import shutil

    written = 0
    chunk = b"\0" * 65536
    with path.open("wb") as handle:
        while True:
            free = shutil.disk_usage(path.parent).free
            if free <= leave:
                break
            size = min(len(chunk), free - leave) if leave else len(chunk)
            try:
                handle.write(chunk[:size])
                handle.flush()
            except OSError as exc:
                assert exc.errno == errno.ENOSPC
                break
            written += size
    return written


def _ready(service: EmbeddedService) -> httpx.Response:
    return httpx.get(service.base_url + "/readyz")


def test_disk_full_is_507_not_ready_quiet_and_recovers(
    small_disk: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with (
        caplog.at_level(logging.WARNING, logger="prefect_docai"),
        EmbeddedService(
            small_disk / "data",
            workers=1,
            engines=ENGINES,
            upload_rate_per_second=100,
            min_free_bytes=1024 * 1024,
            job_lease_seconds=2,
        ) as service,
    ):
        api = Api(service, service.create_client("disk", credits=100))
        try:
            # Accepted before the disk fills; still running when it does.
            running = api.job("ToolICR", documents.pdf("SLEEP 2"), params={"outputFormats": "TXT"})
            filler = small_disk / "filler"
            _fill(filler)

            refused = api.upload("ToolICR", documents.pdf("after the disk filled"))
            assert refused.status_code == 507, refused.text
            body = problem(refused)
            assert body["code"] == "storage_full"
            assert int(refused.headers["retry-after"]) >= 1
            ready = _ready(service)
            assert ready.status_code == 503 and ready.json()["status"] == "storage_full"

            # Several seconds of a full disk: the job is not failed, and the log holds a
            # line or two, not a traceback per loop.
            time.sleep(5)
            pending = api.result(running)
            assert pending.status_code == 404 and pending.json()["code"] == "job_pending"
            noisy = [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
            assert not noisy, [r.getMessage() for r in noisy]
            assert len(caplog.records) <= 6, [r.getMessage() for r in caplog.records]
            assert api.credits() == 99  # the refused upload was not charged

            filler.unlink()
            deadline = time.monotonic() + 40
            while _ready(service).status_code != 200:
                assert time.monotonic() < deadline, "never ready again"
                time.sleep(0.2)
            done = api.wait(running, timeout=60)
            assert done.status_code == 200 and done.json()["status"] == "succeeded", done.text
            later = api.job("ToolICR", documents.pdf("after recovery"))
            assert api.wait(later).json()["status"] == "succeeded"
            assert api.credits() == 98
        finally:
            api.close()
            with contextlib.suppress(FileNotFoundError):
                (small_disk / "filler").unlink()


def test_a_write_that_finds_no_space_is_507_too(small_disk: Path) -> None:
    """Above the reserve, an upload larger than the space left fails in the write itself."""
    with EmbeddedService(
        small_disk / "data",
        workers=1,
        engines=ENGINES,
        upload_rate_per_second=100,
        min_free_bytes=64 * 1024,
    ) as service:
        api = Api(service, service.create_client("disk", credits=100))
        try:
            _fill(small_disk / "filler", leave=200 * 1024)
            big = documents.pdf(*[f"page {i} " + "x" * 80 for i in range(800)])
            assert len(big) > 300 * 1024
            refused = api.upload("ToolICR", big)
            assert refused.status_code == 507, refused.text
            assert problem(refused)["code"] == "storage_full"
            assert api.credits() == 100
        finally:
            api.close()
