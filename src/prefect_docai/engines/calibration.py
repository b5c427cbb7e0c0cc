"""Field confidences made calibrated probabilities (issue #14, point 2).

A tool's extraction gives each field a raw score: the rules' candidate score times the mean
word confidence, or a learned scorer's probability. Those scores are not probabilities (a
field at 0.6 may be right 99 % of the time, another at 0.95 wrong one time in ten). A
:class:`ConfidenceMap`, fitted by ``training/calibration.py`` on fields read from held-out
documents, turns them into P(field is right) per field name:

    confidence = logistic(intercept + w_raw · logit(raw) + Σ w_i · feature_i)

with ``w_raw ≥ 0`` (a higher raw score never lowers the confidence: the map is monotone in
it) and the other features saying what the raw score does not (source OCR or text layer,
whether the invoice's arithmetic or a checksum confirms the value, whether the value was
located on the page). A raw score of 0 stays 0. A field the map has no entry for keeps its
raw score. Shipped as plain JSON numbers in ``engines/data/`` (no scikit-learn at run time).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any, TypeVar

from pydantic import BaseModel

from prefect_docai.models.results import Field

ResultT = TypeVar("ResultT", bound=BaseModel)

RAW_FLOOR = 0.005
"""Raw scores are clipped into [RAW_FLOOR, 1 - RAW_FLOOR] before the logit."""


def clipped_logit(p: float, floor: float) -> float:
    """The logit of ``p`` clipped into [``floor``, 1 - ``floor``] (a probability of 0 or 1
    has no logit; how near to them a caller trusts is its own ``floor``)."""
    q = min(max(p, floor), 1.0 - floor)
    return math.log(q / (1.0 - q))


def raw_logit(raw: float) -> float:
    return clipped_logit(raw, RAW_FLOOR)


@dataclass(frozen=True)
class FieldMap:
    """One field's logistic map: ``coef`` over ``ConfidenceMap.features`` (the first is
    ``raw``, the logit of the raw score)."""

    coef: tuple[float, ...]
    intercept: float

    def probability(self, raw: float, extra: Sequence[float]) -> float:
        if raw <= 0.0:
            return 0.0
        z = self.intercept + self.coef[0] * raw_logit(raw)
        z += sum(c * x for c, x in zip(self.coef[1:], extra, strict=True))
        return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, z))))


@dataclass(frozen=True)
class ConfidenceMap:
    """Per field name its :class:`FieldMap`; ``features`` names the inputs (``raw`` first)."""

    features: tuple[str, ...]
    fields: Mapping[str, FieldMap]
    info: Mapping[str, Any]

    def confidence(self, field: str, raw: float, extra: Sequence[float]) -> float:
        """The calibrated confidence of ``field`` (rounded to 3 decimals as results are);
        ``raw`` unchanged for a field without a map."""
        entry = self.fields.get(field)
        if entry is None:
            return raw
        return round(entry.probability(raw, extra), 3)

    def to_json(self) -> str:
        blob = {
            "kind": "field-confidence-map",
            "features": list(self.features),
            "fields": {
                name: {
                    "coef": [float(f"{c:.6g}") for c in entry.coef],
                    "intercept": float(f"{entry.intercept:.6g}"),
                }
                for name, entry in sorted(self.fields.items())
            },
            "info": dict(self.info),
        }
        return json.dumps(blob, indent=1, sort_keys=True) + "\n"

    @classmethod
    def from_json(cls, text: str) -> ConfidenceMap:
        blob = json.loads(text)
        if blob.get("kind") != "field-confidence-map":
            raise ValueError("not a field confidence map")
        features = tuple(str(f) for f in blob["features"])
        if not features or features[0] != "raw":
            raise ValueError("the first feature of a confidence map must be 'raw'")
        fields = {}
        for name, entry in blob["fields"].items():
            coef = tuple(float(c) for c in entry["coef"])
            if len(coef) != len(features):
                raise ValueError(f"{name}: {len(coef)} weights for {len(features)} features")
            if coef[0] < 0:
                raise ValueError(f"{name}: a negative raw weight is not monotone")
            fields[str(name)] = FieldMap(coef, float(entry["intercept"]))
        return cls(features, fields, dict(blob.get("info", {})))


_packaged: dict[str, ConfidenceMap | None] = {}


def packaged_map(name: str) -> ConfidenceMap | None:
    """The confidence map shipped as ``engines/data/<name>``, or ``None`` when there is none."""
    if name not in _packaged:
        ref = resources.files("prefect_docai.engines").joinpath("data", name)
        _packaged[name] = ConfidenceMap.from_json(ref.read_text()) if ref.is_file() else None
    return _packaged[name]


def field_at(result: BaseModel, path: Sequence[str]) -> Field | None:
    """The field at ``path`` (attribute names) of a result model, or ``None``."""
    node: object = result
    for part in path:
        node = getattr(node, part)
    return node if isinstance(node, Field) else None


def calibrated(
    result: ResultT,
    paths: Mapping[str, tuple[str, ...]],
    features: Mapping[str, Sequence[float]],
    confidence_map: ConfidenceMap | None,
) -> ResultT:
    """``result`` with the confidence of each field of ``features`` (name → its features
    after ``raw``; ``paths``: name → where the field is, one or two attribute names) replaced
    by the map's; ``result`` itself when the map is ``None``. Values, pages, boxes stay."""
    if confidence_map is None:
        return result
    top: dict[str, Any] = {}
    nested: dict[str, dict[str, Any]] = {}
    for name, extra in features.items():
        path = paths[name]
        found = field_at(result, path)
        if found is None:
            continue
        value = confidence_map.confidence(name, found.confidence, extra)
        new = found.model_copy(update={"confidence": value})
        if len(path) == 1:
            top[path[0]] = new
        else:
            nested.setdefault(path[0], {})[path[1]] = new
    for parent, updates in nested.items():
        top[parent] = getattr(result, parent).model_copy(update=updates)
    return result.model_copy(update=top)
