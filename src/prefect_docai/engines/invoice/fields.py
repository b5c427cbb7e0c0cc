"""Header fields of an invoice read from the page: number, dates, currency, ids, totals."""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from collections.abc import Sequence
from datetime import date
from decimal import Decimal
from itertools import product
from typing import NamedTuple

from prefect_docai.engines.extract import (
    format_amount,
    normalize_bic,
    normalize_tax_number,
    parse_date,
)
from prefect_docai.engines.extract.amounts import (
    CURRENCY_CODES,
    CURRENCY_SYMBOLS,
    close,
)
from prefect_docai.engines.extract.candidates import (
    Candidate,
    best,
    date_in,
    label_hits,
    money_tokens,
    value_runs,
)
from prefect_docai.engines.extract.ids import bic_matches_iban, find_ibans
from prefect_docai.engines.extract.labels import UK_POSTCODE
from prefect_docai.engines.extract.rows import PageLayout, Segment, fold
from prefect_docai.engines.extract.tax import is_buyer_context
from prefect_docai.engines.invoice import labels as L
from prefect_docai.engines.page.model import Word, union

_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9/_.\-]*$")
_SKIP_BEFORE_ID = {
    "nr",
    "nr.",
    "no",
    "no.",
    "#",
    ":",
    "n°",
    "no:",
    "nr:",
    "number",
    "nummer",
    "n°:",
    "n",
    "°",
    "num",
    "num.",
}


# --- invoice number -------------------------------------------------------------------


def _id_from(tokens: Sequence[Word]) -> tuple[str, Word] | None:
    for token in tokens[:4]:
        text = token.text.strip().strip(":,;")
        if not text or text.lower() in _SKIP_BEFORE_ID:
            continue
        text = text.lstrip("#:").rstrip(".")
        if (
            _ID.match(text)
            and any(c.isdigit() for c in text)
            and 3 <= len(text) <= 30
            and date_in([token]) is None
        ):
            return text, token
        return None
    return None


def _title_id(title: Sequence[Word], tokens: Sequence[Word]) -> tuple[str, Word] | None:
    """The number closing a short title line ("Fattura di vendita 283/2025", "Note
    d'honoraires FAC2025001"): its last token, when the words before it are all letters."""
    if len(title) > 6 or not tokens or tokens[-1] is not title[-1]:
        return None
    if any(any(c.isdigit() for c in t.text) for t in tokens[:-1]):
        return None
    return _id_from(tokens[-1:])


def _whole_ids(found: Sequence[tuple[Candidate, Word | None]]) -> list[Candidate]:
    """An id OCR cut at a gap between its characters ("RE-2026-06 142") is read whole
    where the page prints the same id whole elsewhere ("INVOICE RE-2026-06142"): a
    candidate whose value and next word, joined, are another candidate's value takes that
    word too. Without that second reading the next word stays apart (it may be another
    value)."""
    values = {str(candidate.value) for candidate, _ in found}
    out = []
    for candidate, following in found:
        if following is not None:
            joined = str(candidate.value) + following.text.strip().rstrip(".,;")
            if joined != candidate.value and joined in values:
                candidate = Candidate(
                    joined,
                    (*candidate.tokens, following),
                    candidate.score,
                    f"{candidate.raw} {following.text}",
                )
        out.append(candidate)
    return out


def _next_word(tokens: Sequence[Word], token: Word) -> Word | None:
    for index, other in enumerate(tokens[:-1]):
        if other is token:
            return tokens[index + 1]
    return None


def invoice_number(layouts: Sequence[PageLayout]) -> Candidate | None:
    found: list[tuple[Candidate, Word | None]] = []
    for pattern, strength in (
        (L.INVOICE_NUMBER, 1.0),
        (L.INVOICE_NUMBER_IN_TITLE, 0.9),
        (L.INVOICE_TITLE, 0.7),
        (L.ORDER_NUMBER, 0.55),
        (L.GENERIC_NUMBER, 0.5),
    ):
        whole = pattern is L.INVOICE_NUMBER_IN_TITLE
        for layout, row, segment, end in label_hits(layouts, pattern, whole_rows=whole):
            for tokens, factor in value_runs(layout, row, segment, end):
                hit = _id_from(tokens)
                if hit is None and pattern is L.INVOICE_TITLE:
                    hit = _title_id(segment.tokens, tokens)
                if hit is not None:
                    page_factor = 1.0 if layout.page == 1 else 0.9
                    # A label inside running text ("... bitte Belegnummer 4711 angeben")
                    # is weaker than one heading its line or cell.
                    prose = 0.85 if len(segment.text) > 60 else 1.0
                    found.append(
                        (
                            Candidate(
                                hit[0], (hit[1],), strength * factor * page_factor * prose, hit[0]
                            ),
                            _next_word(tokens, hit[1]),
                        )
                    )
                    break
    return best(_whole_ids(found))


# --- dates ----------------------------------------------------------------------------


def labelled_date(
    layouts: Sequence[PageLayout],
    pattern: re.Pattern[str],
    strength: float = 1.0,
    *,
    whole_rows: bool = False,
    unless: re.Pattern[str] | None = None,
) -> list[Candidate]:
    """Dates after (or under) a label matching ``pattern``; labels also matching ``unless``
    are another date's ("Date de livraison" is a ``date`` label, but not the invoice's)."""
    found: list[Candidate] = []
    for layout, row, segment, end in label_hits(layouts, pattern, whole_rows=whole_rows):
        # the label's words: the segment up to its first digit
        if unless is not None and unless.search(re.split(r"\d", fold(segment.text), maxsplit=1)[0]):
            continue
        for tokens, factor in value_runs(layout, row, segment, end):
            hit = date_in(tokens[:6], every_language=True)
            if hit is not None:
                value, used = hit
                found.append(
                    Candidate(
                        value.isoformat(), used, strength * factor, " ".join(t.text for t in used)
                    )
                )
                break
    return found


class Dates(NamedTuple):
    invoice: Candidate | None
    due: Candidate | None
    delivery: Candidate | None
    month_first: bool
    """The page's numeric dates are month-first (:func:`_month_first`): every other
    reading of its dates (the learned invoice-date scorer's candidates) must agree."""


def dates(layouts: Sequence[PageLayout]) -> Dates:
    """Invoice, due and delivery date; an unlabelled invoice date is the first date in
    the top third of page 1 (letter date position)."""
    due = best(labelled_date(layouts, L.DUE_DATE))
    delivery = best(labelled_date(layouts, L.DELIVERY_DATE))
    ordered = labelled_date(layouts, L.ORDER_DATE)
    others = [c for c in (due, delivery, *ordered) if c is not None]
    taken = {c.value for c in others}
    claimed = {id(t) for c in others for t in c.tokens}
    invoice = labelled_date(layouts, L.INVOICE_DATE) + labelled_date(
        layouts, L.INVOICE_DATE_IN_TITLE, 0.95, whole_rows=True
    )
    generic = [
        c
        for c in labelled_date(layouts, L.GENERIC_DATE, 0.75, unless=_OTHER_DATE)
        if c.value not in taken or not invoice
    ]
    invoice_best = best(invoice + generic)
    if invoice_best is None and layouts:
        first = layouts[0]
        for row in first.rows:
            if row.bbox[1] > 0.45:
                break
            hit = date_in(row.tokens, every_language=True)
            if hit is not None and any(id(t) in claimed for t in hit[1]):
                continue  # the delivery, due or order date printed first
            if hit is not None:
                value, used = hit
                invoice_best = Candidate(
                    value.isoformat(), used, 0.5, " ".join(t.text for t in used)
                )
                break
    month_first = _month_first(layouts, invoice_best, due)
    if month_first:
        invoice_best, due, delivery = (
            _reread_month_first(c) for c in (invoice_best, due, delivery)
        )
    return Dates(invoice_best, due, delivery, month_first)


_OTHER_DATE = re.compile(
    "|".join(f"(?:{p.pattern})" for p in (L.DUE_DATE, L.DELIVERY_DATE, L.ORDER_DATE)), re.I
)
"""Labels of dates that are not the invoice's."""

_NUMERIC_DATE = re.compile(r"^(\d{1,2})[./-](\d{1,2})[./-](\d{2}|\d{4})$")
_TERM_DAYS = re.compile(r"(\d{1,3})\s*(?:days|tage[n]?|jours|dagen|giorni|d[ií]as)\b", re.I)


def _month_first(
    layouts: Sequence[PageLayout], invoice: Candidate | None, due: Candidate | None
) -> bool:
    """Whether numeric dates are month-first (US style). Day-first is the default; a date
    like 03/25/2024 proves month-first, 25/03/2024 day-first; when every date is
    ambiguous, the payment term ("30 days") decides which reading of invoice and due
    date it fits, and when it settles nothing, the page's American or other marks
    (:func:`_american_page`)."""
    first_over = second_over = False
    for layout in layouts:
        for row in layout.rows:
            for token in row.tokens:
                match = _NUMERIC_DATE.match(token.text.strip(".,;:"))
                if match:
                    first_over |= int(match[1]) > 12
                    second_over |= int(match[2]) > 12
    if first_over:
        return False
    if second_over:
        return True
    by_terms = _terms_decide(layouts, invoice, due)
    if by_terms is not None:
        return by_terms
    return _american_page(layouts)


def _terms_decide(
    layouts: Sequence[PageLayout], invoice: Candidate | None, due: Candidate | None
) -> bool | None:
    """Month-first when only that reading puts the due date the payment term ("30 days")
    after the invoice date, day-first when only the day-first one does; ``None`` when the
    term settles nothing."""
    if invoice is None or due is None:
        return None
    day_first = (parse_date(invoice.raw), parse_date(due.raw))
    month_first = (parse_date(invoice.raw, month_first=True), parse_date(due.raw, month_first=True))
    if None in day_first or None in month_first:
        return None
    terms = {
        int(m[1])
        for layout in layouts
        for row in layout.rows
        for m in _TERM_DAYS.finditer(row.text)
    }

    def fits(pair: tuple[date | None, date | None]) -> bool:
        start, end = pair
        return start is not None and end is not None and (end - start).days in terms

    if fits(month_first) != fits(day_first):
        return fits(month_first)
    return None


_US_STATES = (
    "AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ "
    "NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY DC PR GU VI AS MP PW FM MH AA "
    "AE AP"
)
_US_ADDRESS = re.compile(rf"[^\W\d_]{{2}},?\s+(?:{_US_STATES.replace(' ', '|')})\s+\d{{5}}(?:-\d{{4}})?\b")
_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
_WRITTEN_MONTH_FIRST = re.compile(rf"\b{_MONTH}\s+\d{{1,2}},\s*\d{{4}}\b", re.I)
_WRITTEN_DAY_FIRST = re.compile(rf"\b\d{{1,2}}(?:st|nd|rd|th|\.)?\s+{_MONTH}\s+\d{{4}}\b", re.I)
_UK_POSTCODE_END = re.compile(rf"\b{UK_POSTCODE}\b")


def _american_page(layouts: Sequence[PageLayout]) -> bool:
    """Whether a page whose numeric dates are all ambiguous (``06/09/2026``) is American,
    so month-first: more US addresses ("Springfield, IL 62704") and dates written month
    first ("Nov 12, 2024") than British postcodes and dates written day first ("12 Nov
    2024"). Continental pages print neither and stay day-first."""
    american = other = 0
    for layout in layouts:
        for row in layout.rows:
            text = row.text
            american += len(_US_ADDRESS.findall(text)) + len(_WRITTEN_MONTH_FIRST.findall(text))
            other += len(_UK_POSTCODE_END.findall(text)) + len(_WRITTEN_DAY_FIRST.findall(text))
    return american > other


def _reread_month_first(candidate: Candidate | None) -> Candidate | None:
    if candidate is None:
        return None
    parsed = parse_date(candidate.raw, month_first=True)
    if parsed is None:
        return candidate
    return Candidate(parsed.isoformat(), candidate.tokens, candidate.score, candidate.raw)


# --- currency -------------------------------------------------------------------------


def currency(layouts: Sequence[PageLayout]) -> Candidate | None:
    """The ISO code labelled as currency, else the most frequent code or symbol."""
    for layout, row, segment, end in label_hits(layouts, L.CURRENCY):
        for tokens, factor in value_runs(layout, row, segment, end):
            for token in tokens[:2]:
                label_code = token.text.strip(":").upper()
                if label_code in CURRENCY_CODES:
                    return Candidate(label_code, (token,), factor, token.text)
    votes: Counter[str] = Counter()
    where: dict[str, Word] = {}
    for layout in layouts:
        for row in layout.rows:
            for token in row.tokens:
                text = token.text.strip(".,:;()")
                code: str | None = None
                if text.upper() in CURRENCY_CODES and text.isupper():
                    code = text.upper()
                else:
                    for symbol, symbol_code in CURRENCY_SYMBOLS.items():
                        if symbol in text:
                            code = symbol_code
                if code is not None:
                    votes[code] += 1
                    where.setdefault(code, token)
    if not votes:
        return None
    code, count = votes.most_common(1)[0]
    share = count / sum(votes.values())
    return Candidate(code, (where[code],), 0.6 + 0.35 * share, where[code].text)


# --- identifiers ----------------------------------------------------------------------


def tax_number(layouts: Sequence[PageLayout]) -> Candidate | None:
    for layout, row, segment, end in label_hits(layouts, L.TAX_NUMBER):
        for tokens, factor in value_runs(layout, row, segment, end):
            for width in (1, 3, 2, 4):
                piece = [t for t in tokens[:width] if t.text.strip(":")]
                text = " ".join(t.text.strip(":") for t in piece).strip()
                value = normalize_tax_number(text)
                if value is not None:
                    return Candidate(value, tuple(piece), 0.85 * factor, text)
    return None


def bank(layouts: Sequence[PageLayout]) -> tuple[Candidate | None, Candidate | None]:
    """IBAN (checksum-valid; labelled ones first, later pages' footers preferred) and BIC
    (labelled, or any BIC-shaped token matching the IBAN's bank)."""
    ibans: list[Candidate] = []
    for layout in layouts:
        for row in layout.rows:
            for segment in row.segments:
                for value, start, end in find_ibans(segment.text):
                    used = tuple(segment.tokens_in(start, end))
                    context = fold(segment.text + " " + row.text)
                    score = 0.8 + (0.15 if L.IBAN.search(context) else 0)
                    if is_buyer_context(row.text) and "iban" not in context[:10]:
                        score -= 0.3
                    ibans.append(Candidate(value, used, score, segment.text[start:end]))
    if not ibans:
        # A labelled IBAN that fails its checksum is still what the page says (the check
        # reports it); it only competes when no valid one exists.
        for layout, row, segment, end in label_hits(layouts, L.IBAN):
            for tokens, factor in value_runs(layout, row, segment, end):
                text = "".join(t.text.strip(":") for t in tokens[:9])
                match = re.match(r"[A-Z]{2}\d{2}[A-Z0-9]{8,30}", text.upper())
                if match:
                    count, length = 0, 0
                    for token in tokens[:9]:
                        length += len(token.text.strip(":"))
                        count += 1
                        if length >= match.end():
                            break
                    used = tuple(tokens[:count])
                    ibans.append(
                        Candidate(
                            match.group(0), used, 0.45 * factor, " ".join(t.text for t in used)
                        )
                    )
                    break
    if not ibans:
        # An unlabelled token with a country's exact IBAN length whose checksum fails
        # (sample data): still the printed account, reported as invalid by the checks.
        for layout in layouts:
            for row in layout.rows:
                for token in row.tokens:
                    text = token.text.strip(".,;:()")
                    if re.fullmatch(r"[A-Z]{2}\d{2}[A-Z0-9]{10,30}", text) and _IBAN_LENGTH.get(
                        text[:2]
                    ) == len(text):
                        ibans.append(Candidate(text, (token,), 0.4, token.text))
    iban = best(ibans)
    bics: list[Candidate] = []
    for layout, row, segment, end in label_hits(layouts, L.BIC):
        for tokens, factor in value_runs(layout, row, segment, end):
            for token in tokens[:3]:
                labelled_bic = normalize_bic(token.text.strip(":,;()"))
                if labelled_bic is not None:
                    bics.append(Candidate(labelled_bic, (token,), 0.9 * factor, token.text))
                    break
    if iban is not None:
        for layout in layouts:
            for row in layout.rows:
                for token in row.tokens:
                    bank_bic = normalize_bic(token.text.strip(":,;()"))
                    if bank_bic is not None and bic_matches_iban(bank_bic, str(iban.value)):
                        bics.append(Candidate(bank_bic, (token,), 0.85, token.text))
    if iban is not None:
        registry_bic = _registry_bic(str(iban.value))
        if registry_bic is not None:
            # OCR confuses O/0, I/1, S/5, B/8: a labelled token that equals the IBAN
            # bank's registered BIC up to those confusions is that BIC.
            for layout, row, segment, end in label_hits(layouts, L.BIC):
                for tokens, factor in value_runs(layout, row, segment, end):
                    for token in tokens[:3]:
                        text = token.text.strip(":,;()").upper()
                        if _confusable_equal(text, registry_bic) or _confusable_equal(
                            text, registry_bic[:8]
                        ):
                            value = registry_bic if len(text) == 11 else registry_bic[:8]
                            bics.append(Candidate(value, (token,), 0.88 * factor, token.text))
        registry = _registry_bic(str(iban.value))

        def bonus(value: str) -> float:
            if registry is not None and (value == registry or value == registry[:8]):
                return 0.15
            return 0.05 if bic_matches_iban(value, str(iban.value)) else 0.0

        bics = [Candidate(c.value, c.tokens, c.score + bonus(str(c.value)), c.raw) for c in bics]
    return iban, best(bics)


_IBAN_LENGTH = {
    "DE": 22,
    "AT": 20,
    "CH": 21,
    "NL": 18,
    "FR": 27,
    "BE": 16,
    "IT": 27,
    "ES": 24,
    "LU": 20,
    "GB": 22,
    "DK": 18,
    "PL": 28,
    "CZ": 24,
    "LI": 21,
    "IE": 22,
    "PT": 25,
}
_CONFUSABLE = str.maketrans("O0I1S5B8Z2", "OOIISSBBZZ")


def _confusable_equal(a: str, b: str) -> bool:
    return len(a) == len(b) and a.translate(_CONFUSABLE) == b.translate(_CONFUSABLE)


def _registry_bic(iban: str) -> str | None:
    from schwifty import IBAN
    from schwifty.exceptions import SchwiftyException

    try:
        bic = IBAN(iban).bic
    except (SchwiftyException, ValueError):
        return None
    return str(bic) if bic is not None else None


def payment_terms(layouts: Sequence[PageLayout]) -> Candidate | None:
    for layout, row, segment, end in label_hits(layouts, L.TERMS):
        rest = segment.after(end)
        text_tokens = rest if len(rest) >= 2 else segment.tokens
        if fold(segment.text).rstrip(":") in {"zahlungsbedingungen", "payment terms", "terms"}:
            for tokens, _ in value_runs(layout, row, segment, end):
                text_tokens = tokens
                break
        text = " ".join(t.text for t in text_tokens).strip(" :")
        if len(text) >= 4:
            return Candidate(text, tuple(text_tokens), 0.7, text)
    return None


# --- totals and VAT breakdown ---------------------------------------------------------


def _total_kind(text: str) -> list[tuple[str, float]]:
    """What a totals label names: ``net``, ``tax``, ``gross`` and/or ``due``, with a
    strength. An explicit gross word wins ("Summe inkl. USt"), then net words
    ("Summe netto", "Total HT"), then tax words ("USt", "Total VAT"), then the generic
    total words ("Gesamtbetrag", "Total")."""
    folded = fold(text)
    if L.NOT_A_TOTAL.search(folded) and not re.search(r"summe|total|betrag|amount", folded):
        return []
    kinds: list[tuple[str, float]] = []
    due = L.AMOUNT_DUE.search(folded)
    # "Net à payer", "netto a pagare" name the amount to pay, not the net total
    outside_due = folded if due is None else f"{folded[: due.start()]} {folded[due.end() :]}"
    if due is not None:
        kinds.append(("due", 1.0))
    if re.search(
        r"brutto|inkl|incl|ttc|grand|inclusive|\bgross\b|toutes\s*taxes|ivato|iva\s*inclus|con\s*iva",
        folded,
    ):
        kinds.append(("gross", 1.0))
    elif L.NET.search(outside_due):
        kinds.append(("net", 1.0))
    elif L.TAX.search(folded):
        kinds.append(("tax", 0.9 if L.GROSS.search(folded) else 1.0))
    elif L.GROSS.search(folded):
        kinds.append(("gross", 0.8))
    return kinds


def totals(
    layouts: Sequence[PageLayout], decimal_separator: str | None, breakdown_tax: Decimal | None
) -> dict[str, Candidate | None]:
    """Net, tax, gross and amount due: labelled amounts (rightmost on the label's row),
    chosen jointly so that net + tax = gross where the page allows it."""
    pools: dict[str, list[Candidate]] = {"net": [], "tax": [], "gross": [], "due": []}
    for layout in layouts:
        for row in layout.rows:
            for index, segment in enumerate(row.segments):
                kinds = _total_kind(segment.text)
                if not kinds:
                    continue
                amounts = _amounts_after_label(
                    row.segments, index, decimal_separator, layout.aspect
                )
                if not amounts:
                    continue
                amount, used, _ = amounts[-1]
                later = 0.05 * (layout.page / len(layouts)) + 0.05 * row.bbox[1]
                for kind, strength in kinds:
                    pools[kind].append(
                        Candidate(
                            amount, used, 0.75 * strength + later, " ".join(t.text for t in used)
                        )
                    )
    if len(pools["tax"]) >= 2:
        # One VAT line per rate: their sum is a candidate for the tax total.
        rows_seen: dict[tuple[int, float], Candidate] = {}
        for candidate in pools["tax"]:
            rows_seen.setdefault((candidate.page, round(candidate.y, 3)), candidate)
        parts = list(rows_seen.values())
        if len(parts) >= 2:
            values = [c.value for c in parts if isinstance(c.value, Decimal)]
            total = sum(values, Decimal(0))
            score = min(c.score for c in parts) - 0.05
            pools["tax"].append(Candidate(total, (), score, " + ".join(c.raw for c in parts)))
    chosen = _choose_totals(pools, breakdown_tax)
    return chosen


_LEADING_GROUP = re.compile(r"^[-(]?\d{1,3}$")
_GROUPED_REST = re.compile(r"^\d{3}(?:[ .,\u202f\u00a0]\d{3})*[.,]\d{2}\b")
_GROUP_GAP = 1.2
"""Widest gap between a thousands group and the rest, in digit heights: a blank of a
monospaced face read by OCR measures about one digit height ink to ink."""


def join_digit_groups(tokens: Sequence[Word], aspect: float) -> list[Word]:
    """Tokens with an amount's thousands group split off rejoined: ``1`` + ``561,18`` printed
    as ``1 561,18`` (French and Swiss grouping, or OCR splitting a narrow space) is one
    token ``1 561,18``. Joined only when the gap is narrower than :data:`_GROUP_GAP` digit
    heights (a table column gap is wider) and the rest has exactly three digits before its
    decimals."""
    out: list[Word] = []
    for token in tokens:
        if out:
            prev = out[-1]
            height = max(prev.bbox[3] - prev.bbox[1], token.bbox[3] - token.bbox[1])
            gap = token.bbox[0] - prev.bbox[2]
            if (
                _LEADING_GROUP.match(prev.text)
                and _GROUPED_REST.match(token.text)
                and prev.page == token.page
                and -0.002 <= gap <= _GROUP_GAP * height / max(aspect, 1e-3)
            ):
                out[-1] = dataclasses.replace(
                    prev,
                    text=f"{prev.text}\u202f{token.text}",
                    bbox=union((prev.bbox, token.bbox)),
                    confidence=min(prev.confidence, token.confidence),
                )
                continue
        out.append(token)
    return out


def _amounts_after_label(
    segments: Sequence[Segment], index: int, separator: str | None, aspect: float = 0.7071
) -> list[tuple[Decimal, tuple[Word, ...], str | None]]:
    """Amounts belonging to the label in ``segments[index]``: in its own segment and in
    the number-only segments after it, up to the next segment with words (another label,
    as in ``Exclusief BTW € 593,36   Subtotaal € 717,97``)."""
    tokens = list(segments[index].tokens)
    for segment in segments[index + 1 :]:
        words = [
            t
            for t in segment.tokens
            if re.search(r"[^\W\d_]{2}", t.text)
            and t.text.strip(".:").upper() not in CURRENCY_CODES
        ]
        if words:
            break
        tokens.extend(segment.tokens)
    return money_tokens(join_digit_groups(tokens, aspect), separator)


def _demote(candidate: Candidate, factor: float) -> Candidate:
    return Candidate(candidate.value, candidate.tokens, candidate.score * factor, candidate.raw)


def _top(pool: list[Candidate], n: int = 6) -> list[Candidate | None]:
    ranked: list[Candidate] = []
    seen: set[object] = set()
    for candidate in sorted(pool, key=lambda c: -c.score):
        if candidate.value not in seen:
            ranked.append(candidate)
            seen.add(candidate.value)
        if len(ranked) >= n:
            break
    return [*ranked, None]


def _choose_totals(
    pools: dict[str, list[Candidate]], breakdown_tax: Decimal | None
) -> dict[str, Candidate | None]:
    best_score = -1.0
    best_pick: tuple[Candidate | None, Candidate | None, Candidate | None] = (None, None, None)
    # Labels are ambiguous ("Gesamtbeitrag" may be the net of an insurance invoice): a
    # gross-labelled amount may serve as net and an amount-due one as gross, at a lower
    # score, so that net + tax = gross can settle the roles.
    net_pool = pools["net"] + [_demote(c, 0.5) for c in pools["gross"]]
    gross_pool = pools["gross"] + [_demote(c, 0.6) for c in pools["due"]]
    for net, tax, gross in product(_top(net_pool), _top(pools["tax"]), _top(gross_pool)):
        if net is not None and gross is not None and net.tokens and net.tokens == gross.tokens:
            continue
        score = sum(c.score for c in (net, tax, gross) if c is not None)
        values = [c.value if c is not None else None for c in (net, tax, gross)]
        n, t, g = (v if isinstance(v, Decimal) else None for v in values)
        if n is not None and t is not None and g is not None:
            if close(n + t, g):
                score += 1.5
            else:
                score -= 0.8
        if n is not None and g is not None and t is None and n > g:
            score -= 0.5
        if t is not None and breakdown_tax is not None and close(t, breakdown_tax):
            score += 0.5
        if t is not None and g is not None and t >= g and g != 0:
            score -= 1.0
        if score > best_score:
            best_score = score
            best_pick = (net, tax, gross)
    net, tax, gross = best_pick
    due = best(pools["due"])
    return {"net": net, "tax": tax, "gross": gross, "due": due}


def amount_text(value: object) -> str:
    return format_amount(value) if isinstance(value, Decimal) else str(value)
