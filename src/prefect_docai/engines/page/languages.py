"""ISO 639-1 language hints → installed Tesseract language packs, and the language of a
text (py3langid) among the hinted ones."""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path
from typing import Any

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


@cache
def _iso_639_1(tesseract_code: str) -> str | None:
    import pycountry

    language = pycountry.languages.get(alpha_3=tesseract_code.split("_")[0])
    code = getattr(language, "alpha_2", None) if language is not None else None
    return str(code) if code else None


def detect_language(text: str, requested: tuple[str, ...]) -> str:
    """ISO 639-1 code of the text's language.

    With explicit languages the answer is one of them (py3langid restricted to that set);
    with ``auto`` any language py3langid knows. Short texts fall back to the first hint.
    """
    hinted = [code for code in (_iso_639_1(lang) for lang in requested if lang != "auto") if code]
    sample = " ".join(text.split())[:5000]
    if len(hinted) != 1 and sum(c.isalpha() for c in sample) >= 20:
        # rank() instead of set_languages(): the shared identifier stays unmodified.
        for code, _ in _identifier().rank(sample):
            if not hinted or code in hinted:
                return str(code)
    return hinted[0] if hinted else "und"


@cache
def _identifier() -> Any:
    from py3langid.langid import MODEL_FILE, LanguageIdentifier

    return LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=False)


ENGLISH = "eng"

MIN_DETECT_LETTERS = 100
"""Letters a first OCR reading needs before its language may send the page to another
pack (a few words could be names or product codes in any language)."""


def main_language(
    text: str, languages: tuple[str, ...], others: tuple[str, ...]
) -> tuple[str, ...] | None:
    """The packs to read a page again with, or ``None`` to keep its first reading.

    ``text`` was read with ``languages`` (the first pack the main language, the rest
    companions such as English). When py3langid, restricted to ``languages`` and
    ``others``, finds it written in one of ``others``, the answer is ``languages`` with
    that pack in place of the first: a French page first read with ``deu+eng`` is read
    again with ``fra+eng``, which keeps its accents and labels. English is never dropped:
    a page first read with ``eng`` alone is read again with ``fra+eng`` (codes, units and
    English labels in a French table stay readable).
    """
    if not others or sum(c.isalpha() for c in text) < MIN_DETECT_LETTERS:
        return None
    candidates = (*languages, *(pack for pack in others if pack not in languages))
    code = detect_language(text, candidates)
    for pack in others:
        if pack not in languages and _iso_639_1(pack) == code:
            companions = languages if languages[0] == ENGLISH else languages[1:]
            return tuple(dict.fromkeys((pack, *companions)))
    return None
