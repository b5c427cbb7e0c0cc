"""Arithmetic and checksum checks over an invoice result (docs/results.md ``checks``)."""

from __future__ import annotations

from decimal import Decimal

from prefect_docai.engines.extract import normalize_bic, normalize_iban, normalize_vat_id
from prefect_docai.engines.extract.amounts import close, tax_line_consistent
from prefect_docai.models.results import Field, InvoiceChecks, InvoiceResult


def _dec(field: Field | None) -> Decimal | None:
    if field is None or field.value is None:
        return None
    try:
        return Decimal(str(field.value))
    except ArithmeticError:
        return None


def compute_checks(result: InvoiceResult) -> InvoiceChecks:
    iban = result.payment.iban.value if result.payment.iban else None
    bic = result.payment.bic.value if result.payment.bic else None
    vat = result.seller.vat_id.value if result.seller.vat_id else None
    iban_valid = None if iban is None else normalize_iban(str(iban)) is not None
    bic_valid: bool | None = None
    if bic is not None:
        # Format and country only: banks run several BICs, so a registry mismatch with
        # the IBAN's bank code is no proof of a wrong BIC.
        bic_valid = normalize_bic(str(bic)) is not None
    vat_valid = None if vat is None else normalize_vat_id(str(vat)) is not None

    net, tax, gross = (_dec(result.totals.net), _dec(result.totals.tax), _dec(result.totals.gross))
    totals_ok = None
    if net is not None and tax is not None and gross is not None:
        totals_ok = close(net + tax, gross)

    taxes_ok: bool | None = None
    lines = [
        (_dec(t.base), _dec(t.rate), _dec(t.amount)) for t in result.taxes
    ]
    complete = [(b, r, a) for b, r, a in lines if b is not None and r is not None and a is not None]
    if complete:
        taxes_ok = all(tax_line_consistent(b, r, a) for b, r, a in complete)
        if tax is not None and len(complete) == len(lines):
            taxes_ok = taxes_ok and close(sum((a for _, _, a in complete), Decimal(0)), tax)

    items_ok: bool | None = None
    amounts = [_dec(item.net_amount) for item in result.line_items]
    if amounts and all(a is not None for a in amounts) and net is not None:
        items_ok = close(sum((a for a in amounts if a is not None), Decimal(0)), net)

    return InvoiceChecks(
        iban_valid=iban_valid,
        bic_valid=bic_valid,
        vat_id_valid=vat_valid,
        totals_consistent=totals_ok,
        taxes_consistent=taxes_ok,
        line_items_consistent=items_ok,
    )
