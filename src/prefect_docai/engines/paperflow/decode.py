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
    def from_lengths(cls, lengths: Sequence[int], cap: int = 30, weight: float = 0.3) -> LengthPrior:
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


def decode(
    boundary: FloatArray,
    prior: LengthPrior,
    forced: Sequence[int] = (),
    max_length: int = 300,
) -> list[PageSpan]:
    """Segments over ``n = len(boundary)`` pages.

    ``boundary[i]`` is P(a document starts at page i); ``boundary[0]`` is ignored (page 0
    always starts). ``forced`` page indices must start a document (after a separator sheet).
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
            if best[s] == -np.inf:
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
