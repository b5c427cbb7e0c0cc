"""Small pages built from words in code, and constant confidence maps, for engine tests."""

from __future__ import annotations

import math
from collections.abc import Sequence

from prefect_docai.engines.calibration import ConfidenceMap, FieldMap
from prefect_docai.engines.extract.rows import PageLayout, build_layout
from prefect_docai.engines.page.model import Word


def words(y: float, *pieces: tuple[str, float]) -> list[Word]:
    """Tokens of one printed line: each piece's words from x, 0.009 wide per character."""
    out = []
    for text, x in pieces:
        for word in text.split():
            width = 0.009 * len(word)
            out.append(Word(word, (x, y, x + width, y + 0.012), 1.0, font_size=9.0))
            x += width + 0.006
    return out


def layout(*lines: list[Word]) -> PageLayout:
    """One A4 text-layer page of ``lines``."""
    return build_layout(1, [w for line in lines for w in line], 0.7071, "text-layer")


def constant_map(features: tuple[str, ...], fields: Sequence[str], value: float) -> ConfidenceMap:
    """Every one of ``fields`` at ``value``, whatever its raw score (raw > 0)."""
    z = math.log(value / (1 - value))
    return ConfidenceMap(
        features, {name: FieldMap((0.0,) * len(features), z) for name in fields}, {}
    )
