"""A job's JSON result (docs/results.md) turned into what the result page shows people:
rows of fields, tables of line items, a table grid, document page ranges, text."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

LABELS_DE: dict[str, str] = {
    "Invoice number": "Rechnungsnummer",
    "Invoice date": "Rechnungsdatum",
    "Due date": "Fälligkeitsdatum",
    "Delivery date": "Lieferdatum",
    "Currency": "Währung",
    "Seller": "Verkäufer",
    "Buyer": "Käufer",
    "Payment": "Zahlung",
    "Totals": "Summen",
    "Name": "Name",
    "Street": "Straße",
    "Postal code": "Postleitzahl",
    "City": "Ort",
    "Country": "Land",
    "Vat id": "USt-IdNr.",
    "Tax number": "Steuernummer",
    "Iban": "IBAN",
    "Bic": "BIC",
    "Terms": "Bedingungen",
    "Net": "Netto",
    "Tax": "Steuer",
    "Gross": "Brutto",
    "Amount due": "Zahlbetrag",
    "Merchant": "Händler",
    "Address": "Adresse",
    "Date": "Datum",
    "Time": "Uhrzeit",
    "Subtotal": "Zwischensumme",
    "Total": "Summe",
    "Payment method": "Zahlungsart",
    "Description": "Beschreibung",
    "Quantity": "Menge",
    "Unit": "Einheit",
    "Unit price": "Einzelpreis",
    "Net amount": "Nettobetrag",
    "Tax rate": "Steuersatz",
    "Amount": "Betrag",
    "Rate": "Satz",
    "Base": "Basis",
    "Source": "Quelle",
}


def label(key: str, lang: str) -> str:
    words = re.sub(r"(?<=[a-z0-9])([A-Z])", r" \1", key).lower()
    text = words[:1].upper() + words[1:]
    return LABELS_DE.get(text, text) if lang == "de" else text


@dataclass
class FieldRow:
    label: str
    value: str
    confidence: str
    page: str


@dataclass
class Table:
    caption: str
    header: list[str]
    rows: list[list[str]]


@dataclass
class GridCell:
    text: str
    row_span: int
    col_span: int
    header: bool


@dataclass
class Grid:
    page: int
    index: int
    rows: list[list[GridCell]]


@dataclass
class View:
    fields: list[FieldRow] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    grids: list[Grid] = field(default_factory=list)
    text_pages: list[tuple[int, str]] = field(default_factory=list)
    checks: list[tuple[str, bool | None]] = field(default_factory=list)


def _is_field(value: Any) -> bool:
    return isinstance(value, dict) and "value" in value


def _text(value: Any) -> str:
    if value is None:
        return "–"
    if _is_field(value):
        return _text(value.get("value"))
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def _confidence(value: Any) -> str:
    if _is_field(value) and isinstance(value.get("confidence"), int | float):
        return f"{round(100 * float(value['confidence']))} %"
    return ""


def _field_rows(
    data: dict[str, Any], keys: list[str], lang: str, prefix: str = ""
) -> list[FieldRow]:
    rows: list[FieldRow] = []
    for key in keys:
        if key not in data:
            continue
        value = data[key]
        name = f"{prefix}{label(key, lang)}"
        if isinstance(value, dict) and not _is_field(value):
            rows += _field_rows(value, list(value), lang, f"{name} · ")
            continue
        if isinstance(value, list):
            continue
        page = value.get("page") if _is_field(value) else None
        rows.append(
            FieldRow(name, _text(value), _confidence(value), "" if page is None else str(page))
        )
    return rows


def _item_table(caption: str, items: Any, columns: list[str], lang: str) -> Table | None:
    if not isinstance(items, list) or not items:
        return None
    rows = [
        [_text(item.get(column)) for column in columns] for item in items if isinstance(item, dict)
    ]
    return Table(caption, [label(column, lang) for column in columns], rows)


def _checks(data: dict[str, Any], lang: str) -> list[tuple[str, bool | None]]:
    checks = data.get("checks")
    if not isinstance(checks, dict):
        return []
    return [(label(k, lang), v if isinstance(v, bool) else None) for k, v in checks.items()]


def build(tool: str, result: dict[str, Any] | None, t: Any, lang: str) -> View:
    view = View()
    if not result:
        return view
    if tool == "Invoice":
        keys = [
            "invoiceNumber",
            "invoiceDate",
            "dueDate",
            "deliveryDate",
            "currency",
            "seller",
            "buyer",
            "payment",
            "totals",
            "source",
        ]
        view.fields = _field_rows(result, keys, lang)
        for table in (
            _item_table(
                t("line_items"),
                result.get("lineItems"),
                ["description", "quantity", "unit", "unitPrice", "netAmount", "taxRate"],
                lang,
            ),
            _item_table(t("taxes"), result.get("taxes"), ["rate", "base", "amount"], lang),
        ):
            if table is not None:
                view.tables.append(table)
        view.checks = _checks(result, lang)
    elif tool == "Receipt":
        keys = ["merchant", "date", "time", "currency", "subtotal", "tax", "total", "paymentMethod"]
        view.fields = _field_rows(result, keys, lang)
        for table in (
            _item_table(
                t("items"),
                result.get("items"),
                ["description", "quantity", "unitPrice", "amount", "taxRate"],
                lang,
            ),
            _item_table(t("taxes"), result.get("taxes"), ["rate", "base", "amount"], lang),
        ):
            if table is not None:
                view.tables.append(table)
        view.checks = _checks(result, lang)
    elif tool == "Classify":
        view.fields = [
            FieldRow(
                t("document_type"),
                _text(result.get("documentType")),
                _percent(result.get("confidence")),
                "",
            )
        ]
        scores = result.get("scores") or {}
        if isinstance(scores, dict) and scores:
            ranked = sorted(scores.items(), key=lambda item: -float(item[1] or 0))
            view.tables.append(
                Table(
                    t("scores"),
                    [t("document_type"), t("confidence")],
                    [[str(k), _percent(v)] for k, v in ranked],
                )
            )
        pages = result.get("pages") or []
        if isinstance(pages, list) and len(pages) > 1:
            view.tables.append(
                Table(
                    t("pages"),
                    [t("page"), t("document_type"), t("confidence")],
                    [
                        [
                            _text(p.get("page")),
                            _text(p.get("documentType")),
                            _percent(p.get("confidence")),
                        ]
                        for p in pages
                        if isinstance(p, dict)
                    ],
                )
            )
    elif tool == "TableExtraction":
        for table in result.get("tables") or []:
            if isinstance(table, dict):
                view.grids.append(_grid(table))
    elif tool == "PaperFlow":
        documents = result.get("documents") or []
        view.tables.append(
            Table(
                t("documents"),
                [t("doc_n"), t("pages_range"), t("pages"), t("document_type"), t("confidence")],
                [
                    [
                        str(int(d.get("index", i)) + 1)
                        if isinstance(d.get("index", i), int)
                        else str(i + 1),
                        f"{d.get('startPage')}–{d.get('endPage')}",
                        _text(d.get("pageCount")),
                        _text(d.get("documentType")),
                        _percent(d.get("confidence")),
                    ]
                    for i, d in enumerate(documents)
                    if isinstance(d, dict)
                ],
            )
        )
    elif tool == "ICR":
        view.fields = [FieldRow(t("language_found"), _text(result.get("language")), "", "")]
        pages = result.get("pages") or []
        view.text_pages = [
            (int(p.get("page", i + 1)), str(p.get("text") or ""))
            for i, p in enumerate(pages)
            if isinstance(p, dict)
        ] or [(1, str(result.get("text") or ""))]
    return view


def _percent(value: Any) -> str:
    return f"{round(100 * float(value))} %" if isinstance(value, int | float) else ""


def _grid(table: dict[str, Any]) -> Grid:
    """Rows of cells with their spans; positions a spanning cell covers are left out."""
    rows = int(table.get("rowCount") or 0)
    cols = int(table.get("columnCount") or 0)
    header_rows = int(table.get("headerRows") or 0)
    by_position: dict[tuple[int, int], dict[str, Any]] = {}
    for cell in table.get("cells") or []:
        if isinstance(cell, dict):
            by_position[(int(cell.get("row", 0)), int(cell.get("col", 0)))] = cell
    covered: set[tuple[int, int]] = set()
    grid: list[list[GridCell]] = []
    for r in range(rows):
        line: list[GridCell] = []
        for c in range(cols):
            if (r, c) in covered:
                continue
            cell = by_position.get((r, c), {})
            row_span = max(1, int(cell.get("rowSpan") or 1))
            col_span = max(1, int(cell.get("colSpan") or 1))
            for dr in range(row_span):
                for dc in range(col_span):
                    if dr or dc:
                        covered.add((r + dr, c + dc))
            line.append(GridCell(str(cell.get("text") or ""), row_span, col_span, r < header_rows))
        grid.append(line)
    return Grid(int(table.get("page") or 1), int(table.get("index") or 0), grid)
