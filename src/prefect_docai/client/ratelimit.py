"""Request pacing shared by every client of one set of credentials in the process.

The service allows about one request per second per client. Prefect runs sync tasks in
worker threads and async tasks on different event loops, so the limiter must not hold any
loop-bound primitive: a caller reserves its slot under a ``threading.Lock`` (never held
across an ``await``) and then sleeps on its own loop until that slot comes.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import anyio


class RateLimiter:
    """Evenly spaced slots at ``rate`` per second (a token bucket of capacity one)."""

    def __init__(self, rate: float, *, clock: Callable[[], float] = time.monotonic) -> None:
        if rate <= 0:
            raise ValueError("rate must be positive")
        self.rate = rate
        self._interval = 1.0 / rate
        self._clock = clock
        self._lock = threading.Lock()
        self._next_free = 0.0

    def reserve(self) -> float:
        """Claim the next slot; returns how many seconds to wait before using it."""
        with self._lock:
            now = self._clock()
            slot = max(now, self._next_free)
            self._next_free = slot + self._interval
            return slot - now

    async def acquire(self) -> None:
        delay = self.reserve()
        if delay > 0:
            await anyio.sleep(delay)

    def defer(self, seconds: float) -> None:
        """The server asked us to hold off (``Retry-After``): no slot before now + seconds."""
        with self._lock:
            self._next_free = max(self._next_free, self._clock() + seconds)


_registry_lock = threading.Lock()
_registry: dict[tuple[str, ...], RateLimiter] = {}


def shared_limiter(key: tuple[str, ...], rate: float) -> RateLimiter:
    """The process-wide limiter for ``key`` at ``rate`` (created on first use)."""
    full_key = (*key, repr(float(rate)))
    with _registry_lock:
        limiter = _registry.get(full_key)
        if limiter is None:
            limiter = _registry[full_key] = RateLimiter(rate)
        return limiter
