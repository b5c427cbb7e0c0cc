"""Positions for values read from embedded XML: the words on the page that print them."""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import Decimal, InvalidOperation
from typing import Any

from prefect_docai.engines.extract import detect_decimal_separator, parse_amount, parse_date
from prefect_docai.engines.extract.rows import PageLayout
from prefect_docai.engines.page.model import Word, union
from prefect_docai.models.results import Field, InvoiceResult

_AMOUNT_FIELDS = {"net", "tax", "gross", "amount_due", "base", "amount", "net_amount"}


def _key(text: str) -> str:
    return re.sub(r"[\s.\-/]", "", text).lower()


class _Index:
    def __init__(self, layouts: Sequence[PageLayout]) -> None:
        self.tokens: list[Word] = [t for layout in layouts for row in layout.rows for t in row.tokens]
        self.separator = detect_decimal_separator(t.text for t in self.tokens)
        self.amounts: dict[Decimal, list[Word]] = {}
        self.dates: dict[str, list[Word]] = {}
        self.texts: dict[str, list[Word]] = {}
        for token in self.tokens:
            amount = parse_amount(token.text, self.separator)
            if amount is not None and re.search(r"[.,]\d{2}\b", token.text):
                self.amounts.setdefault(amount.quantize(Decimal("0.01")), []).append(token)
            parsed = parse_date(token.text)
            if parsed is not None:
                self.dates.setdefault(parsed.isoformat(), []).append(token)
            self.texts.setdefault(_key(token.text), []).append(token)

    def find(self, name: str, field: Field) -> list[Word]:
        value = str(field.value)
        if name in _AMOUNT_FIELDS:
            try:
                return self.amounts.get(Decimal(value).quantize(Decimal("0.01")), [])[:1]
            except InvalidOperation:
                return []
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
            return self.dates.get(value, [])[:1]
        words = value.split()
        if len(words) == 1:
            return self.texts.get(_key(value), [])[:1]
        return self._sequence(words)

    def _sequence(self, words: list[str]) -> list[Word]:
        keys = [_key(w) for w in words]
        for index, token in enumerate(self.tokens):
            if _key(token.text) != keys[0]:
                continue
            run = self.tokens[index : index + len(keys)]
            if [_key(t.text) for t in run] == keys and len({t.page for t in run}) == 1:
                return run
        return []


def _visit(model: Any, index: _Index) -> Any:
    updates: dict[str, Any] = {}
    for name in type(model).model_fields:
        value = getattr(model, name)
        if isinstance(value, Field) and value.page is None and value.value is not None:
            tokens = index.find(name, value)
            if tokens:
                box = union(t.bbox for t in tokens)
                updates[name] = value.model_copy(
                    update={"page": tokens[0].page, "bbox": tuple(round(v, 4) for v in box)}
                )
        elif isinstance(value, list):
            updates[name] = [_visit(v, index) if hasattr(v, "model_fields") else v for v in value]
        elif hasattr(value, "model_fields"):
            updates[name] = _visit(value, index)
    return model.model_copy(update=updates)


def locate_fields(result: InvoiceResult, layouts: Sequence[PageLayout]) -> InvoiceResult:
    """Fill ``page``/``bbox`` of XML-read fields where the printed page shows the value
    (values the rendering does not print keep ``page``/``bbox`` null)."""
    located: InvoiceResult = _visit(result, _Index(layouts))
    return located
