"""Receipt fields from layout rows, assembled: merchant and address from the head
(:mod:`.merchant`), the date from scored readings (:mod:`.dates`), the total by weighed
evidence (:mod:`.totals`), line items between the head and the total (:mod:`.items`),
payment method, currency and the VAT breakdown."""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import Decimal

from prefect_docai.engines.calibration import ConfidenceMap
from prefect_docai.engines.extract import detect_decimal_separator, format_amount, parse_time
from prefect_docai.engines.extract.amounts import close
from prefect_docai.engines.extract.candidates import Candidate
from prefect_docai.engines.extract.fields import make_field
from prefect_docai.engines.extract.rows import PageLayout, Row
from prefect_docai.engines.extract.tax import tax_breakdown, vat_ids
from prefect_docai.engines.learned import LinearScorer, Scorer, TreeScorer
from prefect_docai.engines.receipt.confidence import NEUTRAL_MARGIN, Signals, calibrated, readings
from prefect_docai.engines.receipt.confidence import shipped_map as shipped_confidence_map
from prefect_docai.engines.receipt.dates import receipt_date
from prefect_docai.engines.receipt.items import find_items
from prefect_docai.engines.receipt.labels import CARD, CASH
from prefect_docai.engines.receipt.line_model import REPORTED_FIELDS, LineModel, tag_merchant
from prefect_docai.engines.receipt.line_model import shipped_model as shipped_line_model
from prefect_docai.engines.receipt.merchant import merchant
from prefect_docai.engines.receipt.merchant_model import (
    best_name_row,
    name_probabilities,
    runner_up_margin,
)
from prefect_docai.engines.receipt.merchant_model import shipped_model as shipped_name_model
from prefect_docai.engines.receipt.total_model import choose_total
from prefect_docai.engines.receipt.total_model import shipped_model as shipped_total_model
from prefect_docai.engines.receipt.totals import (
    TotalAnalysis,
    analyse_totals,
    rounding_twin,
    totals_of,
)
from prefect_docai.models.results import (
    Field,
    ReceiptChecks,
    ReceiptMerchant,
    ReceiptResult,
    TaxLine,
)

_US_ADDRESS = re.compile(r",\s*[A-Z]{2}\s+\d{5}(?:-\d{4})?\s*$")
_MALAYSIAN = re.compile(
    r"\b(?:gst|sdn\.?\s*bhd|s/b|rm|myr|jalan|jln|taman|selangor|johor|kuala\s+lumpur)\b",
    re.IGNORECASE,
)
_TIME = re.compile(r"\b(\d{1,2}:\d{2}(?::\d{2})?(?:\s?[AaPp][Mm])?)\b")


def _field(candidate: Candidate | None) -> Field | None:
    if candidate is None:
        return None
    value = candidate.value
    if isinstance(value, Decimal):
        value = format_amount(value)
    return make_field(value, candidate.tokens, candidate.score, candidate.raw)


def _rows(layouts: Sequence[PageLayout]) -> list[Row]:
    return [row for layout in layouts for row in layout.rows]


def receipt_date_time(
    rows: Sequence[Row], month_first: bool = False
) -> tuple[Candidate | None, Candidate | None]:
    date_candidate = receipt_date(rows, month_first=month_first)
    time_candidate = None
    for row in rows:
        if time_candidate is None:
            for token in row.tokens:
                text = token.text.strip()
                parsed = parse_time(text) if _TIME.fullmatch(text) else None
                if parsed is not None:
                    time_candidate = Candidate(parsed, (token,), 0.75, token.text)
                    break
        if time_candidate is not None:
            break
    return date_candidate, time_candidate


def payment_method(rows: Sequence[Row]) -> Candidate | None:
    for row in reversed(rows):
        text = row.text
        card = CARD.search(text)
        if card:
            tokens = tuple(
                t for t in row.tokens if t.text.lower() in card.group(0).lower()
            ) or tuple(row.tokens)
            return Candidate("card", tokens, 0.7, card.group(0))
        cash = CASH.search(text)
        if cash:
            tokens = tuple(
                t for t in row.tokens if t.text.lower() in cash.group(0).lower()
            ) or tuple(row.tokens)
            return Candidate("cash", tokens, 0.7, cash.group(0))
    return None


def currency(rows: Sequence[Row]) -> Candidate | None:
    for row in rows:
        for token in row.tokens:
            text = token.text.strip(".:")
            if text in ("EUR", "€") or text.endswith("€"):
                return Candidate("EUR", (token,), 0.85, token.text)
            if text.upper() in ("RM", "MYR") or re.match(r"^RM\d", text):
                return Candidate("MYR", (token,), 0.8, token.text)
            if text in ("GBP", "£") or text.startswith("£"):
                return Candidate("GBP", (token,), 0.85, token.text)
            if text in ("$", "USD") or re.match(r"^\$\d", text):
                return Candidate("USD", (token,), 0.8, token.text)
            if text == "CHF":
                return Candidate(text, (token,), 0.85, token.text)
    return None


SHIPPED = "shipped"
"""``extract_receipt``'s default scorers: the packaged models where there are some."""


def extract_receipt(
    layouts: Sequence[PageLayout],
    total_model: Scorer | str | None = SHIPPED,
    name_model: Scorer | str | None = SHIPPED,
    line_model: LineModel | str | None = SHIPPED,
    confidence_map: ConfidenceMap | str | None = SHIPPED,
) -> ReceiptResult:
    """Receipt fields from layout rows. ``total_model``, ``name_model`` and ``line_model``:
    the learned total scorer (:mod:`.total_model`), name-row scorer (:mod:`.merchant_model`)
    and line tagger (:mod:`.line_model`: it reads the fields of
    :data:`.line_model.REPORTED_FIELDS`, the others stay the rules' or the name-row
    scorer's); ``SHIPPED`` = the packaged one if there is one, ``None`` = today's rules.
    ``confidence_map``: what turns the fields' raw scores into calibrated confidences
    (:mod:`.confidence`), ``SHIPPED`` the packaged one, ``None`` keeps the raw scores."""
    result, signals = extract_receipt_raw(layouts, total_model, name_model, line_model)
    mapping = shipped_confidence_map() if confidence_map == SHIPPED else confidence_map
    return calibrated(result, signals, mapping if isinstance(mapping, ConfidenceMap) else None)


def extract_receipt_raw(
    layouts: Sequence[PageLayout],
    total_model: Scorer | str | None = SHIPPED,
    name_model: Scorer | str | None = SHIPPED,
    line_model: LineModel | str | None = SHIPPED,
) -> tuple[ReceiptResult, Signals]:
    """:func:`extract_receipt` before the confidence map: the result with the fields' raw
    scores, and what the map needs besides the result (:class:`.confidence.Signals`): per
    calibrated field found its ``reading`` feature (:func:`.confidence.readings`, from the
    words of the field's candidate: the result keeps no words), the name row's margin
    over its runner-up (:func:`.merchant_model.runner_up_margin`) and whether the total has
    a rounding twin (:func:`.totals.rounding_twin`). The map's training rows come
    from here too (``training/calibration.py``)."""
    rows = _rows(layouts)
    separator = detect_decimal_separator(t.text for r in rows for t in r.tokens)
    totals_by = shipped_total_model() if total_model == SHIPPED else total_model
    names_by = shipped_name_model() if name_model == SHIPPED else name_model
    chooser = None
    if isinstance(totals_by, LinearScorer | TreeScorer):
        total_scorer = totals_by

        def chooser(analysis: TotalAnalysis) -> Candidate | None:
            return choose_total(analysis, rows, total_scorer)

    name_chooser = None
    name_margin = NEUTRAL_MARGIN
    if isinstance(names_by, LinearScorer | TreeScorer):
        name_scorer = names_by

        def name_chooser(
            all_rows: Sequence[Row], candidates: list[Row]
        ) -> tuple[Row, float] | None:
            nonlocal name_margin
            probabilities = name_probabilities(all_rows, candidates, name_scorer)
            name_margin = runner_up_margin(probabilities)
            return best_name_row(candidates, probabilities, name_scorer)

    lines_by = shipped_line_model() if line_model == SHIPPED else line_model
    name, address, merchant_row = merchant(rows, name_chooser)
    tagged_name = False
    if isinstance(lines_by, LineModel):
        line_name, address, line_end = tag_merchant(rows, lines_by)
        merchant_row = max(merchant_row, line_end)
        if "name" in REPORTED_FIELDS:
            name, tagged_name = line_name, True
    merchant_end = max(merchant_row, 0)
    if address is not None and address.tokens:
        last_token = address.tokens[-1]
        merchant_end = next(
            (i for i, row in enumerate(rows) if last_token in row.tokens), merchant_end
        )
    vat, _ = vat_ids(layouts)
    receipt_currency = currency(rows)
    # US receipts print month-first dates (an impossible month still flips back): known by
    # the dollar or by a "City, ST 12345" address.
    # A "$" may be OCR's reading of "RM": Malaysian words overrule it.
    malaysian = any(_MALAYSIAN.search(row.text) for row in rows)
    us = (receipt_currency is not None and receipt_currency.value == "USD" and not malaysian) or (
        address is not None and bool(_US_ADDRESS.search(str(address.value)))
    )
    date, time = receipt_date_time(rows, month_first=us)
    analysis = analyse_totals(rows, separator)
    sums = totals_of(analysis, chooser)
    total = sums["total"]
    twin = (
        total is not None
        and isinstance(total.value, Decimal)
        and rounding_twin(analysis, total.value)
    )
    last_item_row = len(rows)
    if total is not None and total.tokens:
        for index, row in enumerate(rows):
            if total.tokens[0] in row.tokens:
                last_item_row = index
                break
    found_items = find_items(rows, separator, merchant_end, last_item_row)
    breakdown = tax_breakdown(layouts, separator)
    items_ok = None
    if (
        found_items
        and all(i.amount is not None for i in found_items)
        and total is not None
        and isinstance(total.value, Decimal)
    ):
        amounts = [Decimal(str(i.amount.value)) for i in found_items if i.amount is not None]
        items_ok = close(sum(amounts, Decimal(0)), total.value)
    total_field = _field(total)
    if chooser is not None and total is not None and total_field is not None:
        # The model's probability already weighs OCR confidence (a feature): it is the
        # field's confidence as it stands.
        total_field = total_field.model_copy(update={"confidence": round(total.score, 3)})
    name_field = _field(name)
    learned_name = name_chooser is not None or tagged_name
    address_field = _field(address)
    if isinstance(lines_by, LineModel) and address is not None and address_field is not None:
        address_field = address_field.model_copy(update={"confidence": round(address.score, 3)})
    if learned_name and name is not None and name_field is not None:
        name_field = name_field.model_copy(update={"confidence": round(name.score, 3)})
    result = ReceiptResult(
        merchant=ReceiptMerchant(name=name_field, address=address_field, vat_id=_field(vat)),
        date=_field(date),
        time=_field(time),
        currency=_field(receipt_currency),
        items=found_items,
        subtotal=_field(sums["subtotal"]),
        tax=_field(sums["tax"]),
        taxes=[
            TaxLine(rate=_field(rate), base=_field(base), amount=_field(amount))
            for rate, base, amount in breakdown
        ],
        total=total_field,
        payment_method=_field(payment_method(rows)),
        checks=ReceiptChecks(items_sum_to_total=items_ok),
    )
    field_readings = readings(
        {
            "merchant": None if name is None else name.tokens,
            "address": None if address is None else address.tokens,
            "date": None if date is None else date.tokens,
            "total": None if total is None else total.tokens,
        }
    )
    return result, Signals(field_readings, name_margin, twin)
