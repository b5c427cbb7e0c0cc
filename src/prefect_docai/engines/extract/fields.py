"""Result fields: built from the words a value was read from, and dropped below the
caller's confidence threshold."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from prefect_docai.engines.page.model import Word, union
from prefect_docai.models.results import Field


def make_field(
    value: object, tokens: Sequence[Word], score: float, raw: str | None = None
) -> Field:
    """A result field from the tokens it was read from: bbox union, first token's page,
    confidence = candidate score × mean word confidence."""
    if not tokens:
        return Field(value=value, confidence=round(score, 3), raw=raw)
    confidence = score * sum(t.confidence for t in tokens) / len(tokens)
    box = union(t.bbox for t in tokens)
    return Field(
        value=value,
        confidence=round(max(0.0, min(1.0, confidence)), 3),
        page=tokens[0].page,
        bbox=(round(box[0], 4), round(box[1], 4), round(box[2], 4), round(box[3], 4)),
        raw=raw if raw is not None else " ".join(t.text for t in tokens),
    )


def drop_below(model: Any, threshold: float) -> Any:
    """A copy of a result model with every field under ``threshold`` confidence nulled."""
    updates: dict[str, Any] = {}
    for name in type(model).model_fields:
        value = getattr(model, name)
        if isinstance(value, Field):
            if value.confidence < threshold:
                updates[name] = None
        elif isinstance(value, list):
            updates[name] = [drop_below(v, threshold) if hasattr(v, "model_fields") else v for v in value]
        elif hasattr(value, "model_fields"):
            updates[name] = drop_below(value, threshold)
    return model.model_copy(update=updates)
