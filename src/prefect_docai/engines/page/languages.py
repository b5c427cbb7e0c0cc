"""ISO 639-1 language hints → installed Tesseract language packs."""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path

TESSDATA_CANDIDATES = (
    "/usr/share/tesseract-ocr/5/tessdata",
    "/usr/share/tesseract-ocr/4.00/tessdata",
    "/usr/share/tessdata",
)

# Where Tesseract's code is not the ISO 639-2/T code pycountry gives, or one hint needs
# several packs (Chinese in both scripts, Serbian in both alphabets).
_SPECIAL: dict[str, tuple[str, ...]] = {
    "zh": ("chi_sim", "chi_tra"),
    "sr": ("srp", "srp_latn"),
    "uz": ("uzb", "uzb_cyrl"),
    "az": ("aze", "aze_cyrl"),
    "ms": ("msa",),
    "fa": ("fas",),
    "sq": ("sqi",),
    "el": ("ell",),
    "ka": ("kat",),
    "hy": ("hye",),
    "mk": ("mkd",),
    "ro": ("ron",),
    "sk": ("slk",),
    "cy": ("cym",),
    "eu": ("eus",),
    "is": ("isl",),
    "my": ("mya",),
    "bo": ("bod",),
    "nl": ("nld",),
    "cs": ("ces",),
    "de": ("deu",),
    "fr": ("fra",),
    "zh-cn": ("chi_sim",),
    "zh-tw": ("chi_tra",),
}


class LanguageError(ValueError):
    pass


def tessdata_dir() -> str:
    configured = os.environ.get("TESSDATA_PREFIX")
    if configured and Path(configured).is_dir():
        return configured
    for candidate in TESSDATA_CANDIDATES:
        if Path(candidate).is_dir():
            return candidate
    return TESSDATA_CANDIDATES[0]


@cache
def installed_languages() -> frozenset[str]:
    """Tesseract language packs present in the tessdata directory (``osd`` excluded)."""
    directory = Path(tessdata_dir())
    if not directory.is_dir():
        return frozenset()
    return frozenset(
        path.stem for path in directory.glob("*.traineddata") if path.stem not in {"osd", "equ"}
    )


def _iso_to_tesseract(code: str) -> tuple[str, ...]:
    if code in _SPECIAL:
        return _SPECIAL[code]
    import pycountry

    language = pycountry.languages.get(alpha_2=code)
    if language is None:
        raise LanguageError(f"{code!r} is not an ISO 639-1 language code")
    alpha_3 = getattr(language, "alpha_3", None)
    if not alpha_3:
        raise LanguageError(f"{code!r} has no three-letter code")
    return (str(alpha_3),)


def parse_language_hint(hint: str | None) -> tuple[str, ...]:
    """``"de,en"`` → ``("deu", "eng")``; ``None``/empty → English; ``"auto"`` → ``("auto",)``.

    Raises :class:`LanguageError` for a code that is not ISO 639-1 or whose Tesseract pack
    is not installed.
    """
    if hint is None or not hint.strip():
        return ("eng",)
    codes = [part.strip().lower() for part in hint.replace("+", ",").split(",") if part.strip()]
    if codes == ["auto"]:
        return ("auto",)
    installed = installed_languages()
    result: list[str] = []
    for code in codes:
        if code == "auto":
            raise LanguageError("'auto' cannot be combined with other languages")
        if len(code) != 2 and code not in _SPECIAL:
            raise LanguageError(f"{code!r} is not an ISO 639-1 language code (two letters)")
        packs = _iso_to_tesseract(code)
        missing = [pack for pack in packs if pack not in installed]
        if len(missing) == len(packs):
            raise LanguageError(f"language {code!r} (Tesseract {'+'.join(packs)}) is not installed")
        result.extend(pack for pack in packs if pack in installed and pack not in result)
    return tuple(result)
