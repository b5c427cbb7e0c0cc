"""Tesseract through tesserocr: word recognition and orientation/script detection.

A ``PyTessBaseAPI`` costs ~0.1–0.5 s to load per language set, so each thread keeps its own
loaded APIs (tesserocr releases the GIL while recognizing, so two threads use two cores;
one API must never be shared between threads). ``OMP_THREAD_LIMIT=1`` is set before the
library loads: Tesseract's OpenMP build is several times slower on a busy 2-core machine.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from dataclasses import dataclass, replace
from itertools import pairwise
from pathlib import Path
from typing import Any

from prefect_docai.engines.page.languages import installed_languages, tessdata_dir
from prefect_docai.engines.page.raster import Gray

os.environ.setdefault("OMP_THREAD_LIMIT", "1")

_local = threading.local()

# OSD script names → trained models. Script models (``Latin``, ``Cyrillic``, …) cover every
# language written in that script, which is what "auto" needs when no language is known.
_SCRIPT_MODELS: dict[str, tuple[str, ...]] = {
    "Han": ("HanS", "HanT"),
    "Japanese": ("Japanese",),
    "Katakana": ("Japanese",),
    "Hiragana": ("Japanese",),
    "Korean": ("Hangul",),
    "Hangul": ("Hangul",),
}

AUTO_FALLBACK = ("eng",)


@dataclass(frozen=True)
class OcrWord:
    text: str
    box: tuple[float, float, float, float]
    """x0, y0, x1, y1 in pixels of the recognized image."""
    confidence: float
    """0..1."""
    line: int
    block: int
    vertical: bool = False
    """Tesseract laid the block out top-to-bottom: on Latin pages, a sideways page."""
    language: str = ""
    """The model that won this word (``deu``, ``eng``) when several were loaded."""


@dataclass(frozen=True)
class Orientation:
    rotate: int
    """Clockwise degrees (0/90/180/270) that make the page upright."""
    confidence: float
    script: str | None
    script_confidence: float


MAX_APIS_PER_THREAD = 8
"""Loaded Tesseract engines a thread keeps, one per language set (about 20 MB each,
measured with one to two packs). A worker that meets pages in many languages (tables and
invoices read a page again in its detected language) would otherwise keep every one it ever
loaded; past this many, the least recently used is ended. Reloading one costs 0.1-0.5 s."""


def _api(lang: str, psm: int) -> Any:
    """This thread's engine for ``lang``, set to read in page segmentation mode ``psm``.

    One engine serves every mode of its language set: the mode is a setting Tesseract reads
    anew on each reading (an engine loaded with a mode is loaded, then set to it), so a
    page's whole reading, its probe, its sparse and single-word readings share one load."""
    import tesserocr

    cache: OrderedDict[str, Any] | None = getattr(_local, "apis", None)
    if cache is None:
        cache = OrderedDict()
        _local.apis = cache
    api = cache.get(lang)
    if api is None:
        api = tesserocr.PyTessBaseAPI(path=tessdata_dir(), lang=lang, psm=psm)
        cache[lang] = api
        # Every caller (recognize, _reread_marks, detect_orientation) is done with its
        # engine before it asks for another, and the cache is per thread: the engine
        # ended here is never in use.
        while len(cache) > MAX_APIS_PER_THREAD:
            _, oldest = cache.popitem(last=False)
            oldest.End()
    else:
        cache.move_to_end(lang)
        if api.GetPageSegMode() != psm:
            api.SetPageSegMode(psm)
    return api


def _set_image(api: Any, gray: Gray, dpi: int) -> None:
    height, width = gray.shape
    api.SetImageBytes(gray.tobytes(), width, height, 1, width)
    # Without a resolution Tesseract guesses one (often ~400 dpi) and misjudges text size.
    api.SetSourceResolution(max(70, min(int(dpi), 2400)))


def recognize(gray: Gray, dpi: int, lang: str, psm: int | None = None) -> list[OcrWord]:
    """Words of ``gray`` in Tesseract's reading order with pixel boxes and 0..1 confidence."""
    import tesserocr

    api = _api(lang, tesserocr.PSM.AUTO if psm is None else psm)
    _set_image(api, gray, dpi)
    api.Recognize()
    iterator = api.GetIterator()
    words: list[OcrWord] = []
    if iterator is None:
        api.Clear()
        return words
    level = tesserocr.RIL.WORD
    block = line = -1
    vertical = False
    while True:
        if iterator.IsAtBeginningOf(tesserocr.RIL.BLOCK):
            block += 1
            layout = iterator.Orientation()
            vertical = bool(layout) and layout[1] == tesserocr.WritingDirection.TOP_TO_BOTTOM
        if iterator.IsAtBeginningOf(tesserocr.RIL.TEXTLINE):
            line += 1
        try:
            text = iterator.GetUTF8Text(level)
        except RuntimeError:  # tesserocr raises for an empty word instead of returning ""
            text = None
        box = iterator.BoundingBox(level) if text else None
        if text and text.strip() and box is not None:
            words.append(
                OcrWord(
                    text=_fold_foreign(text.strip(), lang),
                    box=(float(box[0]), float(box[1]), float(box[2]), float(box[3])),
                    confidence=max(0.0, min(1.0, iterator.Confidence(level) / 100.0)),
                    line=max(line, 0),
                    block=max(block, 0),
                    vertical=vertical,
                    language=iterator.WordRecognitionLanguage() or "",
                )
            )
        if not iterator.Next(level):
            break
    api.Clear()
    return words


def text_lines(gray: Gray, dpi: int, lang: str) -> list[tuple[int, int, int, int]]:
    """Tesseract's text lines of ``gray`` (x0, y0, x1, y1 in its pixels), from its layout
    analysis alone: nothing is recognized (a fraction of a reading's time)."""
    import tesserocr

    api = _api(lang, tesserocr.PSM.AUTO)
    _set_image(api, gray, dpi)
    iterator = api.AnalyseLayout()
    boxes: list[tuple[int, int, int, int]] = []
    if iterator is not None:
        while True:
            box = iterator.BoundingBox(tesserocr.RIL.TEXTLINE)
            if box is not None:
                boxes.append((int(box[0]), int(box[1]), int(box[2]), int(box[3])))
            if not iterator.Next(tesserocr.RIL.TEXTLINE):
                break
    api.Clear()
    return boxes


def moved_word(word: OcrWord, box: tuple[float, float, float, float]) -> OcrWord:
    """``word`` with another box (same text, confidence and ids)."""
    return replace(word, box=box)


def scaled_word(word: OcrWord, ratio: float) -> OcrWord:
    """``word`` with its box in pixels of an image ``ratio`` times as large."""
    x0, y0, x1, y1 = word.box
    return replace(word, box=(x0 * ratio, y0 * ratio, x1 * ratio, y1 * ratio))


MERGE_MARGIN = 0.05
"""How much more confident (0..1, character-weighted) another view's line must be to
replace what the first view read in its place."""
MERGE_ADD_CONFIDENCE = 0.75
"""Confidence a line needs to be added where the first view read nothing at all."""


def merge_readings(first: list[OcrWord], other: list[OcrWord]) -> list[OcrWord]:
    """Line-by-line union of two readings of one page (boxes in the same pixels).

    Each line of ``other`` competes with the words of ``first`` whose centres lie in its
    box: it replaces them when its character-weighted confidence is higher by
    :data:`MERGE_MARGIN`, and is added where ``first`` read nothing if it is confident
    on its own (print the first view could not see, e.g. dot-matrix or coloured ink).
    A line of ``other`` spanning several lines of ``first`` (two rows run together) is
    not used. Lines taken from ``other`` get new line and block ids.
    """
    if not other:
        return first
    if not first:
        return other
    line_base = max(word.line for word in first) + 1
    block_base = max(word.block for word in first) + 1
    by_line: dict[int, list[OcrWord]] = {}
    for word in other:
        by_line.setdefault(word.line, []).append(word)
    removed: set[int] = set()
    taken: list[OcrWord] = []
    for line_id, words in by_line.items():
        x0 = min(w.box[0] for w in words)
        y0 = min(w.box[1] for w in words)
        x1 = max(w.box[2] for w in words)
        y1 = max(w.box[3] for w in words)
        slot = [
            i for i, w in enumerate(first)
            if i not in removed and y0 <= (w.box[1] + w.box[3]) / 2 <= y1
            and _overlap(w.box[0], w.box[2], x0, x1) > 0.5 * max(w.box[2] - w.box[0], 1.0)
        ]
        if len({first[i].line for i in slot}) > 1 and _stacked([first[i] for i in slot]):
            continue
        quality = _line_quality(words)
        if slot:
            block = first[slot[0]].block
            if quality < _line_quality([first[i] for i in slot]) + MERGE_MARGIN:
                continue
        else:
            if quality < MERGE_ADD_CONFIDENCE or sum(c.isalnum() for w in words
                                                     for c in w.text) < 2:
                continue
            block = block_base + words[0].block
        removed.update(slot)
        taken.extend(replace(w, line=line_base + line_id, block=block) for w in words)
    if not taken:
        return first
    return [w for i, w in enumerate(first) if i not in removed] + taken


def _overlap(a0: float, a1: float, b0: float, b1: float) -> float:
    return max(0.0, min(a1, b1) - max(a0, b0))


def _stacked(words: list[OcrWord]) -> bool:
    """Whether some of ``words`` lie on distinct lines one above the other."""
    lines: dict[int, tuple[float, float]] = {}
    for w in words:
        top, bottom = lines.get(w.line, (w.box[1], w.box[3]))
        lines[w.line] = (min(top, w.box[1]), max(bottom, w.box[3]))
    spans = sorted(lines.values())
    return any(_overlap(a[0], a[1], b[0], b[1]) < 0.5 * min(a[1] - a[0], b[1] - b[0])
               for a, b in pairwise(spans))


def _line_quality(words: list[OcrWord]) -> float:
    """Character-weighted mean confidence: a long confident word outweighs a stray mark."""
    chars = sum(len(w.text) for w in words)
    return sum(w.confidence * len(w.text) for w in words) / chars if chars else 0.0


_DOTLESS_I_LANGUAGES = frozenset({"tur", "aze", "aze_cyrl", "crh", "kaz", "tat", "Latin"})


def _fold_foreign(text: str, lang: str) -> str:
    """Turkish dotless "ı" for "i": the LSTM models emit it on thin or broken i-dots
    ("SELANGOı"), but only a few loaded languages ever write it."""
    if "ı" in text and not _DOTLESS_I_LANGUAGES.intersection(lang.split("+")):
        return text.replace("ı", "i")
    return text


_DIACRITICS = frozenset("äöüÄÖÜßéèêëàâçîïôûùÿñáíóúåøæœ")
_MAX_REPAIRS = 200


def repair_diacritics(gray: Gray, dpi: int, words: list[OcrWord], lang: str) -> list[OcrWord]:
    """Give back the umlauts English took away.

    With ``deu+eng`` the Tesseract 5.5 in the tesserocr wheel often lets the English model
    win words like "März" and prints "Marz" (English has no "ä"; the 5.3 CLI does not do
    this). Where the other languages won most words, each English-won word is read again
    by those languages alone (single-word mode on its box, ~13 ms) and their reading is
    taken when it differs only where it has a diacritic.
    """
    packs = lang.split("+")
    if "eng" not in packs or len(packs) < 2:
        return words
    others = "+".join(pack for pack in packs if pack != "eng")
    english = [i for i, word in enumerate(words) if word.language == "eng"
               and any(c.isalpha() for c in word.text)]
    if not english or len(english) * 2 > len(words) or len(english) > _MAX_REPAIRS:
        return words
    return _reread_marks(gray, dpi, words, english, others)


_UNMARKED = frozenset("aouAOUB")
"""Letters a recognizer without umlauts prints for ä ö ü Ä Ö Ü ß."""


def restore_umlauts(gray: Gray, dpi: int, words: list[OcrWord]) -> list[OcrWord]:
    """Give back the umlauts of a German page RapidOCR read: its recognizer has none
    ("Rückgeld" comes out "Ruckgeld", "Straße" "StraBe"). Each word of 3+ letters with a
    letter that may have lost its marks is read again by Tesseract's German model alone
    (single-word mode on its box, ~13 ms), taken when it differs only where it has a
    diacritic."""
    chosen = [
        i for i, word in enumerate(words)
        if sum(c.isalpha() for c in word.text) >= 3 and _UNMARKED.intersection(word.text)
    ][:_MAX_REPAIRS]
    if not chosen or "deu" not in installed_languages():
        return words
    return _reread_marks(gray, dpi, words, chosen, "deu")


def _reread_marks(
    gray: Gray, dpi: int, words: list[OcrWord], indices: list[int], packs: str
) -> list[OcrWord]:
    import tesserocr
    from rapidfuzz.distance import Levenshtein

    api = _api(packs, tesserocr.PSM.SINGLE_WORD)
    _set_image(api, gray, dpi)
    height, width = gray.shape
    repaired = list(words)
    try:
        for index in indices:
            word = words[index]
            x0, y0, x1, y1 = (int(v) for v in word.box)
            pad = max(2, (y1 - y0) // 6)
            left, top = max(0, x0 - pad), max(0, y0 - pad)
            api.SetRectangle(left, top, min(width, x1 + pad) - left, min(height, y1 + pad) - top)
            try:
                reading = (api.GetUTF8Text() or "").strip()
            except RuntimeError:
                continue
            marks = sum(c in _DIACRITICS for c in reading)
            if (marks and " " not in reading and reading != word.text
                    and Levenshtein.distance(reading, word.text) <= marks):
                repaired[index] = OcrWord(
                    reading, word.box, word.confidence, word.line, word.block, word.vertical,
                    packs,
                )
    finally:
        api.Clear()
    return repaired


def detect_orientation(gray: Gray, dpi: int) -> Orientation | None:
    """Tesseract OSD: how to turn the page upright and which script it is in.

    ``None`` when OSD finds too little text to decide (blank or picture-only pages).
    """
    import tesserocr

    api = _api("osd", tesserocr.PSM.OSD_ONLY)
    _set_image(api, gray, dpi)
    try:
        result = api.DetectOrientationScript()
    except RuntimeError:
        return None
    finally:
        api.Clear()
    if not result:
        return None
    # orient_deg is how far the content is turned clockwise; undoing it is the remainder.
    rotate = (360 - int(result.get("orient_deg", 0))) % 360
    return Orientation(
        rotate=rotate,
        confidence=float(result.get("orient_conf", 0.0)),
        script=result.get("script_name") or None,
        script_confidence=float(result.get("script_conf", 0.0)),
    )


def languages_for_script(script: str | None) -> tuple[str, ...]:
    """Installed models for an OSD script name (``Latin`` → ``("Latin",)``)."""
    available = installed_languages() | _script_models_present()
    if script:
        wanted = _SCRIPT_MODELS.get(script, (script,))
        found = tuple(model for model in wanted if model in available)
        if found:
            return found
    return AUTO_FALLBACK


def _script_models_present() -> frozenset[str]:
    directory = Path(tessdata_dir())
    return frozenset(
        path.stem for path in directory.glob("*.traineddata") if path.stem[:1].isupper()
    )


def release_apis() -> None:
    """Free this thread's loaded Tesseract models (tests, long-lived idle workers)."""
    cache: OrderedDict[str, Any] | None = getattr(_local, "apis", None)
    if cache:
        for api in cache.values():
            api.End()
        cache.clear()
