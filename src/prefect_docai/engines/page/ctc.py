"""What RapidOCR's recognizer saw of a line besides its best reading: the per-frame
probabilities of the Latin-script characters (CTC), and the likelihood of another spelling
of a word under them.

PP-OCR's recognizer reads a line greedily: the most probable character per frame, repeats
and blanks removed. Where a glyph is worn or the print is thin, the second most probable
character is often the right one ("JALAU" where "JALAN" is printed; "ALAIN" for "ALAM").
:func:`word_likelihood` scores any spelling of a word over the frames the greedy reading
gave it, summed over every CTC alignment (the forward algorithm), so a known word can be
weighed against the greedy one by how well the frames support each.

:class:`FrameRecorder` wraps the recognizer of a ``rapidocr_onnxruntime.RapidOCR`` engine
and keeps, for each recognized crop, the frames of the characters in :func:`kept_columns`
(blank, space, ASCII and Latin letters): 212 of the PP-OCRv4 recognizer's 6,625 classes.
"""

from __future__ import annotations

import functools
import math
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

FLOOR = 1e-12
"""Probability floor, so a frame's log never is minus infinity."""


@dataclass(frozen=True)
class Frames:
    """One recognized crop: ``log_probs`` (frames × kept classes, natural log) with the
    class of each column (``classes``: "" is the CTC blank), and the frame span
    ``(first, last)`` of each character of the greedy reading, in reading order."""

    log_probs: npt.NDArray[np.float32]
    classes: tuple[str, ...]
    spans: tuple[tuple[int, int], ...]
    text: str
    score: float


def _latin(char: str) -> bool:
    folded = unicodedata.normalize("NFKC", char)
    if len(folded) != 1:
        return False
    if folded.isascii():
        return folded.isprintable()
    return unicodedata.name(folded, "").startswith("LATIN")


def kept_columns(character: Sequence[str]) -> tuple[list[int], tuple[str, ...]]:
    """The recognizer's classes kept in :class:`Frames` (its ``character`` list: 0 is the
    blank): the blank and every ASCII or Latin-letter character, NFKC-folded."""
    columns = [0]
    classes = [""]
    for index, char in enumerate(character):
        if index and _latin(char):
            columns.append(index)
            classes.append(unicodedata.normalize("NFKC", char))
    return columns, tuple(classes)


def greedy_spans(best: npt.NDArray[np.int64]) -> list[tuple[int, int]]:
    """Frame spans of the characters a greedy CTC reading of ``best`` (the most probable
    class per frame) keeps: a run of one non-blank class is one character."""
    spans: list[tuple[int, int]] = []
    previous = 0
    for frame, cls in enumerate(best.tolist()):
        if cls != 0 and cls != previous:
            spans.append((frame, frame))
        elif cls != 0 and spans:
            spans[-1] = (spans[-1][0], frame)
        previous = cls
    return spans


class FrameRecorder:
    """Stands in for a RapidOCR engine's ``text_rec``: recognizes as it does and keeps the
    :class:`Frames` of each crop of the last call (``last``, in the crops' order)."""

    def __init__(self, recognizer: Any) -> None:
        self._recognizer = recognizer
        decoder = recognizer.postprocess_op
        self._columns, self._classes = kept_columns(list(decoder.character))
        self._order: list[Frames] = []
        self.last: list[Frames | None] = []
        recorder = self

        class _Decode:
            def __init__(self) -> None:
                self.character = decoder.character

            def __call__(self, preds: Any, return_word_box: bool = False, **kwargs: Any) -> Any:
                result = decoder(preds, return_word_box, **kwargs)
                recorder._keep(np.asarray(preds), result)
                return result

        recognizer.postprocess_op = _Decode()

    def _keep(self, preds: npt.NDArray[np.float32], result: Sequence[Any]) -> None:
        best = preds.argmax(axis=2)
        reduced = np.log(np.maximum(preds[:, :, self._columns], FLOOR)).astype(np.float32)
        for row in range(preds.shape[0]):
            text = str(result[row][0]) if row < len(result) else ""
            score = float(result[row][1]) if row < len(result) else 0.0
            self._order.append(
                Frames(
                    log_probs=reduced[row],
                    classes=self._classes,
                    spans=tuple(greedy_spans(best[row])),
                    text=text,
                    score=score,
                )
            )

    def __call__(self, img_list: Any, return_word_box: bool = False) -> Any:
        images = [img_list] if isinstance(img_list, np.ndarray) else list(img_list)
        self._order = []
        out = self._recognizer(images, return_word_box)
        # The recognizer reads the crops in the order np.argsort gives their width ratios,
        # the same call on the same ratios as here.
        ratios = np.array([img.shape[1] / float(img.shape[0]) for img in images])
        indices = np.argsort(ratios)
        last: list[Frames | None] = [None] * len(images)
        for position, frames in enumerate(self._order):
            if position < len(indices):
                last[int(indices[position])] = frames
        self.last = last
        return out

    def __getattr__(self, name: str) -> Any:
        return getattr(self._recognizer, name)


def _logsumexp(a: float, b: float) -> float:
    if a == -math.inf:
        return b
    if b == -math.inf:
        return a
    high = max(a, b)
    return high + math.log(math.exp(a - high) + math.exp(b - high))


def folded_frames(
    frames: Frames, first: int, last: int
) -> tuple[npt.NDArray[np.float64], dict[str, int]]:
    """Frames ``first..last`` with upper and lower case of a letter summed into one column
    (a word's case is not what the lexicon decides), and each folded character's column."""
    names, groups = case_groups(frames.classes)
    window = frames.log_probs[first : last + 1].astype(np.float64)
    out = np.empty((window.shape[0], len(names)), dtype=np.float64)
    for j, columns in enumerate(groups):
        out[:, j] = np.log(np.exp(window[:, columns]).sum(axis=1))
    return out, {name: j for j, name in enumerate(names)}


@functools.lru_cache(maxsize=4)
def case_groups(classes: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[list[int], ...]]:
    """The case-folded characters of ``classes`` in order, and the columns of each (one
    recognizer's classes: worked out once, not for every word)."""
    groups: dict[str, list[int]] = {}
    for column, cls in enumerate(classes):
        groups.setdefault(cls.upper() if cls else "", []).append(column)
    names = tuple(sorted(groups))
    return names, tuple(groups[name] for name in names)


def word_likelihood(window: npt.NDArray[np.float64], index: dict[str, int], word: str) -> float:
    """Natural log of the probability that the frames of ``window`` (from
    :func:`folded_frames`) read ``word`` (case-folded), over every CTC alignment;
    minus infinity for a character the window has no column for, or too few frames."""
    labels: list[int] = []
    for char in word.upper():
        if char not in index:
            return -math.inf
        labels.append(index[char])
    blank = index[""]
    extended = [blank]
    for label in labels:
        extended += [label, blank]
    frames = window.shape[0]
    size = len(extended)
    alpha = [-math.inf] * size
    alpha[0] = float(window[0, blank])
    if size > 1:
        alpha[1] = float(window[0, extended[1]])
    for t in range(1, frames):
        row = window[t]
        new = [-math.inf] * size
        for s in range(size):
            total = alpha[s]
            if s >= 1:
                total = _logsumexp(total, alpha[s - 1])
            if s >= 2 and extended[s] != blank and extended[s] != extended[s - 2]:
                total = _logsumexp(total, alpha[s - 2])
            if total != -math.inf:
                new[s] = total + float(row[extended[s]])
        alpha = new
    result = alpha[size - 1]
    if size > 1:
        result = _logsumexp(result, alpha[size - 2])
    return result


RESPELL_FEATURES = (
    "gain",
    "lead",
    "read_per_frame",
    "length",
    "digits",
    "length_change",
    "edits",
    "min_confidence",
    "mean_confidence",
)
"""What the respelling scorer reads of a word and its best lexicon neighbour
(:func:`respell_candidate`)."""
MAX_EDITS = 2
"""Lexicon words at most this many edits from a word are its respelling candidates."""
TWO_EDITS_FROM = 5
"""Shorter words get candidates one edit away only."""


@dataclass(frozen=True)
class Respelling:
    """A word's letters-and-digits core (``core``: indices into the line's characters,
    ``text`` as read), the lexicon word near it (:func:`neighbours`) the frames support best
    (``word``, upper case) and the scorer's :data:`RESPELL_FEATURES` row."""

    core: tuple[int, ...]
    text: str
    word: str
    row: tuple[float, ...]

    def cased(self) -> str:
        """``word`` in the case the core was read in (all lower, capitalised, else upper)."""
        letters = [c for c in self.text if c.isalpha()]
        if letters and all(c.islower() for c in letters):
            return self.word.lower()
        if len(letters) > 1 and letters[0].isupper() and all(c.islower() for c in letters[1:]):
            return self.word[:1] + self.word[1:].lower()
        return self.word


@functools.lru_cache(maxsize=4)
def _sorted(lexicon: frozenset[str]) -> tuple[str, ...]:
    return tuple(sorted(lexicon))


def neighbours(word: str, lexicon: frozenset[str]) -> list[tuple[str, int]]:
    """Lexicon words within :data:`MAX_EDITS` edits (insertions, deletions, substitutions)
    of ``word`` (upper case), one edit for a word shorter than :data:`TWO_EDITS_FROM`
    letters, with their distance."""
    from rapidfuzz import process
    from rapidfuzz.distance import Levenshtein

    limit = MAX_EDITS if len(word) >= TWO_EDITS_FROM else 1
    found = process.extract(
        word,
        _sorted(lexicon),
        scorer=Levenshtein.distance,
        score_cutoff=limit,
        limit=None,
    )
    return sorted((str(w), int(d)) for w, d, _ in found if 0 < d <= limit)


def respell_candidate(
    frames: Frames,
    chars: Sequence[str],
    confidences: Sequence[float],
    group: Sequence[int],
    lexicon: frozenset[str],
) -> Respelling | None:
    """The best lexicon respelling of the word made of the line's characters ``group``
    (indices into ``chars``, the greedy reading's characters, one per span of ``frames``;
    ``confidences`` theirs): among the lexicon words near the word's letters-and-digits core
    (:func:`neighbours`), the one the core's frames support best. ``None`` where the
    core is short, holds fewer than two letters, is itself a lexicon word or has no
    neighbour in the lexicon."""
    if len(chars) != len(frames.spans) or not group:
        return None
    core = [i for i in group if chars[i].isalnum()]
    if len(core) < 3 or core != list(range(core[0], core[-1] + 1)):
        return None
    text = "".join(chars[i] for i in core)
    upper = text.upper()
    if upper in lexicon or sum(c.isalpha() for c in text) < 2 or not upper.isascii():
        return None
    candidates = dict(neighbours(upper, lexicon))
    if not candidates:
        return None
    # The core's frames: from after the character before it to before the one after it.
    first = frames.spans[core[0] - 1][1] + 1 if core[0] > 0 else 0
    last = (
        frames.spans[core[-1] + 1][0] - 1
        if core[-1] + 1 < len(frames.spans)
        else frames.log_probs.shape[0] - 1
    )
    if last < first:
        return None
    window, index = folded_frames(frames, first, last)
    read = word_likelihood(window, index, upper)
    scored = sorted(((word_likelihood(window, index, w), w) for w in candidates), reverse=True)
    best, word = scored[0]
    if best == -math.inf or read == -math.inf:
        return None
    runner_up = scored[1][0] if len(scored) > 1 else -math.inf
    confs = [float(confidences[i]) for i in core] if len(confidences) == len(chars) else [0.0]
    row = (
        min(best - read, 50.0),
        min(best - runner_up, 50.0),
        read / window.shape[0],
        float(len(core)),
        float(sum(c.isdigit() for c in text)),
        float(len(word) - len(upper)),
        float(candidates[word]),
        min(confs),
        sum(confs) / len(confs),
    )
    return Respelling(tuple(core), text, word, row)


def spelled_word(
    chars: Sequence[str],
    group: Sequence[int],
    swapped: Mapping[int, str] | None = None,
    after: Mapping[int, str] | None = None,
    respelling: Respelling | None = None,
) -> str:
    """The word of the line's characters ``group``: ``respelling``'s word in place of its
    core, and the punctuation decided on the frames (``rapid.line_marks``: ``swapped``,
    a read mark spelled otherwise; ``after``, a dropped comma after a character) where it
    falls outside the core or after its last character."""
    swapped, after = swapped or {}, after or {}
    core = set(respelling.core) if respelling is not None else set()
    out = []
    for i in group:
        if respelling is not None and i == respelling.core[0]:
            out.append(respelling.cased())
        elif i not in core:
            out.append(swapped.get(i, chars[i]))
        if i not in core or respelling is None or i == respelling.core[-1]:
            out.append(after.get(i, ""))
    return "".join(out)


PUNCT_KINDS = ("upper", "lower", "digit", "other", "none")
"""The kinds of the characters either side of a punctuation candidate ("none": the line's
start or end)."""
PUNCT_FEATURES = (
    "read_dot",
    "read_comma",
    "dropped",
    "line_end",
    "comma_log",
    "dot_log",
    "space_log",
    "margin",
    "frames",
    *(f"left_{kind}" for kind in PUNCT_KINDS),
    *(f"right_{kind}" for kind in PUNCT_KINDS),
    "digits_around",
    "spaced_after",
)
"""What the punctuation scorer reads of a point of a line where a comma may be
(:func:`punctuation_candidates`)."""
PUNCT_FLOOR = 0.01
"""A comma the greedy reading dropped is a candidate where its probability reaches this on
one frame between two characters or after the line's last one (candidate generation: the
scorer decides)."""


@dataclass(frozen=True)
class Punctuation:
    """A point of a line where the greedy reading may have the wrong mark: the character
    ``index`` read as "." or "," (``dropped`` false: the scorer says which of the two it
    is), or the character after which a comma no character was read for may stand
    (``dropped`` true), with the scorer's :data:`PUNCT_FEATURES` row."""

    index: int
    dropped: bool
    row: tuple[float, ...]


def _punct_kind(char: str | None) -> str:
    if char is None:
        return "none"
    if char.isalpha():
        return "upper" if char.isupper() else "lower"
    return "digit" if char.isdigit() else "other"


def punctuation_candidates(frames: Frames, chars: Sequence[str]) -> list[Punctuation]:
    """The line's comma candidates (see :class:`Punctuation`): every character read as
    "." or ",", and every gap between two neighbouring characters (or after the last)
    whose frames give a comma at least :data:`PUNCT_FLOOR` where no mark was read.
    Probabilities sum the recognizer's classes that fold to one mark (full-width "，" is
    ","); a row holds, on the character's frames or the gap's, the highest comma, full
    stop and space probability (natural logs), the comma's lead over the full stop, the
    number of frames, the kinds of the characters before and after (:data:`PUNCT_KINDS`),
    whether both are digits ("1.50") and whether the recognizer put a space after."""
    if len(chars) != len(frames.spans) or not all(m in frames.classes for m in ",. "):
        return []
    probs = np.exp(frames.log_probs.astype(np.float64))

    def column(mark: str) -> npt.NDArray[np.float64]:
        picked = [j for j, c in enumerate(frames.classes) if c == mark]
        summed: npt.NDArray[np.float64] = probs[:, picked].sum(axis=1)
        return summed

    comma, dot, space = column(","), column("."), column(" ")
    kept = [i for i, c in enumerate(chars) if c.strip()]
    out: list[Punctuation] = []

    def row(kind: str, first: int, last: int, position: int, step: int) -> tuple[float, ...]:
        """``position`` in ``kept``: the read mark (step 1) or the character before the
        gap (step 0 for the character after: position + 1)."""
        left = chars[kept[position - step]] if position - step >= 0 else None
        after = position + 1
        right = chars[kept[after]] if after < len(kept) else None
        logs = [
            math.log(float(values[first : last + 1].max()) + FLOOR)
            for values in (comma, dot, space)
        ]
        kinds = (_punct_kind(left), _punct_kind(right))
        return (
            float(kind == "."),
            float(kind == ","),
            float(kind == "dropped"),
            float(right is None),
            *logs,
            logs[0] - logs[1],
            float(last - first + 1),
            *(float(kinds[0] == k) for k in PUNCT_KINDS),
            *(float(kinds[1] == k) for k in PUNCT_KINDS),
            float(kinds == ("digit", "digit")),
            float(after < len(kept) and kept[after] - kept[position] > 1),
        )

    total = frames.log_probs.shape[0]
    for position, index in enumerate(kept):
        char = chars[index]
        if char in ".,":
            first, last = frames.spans[index]
            out.append(Punctuation(index, False, row(char, first, last, position, 1)))
            continue
        following = chars[kept[position + 1]] if position + 1 < len(kept) else None
        if following is not None and following in ".,:;":
            continue
        first = frames.spans[index][1] + 1
        last = frames.spans[kept[position + 1]][0] - 1 if following is not None else total - 1
        if last < first or float(comma[first : last + 1].max()) < PUNCT_FLOOR:
            continue
        out.append(Punctuation(index, True, row("dropped", first, last, position, 0)))
    return out
