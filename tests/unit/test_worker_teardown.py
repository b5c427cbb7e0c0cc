"""Stopping the service kills busy workers; one killed while it was sending its result
must not leave the pool's manager thread waiting forever (interpreter exit joins that
thread: ``docai serve`` and the embedded service would hang on the way out)."""

from __future__ import annotations

import os
import struct
import time

from prefect_docai.server.workers import WorkerPool


def test_a_worker_killed_mid_result_does_not_hang_the_pool() -> None:
    pool = WorkerPool(1)
    pool.prestart()
    executor = pool._slots[0]
    started = pool._started[0]
    assert executor is not None and started is not None
    started.result(120)
    # The executor's private parts: what a worker killed mid-send leaves behind is half
    # a message in the result pipe (a length header promising more bytes than follow).
    results = executor._result_queue  # type: ignore[attr-defined]
    manager = executor._executor_manager_thread  # type: ignore[attr-defined]
    writer = results._writer.fileno()
    os.write(writer, struct.pack("!i", 1000) + b"x" * 10)
    time.sleep(0.3)  # the manager thread now waits in recv() for the other 990 bytes
    try:
        pool.close()
        manager.join(10)
        assert not manager.is_alive(), "the pool's manager thread still waits for the result"
    finally:
        if manager.is_alive():  # unblock it, or this test run could not exit
            os.write(writer, b"x" * 990)
            manager.join(10)
