"""Where held-out table cell F1 is lost (issue 15): detection, extent, rows, columns, text.

Run (from the repo root; reuses ``benchmarks.tables_cv``'s extraction cache):

    OMP_THREAD_LIMIT=1 nice -n 10 .venv/bin/python -m benchmarks.tables_loss [--folds 5] \
        [--invoices 120] [--sheets 150] [--sheets-scanned 40]

The runs are ``tables_cv``'s, with its defaults: generated invoices and administrative
sheets train each fold's models too (before, this breakdown left both out, so its folds'
models were not the ones ``tables_cv`` scores), and the sheets are a set of their own.

For the engine's decisions as shipped (row separator, row model, then region model), each
trained on the other folds (``--folds`` folds by document group, as ``tables_cv``'s ``rows k-fold``), every
ground-truth cell of every scored table is put in one bucket, per mode and source set:

* ``ok``: counted as a true positive by the benchmark (best row/column offset);
* ``missed``: its table paired with no prediction (detection miss or region model drop);
* ``row``: in a paired table, its text sits in the predicted grid in the same column but
  another row (after the best offset): a row boundary / row merging error;
* ``col``: same row, another column: a column boundary error;
* ``both``: its text is a cell of the predicted grid elsewhere (row and column wrong);
* ``merged``: its text is part of a larger predicted cell (cells merged, a span
  spread, a wrapped line joined to the wrong cell);
* ``split``: a predicted cell holds part of its text but not all (cell cut in pieces);
* ``text``: a predicted cell reads almost the same (similarity >= 0.8): OCR or
  whitespace/hyphen reading error;
* ``absent``: none of the above: its words are outside the predicted table (extent)
  or taken elsewhere.

False positives are split into cells of predicted tables that pair with no truth table
(``fp_false_table``) and extra cells of paired tables (``fp_in_table``).

Then, table by table (boxed sources), what happened to each truth table and each kept
prediction, with the truth cells each class loses:

* ``paired`` / ``paired_merged``: paired; ``merged`` when the prediction also covers most of
  another truth table of the page (two tables in one candidate);
* ``miss_dropped``: a rule candidate as found would pair; the models dropped or cut it;
* ``miss_merged``: no pair, a rule candidate covers most of it (merged with more: another table,
  prose, a chart, too large to pair);
* ``miss_fragment``: no pair, only candidates that cover parts of it;
* ``miss_nocand``: no candidate touches it;
* ``fp_fragment`` / ``fp_false``: an unpaired prediction over part of a truth table, or over
  no truth table at all (prose, lists, key-value blocks, charts).
"""

from __future__ import annotations

import argparse
import difflib
import os
import tempfile
from collections import Counter
from pathlib import Path

from training.tables import (
    SHEETS,
    SHEETS_SCANNED,
    DocRun,
    apply_rowsep,
    collect,
    export,
    fit,
    fit_rows,
    fit_rowsep,
    materialize,
)

from benchmarks.tables import Grid, _cells, cell_counts, corpus_dir, pair_tables
from benchmarks.tables_cv import _fold_of, _set_of

BUCKETS = ("ok", "missed", "row", "col", "both", "merged", "split", "text", "absent")


def _best_offset(gt: Grid, pred: Grid) -> tuple[int, int]:
    g = Counter(_cells(gt))
    p = _cells(pred)
    best, at = -1, (0, 0)
    for dr in range(-3, 4):
        for dc in range(-2, 3):
            shifted = Counter((r + dr, c + dc, t) for r, c, t in p)
            hit = sum((g & shifted).values())
            if hit > best:
                best, at = hit, (dr, dc)
    return at


def classify_cells(gt: Grid, pred: Grid | None) -> tuple[Counter[str], int]:
    """Buckets of ``gt``'s non-empty cells against ``pred`` (None: missed table), and the
    number of predicted non-empty cells that match no truth cell."""
    out: Counter[str] = Counter()
    cells = _cells(gt)
    if pred is None:
        out["missed"] += len(cells)
        return out, 0
    dr, dc = _best_offset(gt, pred)
    p = [(r + dr, c + dc, t) for r, c, t in _cells(pred)]
    exact = Counter(p)
    g_left = Counter(cells)
    matched = g_left & exact
    tp = sum(matched.values())
    out["ok"] += tp
    rest = g_left - matched
    by_text: dict[str, list[tuple[int, int]]] = {}
    for r, c, t in p:
        by_text.setdefault(t, []).append((r, c))
    texts = [t for _, _, t in p]
    for (r, c, t), n in rest.items():
        for _ in range(n):
            places = by_text.get(t, [])
            if any(pc == c for _, pc in places):
                out["row"] += 1
            elif any(pr == r for pr, _ in places):
                out["col"] += 1
            elif places:
                out["both"] += 1
            elif any(t in x for x in texts if len(x) > len(t)):
                out["merged"] += 1
            elif any(x in t for x in texts if len(x) >= 2):
                out["split"] += 1
            elif any(difflib.SequenceMatcher(None, t, x).ratio() >= 0.8 for x in texts):
                out["text"] += 1
            else:
                out["absent"] += 1
    return out, len(p) - tp


def held_out_predictions(
    runs: list[DocRun], folds: int
) -> dict[int, list[tuple[int, tuple[float, float, float, float], Grid]]]:
    from prefect_docai.engines.tables.extent import ROW_FEATURE_NAMES, RowModel
    from prefect_docai.engines.tables.regions import RegionModel
    from prefect_docai.engines.tables.rowsep import ROWSEP_FEATURE_NAMES, RowSepModel

    preds: dict[int, list[tuple[int, tuple[float, float, float, float], Grid]]] = {}
    everything = list(range(len(runs)))
    for k in range(folds):
        test = [i for i in everything if _fold_of(runs[i].group, folds) == k]
        train = [i for i in everything if _fold_of(runs[i].group, folds) != k]
        separator = RowSepModel.from_json(
            export(fit_rowsep([runs[i] for i in train]), names=ROWSEP_FEATURE_NAMES)
        )
        for i in everything:
            apply_rowsep(runs[i], separator)
        rows = RowModel.from_json(
            export(fit_rows([runs[i] for i in train]), names=ROW_FEATURE_NAMES)
        )
        for i in everything:
            materialize(runs[i], rows)
        region = RegionModel.from_json(export(fit([runs[i] for i in train])))
        for i in test:
            preds[i] = [
                (c.page, c.box, c.output())
                for c in runs[i].candidates
                if region.is_table(c.features)
            ]
    for run in runs:
        apply_rowsep(run, None)
        materialize(run, None)
    return preds


def breakdown(
    runs: list[DocRun], preds: dict[int, list[tuple[int, tuple[float, float, float, float], Grid]]]
) -> dict[tuple[str, str], Counter[str]]:
    out: dict[tuple[str, str], Counter[str]] = {}
    for i, run in enumerate(runs):
        acc = out.setdefault((run.mode, _set_of(run)), Counter())
        mine = preds[i]
        if run.boxed:
            located = [t for t in run.doc.tables if t.page is not None and t.bbox is not None]
            match = pair_tables(located, [(p, b) for p, b, _ in mine])
            for gi, g in enumerate(located):
                got, extra = classify_cells(g.grid, mine[match[gi]][2] if gi in match else None)
                acc.update(got)
                acc["fp_in_table"] += extra
            matched = set(match.values())
            for pi, (_, _, grid) in enumerate(mine):
                if pi not in matched:
                    acc["fp_false_table"] += len(_cells(grid))
            continue
        for g in run.doc.tables:
            best, best_f = None, -1.0
            for _, _, grid in mine:
                tp, npred, ngt = cell_counts(g.grid, grid)
                value = 2 * tp / (npred + ngt) if npred + ngt else 0.0
                if value > best_f:
                    best, best_f = grid, value
            got, extra = classify_cells(g.grid, best if best is not None and best_f > 0 else None)
            acc.update(got)
            acc["fp_in_table"] += extra
    return out


def _area(box: tuple[float, float, float, float]) -> float:
    return max(1e-6, (box[2] - box[0]) * (box[3] - box[1]))


def _inter(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return max(0.0, w) * max(0.0, h)


TABLE_CLASSES = (
    "paired",
    "paired_merged",
    "miss_dropped",
    "miss_merged",
    "miss_fragment",
    "miss_nocand",
    "fp_fragment",
    "fp_false",
)


def table_classes(
    runs: list[DocRun], preds: dict[int, list[tuple[int, tuple[float, float, float, float], Grid]]]
) -> dict[tuple[str, str], tuple[Counter[str], Counter[str]]]:
    """Per (mode, set): how many truth tables / kept predictions fall in each of
    ``TABLE_CLASSES``, and the truth cells lost (missed tables: all of theirs; paired ones:
    those not matched) per class."""
    out: dict[tuple[str, str], tuple[Counter[str], Counter[str]]] = {}
    for i, run in enumerate(runs):
        if not run.boxed:
            continue
        count, lost = out.setdefault((run.mode, _set_of(run)), (Counter(), Counter()))
        kept = preds[i]
        every = [(c.page, c.box) for c in run.candidates]
        located = [t for t in run.doc.tables if t.page is not None and t.bbox is not None]
        match = pair_tables(located, [(p, b) for p, b, _ in kept])
        could = pair_tables(located, every)
        for gi, g in enumerate(located):
            assert g.bbox is not None
            n = len(_cells(g.grid))
            if gi in match:
                page, box, grid = kept[match[gi]]
                others = [
                    h
                    for hj, h in enumerate(located)
                    if hj != gi
                    and h.page == page
                    and h.bbox is not None
                    and _inter(h.bbox, box) > 0.5 * _area(h.bbox)
                ]
                name = "paired_merged" if others else "paired"
                count[name] += 1
                lost[name] += n - cell_counts(g.grid, grid)[0]
                continue
            touching = [
                b
                for p, b in every
                if p == g.page and _inter(g.bbox, b) > 0.2 * min(_area(g.bbox), _area(b))
            ]
            if gi in could:
                name = "miss_dropped"
            elif not touching:
                name = "miss_nocand"
            elif any(_inter(g.bbox, b) > 0.6 * _area(g.bbox) for b in touching):
                name = "miss_merged"
            else:
                name = "miss_fragment"
            count[name] += 1
            lost[name] += n
        matched = set(match.values())
        for pi, (page, box, _) in enumerate(kept):
            if pi in matched:
                continue
            over = any(
                g.page == page and g.bbox is not None and _inter(g.bbox, box) > 0.3 * _area(box)
                for g in located
            )
            count["fp_fragment" if over else "fp_false"] += 1
    return out


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--generated", type=int, default=300)
    parser.add_argument("--scanned", type=int, default=150)
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--invoices", type=int, default=120)
    parser.add_argument("--sheets", type=int, default=SHEETS)
    parser.add_argument("--sheets-scanned", type=int, default=SHEETS_SCANNED)
    args = parser.parse_args()
    os.environ.setdefault("OMP_THREAD_LIMIT", "1")
    with tempfile.TemporaryDirectory(prefix="docai-tables-loss-") as work:
        runs = collect(
            corpus_dir(),
            args.generated,
            args.scanned,
            Path(work),
            True,
            args.invoices,
            sheets=args.sheets,
            sheets_scanned=args.sheets_scanned,
        )
    preds = held_out_predictions(runs, args.folds)
    table = breakdown(runs, preds)
    print(
        f"{'mode':<5} {'set':<10} {'gt':>6} "
        + " ".join(f"{b:>6}" for b in BUCKETS)
        + f" {'fpTab':>6} {'fpIn':>6}"
    )
    for (mode, name), acc in sorted(table.items()):
        total = sum(acc[b] for b in BUCKETS)
        shares = " ".join(f"{acc[b] / max(1, total):>6.3f}" for b in BUCKETS)
        print(
            f"{mode:<5} {name:<10} {total:>6} {shares} "
            f"{acc['fp_false_table'] / max(1, total):>6.3f} {acc['fp_in_table'] / max(1, total):>6.3f}"
        )
    print("\ntables (count / truth cells lost)")
    print(f"{'mode':<5} {'set':<10} " + " ".join(f"{c:>14}" for c in TABLE_CLASSES))
    for (mode, name), (count, lost) in sorted(table_classes(runs, preds).items()):
        print(
            f"{mode:<5} {name:<10} "
            + " ".join(f"{f'{count[c]}/{lost[c]}':>14}" for c in TABLE_CLASSES)
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
