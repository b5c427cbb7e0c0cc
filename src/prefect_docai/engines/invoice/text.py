"""An invoice read from its pages (text layer or OCR words) into the ToolInvoice result."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal

from prefect_docai.engines.calibration import ConfidenceMap
from prefect_docai.engines.extract import detect_decimal_separator, format_amount
from prefect_docai.engines.extract.amounts import close
from prefect_docai.engines.extract.candidates import Candidate
from prefect_docai.engines.extract.fields import make_field
from prefect_docai.engines.extract.rows import PageLayout
from prefect_docai.engines.extract.tax import tax_breakdown, vat_ids
from prefect_docai.engines.invoice import fields as F
from prefect_docai.engines.invoice import scoring
from prefect_docai.engines.invoice.checks import compute_checks
from prefect_docai.engines.invoice.confidence import calibrated, shipped_map
from prefect_docai.engines.invoice.items import line_items
from prefect_docai.engines.invoice.parties import Party, parties
from prefect_docai.engines.learned import Scorer
from prefect_docai.engines.page.model import union
from prefect_docai.models.results import (
    Field,
    InvoiceLineItem,
    InvoiceParty,
    InvoicePayment,
    InvoiceResult,
    InvoiceTotals,
    TaxLine,
)


def _field(candidate: Candidate | None) -> Field | None:
    if candidate is None:
        return None
    value = candidate.value
    if isinstance(value, Decimal):
        value = format_amount(value)
    return make_field(value, candidate.tokens, candidate.score, candidate.raw)


def _scored_field(candidate: Candidate | None) -> Field | None:
    """A field a learned scorer chose: its score is already the calibrated confidence
    (word confidence is one of the scorer's features)."""
    if candidate is None:
        return None
    if not candidate.tokens:
        return _field(candidate)
    box = union(t.bbox for t in candidate.tokens)
    return Field(
        value=candidate.value,
        confidence=round(max(0.0, min(1.0, candidate.score)), 3),
        page=candidate.tokens[0].page,
        bbox=(round(box[0], 4), round(box[1], 4), round(box[2], 4), round(box[3], 4)),
        raw=candidate.raw,
    )


def _learned(
    name: str,
    rules: Candidate | None,
    layouts: Sequence[PageLayout],
    models: Mapping[str, Scorer | None] | None,
    month_first: bool = False,
) -> Field | None:
    """Field ``name``: the learned scorer's pick where one is shipped (or given), else the
    rules' candidate. ``month_first``: the page's numeric dates are month-first."""
    model = scoring.shipped(name) if models is None else models.get(name)
    if model is None:
        return _field(rules)
    chosen = scoring.choose(name, model, layouts, rules, month_first)
    return _field(chosen) if chosen is rules else _scored_field(chosen)


def _party(party: Party, vat: Candidate | None, tax_number: Candidate | None) -> InvoiceParty:
    return InvoiceParty(
        name=_field(party.name),
        street=_field(party.street),
        postal_code=_field(party.postal_code),
        city=_field(party.city),
        country=_field(party.country),
        vat_id=_field(vat),
        tax_number=_field(tax_number),
    )


SHIPPED = "shipped"


def extract_invoice(
    layouts: Sequence[PageLayout],
    source: str,
    models: Mapping[str, Scorer | None] | None = None,
    confidence_map: ConfidenceMap | str | None = SHIPPED,
) -> InvoiceResult:
    """The invoice read from its page layouts. ``models``: the learned scorers to use per
    field (:data:`scoring.MODEL_FILES`; a field absent or ``None`` is read by the rules);
    ``None`` uses those shipped in ``engines/data/``. ``confidence_map``: what turns the
    fields' raw scores into calibrated confidences (:mod:`.confidence`), ``SHIPPED`` the
    one in ``engines/data/``, ``None`` keeps the raw scores."""
    tokens = [t.text for layout in layouts for row in layout.rows for t in row.tokens]
    separator = detect_decimal_separator(tokens)

    invoice_date, due_date, delivery_date, month_first = F.dates(layouts)
    seller, buyer = parties(layouts)
    seller_vat, buyer_vat = vat_ids(layouts)
    iban, bic = F.bank(layouts)

    breakdown = tax_breakdown(layouts, separator)
    breakdown_tax = (
        sum((b[2].value for b in breakdown if isinstance(b[2].value, Decimal)), Decimal(0))
        if breakdown
        else None
    )
    chosen = F.totals(layouts, separator, breakdown_tax)
    net, tax, gross = chosen["net"], chosen["tax"], chosen["gross"]
    net, tax, gross = _complete_totals(net, tax, gross, breakdown)

    items = line_items(layouts, separator)
    result = InvoiceResult(
        source="ocr" if source == "ocr" else "text-layer",
        invoice_number=_learned("invoice_number", F.invoice_number(layouts), layouts, models),
        invoice_date=_learned("invoice_date", invoice_date, layouts, models, month_first),
        due_date=_field(due_date),
        delivery_date=_field(delivery_date),
        currency=_field(F.currency(layouts)),
        seller=_party(seller, seller_vat, F.tax_number(layouts)).model_copy(
            update={"name": _learned("seller_name", seller.name, layouts, models)}
        ),
        buyer=_party(buyer, buyer_vat, None),
        payment=InvoicePayment(
            iban=_field(iban), bic=_field(bic), terms=_field(F.payment_terms(layouts))
        ),
        totals=InvoiceTotals(
            net=_field(net), tax=_field(tax), gross=_field(gross), amount_due=_field(chosen["due"])
        ),
        taxes=[
            TaxLine(rate=_field(rate), base=_field(base), amount=_field(amount))
            for rate, base, amount in breakdown
        ],
        line_items=[
            InvoiceLineItem(
                description=_field(item.description),
                quantity=_field(item.quantity),
                unit=_field(item.unit),
                unit_price=_field(item.unit_price),
                net_amount=_field(item.net_amount),
                tax_rate=_field(item.tax_rate),
            )
            for item in items
        ],
    )
    result = result.model_copy(update={"checks": compute_checks(result)})
    mapping = shipped_map() if confidence_map == SHIPPED else confidence_map
    return calibrated(result, mapping if isinstance(mapping, ConfidenceMap) else None)


def _complete_totals(
    net: Candidate | None,
    tax: Candidate | None,
    gross: Candidate | None,
    breakdown: list[tuple[Candidate, Candidate, Candidate]],
) -> tuple[Candidate | None, Candidate | None, Candidate | None]:
    """Fill a missing total from the VAT breakdown when the arithmetic confirms it."""
    if not breakdown:
        return net, tax, gross
    base_sum = sum((b[1].value for b in breakdown if isinstance(b[1].value, Decimal)), Decimal(0))
    tax_sum = sum((b[2].value for b in breakdown if isinstance(b[2].value, Decimal)), Decimal(0))
    gross_value = gross.value if gross is not None and isinstance(gross.value, Decimal) else None
    if tax is None and (gross_value is None or close(base_sum + tax_sum, gross_value)):
        first = breakdown[0][2] if len(breakdown) == 1 else None
        tokens = first.tokens if first is not None else ()
        tax = Candidate(tax_sum, tokens, 0.7, first.raw if first else format_amount(tax_sum))
    if net is None and (gross_value is None or close(base_sum + tax_sum, gross_value)):
        first = breakdown[0][1] if len(breakdown) == 1 else None
        tokens = first.tokens if first is not None else ()
        net = Candidate(base_sum, tokens, 0.7, first.raw if first else format_amount(base_sum))
    return net, tax, gross
