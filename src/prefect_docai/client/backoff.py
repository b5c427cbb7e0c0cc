"""Backoff delays with jitter, so a crowd of retrying callers does not come back in step."""

from __future__ import annotations

import random

_rng = random.SystemRandom()


def backoff_delay(attempt: int, base: float, cap: float) -> float:
    """Delay before retry number ``attempt`` (1-based): "equal jitter" exponential backoff.

    Half of the exponential step is kept so a retry never comes back immediately, the other
    half is random so that callers that failed together spread out.
    """
    step: float = min(cap, base * 2.0 ** max(0, attempt - 1))
    return step / 2 + _rng.uniform(0, step / 2)


def jittered(value: float, spread: float = 0.2) -> float:
    """``value`` moved randomly by up to ±``spread`` of itself."""
    return value * _rng.uniform(1 - spread, 1 + spread)
