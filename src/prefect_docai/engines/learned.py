"""Learned scorers shipped with the engines, stored as plain JSON tables of numbers in
``engines/data/`` (nothing is unpickled, no scikit-learn at run time): a logistic regression
over named, standardised features (:class:`LinearScorer`) or a gradient-boosted tree ensemble
(:class:`TreeScorer`, scikit-learn's ``GradientBoostingClassifier`` exported node by node).
One reader for every tool: the receipt's total and name-row scorers
(``training/receipts.py``) and the tables' region and row models (``training/tables.py``)."""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt


def calibrate(p: float, calibration: tuple[float, float]) -> float:
    """logistic(a · logit(p) + b): a scorer's best probability made a calibrated confidence
    (fitted on held-out folds by ``training/receipts.py``; (1, 0) leaves it as it is)."""
    a, b = calibration
    q = min(max(p, 1e-9), 1 - 1e-9)
    z = a * math.log(q / (1 - q)) + b
    return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, z))))


def _calibration(blob: dict[str, Any]) -> tuple[float, float]:
    a, b = blob.get("calibration", (1.0, 0.0))
    return float(a), float(b)


@dataclass(frozen=True)
class LinearScorer:
    """P(candidate is the field) = logistic(intercept + coef · (x - mean) / scale)."""

    features: tuple[str, ...]
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    coef: tuple[float, ...]
    intercept: float
    calibration: tuple[float, float] = (1.0, 0.0)
    """Platt map (a, b) of the chosen candidate's probability: its confidence."""

    def confidence(self, p: float) -> float:
        return calibrate(p, self.calibration)

    def probability(self, features: Sequence[float]) -> float:
        z = self.intercept + sum(
            c * (x - m) / s
            for c, x, m, s in zip(self.coef, features, self.mean, self.scale, strict=True)
        )
        return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, z))))

    def probabilities(self, rows: Sequence[Sequence[float]]) -> list[float]:
        """:meth:`probability` of every row."""
        return [self.probability(row) for row in rows]

    def to_json(self) -> str:
        def r(values: Sequence[float]) -> list[float]:
            return [float(f"{v:.10g}") for v in values]

        blob = {
            "kind": "logistic-regression",
            "features": list(self.features),
            "mean": r(self.mean),
            "scale": r(self.scale),
            "coef": r(self.coef),
            "intercept": float(f"{self.intercept:.10g}"),
            "calibration": [float(f"{v:.10g}") for v in self.calibration],
        }
        return json.dumps(blob, indent=1) + "\n"

    @classmethod
    def from_json(cls, text: str, features: tuple[str, ...]) -> LinearScorer:
        """A scorer from its JSON; refused unless it was trained on ``features``."""
        blob: dict[str, Any] = json.loads(text)
        if tuple(blob["features"]) != features:
            raise ValueError("model was trained on other features; retrain it")
        return cls(
            features,
            tuple(blob["mean"]),
            tuple(blob["scale"]),
            tuple(blob["coef"]),
            float(blob["intercept"]),
            _calibration(blob),
        )


@dataclass(frozen=True)
class Tree:
    """One regression tree: node arrays as scikit-learn's ``tree_`` holds them."""

    feature: tuple[int, ...]
    threshold: tuple[float, ...]
    left: tuple[int, ...]
    right: tuple[int, ...]
    value: tuple[float, ...]

    def predict(self, x: Sequence[float]) -> float:
        node = 0
        while self.left[node] >= 0:
            go_left = x[self.feature[node]] <= self.threshold[node]
            node = self.left[node] if go_left else self.right[node]
        return self.value[node]


@dataclass(frozen=True)
class TreeScorer:
    """P = logistic(init + learning_rate · Σ tree(x)) over raw features."""

    features: tuple[str, ...]
    init: float
    learning_rate: float
    trees: tuple[Tree, ...]
    calibration: tuple[float, float] = (1.0, 0.0)
    """Platt map (a, b) of the chosen candidate's probability: its confidence."""

    def confidence(self, p: float) -> float:
        return calibrate(p, self.calibration)

    def probability(self, features: Sequence[float]) -> float:
        z = self.init + self.learning_rate * sum(t.predict(features) for t in self.trees)
        return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, z))))

    def probabilities(self, rows: Sequence[Sequence[float]]) -> list[float]:
        """:meth:`probability` of every row, the same floats, with the trees walked for all
        rows at once (numpy): the space scorer meets thousands of character pairs per page,
        and walking 100 trees per pair in Python cost more than the rest of the split."""
        if len(rows) < 2:
            return [self.probability(row) for row in rows]
        x = np.asarray(rows, dtype=np.float64)
        feature, threshold, left, right, value = self._arrays
        trees, width = feature.shape
        count = len(x)
        # node[r, t]: row r's node in tree t, as a flat index into the (trees, width) arrays.
        node = np.broadcast_to(np.arange(trees) * width, (count, trees)).copy()
        base = node.copy()
        flat_feature, flat_left = feature.ravel(), left.ravel()
        flat_right, flat_threshold = right.ravel(), threshold.ravel()
        for _ in range(width):
            child = flat_left[node]
            inner = child >= 0
            if not inner.any():
                break
            seen = np.take_along_axis(x, flat_feature[node], axis=1)
            step = np.where(seen <= flat_threshold[node], child, flat_right[node])
            node = np.where(inner, base + step, node)
        leaves = value.ravel()[node]
        # Summed tree by tree, left to right, as ``sum`` does in probability(): same floats.
        total = np.zeros(count, dtype=np.float64)
        for t in range(trees):
            total += leaves[:, t]
        return [
            1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, self.init + self.learning_rate * v))))
            for v in total.tolist()
        ]

    @functools.cached_property
    def _arrays(
        self,
    ) -> tuple[
        npt.NDArray[np.int64],
        npt.NDArray[np.float64],
        npt.NDArray[np.int64],
        npt.NDArray[np.int64],
        npt.NDArray[np.float64],
    ]:
        """The trees' node arrays padded to one width (leaves have left = -1), built once."""
        width = max(len(t.left) for t in self.trees)
        shape = (len(self.trees), width)
        feature = np.zeros(shape, dtype=np.int64)
        threshold = np.zeros(shape, dtype=np.float64)
        left = np.full(shape, -1, dtype=np.int64)
        right = np.full(shape, -1, dtype=np.int64)
        value = np.zeros(shape, dtype=np.float64)
        for k, tree in enumerate(self.trees):
            n = len(tree.left)
            # scikit-learn marks a leaf's feature -2: any column serves, it is never read.
            feature[k, :n] = [max(f, 0) for f in tree.feature]
            threshold[k, :n] = tree.threshold
            left[k, :n] = tree.left
            right[k, :n] = tree.right
            value[k, :n] = tree.value
        return feature, threshold, left, right, value

    def to_json(self) -> str:
        blob = {
            "kind": "gradient-boosting",
            "features": list(self.features),
            "init": float(f"{self.init:.12g}"),
            "learning_rate": self.learning_rate,
            "trees": [
                {
                    "feature": list(t.feature),
                    "threshold": [float(f"{v:.12g}") for v in t.threshold],
                    "left": list(t.left),
                    "right": list(t.right),
                    "value": [float(f"{v:.12g}") for v in t.value],
                }
                for t in self.trees
            ],
            "calibration": [float(f"{v:.12g}") for v in self.calibration],
        }
        return json.dumps(blob, separators=(",", ":")) + "\n"

    @classmethod
    def from_json(cls, text: str, features: tuple[str, ...]) -> TreeScorer:
        return cls.from_blob(json.loads(text), features)

    @classmethod
    def from_blob(cls, blob: dict[str, Any], features: tuple[str, ...]) -> TreeScorer:
        """A scorer from its parsed JSON; refused unless it was trained on ``features``."""
        if tuple(blob["features"]) != features:
            raise ValueError("model was trained on other features; retrain it")
        trees = tuple(
            Tree(
                tuple(int(v) for v in t["feature"]),
                tuple(float(v) for v in t["threshold"]),
                tuple(int(v) for v in t["left"]),
                tuple(int(v) for v in t["right"]),
                tuple(float(v) for v in t["value"]),
            )
            for t in blob["trees"]
        )
        return cls(
            features, float(blob["init"]), float(blob["learning_rate"]), trees, _calibration(blob)
        )


Scorer = LinearScorer | TreeScorer
"""Either kind: ``probability(features)`` and ``to_json()``."""


def load_scorer(text: str, features: tuple[str, ...]) -> Scorer:
    """A scorer of the kind its JSON names."""
    kind = json.loads(text).get("kind")
    if kind == "gradient-boosting":
        return TreeScorer.from_json(text, features)
    return LinearScorer.from_json(text, features)


_packaged: dict[str, Scorer | None] = {}


def packaged(name: str, features: tuple[str, ...], folder: Path | None = None) -> Scorer | None:
    """The scorer shipped as ``engines/data/<name>``, or ``None`` when there is none."""
    if folder is not None:
        path = folder / name
        return load_scorer(path.read_text(), features) if path.is_file() else None
    if name not in _packaged:
        ref = resources.files("prefect_docai.engines").joinpath("data", name)
        _packaged[name] = load_scorer(ref.read_text(), features) if ref.is_file() else None
    return _packaged[name]
