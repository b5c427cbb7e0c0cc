"""ZUGFeRD / Factur-X e-invoices: CII XML from an invoice's truth, embedded in its PDF.

The XML is built with drafthorse (EN 16931 profile) and attached with factur-x, so the PDF
carries the same facts it prints, and an extractor can be checked on the XML path.
"""

from __future__ import annotations

import datetime as dt
import io
from decimal import Decimal
from typing import Any

from prefect_docai.samples.core import GeneratedDocument
from prefect_docai.samples.generate import generate

# printed unit -> UN/ECE Recommendation 20 code
_UNIT_CODES = {
    "Stk.": "H87",
    "pcs": "H87",
    "Std.": "HUR",
    "hrs": "HUR",
    "Tag": "DAY",
    "days": "DAY",
    "m": "MTR",
    "kg": "KGM",
    "l": "LTR",
    "pausch.": "C62",
    "flat": "C62",
    "Karton": "XBX",
    "box": "XBX",
    "Monat": "MON",
    "month": "MON",
    "Lizenz": "C62",
    "licence": "C62",
}


def cii_xml(truth: dict[str, Any]) -> bytes:
    """EN 16931 (Factur-X / ZUGFeRD 2) CII XML carrying an invoice truth dict."""
    from drafthorse.models.accounting import ApplicableTradeTax
    from drafthorse.models.document import Document
    from drafthorse.models.party import TaxRegistration
    from drafthorse.models.payment import PaymentMeans, PaymentTerms
    from drafthorse.models.tradelines import LineItem

    cur = truth["currency"]
    doc = Document()
    doc.context.guideline_parameter.id = "urn:cen.eu:en16931:2017"
    doc.header.id = truth["invoiceNumber"]
    doc.header.type_code = "380"
    doc.header.issue_date_time = dt.date.fromisoformat(truth["invoiceDate"])

    agreement = doc.trade.agreement
    for party, data in ((agreement.seller, truth["seller"]), (agreement.buyer, truth["buyer"])):
        party.name = data["name"]
        party.address.line_one = data["street"]
        party.address.postcode = data["postalCode"]
        party.address.city_name = data["city"]
        party.address.country_id = data["country"]
        if data.get("vatId"):
            party.tax_registrations.add(TaxRegistration(id=("VA", data["vatId"])))
        if data.get("taxNumber"):
            party.tax_registrations.add(TaxRegistration(id=("FC", data["taxNumber"])))
    if truth.get("orderReference"):
        agreement.buyer_order.issuer_assigned_id = truth["orderReference"]
    if truth.get("deliveryDate"):
        doc.trade.delivery.event.occurrence = dt.date.fromisoformat(truth["deliveryDate"])

    settlement = doc.trade.settlement
    settlement.currency_code = cur
    settlement.payment_reference = truth["invoiceNumber"]
    means = PaymentMeans()
    if truth.get("iban"):
        means.type_code = "58"  # SEPA credit transfer
        means.payee_account.iban = truth["iban"]
        if truth.get("bic"):
            means.payee_institution.bic = truth["bic"]
    else:
        means.type_code = "30"
    settlement.payment_means.add(means)
    terms = PaymentTerms()
    terms.description = f"{truth.get('paymentTermsDays', 14)} days net"
    terms.due = dt.date.fromisoformat(truth["dueDate"])
    settlement.terms.add(terms)

    for index, line in enumerate(truth["lineItems"], start=1):
        item = LineItem()
        item.document.line_id = str(index)
        item.product.name = line["description"]
        if line.get("sku"):
            item.product.seller_assigned_id = line["sku"]
        item.agreement.net.amount = Decimal(line["unitPrice"])
        item.delivery.billed_quantity = (
            Decimal(line["quantity"]),
            _UNIT_CODES.get(line["unit"], "C62"),
        )
        item.settlement.trade_tax.type_code = "VAT"
        item.settlement.trade_tax.category_code = "S" if Decimal(line["taxRate"]) else "Z"
        item.settlement.trade_tax.rate_applicable_percent = Decimal(line["taxRate"])
        item.settlement.monetary_summation.total_amount = Decimal(line["netAmount"])
        doc.trade.items.add(item)

    for tax in truth["taxes"]:
        entry = ApplicableTradeTax()
        entry.calculated_amount = Decimal(tax["amount"])
        entry.basis_amount = Decimal(tax["base"])
        entry.type_code = "VAT"
        entry.category_code = "S" if Decimal(tax["rate"]) else "Z"
        entry.rate_applicable_percent = Decimal(tax["rate"])
        settlement.trade_tax.add(entry)

    sums = settlement.monetary_summation
    sums.line_total = Decimal(truth["net"])
    sums.charge_total = Decimal("0.00")
    sums.allowance_total = Decimal("0.00")
    sums.tax_basis_total = Decimal(truth["net"])
    sums.tax_total = (Decimal(truth["tax"]), cur)
    sums.grand_total = Decimal(truth["gross"])
    sums.due_amount = Decimal(truth["amountDue"])
    return bytes(doc.serialize(schema="FACTUR-X_EN16931"))


def embed(doc: GeneratedDocument) -> bytes:
    """The invoice PDF with its CII XML attached as ``factur-x.xml``."""
    from facturx import generate_from_binary

    xml = cii_xml(doc.truth)
    meta = {
        "author": doc.truth["seller"]["name"],
        "keywords": "Factur-X, Invoice",
        "title": f"{doc.truth['title']} {doc.truth['invoiceNumber']}",
        "subject": doc.truth["invoiceNumber"],
    }
    pdf = bytes(
        generate_from_binary(
            doc.pdf, xml, flavor="factur-x", level="en16931", pdf_metadata=meta, lang=doc.lang
        )
    )
    issued = dt.datetime.combine(
        dt.date.fromisoformat(doc.truth["invoiceDate"]), dt.time(), tzinfo=dt.UTC
    )
    return _pin_dates(pdf, issued)


def _pin_dates(pdf: bytes, when: dt.datetime) -> bytes:
    """``pdf`` with factur-x's wall-clock stamps replaced by ``when``.

    factur-x stamps the info dict, the XMP packet and the attachment's /Params with the time
    of the call and has no option to pass one; a batch must come out byte-identical for a
    seed (the dataset ledger dedups by sha256), so the stamps become the invoice's issue date.
    """
    import pikepdf

    pdf_date = when.strftime("D:%Y%m%d%H%M%S+00'00'")
    with pikepdf.open(io.BytesIO(pdf)) as doc:
        doc.docinfo["/CreationDate"] = pdf_date
        doc.docinfo["/ModDate"] = pdf_date
        with doc.open_metadata(set_pikepdf_as_editor=False, update_docinfo=False) as xmp:
            xmp["xmp:CreateDate"] = when.isoformat()
            xmp["xmp:ModifyDate"] = when.isoformat()
        for spec in doc.attachments.values():
            for stream in spec.obj.EF.values():
                params = stream.get("/Params")
                if isinstance(params, pikepdf.Dictionary) and "/ModDate" in params:
                    params.ModDate = pikepdf.String(pdf_date)
        out = io.BytesIO()
        # the /ID is a hash of the content rather than of time and file name
        doc.save(out, deterministic_id=True)
    return out.getvalue()


def generate_einvoice(
    *, seed: int, lang: str = "de", template: str | None = None, held_out: bool = False
) -> GeneratedDocument:
    """An invoice (EUR, EU seller) rendered and carrying its Factur-X XML."""
    for attempt in range(50):
        doc = generate(
            "invoice", seed=seed + attempt * 7919, lang=lang, template=template, held_out=held_out
        )
        # EN 16931 needs a VAT id for standard-rated lines; pick a seller that has one
        if doc.truth["seller"]["vatId"] and doc.truth["currency"] in ("EUR", "GBP"):
            break
    doc.pdf = embed(doc)
    doc.truth["eInvoice"] = {
        "flavor": "factur-x",
        "level": "en16931",
        "xmlFilename": "factur-x.xml",
    }
    return doc
