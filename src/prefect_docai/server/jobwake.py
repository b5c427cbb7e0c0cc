"""Wake this replica's job runner when any replica queues a job (PostgreSQL only).

An upload wakes the runner of the replica that took it at once (``Resources.job_wake``);
the other replicas' idle workers would find the job only at their next poll
(``DOCAI_JOB_POLL_SECONDS``). On PostgreSQL the transaction that queues a job also sends
``NOTIFY docai_jobs`` (``jobstore._notify_queued``; delivered when it commits, dropped when
it rolls back), and a thread per replica ``LISTEN``\\ s on a connection of its own and wakes
the runner, so a job uploaded at replica A starts on an idle worker of replica B without
waiting for a poll. Polling stays as the fallback (a lost connection, SQLite). The SQL of
both ends (NOTIFY, LISTEN) lives in ``jobstore``; this module holds the thread.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from prefect_docai.server import jobstore

log = logging.getLogger("prefect_docai.server.jobwake")


class JobListener:
    """``LISTEN docai_jobs`` in a daemon thread; ``wake`` is called (from that thread) for
    each notification, and once after every (re)connect for jobs queued while it was not
    listening."""

    def __init__(self, sqlalchemy_url: str, wake: Callable[[], None]) -> None:
        self._url = sqlalchemy_url
        self._wake = wake
        self._halt = threading.Event()
        self.listening = threading.Event()
        """Set while a LISTEN connection is open (tests wait for it)."""
        self._thread: threading.Thread | None = None

    def start(self) -> JobListener:
        self._halt.clear()
        self._thread = threading.Thread(target=self._run, name="docai-job-listener", daemon=True)
        self._thread.start()
        return self

    def stop(self, timeout: float = 10.0) -> None:
        self._halt.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    def _run(self) -> None:
        backoff = 1.0
        while not self._halt.is_set():
            try:
                with jobstore.listen_for_queued_jobs(self._url) as connection:
                    self.listening.set()
                    backoff = 1.0
                    self._wake()
                    while not self._halt.is_set():
                        # Returns after the timeout, so a stop is seen within a second.
                        for _notification in connection.notifies(timeout=1.0):
                            self._wake()
            except Exception as exc:
                self.listening.clear()
                if self._halt.is_set():
                    return
                log.warning("listening for queued jobs failed (%s); polling meanwhile", exc)
                self._halt.wait(backoff)
                backoff = min(backoff * 2, 30.0)
        self.listening.clear()
