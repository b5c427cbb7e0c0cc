"""Upload rate limit: a token bucket per (client, tool), burst 1.

In-process: with several replicas behind a load balancer each replica keeps its own
buckets, so the effective limit is ``rate × replicas`` unless the balancer pins a client
to one replica; the spec's 1 request/s is enforced exactly on a single instance.
"""

from __future__ import annotations

import math
import threading
import time


class RateLimiter:
    def __init__(self, rate_per_second: float, burst: float = 1.0) -> None:
        self.rate = rate_per_second
        self.burst = max(1.0, burst)
        self._buckets: dict[tuple[str, str], tuple[float, float]] = {}
        self._lock = threading.Lock()

    def acquire(self, client_id: str, tool: str) -> float:
        """Take one token; returns 0 when allowed, else the seconds until the next token."""
        now = time.monotonic()
        key = (client_id, tool)
        with self._lock:
            tokens, updated = self._buckets.get(key, (self.burst, now))
            tokens = min(self.burst, tokens + (now - updated) * self.rate)
            if tokens >= 1.0:
                self._buckets[key] = (tokens - 1.0, now)
                if len(self._buckets) > 100_000:
                    self._forget_full(now)
                return 0.0
            self._buckets[key] = (tokens, now)
            return (1.0 - tokens) / self.rate

    def _forget_full(self, now: float) -> None:
        # Buckets that have refilled completely carry no state worth keeping.
        full_after = self.burst / self.rate
        for key, (_, updated) in list(self._buckets.items()):
            if now - updated >= full_after:
                del self._buckets[key]


def retry_after_header(wait: float) -> str:
    return str(max(1, math.ceil(wait)))
