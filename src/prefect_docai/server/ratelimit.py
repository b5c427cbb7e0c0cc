"""Upload rate limit: accepted uploads of a client and tool at most ``rate`` per second.

Counted in the database from the jobs themselves (``jobstore.upload_wait`` before the body
is read, and exactly inside the upload's transaction by ``jobstore.charge_and_insert``), so
every replica on one database sees the same count, and an upload that was refused (bad
input, no credits, over a limit) never uses the slot.
"""

from __future__ import annotations

import math


def retry_after_header(wait: float) -> str:
    return str(max(1, math.ceil(wait)))
