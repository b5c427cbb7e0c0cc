"""Invoice content: parties, line items, VAT breakdown and totals that add up (Decimal)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from prefect_docai.samples import catalog
from prefect_docai.samples.core import Ctx
from prefect_docai.samples.fmt import dec, q2
from prefect_docai.samples.fmt import rate as rate_str
from prefect_docai.samples.parties import COUNTRY_CURRENCY, Party, customer

# standard and reduced rates per seller country; US sellers charge one sales-tax rate
RATES = {"DE": (Decimal("19"), Decimal("7")), "GB": (Decimal("20"), Decimal("5"))}
GB_ZERO = Decimal("0")
US_SALES_TAX = (Decimal("6.25"), Decimal("7"), Decimal("8.25"), Decimal("8.875"), Decimal("6"))


@dataclass
class Line:
    description: str
    quantity: Decimal
    unit: str
    unit_price: Decimal
    rate: Decimal
    sku: str

    @property
    def net(self) -> Decimal:
        return q2(self.quantity * self.unit_price)

    def truth(self) -> dict[str, Any]:
        return {
            "description": self.description,
            "quantity": str(self.quantity),
            "unit": self.unit,
            "unitPrice": dec(self.unit_price),
            "netAmount": dec(self.net),
            "taxRate": rate_str(self.rate),
            "sku": self.sku,
        }


@dataclass
class TaxLine:
    rate: Decimal
    base: Decimal
    amount: Decimal


@dataclass
class Invoice:
    number: str
    date: dt.date
    due: dt.date
    delivery: dt.date
    currency: str
    seller: Party
    buyer: Party
    lines: list[Line]
    customer_no: str
    order_ref: str
    terms_days: int
    sales_tax: bool = False
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def taxes(self) -> list[TaxLine]:
        bases: dict[Decimal, Decimal] = {}
        for line in self.lines:
            bases[line.rate] = bases.get(line.rate, Decimal(0)) + line.net
        return [
            TaxLine(rate, base, q2(base * rate / 100))
            for rate, base in sorted(bases.items(), reverse=True)
        ]

    @property
    def net(self) -> Decimal:
        return sum((line.net for line in self.lines), Decimal(0))

    @property
    def tax(self) -> Decimal:
        return sum((t.amount for t in self.taxes), Decimal(0))

    @property
    def gross(self) -> Decimal:
        return self.net + self.tax

    def truth(self) -> dict[str, Any]:
        return {
            "invoiceNumber": self.number,
            "invoiceDate": self.date.isoformat(),
            "dueDate": self.due.isoformat(),
            "deliveryDate": self.delivery.isoformat(),
            "currency": self.currency,
            "seller": self.seller.truth(),
            "buyer": {k: v for k, v in self.buyer.truth().items() if k != "taxNumber"},
            "iban": self.seller.iban,
            "bic": self.seller.bic,
            "net": dec(self.net),
            "tax": dec(self.tax),
            "gross": dec(self.gross),
            "amountDue": dec(self.gross),
            "taxes": [
                {"rate": rate_str(t.rate), "base": dec(t.base), "amount": dec(t.amount)}
                for t in self.taxes
            ],
            "lineItems": [line.truth() for line in self.lines],
            "customerNumber": self.customer_no,
            "orderReference": self.order_ref,
            "paymentTermsDays": self.terms_days,
        }


def _price(ctx: Ctx, low: float, high: float) -> Decimal:
    cents = ctx.rng.randint(int(low * 100), int(high * 100))
    ending = ctx.rng.random()
    if ending < 0.3:
        cents = cents // 100 * 100
    elif ending < 0.5:
        cents = cents // 100 * 100 + 90
    return Decimal(cents) / 100


def make_lines(ctx: Ctx, n: int, country: str, sales_rate: Decimal | None) -> list[Line]:
    rng = ctx.rng
    lines = []
    for _ in range(n):
        de, en, unit_key, (low, high), reduced = rng.choice(catalog.PRODUCTS)
        unit = catalog.UNITS[unit_key][0 if ctx.de else 1]
        if unit_key in ("h", "m", "kg", "d"):
            qty = Decimal(rng.randint(1, 40)) / (2 if rng.random() < 0.4 else 1)
        elif unit_key in ("flat", "month"):
            qty = Decimal(rng.choice([1, 1, 1, 2, 3, 12]))
        else:
            qty = Decimal(rng.choice([1, 1, 2, 3, 4, 5, 6, 10, 12, 20, 25, 50]))
        if sales_rate is not None:
            rate = sales_rate
        elif country == "GB":
            rate = (
                (RATES["GB"][1] if rng.random() < 0.5 else GB_ZERO) if reduced else RATES["GB"][0]
            )
        else:
            rate = RATES["DE"][1] if reduced else RATES["DE"][0]
        sku = f"{rng.choice('ABCDEFGHKLMNPRST')}{rng.randint(1000, 99999)}"
        lines.append(Line(de if ctx.de else en, qty, unit, _price(ctx, low, high), rate, sku))
    return lines


def invoice_number(ctx: Ctx) -> str:
    y = ctx.today.year
    r = ctx.rng
    forms = (
        f"RE-{y}-{r.randint(1, 9999):05d}",
        f"{y}-{r.randint(100, 9999):04d}",
        f"INV-{r.randint(10000, 999999)}",
        f"R{ctx.today:%y%m%d}-{r.randint(1, 99):02d}",
        f"{r.randint(100000, 9999999)}",
        f"{y % 100}{r.randint(1000, 9999)}/{r.choice('ABKR')}",
    )
    return str(r.choice(forms))


def make_invoice(ctx: Ctx, *, n_lines: int, seller: Party | None = None) -> Invoice:
    rng = ctx.rng
    seller = seller or ctx.issuer()
    buyer = customer(ctx.fake, rng, ctx.locale)
    country = seller.country
    sales_rate = rng.choice(US_SALES_TAX) if country == "US" else None
    # two rates appear when a reduced-rate product is present; force it sometimes so the
    # VAT breakdown of extractors gets exercised
    lines = make_lines(ctx, n_lines, country, sales_rate)
    if sales_rate is None and n_lines >= 3 and rng.random() < 0.4:
        std, red = RATES.get(country, RATES["DE"])
        lines[-1].rate = red if lines[0].rate == std else std
    terms = rng.choice([7, 10, 14, 14, 30, 30])
    date = ctx.today
    return Invoice(
        number=invoice_number(ctx),
        date=date,
        due=date + dt.timedelta(days=terms),
        delivery=date - dt.timedelta(days=rng.randint(0, 12)),
        currency=COUNTRY_CURRENCY[country],
        seller=seller,
        buyer=buyer,
        lines=lines,
        customer_no=f"{rng.randint(10000, 99999)}",
        order_ref=f"{rng.choice(['PO', 'B', 'ORD'])}-{rng.randint(1000, 99999)}",
        terms_days=terms,
        sales_tax=sales_rate is not None,
    )
