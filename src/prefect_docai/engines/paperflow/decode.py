"""Best segmentation of a page stream: dynamic programming over boundary probabilities.

A segmentation is scored as the sum over pages of log P(boundary) where a document starts
and log P(no boundary) where it continues, plus a weighted log length prior per document.
The prior only tips close calls (e.g. it discourages a stray one-page split inside a long
run of weakly similar pages); strong evidence from the scorer wins.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from prefect_docai.engines.doctype.features import FloatArray
from prefect_docai.engines.paperflow.signals import PageNumber

_EPS = 1e-6


@dataclass(frozen=True)
class LengthPrior:
    """Log-probabilities of document lengths 1..len(log_p); longer ones share the tail."""

    log_p: tuple[float, ...]
    tail: float
    weight: float = 0.3

    def __call__(self, length: int) -> float:
        if length <= len(self.log_p):
            return self.weight * self.log_p[length - 1]
        return self.weight * (self.tail - 0.05 * (length - len(self.log_p)))

    @classmethod
    def from_lengths(
        cls, lengths: Sequence[int], cap: int = 30, weight: float = 0.3
    ) -> LengthPrior:
        counts = np.ones(cap, dtype=np.float64)  # add-one smoothing
        for length in lengths:
            counts[min(length, cap) - 1] += 1
        probs = counts / counts.sum()
        return cls(tuple(float(math.log(p)) for p in probs), float(math.log(probs[-1])), weight)


@dataclass(frozen=True)
class PageSpan:
    """Pages the decoder reads as one document."""

    start: int
    end: int
    """Inclusive, 0-based indices into the content pages."""
    confidence: float


def page_chains(marks: Sequence[PageNumber | None]) -> tuple[list[int], list[int]]:
    """Starts and continuations a complete page-number chain fixes.

    A page marked "1 of N" (``marks[i]``, one entry per content page) opens a chain of N
    pages; the chain holds when none of the next N - 1 pages carries a mark that breaks it
    (another number, another total) and at least one of them carries the expected one (an
    OCR miss on a page in between is allowed). A holding chain starts a document at its
    first page, continues it on the others and, when its last page says "N of N", closes
    it: the next page starts a new document. Returns (starts, continuations) as sorted
    page indices."""
    starts: set[int] = set()
    inside: set[int] = set()
    n = len(marks)
    i = 0
    while i < n:
        mark = marks[i]
        if mark is None or mark.number != 1 or mark.total is None or i + mark.total > n:
            i += 1
            continue
        total = mark.total
        seen = total == 1
        holds = True
        for k in range(1, total):
            later = marks[i + k]
            if later is None:
                continue
            if later.number != k + 1 or (later.total is not None and later.total != total):
                holds = False
                break
            seen = True
        if not (holds and seen):
            i += 1
            continue
        end = i + total
        starts.add(i)
        inside.update(range(i + 1, end))
        last = marks[end - 1]
        if end < n and last is not None and last.number == total and last.total == total:
            starts.add(end)
        i = end
    starts -= inside
    return sorted(starts), sorted(inside)


def decode(
    boundary: FloatArray,
    prior: LengthPrior,
    forced: Sequence[int] = (),
    max_length: int = 300,
    joined: Sequence[int] = (),
) -> list[PageSpan]:
    """Segments over ``n = len(boundary)`` pages.

    ``boundary[i]`` is P(a document starts at page i); ``boundary[0]`` is ignored (page 0
    always starts). ``forced`` page indices must start a document (after a separator sheet);
    ``joined`` ones must continue the page before (inside a page-number chain) unless they
    are forced too.
    """
    n = len(boundary)
    if n == 0:
        return []
    b = np.clip(np.asarray(boundary, dtype=np.float64), _EPS, 1 - _EPS)
    b[0] = 1 - _EPS
    must = np.zeros(n, dtype=bool)
    must[0] = True
    for i in forced:
        if 0 <= i < n:
            must[i] = True
    can_start = np.ones(n, dtype=bool)
    for i in joined:
        if 0 < i < n and not must[i]:
            b[i] = _EPS
            can_start[i] = False
    log_start = np.log(b)
    log_cont = np.log1p(-b)
    # cont_prefix[k] = sum of log_cont[1..k-1]; a segment [s, e] continues at s+1..e.
    cont_prefix = np.concatenate([[0.0], np.cumsum(log_cont)])
    best = np.full(n + 1, -np.inf)
    back = np.zeros(n + 1, dtype=np.int64)
    best[0] = 0.0
    # forbidden continuation across a forced start: segment [s, e] may not contain a forced
    # index after s.
    last_forced = np.zeros(n, dtype=np.int64)
    current = 0
    for i in range(n):
        if must[i]:
            current = i
        last_forced[i] = current
    for e in range(n):
        lo = max(last_forced[e], e - max_length + 1)
        for s in range(lo, e + 1):
            if best[s] == -np.inf or not can_start[s]:
                continue
            score = (
                best[s]
                + (0.0 if s == 0 else log_start[s])
                + (cont_prefix[e + 1] - cont_prefix[s + 1])
                + prior(e - s + 1)
            )
            if score > best[e + 1]:
                best[e + 1] = score
                back[e + 1] = s
    segments: list[PageSpan] = []
    e = n
    while e > 0:
        s = int(back[e])
        segments.append(PageSpan(s, e - 1, 0.0))
        e = s
    segments.reverse()
    return [_with_confidence(seg, b, must) for seg in segments]


def _with_confidence(seg: PageSpan, b: FloatArray, must: FloatArray) -> PageSpan:
    """The weakest decision that shaped the segment: its start, its inner continuations and
    the start of the next document."""
    parts = [1.0 if must[seg.start] else float(b[seg.start])]
    parts.extend(float(1 - b[i]) for i in range(seg.start + 1, seg.end + 1))
    if seg.end + 1 < len(b):
        parts.append(1.0 if must[seg.end + 1] else float(b[seg.end + 1]))
    return PageSpan(seg.start, seg.end, round(min(parts), 4))
