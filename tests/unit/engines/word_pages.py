"""Small pages built from words in code, and constant confidence maps, for engine tests."""

from __future__ import annotations

import io
import math
from collections.abc import Sequence

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from prefect_docai.engines.calibration import ConfidenceMap, FieldMap
from prefect_docai.engines.extract.rows import PageLayout, build_layout
from prefect_docai.engines.page import ocr
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


def table_png() -> bytes:
    """A PNG (300 dpi) of an unruled four-column table, header and five rows: an image
    upload, no PDF, for the table engine's steps that read the page's raster again."""
    image = Image.new("L", (1700, 1100), 255)
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default(size=30)
    rows = [["Item", "Qty", "Price", "Sum"]]
    rows += [[f"Part {r}", str(r * 3), f"{r * 7}.50", f"{r * 21}.00"] for r in range(1, 6)]
    for r, row in enumerate(rows):
        for c, text in enumerate(row):
            draw.text((100 + c * 380, 100 + r * 70), text, fill=0, font=font)
    buffer = io.BytesIO()
    image.save(buffer, "PNG", dpi=(300, 300))
    return buffer.getvalue()


def record_single_lines(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """The words of every Tesseract read as one text line (PSM 7), one list per read,
    appended as the test runs (Tesseract still reads)."""
    reads: list[list[str]] = []
    recognize = ocr.recognize

    def recorded(
        gray: np.ndarray, dpi: int, languages: str, psm: int | None = None
    ) -> list[ocr.OcrWord]:
        got = recognize(gray, dpi, languages, psm)
        if psm == 7:
            reads.append([w.text for w in got])
        return got

    monkeypatch.setattr(ocr, "recognize", recorded)
    return reads
