"""CTC frames of RapidOCR's recognizer: greedy spans, word likelihoods, respelling."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from prefect_docai.engines.page.ctc import (
    PUNCT_FEATURES,
    FrameRecorder,
    Frames,
    folded_frames,
    greedy_spans,
    kept_columns,
    neighbours,
    punctuation_candidates,
    respell_candidate,
    spelled_word,
    word_likelihood,
)

CLASSES = ("", "A", "L", "M", "I", "N", "a", "l", "m", "i", "n", " ")


def frames_of(rows: list[dict[str, float]], text: str) -> Frames:
    """Frames whose rows give the named classes their probability (the rest share what is
    left), and the greedy spans of the most probable class per row."""
    probs = np.full((len(rows), len(CLASSES)), 1e-6)
    for t, row in enumerate(rows):
        for name, p in row.items():
            probs[t, CLASSES.index(name)] = p
        rest = [j for j, c in enumerate(CLASSES) if c not in row]
        probs[t, rest] = max(1e-6, (1 - sum(row.values())) / len(rest))
    best = probs.argmax(axis=1)
    return Frames(
        log_probs=np.log(probs).astype(np.float32),
        classes=CLASSES,
        spans=tuple(greedy_spans(best)),
        text=text,
        score=0.9,
    )


def brute_force(probs: np.ndarray, labels: list[int]) -> float:
    """Sum over every frame path that collapses to ``labels`` (blank 0)."""
    total = 0.0
    for path in itertools.product(range(probs.shape[1]), repeat=probs.shape[0]):
        collapsed = [c for i, c in enumerate(path) if c != 0 and (i == 0 or path[i - 1] != c)]
        if collapsed == labels:
            total += math.prod(probs[t, c] for t, c in enumerate(path))
    return total


def test_greedy_spans_are_runs_of_one_class_between_blanks() -> None:
    best = np.array([0, 1, 1, 0, 2, 0, 2, 2, 3, 0])
    assert greedy_spans(best) == [(1, 2), (4, 4), (6, 7), (8, 8)]


def test_word_likelihood_sums_every_ctc_alignment() -> None:
    rng = np.random.default_rng(3)
    probs = rng.random((4, 3))
    probs /= probs.sum(axis=1, keepdims=True)
    index = {"": 0, "A": 1, "B": 2}
    for word, labels in (("A", [1]), ("AB", [1, 2]), ("AA", [1, 1]), ("BAB", [2, 1, 2])):
        expected = brute_force(probs, labels)
        assert math.exp(word_likelihood(np.log(probs), index, word)) == pytest.approx(expected)
    assert word_likelihood(np.log(probs), index, "AC") == -math.inf
    # Two identical letters need a blank between them: three frames cannot hold "AAAA".
    assert word_likelihood(np.log(probs[:3]), index, "AAAA") == -math.inf


def test_upper_and_lower_case_share_one_column() -> None:
    frames = frames_of([{"a": 0.5, "A": 0.3}], "a")
    window, index = folded_frames(frames, 0, 0)
    assert math.exp(window[0, index["A"]]) == pytest.approx(0.8, abs=1e-4)
    assert "a" not in index


def test_neighbours_are_one_edit_away_for_short_words_two_for_longer_ones() -> None:
    lexicon = frozenset({"ALAM", "ALAN", "JALAN", "PERMAS", "LOT"})
    assert neighbours("ALAIN", lexicon) == [("ALAM", 2), ("ALAN", 1), ("JALAN", 2)]
    assert neighbours("LOI", lexicon) == [("LOT", 1)]
    assert neighbours("LAM", lexicon) == [("ALAM", 1)]  # "ALAN" is two edits from it
    assert neighbours("ALAM", lexicon) == [("ALAN", 1)]  # the word itself is no neighbour


# A worn "M" read as "IN": frames where "M" is a close second everywhere the greedy
# reading put "I" and "N".
ALAIN = [
    {"A": 0.9},
    {"": 0.9},
    {"L": 0.9},
    {"": 0.9},
    {"A": 0.9},
    {"I": 0.45, "M": 0.4},
    {"N": 0.5, "M": 0.4},
    {"": 0.9},
]


def test_a_lexicon_word_the_frames_support_is_offered_with_its_gain() -> None:
    frames = frames_of(ALAIN, "ALAIN")
    chars = list("ALAIN")
    found = respell_candidate(frames, chars, [0.9] * 5, range(5), frozenset({"ALAM", "ALAN"}))
    assert found is not None
    assert found.word == "ALAM"  # the frames support "M" far better than "IN" without "I"
    assert found.row[0] > -1  # and "ALAM" about as well as the greedy "ALAIN"
    assert spelled_word(chars, range(5), respelling=found) == "ALAM"


def test_no_respelling_for_a_lexicon_word_or_a_word_without_neighbours() -> None:
    frames = frames_of(ALAIN, "ALAIN")
    chars = list("ALAIN")
    assert respell_candidate(frames, chars, [0.9] * 5, range(5), frozenset({"ALAIN"})) is None
    assert respell_candidate(frames, chars, [0.9] * 5, range(5), frozenset({"PERMAS"})) is None


def test_punctuation_around_the_core_stays_and_the_case_follows_the_reading() -> None:
    lower = [{k.lower(): v for k, v in row.items()} for row in ALAIN]
    frames = frames_of([lower[0] | {"A": 0.9, "a": 0.01}, *lower[1:], {" ": 0.9}], "Alain ")
    chars = ["A", "l", "a", "i", "n", " "]
    found = respell_candidate(frames, chars, [0.9] * 6, range(5), frozenset({"ALAM"}))
    assert found is not None and found.cased() == "Alam"


def test_kept_columns_are_the_blank_and_latin_characters() -> None:
    columns, classes = kept_columns(["blank", "中", "A", "é", "：", "文", " "])
    assert columns == [0, 2, 3, 4, 6]
    assert classes == ("", "A", "é", ":", " ")


class _Decoder:
    character = ["blank", "A", "B"]

    def __call__(self, preds: np.ndarray, return_word_box: bool = False, **kw: object) -> list:
        out = []
        for row in preds.argmax(axis=2):
            text = "".join(
                self.character[c] for i, c in enumerate(row) if c and (i == 0 or row[i - 1] != c)
            )
            out.append((text, 0.9))
        return out


class _Recognizer:
    """RapidOCR's TextRecognizer in miniature: sorts crops by width, decodes in batches."""

    def __init__(self) -> None:
        self.postprocess_op = _Decoder()

    def __call__(self, images: list[np.ndarray], return_word_box: bool = False) -> tuple:
        order = np.argsort([img.shape[1] / img.shape[0] for img in images])
        results: list = [None] * len(images)
        for start in range(0, len(images), 2):
            batch = order[start : start + 2]
            preds = np.stack([self._preds(images[i]) for i in batch])
            for i, result in zip(batch, self.postprocess_op(preds, return_word_box), strict=True):
                results[i] = result
        return results, 0.0

    @staticmethod
    def _preds(image: np.ndarray) -> np.ndarray:
        # A crop's "text": one A per 10 px of width, then a B.
        frames = np.zeros((8, 3))
        frames[:, 0] = 1
        for t in range(min(image.shape[1] // 10, 3)):
            frames[2 * t, 1], frames[2 * t, 0] = 1, 0
        frames[7, 2], frames[7, 0] = 1, 0
        return frames


def test_the_recorder_gives_each_crop_its_own_frames_in_the_crops_order() -> None:
    recorder = FrameRecorder(_Recognizer())
    images = [np.zeros((10, w, 3), np.uint8) for w in (30, 10, 20)]
    results, _ = recorder(images)
    assert [r[0] for r in results] == ["AAAB", "AB", "AAB"]
    assert [f.text if f else None for f in recorder.last] == ["AAAB", "AB", "AAB"]
    assert recorder.last[1] is not None and recorder.last[1].spans == ((0, 0), (7, 7))


MARKS = ("", "A", "L", "M", "1", "5", ",", ".", " ", "，")
"""Classes with a full-width comma beside the ASCII one (NFKC folds both to ",")."""


def marks_of(rows: list[dict[str, float]], text: str) -> Frames:
    probs = np.full((len(rows), len(MARKS)), 1e-6)
    for t, row in enumerate(rows):
        for name, p in row.items():
            probs[t, MARKS.index(name)] = p
    best = probs.argmax(axis=1)
    folded = tuple("," if c == "，" else c for c in MARKS)
    return Frames(np.log(probs).astype(np.float32), folded, tuple(greedy_spans(best)), text, 0.9)


def test_a_comma_the_greedy_reading_dropped_at_the_line_end_is_a_candidate() -> None:
    rows = [{"A": 0.9}, {"": 0.9}, {"L": 0.9}, {"": 0.9}, {"A": 0.9}, {"": 0.9}, {"M": 0.9}]
    rows += [{"": 0.8, ",": 0.08, "，": 0.07}, {"": 0.95}]
    frames = marks_of(rows, "ALAM")
    found = punctuation_candidates(frames, list("ALAM"))
    assert [(c.index, c.dropped) for c in found] == [(3, True)]
    row = dict(zip(PUNCT_FEATURES, found[0].row, strict=True))
    # the two classes folding to "," are summed: 0.15, not the greedy's 0.08
    assert math.exp(row["comma_log"]) == pytest.approx(0.15, abs=1e-4)
    assert row["dropped"] == 1.0 and row["line_end"] == 1.0
    assert row["left_upper"] == 1.0 and row["right_none"] == 1.0
    # a faint comma (under the floor) is no candidate
    faint = [*rows[:7], {"": 0.99, ",": 0.005}, {"": 0.99}]
    assert punctuation_candidates(marks_of(faint, "ALAM"), list("ALAM")) == []


def test_a_read_full_stop_or_comma_is_a_candidate_with_its_neighbours() -> None:
    rows = [{"1": 0.9}, {"": 0.9}, {".": 0.5, ",": 0.3}, {"": 0.9}, {"5": 0.9}]
    found = punctuation_candidates(marks_of(rows, "1.5"), list("1.5"))
    assert [(c.index, c.dropped) for c in found] == [(1, False)]
    row = dict(zip(PUNCT_FEATURES, found[0].row, strict=True))
    assert row["read_dot"] == 1.0 and row["digits_around"] == 1.0
    assert row["margin"] == pytest.approx(math.log(0.3 / 0.5), abs=1e-3)
    # a dropped comma is not looked for next to a mark that was read
    assert not any(c.dropped for c in found)
