"""The table-region features and the JSON tree model that scores them."""

from __future__ import annotations

from prefect_docai.engines.page.model import Word
from prefect_docai.engines.pluginspec import EngineOptions
from prefect_docai.engines.tables.engine import find_tables, keep_tables, page_candidates
from prefect_docai.engines.tables.geometry import Box, PageInput, PointWord, Ruling
from prefect_docai.engines.tables.grid import GridTable
from prefect_docai.engines.tables.regions import (
    FEATURE_NAMES,
    RegionModel,
    load_region_model,
    region_features,
)
from prefect_docai.samples.tables import table_page


def _word(text: str, x: float, y: float) -> PointWord:
    w = 5.0 * len(text)
    return PointWord(Word(text, (0.0, 0.0, 0.0, 0.0), 1.0), Box(x, y, x + w, y + 9))


def _numeric_page() -> PageInput:
    words = []
    for r, label in enumerate(["Region", "North", "South", "East", "West", "Total"]):
        y = 100 + 14 * r
        words.append(_word(label, 60, y))
        for c in range(3):
            words.append(_word("2021" if r == 0 else f"{r * 13 + c}.{c}", 200 + 90 * c, y))
    return PageInput(1, 595, 842, words)


def _feature(table_features: list[float], name: str) -> float:
    return table_features[FEATURE_NAMES.index(name)]


def test_numeric_grid_features() -> None:
    page = _numeric_page()
    (table,) = find_tables(page)
    feats = region_features(table, page)
    assert len(feats) == len(FEATURE_NAMES)
    assert _feature(feats, "numeric_share") > 0.6
    assert _feature(feats, "numeric_cols") >= 0.75
    assert _feature(feats, "min_gap_em") > 1.0
    assert _feature(feats, "wordy_cells") == 0.0
    assert _feature(feats, "ruled") == 0.0


def _stump(feature: str, threshold: float, below: float, above: float) -> dict[str, object]:
    return {
        "feature": [FEATURE_NAMES.index(feature), -2, -2],
        "threshold": [threshold, -2.0, -2.0],
        "left": [1, -1, -1],
        "right": [2, -1, -1],
        "value": [0.0, below, above],
    }


def test_tree_model_scores_and_filters() -> None:
    model = RegionModel.from_json(
        {
            "features": list(FEATURE_NAMES),
            "init": 0.0,
            "learning_rate": 1.0,
            "threshold": 0.5,
            "trees": [_stump("numeric_share", 0.3, -3.0, 3.0)],
        }
    )
    page = _numeric_page()
    tables = find_tables(page)
    feats = region_features(tables[0], page)
    assert model.probability(feats) > 0.9
    assert keep_tables(tables, page, model) == tables
    x = list(feats)
    x[FEATURE_NAMES.index("numeric_share")] = 0.1
    assert model.probability(x) < 0.1
    assert not model.is_table(x)


def test_shipped_model_matches_features() -> None:
    model = load_region_model()
    assert model is not None, "engines/data/table_regions.json missing (python -m training.tables)"
    assert model.features == FEATURE_NAMES
    assert len(model.trees) >= 10


def _candidates(seed: int, layout: str) -> tuple[PageInput, list[GridTable]]:
    page = table_page(10_000 + seed, layout=layout)  # seeds the model never saw
    found, _ = page_candidates(page.pdf, EngineOptions(output_formats=("JSON",)))
    return found[0]


def test_model_drops_false_tables_and_keeps_real_ones() -> None:
    """On unseen trap pages (prose columns, lists, key-value blocks) the model drops most
    of what the rules take for tables; on unseen one-table pages it keeps the tables."""
    false_rules = false_kept = 0
    for seed in range(12):
        page, candidates = _candidates(seed, "no_table")
        false_rules += len(candidates)
        false_kept += len(keep_tables(candidates, page))
    assert false_rules >= 4
    assert false_kept <= false_rules // 3
    real_rules = real_kept = 0
    for seed in range(12):
        page, candidates = _candidates(seed, "single")
        real_rules += min(1, len(candidates))
        real_kept += min(1, len(keep_tables(candidates, page)))
    assert real_kept >= real_rules - 1


def _sparse_ruled_page() -> PageInput:
    """A ruled 6 x 5 grid where every body row leaves some cells empty (no full row)."""
    xs = [50.0, 150.0, 230.0, 310.0, 390.0, 470.0]
    ys = [100.0 + 18 * r for r in range(7)]
    segments = [Ruling(xs[0], y, xs[-1], y) for y in ys] + [Ruling(x, ys[0], x, ys[-1]) for x in xs]
    words = [_word(h, xs[c] + 4, ys[0] + 4) for c, h in enumerate(["", "A", "B", "C", "D"]) if h]
    for r, name in enumerate(["North", "South", "East", "West", "Total"], start=1):
        words.append(_word(name, xs[0] + 4, ys[r] + 4))
        for c in range(1, 5):
            if (r + c) % 3:
                words.append(_word(f"{r}{c}.5", xs[c] + 4, ys[r] + 4))
    return PageInput(1, 595, 842, words, segments)


def test_ruled_grid_features_do_not_depend_on_fill() -> None:
    """A sparse ruled grid has no full row, yet every cell is closed by rules and every
    row holds two filled cells or more; a grid found by word alignment alone has no rules."""
    page = _sparse_ruled_page()
    (table,) = find_tables(page)
    assert table.kind == "ruled"
    feats = region_features(table, page)
    assert _feature(feats, "full_rows") == 0.0
    assert _feature(feats, "ruled_cells") == 1.0
    assert _feature(feats, "multi_rows") == 1.0
    assert _feature(feats, "dense_cols") == 1.0
    unruled = _numeric_page()
    (stream,) = find_tables(unruled)
    assert _feature(region_features(stream, unruled), "ruled_cells") == 0.0


def _on_page(height: float) -> PageInput:
    """The numeric table of ``_numeric_page`` on a page ``height`` points tall."""
    page = _numeric_page()
    return PageInput(1, page.width, height, page.words)


def test_features_do_not_hang_on_the_page_height() -> None:
    """How tall a table stands on its page is a habit of the source that drew it (held out
    by source, the model took small tables for no tables): the same table on a taller
    page is described alike."""
    a4, tall = _on_page(842), _on_page(1684)
    (table_a4,) = find_tables(a4)
    (table_tall,) = find_tables(tall)
    assert region_features(table_a4, a4) == region_features(table_tall, tall)


def _kv_and_contents_page() -> PageInput:
    """Two key-value pairs a line (labels ending in a colon in the first and third columns)
    over a contents list joined to its page numbers by dot leaders."""
    words = []
    pairs = [("Project:", "X-100", "Phone:", "555-0101"), ("Status:", "open", "Due:", "12.07.2025")]
    for r, line in enumerate(pairs):
        for c, text in enumerate(line):
            words.append(_word(text, 60 + 120 * c, 100 + 14 * r))
    for r, (entry, number) in enumerate([("Scope", "3"), ("Budget", "7"), ("Contacts", "12")]):
        y = 300 + 14 * r
        words.append(_word(f"{r + 1}", 60, y))
        words.append(_word(entry, 90, y))
        words.append(_word(". . . . . . . .", 160, y))
        words.append(_word(number, 360, y))
    return PageInput(1, 595, 842, words)


def test_colons_and_leaders_are_features() -> None:
    """Key-value blocks and contents lists are told by the colons their labels end with
    (in any column) and by their dot leaders; a numeric table has neither."""
    page = _kv_and_contents_page()
    tables = find_tables(page)
    feats = [region_features(t, page) for t in tables]
    assert max(_feature(f, "colon_cells") for f in feats) >= 0.5
    assert max(_feature(f, "leader_cells") for f in feats) >= 0.2
    numeric = _numeric_page()
    (table,) = find_tables(numeric)
    plain = region_features(table, numeric)
    assert _feature(plain, "colon_cells") == 0.0
    assert _feature(plain, "leader_cells") == 0.0
