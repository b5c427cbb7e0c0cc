"""Font registry for generated documents.

Fonts come from Debian packages (``scripts/setup-apt.sh``) or ship with reportlab, and are
registered with reportlab lazily, on first use, because parsing a TrueType file costs a few
milliseconds and most documents need only two or three faces. A family whose files are
missing falls back to a PDF standard font, so generation never fails on a thin machine.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

import reportlab
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

_DEBIAN = Path("/usr/share/fonts/truetype")
_REPORTLAB = Path(reportlab.__file__).parent / "fonts"


@dataclass(frozen=True)
class Family:
    """Regular, bold and italic face names of one typeface family."""

    regular: str
    bold: str
    italic: str


_STANDARD = {
    "helvetica": Family("Helvetica", "Helvetica-Bold", "Helvetica-Oblique"),
    "times": Family("Times-Roman", "Times-Bold", "Times-Italic"),
    "courier": Family("Courier", "Courier-Bold", "Courier-Oblique"),
}

# family -> (regular, bold, italic) file paths, and the standard family used when missing
_TRUETYPE: dict[str, tuple[tuple[Path, Path, Path], str]] = {
    "dejavu-sans": (
        (
            _DEBIAN / "dejavu/DejaVuSans.ttf",
            _DEBIAN / "dejavu/DejaVuSans-Bold.ttf",
            _DEBIAN / "dejavu/DejaVuSans-Oblique.ttf",
        ),
        "helvetica",
    ),
    "dejavu-condensed": (
        (
            _DEBIAN / "dejavu/DejaVuSansCondensed.ttf",
            _DEBIAN / "dejavu/DejaVuSansCondensed-Bold.ttf",
            _DEBIAN / "dejavu/DejaVuSansCondensed-Oblique.ttf",
        ),
        "helvetica",
    ),
    "dejavu-serif": (
        (
            _DEBIAN / "dejavu/DejaVuSerif.ttf",
            _DEBIAN / "dejavu/DejaVuSerif-Bold.ttf",
            _DEBIAN / "dejavu/DejaVuSerif-Italic.ttf",
        ),
        "times",
    ),
    "dejavu-mono": (
        (
            _DEBIAN / "dejavu/DejaVuSansMono.ttf",
            _DEBIAN / "dejavu/DejaVuSansMono-Bold.ttf",
            _DEBIAN / "dejavu/DejaVuSansMono-Oblique.ttf",
        ),
        "courier",
    ),
    "liberation-sans": (
        (
            _DEBIAN / "liberation/LiberationSans-Regular.ttf",
            _DEBIAN / "liberation/LiberationSans-Bold.ttf",
            _DEBIAN / "liberation/LiberationSans-Italic.ttf",
        ),
        "helvetica",
    ),
    "liberation-narrow": (
        (
            _DEBIAN / "liberation/LiberationSansNarrow-Regular.ttf",
            _DEBIAN / "liberation/LiberationSansNarrow-Bold.ttf",
            _DEBIAN / "liberation/LiberationSansNarrow-Italic.ttf",
        ),
        "helvetica",
    ),
    "liberation-serif": (
        (
            _DEBIAN / "liberation/LiberationSerif-Regular.ttf",
            _DEBIAN / "liberation/LiberationSerif-Bold.ttf",
            _DEBIAN / "liberation/LiberationSerif-Italic.ttf",
        ),
        "times",
    ),
    "liberation-mono": (
        (
            _DEBIAN / "liberation/LiberationMono-Regular.ttf",
            _DEBIAN / "liberation/LiberationMono-Bold.ttf",
            _DEBIAN / "liberation/LiberationMono-Italic.ttf",
        ),
        "courier",
    ),
    "vera": (
        (_REPORTLAB / "Vera.ttf", _REPORTLAB / "VeraBd.ttf", _REPORTLAB / "VeraIt.ttf"),
        "helvetica",
    ),
}

FAMILIES: tuple[str, ...] = (*_STANDARD, *_TRUETYPE)
MONO_FAMILIES: tuple[str, ...] = ("courier", "dejavu-mono", "liberation-mono")


@dataclass(frozen=True)
class HandFont:
    """A handwriting-like face and the characters it cannot draw."""

    name: str
    path: Path
    missing: str

    @property
    def umlauts(self) -> bool:
        return not any(ch in self.missing for ch in "äöüÄÖÜ")

    def fit(self, text: str) -> str:
        """``text`` with characters this face lacks spelled out (ß → ss, € → EUR)."""
        for ch, repl in (
            ("ß", "ss"),
            ("€", "EUR"),
            ("ä", "ae"),
            ("ö", "oe"),
            ("ü", "ue"),
            ("Ä", "Ae"),
            ("Ö", "Oe"),
            ("Ü", "Ue"),
        ):
            if ch in self.missing:
                text = text.replace(ch, repl)
        return text


# Debian packages: fonts-dkg-handwriting, fonts-breip, fonts-femkeklaver, fonts-kristi,
# fonts-humor-sans. reportlab embeds only TrueType outlines, so the CFF-based .otf script
# fonts in Debian (Dancing Script, Comic Neue, bwht) cannot be used.
# (checked by rendering each glyph: Femke Klaver maps ß to an empty outline)
_HAND_FILES: tuple[tuple[str, Path, str], ...] = (
    ("Hand-DKG", _DEBIAN / "fifthhorseman/dkg.ttf", "€"),
    ("Hand-DKG-Italic", _DEBIAN / "fifthhorseman/dkgIt.ttf", "€"),
    ("Hand-Breip", _DEBIAN / "breip/Breip.ttf", "€"),
    ("Hand-Femke", _DEBIAN / "femkeklaver/femkeklaver.ttf", "ß"),
    ("Hand-Kristi", _DEBIAN / "kristi/Kristi.ttf", "€"),
    ("Hand-Humor", _DEBIAN / "humor-sans/Humor-Sans.ttf", "äöüÄÖÜß€"),
)


def _register(name: str, path: Path) -> bool:
    if name in pdfmetrics.getRegisteredFontNames():
        return True
    if not path.is_file():
        return False
    pdfmetrics.registerFont(TTFont(name, str(path)))
    return True


@functools.cache
def family(name: str) -> Family:
    """The face names of family ``name``, registering its TrueType files on first use."""
    if name in _STANDARD:
        return _STANDARD[name]
    paths, fallback = _TRUETYPE[name]
    faces = [f"{name}-{style}" for style in ("regular", "bold", "italic")]
    if all(_register(face, path) for face, path in zip(faces, paths, strict=True)):
        return Family(*faces)
    return _STANDARD[fallback]


@functools.cache
def hand_fonts() -> tuple[HandFont, ...]:
    """The handwriting faces installed here (registered), possibly empty."""
    found = []
    for name, path, missing in _HAND_FILES:
        if _register(name, path):
            found.append(HandFont(name, path, missing))
    return tuple(found)


def hand_font(index: int, *, need_umlauts: bool) -> HandFont | None:
    """A handwriting face picked by ``index``; None when none is installed."""
    fonts = [f for f in hand_fonts() if f.umlauts or not need_umlauts]
    if not fonts:
        return None
    return fonts[index % len(fonts)]
