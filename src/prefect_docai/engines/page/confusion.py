"""A letter or digit the recognizer read as its look-alike ("L0CAL", "475OO", "N0:"),
put right from the recognizer's own frames and the word around it.

On the SROIE pool's RapidOCR lines, aligned with their annotated text, the commonest
character misreads are look-alikes across letters and digits: "0" for "O" and back (about
200 of some 2,000 misread words), "1" for "I" or "L", "5" for "S", "8" for "B"; the
recognizer's frames mostly give the right character some probability too, and the word
around the character says which kind it should be (a digit inside a run of letters, a
letter inside a number). :func:`substitution_candidates` offers, for every letter or digit
of a line, the best other letter or digit its frames give at least :data:`SUBST_FLOOR`
(case folded), with the :data:`SUBST_FEATURES` row a learned scorer (:data:`SUBST_MODEL`,
trained by ``training/ocr_confusions.py`` on the pool's annotated lines, folds by
merchant) decides on; a small letter is never offered a digit (the pool, printed in
capitals, teaches nothing about small letters). No word list keyed to a shop: the lexicon
it reads is the space scorer's (words printed on at least two annotated receipts or
generated ones).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from prefect_docai.engines.page.ctc import FLOOR, Frames, case_groups

SUBST_FLOOR = 0.005
"""An alternative character is a candidate where its probability reaches this on one
frame of the read character's span (candidate generation: the scorer decides)."""
SUBST_KINDS = ("letter", "digit", "other", "none")
SUBST_FEATURES = (
    "read_log",
    "alt_log",
    "margin",
    "confidence",
    "read_digit",
    "alt_digit",
    "cross",
    *(f"left_{kind}" for kind in SUBST_KINDS),
    *(f"right_{kind}" for kind in SUBST_KINDS),
    "run_letters",
    "run_digits",
    "run_length",
    "position",
    "read_known",
    "alt_known",
    "line_letters",
    "line_digits",
)
"""What the substitution scorer reads of one character and its look-alike
(:func:`substitution_candidates`)."""
SUBST_MODEL = "rapid_subst.json"
"""The learned substitution scorer in ``engines/data/`` (``training/ocr_confusions.py``)."""
SUBST_THRESHOLD = 0.5
"""A character takes its alternative when the scorer gives it at least this probability."""


@dataclass(frozen=True)
class Substitution:
    """Character ``index`` of a line may be ``alternative`` (in the case it would be
    printed in), with the scorer's :data:`SUBST_FEATURES` row."""

    index: int
    alternative: str
    row: tuple[float, ...]


Substituter = Callable[[Substitution], bool]
"""Decides whether a :class:`Substitution` is taken."""


def _kind(char: str | None) -> str:
    if char is None or not char.strip():
        return "none"
    if char.isalpha():
        return "letter"
    return "digit" if char.isdigit() else "other"


def _run(chars: Sequence[str], index: int) -> tuple[int, int]:
    """The letters-and-digits run around ``index`` (first, last)."""
    first = index
    while first > 0 and chars[first - 1].isalnum():
        first -= 1
    last = index
    while last + 1 < len(chars) and chars[last + 1].isalnum():
        last += 1
    return first, last


def _cased(alternative: str, read: str, chars: Sequence[str], first: int, last: int) -> str:
    """``alternative`` (upper case) in the case of the run's other letters (lower where
    they all are, and the read character was not a capital)."""
    if not alternative.isalpha():
        return alternative
    letters = [c for c in chars[first : last + 1] if c.isalpha() and c != read]
    if read.isalpha():
        return alternative.lower() if read.islower() else alternative
    if letters and all(c.islower() for c in letters):
        return alternative.lower()
    return alternative


@functools.lru_cache(maxsize=4)
def _folding(
    classes: tuple[str, ...],
) -> tuple[tuple[str, ...], npt.NDArray[np.float64], npt.NDArray[np.bool_]]:
    """The case-folded characters of a recognizer's ``classes``, the 0/1 matrix summing
    each class's column into its folded character's, and which folded characters are one
    ASCII letter or digit (worked out once per recognizer)."""
    names, groups = case_groups(classes)
    matrix = np.zeros((len(classes), len(names)), dtype=np.float64)
    for j, columns in enumerate(groups):
        matrix[columns, j] = 1.0
    usable = np.array([n.isascii() and n.isalnum() and len(n) == 1 for n in names], dtype=bool)
    return names, matrix, usable


def substitution_candidates(
    frames: Frames,
    chars: Sequence[str],
    confidences: Sequence[float],
    lexicon: frozenset[str],
) -> list[Substitution]:
    """Every letter or digit of the line (``chars``, one per span of ``frames``) whose
    span's frames give another letter or digit (case folded) at least :data:`SUBST_FLOOR`:
    the likeliest such (none for a small letter whose likeliest is a digit), with a row of
    the read and the alternative's highest probability on the span (natural logs) and
    their difference, the character's confidence, whether each is a digit and whether they
    differ in kind, the kinds of the neighbouring characters (:data:`SUBST_KINDS`), the
    letters, digits and length of the run of letters and digits around it and its place in
    the run, whether the run as read and with the alternative is a ``lexicon`` word, and the
    line's letters and digits."""
    if len(chars) != len(frames.spans) or not chars:
        return []
    names, folding, usable = _folding(frames.classes)
    column = {name: j for j, name in enumerate(names)}
    # Only the characters' own frames are read: fold those (one product), not the line's.
    taken = np.concatenate([np.arange(a, b + 1) for a, b in frames.spans])
    folded = np.exp(frames.log_probs[taken].astype(np.float64)) @ folding
    offsets = np.cumsum([0, *(b - a + 1 for a, b in frames.spans)])
    line_letters = float(sum(c.isalpha() for c in chars))
    line_digits = float(sum(c.isdigit() for c in chars))
    out: list[Substitution] = []
    for index, char in enumerate(chars):
        read = char.upper()
        if not (char.isascii() and char.isalnum()) or read not in column:
            continue
        peak = np.where(usable, folded[offsets[index] : offsets[index + 1]].max(axis=0), 0.0)
        own = float(peak[column[read]])
        peak[column[read]] = 0.0
        best = int(peak.argmax())
        if float(peak[best]) < SUBST_FLOOR:
            continue
        alternative = names[best]
        if char.islower() and alternative.isdigit():
            # Never a small letter into a digit (structural, not learnt): the scorer learns
            # from the SROIE pool, printed in capitals, so it has next to no small letters
            # to go by; on mixed-case print it made "Stephanieville", read right,
            # "Stephanievi1le". A small letter is a letter of mixed-case text, not a digit.
            continue
        first, last = _run(chars, index)
        run = "".join(chars[first : last + 1]).upper()
        swapped = run[: index - first] + alternative + run[index - first + 1 :]
        letters = sum(c.isalpha() for c in run) - (1 if char.isalpha() else 0)
        digits = sum(c.isdigit() for c in run) - (1 if char.isdigit() else 0)
        left = chars[index - 1] if index > 0 else None
        right = chars[index + 1] if index + 1 < len(chars) else None
        read_log = math.log(max(own, FLOOR))
        alt_log = math.log(max(float(peak[best]), FLOOR))
        confidence = float(confidences[index]) if len(confidences) == len(chars) else -1.0
        row = (
            read_log,
            alt_log,
            read_log - alt_log,
            confidence,
            float(char.isdigit()),
            float(alternative.isdigit()),
            float(char.isdigit() != alternative.isdigit()),
            *(float(_kind(left) == kind) for kind in SUBST_KINDS),
            *(float(_kind(right) == kind) for kind in SUBST_KINDS),
            float(letters),
            float(digits),
            float(last - first + 1),
            (index - first) / max(last - first, 1),
            float(run in lexicon),
            float(swapped in lexicon),
            line_letters,
            line_digits,
        )
        out.append(Substitution(index, _cased(alternative, char, chars, first, last), row))
    return out


def line_substitutions(
    frames: Frames | None,
    chars: Sequence[str],
    confidences: Sequence[float],
    lexicon: frozenset[str],
    substitute: Substituter | None,
) -> dict[int, str]:
    """The characters of the line ``substitute`` spells otherwise (index to character)."""
    if frames is None or substitute is None:
        return {}
    return {
        found.index: found.alternative
        for found in substitution_candidates(frames, chars, confidences, lexicon)
        if substitute(found)
    }


def packaged_substituter() -> Substituter | None:
    """The packaged substitution scorer's decision (``None`` without the model file)."""
    from prefect_docai.engines.learned import packaged

    scorer = packaged(SUBST_MODEL, SUBST_FEATURES)
    if scorer is None:
        return None
    return lambda found: scorer.probability(found.row) >= SUBST_THRESHOLD
