"""What a job costs the workers, estimated at upload time: the unit of fair scheduling.

Credits are pages (the price list), but a page is not a fixed amount of work: a
14000 × 14000 px PNG is one page and 196 million pixels to decode and read. Turns and the
small-job lane therefore count *page units*: a PDF page is one unit (rendered for OCR at
300 dpi, an A4 page is about :data:`PAGE_PIXELS`), an image costs its pixels in units of
:data:`PAGE_PIXELS`, at least one per page.
"""

from __future__ import annotations

import math

from prefect_docai.files.sniff import DocumentInfo

PAGE_PIXELS = 8_700_000
"""Pixels of one page unit: an A4 page at 300 dpi (2480 × 3508)."""


def job_cost(info: DocumentInfo) -> int:
    """Page units of work for an upload (≥ its page count)."""
    return max(info.page_count, math.ceil(info.pixels / PAGE_PIXELS))


def units(cost: int, page_count: int, pages: int) -> int:
    """The share of a job's ``cost`` that ``pages`` of its ``page_count`` pages carry (≥ 1)."""
    if page_count <= 0 or pages >= page_count:
        return max(1, cost)
    return max(1, math.ceil(cost * pages / page_count))
