"""Train the tail scorers shipped as ``engines/data/rapid_tail.json``
(:mod:`prefect_docai.engines.page.glyphs`): whether a comma or a full stop follows a RapidOCR
line's last word where the recognizer read none, from the ink right of the last glyph.

Every RapidOCR line of the SROIE training pool's images (``train/sroie/``, 240 receipts,
RapidOCR's readings and frames cached by ``benchmarks.ocr_receipts``) that ends in a letter
or digit is a row of :data:`glyphs.TAIL_FEATURES`, labelled by the annotated lines its box
overlaps (boxes brought to the image's pixels, ``ocr_spaces.annotation_scale``): the line's
characters are aligned with their text (edit operations, case-folded, spaces removed), and
where the last character maps onto an annotated character the label is what follows it
there: nothing (the annotated text ends), "," or "." (and then it ends); other lines are
not used, nor are lines with no ink blob right of the last glyph (no candidate). Two
scorers, each gradient boosting of depth 2 and 100 trees (fixed beforehand, as the comma
scorer of ``training.ocr_spaces``): ``mark`` (a mark follows, against nothing) on every row,
``comma`` (a comma, against a full stop; :data:`glyphs.SHAPE_FEATURES`, no frames) on the
rows with a mark and on every line whose recognizer did read a closing mark that the
annotated text ends with, its features taken as if the mark had not been read (the
marks' shapes: four to six times more examples than the dropped marks alone).

Evaluation (``benchmarks/results/ocr_glyphs.json``): the pool's two merchant-grouped folds
(``benchmarks.ocr_receipts.pool``), fitted on one and scored on the other: the marks
added right and wrong, and the case-folded CER and word F1 of the held-out fold's whole
reading (the shipped space, respelling and comma scorers) without and with the tail
scorers; then the scorers fitted on the whole pool, in sample.

    OMP_THREAD_LIMIT=1 .venv/bin/python -m training.ocr_glyphs [--write]
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np
from benchmarks.ocr import Score
from benchmarks.ocr_receipts import text_of

from training.ocr_spaces import (
    _figures,
    _truth_text,
    char_alignment,
    fold_splits,
    pool_samples,
    save,
    trainer_parser,
)

os.environ.setdefault("OMP_THREAD_LIMIT", "1")


def tail_label(chars: list[str], truth_text: str) -> str | None:
    """What the annotated text has after the character the line's last one maps onto
    (edit operations, case-folded, spaces removed): "" where it ends there, "," or "."
    where only that mark follows, ``None`` otherwise (unmapped, or more text follows)."""
    kept, truth, mapped = char_alignment(chars, truth_text)
    at = mapped.get(len(kept) - 1)
    if at is None:
        return None
    rest = truth[at + 1 :]
    return rest if rest in ("", ",", ".") else None


def tail_rows(
    fitted: list[dict[str, Any]], read_marks: bool = False
) -> tuple[np.ndarray, list[str]]:
    """:data:`glyphs.TAIL_FEATURES` rows of the lines of ``fitted`` and their marks
    (:func:`tail_label`; lines without one are not used). With ``read_marks``, the rows
    of lines whose recognizer did read a closing "," or "." after a letter or digit (and
    the annotated text ends with it): the line's features as if the mark had not been
    read (frames left out), labelled with that mark: shape examples for the ``comma``
    scorer only (their frame features are left at the floor, so that scorer does not
    read them)."""
    from prefect_docai.engines.page import rapid
    from prefect_docai.engines.page.ctc import Frames
    from prefect_docai.engines.page.glyphs import TAIL_FEATURES, tail_features

    rows: list[tuple[float, ...]] = []
    marks: list[str] = []
    for sample in fitted:
        for line in sample["result"]:
            chars = rapid.line_chars(line)
            if not chars or len(chars) != len(line[3]):
                continue
            frames = line[6] if len(line) > 6 and isinstance(line[6], Frames) else None
            box = rapid._quad_box(line[0])
            truth = _truth_text(box, sample["lines"])
            if read_marks:
                kept = [i for i, c in enumerate(chars) if c.strip()]
                if len(kept) < 3 or chars[kept[-1]] not in ",." or not chars[kept[-2]].isalnum():
                    continue
                if tail_label(chars, truth) != "":
                    continue
                cut = kept[-1]
                row = tail_features(sample["gray"], box, chars[:cut], line[3][:cut])
                if row is not None:
                    rows.append(row)
                    marks.append(chars[cut])
                continue
            row = tail_features(sample["gray"], box, chars, line[3], frames)
            if row is None:
                continue
            mark = tail_label(chars, truth)
            if mark is not None:
                rows.append(row)
                marks.append(mark)
    return np.array(rows, dtype=np.float64).reshape(-1, len(TAIL_FEATURES)), marks


def fit(fitted: list[dict[str, Any]]) -> Any:
    """The two :class:`glyphs.TailScorers` of ``fitted``'s lines (see the module
    docstring)."""
    from prefect_docai.engines.page.glyphs import SHAPE_FEATURES, TAIL_FEATURES, TailScorers
    from training.receipts import fit_trees

    rows, marks = tail_rows(fitted)
    read, read_marks = tail_rows(fitted, read_marks=True)
    has = np.array([m != "" for m in marks], dtype=np.int64)
    shapes = np.vstack([rows[has == 1], read])
    comma = np.array([m == "," for m in marks if m] + [m == "," for m in read_marks])
    columns = [TAIL_FEATURES.index(name) for name in SHAPE_FEATURES]
    return TailScorers(
        fit_trees(rows, has, TAIL_FEATURES, 2),
        fit_trees(shapes[:, columns], comma.astype(np.int64), SHAPE_FEATURES, 2),
    )


def decisions(scorers: Any, rows: np.ndarray, marks: list[str]) -> dict[str, int]:
    """Marks added right (the annotated one), added wrong (none there, or the other
    mark) and missed, over ``rows``."""
    counts = {"rows": len(marks), "marks": sum(1 for m in marks if m), "right": 0}
    counts.update({"wrong_mark": 0, "added_where_none": 0, "missed": 0})
    for row, mark in zip(rows, marks, strict=True):
        said = scorers.decide(tuple(float(v) for v in row))
        if said and said == mark:
            counts["right"] += 1
        elif said and mark:
            counts["wrong_mark"] += 1
        elif said:
            counts["added_where_none"] += 1
        elif mark:
            counts["missed"] += 1
    return counts


def score(scored: list[dict[str, Any]], tail: Any) -> dict[str, Any]:
    """Case-folded CER and word F1 of ``scored``'s readings (shipped scorers), with the
    ``tail`` decision (``None``: without)."""
    from prefect_docai.engines.page.rapid import split_lines

    total = Score()
    for sample in scored:
        words = split_lines(sample["result"], sample["gray"], tail=tail)
        text = text_of([(w.text, w.box, w.confidence, w.line) for w in words])
        total.add(sample["id"], text, sample["reference"], 0.0, casefold=True)
    return _figures(total)


def main(argv: list[str] | None = None) -> int:
    args = trainer_parser(__doc__, "rapid_tail.json").parse_args(argv)
    from prefect_docai.engines.page.glyphs import TAIL_MODEL

    pooled = pool_samples(args.limit)
    report: dict[str, Any] = {"held_out": {}}
    for fit_fold, test_fold, train, test in fold_splits(pooled):
        scorers = fit(train)
        entry = {
            "marks": decisions(scorers, *tail_rows(test)),
            "without_tail": score(test, None),
            "with_tail": score(test, scorers.decide),
        }
        report["held_out"][f"fold{test_fold} (fitted on fold{fit_fold})"] = entry
        print(f"fold{test_fold}: {entry}", flush=True)
    rows, marks = tail_rows(pooled)
    final = fit(pooled)
    report["in_sample"] = {
        "marks": decisions(final, rows, marks),
        "without_tail": score(pooled, None),
        "with_tail": score(pooled, final.decide),
    }
    print(f"in sample: {report['in_sample']}")
    save("ocr_glyphs", report, {TAIL_MODEL: final.to_json()} if args.write else {})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
