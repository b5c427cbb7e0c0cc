"""Train the space scorer of RapidOCR lines shipped as ``engines/data/rapid_spaces.json``
(:mod:`prefect_docai.engines.page.rapid`).

PP-OCR's recognizer drops most spaces between Latin words ("TAXINVOICE"). Every two
neighbouring characters of a RapidOCR line of the SROIE training pool's images
(``train/sroie/``, 240 receipts, RapidOCR's readings cached by ``benchmarks.ocr_receipts``)
is a row of :data:`rapid.SPACE_FEATURES`, labelled by the annotated lines: the line's
characters are aligned (edit operations, case-folded, spaces removed) with the annotated
lines its box overlaps (the annotated boxes first brought to the image's pixels: the pool's
images were shrunk after annotation, :func:`annotation_scale`), and a pair whose two characters map to two neighbouring annotated
characters is labelled 1 when the annotation has a space between them (other pairs are not
used). Beside the line's geometry and the recognizer's frames between the two characters
(:func:`rapid.frame_features`) the scorer reads a lexicon (:func:`rapid.word_features`):
every word of two letters or more printed in at least two annotated lines of the fitted
merchants' receipts (all of the pool's 456 annotated receipts, with or without an image) or
in at least two of the project's generated receipts (German and English, seeds
``LEXICON_SEEDS``), shipped in the model file as ``lexicon``. It also reads the best
reading of each glued run of letters as lexicon words (:func:`rapid.segment_features`:
"THANKYOUFORYOURPATRONAGE" is five words, which no one pair's lookup sees) and a capital
before a small letter after capitals ("GSTSummary"): the missed splits between two
letters were the held-out folds' largest pair error (204 of 749 pair errors on fold 1;
those between a letter and a digit 63). Held out, CER / word F1 after respelling and
punctuation, without -> with these three features: fold 1 0.0355 / 0.8760 -> 0.0354 /
0.8770, fold 0 0.0458 / 0.8730 -> 0.0455 / 0.8754 (these features were kept after
looking at those folds' pair errors, so the figures flatter them a little; the shape of the
digit run beside a letter, the letter run's length and lexicon word, and the pitch near the
pair did not lower those errors and were dropped). The model is scikit-learn's
gradient boosting (depth 3, 100 trees; fixed beforehand,
not chosen on the figures below), exported node by node (:class:`engines.learned.TreeScorer`):
deterministic, so the written file is the same bytes on every run.

The same command trains the respelling scorer shipped as ``engines/data/rapid_respell.json``
(:mod:`prefect_docai.engines.page.ctc`): every word of a RapidOCR line, split by the space
scorer, that is not in the lexicon but has a lexicon word near it (one edit, two from five
letters) is a row of :data:`ctc.RESPELL_FEATURES` (chiefly how much likelier the
recognizer's frames make the lexicon word than the reading), labelled 1 when the lexicon
word is a word of the annotated lines the word's line overlaps and the reading is not.
The model is gradient boosting of stumps (depth 1, 100 trees; chosen on the fitted folds'
own figures among depths 1-3 and a logistic regression).

And the punctuation scorer shipped as ``engines/data/rapid_punct.json``: every character of
a RapidOCR line read as "." or ",", and every point after a character where the
recognizer's frames give a comma at least ``ctc.PUNCT_FLOOR`` but no mark was read (a comma
the greedy reading dropped, most often at a line's end), is a row of
:data:`ctc.PUNCT_FEATURES`, labelled 1 when the annotated lines have a comma there
(:func:`punct_labels`). Gradient boosting of depth 2, 100 trees (fixed beforehand).

Evaluation (``benchmarks/results/ocr_spaces.json``): the pool's two merchant-grouped folds
(``benchmarks.ocr_receipts.pool``), fitted on one and scored on the other, case-folded CER and
word F1 of the whole reading, without and with the respelling scorer (fitted on the same
fold, with that fold's lexicon), and with the punctuation scorer (same fold) besides, next to the blank-run rule (``rapid.SPLIT_GAP`` /
``SPLIT_PITCH``, chosen on those folds by ``benchmarks.ocr_receipts``); then the model fitted
on the whole pool on the visible SROIE receipts (never trained on). Each with the tail
marks of ``training.ocr_glyphs`` (fitted on the same fold) as well, and then with the
look-alike substitutions of ``training.ocr_confusions`` (likewise).

    OMP_THREAD_LIMIT=1 .venv/bin/python -m training.ocr_spaces [--write]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
from benchmarks.ocr import Score, sroie_samples
from benchmarks.ocr_receipts import RESULTS, pool, rapid_cache, read_frames, run_rapid, text_of

os.environ.setdefault("OMP_THREAD_LIMIT", "1")
DATA = Path(__file__).resolve().parent.parent / "src" / "prefect_docai" / "engines" / "data"


LEXICON_SEEDS = range(60)
"""Generated receipts (per language) whose printed words join the lexicon."""


def generated_words() -> dict[str, int]:
    """Words (two letters or more, upper case) of the project's generated receipts, German
    and English, seeds :data:`LEXICON_SEEDS`: in how many receipts each is printed."""
    import re
    from collections import Counter

    import pypdfium2 as pdfium

    from prefect_docai.samples import generate

    counts: Counter[str] = Counter()
    for lang in ("de", "en"):
        for seed in LEXICON_SEEDS:
            document = generate("receipt", seed=seed, lang=lang)
            pdf = pdfium.PdfDocument(document.pdf)
            words: set[str] = set()
            for page in pdf:
                text = page.get_textpage().get_text_range()
                words |= set(re.findall(r"[^\W\d_]{2,}", text.upper()))
            counts.update(words)
    return dict(counts)


def lexicon(samples: list[dict[str, Any]], generated: dict[str, int]) -> frozenset[str]:
    """The scorer's lexicon: words printed in at least two annotated lines of ``samples``
    or in at least two generated receipts (``generated``, :func:`generated_words`), but no
    run of one repeated letter (the mask of a card number)."""
    import re
    from collections import Counter

    counts: Counter[str] = Counter()
    for sample in samples:
        for line in sample["lines"]:
            counts.update(re.findall(r"[^\W\d_]{2,}", line["text"].upper()))
    # One letter repeated ("XXXXXXXX") masks a card or account number: no word.
    return frozenset(
        w for source in (counts, generated) for w, n in source.items() if n >= 2 and len(set(w)) > 1
    )


def _result(lines: list[dict[str, Any]], frames: list[Any] | None = None) -> list[list[Any]]:
    """``benchmarks.ocr_receipts``' cached lines as RapidOCR returns them, each with its
    recognizer frames (``frames``, as :func:`benchmarks.ocr_receipts.read_frames` gives them)
    where they were cached."""
    out = [
        [ln["box"], ln["text"], ln["confidence"], ln["char_boxes"], ln["chars"], ln["char_conf"]]
        for ln in lines
    ]
    if frames is not None and len(frames) == len(out):
        out = [[*line, f] if f is not None else line for line, f in zip(out, frames, strict=True)]
    return out


def _gray(path: Path) -> Any:
    from PIL import Image

    with Image.open(path) as image:
        return np.asarray(image.convert("L"))


def annotation_scale(result: list[list[Any]], truth: list[dict[str, Any]]) -> float:
    """The factor from the annotated lines' pixels to the image's.

    The pool's images were shrunk (to 1,800 px tall, some further) after annotation, but
    the annotated boxes keep the original image's pixels: unscaled, 4 in 10 RapidOCR lines
    overlap the wrong annotated line, and their pairs get no label or a wrong one. Every
    RapidOCR line of five characters or more whose text matches one annotated line closely
    (normalized edit distance at most 0.2) and clearly better than any other gives the
    ratio of its box centre's x and y to that line's (coordinates past 50 px only); the
    median of those ratios, 1.0 without any."""
    from rapidfuzz.distance import Levenshtein

    texts = [line["text"].upper().replace(" ", "") for line in truth]
    ratios: list[float] = []
    for line in result:
        text = str(line[1]).upper().replace(" ", "")
        if len(text) < 5 or not texts:
            continue
        scored = sorted((Levenshtein.normalized_distance(text, t), i) for i, t in enumerate(texts))
        if scored[0][0] > 0.2 or (len(scored) > 1 and scored[1][0] <= scored[0][0] + 0.1):
            continue
        xs = [float(p[0]) for p in line[0]]
        ys = [float(p[1]) for p in line[0]]
        tx0, ty0, tx1, ty1 = truth[scored[0][1]]["bbox"]
        for mine, theirs in (
            ((min(xs) + max(xs)) / 2, (tx0 + tx1) / 2),
            ((min(ys) + max(ys)) / 2, (ty0 + ty1) / 2),
        ):
            if theirs > 50:
                ratios.append(mine / theirs)
    if not ratios:
        return 1.0
    return float(statistics.median(ratios))


def scaled_lines(truth: list[dict[str, Any]], factor: float) -> list[dict[str, Any]]:
    """The annotated lines with their boxes multiplied by ``factor``."""
    return [{**line, "bbox": [v * factor for v in line["bbox"]]} for line in truth]


def _truth_text(box: tuple[float, float, float, float], truth: list[dict[str, Any]]) -> str:
    """The annotated lines a RapidOCR line's box overlaps, left to right."""
    x0, y0, x1, y1 = box
    centre = (y0 + y1) / 2
    picked = []
    for line in truth:
        tx0, ty0, tx1, ty1 = line["bbox"]
        vertical = ty0 <= centre <= ty1 or y0 <= (ty0 + ty1) / 2 <= y1
        if vertical and min(x1, tx1) - max(x0, tx0) > 0:
            picked.append((tx0, line["text"]))
    return " ".join(text for _, text in sorted(picked))


def _labels(chars: list[str], kept: list[int], truth_text: str) -> list[int | None]:
    """Per neighbouring kept pair: 1/0 = the annotation has / has no space there, ``None``
    where the alignment does not map the pair onto two neighbouring annotated characters."""
    from rapidfuzz.distance import Levenshtein

    plain, space_before = [], []
    pending = False
    for char in truth_text.upper():
        if char.isspace():
            pending = bool(plain)
            continue
        plain.append(char)
        space_before.append(pending)
        pending = False
    mine = "".join(chars[i] for i in kept).upper()
    mapped: dict[int, int] = {}
    for tag, a0, a1, b0, b1 in Levenshtein.opcodes(mine, "".join(plain)):
        if tag in ("equal", "replace") and a1 - a0 == b1 - b0:
            for k in range(a1 - a0):
                mapped[a0 + k] = b0 + k
    labels: list[int | None] = []
    for k in range(len(kept) - 1):
        a, b = mapped.get(k), mapped.get(k + 1)
        labels.append(int(space_before[b]) if a is not None and b == a + 1 else None)
    return labels


def page_rows(
    result: list[list[Any]],
    gray: Any,
    truth: list[dict[str, Any]],
    words: frozenset[str] = frozenset(),
) -> tuple[list[list[float]], list[int]]:
    """Feature rows and labels of one page's pairs (see the module docstring)."""
    import statistics

    from prefect_docai.engines.page import rapid
    from prefect_docai.engines.page.ctc import Frames

    heights = [rapid._quad_box(line[0])[3] - rapid._quad_box(line[0])[1] for line in result]
    page_height = statistics.median(heights) if heights else 1.0
    rows: list[list[float]] = []
    labels: list[int] = []
    for line in result:
        chars, boxes = rapid.line_chars(line), line[3]
        if not chars or len(chars) != len(boxes):
            continue
        box = rapid._quad_box(line[0])
        frames = line[6] if len(line) > 6 and isinstance(line[6], Frames) else None
        kept, forced, features = rapid.pair_features(
            gray, box, chars, boxes, page_height, words, frames
        )
        for row, force, label in zip(
            features, forced, _labels(chars, kept, _truth_text(box, truth)), strict=True
        ):
            if label is not None and not force:
                rows.append(row)
                labels.append(label)
    return rows, labels


def fit(rows: np.ndarray, labels: np.ndarray) -> Any:
    from prefect_docai.engines.page.rapid import SPACE_FEATURES
    from training.receipts import fit_trees

    return fit_trees(rows, labels, SPACE_FEATURES, 3)


def score(
    samples: list[dict[str, Any]],
    model: Any,
    known: frozenset[str] = frozenset(),
    respell: Any = None,
    punctuate: Any = None,
    tail: Any = None,
    substitute: Any = None,
) -> Score:
    from prefect_docai.engines.page.rapid import split_lines

    total = Score()
    for sample in samples:
        words = split_lines(
            sample["result"],
            sample["gray"],
            model=model,
            lexicon=known,
            respell=respell,
            punctuate=punctuate,
            tail=tail,
            substitute=substitute,
        )
        text = text_of([(w.text, w.box, w.confidence, w.line) for w in words])
        total.add(sample["id"], text, sample["reference"], 0.0, casefold=True)
    return total


def respell_rows(
    samples: list[dict[str, Any]], model: Any, known: frozenset[str]
) -> tuple[np.ndarray, np.ndarray]:
    """Rows of :data:`ctc.RESPELL_FEATURES` for every word of ``samples`` (split by the
    space scorer ``model``) that has a respelling candidate in ``known``; labelled 1 when the
    candidate is a word of the annotated lines the word's line overlaps and the word as read
    is not."""
    import re

    from prefect_docai.engines.page import rapid
    from prefect_docai.engines.page.ctc import Respelling

    rows: list[list[float]] = []
    labels: list[int] = []
    for sample in samples:
        found: list[tuple[Respelling, int]] = []

        def record(candidate: Respelling, line: int, found: list[Any] = found) -> bool:
            found.append((candidate, line))
            return False

        rapid.split_lines(
            sample["result"], sample["gray"], model=model, lexicon=known, respell=record
        )
        for candidate, line in found:
            box = rapid._quad_box(sample["result"][line][0])
            truth = set(re.findall(r"[^\W_]+", _truth_text(box, sample["lines"]).upper()))
            rows.append(list(candidate.row))
            labels.append(int(candidate.word in truth and candidate.text.upper() not in truth))
    return np.array(rows, dtype=np.float64), np.array(labels, dtype=np.int64)


def char_alignment(chars: list[str], truth_text: str) -> tuple[list[int], str, dict[int, int]]:
    """A recognized line's characters aligned to its annotated text (edit operations,
    case-folded, spaces removed): the indexes of ``chars`` that are not spaces, the
    annotation so folded, and where each kept character (by its place among the kept)
    falls in it, for characters matched or replaced one for one."""
    from rapidfuzz.distance import Levenshtein

    kept = [i for i, c in enumerate(chars) if c.strip()]
    truth = "".join(truth_text.upper().split())
    mine = "".join(chars[i] for i in kept).upper()
    mapped: dict[int, int] = {}
    for tag, a0, a1, b0, b1 in Levenshtein.opcodes(mine, truth):
        if tag in ("equal", "replace") and a1 - a0 == b1 - b0:
            for k in range(a1 - a0):
                mapped[a0 + k] = b0 + k
    return kept, truth, mapped


def punct_labels(chars: list[str], candidates: list[Any], truth_text: str) -> list[int | None]:
    """Per comma candidate of a line (:func:`ctc.punctuation_candidates`): 1 where the
    annotated text has a comma there, 0 where it has a full stop (a mark read) or no mark
    (a dropped one), ``None`` where the alignment (edit operations, case-folded, spaces
    removed) does not tell."""
    kept, truth, mapped = char_alignment(chars, truth_text)
    labels: list[int | None] = []
    for candidate in candidates:
        position = kept.index(candidate.index)
        at = mapped.get(position)
        if at is None:
            labels.append(None)
        elif not candidate.dropped:
            labels.append({",": 1, ".": 0}.get(truth[at]))
        elif position + 1 < len(kept):
            following = mapped.get(position + 1)
            if following == at + 1:
                labels.append(0)
            elif following == at + 2 and truth[at + 1] == ",":
                labels.append(1)
            else:
                labels.append(None)
        elif at + 1 == len(truth):
            labels.append(0)
        else:
            labels.append(1 if truth[at + 1] == "," else None)
    return labels


def punct_rows(samples: list[dict[str, Any]]) -> tuple[np.ndarray, np.ndarray]:
    """Rows of :data:`ctc.PUNCT_FEATURES` for every comma candidate of the RapidOCR lines
    of ``samples`` (those with frames), labelled by :func:`punct_labels` against the
    annotated lines the line's box overlaps (candidates without a label are not used)."""
    from prefect_docai.engines.page import rapid
    from prefect_docai.engines.page.ctc import Frames, punctuation_candidates

    rows: list[list[float]] = []
    labels: list[int] = []
    for sample in samples:
        for line in sample["result"]:
            frames = line[6] if len(line) > 6 and isinstance(line[6], Frames) else None
            chars = rapid.line_chars(line)
            if frames is None or not chars:
                continue
            candidates = punctuation_candidates(frames, chars)
            if not candidates:
                continue
            truth = _truth_text(rapid._quad_box(line[0]), sample["lines"])
            for candidate, label in zip(
                candidates, punct_labels(chars, candidates, truth), strict=True
            ):
                if label is not None:
                    rows.append(list(candidate.row))
                    labels.append(label)
    return np.array(rows, dtype=np.float64), np.array(labels, dtype=np.int64)


def fit_punct(rows: np.ndarray, labels: np.ndarray) -> Any:
    """The punctuation scorer: gradient boosting of depth 2 (fixed beforehand)."""
    from prefect_docai.engines.page.ctc import PUNCT_FEATURES
    from training.receipts import fit_trees

    return fit_trees(rows, labels, PUNCT_FEATURES, 2)


def punctuator(scorer: Any) -> Any:
    """``split_lines``' comma decision from a fitted punctuation scorer."""
    from prefect_docai.engines.page.rapid import PUNCT_THRESHOLD

    return lambda candidate, _line: scorer.probability(candidate.row) >= PUNCT_THRESHOLD


def fit_respell(rows: np.ndarray, labels: np.ndarray) -> Any:
    """The respelling scorer: gradient boosting of stumps (depth 1: the features add up)."""
    from prefect_docai.engines.page.ctc import RESPELL_FEATURES
    from training.receipts import fit_trees

    return fit_trees(rows, labels, RESPELL_FEATURES, 1)


def respeller(scorer: Any) -> Any:
    """``split_lines``' respell decision from a fitted respelling scorer."""
    from prefect_docai.engines.page.rapid import RESPELL_THRESHOLD

    return lambda candidate, _line: scorer.probability(candidate.row) >= RESPELL_THRESHOLD


def held_out_fields(
    samples: list[dict[str, Any]], model: Any, version: str, known: frozenset[str] = frozenset()
) -> dict[str, Any]:
    """Receipt fields (the rules, strict) from RapidOCR's words split by ``model`` (fitted
    on the other fold) next to the receipt tool's Tesseract reading, on ``samples``."""
    from benchmarks.ocr_receipts import fields, tesseract_words

    from prefect_docai.engines.page.rapid import split_lines

    readings: dict[str, dict[str, Any]] = {}
    for sample in samples:
        gray = sample["gray"]
        size = (gray.shape[1], gray.shape[0])
        words = split_lines(sample["result"], gray, model=model, lexicon=known)
        readings[sample["id"]] = {
            "rapid": ([(w.text, w.box, w.confidence, w.line) for w in words], size),
            "tesseract": (tesseract_words(sample["image"].read_bytes(), size, version), size),
        }
    rows = [{"id": s["id"]} for s in samples]
    return {name: fields(rows, readings, name) for name in ("rapid", "tesseract")}


def _figures(s: Score) -> dict[str, Any]:
    return {"cer": round(s.rate, 4), "word_f1": round(s.f1, 4), "pages": s.pages}


def pool_samples(limit: int = 0) -> list[dict[str, Any]]:
    """The pool's receipts with an image: RapidOCR's cached lines (with frames), the
    annotated lines in the image's pixels (:func:`annotation_scale`) and the grey image —
    what every OCR trainer here (spaces, tail marks, look-alikes) learns from."""
    rows = pool(limit)
    run_rapid([r["image"] for r in rows])
    out = []
    for row in rows:
        data = row["image"].read_bytes()
        result = _result(json.loads(rapid_cache(data).read_text())["lines"], read_frames(data))
        truth = scaled_lines(row["lines"], annotation_scale(result, row["lines"]))
        out.append({**row, "lines": truth, "result": result, "gray": _gray(row["image"])})
    return out


def main(argv: list[str] | None = None) -> int:
    parser = trainer_parser(__doc__, "rapid_spaces.json")
    parser.add_argument(
        "--fields-tesseract-version",
        help="also the receipt fields (rules) of the held-out fold's RapidOCR words next to "
        "the Tesseract reading cached under this benchmarks.receipts_cv key",
    )
    args = parser.parse_args(argv)
    from benchmarks.ocr import corpus_dir

    from training.ocr_confusions import fit as fit_subst
    from training.ocr_confusions import substituter, substitution_rows
    from training.ocr_glyphs import fit as fit_tail

    samples = pool_samples(args.limit)
    generated = generated_words()
    annotated = pool(with_image=False)  # the lexicon reads every annotated receipt

    def stacked(fitted: list[dict[str, Any]], known: frozenset[str]) -> tuple[Any, Any]:
        xs: list[list[float]] = []
        ys: list[int] = []
        for sample in fitted:
            features, labels = page_rows(sample["result"], sample["gray"], sample["lines"], known)
            xs.extend(features)
            ys.extend(labels)
        return np.array(xs, dtype=np.float64), np.array(ys, dtype=np.int64)

    report: dict[str, Any] = {"held_out": {}}
    for fit_fold, test_fold, train, test in fold_splits(samples):
        # The lexicon of a fold: the fitted fold's annotated lines (its merchants' receipts
        # with or without an image), never the scored one's.
        known = lexicon([a for a in annotated if a["fold"] == fit_fold], generated)
        x, y = stacked(train, known)
        model = fit(x, y)
        respelling = fit_respell(*respell_rows(train, model, known))
        punct_x, punct_y = punct_rows(train)
        punctuation = fit_punct(punct_x, punct_y)
        # The tail marks (training.ocr_glyphs) fitted on the same fold.
        tail = fit_tail(train).decide
        # The look-alike substitutions (training.ocr_confusions), fitted on the same fold.
        substitute = substituter(fit_subst(*substitution_rows(train, known)))
        entry = {
            "fitted_pairs": len(y),
            "lexicon_words": len(known),
            "punct_rows": {"rows": len(punct_y), "commas": int(punct_y.sum())},
            "model": _figures(score(test, model, known)),
            "model_respelled": _figures(score(test, model, known, respeller(respelling))),
            "model_respelled_punctuated": _figures(
                score(test, model, known, respeller(respelling), punctuator(punctuation))
            ),
            "model_respelled_punctuated_tail": _figures(
                score(test, model, known, respeller(respelling), punctuator(punctuation), tail)
            ),
            "model_respelled_punctuated_tail_subst": _figures(
                score(
                    test,
                    model,
                    known,
                    respeller(respelling),
                    punctuator(punctuation),
                    tail,
                    substitute,
                )
            ),
            "model_without_lexicon": _figures(score(test, fit(*stacked(train, frozenset())))),
            "blank_run_rule": _figures(score(test, None)),
        }
        if args.fields_tesseract_version:
            entry["fields"] = held_out_fields(test, model, args.fields_tesseract_version, known)
        report["held_out"][f"fold{test_fold} (fitted on fold{fit_fold})"] = entry
        print(f"fold{test_fold}: {entry}", flush=True)
    known = lexicon(annotated, generated)
    x, y = stacked(samples, known)
    report["pairs"] = len(y)
    final = fit(x, y)
    respell_x, respell_y = respell_rows(samples, final, known)
    report["respell_rows"] = {"rows": len(respell_y), "positives": int(respell_y.sum())}
    final_respelling = fit_respell(respell_x, respell_y)
    punct_x, punct_y = punct_rows(samples)
    report["punct_rows"] = {"rows": len(punct_y), "commas": int(punct_y.sum())}
    final_punctuation = fit_punct(punct_x, punct_y)
    shipped = (respeller(final_respelling), punctuator(final_punctuation))
    corpus = corpus_dir()
    visible = []
    shown = sroie_samples(corpus, 0)
    with tempfile.TemporaryDirectory() as folder:
        # RapidOCR reads files: the visible receipts' images as files, to read the missing.
        paths = []
        for n, sample in enumerate(shown):
            paths.append(Path(folder) / f"{n}.img")
            paths[-1].write_bytes(sample.image)
        run_rapid(paths)
    for sample in shown:
        from io import BytesIO

        from PIL import Image

        with Image.open(BytesIO(sample.image)) as image:
            gray = np.asarray(image.convert("L"))
        lines = json.loads(rapid_cache(sample.image).read_text())["lines"]
        visible.append(
            {
                "id": sample.id,
                "result": _result(lines, read_frames(sample.image)),
                "gray": gray,
                "reference": sample.reference,
            }
        )
    report["visible"] = {
        "model": _figures(score(visible, final, known)),
        "model_respelled": _figures(score(visible, final, known, respeller(final_respelling))),
        "model_respelled_punctuated": _figures(score(visible, final, known, *shipped)),
        "model_respelled_punctuated_tail": _figures(
            score(visible, final, known, *shipped, fit_tail(samples).decide)
        ),
        "model_respelled_punctuated_tail_subst": _figures(
            score(
                visible,
                final,
                known,
                *shipped,
                fit_tail(samples).decide,
                substituter(fit_subst(*substitution_rows(samples, known))),
            )
        ),
        "blank_run_rule": _figures(score(visible, None)),
    }
    report["in_sample_pool"] = _figures(score(samples, final, known))
    report["in_sample_pool_respelled"] = _figures(
        score(samples, final, known, respeller(final_respelling))
    )
    report["in_sample_pool_respelled_punctuated"] = _figures(score(samples, final, known, *shipped))
    print(
        f"visible: {report['visible']}  in-sample pool: {report['in_sample_pool']}"
        f" {report['in_sample_pool_respelled']} {report['in_sample_pool_respelled_punctuated']}"
    )
    models: dict[str, str] = {}
    if args.write:
        from prefect_docai.engines.page.rapid import PUNCT_MODEL, RESPELL_MODEL, SPACE_MODEL

        blob = json.loads(final.to_json())
        blob["lexicon"] = sorted(known)
        models = {
            SPACE_MODEL: json.dumps(blob, separators=(",", ":")) + "\n",
            RESPELL_MODEL: final_respelling.to_json(),
            PUNCT_MODEL: final_punctuation.to_json(),
        }
    save("ocr_spaces", report, models)
    return 0


def trainer_parser(description: str | None, model_file: str) -> argparse.ArgumentParser:
    """The OCR trainers' command line: ``--write`` (the model to ``engines/data/``) and
    ``--limit`` (the first N pool receipts only)."""
    parser = argparse.ArgumentParser(
        description=description, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--write", action="store_true", help=f"write engines/data/{model_file}")
    parser.add_argument("--limit", type=int, default=0)
    return parser


def fold_splits(
    samples: list[dict[str, Any]],
) -> list[tuple[int, int, list[dict[str, Any]], list[dict[str, Any]]]]:
    """The pool's two merchant folds, each fitted on and scored on the other: (fitted fold,
    scored fold, its samples, the other's)."""
    return [
        (
            fit,
            test,
            [s for s in samples if s["fold"] == fit],
            [s for s in samples if s["fold"] == test],
        )
        for fit, test in ((0, 1), (1, 0))
    ]


def save(name: str, report: dict[str, Any], models: dict[str, str]) -> None:
    """The OCR trainers' last step: the held-out report to ``benchmarks/results/<name>.json``
    and, with ``--write``, each model's text to ``engines/data/`` as it is shipped."""
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / f"{name}.json").write_text(json.dumps(report, indent=2) + "\n")
    for file_name, text in models.items():
        (DATA / file_name).write_text(text)
        print(f"wrote {DATA / file_name}")


if __name__ == "__main__":
    raise SystemExit(main())
