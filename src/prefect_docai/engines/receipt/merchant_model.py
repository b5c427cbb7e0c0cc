"""The merchant's name row chosen by a learned scorer over the head's candidate rows.

:func:`.merchant.name_candidates` lists the text lines at the top of the receipt that may
hold the name; each is described by its position (index, height on the page), type size
against the other head lines, letter/digit/capital shares, legal-form, shop, street,
postcode, region and registration-number patterns on it and on its neighbours, OCR
confidence, whether an address follows it, and whether today's rules would pick it. A
logistic regression trained on the SROIE training pool (``training/receipts.py``, folds by
merchant) gives P(this row holds the merchant's name); the most probable row is read as the
name (:func:`.merchant.name_of`) and its probability is the field's raw score; how far it
stands above the runner-up row (:func:`runner_up_margin`) is a feature of the confidence map
(:mod:`.confidence`).

Shipped (``engines/data/receipt_merchant.json``) since the receipts are read by RapidOCR:
out of fold (``training/receipts.py``, 5 folds by merchant, 240 pool receipts) the strict
merchant F1 is 0.738 against the rules' 0.729, 0.660 against 0.645 on merchants absent from
the visible set, and 0.800 on the visible SROIE receipts for both. (On the earlier
Tesseract reading it was 0.587 against 0.588 and was not shipped.)

The candidates include lines with a colon (``colon`` feature: "Dimiliki Oleh : Kestrel Holdings
Sdn Bhd" names the merchant, "OWN BY: ..." may) and the head does not end at a number above
its first text line: out of fold (5 folds by merchant, shipped engine) the merchant's strict
F1 rose from 0.802 to 0.823, on merchants absent from the visible set to 0.755; visible 0.900
both.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from prefect_docai.engines.calibration import clipped_logit
from prefect_docai.engines.extract.rows import Row
from prefect_docai.engines.learned import Scorer, packaged
from prefect_docai.engines.receipt import merchant as M

MODEL_FILE = "receipt_merchant.json"

NAME_FEATURES: tuple[str, ...] = (
    "candidate_index",
    "candidate_share",
    "row_index",
    "top",
    "height",
    "is_tallest",
    "height_rank",
    "chars",
    "words",
    "letters",
    "digits",
    "capitals",
    "company",
    "shop",
    "registration_in_row",
    "street",
    "postcode",
    "region",
    "parenthesis",
    "first_company",
    "company_above",
    "next_registration",
    "next_legal_form_only",
    "next_street_or_postcode",
    "prev_company",
    "centre_offset",
    "width",
    "confidence",
    "has_address",
    "rule_choice",
    "name_words",
    "name_joined",
    "colon",
)


def _flags(text: str) -> dict[str, float]:
    clean = M.clean_text(text)
    return {
        "company": float(bool(M.COMPANY.search(clean))),
        "shop": float(bool(M.SHOP.search(text))),
        "registration_in_row": float(bool(M._REG_IN_ROW.search(text))),
        "street": float(bool(M._STREET.search(clean))),
        "postcode": float(M._has_postcode(text)),
        "region": float(bool(M._REGIONS.match(clean.strip()))),
    }


def name_features(rows: Sequence[Row], candidates: list[Row]) -> list[list[float]]:
    """One vector of :data:`NAME_FEATURES` per candidate row."""
    if not candidates:
        return []
    heights = [M.row_height(r) for r in candidates]
    ordered = sorted(set(heights), reverse=True)
    median = sorted(heights)[len(heights) // 2] or 1.0
    rule = M.rule_choice(candidates)
    first_company = next((r for r in candidates if M.COMPANY.search(M.clean_text(r.text))), None)
    index_of = {id(r): i for i, r in enumerate(rows)}
    out = []
    for position, row in enumerate(candidates):
        text = row.text
        k = index_of[id(row)]
        letters = sum(c.isalpha() for c in text)
        digits = sum(c.isdigit() for c in text)
        capitals = sum(c.isupper() for c in text)
        nxt = rows[k + 1] if k + 1 < len(rows) else None
        prev = rows[k - 1] if k > 0 else None
        next_text = M.clean_text(nxt.text) if nxt is not None else ""
        below = re.sub(r"\([^)]*\)", " ", next_text).strip()
        box = row.bbox
        name, tokens = M.name_of(rows, row)
        last = tokens[-1] if tokens else None
        start = next((i for i, r in enumerate(rows) if last in r.tokens), k) + 1
        features = {
            "candidate_index": float(position),
            "candidate_share": position / len(candidates),
            "row_index": float(k),
            "top": box[1],
            "height": heights[position] / median,
            "is_tallest": float(heights[position] == ordered[0]),
            "height_rank": float(ordered.index(heights[position])),
            "chars": float(len(text)),
            "words": float(len(text.split())),
            "letters": letters / max(len(text), 1),
            "digits": digits / max(len(text), 1),
            "capitals": capitals / max(letters, 1),
            **_flags(text),
            "parenthesis": float("(" in text or ")" in text),
            "first_company": float(row is first_company),
            "company_above": float(
                first_company is not None and candidates.index(first_company) < position
            ),
            "next_registration": float(
                bool(next_text)
                and bool(M.REGISTRATION.match(next_text) or M._REG_IN_ROW.search(next_text))
            ),
            "next_legal_form_only": float(bool(below) and bool(M.COMPANY.fullmatch(below))),
            "next_street_or_postcode": float(
                bool(next_text) and bool(M._STREET.search(next_text) or M._has_postcode(next_text))
            ),
            "prev_company": float(
                prev is not None and bool(M.COMPANY.search(M.clean_text(prev.text)))
            ),
            "centre_offset": abs((box[0] + box[2]) / 2 - 0.5),
            "width": box[2] - box[0],
            "confidence": sum(t.confidence for t in row.tokens) / max(len(row.tokens), 1),
            "has_address": float(M._address(rows, start, name or "") is not None),
            "rule_choice": float(rule is not None and rule[0] is row),
            "name_words": float(len((name or "").split())),
            "name_joined": float(len(tokens) > len(row.tokens)),
            # Candidates may print a colon ("Dimiliki Oleh : ..."); most such lines are labels.
            "colon": float(":" in text),
        }
        out.append([float(features[n]) for n in NAME_FEATURES])
    return out


def shipped_model() -> Scorer | None:
    """The packaged name-row model, or ``None`` when the package ships none."""
    return packaged(MODEL_FILE, NAME_FEATURES)


def name_probabilities(rows: Sequence[Row], candidates: list[Row], model: Scorer) -> list[float]:
    """Each candidate row's probability of holding the name (the scorer's, before its
    calibration)."""
    return [model.probability(features) for features in name_features(rows, candidates)]


def best_name_row(
    candidates: Sequence[Row], probabilities: Sequence[float], model: Scorer
) -> tuple[Row, float] | None:
    """The most probable of ``candidates`` and its calibrated probability."""
    best: tuple[float, Row] | None = None
    for row, p in zip(candidates, probabilities, strict=True):
        if best is None or p > best[0]:
            best = (p, row)
    return None if best is None else (best[1], model.confidence(best[0]))


def choose_name_row(
    rows: Sequence[Row], candidates: list[Row], model: Scorer
) -> tuple[Row, float] | None:
    """The most probable name row and its calibrated probability."""
    return best_name_row(candidates, name_probabilities(rows, candidates, model), model)


MARGIN_CLIP = 10.0
"""The margin of a lone candidate, and the most any margin counts."""
_P_CLIP = 1e-4
"""Probabilities are clipped into [_P_CLIP, 1 - _P_CLIP] before the logit."""


def runner_up_margin(probabilities: Sequence[float]) -> float:
    """How far the chosen name row stands above its runner-up: the logit of the best
    candidate's probability minus the second best's, in [0, :data:`MARGIN_CLIP`]
    (:data:`MARGIN_CLIP` for a lone candidate). The chosen row's own probability says how
    name-like it is, not whether another line is nearly as name-like: where two lines are
    both likely, the name is often split between them, or one is a branch's or an owner's
    line, and the name read from one of them is wrong more often."""
    ranked = sorted(probabilities, reverse=True)
    if not ranked:
        return 0.0
    if len(ranked) == 1:
        return MARGIN_CLIP
    return min(clipped_logit(ranked[0], _P_CLIP) - clipped_logit(ranked[1], _P_CLIP), MARGIN_CLIP)
