"""The receipt total chosen by a learned scorer over candidates.

:func:`.totals.analyse_totals` proposes every value a total line, a payment relation or the
tax table supports, and every other printed amount; this module describes each candidate
by layout and arithmetic features (its keyword evidence, which relations restate it, how
often and where it is printed, how large it is among the receipt's amounts, whether it is a
rounded amount, whether it exceeds the cash tendered, the keywords on its own row and on
the rows around it) and a logistic regression trained on the SROIE training pool
(``training/receipts.py``, folds by merchant) gives P(candidate is the total). The most
probable candidate is the total; its probability, calibrated on held-out folds
(:func:`prefect_docai.engines.learned.calibrate`), is the field's confidence.

The model is a :mod:`prefect_docai.engines.learned` scorer (``engines/data/receipt_total.json``).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from decimal import Decimal

from prefect_docai.engines.extract.candidates import Candidate
from prefect_docai.engines.extract.rows import Row
from prefect_docai.engines.learned import LinearScorer, Scorer, packaged
from prefect_docai.engines.receipt import labels as L
from prefect_docai.engines.receipt.totals import TotalAnalysis, TotalCandidate, _variants

MODEL_FILE = "receipt_total.json"
_FIVE_CENTS = Decimal("0.05")
_GARBLED_TOTAL = re.compile(r"\bt[o0][t!l1i]|\bttl\b|\bamount\b|\bamt\b|\bpa[yv]", re.IGNORECASE)
"""A total keyword as OCR garbles it ("tor! amt prynble", "ttl"): weak evidence."""
_QTY = re.compile(r"\b(?:qty|quantity|items?|pcs|anzahl|artikel)\b", re.IGNORECASE)

TOTAL_FEATURES: tuple[str, ...] = (
    "label",
    "support",
    "rule_score",
    "rule_choice",
    "r_total_line",
    "r_card",
    "r_tendered",
    "r_change",
    "r_subtotal",
    "r_gross",
    "occurrences",
    "occurrences_above_table",
    "rank",
    "is_max",
    "is_max_above_table",
    "value_over_max",
    "log_value",
    "first_row",
    "last_row",
    "right_edge",
    "last_on_row",
    "in_tax_table",
    "equals_subtotal",
    "near_subtotal",
    "equals_tax",
    "five_cents",
    "has_rounding",
    "over_tendered",
    "confidence",
    "height",
    "kw_total",
    "kw_strong",
    "kw_not_total",
    "kw_subtotal",
    "kw_tax",
    "kw_change",
    "kw_cash",
    "kw_card",
    "kw_rounding",
    "kw_discount",
    "kw_qty",
    "kw_total_anywhere",
    "kw_near_total",
    "twin_stronger",
    "twin_more_printed",
    "amounts_on_row",
    "last_total_line",
    "rounds_a_total",
    "rounded_away",
    "kw_garbled_total",
    "score_gap",
    "label_gap",
    "support_gap",
    "score_rank",
)


def _row_keywords(label: str) -> dict[str, float]:
    total = bool(L.TOTAL.search(label))
    return {
        "kw_total": float(total and not L.not_total(label)),
        "kw_strong": float(bool(L.STRONG_TOTAL.search(label))),
        "kw_not_total": float(total and L.not_total(label)),
        "kw_subtotal": float(bool(L.SUBTOTAL.search(label))),
        "kw_tax": float(bool(L.TAX.search(label))),
        "kw_change": float(L.leads(L.CHANGE, label)),
        "kw_cash": float(L.leads(L.TENDERED, label)),
        "kw_card": float(L.leads(L.CARD, label)),
        "kw_rounding": float(bool(L.ROUNDING.search(label))),
        "kw_discount": float(bool(L.DISCOUNT.search(label))),
        "kw_qty": float(bool(_QTY.search(label))),
    }


def total_features(
    analysis: TotalAnalysis, rows: Sequence[Row]
) -> list[tuple[TotalCandidate, list[float]]]:
    """Each candidate of ``analysis`` with its feature vector (:data:`TOTAL_FEATURES`)."""
    candidates = analysis.candidates
    if not candidates:
        return []
    n_rows = max(len(rows), 1)
    every = [a for found in analysis.amounts for a in found if a.value > 0]
    above = [a for a in every if a.row < analysis.table_start]
    distinct = sorted({a.value for a in every} | {c.value for c in candidates}, reverse=True)
    top = distinct[0] if distinct else Decimal(1)
    top_above = max((a.value for a in above), default=None)
    heights = sorted(t.height for row in rows for t in row.tokens) or [1.0]
    median_height = heights[len(heights) // 2] or 1.0
    by_value = {c.value: c for c in candidates}
    paid = [t.value for t in analysis.tendered if t.value > 0]
    has_rounding = any(r.value != 0 for r in analysis.roundings)
    chosen = analysis.total.value if analysis.total is not None else None
    keyword_rows = [c.amount.row for c in candidates if c.label > 0]
    last_keyword_row = max(keyword_rows, default=-1)
    labelled = [c.value for c in candidates if c.label > 0]
    cent2 = Decimal("0.02")
    # Within-receipt comparisons: how the candidate stands against the receipt's best.
    best_score = max(c.score for c in candidates)
    best_label = max(c.label for c in candidates)
    best_support = max(c.support for c in candidates)
    scores = sorted({c.score for c in candidates}, reverse=True)
    out: list[tuple[TotalCandidate, list[float]]] = []
    for candidate in candidates:
        value = candidate.value
        places = [a for a in every if abs(a.value - value) <= Decimal("0.001")]
        if not places:
            places = [candidate.amount]
        reasons = set(candidate.reasons)
        # Keywords of the row the candidate is read from (its strongest keyword line).
        keywords = _row_keywords(analysis.labels[candidate.amount.row])
        total_anywhere = 0.0
        near_total = 0.0
        for place in places:
            total_anywhere = max(
                total_anywhere, _row_keywords(analysis.labels[place.row])["kw_total"]
            )
            for near in (place.row - 1, place.row + 1):
                if 0 <= near < len(analysis.labels) and not analysis.amounts[near]:
                    label = analysis.labels[near]
                    if L.TOTAL.search(label) and not L.not_total(label):
                        near_total = 1.0
        twins = [by_value[v] for v in _variants(value) if v in by_value]
        twin = any(other.label > candidate.label for other in twins)
        # A reading one OCR slip from a value printed more often is likely the misreading.
        printed = len(places)
        twin_more_printed = any(
            sum(1 for a in every if a.value == other.value) > printed for other in twins
        )
        subtotal = analysis.subtotal.value if analysis.subtotal is not None else None
        features = {
            "label": candidate.label,
            "support": candidate.support,
            "rule_score": candidate.score,
            "rule_choice": float(chosen is not None and chosen == value),
            "r_total_line": float("total line" in reasons),
            "r_card": float("card payment" in reasons),
            "r_tendered": float("tendered" in reasons),
            "r_change": float("tendered - change" in reasons),
            "r_subtotal": float("subtotal (+ tax/rounding)" in reasons),
            "r_gross": float("tax table gross" in reasons),
            "occurrences": float(len([p for p in places if p.value == value])),
            "occurrences_above_table": float(
                len([p for p in places if p.row < analysis.table_start])
            ),
            "rank": distinct.index(value) / max(len(distinct), 1) if value in distinct else 1.0,
            "is_max": float(value == top),
            "is_max_above_table": float(top_above is not None and value == top_above),
            "value_over_max": float(value / top) if top else 0.0,
            "log_value": math.log10(float(value) + 0.01),
            "first_row": min(p.row for p in places) / n_rows,
            "last_row": max(p.row for p in places) / n_rows,
            "right_edge": max(p.tokens[-1].bbox[2] for p in places),
            "last_on_row": float(
                any(p is analysis.amounts[p.row][-1] for p in places if analysis.amounts[p.row])
            ),
            "in_tax_table": float(all(p.row > analysis.table_start for p in places)),
            "equals_subtotal": float(subtotal is not None and subtotal == value),
            "near_subtotal": float(
                subtotal is not None
                and subtotal != value
                and abs(subtotal - value) <= Decimal("0.1")
            ),
            "equals_tax": float(analysis.tax is not None and analysis.tax.value == value),
            "five_cents": float(value % _FIVE_CENTS == 0),
            "has_rounding": float(has_rounding),
            "over_tendered": float(bool(paid) and value > max(paid) + Decimal("0.01")),
            "confidence": min(t.confidence for p in places for t in p.tokens),
            "height": max(t.height for p in places for t in p.tokens) / median_height,
            **keywords,
            "kw_total_anywhere": total_anywhere,
            "kw_near_total": near_total,
            "twin_stronger": float(twin),
            "twin_more_printed": float(twin_more_printed),
            "amounts_on_row": float(min(len(analysis.amounts[p.row]) for p in places)),
            "last_total_line": float(
                candidate.label > 0 and candidate.amount.row == last_keyword_row
            ),
            # Cash rounding to 5 cents: the rounded amount beside the exact one.
            # A total line whose amount is another total line's rounded to 5 cents.
            "rounds_a_total": float(
                candidate.label > 0
                and value % _FIVE_CENTS == 0
                and any(
                    v != value and (v / _FIVE_CENTS).quantize(Decimal(1)) * _FIVE_CENTS == value
                    for v in labelled
                )
            ),
            "rounded_away": float(
                value % _FIVE_CENTS != 0
                and any(
                    v != value and v % _FIVE_CENTS == 0 and abs(v - value) <= cent2
                    for v in {c.value for c in candidates}
                )
            ),
            "kw_garbled_total": float(
                bool(_GARBLED_TOTAL.search(analysis.labels[candidate.amount.row]))
            ),
            "score_gap": candidate.score - best_score,
            "label_gap": candidate.label - best_label,
            "support_gap": candidate.support - best_support,
            "score_rank": float(min(scores.index(candidate.score), 5)),
        }
        out.append((candidate, [float(features[name]) for name in TOTAL_FEATURES]))
    return out


TotalModel = LinearScorer
"""A linear total scorer over :data:`TOTAL_FEATURES` (tests and training build these)."""


def shipped_model() -> Scorer | None:
    """The packaged total model, or ``None`` when the package ships none (rules decide)."""
    return packaged(MODEL_FILE, TOTAL_FEATURES)


def choose_total(analysis: TotalAnalysis, rows: Sequence[Row], model: Scorer) -> Candidate | None:
    """The most probable candidate; its calibrated probability is the confidence."""
    best: tuple[float, TotalCandidate] | None = None
    for candidate, features in total_features(analysis, rows):
        p = model.probability(features)
        if best is None or p > best[0]:
            best = (p, candidate)
    if best is None:
        return None
    p, candidate = best
    amount = candidate.amount
    return Candidate(candidate.value, amount.tokens, round(model.confidence(p), 4), amount.raw)
