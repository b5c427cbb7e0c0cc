"""Running out of disk: refuse new work early, keep accepted work, back off quietly.

The service keeps ``min_free_bytes`` free on the volumes it writes locally (data folder,
SQLite file, blob folder): below that, uploads are refused with 507 ``storage_full`` and a
``Retry-After``, ``/readyz`` says not ready and no new job is claimed, so the space left is
there for the jobs already running to store their results. A write that fails with "no
space" anyway (a volume shared with something else, an object store, a database server
whose disk is full) puts the service in the same state until a probe after a growing
backoff finds space again. Each change of state is logged once, as one line.
"""

from __future__ import annotations

import errno
import logging
import shutil
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path

log = logging.getLogger("prefect_docai.server.diskspace")

_NO_SPACE = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG}
_SQLITE_FULL = 13  # SQLITE_FULL
_PG_DISK_FULL = "53100"  # disk_full


def is_disk_full(exc: BaseException) -> bool:
    """Whether ``exc`` (or what it wraps) says that a write found no space."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, OSError) and current.errno in _NO_SPACE:
            return True
        if getattr(current, "sqlite_errorcode", None) == _SQLITE_FULL:
            return True
        if getattr(current, "sqlstate", None) == _PG_DISK_FULL:
            return True
        wrapped = getattr(current, "orig", None)  # SQLAlchemy's DBAPIError
        current = wrapped if isinstance(wrapped, BaseException) else current.__cause__
    return False


class StorageGuard:
    """Thread-safe: asked by request threads, the job runner and ``/readyz``."""

    def __init__(
        self,
        paths: Iterable[Path],
        min_free_bytes: int,
        max_backoff: float = 30.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.paths = [path for path in dict.fromkeys(paths)]
        self.min_free_bytes = min_free_bytes
        self.max_backoff = max_backoff
        self.clock = clock
        self._lock = threading.Lock()
        self._full = False
        self._backoff = 1.0
        self._probe_at = 0.0
        self._recovered_at = -1e9

    def free_bytes(self) -> int | None:
        """The least free space over the watched volumes (None: nothing local to watch)."""
        free: int | None = None
        for path in self.paths:
            try:
                available = shutil.disk_usage(path).free
            except OSError:
                continue
            free = available if free is None else min(free, available)
        return free

    def ok(self) -> bool:
        """Whether new work may be accepted now."""
        with self._lock:
            now = self.clock()
            if self._full and now < self._probe_at:
                return False
            free = self.free_bytes()
            short = free is not None and free < self.min_free_bytes
            if short:
                self._enter(now, f"{free} bytes free, below the {self.min_free_bytes} kept free")
                return False
            if self._full:
                self._full = False
                self._recovered_at = now
                log.warning("storage has space again; accepting work")
            return True

    def report(self, exc: BaseException) -> None:
        """A write failed for lack of space (``is_disk_full(exc)``)."""
        with self._lock:
            self._enter(self.clock(), f"a write failed: {type(exc).__name__}")

    def _enter(self, now: float, why: str) -> None:
        if not self._full:
            self._full = True
            # Full again soon after recovering: the probe found space that a write then did
            # not; keep backing off rather than start over (and log again) every second.
            if now - self._recovered_at > 4 * self.max_backoff:
                self._backoff = 1.0
            else:
                self._backoff = min(self.max_backoff, self._backoff * 2)
            log.warning("storage full (%s); refusing uploads and pausing jobs", why)
        else:
            self._backoff = min(self.max_backoff, self._backoff * 2)
        self._probe_at = now + self._backoff

    @property
    def retry_after(self) -> int:
        with self._lock:
            return max(1, round(self._probe_at - self.clock())) if self._full else 1
