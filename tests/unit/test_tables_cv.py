"""benchmarks.tables_cv: scoring of candidate runs, labels, folds and the model export
(synthetic runs, no engine pass)."""

from __future__ import annotations

from pathlib import Path

from benchmarks import tables_cv as cv
from benchmarks.tables import Doc, GtTable
from training.tables import SHIPPED, Candidate, DocRun, FitDraw, export, fit, label, materialize

from prefect_docai.engines.page.model import Word
from prefect_docai.engines.tables.extent import ROW_FEATURE_NAMES, RowModel
from prefect_docai.engines.tables.finders import find_tables
from prefect_docai.engines.tables.geometry import Box, PageInput, PointWord
from prefect_docai.engines.tables.regions import FEATURE_NAMES, RegionModel

GRID = [["Region", "2020"], ["North", "12"], ["South", "7"]]
BOX = (100.0, 100.0, 300.0, 160.0)


def _run(tables: list[GtTable], boxed: bool = True, source: str = "generated") -> DocRun:
    doc = Doc("d", Path("d.pdf"), 1, tables, [(595.0, 842.0)])
    return DocRun(doc, source, "d", "pdf", boxed)


def _cand(run: DocRun, box: tuple[float, float, float, float], grid: list[list[str]]) -> Candidate:
    feats = [0.0] * len(FEATURE_NAMES)
    return Candidate(1, box, grid, feats, label(run, 1, box, grid))


def test_labels_follow_the_detection_rule() -> None:
    run = _run([GtTable("d", 1, BOX, GRID)])
    assert _cand(run, (98, 98, 305, 165), GRID).label == 1
    assert _cand(run, (100, 400, 300, 460), GRID).label == 0
    tabula = _run([GtTable("d", None, None, GRID)], boxed=False, source="tabula")
    assert _cand(tabula, (0, 0, 10, 10), GRID).label == 1
    assert _cand(tabula, (0, 0, 10, 10), [["x", "y"]]).label == -1  # unknown: not trained on


def test_false_tables_cost_detection_and_strict_cell_precision() -> None:
    run = _run([GtTable("d", 1, BOX, GRID)])
    run.candidates = [_cand(run, BOX, GRID), _cand(run, (100, 400, 300, 460), [["a", "b"]])]
    everything = cv.CvScore()
    cv.score_run(run, [True, True], everything)
    assert (everything.det_tp, everything.det_pred, everything.det_gt) == (1, 2, 1)
    assert everything.cell == [6, 6, 6]
    assert everything.strict == [6, 8, 6]
    kept = cv.CvScore()
    cv.score_run(run, [True, False], kept)
    assert (kept.det_pred, kept.strict) == (1, [6, 6, 6])
    # a page without tables: every kept candidate is a false table
    empty = _run([])
    empty.candidates = [_cand(empty, BOX, GRID)]
    score = cv.CvScore()
    cv.score_run(empty, [True], score)
    assert (score.det_tp, score.det_pred, score.det_gt, score.strict) == (0, 1, 0, [0, 6, 0])


def test_folds_keep_a_group_together() -> None:
    assert cv._fold_of("gen-7", 5) == cv._fold_of("gen-7", 5)
    assert len({cv._fold_of(f"gen-{i}", 5) for i in range(50)}) == 5


def test_export_reproduces_scikit_learn() -> None:
    runs = []
    for i in range(40):
        run = _run([GtTable("d", 1, BOX, GRID)])
        feats = [float((i * 7 + k) % 5) for k in range(len(FEATURE_NAMES))]
        run.candidates = [Candidate(1, BOX, GRID, feats, int(feats[0] > 1.5))]
        runs.append(run)
    model = fit(runs)
    region = RegionModel.from_json(export(model))
    xs = [r.candidates[0].features for r in runs]
    for x, p in zip(xs, model.predict_proba(xs)[:, 1], strict=True):
        assert abs(region.probability(x) - p) < 1e-9


def test_invoice_runs_label_and_score_the_line_items_table() -> None:
    run = _run([], boxed=False, source="invoices")
    run.items = ["BeratungsleistungProjektmanagement", "Kaffeebohnen1kg"]
    items = [["Pos.", "Bezeichnung"], ["1", "Beratungsleistung Projektmanagement"]]
    items += [["2", "Kaffeebohnen 1 kg"]]
    table = _cand(run, BOX, items)
    header = _cand(run, (100, 20, 300, 60), [["Rechnung Nr.", "4711"]])
    # The region model trains on invoices (696d08a): the line-items table is a table, a
    # block without a line item is none.
    assert (table.label, header.label) == (1, 0)
    run.candidates = [table, header]
    found, lost = cv.CvScore(), cv.CvScore()
    cv.score_run(run, [True, False], found)
    cv.score_run(run, [False, True], lost)
    assert (found.det_tp, found.det_gt, lost.det_tp, lost.det_gt) == (1, 1, 0, 1)


def _peels_the_top_row() -> RowModel:
    """A row model that takes a candidate's first row for text outside the table."""
    return RowModel.from_json(
        {
            "features": list(ROW_FEATURE_NAMES),
            "init": 0.0,
            "learning_rate": 1.0,
            "threshold": 0.5,
            "trees": [
                {
                    "feature": [ROW_FEATURE_NAMES.index("from_top"), -2, -2],
                    "threshold": [0.5, -2.0, -2.0],
                    "left": [1, -1, -1],
                    "right": [2, -1, -1],
                    "value": [0.0, -5.0, 5.0],
                }
            ],
        }
    )


def test_the_region_model_learns_a_peeled_candidate_as_found_too() -> None:
    """A candidate the row model peels is region-model training data twice: as peeled (the
    one scored) and as found (``DocRun.unpeeled``), each labelled by its own box."""
    words = [
        PointWord(Word(text, (0.0, 0.0, 0.0, 0.0), 1.0), Box(x, 86, x + 30, 95))
        for text, x in (("Summary", 60), ("as", 200), ("of", 290))
    ]
    for r, name in enumerate(["Region", "North", "South", "East"]):
        y = 100 + 14 * r
        words.append(PointWord(Word(name, (0.0, 0.0, 0.0, 0.0), 1.0), Box(60, y, 90, y + 9)))
        for c in range(2):
            text = "2021" if r == 0 else f"{r}{c}.5"
            box = Box(200 + 90 * c, y, 220 + 90 * c, y + 9)
            words.append(PointWord(Word(text, (0.0, 0.0, 0.0, 0.0), 1.0), box))
    page = PageInput(1, 595, 842, words)
    run = _run([GtTable("d", 1, (58, 98, 312, 150), GRID)])
    run.raw = [(1, page, t, 1) for t in find_tables(page)]
    materialize(run, None)
    assert run.unpeeled == [] and run.candidates[0].grid[0][0] == "Summary"
    materialize(run, _peels_the_top_row())
    (peeled,) = run.candidates
    (found,) = run.unpeeled
    assert found.grid[0][0] == "Summary" and peeled.grid[0][0] == "Region"
    assert found.box[1] < peeled.box[1]
    assert len(found.features) == len(peeled.features) == len(FEATURE_NAMES)


def _noisy_runs() -> list[DocRun]:
    runs = []
    for i in range(60):
        run = _run([GtTable("d", 1, BOX, GRID)])
        feats = [float((i * 7 + k * 3) % 11) for k in range(len(FEATURE_NAMES))]
        # a label the features do not decide alone: the trees differ with the draw
        run.candidates = [Candidate(1, BOX, GRID, feats, int(feats[0] + (i % 3) > 6))]
        runs.append(run)
    return runs


def test_a_fit_draw_changes_the_model_and_the_shipped_draw_does_not() -> None:
    """``FitDraw(0.8, k)`` refits on a subsample: the same draw gives the same model, another
    draw another model; the shipped draw is scikit-learn's full-sample fit at state 0."""
    runs = _noisy_runs()
    assert export(fit(runs)) == export(fit(runs, SHIPPED))
    assert export(fit(runs, FitDraw(0.8, 1))) == export(fit(runs, FitDraw(0.8, 1)))
    assert export(fit(runs, FitDraw(0.8, 1))) != export(fit(runs, FitDraw(0.8, 2)))
    assert export(fit(runs, FitDraw(0.8, 1))) != export(fit(runs))


def test_fit_spread_gives_mean_and_half_range_per_split_and_set() -> None:
    def score(tp: int, pred: int) -> cv.CvScore:
        s = cv.CvScore()
        s.det_tp, s.det_pred, s.det_gt = tp, pred, 10
        s.cell = [tp, pred, 10]
        return s

    results = {
        "rules": {("pdf", "icdar"): score(9, 9)},
        "rowsep LOSO": {("pdf", "icdar"): score(9, 9)},
        "rowsep LOSO fit1": {("pdf", "icdar"): score(8, 10)},
        "rowsep LOSO fit2": {("pdf", "icdar"): score(6, 10)},
        "rowsep 5-fold fit1": {("scan", "sheets"): score(5, 5)},
    }
    spread = {(e["decision"], e["mode"], e["set"]): e for e in cv.fit_spread(results)}
    assert set(spread) == {("rowsep LOSO", "pdf", "icdar"), ("rowsep 5-fold", "scan", "sheets")}
    loso = spread[("rowsep LOSO", "pdf", "icdar")]
    assert loso["fits"] == 2
    assert abs(loso["det_precision"] - 0.7) < 1e-9  # (0.8 + 0.6) / 2
    assert abs(loso["det_precision_half_range"] - 0.1) < 1e-9
    assert abs(loso["det_recall"] - 0.7) < 1e-9
    assert spread[("rowsep 5-fold", "scan", "sheets")]["det_precision_half_range"] == 0.0
