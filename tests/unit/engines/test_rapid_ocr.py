"""RapidOCR in the page model (engines/page/rapid.py): a generated receipt photographed by
the sample generator reads into boxed words, the recognizer can be forced either way
(load_document's ``ocr_engine``, ``DOCAI_OCR_ENGINE``), and a blank image gives no words."""

from __future__ import annotations

import io
from functools import cache

import numpy as np
import pytest
from PIL import Image

from prefect_docai.engines.page import document as page_document
from prefect_docai.engines.page import rapid
from prefect_docai.engines.page.ctc import PUNCT_FEATURES, RESPELL_FEATURES, Frames, greedy_spans
from prefect_docai.engines.page.document import load_document, ocr_engine_setting
from prefect_docai.engines.page.ocr import OcrWord
from prefect_docai.engines.pluginspec import EngineOptions
from prefect_docai.engines.receipt import ReceiptEngine
from prefect_docai.models.results import ReceiptResult
from prefect_docai.samples import generate
from prefect_docai.samples.scan import photograph

needs_rapid = pytest.mark.skipif(not rapid.available(), reason="rapidocr_onnxruntime missing")


@cache
def _receipt() -> tuple[bytes, dict[str, object]]:
    document = generate("receipt", seed=3, lang="en")
    return photograph(document.pdf, seed=3), document.truth


def _fold(text: str) -> str:
    return "".join(text.split()).casefold()


@needs_rapid
def test_reads_a_photographed_receipt_into_boxed_words() -> None:
    data, truth = _receipt()
    with Image.open(io.BytesIO(data)) as image:
        rgb = np.asarray(image.convert("RGB"))
    words = rapid.recognize(rgb)
    assert len(words) >= 15
    height, width = rgb.shape[:2]
    for word in words:
        x0, y0, x1, y1 = word.box
        assert 0 <= x0 < x1 <= width and 0 <= y0 < y1 <= height, word
        assert 0.0 <= word.confidence <= 1.0
        assert word.text and not any(c.isspace() for c in word.text)
    text = _fold("".join(w.text for w in words))
    total = str(truth["total"])
    assert total.replace(".", "") in text.replace(".", "").replace(",", "")
    merchant = str(truth["merchant"]["name"])  # type: ignore[index]
    assert _fold(merchant)[:8] in text
    # words, not lines: most lines of a receipt have more than one word
    assert len(words) > len({w.line for w in words}) * 1.3


def test_split_at_spaces_and_ink_gaps() -> None:
    """A line without spaces is cut where the crop has a wide blank run between glyphs."""
    gray = np.full((40, 220), 255, np.uint8)
    for x0 in (10, 30, 50, 120, 140):  # "ABC" then a wide gap, then "DE"
        gray[10:30, x0 : x0 + 14] = 0
    boxes = [[[x, 10], [x + 14, 10], [x + 14, 30], [x, 30]] for x in (10, 30, 50, 120, 140)]
    line = [
        [[8, 8], [160, 8], [160, 32], [8, 32]],
        "ABCDE",
        0.9,
        boxes,
        list("ABCDE"),
        [0.9, 0.8, 0.9, 0.7, 0.9],
    ]
    words = rapid.split_lines([line], gray)
    assert [w.text for w in words] == ["ABC", "DE"]
    assert words[0].box[2] <= words[1].box[0]
    assert words[1].confidence == pytest.approx(0.8)
    # no character boxes: the recognizer's spaces, boxes shared out by length
    plain = rapid.split_lines([[[[0, 0], [100, 0], [100, 10], [0, 10]], "AB CD", 0.7]], None)
    assert [w.text for w in plain] == ["AB", "CD"]
    assert plain[0].box[2] <= plain[1].box[0]


@needs_rapid
def test_blank_image_gives_no_words() -> None:
    assert rapid.recognize(np.full((400, 300, 3), 255, np.uint8)) == []
    assert rapid.recognize(np.full((5, 5), 0, np.uint8)) == []
    buffer = io.BytesIO()
    Image.new("RGB", (600, 900), "white").save(buffer, format="PNG")
    with load_document(buffer.getvalue(), ocr_engine="rapid") as document:
        assert document.pages[0].words == []
    result = ReceiptEngine().run(buffer.getvalue(), EngineOptions()).result
    assert isinstance(result, ReceiptResult)
    assert result.total is None and result.date is None


def test_engine_can_be_forced(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[int, ...]] = []

    def fake(image: np.ndarray) -> list[OcrWord]:
        calls.append(image.shape)
        return [OcrWord("FORCED", (10.0, 10.0, 200.0, 40.0), 0.9, 0, 0)]

    monkeypatch.setattr(rapid, "recognize", fake)
    monkeypatch.setattr(rapid, "available", lambda: True)
    data, _ = _receipt()
    with load_document(data, ocr_engine="rapid") as document:
        assert [w.text for w in document.pages[0].words] == ["FORCED"]
    assert len(calls) == 1
    with load_document(data, ocr_engine="tesseract") as document:
        assert "FORCED" not in document.pages[0].text
    assert len(calls) == 1
    monkeypatch.setenv("DOCAI_OCR_ENGINE", "rapid")
    assert ocr_engine_setting() == "rapid"
    result = ReceiptEngine().run(data, EngineOptions()).result
    assert isinstance(result, ReceiptResult)
    assert len(calls) == 2  # the receipt tool reads through the same page loader
    monkeypatch.setenv("DOCAI_OCR_ENGINE", "tesseract")
    with load_document(data) as document:
        assert document.ocr_engine == "tesseract"
    monkeypatch.setenv("DOCAI_OCR_ENGINE", "paddle")
    with pytest.raises(ValueError, match="DOCAI_OCR_ENGINE"):
        ocr_engine_setting()


def test_auto_routes_by_the_measured_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[bool] = []
    monkeypatch.setattr(rapid, "available", lambda: True)
    monkeypatch.setattr(
        rapid, "recognize", lambda image: [OcrWord("RAPID", (1.0, 1.0, 50.0, 20.0), 0.9, 0, 0)]
    )
    monkeypatch.setattr(page_document, "prefers_rapid", lambda image: seen.append(True) or True)
    data, _ = _receipt()
    with load_document(data, ocr_engine="auto") as document:
        assert document.pages[0].text == "RAPID"
    assert seen == [True]


def test_each_reading_hands_the_freed_heap_back(monkeypatch: pytest.MonkeyPatch) -> None:
    """recognize() trims the C heap after every reading, also when the reading fails
    (without it a worker's resident set grew about 4 MB per receipt)."""
    calls: list[int] = []
    monkeypatch.setattr(rapid, "release_freed", lambda: calls.append(1))

    def engine(image: object, **_: object) -> tuple[list[object], None]:
        if calls:
            raise RuntimeError("reading failed")
        return [], None

    monkeypatch.setattr(rapid, "_engine", engine)
    page = np.tile(np.arange(0, 256, 8, dtype=np.uint8), (32, 1))
    assert rapid.recognize(page) == []
    with pytest.raises(RuntimeError):
        rapid.recognize(page)
    assert calls == [1, 1]
    monkeypatch.undo()
    rapid.release_freed()  # the real one: glibc's malloc_trim, or nothing


@needs_rapid
def test_a_german_receipt_read_by_rapidocr_keeps_its_umlauts() -> None:
    """RapidOCR's recognizer has no umlauts ("Getranke"); on a German page Tesseract's German
    model reads the words that may have lost them again."""
    document = generate("receipt", seed=0, lang="de", template="receipt-tax-invoice")
    name = str(document.truth["merchant"]["name"])  # type: ignore[index]
    assert any(c in "äöüß" for c in name)
    data = photograph(document.pdf, seed=0)
    with load_document(data, languages=("deu", "eng"), ocr_engine="rapid") as loaded:
        text = loaded.pages[0].text
    assert name in text
    assert any(c in "äöü" for c in text.replace(name, ""))  # item names too, not only the name


@needs_rapid
def test_an_english_receipt_read_by_rapidocr_is_not_germanised() -> None:
    document = generate("receipt", seed=0, lang="en", template="receipt-tax-invoice")
    data = photograph(document.pdf, seed=0)
    with load_document(data, languages=("deu", "eng"), ocr_engine="rapid") as loaded:
        text = loaded.pages[0].text
    assert not any(c in "äöüÄÖÜß" for c in text)


def test_a_page_within_the_pixel_budget_is_read_as_it_is() -> None:
    image = np.zeros((2000, 1500, 3), dtype=np.uint8)
    same, scale = rapid.within_budget(image)
    assert same is image and scale == 1.0


def test_a_larger_page_is_shrunk_to_the_budget_keeping_its_shape() -> None:
    image = np.full((3600, 1800, 3), 255, dtype=np.uint8)
    small, scale = rapid.within_budget(image)
    height, width = small.shape[:2]
    assert height * width <= rapid.PIXEL_BUDGET * 1.01
    assert scale == pytest.approx(height / 3600, abs=0.002)
    assert width / height == pytest.approx(0.5, abs=0.002)


def test_a_long_receipt_keeps_more_resolution_than_a_2000_px_bound_gives() -> None:
    """A 300-dpi till receipt (880 × 3,400 px) used to be shrunk to 2,000 px tall."""
    _, scale = rapid.within_budget(np.zeros((3400, 880, 3), dtype=np.uint8))
    assert scale > 2000 / 3400 * 1.5


@needs_rapid
def test_words_of_a_shrunk_page_come_back_in_its_own_pixels() -> None:
    data, truth = _receipt()
    with Image.open(io.BytesIO(data)) as image:
        big = image.convert("RGB").resize((image.width * 2, image.height * 2))
        rgb = np.asarray(big)
    assert rgb.shape[0] * rgb.shape[1] > rapid.PIXEL_BUDGET
    words = rapid.recognize(rgb)
    height, width = rgb.shape[:2]
    assert len(words) >= 15
    for word in words:
        x0, y0, x1, y1 = word.box
        assert 0 <= x0 < x1 <= width and 0 <= y0 < y1 <= height, word
    # the words span the receipt at its doubled size, not the shrunk one's
    assert max(w.box[3] for w in words) > 0.6 * height
    total = str(truth["total"]).replace(".", "")
    assert total in _fold("".join(w.text for w in words)).replace(".", "").replace(",", "")


def test_the_lexicon_says_where_a_glued_line_splits_into_words() -> None:
    chars = list("TAXINVOICE")
    kept = list(range(len(chars)))
    rows = rapid.word_features(chars, kept, [False] * 9, frozenset({"TAX", "INVOICE"}))
    ends, starts, whole, across = zip(*rows, strict=True)
    assert ends[2] == 3 and starts[2] == 7  # "TAX" ends and "INVOICE" starts between X and I
    assert max(ends[:2] + ends[3:]) == 0 and max(starts[:2] + starts[3:]) == 0
    assert set(whole) == {0.0}
    assert across[2] == 0 and across[5] == 7  # inside "INVOICE" a word reaches across
    joined = rapid.word_features(
        list("SUBTOTAL"), list(range(8)), [False] * 7, frozenset({"SUBTOTAL"})
    )
    assert all(row[2] == 1.0 for row in joined)


def test_the_recognizer_s_own_space_and_a_digit_bound_the_run_looked_up() -> None:
    chars = list("TAX1INVOICE")
    kept = list(range(len(chars)))
    rows = rapid.word_features(chars, kept, [False] * 10, frozenset({"TAXINVOICE", "INVOICE"}))
    assert rows[2] == [0.0, 0.0, 0.0, 0.0]  # "TAX" before the digit is no word
    assert rows[3] == [0.0, 7.0, 0.0, 0.0]  # after it "INVOICE" starts
    assert rows[4][2] == 1.0  # the digit ends the run: "INVOICE" after it is a whole word
    spaced = rapid.word_features(
        list("TAXINVOICE"),
        list(range(10)),
        [False, False, True] + [False] * 6,
        frozenset({"TAXINVOICE"}),
    )
    # the recognizer's space cuts the run (its own pair is split whatever the scorer says)
    assert all(row[2] == 0.0 for k, row in enumerate(spaced) if k != 2)
    assert rapid.word_features(chars, kept, [False] * 10, frozenset()) == [[0.0] * 4] * 10


def test_a_run_of_glued_words_is_cut_where_its_best_lexicon_reading_cuts() -> None:
    known = frozenset({"THANK", "YOU", "FOR", "YOUR", "PATRONAGE", "PAT"})
    text = "THANKYOUFORYOURPATRONAGE"
    cuts, covered = rapid.segmentation(text, known)
    assert cuts == {5, 8, 11, 15} and covered == len(text)  # not "PAT" + "RONAGE"
    rows = rapid.segment_features(list(text), list(range(len(text))), [False] * 23, known)
    assert [k for k, row in enumerate(rows) if row[0] == 1.0] == [4, 7, 10, 14]
    assert {row[1] for row in rows} == {1.0}
    # a digit ends the run; a run no word covers is single letters, cut everywhere
    rows = rapid.segment_features(list("QXZ7YOU"), list(range(7)), [False] * 6, known)
    assert rows[2] == [-1.0, -1.0] and rows[3] == [-1.0, -1.0]
    assert rows[0] == [1.0, 0.0] and rows[4] == [0.0, 1.0]


def test_a_capital_before_a_small_letter_after_capitals_is_a_feature() -> None:
    chars = list("GSTSummary")
    boxes = [[[10 * i, 0], [10 * i + 8, 0], [10 * i + 8, 20], [10 * i, 20]] for i in range(10)]
    _, _, rows = rapid.pair_features(None, (0, 0, 100, 20), chars, boxes, 20.0)
    column = [row[rapid.SPACE_FEATURES.index("upper_capital")] for row in rows]
    assert column == [0.0, 0.0, 1.0] + [0.0] * 6


def test_the_frames_between_two_characters_say_how_likely_a_space_was() -> None:
    classes = ("", "T", "A", "X", "I", " ")
    # "TAXI" read greedily, no space: between X and I the space class came a close second
    rows = [{"T": 0.9}, {"": 0.9}, {"A": 0.9}, {"": 0.9}, {"X": 0.9}, {"": 0.5, " ": 0.45}]
    rows += [{"": 0.9}, {"": 0.9}, {"I": 0.9}]
    frames = _frames(rows, classes, "TAXI")
    chars = list("TAXI")
    features = rapid.frame_features(frames, chars, [(0, 1), (1, 2), (2, 3)])
    space, gap, relative = zip(*features, strict=True)
    assert space[2] == pytest.approx(0.45) and max(space[:2]) < 0.01
    assert gap == (1.0, 1.0, 3.0) and relative[2] == 1.5  # three blank frames, line median 1
    # without frames (or with frames of another reading) the features are missing
    assert rapid.frame_features(None, chars, [(0, 1)]) == [[-1.0, -1.0, -1.0]]
    assert rapid.frame_features(frames, chars[:3], [(0, 1)]) == [[-1.0, -1.0, -1.0]]


def test_the_packaged_space_scorer_reads_its_own_lexicon() -> None:
    words = rapid.space_lexicon()
    assert {"TOTAL", "INVOICE", "CASH", "SUMME"} <= words
    scorer = rapid._space_model()
    assert scorer is not None and scorer.features == rapid.SPACE_FEATURES


def _frames(rows: list[dict[str, float]], classes: tuple[str, ...], text: str) -> Frames:
    probs = np.full((len(rows), len(classes)), 1e-4)
    for t, row in enumerate(rows):
        for name, p in row.items():
            probs[t, classes.index(name)] = p
    best = probs.argmax(axis=1)
    return Frames(np.log(probs).astype(np.float32), classes, tuple(greedy_spans(best)), text, 0.9)


def _jalau_line() -> list[object]:
    """A line read "JALAU 7" whose frames hold "N" a close second where "U" won."""
    classes = ("", "J", "A", "L", "U", "N", " ", "7")
    rows: list[dict[str, float]] = []
    for char in "JALA":
        rows += [{char: 0.95}, {"": 0.95}]
    rows += [{"U": 0.5, "N": 0.45}, {"": 0.95}, {" ": 0.9}, {"7": 0.95}]
    frames = _frames(rows, classes, "JALAU 7")
    chars = list("JALAU 7")
    boxes = [[[10 * i, 0], [10 * i + 8, 0], [10 * i + 8, 20], [10 * i, 20]] for i in range(7)]
    return [[[0, 0], [70, 0], [70, 20], [0, 20]], "JALAU 7", 0.9, boxes, chars, [0.9] * 7, frames]


def test_a_word_takes_the_lexicon_spelling_its_frames_support_when_the_scorer_says_so() -> None:
    line = _jalau_line()
    lexicon = frozenset({"JALAN"})
    asked: list[tuple[str, str, int]] = []

    def yes(found: object, line_id: int) -> bool:
        asked.append((found.text, found.word, line_id))  # type: ignore[attr-defined]
        return True

    words = rapid.split_lines([line], None, model=None, lexicon=lexicon, respell=yes)
    assert [w.text for w in words] == ["JALAN", "7"]
    assert asked == [("JALAU", "JALAN", 0)]
    kept = rapid.split_lines([line], None, model=None, lexicon=lexicon, respell=None)
    assert [w.text for w in kept] == ["JALAU", "7"]
    # a line without frames is read as it is
    bare = rapid.split_lines([line[:6]], None, model=None, lexicon=lexicon, respell=yes)
    assert [w.text for w in bare] == ["JALAU", "7"]


def _alam_line() -> list[object]:
    """A line read "ALAM 1.5" whose frames hold a faint comma after "M" (dropped at the
    greedy reading) and a comma second to the full stop between the digits."""
    classes = ("", "A", "L", "M", " ", "1", "5", ",", ".")
    rows: list[dict[str, float]] = []
    for char in "ALAM":
        rows += [{char: 0.95}, {"": 0.95}]
    rows[-1] = {"": 0.7, ",": 0.25}
    rows += [{" ": 0.9}, {"1": 0.95}, {"": 0.95}, {".": 0.5, ",": 0.4}, {"": 0.95}, {"5": 0.95}]
    frames = _frames(rows, classes, "ALAM 1.5")
    chars = list("ALAM 1.5")
    boxes = [[[10 * i, 0], [10 * i + 8, 0], [10 * i + 8, 20], [10 * i, 20]] for i in range(8)]
    return [[[0, 0], [80, 0], [80, 20], [0, 20]], "ALAM 1.5", 0.9, boxes, chars, [0.9] * 8, frames]


def test_the_punctuation_scorer_decides_each_comma_candidate_of_a_line() -> None:
    line = _alam_line()
    asked: list[tuple[int, bool, int]] = []

    def comma(found: object, line_id: int) -> bool:
        asked.append((found.index, found.dropped, line_id))  # type: ignore[attr-defined]
        return True

    words = rapid.split_lines([line], None, model=None, respell=None, punctuate=comma)
    assert [w.text for w in words] == ["ALAM,", "1,5"]
    assert asked == [(3, True, 0), (6, False, 0)]
    no = rapid.split_lines([line], None, model=None, respell=None, punctuate=lambda f, i: False)
    assert [w.text for w in no] == ["ALAM", "1.5"]
    kept = rapid.split_lines([line], None, model=None, respell=None, punctuate=None)
    assert [w.text for w in kept] == ["ALAM", "1.5"]


def test_a_comma_after_a_respelled_word_follows_the_new_spelling() -> None:
    from prefect_docai.engines.page.ctc import Respelling, spelled_word

    chars = list("JALAU,7")
    found = Respelling((0, 1, 2, 3, 4), "JALAU", "JALAN", ())
    assert spelled_word(chars, range(5), {}, {4: ","}, found) == "JALAN,"
    assert spelled_word(chars, range(7), {5: "."}, {}, found) == "JALAN.7"
    assert spelled_word(chars, range(7)) == "JALAU,7"


def test_the_packaged_punctuation_scorer_follows_the_frames() -> None:
    import math

    from prefect_docai.engines.learned import packaged

    scorer = packaged(rapid.PUNCT_MODEL, PUNCT_FEATURES)
    assert scorer is not None

    def probability(**values: float) -> float:
        row = dict.fromkeys(PUNCT_FEATURES, 0.0) | values
        return scorer.probability([row[name] for name in PUNCT_FEATURES])

    # A comma left out after an address line's last word, its frames giving it 0.3 ...
    line_end = {"dropped": 1.0, "line_end": 1.0, "left_upper": 1.0, "right_none": 1.0}
    line_end |= {"dot_log": math.log(0.001), "space_log": math.log(0.01), "frames": 3.0}
    likely = line_end | {"comma_log": math.log(0.3), "margin": math.log(300)}
    assert probability(**likely) >= rapid.PUNCT_THRESHOLD
    # ... is put back; one the frames give 0.02 is not,
    faint = line_end | {"comma_log": math.log(0.02), "margin": math.log(20)}
    assert probability(**faint) < rapid.PUNCT_THRESHOLD
    # and an amount's full stop stays one.
    amount = {"read_dot": 1.0, "left_digit": 1.0, "right_digit": 1.0, "digits_around": 1.0}
    amount |= {"comma_log": math.log(0.005), "dot_log": math.log(0.99), "frames": 2.0}
    amount |= {"space_log": math.log(0.001), "margin": math.log(0.005 / 0.99)}
    assert probability(**amount) < rapid.PUNCT_THRESHOLD


def test_the_packaged_respelling_scorer_follows_the_frames() -> None:
    from prefect_docai.engines.learned import packaged

    scorer = packaged(rapid.RESPELL_MODEL, RESPELL_FEATURES)
    assert scorer is not None
    # A five-letter word with one lexicon word near it, one edit away, its letters read
    # at middling confidence (the pool's typical respelled word) ...
    typical = dict(
        zip(RESPELL_FEATURES, (-1.5, 50.0, -0.04, 5.0, 0.0, 0.0, 1.0, 0.69, 0.92), strict=True)
    )
    assert scorer.probability(list(typical.values())) >= rapid.RESPELL_THRESHOLD
    # ... is left alone when the frames all but rule the lexicon word out,
    ruled_out = typical | {"gain": -25.0}
    assert scorer.probability(list(ruled_out.values())) < rapid.RESPELL_THRESHOLD
    # and so is a confidently read word whose neighbour would drop a letter.
    confident = typical | {"gain": -6.4, "lead": 5.5, "length_change": -1.0}
    confident |= {"min_confidence": 0.93, "mean_confidence": 0.98}
    assert scorer.probability(list(confident.values())) < rapid.RESPELL_THRESHOLD


def test_with_frames_pairs_each_kept_line_with_its_crop() -> None:
    line = _jalau_line()
    frames = line[6]
    assert isinstance(frames, Frames)
    weak = Frames(frames.log_probs, frames.classes, frames.spans, "XX", 0.2)
    result = [line[:6]]
    paired = rapid.with_frames(result, [weak, frames])  # the weak crop was dropped by RapidOCR
    assert paired[0][6] is frames
    # crops that do not line up with the lines leave the lines without frames
    assert rapid.with_frames(result, [weak]) == [line[:6]]


@needs_rapid
def test_the_engine_keeps_the_recognizer_frames_of_every_line() -> None:
    data, _ = _receipt()
    with Image.open(io.BytesIO(data)) as image:
        bgr = np.ascontiguousarray(np.asarray(image.convert("RGB"))[:, :, ::-1])
    engine = rapid._load()
    result, _ = engine(bgr, return_word_box=True, text_score=rapid.MIN_LINE_CONFIDENCE)
    lines = rapid.with_frames(result, engine.text_rec.last)
    assert len(lines) >= 10
    for line in lines:
        frames = line[6]
        assert isinstance(frames, Frames) and frames.text == line[1]
        assert len(frames.spans) == len(line[4])  # one span per character read
        assert frames.log_probs.shape[1] == len(frames.classes) < 300


@needs_rapid
def test_a_short_crop_is_read_without_the_320_px_floor() -> None:
    """RapidOCR pads every crop to at least 320 px; a short word is read from an input as
    wide as itself (rapid.REC_MIN_WIDTH), which the recognizer's frame count shows (one
    frame per 8 px of input)."""
    from PIL import ImageDraw, ImageFont

    image = Image.new("L", (420, 160), 255)
    font = ImageFont.load_default(size=40)
    ImageDraw.Draw(image).text((40, 50), "RM 5", fill=0, font=font)
    words = rapid.recognize(np.asarray(image))
    assert "".join(w.text for w in words).replace(" ", "") == "RM5"
    recorder = rapid._load().text_rec
    frames = [f for f in recorder.last if f is not None]
    assert len(frames) == 1
    assert frames[0].log_probs.shape[0] < 320 // 8
