"""Scanned pages' table inputs made like a born-digital page's (engines/tables/inputs.py,
engines/tables/reread.py): text strokes are no rules, ruled grids get a second OCR look."""

from __future__ import annotations

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from prefect_docai.engines.page.model import Word
from prefect_docai.engines.tables.geometry import Box, PageInput, PointWord, Ruling
from prefect_docai.engines.tables.inputs import drop_text_strokes
from prefect_docai.engines.tables.reread import reread_tables


def _word(text: str, box: Box) -> PointWord:
    return PointWord(Word(text, (0.0, 0.0, 0.0, 0.0), 0.9), box)


def test_strokes_inside_words_are_dropped_and_rules_around_them_stay() -> None:
    words = [_word("Personnel", Box(70, 168, 104, 175)), _word("costs", Box(107, 168, 125, 175))]
    baseline = Ruling(72, 174, 103, 174)  # runs along the bottom of the ink
    x_height = Ruling(107, 170, 125, 170)
    above = Ruling(60, 168, 300, 168)  # a row rule touching the tops of the words
    below = Ruling(60, 177, 300, 177)  # an underline just below them
    across = Ruling(60, 172, 400, 172)  # a long rule mostly away from text
    vertical = Ruling(105, 150, 105, 200)
    kept = drop_text_strokes([baseline, x_height, above, below, across, vertical], words)
    assert kept == [above, below, across, vertical]


def test_flat_words_do_not_hide_a_rule() -> None:
    # OCR reads a rule under a cell as a flat "word" (``Ss``): the rule is no text stroke
    words = [_word("Ss", Box(60, 236.9, 230, 237.1)), _word("Industria", Box(66, 242, 113, 249))]
    rule = Ruling(56, 237, 230, 237)
    assert drop_text_strokes([rule], words) == [rule]


def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    for name in ("DejaVuSans.ttf", "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"):
        try:
            return ImageFont.truetype(name, size)
        except OSError:
            continue
    return ImageFont.load_default()


def test_a_ruled_grid_gets_a_second_look_where_ocr_read_nothing() -> None:
    dpi = 300
    scale = dpi / 72
    width_pt, height_pt = 400.0, 200.0
    image = Image.new("L", (int(width_pt * scale), int(height_pt * scale)), 255)
    draw = ImageDraw.Draw(image)
    xs = [40.0, 160.0, 250.0, 340.0]
    ys = [40.0, 60.0, 80.0, 100.0]
    # grey shading behind one value, as significant cells often have
    draw.rectangle([xs[1] * scale, ys[1] * scale, xs[2] * scale, ys[2] * scale], fill=170)
    font = _font(int(9 * scale))
    rows = [("Measure", "Age 3", "Age 4"), ("Letters", "0.35", "NA"), ("Vocabulary", "0.18", "NA")]
    for r, row in enumerate(rows):
        for c, text in enumerate(row):
            draw.text(((xs[c] + 6) * scale, (ys[r] + 5) * scale), text, fill=0, font=font)
    segments = [Ruling(xs[0], y, xs[-1], y) for y in ys] + [Ruling(x, ys[0], x, ys[-1]) for x in xs]
    for s in segments:
        draw.line([(s.x0 * scale, s.y0 * scale), (s.x1 * scale, s.y1 * scale)], fill=60, width=3)
    gray = np.asarray(image, dtype=np.uint8)
    # the page's own OCR read the first column only
    first = [
        _word(row[0], Box(xs[0] + 6, ys[r] + 5, xs[0] + 50, ys[r] + 14))
        for r, row in enumerate(rows)
    ]
    page = PageInput(1, width_pt, height_pt, first, segments, ocr=True)
    added = reread_tables(page, gray, dpi, "eng")
    texts = [w.text for w in added]
    assert {"0.35", "0.18", "Age"} <= set(texts) and texts.count("NA") == 2
    assert not {"Measure", "Letters", "Vocabulary"} & set(texts)  # read once, not twice
    for w in added:
        assert xs[1] <= w.box.cx <= xs[-1] and ys[0] <= w.box.cy <= ys[-1]


def test_no_ruled_grid_no_second_look() -> None:
    gray = np.full((100, 100), 255, dtype=np.uint8)
    page = PageInput(1, 24.0, 24.0, [], [Ruling(2, 2, 20, 2)], ocr=True)
    assert reread_tables(page, gray, 300, "eng") == []


def _reference_drop(segments: list[Ruling], words: list[PointWord]) -> list[Ruling]:
    """drop_text_strokes as it was written word by word (before the boxes were columns)."""
    from prefect_docai.engines.tables.inputs import STROKE_COVER, _em

    em = _em(words)
    out = []
    for s in segments:
        if not s.horizontal:
            out.append(s)
            continue
        lo, hi = min(s.x0, s.x1), max(s.x0, s.x1)
        spans = sorted(
            (max(lo, w.box.x0), min(hi, w.box.x1))
            for w in words
            if w.box.height >= 0.5 * em
            and w.box.y0 + 1.0 <= s.y0 <= w.box.y1 + 0.5
            and min(hi, w.box.x1) > max(lo, w.box.x0)
        )
        covered, reach = 0.0, lo
        for a, b in spans:
            a = max(a, reach)
            if b > a:
                covered += b - a
                reach = b
        if covered < 0.6 * (hi - lo):
            out.append(s)
    assert STROKE_COVER == 0.6
    return out


def _random_words(rng: np.random.Generator, count: int) -> list[PointWord]:
    words = []
    for k in range(count):
        x0, y0 = rng.uniform(0, 560), rng.uniform(0, 780)
        # line heights around the page's usual one, some flat (rules read as words)
        w, h = rng.uniform(5, 80), rng.choice([rng.uniform(6, 12), rng.uniform(0.1, 3)])
        words.append(_word(f"w{k}", Box(x0, y0, x0 + w, y0 + h)))
    return words


def test_the_boxes_as_columns_decide_as_word_by_word() -> None:
    """drop_text_strokes and the reread's free test take the words' boxes as columns: the
    same float tests, so the same answers, as one word at a time (random pages, with
    segments and boxes on the words' very edges)."""
    from prefect_docai.engines.tables.reread import _free, _free_of

    rng = np.random.default_rng(7)
    for _ in range(20):
        words = _random_words(rng, 300)
        segments = [
            Ruling(x, y, x + rng.uniform(5, 200), y)
            for x, y in zip(rng.uniform(0, 500, 150), rng.uniform(0, 790, 150), strict=True)
        ]
        # on a word's top (+1) and bottom (+0.5) exactly: the tests' bounds
        segments += [Ruling(w.box.x0 - 2, w.box.y0 + 1.0, w.box.x1 + 3, w.box.y0 + 1.0)
                     for w in words[:20]]
        segments += [Ruling(w.box.x0, w.box.y1 + 0.5, w.box.x1, w.box.y1 + 0.5)
                     for w in words[20:40]]
        segments.append(Ruling(100, 100, 100, 300))
        kept = drop_text_strokes(segments, words)
        assert kept == _reference_drop(segments, words)
        assert 0 < len(kept) < len(segments)  # both kinds met
        free = _free_of(words)
        boxes = [b.box for b in _random_words(rng, 200)]
        boxes += [Box(w.box.x1 + 1.0 - 4, w.box.y0, w.box.x1 + 1.0 + 4, w.box.y1) for w in words[:30]]
        answers = [free(b) for b in boxes]
        assert answers == [_free(b, words) for b in boxes]
        assert any(answers) and not all(answers)
    assert _free_of([])(Box(0, 0, 10, 10)) and drop_text_strokes([], []) == []
