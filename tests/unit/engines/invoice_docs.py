"""Generated invoices and receipts with known truth (reportlab + Faker), for the invoice,
receipt and parsing tests. Real-looking IBANs (schwifty) and check-digit-valid VAT ids."""

from __future__ import annotations

import io
import random
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal

from faker import Faker
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen.canvas import Canvas
from schwifty import IBAN
from stdnum.iso7064 import mod_11_10
from tests.docgen import unicode_font

CENT = Decimal("0.01")


def de_vat_id(rng: random.Random) -> str:
    body = str(rng.randint(10_000_000, 99_999_999))
    return "DE" + body + mod_11_10.calc_check_digit(body)


def money(value: Decimal, german: bool) -> str:
    text = f"{value:,.2f}"
    return text.replace(",", "X").replace(".", ",").replace("X", ".") if german else text


@dataclass
class InvoiceTruth:
    number: str
    issued: date
    due: date
    seller: str
    seller_street: str
    seller_postcode: str
    seller_city: str
    buyer: str
    buyer_street: str
    buyer_postcode: str
    buyer_city: str
    vat_id: str
    iban: str
    bic: str | None
    net: Decimal
    tax: Decimal
    gross: Decimal
    taxes: dict[Decimal, tuple[Decimal, Decimal]] = field(default_factory=dict)
    items: list[tuple[str, Decimal, Decimal, Decimal, Decimal]] = field(default_factory=list)
    """description, quantity, unit price, net amount, rate"""


def make_invoice(
    seed: int = 1, german: bool = True, n_items: int = 5, month_first: bool = False
) -> tuple[bytes, InvoiceTruth]:
    """An A4 invoice: sender line over the address window, header block on the right,
    an item table (continued on further pages for many items), totals with a VAT line
    per rate, footer with VAT id and bank details."""
    rng = random.Random(seed)
    fake = Faker("de_DE" if german else "en_GB")
    fake.seed_instance(seed)
    suffix = " GmbH" if german else " Ltd"
    seller = fake.last_name() + " " + ("Handel" if german else "Trading") + suffix
    buyer = fake.last_name() + " " + ("Bau" if german else "Works") + (" AG" if german else " plc")
    iban = IBAN.generate("DE", bank_code="37040044", account_code=str(rng.randint(10**9, 10**10 - 1)))
    rates = [Decimal(19), Decimal(7)] if german else [Decimal(20), Decimal(5)]
    items = []
    for index in range(n_items):
        quantity = Decimal(rng.randint(1, 9))
        price = Decimal(rng.randint(150, 99_999)) / 100
        rate = rates[index % 2]
        items.append((fake.word().capitalize() + " " + fake.word(), quantity, price,
                      (quantity * price).quantize(CENT, ROUND_HALF_UP), rate))
    taxes: dict[Decimal, tuple[Decimal, Decimal]] = {}
    for *_, amount, rate in items:
        base, _ = taxes.get(rate, (Decimal(0), Decimal(0)))
        taxes[rate] = (base + amount, Decimal(0))
    taxes = {r: (b, (b * r / 100).quantize(CENT, ROUND_HALF_UP)) for r, (b, _) in taxes.items()}
    net = sum((b for b, _ in taxes.values()), Decimal(0))
    tax = sum((t for _, t in taxes.values()), Decimal(0))
    issued = date(2024, rng.randint(1, 12), rng.randint(13, 28) if month_first else rng.randint(1, 28))
    postcode = lambda: f"{rng.randint(10000, 99999)}"  # noqa: E731
    truth = InvoiceTruth(
        number=f"RE-{issued.year}-{rng.randint(1000, 9999)}",
        issued=issued, due=issued + timedelta(days=14),
        seller=seller, seller_street=f"{fake.last_name()}straße {rng.randint(1, 99)}" if german
        else f"{rng.randint(1, 99)} {fake.last_name()} Road",
        seller_postcode=postcode(), seller_city=fake.city().split()[0],
        buyer=buyer, buyer_street=f"{fake.last_name()}weg {rng.randint(1, 99)}" if german
        else f"{rng.randint(1, 99)} {fake.last_name()} Street",
        buyer_postcode=postcode(), buyer_city=fake.city().split()[0],
        vat_id=de_vat_id(rng), iban=str(iban.compact), bic=str(iban.bic) if iban.bic else None,
        net=net, tax=tax, gross=net + tax, taxes=taxes, items=items,
    )
    return _render_invoice(truth, german, month_first), truth


def _date(value: date, german: bool, month_first: bool = False) -> str:
    if month_first:
        return value.strftime("%m/%d/%Y")
    return value.strftime("%d.%m.%Y") if german else value.strftime("%d/%m/%Y")


def _render_invoice(t: InvoiceTruth, german: bool, month_first: bool = False) -> bytes:
    font = unicode_font()
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=A4)
    _width, height = A4
    g = german
    canvas.setFont(font, 16)
    canvas.drawString(300, height - 60, t.seller)
    canvas.setFont(font, 7)
    canvas.drawString(60, height - 140, f"{t.seller} · {t.seller_street} · {t.seller_postcode} {t.seller_city}")
    canvas.setFont(font, 10)
    for offset, line in enumerate([t.buyer, t.buyer_street, f"{t.buyer_postcode} {t.buyer_city}"]):
        canvas.drawString(60, height - 160 - 13 * offset, line)
    labels = (("Rechnungsnummer:", "Rechnungsdatum:", "Fällig am:") if g
              else ("Invoice No.:", "Invoice Date:", "Due Date:"))
    values = (t.number, _date(t.issued, g, month_first), _date(t.due, g, month_first))
    for offset, (label, value) in enumerate(zip(labels, values, strict=True)):
        canvas.drawString(350, height - 160 - 13 * offset, label)
        canvas.drawString(450, height - 160 - 13 * offset, value)
    canvas.setFont(font, 14)
    canvas.drawString(60, height - 240, "Rechnung" if g else "Invoice")
    header = (("Pos", "Beschreibung", "Menge", "Einzelpreis", "USt", "Betrag") if g
              else ("No", "Description", "Qty", "Unit price", "VAT", "Amount"))
    columns = (60, 90, 300, 360, 440, 490)

    def table_header(y: float) -> None:
        canvas.setFont(font, 9)
        for x, text in zip(columns, header, strict=True):
            canvas.drawString(x, y, text)

    y = height - 270
    table_header(y)
    y -= 16
    for index, (description, quantity, price, amount, rate) in enumerate(t.items, 1):
        if y < 140:
            canvas.showPage()
            y = height - 80
            table_header(y)
            y -= 16
        canvas.setFont(font, 9)
        canvas.drawString(columns[0], y, str(index))
        canvas.drawString(columns[1], y, description)
        canvas.drawRightString(columns[2] + 30, y, str(quantity))
        canvas.drawRightString(columns[3] + 60, y, money(price, g))
        canvas.drawRightString(columns[4] + 30, y, f"{rate} %")
        canvas.drawRightString(columns[5] + 60, y, money(amount, g))
        y -= 14
    y -= 10
    if y < 200:
        canvas.showPage()
        y = height - 100
    canvas.setFont(font, 10)
    rows = [("Nettobetrag" if g else "Subtotal", t.net)]
    for rate, (base, amount) in sorted(t.taxes.items()):
        label = (f"USt {rate} % auf {money(base, g)}" if g else f"VAT {rate}% on {money(base, g)}")
        rows.append((label, amount))
    rows.append(("Gesamtbetrag" if g else "Total", t.gross))
    for label, value in rows:
        canvas.drawString(330, y, label)
        canvas.drawRightString(550, y, money(value, g) + (" €" if g else " EUR"))
        y -= 14
    canvas.setFont(font, 7)
    footer = [t.seller, t.seller_street, f"{t.seller_postcode} {t.seller_city}",
              f"{'USt-IdNr.' if g else 'VAT No.'}: {t.vat_id}",
              f"IBAN: {IBAN(t.iban).formatted}"]
    if t.bic:
        footer.append(f"BIC: {t.bic}")
    for offset, line in enumerate(footer):
        canvas.drawString(60 if offset < 3 else 330, 80 - 9 * (offset % 3), line)
    canvas.save()
    return out.getvalue()


def zugferd_xml(t: InvoiceTruth) -> bytes:
    """EN 16931 CII XML for the truth (drafthorse, XSD-validated)."""
    from drafthorse.models.accounting import ApplicableTradeTax
    from drafthorse.models.document import Document
    from drafthorse.models.party import TaxRegistration
    from drafthorse.models.payment import PaymentMeans
    from drafthorse.models.tradelines import LineItem

    doc = Document()
    doc.context.guideline_parameter.id = "urn:cen.eu:en16931:2017"
    doc.header.id = t.number
    doc.header.type_code = "380"
    doc.header.issue_date_time = t.issued
    agreement = doc.trade.agreement
    agreement.seller.name = t.seller
    agreement.seller.address.line_one = t.seller_street
    agreement.seller.address.postcode = t.seller_postcode
    agreement.seller.address.city_name = t.seller_city
    agreement.seller.address.country_id = "DE"
    agreement.seller.tax_registrations.add(TaxRegistration(id=("VA", t.vat_id)))
    agreement.buyer.name = t.buyer
    agreement.buyer.address.line_one = t.buyer_street
    agreement.buyer.address.postcode = t.buyer_postcode
    agreement.buyer.address.city_name = t.buyer_city
    agreement.buyer.address.country_id = "DE"
    settlement = doc.trade.settlement
    settlement.currency_code = "EUR"
    means = PaymentMeans()
    means.type_code = "58"
    means.payee_account.iban = t.iban
    if t.bic:
        means.payee_institution.bic = t.bic
    settlement.payment_means.add(means)
    for index, (description, quantity, price, amount, rate) in enumerate(t.items, 1):
        line = LineItem()
        line.document.line_id = str(index)
        line.product.name = description
        line.agreement.net.amount = price
        line.delivery.billed_quantity = (quantity, "C62")
        line.settlement.trade_tax.type_code = "VAT"
        line.settlement.trade_tax.category_code = "S"
        line.settlement.trade_tax.rate_applicable_percent = rate
        line.settlement.monetary_summation.total_amount = amount
        doc.trade.items.add(line)
    for rate, (base, amount) in sorted(t.taxes.items()):
        trade_tax = ApplicableTradeTax()
        trade_tax.calculated_amount = amount
        trade_tax.basis_amount = base
        trade_tax.type_code = "VAT"
        trade_tax.category_code = "S"
        trade_tax.rate_applicable_percent = rate
        settlement.trade_tax.add(trade_tax)
    summation = settlement.monetary_summation
    summation.line_total = t.net
    summation.charge_total = Decimal("0.00")
    summation.allowance_total = Decimal("0.00")
    summation.tax_basis_total = t.net
    summation.tax_total = (t.tax, "EUR")
    summation.grand_total = t.gross
    summation.due_amount = t.gross
    return bytes(doc.serialize(schema="FACTUR-X_EN16931"))


def zugferd_pdf(seed: int = 3) -> tuple[bytes, InvoiceTruth]:
    from facturx import generate_from_binary

    pdf, truth = make_invoice(seed=seed, german=True, n_items=3)
    return bytes(generate_from_binary(pdf, zugferd_xml(truth), flavor="factur-x", level="en16931")), truth


@dataclass
class ReceiptTruth:
    merchant: str
    day: date
    time: str
    total: Decimal
    items: list[tuple[str, Decimal]]


def make_receipt(seed: int = 1, german: bool = True) -> tuple[bytes, ReceiptTruth]:
    """A till receipt on an 80 mm roll: merchant, address, items, total, payment."""
    rng = random.Random(seed)
    fake = Faker("de_DE" if german else "en_GB")
    fake.seed_instance(seed)
    merchant = fake.last_name().upper() + (" MARKT" if german else " STORES")
    items = [(fake.word().capitalize(), Decimal(rng.randint(49, 1999)) / 100) for _ in range(rng.randint(3, 6))]
    total = sum((a for _, a in items), Decimal(0))
    day = date(2023, rng.randint(1, 12), rng.randint(1, 28))
    clock = f"{rng.randint(8, 20):02d}:{rng.randint(0, 59):02d}"
    font = unicode_font()
    width, height = 226.0, 420.0
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=(width, height))
    y = height - 40
    canvas.setFont(font, 13)
    canvas.drawCentredString(width / 2, y, merchant)
    canvas.setFont(font, 9)
    y -= 16
    canvas.drawCentredString(width / 2, y, fake.street_address() if not german else f"{fake.last_name()}straße {rng.randint(1, 99)}")
    y -= 12
    canvas.drawCentredString(width / 2, y, f"{rng.randint(10000, 99999)} {fake.city().split()[0]}")
    y -= 24
    for name, amount in items:
        canvas.drawString(14, y, name)
        canvas.drawRightString(width - 14, y, money(amount, german) + (" A" if german else ""))
        y -= 12
    y -= 8
    canvas.setFont(font, 11)
    canvas.drawString(14, y, "SUMME EUR" if german else "TOTAL")
    canvas.drawRightString(width - 14, y, money(total, german) if german else f"£{money(total, False)}")
    y -= 16
    canvas.setFont(font, 9)
    canvas.drawString(14, y, "BAR" if german else "CARD")
    canvas.drawRightString(width - 14, y, money(total, german))
    y -= 24
    canvas.drawString(14, y, f"{day.strftime('%d.%m.%Y') if german else day.strftime('%d/%m/%Y')} {clock}")
    y -= 12
    canvas.drawString(14, y, "Vielen Dank für Ihren Einkauf" if german else "Thank you for shopping")
    canvas.save()
    return out.getvalue(), ReceiptTruth(merchant, day, clock, total, items)
