"""RapidOCR (PP-OCRv4 text detection and recognition, ONNX): the recognizer for photos
and receipts, beside Tesseract (:mod:`prefect_docai.engines.page.ocr`).

``rapidocr_onnxruntime`` ships its three models (16 MB) inside the wheel; nothing is
downloaded. Its detector, recognizer and line-direction classifier run as rewritten here (:data:`DERIVED_MODELS`,
``engines/data/rapid_*.onnx``, 16 MB, built from the wheel's files by
``training/rapid_models.py``): the same functions in a form onnxruntime fuses, which reads
a 300-dpi German till receipt in 0.6 of the time (same words and boxes on the SROIE pool's
240 images and the visible receipts). The ONNX sessions are made once per process, on first use, with one intra-op
thread (a worker uses one core per page, as Tesseract does). The ONNX sessions are not
shared between threads without a lock, so pages of one process are recognized one at a
time here.

RapidOCR reads text lines (quadrilaterals) with a box per character. Its recognizer was
trained mostly on Chinese and often drops the space between Latin words
("ABCHOTRADING"), so a line is split into words at the recognizer's own spaces and also
between two characters where the line's crop has a blank column run at least
:data:`SPLIT_GAP` line heights wide between their centres and the centres are more than
:data:`SPLIT_PITCH` median character pitches apart (both chosen on one merchant-grouped
half of the SROIE training pool and held on the other: ``benchmarks.ocr_receipts``). CJK
characters are dropped (the tools read Latin-script languages).

A word the space scorer's lexicon does not know but that is near a lexicon word
("JALAU", "Alain") may be respelled: :class:`~prefect_docai.engines.page.ctc.FrameRecorder`
keeps the recognizer's per-frame probabilities of each line, and a learned scorer
(:data:`RESPELL_MODEL`) weighs how much better they support the lexicon word than the
reading (:func:`split_lines`). The same frames say where the greedy reading put a full stop
for a comma or dropped a comma (most often at a line's end: "SETIA ALAM,"); a learned
scorer (:data:`PUNCT_MODEL`, :func:`~prefect_docai.engines.page.ctc.punctuation_candidates`)
decides each such point. A letter or digit read as its look-alike ("L0CAL", "475OO") is
spelled as the frames' next-best letter or digit where a learned scorer
(:mod:`~prefect_docai.engines.page.confusion`) says so.

Use :func:`available` before :func:`recognize`; without the package the page loader keeps
Tesseract.

Memory: RapidOCR's sessions run with onnxruntime's CPU arena off, so every reading
allocates its activations (shaped by the page) from the C heap and frees them again. glibc
keeps much of what was freed (its mmap threshold rises after large frees, up to 32 MB, and
pages of different sizes leave holes), so a worker's resident set grew with every receipt
(525 to 867 MB over 100 SROIE receipts, peak 1076 MB). :func:`recognize` therefore hands
the freed heap back with ``malloc_trim(0)`` after each reading (:func:`release_freed`;
glibc only, a no-op elsewhere): 147 to 292 MB, peak 825 MB, for about 5 % more CPU time
(the next page faults its pages in again). Measured alternatives (30 receipts, RapidOCR
alone, before: 504 to 727 MB): the arena on with shrinkage grew more (381 to 907 MB); no
memory patterns still grew (486 to 681 MB); a fixed 128 kB mmap threshold kept 237 MB but
doubled the CPU time per page (5.2 against 2.6 s); the trim kept 235 MB. The detector
alone (page-sized activations) now runs with the arena on and shrunk after every run
(:class:`ShrinkingSession`): a 300-dpi German receipt takes about 0.2 s less CPU (system time
0.37 -> 0.20 s), peak RSS over 10 German receipts and 10 SROIE photos 868 -> 945 MB.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import importlib.util
import itertools
import json
import math
import statistics
import threading
import unicodedata
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from prefect_docai.engines.page.confusion import (
    Substituter,
    line_substitutions,
    packaged_substituter,
)
from prefect_docai.engines.page.ctc import (
    PUNCT_FEATURES,
    RESPELL_FEATURES,
    FrameRecorder,
    Frames,
    Punctuation,
    Respelling,
    punctuation_candidates,
    respell_candidate,
    spelled_word,
)
from prefect_docai.engines.page.glyphs import TailDecider, packaged_tail, tail_features
from prefect_docai.engines.page.ocr import OcrWord
from prefect_docai.engines.page.raster import Gray

SPLIT_GAP = 0.2
"""Blank column run, in line heights, that may separate two words of one line."""
SPLIT_PITCH = 1.3
"""And the two characters' centres must be this many median pitches apart."""
MIN_LINE_CONFIDENCE = 0.5
"""RapidOCR's own ``text_score``: lines read less confidently are dropped."""
PIXEL_BUDGET = 2000 * 1500
"""Pixels RapidOCR reads a page at, at most: larger pages are shrunk to it first.

RapidOCR's own bound is 2,000 px on the longer side. That bound costs a phone photo
nothing it can read, but a till receipt scanned at 300 dpi is 850-900 px wide and
2,800-3,500 px long: shrunk to 2,000 px its 15-30 px glyphs come out 9-17 px tall, and the
detector loses lines set close under others (the date under a receipt's "Datum Uhrzeit"
labels; the visible German receipts lose a date and a total that way). Bounding the area
instead, at what RapidOCR's bound leaves a 4:3 photo, keeps a long receipt's resolution
and costs a photo or an A4 page the same as before."""
REC_MIN_WIDTH = 48
"""The narrowest input the recognizer is given, in pixels at its 48-px height: one square.

RapidOCR pads every batch of crops to at least 320 px, PaddleOCR's training width, so a
short crop ("1,99", "RM", "TOTAL") was read from an input mostly of padding. Without that
floor each batch is as wide as its widest crop (the crops are sorted by width, so a batch's
crops are alike). Held out (``python -m training.ocr_spaces``, the scorers refitted on the
other fold's readings at each floor), case-folded CER / word F1 at 320 -> 48 px: fold 1
0.0393 / 0.8686 -> 0.0358 / 0.8750, fold 0 0.0457 / 0.8737 -> 0.0461 / 0.8716; the visible
German receipts read about 15 % faster (``python -m benchmarks.receipts_speed``)."""
_MAX_SIDE = 100_000
"""RapidOCR's own bound, set out of the way: :func:`recognize` has already applied
:data:`PIXEL_BUDGET`."""

_lock = threading.Lock()
_engine: Any = None
_malloc_trim: Any = None


def available() -> bool:
    """Whether ``rapidocr_onnxruntime`` (and so its models) is installed."""
    try:
        return importlib.util.find_spec("rapidocr_onnxruntime") is not None
    except (ImportError, ValueError):
        return False


DERIVED_MODELS = {
    "det": ("rapid_det.onnx", "ch_PP-OCRv4_det_infer.onnx"),
    "rec": ("rapid_rec.onnx", "ch_PP-OCRv4_rec_infer.onnx"),
    "cls": ("rapid_cls.onnx", "ch_ppocr_mobile_v2.0_cls_infer.onnx"),
}
"""The wheel's detector, recognizer and line-direction classifier rewritten to run faster (``engines/data/``, built by
``training/rapid_models.py``: the same functions, the affine blocks folded into the
convolutions and the hard-swish in a form onnxruntime fuses; on one thread the recognizer
takes 0.45, the detector 0.68 and the classifier 0.65 of the wheel's models' time), and
the wheel's model each is derived from."""
SOURCE_KEY = "docai_source_sha256"
"""Metadata key of a derived model: the sha256 of the wheel's model it was built from."""
MODELS_ENV = "DOCAI_RAPID_MODELS"
"""``wheel`` there: RapidOCR runs the wheel's own models (benchmarks compare the two)."""


def derived_models() -> dict[str, str]:
    """``det_model_path`` / ``rec_model_path`` / ``cls_model_path`` for RapidOCR: the
    derived models whose source is the installed wheel's model (by sha256), none for
    another wheel version or with :data:`MODELS_ENV` set to ``wheel``."""
    import hashlib
    import os
    from pathlib import Path

    import onnxruntime

    if os.environ.get(MODELS_ENV, "").strip().lower() == "wheel":
        return {}
    spec = importlib.util.find_spec("rapidocr_onnxruntime")
    if spec is None or spec.origin is None:
        return {}
    wheel = Path(spec.origin).parent / "models"
    data = Path(__file__).resolve().parent.parent / "data"
    paths: dict[str, str] = {}
    for kind, (name, source_name) in DERIVED_MODELS.items():
        derived, source = data / name, wheel / source_name
        if not derived.is_file() or not source.is_file():
            continue
        options = onnxruntime.SessionOptions()
        options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_DISABLE_ALL
        options.log_severity_level = 3
        meta = onnxruntime.InferenceSession(
            str(derived), options, providers=["CPUExecutionProvider"]
        ).get_modelmeta()
        source_sha = hashlib.sha256(source.read_bytes()).hexdigest()
        if meta.custom_metadata_map.get(SOURCE_KEY) == source_sha:
            paths[f"{kind}_model_path"] = str(derived)
    return paths


class TableNormalize:
    """RapidOCR's detector input (``DetPreProcess``: resized, ``(x / 255 - mean) / std`` per
    channel, channels first, float32) with the arithmetic done once per byte value: the same
    float32 values, bit for bit, without the page-sized float64 temporaries the package's
    own ``normalize`` makes (0.2-0.3 s on a 300-dpi receipt scan)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        values = np.arange(256, dtype=np.float32)[:, None]
        # The package's own expression on each byte value (float32 times a Python float,
        # then float64 with the mean and std arrays), cast to float32 as it casts its result.
        table = (values * inner.scale - inner.mean) / inner.std
        self.table = np.ascontiguousarray(np.asarray(table).astype(np.float32).T)

    def __call__(self, img: npt.NDArray[np.uint8]) -> npt.NDArray[np.float32] | None:
        resized = self.inner.resize(img)
        if resized is None:
            return None
        if resized.ndim != 3:  # the package's own arithmetic, as it does it
            normalized = self.inner.permute(self.inner.normalize(resized))
            return np.expand_dims(normalized, axis=0).astype(np.float32)
        height, width, channels = resized.shape
        out = np.empty((1, channels, height, width), dtype=np.float32)
        for channel in range(channels):
            np.take(self.table[channel], resized[:, :, channel], out=out[0, channel])
        return out


def _table_normalized(engine: Any) -> Any:
    """``engine`` with its detector's input made by :class:`TableNormalize` (left as it is
    where the package's detector lacks the pieces this relies on)."""
    detector: Any = getattr(engine, "text_det", None)
    original = getattr(detector, "get_preprocess", None)
    if detector is None or original is None:
        return engine

    def get_preprocess(max_wh: int) -> Any:
        inner = original(max_wh)
        if all(hasattr(inner, name) for name in ("resize", "scale", "mean", "std")):
            return TableNormalize(inner)
        return inner

    detector.get_preprocess = get_preprocess
    return engine


class ShrinkingSession:
    """An onnxruntime session with the CPU arena on, shrunk back after every run: within a
    run, a freed activation's memory is reused by the next layer instead of being handed
    to the system and faulted in again. Called as RapidOCR calls its sessions."""

    def __init__(self, path: str) -> None:
        import onnxruntime

        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        options.log_severity_level = 3
        options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_ENABLE_ALL
        options.enable_cpu_mem_arena = True
        self.session = onnxruntime.InferenceSession(
            path,
            options,
            providers=[("CPUExecutionProvider", {"arena_extend_strategy": "kSameAsRequested"})],
        )
        self.input = self.session.get_inputs()[0].name
        self.run_options = onnxruntime.RunOptions()
        self.run_options.add_run_config_entry("memory.enable_memory_arena_shrinkage", "cpu:0")

    def __call__(self, batch: npt.NDArray[np.float32]) -> list[Any]:
        return list(self.session.run(None, {self.input: batch}, self.run_options))


def _shrinking_detector(engine: Any) -> Any:
    """``engine`` with its detector run by a :class:`ShrinkingSession` (the page-sized
    activations: on a 300-dpi receipt 0.16 s less system time, about 0.2 s less CPU, for
    about 80 MB more peak RSS); left as it is where the package's detector has no model
    path to rebuild it from."""
    detector: Any = getattr(engine, "text_det", None)
    path = getattr(getattr(getattr(detector, "infer", None), "session", None), "_model_path", None)
    if detector is None or not isinstance(path, str):
        return engine
    detector.infer = ShrinkingSession(path)
    return engine


def _load() -> Any:
    global _engine
    if _engine is None:
        from rapidocr_onnxruntime import RapidOCR

        _engine = _shrinking_detector(
            _table_normalized(
                RapidOCR(
                    intra_op_num_threads=1,
                    inter_op_num_threads=1,
                    text_score=MIN_LINE_CONFIDENCE,
                    max_side_len=_MAX_SIDE,
                    **derived_models(),
                )
            )
        )
        narrow_recognizer(_engine.text_rec)
        # Keep each crop's frames: words are respelled from them (split_lines).
        _engine.text_rec = FrameRecorder(_engine.text_rec)
    return _engine


def narrow_recognizer(recognizer: Any) -> None:
    """Lower RapidOCR's recognizer's input floor to :data:`REC_MIN_WIDTH` (its
    ``rec_image_shape`` is channels, height, minimum width)."""
    channels, height, _ = recognizer.rec_image_shape[:3]
    recognizer.rec_image_shape = [channels, height, REC_MIN_WIDTH]


def release_freed() -> None:
    """Give the C heap's free pages back to the system (glibc's ``malloc_trim``; nothing
    where the C library has none). See the module docstring for why."""
    global _malloc_trim
    if _malloc_trim is None:
        _malloc_trim = False
        try:
            libc = ctypes.CDLL(ctypes.util.find_library("c"))
            trim = libc.malloc_trim
        except (OSError, AttributeError, TypeError):
            return
        trim.argtypes = [ctypes.c_size_t]
        trim.restype = ctypes.c_int
        _malloc_trim = trim
    if _malloc_trim:
        _malloc_trim(0)


def release() -> None:
    """Drop the loaded sessions (tests, long-lived idle workers)."""
    global _engine
    with _lock:
        _engine = None


def recognize(image: npt.NDArray[np.uint8]) -> list[OcrWord]:
    """Words of ``image`` (RGB ``(h, w, 3)`` or grey ``(h, w)``) in RapidOCR's line order,
    with pixel boxes, 0..1 confidences and one ``line`` id per detected text line."""
    if image.ndim == 2:
        gray: Gray = np.ascontiguousarray(image)
        bgr = np.ascontiguousarray(np.repeat(image[:, :, None], 3, axis=2))
    else:
        rgb = np.ascontiguousarray(image[:, :, :3])
        bgr = np.ascontiguousarray(rgb[:, :, ::-1])
        gray = np.ascontiguousarray(
            (rgb[:, :, 0] * 0.299 + rgb[:, :, 1] * 0.587 + rgb[:, :, 2] * 0.114).astype(np.uint8)
        )
    if min(gray.shape) < 8 or int(gray.max()) - int(gray.min()) < 8:
        return []  # blank: nothing to detect (and RapidOCR dislikes tiny images)
    bgr, scale = within_budget(bgr)
    with _lock:
        try:
            engine = _load()
            result, _ = engine(bgr, return_word_box=True, text_score=MIN_LINE_CONFIDENCE)
            recorded = getattr(getattr(engine, "text_rec", None), "last", [])
            result = with_frames(result or [], recorded)
        finally:
            release_freed()
    if scale != 1.0:
        result = [_scaled(line, 1.0 / scale) for line in result or []]
    return split_lines(result or [], gray)


def with_frames(result: Sequence[Any], frames: Sequence[Frames | None]) -> list[Any]:
    """RapidOCR's lines, each with its crop's :class:`Frames` appended (element 6) when
    the recorder's crops (``frames``, every detected crop in order, before RapidOCR drops
    those read below :data:`MIN_LINE_CONFIDENCE`) line up with them one for one."""
    kept = [f for f in frames if f is not None and f.score >= MIN_LINE_CONFIDENCE]
    lines = [list(line) for line in result]
    if len(kept) != len(lines) or any(
        f.text != str(line[1]) for f, line in zip(kept, lines, strict=True)
    ):
        return lines
    return [
        [*line[:6], *([None] * (6 - len(line))), f] for line, f in zip(lines, kept, strict=True)
    ]


def within_budget(image: npt.NDArray[np.uint8]) -> tuple[npt.NDArray[np.uint8], float]:
    """``image`` shrunk to :data:`PIXEL_BUDGET` pixels when larger, and the factor applied."""
    import cv2

    height, width = image.shape[:2]
    if height * width <= PIXEL_BUDGET:
        return image, 1.0
    scale = math.sqrt(PIXEL_BUDGET / (height * width))
    size = (max(1, round(width * scale)), max(1, round(height * scale)))
    return np.ascontiguousarray(cv2.resize(image, size, interpolation=cv2.INTER_AREA)), scale


def _scaled(line: Sequence[Any], factor: float) -> list[Any]:
    """A RapidOCR line (``return_word_box=True``) with its quadrilateral and character
    boxes multiplied by ``factor``: back in the caller's pixels."""
    out = list(line)
    out[0] = [[float(x) * factor, float(y) * factor] for x, y in line[0]]
    if len(out) > 3 and out[3]:
        out[3] = [[[float(x) * factor, float(y) * factor] for x, y in box] for box in out[3]]
    return out


def line_chars(line: Sequence[Any]) -> list[str]:
    """A RapidOCR line's characters, full-width forms folded (NFKC: "：" is ":")."""
    if len(line) <= 4 or not line[4]:
        return []
    return [unicodedata.normalize("NFKC", str(c)) or str(c) for c in line[4]]


def reading_confidence(words: Sequence[OcrWord]) -> float:
    """Character-weighted mean confidence of a reading (0.0 without words)."""
    chars = sum(len(w.text) for w in words)
    return sum(w.confidence * len(w.text) for w in words) / chars if chars else 0.0


def _cjk(char: str) -> bool:
    return (
        "\u2e80" <= char <= "\u9fff" or "\uac00" <= char <= "\ud7af" or "\uff00" <= char <= "\uffef"
    )


def _quad_box(points: Sequence[Sequence[float]]) -> tuple[float, float, float, float]:
    xs = [float(p[0]) for p in points]
    ys = [float(p[1]) for p in points]
    return min(xs), min(ys), max(xs), max(ys)


def ink_gaps(gray: Gray, box: tuple[float, float, float, float], gap: float) -> list[float]:
    """x positions (pixels) of the blank column runs at least ``gap`` x line height wide
    inside ``box`` (Otsu-binarized crop): the spaces between words."""
    import cv2

    x0, y0, x1, y1 = (round(v) for v in box)
    x0, y0 = max(x0, 0), max(y0, 0)
    crop = gray[y0:y1, x0:x1]
    if crop.size == 0 or crop.shape[0] < 4 or crop.shape[1] < 4:
        return []
    _, ink = cv2.threshold(crop, 0, 1, cv2.THRESH_BINARY_INV + cv2.THRESH_OTSU)
    columns = ink.sum(axis=0) > max(1, int(0.04 * crop.shape[0]))
    height = y1 - y0
    centres: list[float] = []
    run_start: int | None = None
    seen_ink = False
    for x, inked in enumerate(np.append(columns, True)):
        if not inked and run_start is None:
            run_start = x
        elif inked and run_start is not None:
            if seen_ink and x < len(columns) and x - run_start >= gap * height:
                centres.append(x0 + (run_start + x) / 2)
            run_start = None
        seen_ink = seen_ink or bool(inked)
    return centres


SPACE_FEATURES: tuple[str, ...] = (
    "blank_height",
    "blank_line",
    "blank_prev",
    "blank_next",
    "band_height",
    "band_line",
    "blank_glyph",
    "pitch_distance",
    "cell_gap",
    "line_height",
    *(
        f"{side}_{kind}"
        for side in ("left", "right")
        for kind in ("upper", "lower", "digit", "colon", "open", "close", "dot", "other")
    ),
    "lower_upper",
    "letter_digit",
    "upper_capital",
    "word_left",
    "word_right",
    "word_whole",
    "word_across",
    "word_cut",
    "word_cover",
    "frame_space",
    "frame_gap",
    "frame_gap_line",
)
"""What decides whether two neighbouring characters of a RapidOCR line belong to two words
(:func:`pair_features`)."""
WORD_REACH = 12
"""Longest word piece (letters) :func:`word_features` looks up in the lexicon."""
SPACE_MODEL = "rapid_spaces.json"
"""The learned space scorer in ``engines/data/`` (``training/ocr_spaces.py``)."""
SPACE_THRESHOLD = 0.5
RESPELL_MODEL = "rapid_respell.json"
"""The learned respelling scorer in ``engines/data/`` (``training/ocr_spaces.py``): whether a
word not in the lexicon is the lexicon word near it the recognizer's frames support best
(:func:`prefect_docai.engines.page.ctc.respell_candidate`)."""
RESPELL_THRESHOLD = 0.5
"""A word is respelled when the respelling scorer gives its lexicon neighbour at least
this probability."""

PUNCT_MODEL = "rapid_punct.json"
"""The learned punctuation scorer in ``engines/data/`` (``training/ocr_spaces.py``): whether
a comma stands where the recognizer read a full stop, a comma or no mark
(:func:`prefect_docai.engines.page.ctc.punctuation_candidates`)."""
PUNCT_THRESHOLD = 0.5
"""A candidate is a comma when the punctuation scorer gives it at least this probability."""

Respeller = Callable[[Respelling, int], bool]
"""Decides whether a word (its :class:`Respelling`, on the line of the given id) takes its
lexicon neighbour's spelling."""
Punctuator = Callable[[Punctuation, int], bool]
"""Decides whether a :class:`Punctuation` candidate (on the line of the given id) is a
comma."""


def _kind(char: str) -> str:
    char = char[:1]
    if char.isalpha():
        return "upper" if char.isupper() else "lower"
    if char.isdigit():
        return "digit"
    return {
        ":": "colon",
        "(": "open",
        "[": "open",
        ")": "close",
        "]": "close",
        ".": "dot",
        ",": "dot",
    }.get(char, "other")


_KINDS = ("upper", "lower", "digit", "colon", "open", "close", "dot", "other")


def _blank_columns(
    gray: Gray | None, box: tuple[float, float, float, float]
) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
    """Per pixel column of ``box`` (from its left edge): no ink in the whole crop (a few
    stray pixels allowed), and none in its middle band (Otsu-binarized). The detector's box
    is widened (unclip), so its top and bottom may reach into the next lines."""
    import cv2

    empty = np.zeros(0, dtype=bool)
    if gray is None:
        return empty, empty
    x0, y0, x1, y1 = (round(v) for v in box)
    x0, y0 = max(x0, 0), max(y0, 0)
    crop = gray[y0:y1, x0:x1]
    if crop.size == 0 or crop.shape[0] < 4 or crop.shape[1] < 4:
        return empty, empty
    _, ink = cv2.threshold(crop, 0, 1, cv2.THRESH_BINARY_INV + cv2.THRESH_OTSU)
    full: npt.NDArray[np.bool_] = ink.sum(axis=0) <= max(1, int(0.04 * crop.shape[0]))
    band = ink[round(0.25 * ink.shape[0]) : max(round(0.75 * ink.shape[0]), 1)]
    middle: npt.NDArray[np.bool_] = band.sum(axis=0) == 0
    return full, middle


def _glyph_width(blank: npt.NDArray[np.bool_], count: int) -> float:
    """Ink columns of the line per character: the typical glyph width."""
    return max(float(np.count_nonzero(~blank)) / max(count, 1), 1.0)


def _longest_run(blank: npt.NDArray[np.bool_], start: int, stop: int) -> int:
    best = run = 0
    for value in blank[max(start, 0) : max(stop, 0)]:
        run = run + 1 if value else 0
        best = max(best, run)
    return best


def pair_features(
    gray: Gray | None,
    line_box: tuple[float, float, float, float],
    chars: Sequence[str],
    boxes: Sequence[Sequence[Sequence[float]]],
    page_line_height: float,
    lexicon: frozenset[str] = frozenset(),
    frames: Frames | None = None,
) -> tuple[list[int], list[bool], list[list[float]]]:
    """The line's kept characters (indexes: no spaces, no CJK), and for each two
    neighbouring kept characters whether the recognizer put a space (or CJK) between them
    and the :data:`SPACE_FEATURES`: the widest blank column run between their centres in
    line heights and relative to the line's median such run, their centre distance and box
    gap in median pitches, the line's height relative to the page's median, the two
    characters' kinds, a lower-to-upper and a letter/digit change, a capital before a small
    letter after a capital, what the ``lexicon`` says (:func:`word_features`,
    :func:`segment_features`) and what the recognizer's ``frames`` say between the two
    (:func:`frame_features`)."""
    kept = [i for i, c in enumerate(chars) if c.strip() and not _cjk(c)]
    forced: list[bool] = []
    rows: list[list[float]] = []
    if len(kept) < 2:
        return kept, forced, rows
    x0 = max(round(line_box[0]), 0)
    height = max(line_box[3] - line_box[1], 1.0)
    full, middle = _blank_columns(gray, line_box)
    centres = [sum(float(p[0]) for p in b) / len(b) for b in boxes]
    lefts = [min(float(p[0]) for p in b) for b in boxes]
    rights = [max(float(p[0]) for p in b) for b in boxes]
    pairs = list(itertools.pairwise(kept))
    steps = [centres[b] - centres[a] for a, b in pairs]
    pitch = max(statistics.median(steps), 1.0)
    spans = [(round(centres[a]) - x0, round(centres[b]) - x0) for a, b in pairs]
    runs = [float(_longest_run(full, *span)) for span in spans]
    bands = [float(_longest_run(middle, *span)) for span in spans]
    typical = statistics.median(runs) + 1.0
    typical_band = statistics.median(bands) + 1.0
    glyph = _glyph_width(middle, len(kept))
    forced = [b - a > 1 for a, b in pairs]
    words = word_features(chars, kept, forced, lexicon)
    segments = segment_features(chars, kept, forced, lexicon)
    framed = frame_features(frames, chars, pairs)
    for k, ((a, b), run, step) in enumerate(zip(pairs, runs, steps, strict=True)):
        left, right = _kind(chars[a]), _kind(chars[b])
        before = runs[k - 1] if k else 0.0
        after = runs[k + 1] if k + 1 < len(runs) else 0.0
        rows.append(
            [
                run / height,
                run / typical,
                run / (before + 1.0),
                run / (after + 1.0),
                bands[k] / height,
                bands[k] / typical_band,
                bands[k] / glyph,
                step / pitch,
                (lefts[b] - rights[a]) / pitch,
                height / max(page_line_height, 1.0),
                *(float(left == kind) for kind in _KINDS),
                *(float(right == kind) for kind in _KINDS),
                float(left == "lower" and right == "upper"),
                float(
                    (left in ("upper", "lower")) != (right in ("upper", "lower"))
                    and "digit" in (left, right)
                ),
                # "GSTSummary": a capital before a small letter starts a word.
                float(
                    left == "upper"
                    and right == "upper"
                    and k + 2 < len(kept)
                    and _kind(chars[kept[k + 2]]) == "lower"
                ),
                *words[k],
                *segments[k],
                *framed[k],
            ]
        )
    return kept, forced, rows


def frame_features(
    frames: Frames | None, chars: Sequence[str], pairs: Sequence[tuple[int, int]]
) -> list[list[float]]:
    """Per pair of the line's characters, what the recognizer's frames (:class:`Frames`,
    one span per character of ``chars``) say between them: the highest probability of
    its space class on the frames from the left character's last to the right one's
    first, the frames between the two characters, and those relative to the line's median
    (all -1 without frames)."""
    missing = [-1.0, -1.0, -1.0]
    if frames is None or len(frames.spans) != len(chars) or " " not in frames.classes:
        return [missing for _ in pairs]
    space = frames.classes.index(" ")
    column = np.exp(frames.log_probs[:, space].astype(np.float64))
    gaps = [float(frames.spans[b][0] - frames.spans[a][1] - 1) for a, b in pairs]
    typical = statistics.median(gaps) + 1.0 if gaps else 1.0
    rows: list[list[float]] = []
    for (a, b), gap in zip(pairs, gaps, strict=True):
        first, last = frames.spans[a][1], frames.spans[b][0]
        peak = float(column[first : last + 1].max()) if last >= first else 0.0
        rows.append([peak, gap, gap / typical])
    return rows


def _space_model() -> Any:
    from prefect_docai.engines.learned import packaged

    return packaged(SPACE_MODEL, SPACE_FEATURES)


def _packaged_respeller() -> Respeller | None:
    from prefect_docai.engines.learned import packaged

    scorer = packaged(RESPELL_MODEL, RESPELL_FEATURES)
    if scorer is None:
        return None
    return lambda found, _line: scorer.probability(found.row) >= RESPELL_THRESHOLD


def _packaged_punctuator() -> Punctuator | None:
    from prefect_docai.engines.learned import packaged

    scorer = packaged(PUNCT_MODEL, PUNCT_FEATURES)
    if scorer is None:
        return None
    return lambda found, _line: scorer.probability(found.row) >= PUNCT_THRESHOLD


def line_marks(
    frames: Frames | None, chars: Sequence[str], line_id: int, punctuate: Punctuator | None
) -> tuple[dict[int, str], dict[int, str]]:
    """What ``punctuate`` makes of the line's comma candidates
    (:func:`~prefect_docai.engines.page.ctc.punctuation_candidates`): the characters read
    as "." or "," it spells otherwise (index to mark), and the characters a dropped comma
    follows (index to ",")."""
    swapped: dict[int, str] = {}
    after: dict[int, str] = {}
    if frames is None or punctuate is None:
        return swapped, after
    for found in punctuation_candidates(frames, chars):
        comma = punctuate(found, line_id)
        if found.dropped:
            if comma:
                after[found.index] = ","
        elif (mark := "," if comma else ".") != chars[found.index]:
            swapped[found.index] = mark
    return swapped, after


_lexicons: dict[str, frozenset[str]] = {}


def space_lexicon() -> frozenset[str]:
    """The words the packaged space scorer was trained with (``lexicon`` in
    :data:`SPACE_MODEL`; empty without one)."""
    if "packaged" not in _lexicons:
        from pathlib import Path

        path = Path(__file__).resolve().parent.parent / "data" / SPACE_MODEL
        blob = json.loads(path.read_text()) if path.is_file() else {}
        _lexicons["packaged"] = frozenset(str(w) for w in blob.get("lexicon", ()))
    return _lexicons["packaged"]


def word_features(
    chars: Sequence[str], kept: Sequence[int], forced: Sequence[bool], lexicon: frozenset[str]
) -> list[list[float]]:
    """Per neighbouring kept pair, what the ``lexicon`` (upper-case words) says about a
    space there, inside the runs of letters on either side of the pair (bounded by other
    characters and by the recognizer's own spaces): the longest lexicon word ending at the
    left character and starting at the right one (letters, 0 for none: after a comma only
    the right one is looked up), whether the whole run is a lexicon word, and the longest
    lexicon word reaching across the pair. "TAXINVOICE" splits where "TAX" ends and
    "INVOICE" starts; "SUBTOTAL" is one word; "7,JALAN" has a word after the comma."""
    letters = [chars[i].upper() if chars[i].isalpha() else "" for i in kept]
    rows: list[list[float]] = []
    for k in range(len(kept) - 1):
        if not lexicon or not (letters[k] or letters[k + 1]):
            rows.append([0.0, 0.0, 0.0, 0.0])
            continue
        # The letters run on each side of the pair (a comma or digit beside it ends it).
        start = k + 1
        while start > 0 and letters[start - 1] and (start - 1 == k or not forced[start - 1]):
            start -= 1
        stop = k
        while stop + 1 < len(kept) and letters[stop + 1] and (stop == k or not forced[stop]):
            stop += 1
        left = "".join(letters[max(start, k + 1 - WORD_REACH) : k + 1])
        right = "".join(letters[k + 1 : min(stop, k + WORD_REACH) + 1])
        ends = max((n for n in range(2, len(left) + 1) if left[-n:] in lexicon), default=0)
        starts = max((n for n in range(2, len(right) + 1) if right[:n] in lexicon), default=0)
        across = max(
            (
                a + b
                for a in range(1, len(left) + 1)
                for b in range(1, len(right) + 1)
                if a + b >= 3 and left[-a:] + right[:b] in lexicon
            ),
            default=0,
        )
        whole = bool(left and right) and "".join(letters[start : stop + 1]) in lexicon
        rows.append([float(ends), float(starts), float(whole), float(across)])
    return rows


def segmentation(run: str, lexicon: frozenset[str]) -> tuple[frozenset[int], int]:
    """The best reading of a run of letters as lexicon words (words of two letters or
    more, at most :data:`WORD_REACH`; a letter no word covers is a piece of its own): the
    most letters covered by words, then the fewest pieces. The cut positions between its
    pieces (``i``: a cut before ``run[i]``) and the letters covered."""
    best: list[tuple[int, int]] = [(0, 0)]
    back: list[int] = [0]
    for stop in range(1, len(run) + 1):
        # A single uncovered letter is always a piece, so every prefix has a reading.
        choice = ((best[stop - 1][0], best[stop - 1][1] - 1), stop - 1)
        for start in range(max(0, stop - WORD_REACH), stop - 1):
            if run[start:stop] in lexicon:
                covered, pieces = best[start]
                choice = max(choice, ((covered + stop - start, pieces - 1), start))
        best.append(choice[0])
        back.append(choice[1])
    cuts: set[int] = set()
    at = len(run)
    while at > 0:
        at = back[at]
        if at:
            cuts.add(at)
    return frozenset(cuts), best[-1][0]


def segment_features(
    chars: Sequence[str], kept: Sequence[int], forced: Sequence[bool], lexicon: frozenset[str]
) -> list[list[float]]:
    """Per neighbouring kept pair inside a run of letters (bounded by other characters and
    by the recognizer's own spaces), what the run's best reading as lexicon words
    (:func:`segmentation`) says: whether it cuts between the two (1/0) and the share of the
    run's letters it covers (both -1 outside a run). "THANKYOUFORYOURPATRONAGE" reads as
    five words, so each of its four word ends is a cut, though no single neighbour's
    lookup (:func:`word_features`) sees past "THANKYOU"."""
    letters = [chars[i].upper() if chars[i].isalpha() else "" for i in kept]
    rows = [[-1.0, -1.0] for _ in range(max(len(kept) - 1, 0))]
    if not lexicon:
        return rows
    start = 0
    for stop in range(1, len(kept) + 1):
        if stop < len(kept) and letters[stop] and letters[stop - 1] and not forced[stop - 1]:
            continue
        run = "".join(letters[start:stop])
        if stop - start >= 2:
            cuts, covered = segmentation(run, lexicon)
            for k in range(start, stop - 1):
                rows[k] = [float(k + 1 - start in cuts), covered / len(run)]
        start = stop
    return rows


def split_lines(
    result: Sequence[Sequence[Any]],
    gray: Gray | None,
    gap: float = SPLIT_GAP,
    pitch_ratio: float = SPLIT_PITCH,
    *,
    model: Any = "packaged",
    lexicon: frozenset[str] | None = None,
    respell: Respeller | str | None = "packaged",
    punctuate: Punctuator | str | None = "packaged",
    tail: TailDecider | str | None = "packaged",
    substitute: Substituter | str | None = "packaged",
) -> list[OcrWord]:
    """RapidOCR's lines (``return_word_box=True``: quadrilateral, text, confidence,
    character boxes, characters, character confidences) as words (see the module
    docstring). Two characters are split by the recognizer's space, else by the learned
    scorer (``model``: the packaged one by default; ``None``: the blank-run rule of ``gap``
    and ``pitch_ratio``), which reads the ``lexicon`` too (:func:`word_features`; by default
    the packaged scorer's, none for another scorer). A line without character boxes is
    split at its spaces, each word given a share of the line's box proportional to its
    length.

    A line that carries its recognizer frames (element 6, :func:`with_frames`) has each
    word not in the ``lexicon`` offered the lexicon word near it that the frames support
    best; ``respell`` decides (by default the packaged respelling scorer with the packaged
    space scorer, none with another; ``None``: words stay as read). Its comma candidates
    (:func:`line_marks`) are decided by ``punctuate`` (likewise the packaged punctuation
    scorer by default, none with another scorer). A line ending in a letter or digit with
    no comma added there has the ink right of its last glyph read for a comma or full stop
    the recognizer did not see (:func:`~prefect_docai.engines.page.glyphs.tail_features`),
    decided by ``tail`` (likewise the packaged tail scorers by default). A letter or digit
    the frames find a look-alike for (:func:`~prefect_docai.engines.page.confusion.
    substitution_candidates`: "L0CAL") is spelled as ``substitute`` decides (likewise the
    packaged substitution scorer by default)."""
    scorer = _space_model() if model == "packaged" else model
    if substitute == "packaged":
        substitute = packaged_substituter() if model == "packaged" else None
    if tail == "packaged":
        tail = packaged_tail() if model == "packaged" else None
    if respell == "packaged":
        respell = _packaged_respeller() if model == "packaged" else None
    if punctuate == "packaged":
        punctuate = _packaged_punctuator() if model == "packaged" else None
    if lexicon is None:
        lexicon = space_lexicon() if model == "packaged" else frozenset()
    heights = [_quad_box(line[0])[3] - _quad_box(line[0])[1] for line in result]
    page_line_height = statistics.median(heights) if heights else 1.0
    words: list[OcrWord] = []
    for line_id, line in enumerate(result):
        quad, text, confidence = line[0], str(line[1]), float(line[2])
        boxes = list(line[3]) if len(line) > 3 and line[3] else []
        chars = line_chars(line)
        confs = [float(c) for c in line[5]] if len(line) > 5 and line[5] else []
        line_box = _quad_box(quad)
        # RapidOCR turns a crop at least 1.5 times as tall as wide and reads it sideways.
        vertical = len(text) > 1 and _tall(quad)
        if not chars or len(chars) != len(boxes):
            words.extend(_proportional(text, line_box, confidence, line_id, vertical))
            continue
        frames = line[6] if len(line) > 6 and isinstance(line[6], Frames) else None
        if scorer is not None:
            kept, forced, rows = pair_features(
                gray, line_box, chars, boxes, page_line_height, lexicon, frames
            )
            cut = [
                f or p >= SPACE_THRESHOLD
                for f, p in zip(forced, scorer.probabilities(rows), strict=True)
            ]
        else:
            kept, cut = _gap_cuts(gray, line_box, chars, boxes, gap, pitch_ratio)
        swapped, after = line_marks(
            frames, chars, line_id, punctuate if callable(punctuate) else None
        )
        if kept and callable(tail) and kept[-1] not in after and kept[-1] not in swapped:
            row = tail_features(gray, line_box, chars, boxes, frames)
            mark = tail(row) if row is not None else ""
            if mark:
                after[kept[-1]] = mark
        # A look-alike swap never touches a mark (those are "." and ","), so the two merge.
        swapped = {
            **line_substitutions(
                frames, chars, confs, lexicon, substitute if callable(substitute) else None
            ),
            **swapped,
        }
        groups: list[list[int]] = [[]]
        for position, index in enumerate(kept):
            if position and cut[position - 1]:
                groups.append([])
            groups[-1].append(index)
        for group in groups:
            if not group:
                continue
            respelling = None
            if frames is not None and callable(respell):
                found = respell_candidate(frames, chars, confs, group, lexicon)
                if found is not None and respell(found, line_id):
                    respelling = found
            spelled = spelled_word(chars, group, swapped, after, respelling)
            x0, _, x1, _ = _quad_box([p for i in group for p in boxes[i]])
            # Character boxes span the CTC columns, not the glyphs' height: keep the line's.
            box = (max(x0, line_box[0]), line_box[1], min(x1, line_box[2]), line_box[3])
            conf = (
                sum(confs[i] for i in group) / len(group)
                if len(confs) == len(chars)
                else confidence
            )
            words.append(
                OcrWord(
                    text=spelled,
                    box=box,
                    confidence=max(0.0, min(1.0, conf)),
                    line=line_id,
                    block=0,
                    vertical=vertical,
                )
            )
    return words


def _gap_cuts(
    gray: Gray | None,
    line_box: tuple[float, float, float, float],
    chars: Sequence[str],
    boxes: Sequence[Sequence[Sequence[float]]],
    gap: float,
    pitch_ratio: float,
) -> tuple[list[int], list[bool]]:
    """The blank-run rule: kept characters and, per neighbouring pair, whether to split."""
    kept = [i for i, c in enumerate(chars) if c.strip() and not _cjk(c)]
    cuts = ink_gaps(gray, line_box, gap) if gray is not None else []
    centres = [sum(float(p[0]) for p in b) / len(b) for b in boxes]
    steps = [b - a for a, b in itertools.pairwise(centres)]
    pitch = statistics.median(steps) if steps else 0.0
    cut = [
        b - a > 1
        or (
            any(centres[a] < c < centres[b] for c in cuts)
            and centres[b] - centres[a] > pitch_ratio * pitch
        )
        for a, b in itertools.pairwise(kept)
    ]
    return kept, cut


def _tall(quad: Sequence[Sequence[float]]) -> bool:
    p = np.asarray(quad, dtype=np.float64)
    if p.shape != (4, 2):
        return False
    width = max(np.linalg.norm(p[0] - p[1]), np.linalg.norm(p[2] - p[3]))
    height = max(np.linalg.norm(p[0] - p[3]), np.linalg.norm(p[1] - p[2]))
    return bool(height >= 1.5 * max(float(width), 1e-6))


def _proportional(
    text: str,
    box: tuple[float, float, float, float],
    confidence: float,
    line_id: int,
    vertical: bool = False,
) -> list[OcrWord]:
    """``text``'s words with boxes shared out along ``box`` by character count."""
    cleaned = "".join(" " if _cjk(c) else c for c in unicodedata.normalize("NFKC", text))
    tokens = cleaned.split()
    if not tokens:
        return []
    x0, y0, x1, y1 = box
    unit = (x1 - x0) / max(len(cleaned), 1)
    words = []
    position = 0
    for token in tokens:
        start = cleaned.index(token, position)
        position = start + len(token)
        words.append(
            OcrWord(
                text=token,
                box=(x0 + start * unit, y0, x0 + position * unit, y1),
                confidence=max(0.0, min(1.0, confidence)),
                line=line_id,
                block=0,
                vertical=vertical,
            )
        )
    return words
