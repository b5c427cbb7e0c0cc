"""Learned scorers shipped with the receipt engine: a logistic regression over named,
standardised features, stored as a plain JSON table of numbers (feature names, means,
scales, coefficients, intercept) in ``engines/data/``; nothing is unpickled. Trained by
``training/receipts.py``."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class LinearScorer:
    """P(candidate is the field) = logistic(intercept + coef · (x - mean) / scale)."""

    features: tuple[str, ...]
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    coef: tuple[float, ...]
    intercept: float

    def probability(self, features: Sequence[float]) -> float:
        z = self.intercept + sum(
            c * (x - m) / s
            for c, x, m, s in zip(self.coef, features, self.mean, self.scale, strict=True)
        )
        return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, z))))

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
        }
        return json.dumps(blob, indent=1) + "\n"

    @classmethod
    def from_json(cls, text: str, features: tuple[str, ...]) -> LinearScorer:
        """A scorer from its JSON; refused unless it was trained on ``features``."""
        blob: dict[str, Any] = json.loads(text)
        if tuple(blob["features"]) != features:
            raise ValueError("receipt model was trained on other features; retrain it")
        return cls(
            features,
            tuple(blob["mean"]),
            tuple(blob["scale"]),
            tuple(blob["coef"]),
            float(blob["intercept"]),
        )


_packaged: dict[str, LinearScorer | None] = {}


def packaged(
    name: str, features: tuple[str, ...], folder: Path | None = None
) -> LinearScorer | None:
    """The scorer shipped as ``engines/data/<name>``, or ``None`` when there is none."""
    if folder is not None:
        path = folder / name
        return LinearScorer.from_json(path.read_text(), features) if path.is_file() else None
    if name not in _packaged:
        ref = resources.files("prefect_docai.engines").joinpath("data", name)
        _packaged[name] = (
            LinearScorer.from_json(ref.read_text(), features) if ref.is_file() else None
        )
    return _packaged[name]
