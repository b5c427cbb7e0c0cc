"""The tree scorers' batch path gives the very floats the one-row path gives."""

from __future__ import annotations

import json
import math
import random
from importlib import resources

import pytest

from prefect_docai.engines.learned import LinearScorer, Tree, TreeScorer


def _shipped_tree_scorers() -> list[TreeScorer]:
    found = []
    for ref in resources.files("prefect_docai.engines").joinpath("data").iterdir():
        if ref.name.endswith(".json"):
            blob = json.loads(ref.read_text())
            if isinstance(blob, dict) and blob.get("kind") == "gradient-boosting":
                found.append(TreeScorer.from_blob(blob, tuple(blob["features"])))
    return found


def _rows(width: int, count: int, seed: int) -> list[list[float]]:
    rng = random.Random(seed)
    values = (0.0, 1.0, -1.0, math.nan)
    return [
        [
            rng.choice(values) if rng.random() < 0.3 else rng.uniform(-5.0, 60.0)
            for _ in range(width)
        ]
        for _ in range(count)
    ]


def test_the_shipped_tree_scorers_give_the_same_floats_row_by_row_and_in_a_batch() -> None:
    scorers = _shipped_tree_scorers()
    assert len(scorers) >= 2  # the space and respelling scorers at least
    for k, scorer in enumerate(scorers):
        rows = _rows(len(scorer.features), 400, k)
        assert scorer.probabilities(rows) == [scorer.probability(row) for row in rows]


def test_a_hand_built_tree_routes_each_row_to_its_leaf() -> None:
    # x0 <= 1 → (x1 <= 0 → -2, else 3); else 5
    tree = Tree(
        (0, 1, -2, -2, -2),
        (1.0, 0.0, 0.0, 0.0, 0.0),
        (1, 2, -1, -1, -1),
        (4, 3, -1, -1, -1),
        (0.0, 0.0, -2.0, 3.0, 5.0),
    )
    scorer = TreeScorer(("a", "b"), 0.0, 1.0, (tree, tree))
    rows = [[0.0, -1.0], [0.0, 1.0], [2.0, 0.0], [math.nan, 0.0]]
    expected = [1 / (1 + math.exp(-z)) for z in (-4.0, 6.0, 10.0, 10.0)]
    assert scorer.probabilities(rows) == pytest.approx(expected, rel=0, abs=0)


def test_a_linear_scorer_answers_a_batch_too() -> None:
    scorer = LinearScorer(("a",), (0.0,), (1.0,), (2.0,), -1.0)
    assert scorer.probabilities([[0.0], [1.0]]) == [
        scorer.probability([0.0]),
        scorer.probability([1.0]),
    ]
