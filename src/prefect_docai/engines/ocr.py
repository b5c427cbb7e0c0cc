"""Tesseract through tesserocr: word recognition and orientation/script detection.

A ``PyTessBaseAPI`` costs ~0.1–0.5 s to load per language set, so each thread keeps its own
loaded APIs (tesserocr releases the GIL while recognizing, so two threads use two cores;
one API must never be shared between threads). ``OMP_THREAD_LIMIT=1`` is set before the
library loads: Tesseract's OpenMP build is several times slower on a busy 2-core machine.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from prefect_docai.engines.languages import installed_languages, tessdata_dir
from prefect_docai.engines.raster import Gray

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


def _api(lang: str, psm: int) -> Any:
    import tesserocr

    cache: dict[tuple[str, int], Any] | None = getattr(_local, "apis", None)
    if cache is None:
        cache = {}
        _local.apis = cache
    key = (lang, psm)
    api = cache.get(key)
    if api is None:
        api = tesserocr.PyTessBaseAPI(path=tessdata_dir(), lang=lang, psm=psm)
        cache[key] = api
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
                    text=text.strip(),
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
    import tesserocr
    from rapidfuzz.distance import Levenshtein

    packs = lang.split("+")
    if "eng" not in packs or len(packs) < 2:
        return words
    others = "+".join(pack for pack in packs if pack != "eng")
    english = [i for i, word in enumerate(words) if word.language == "eng"
               and any(c.isalpha() for c in word.text)]
    if not english or len(english) * 2 > len(words) or len(english) > _MAX_REPAIRS:
        return words
    api = _api(others, tesserocr.PSM.SINGLE_WORD)
    _set_image(api, gray, dpi)
    height, width = gray.shape
    repaired = list(words)
    try:
        for index in english:
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
                    others,
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
    cache: dict[tuple[str, int], Any] | None = getattr(_local, "apis", None)
    if cache:
        for api in cache.values():
            api.End()
        cache.clear()
