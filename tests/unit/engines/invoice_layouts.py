"""Page layouts for invoice party tests: lines of segments set in a 9-point font."""

from __future__ import annotations

from collections.abc import Sequence

from prefect_docai.engines.extract.rows import PageLayout, build_layout
from prefect_docai.engines.page.model import Word

Line = tuple[float, Sequence[tuple[float, str]]]
"""(y, [(x of a segment, its text), ...]), in page fractions."""


def layout(
    lines: Sequence[Line], *, source: str = "text-layer", confidence: float = 1.0
) -> PageLayout:
    """An A4 page's layout of ``lines``: each word as wide as its letters, the words of a
    segment a small gap apart; ``source`` ``"ocr"`` and a lower ``confidence`` as a scan's."""
    tokens = []
    for y, segments in lines:
        for x, text in segments:
            for word in text.split():
                width = 0.0075 * len(word)
                tokens.append(Word(word, (x, y, x + width, y + 0.011), confidence, font_size=9.0))
                x += width + 0.004
    return build_layout(1, tokens, 0.7071, source)
