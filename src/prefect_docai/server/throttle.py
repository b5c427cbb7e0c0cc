"""Token buckets held in the database, so every replica sees the same counts.

Used for the token endpoint's failed attempts (per client id and per address). A bucket
holds up to ``burst`` tokens and refills at ``rate`` per second; an attempt is refused while
a bucket of its keys is empty, and only a failed attempt takes a token: the rightful
client is slowed only while someone keeps failing for it, and never for longer than one
refill (``1 / rate`` seconds) after that stops.

One ``INSERT … ON CONFLICT DO UPDATE`` per spend (PostgreSQL and SQLite both have it):
concurrent spends on one key serialise on its row and none is lost.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from sqlalchemy import case, delete, select
from sqlalchemy.dialects import postgresql, sqlite

from prefect_docai.server.db import Database, ThrottleRow


@dataclass(frozen=True)
class Bucket:
    key: str
    burst: float
    rate: float
    """Tokens per second."""


class Throttle:
    def __init__(self, db: Database, clock: Callable[[], float] = time.time) -> None:
        self.db = db
        self.clock = clock

    def wait(self, buckets: Sequence[Bucket]) -> float:
        """Seconds until every bucket holds a token again (0: go ahead)."""
        if not buckets:
            return 0.0
        by_key = {bucket.key: bucket for bucket in buckets}
        now = self.clock()
        with self.db.engine.connect() as connection:
            rows = connection.execute(
                select(ThrottleRow.key, ThrottleRow.tokens, ThrottleRow.updated).where(
                    ThrottleRow.key.in_(list(by_key))
                )
            ).all()
        longest = 0.0
        for key, tokens, updated in rows:
            bucket = by_key[key]
            level = min(bucket.burst, tokens + max(0.0, now - updated) * bucket.rate)
            if level < 1.0:
                longest = max(longest, (1.0 - level) / bucket.rate)
        return longest

    def spend(self, buckets: Sequence[Bucket]) -> None:
        """Take one token from each bucket (never below zero)."""
        now = self.clock()
        insert = postgresql.insert if self.db.is_postgresql else sqlite.insert
        with self.db.engine.begin() as connection:
            for bucket in sorted(buckets, key=lambda b: b.key):  # one lock order: no deadlock
                refilled = ThrottleRow.tokens + (now - ThrottleRow.updated) * bucket.rate
                capped = case((refilled > bucket.burst, bucket.burst), else_=refilled) - 1.0
                level = case((capped < 0.0, 0.0), else_=capped)
                statement = insert(ThrottleRow).values(
                    key=bucket.key,
                    tokens=bucket.burst - 1.0,
                    updated=now,
                    full_at=now + 1.0 / bucket.rate,
                )
                connection.execute(
                    statement.on_conflict_do_update(
                        index_elements=[ThrottleRow.key],
                        set_={
                            "tokens": level,
                            "updated": now,
                            "full_at": now + (bucket.burst - level) / bucket.rate,
                        },
                    )
                )

    def forget_full(self) -> int:
        """Delete buckets that have refilled (they hold no state); returns how many."""
        with self.db.engine.begin() as connection:
            result = connection.execute(
                delete(ThrottleRow).where(ThrottleRow.full_at < self.clock())
            )
        return int(getattr(result, "rowcount", 0) or 0)
