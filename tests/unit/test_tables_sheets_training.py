"""training.tables.sheet_runs: the administrative sheets give the region model what no
other source but the table generator does — real tables without rules and look-alike
non-tables (key-value blocks, contents, lists) — each labelled by the detection rule."""

from __future__ import annotations

from pathlib import Path

from training.tables import sheet_runs

from prefect_docai.engines.tables.regions import FEATURE_NAMES

RULED = FEATURE_NAMES.index("ruled")
H_RULES = FEATURE_NAMES.index("h_rules_per_row")


def test_sheets_hold_unruled_tables_and_lookalike_negatives(tmp_path: Path) -> None:
    runs = sheet_runs(12, 0, tmp_path, cache=False)
    assert [r.mode for r in runs] == ["pdf"] * 12
    assert {r.source for r in runs} == {"sheets"} and all(r.boxed for r in runs)
    cands = [c for r in runs for c in r.candidates]
    tables = [c for c in cands if c.label == 1]
    others = [c for c in cands if c.label == 0]
    unruled = [c for c in tables if c.features[RULED] == 0 and c.features[H_RULES] == 0]
    assert len(tables) >= 8 and len(others) >= 5, (len(tables), len(others))
    assert len(unruled) >= 2, [c.features[RULED] for c in tables]
    # the cell truth the row-separator and row models train on
    assert all(r.truth_cells for r in runs if r.doc.tables)
