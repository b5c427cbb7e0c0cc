"""Look-alike letters and digits put right from the recognizer's frames
(:mod:`prefect_docai.engines.page.confusion`)."""

from __future__ import annotations

import numpy as np

from prefect_docai.engines.page import rapid
from prefect_docai.engines.page.confusion import (
    SUBST_FEATURES,
    Substitution,
    packaged_substituter,
    substitution_candidates,
)
from prefect_docai.engines.page.ctc import Frames, greedy_spans

CLASSES = (
    *("", " ", "L", "O", "0", "C", "A", "N", "T", "4", "7", "5", "S", "o", "c", "a", "l"),
    *("1", "V", "I", "E", "v", "i", "e"),
)


def _frames(read: str, second: dict[int, tuple[str, float]]) -> Frames:
    """The recognizer's frames of a line read ``read`` (no spaces), each character on one
    frame between blanks, the character at an index of ``second`` losing only narrowly to
    the given one."""
    probs = np.full((2 * len(read) + 1, len(CLASSES)), 1e-4)
    probs[:, 0] = 0.97
    for i, char in enumerate(read):
        frame = 2 * i + 1
        probs[frame, 0] = 1e-4
        if i in second:
            other, p = second[i]
            probs[frame, CLASSES.index(char)] = 1.0 - p
            probs[frame, CLASSES.index(other)] = p
        else:
            probs[frame, CLASSES.index(char)] = 0.97
    best = probs.argmax(axis=1)
    return Frames(np.log(probs).astype(np.float32), CLASSES, tuple(greedy_spans(best)), read, 0.9)


def _line(read: str, second: dict[int, tuple[str, float]]) -> list[object]:
    """A RapidOCR line read ``read`` as ``rapid.split_lines`` takes it (:func:`_frames`)."""
    frames = _frames(read, second)
    boxes = [
        [[12 * i, 0], [12 * i + 10, 0], [12 * i + 10, 24], [12 * i, 24]] for i in range(len(read))
    ]
    width = 12 * len(read)
    quad = [[0, 0], [width, 0], [width, 24], [0, 24]]
    confidences = [1.0 - second[i][1] if i in second else 0.97 for i in range(len(read))]
    return [quad, read, 0.9, boxes, list(read), confidences, frames]


def test_candidates_offer_the_look_alike_the_frames_give_with_the_word_around_it() -> None:
    frames = _frames("L0CAL", {1: ("O", 0.3)})
    found = substitution_candidates(frames, list("L0CAL"), [0.9] * 5, frozenset({"LOCAL"}))
    assert [(f.index, f.alternative) for f in found] == [(1, "O")]
    row = dict(zip(SUBST_FEATURES, found[0].row, strict=True))
    assert row["cross"] == 1.0 and row["run_letters"] == 4.0 and row["run_digits"] == 0.0
    assert row["alt_known"] == 1.0 and row["read_known"] == 0.0
    # a lower-case word takes the look-alike in lower case
    lower = _frames("lOcal", {1: ("0", 0.3)})
    assert (
        substitution_candidates(lower, list("lOcal"), [0.9] * 5, frozenset())[0].alternative == "0"
    )


def test_split_lines_spells_what_the_substituter_takes() -> None:
    line = _line("L0CAL", {1: ("O", 0.3)})
    taken: list[Substitution] = []

    def yes(found: Substitution) -> bool:
        taken.append(found)
        return True

    words = rapid.split_lines([line], None, model=None, substitute=yes)
    assert [w.text for w in words] == ["LOCAL"] and len(taken) == 1
    assert [w.text for w in rapid.split_lines([line], None, model=None, substitute=None)] == [
        "L0CAL"
    ]


def test_the_packaged_scorer_puts_a_letter_in_a_word_and_a_digit_in_a_number() -> None:
    substitute = packaged_substituter()
    assert substitute is not None
    lexicon = rapid.space_lexicon()
    assert lexicon
    # each doubtful character's look-alike a close second (0.45) on its frame
    cases = (
        (_line("L0CAL", {1: ("O", 0.45)}), "LOCAL"),
        (_line("475O0", {3: ("0", 0.45)}), "47500"),
        (_line("TOTAL", {1: ("0", 0.45)}), "TOTAL"),
    )
    for line, right in cases:
        assert [w.text for w in rapid.split_lines([line], None)] == [right]


def test_a_small_letter_is_never_turned_into_a_digit() -> None:
    """The scorer learnt from capitals only: "ville" (an "l" between small letters, "1" a
    close second) and "cocoa" ("0" second to an "o") are left alone whatever a substituter
    would say, while the capitals' look-alikes are still offered and taken."""

    def yes(found: Substitution) -> bool:
        return True

    kept = (
        _line("ville", {2: ("1", 0.45)}),
        _line("cocoa", {3: ("0", 0.45)}),
        _line("Vil", {2: ("1", 0.45)}),
    )
    for line in kept:
        read = str(line[1])
        assert [w.text for w in rapid.split_lines([line], None, model=None, substitute=yes)] == [
            read
        ]
        assert [w.text for w in rapid.split_lines([line], None)] == [read]
    changed = (
        (_line("VILLE", {2: ("1", 0.45)}), "VI1LE"),
        (_line("L0CAL", {1: ("O", 0.45)}), "LOCAL"),
        (_line("lOcal", {1: ("0", 0.45)}), "l0cal"),  # a capital read: still offered
    )
    for line, spelled in changed:
        assert [w.text for w in rapid.split_lines([line], None, model=None, substitute=yes)] == [
            spelled
        ]
