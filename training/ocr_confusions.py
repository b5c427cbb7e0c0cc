"""Train the look-alike substitution scorer shipped as ``engines/data/rapid_subst.json``
(:mod:`prefect_docai.engines.page.confusion`): whether a letter or digit of a RapidOCR line
is the look-alike its frames offer ("L0CAL" → "LOCAL", "475OO" → "47500").

Every candidate (:func:`confusion.substitution_candidates`) of a RapidOCR line of the SROIE
training pool's images (``train/sroie/``, 240 receipts, RapidOCR's readings and frames
cached by ``benchmarks.ocr_receipts``) is a row of :data:`confusion.SUBST_FEATURES`,
labelled by the annotated lines its box overlaps (boxes brought to the image's pixels,
``ocr_spaces.annotation_scale``; characters aligned by ``ocr_spaces.char_alignment``): 1
where the annotated character the read one maps onto is the alternative, 0 where it is the
character read; other candidates (unmapped, or a third character) are not used. The
lexicon the rows read is the space scorer's (``ocr_spaces.lexicon``: a fold's own in the
held-out figures). Gradient boosting of depth 2, 100 trees (fixed beforehand, as the
comma and tail scorers).

Evaluation (``benchmarks/results/ocr_confusions.json``): the pool's two merchant-grouped
folds (``benchmarks.ocr_receipts.pool``), fitted on one and scored on the other (with the
fitted fold's lexicon): characters changed right, changed wrong and left misread; then the
scorer fitted on the whole pool, in sample. The held-out CER and word F1 of the whole
reading with the substitutions are ``training.ocr_spaces``' (every scorer fitted on the
same fold, with its lexicon).

    OMP_THREAD_LIMIT=1 .venv/bin/python -m training.ocr_confusions [--write]
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np
from benchmarks.ocr_receipts import pool

from training.ocr_spaces import (
    _truth_text,
    char_alignment,
    fold_splits,
    generated_words,
    lexicon,
    pool_samples,
    save,
    trainer_parser,
)

os.environ.setdefault("OMP_THREAD_LIMIT", "1")


def substitution_label(
    chars: list[str], truth_text: str, index: int, alternative: str
) -> int | None:
    """1 where the annotated character the line's character ``index`` maps onto
    (:func:`ocr_spaces.char_alignment`) is ``alternative`` (case folded), 0 where it is the
    character as read, ``None`` otherwise."""
    kept, truth, mapped = char_alignment(chars, truth_text)
    if index not in kept:
        return None
    at = mapped.get(kept.index(index))
    if at is None:
        return None
    if truth[at] == alternative.upper():
        return 1
    return 0 if truth[at] == chars[index].upper() else None


def substitution_rows(
    fitted: list[dict[str, Any]], known: frozenset[str]
) -> tuple[np.ndarray, np.ndarray]:
    """:data:`confusion.SUBST_FEATURES` rows of the candidates of ``fitted``'s lines and
    their labels (:func:`substitution_label`; unlabelled candidates are not used)."""
    from prefect_docai.engines.page import rapid
    from prefect_docai.engines.page.confusion import SUBST_FEATURES, substitution_candidates
    from prefect_docai.engines.page.ctc import Frames

    rows: list[tuple[float, ...]] = []
    labels: list[int] = []
    for sample in fitted:
        for line in sample["result"]:
            chars = rapid.line_chars(line)
            frames = line[6] if len(line) > 6 and isinstance(line[6], Frames) else None
            if frames is None or not chars:
                continue
            confidences = [float(c) for c in line[5]] if line[5] else []
            found = substitution_candidates(frames, chars, confidences, known)
            if not found:
                continue
            truth = _truth_text(rapid._quad_box(line[0]), sample["lines"])
            for candidate in found:
                label = substitution_label(chars, truth, candidate.index, candidate.alternative)
                if label is not None:
                    rows.append(candidate.row)
                    labels.append(label)
    shape = (-1, len(SUBST_FEATURES))
    return np.array(rows, dtype=np.float64).reshape(shape), np.array(labels, dtype=np.int64)


def fit(rows: np.ndarray, labels: np.ndarray) -> Any:
    from prefect_docai.engines.page.confusion import SUBST_FEATURES
    from training.receipts import fit_trees

    return fit_trees(rows, labels, SUBST_FEATURES, 2)


def substituter(scorer: Any) -> Any:
    from prefect_docai.engines.page.confusion import SUBST_THRESHOLD

    return lambda found: scorer.probability(found.row) >= SUBST_THRESHOLD


def decisions(scorer: Any, rows: np.ndarray, labels: np.ndarray) -> dict[str, int]:
    """Characters changed right, changed wrong and left misread, over ``rows``."""
    said = np.array(scorer.probabilities(rows.tolist()), dtype=np.float64) >= 0.5
    return {
        "rows": len(labels),
        "misread": int(labels.sum()),
        "changed_right": int((said & (labels == 1)).sum()),
        "changed_wrong": int((said & (labels == 0)).sum()),
        "left_misread": int((~said & (labels == 1)).sum()),
    }


def main(argv: list[str] | None = None) -> int:
    args = trainer_parser(__doc__, "rapid_subst.json").parse_args(argv)
    from prefect_docai.engines.page.confusion import SUBST_MODEL

    pooled = pool_samples(args.limit)
    generated = generated_words()
    annotated = pool(with_image=False)  # the lexicon reads every annotated receipt
    report: dict[str, Any] = {"held_out": {}}
    for fit_fold, test_fold, train, test in fold_splits(pooled):
        known = lexicon([a for a in annotated if a["fold"] == fit_fold], generated)
        scorer = fit(*substitution_rows(train, known))
        entry = {"characters": decisions(scorer, *substitution_rows(test, known))}
        report["held_out"][f"fold{test_fold} (fitted on fold{fit_fold})"] = entry
        print(f"fold{test_fold}: {entry}", flush=True)
    known = lexicon(annotated, generated)
    rows, labels = substitution_rows(pooled, known)
    final = fit(rows, labels)
    report["in_sample"] = {"characters": decisions(final, rows, labels)}
    print(f"in sample: {report['in_sample']}")
    save("ocr_confusions", report, {SUBST_MODEL: final.to_json()} if args.write else {})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
