"""Access tokens: cached per credentials process-wide, refreshed once for many waiters.

Like the rate limiter this state is shared across threads and event loops, so the single
refresh in flight is a ``concurrent.futures.Future`` that waiters on any loop can await.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from pydantic import SecretStr


@dataclass(frozen=True)
class AccessToken:
    """A bearer token from the token endpoint; the JWT stays a ``SecretStr``."""

    access_token: SecretStr
    expires_in: float
    token_type: str = "Bearer"
    scope: str = ""
    obtained_at: float = field(default_factory=time.monotonic)

    def fresh(self, margin: float, now: float | None = None) -> bool:
        """Still usable for at least ``margin`` seconds (shrunk for very short lifetimes)."""
        now = time.monotonic() if now is None else now
        effective = min(margin, self.expires_in / 5)
        return now < self.obtained_at + self.expires_in - effective


Fetch = Callable[[], Awaitable[AccessToken]]


class TokenManager:
    """Holds the current token of one set of credentials."""

    def __init__(self, margin: float = 30.0) -> None:
        self.margin = margin
        self._lock = threading.Lock()
        self._token: AccessToken | None = None
        self._inflight: concurrent.futures.Future[AccessToken] | None = None
        self.fetch_count = 0
        """How many times a token was requested from the server (observability, tests)."""

    def peek(self) -> AccessToken | None:
        with self._lock:
            return self._token

    async def get(self, fetch: Fetch, *, stale: SecretStr | None = None) -> AccessToken:
        """A fresh token; ``stale`` is one the server just refused, so never hand it out again."""
        while True:
            with self._lock:
                token = self._token
                usable = token is not None and token.fresh(self.margin)
                if usable and token is not None and not _same(token.access_token, stale):
                    return token
                owner = self._inflight is None
                if owner:
                    self._inflight = concurrent.futures.Future()
                inflight = self._inflight
                assert inflight is not None
            if not owner:
                # Another caller is fetching; a failure there is re-raised here too, so a
                # refused secret fails every waiter at once instead of one after another.
                try:
                    return await asyncio.wrap_future(inflight)
                except _OwnerCancelled:
                    continue
            try:
                self.fetch_count += 1
                new = await fetch()
            except BaseException as exc:
                with self._lock:
                    self._inflight = None
                if isinstance(exc, Exception):
                    inflight.set_exception(exc)
                else:
                    # Cancelled owner: waiters go round again and one of them fetches.
                    inflight.set_exception(_OwnerCancelled())
                raise
            with self._lock:
                self._token = new
                self._inflight = None
            inflight.set_result(new)
            return new

    def clear(self) -> None:
        with self._lock:
            self._token = None


class _OwnerCancelled(Exception):
    pass


def _same(a: SecretStr, b: SecretStr | None) -> bool:
    return b is not None and a.get_secret_value() == b.get_secret_value()


_registry_lock = threading.Lock()
_registry: dict[tuple[str, ...], TokenManager] = {}


def shared_token_manager(key: tuple[str, ...], margin: float) -> TokenManager:
    with _registry_lock:
        manager = _registry.get(key)
        if manager is None:
            manager = _registry[key] = TokenManager(margin)
        return manager
