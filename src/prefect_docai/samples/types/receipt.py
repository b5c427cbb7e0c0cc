"""Till receipts: narrow pages, monospace type, items, VAT table, payment."""

from __future__ import annotations

import datetime as dt
from decimal import ROUND_CEILING, Decimal
from typing import Any

from reportlab.lib.units import mm as _MM

from prefect_docai.samples import catalog, fmt
from prefect_docai.samples.core import Ctx, Template
from prefect_docai.samples.fmt import dec, q2
from prefect_docai.samples.fmt import rate as rate_str
from prefect_docai.samples.invoicing import US_SALES_TAX
from prefect_docai.samples.parties import COUNTRY_CURRENCY, de_vat_id, gb_vat_id
from prefect_docai.samples.render import Pen, Style

CHAINS_DE = (
    "Frischemarkt",
    "Nahkauf",
    "Bio-Laden",
    "Getränke",
    "Markt",
    "Backstube",
    "Baumarkt",
    "Drogerie",
    "Café",
    "Feinkost",
)
CHAINS_EN = (
    "Foods",
    "Grocers",
    "Market",
    "Express",
    "Superstore",
    "Deli",
    "Coffee House",
    "DIY Centre",
    "Pharmacy",
    "Corner Shop",
)

mm: float = float(_MM)


def _merchant(ctx: Ctx, kind: str) -> tuple[str, list[str], str | None]:
    fk, rng = ctx.fake, ctx.rng
    last = fk.last_name()
    if kind == "cafe":
        name = ctx.t(f"Café {last}", f"{last}'s Coffee House")
    elif kind == "hardware":
        name = ctx.t(f"Baumarkt {last}", f"{last} DIY Centre")
    else:
        name = f"{last} {ctx.pick(CHAINS_DE[:5], CHAINS_EN[:5])}"
    if ctx.locale == "de_DE":
        street = f"{fk.street_name()} {rng.randint(1, 120)}"
        addr = [street, f"{fk.postcode()} {fk.city()}"]
        vat: str | None = de_vat_id(rng)
    elif ctx.locale == "en_GB":
        addr = [f"{rng.randint(1, 200)} {fk.street_name()}", f"{fk.city()} {fk.postcode()}"]
        vat = gb_vat_id(rng)
    else:
        addr = [
            f"{rng.randint(1, 9000)} {fk.street_name()}",
            f"{fk.city()}, {fk.state_abbr()} {fk.postcode()}",
        ]
        vat = None
    return name, addr, vat


def _price(ctx: Ctx, low: float, high: float) -> Decimal:
    cents = ctx.rng.randint(int(low * 100), int(high * 100))
    return Decimal(cents // 10 * 10 + 9) / 100


def render(ctx: Ctx, style: Style) -> tuple[bytes, int, dict[str, Any]]:
    rng = ctx.rng
    kind = str(style.extra.get("kind", "grocery"))
    goods = {"cafe": catalog.CAFE, "hardware": catalog.HARDWARE}.get(kind, catalog.GROCERIES)
    country = {"de_DE": "DE", "en_GB": "GB", "en_US": "US"}[ctx.locale]
    currency = COUNTRY_CURRENCY[country]
    name, addr, vat = _merchant(ctx, kind)
    width_chars = int(style.extra.get("chars", 40))
    loc = ctx.locale
    us = country == "US"
    std, red = {"DE": (Decimal(19), Decimal(7)), "GB": (Decimal(20), Decimal(0))}.get(
        country, (Decimal(0), Decimal(0))
    )
    sales_rate = rng.choice(US_SALES_TAX) if us else None

    items: list[dict[str, Any]] = []
    n = rng.randint(2, 14 if kind == "grocery" else 6)
    for _ in range(n):
        de, en, (low, high), reduced = rng.choice(goods)
        qty = rng.choice([1, 1, 1, 1, 2, 2, 3, 4, 6])
        unit = _price(ctx, low, high)
        rate = sales_rate if sales_rate is not None else (red if reduced else std)
        items.append(
            {
                "description": de if ctx.de else en,
                "quantity": Decimal(qty),
                "unitPrice": unit,
                "amount": q2(unit * qty),
                "taxRate": rate,
            }
        )

    subtotal = sum((i["amount"] for i in items), Decimal(0))
    taxes = []
    if us:
        assert sales_rate is not None
        tax = q2(subtotal * sales_rate / 100)
        taxes.append({"rate": sales_rate, "base": subtotal, "amount": tax})
        total = subtotal + tax
    else:
        # European till prices include VAT: the tax is worked back out of each rate's gross
        gross_by_rate: dict[Decimal, Decimal] = {}
        for i in items:
            gross_by_rate[i["taxRate"]] = gross_by_rate.get(i["taxRate"], Decimal(0)) + i["amount"]
        for rate, gross in sorted(gross_by_rate.items(), reverse=True):
            net = q2(gross * 100 / (100 + rate))
            taxes.append({"rate": rate, "base": net, "amount": gross - net, "gross": gross})
        tax = sum((t["amount"] for t in taxes), Decimal(0))
        total = subtotal
    letters = {t["rate"]: "ABCD"[k] for k, t in enumerate(taxes)}

    pay_kind = rng.choice(["cash", "card", "card", "contactless"])
    pay_label = {
        "cash": ctx.t("Bar", "Cash"),
        "card": ctx.t(
            rng.choice(["EC-Karte", "Girocard", "Kartenzahlung"]),
            rng.choice(["Card", "Debit card", "VISA"]),
        ),
        "contactless": ctx.t("Kontaktlos VISA", "Contactless MASTERCARD"),
    }[pay_kind]
    when = dt.datetime.combine(
        ctx.today, dt.time(rng.randint(7, 21), rng.randint(0, 59), rng.randint(0, 59))
    )
    W = width_chars

    def lr(left: str, right: str) -> str:
        space = max(1, W - len(left) - len(right))
        if len(left) + len(right) + 1 > W:
            left = left[: W - len(right) - 1]
        return left + " " * space + right

    def center(s: str) -> str:
        return s[:W].center(W).rstrip()

    def num(value: Decimal) -> str:
        return fmt.number(value, loc)

    head: list[tuple[str, str]] = [(center(name), "big")]
    head += [(center(a), "") for a in addr]
    if rng.random() < 0.7:
        head.append((center(ctx.t("Tel. ", "Tel ") + ctx.fake.phone_number()), ""))
    if vat:
        head.append((center(ctx.t("USt-IdNr.: ", "VAT No: ") + vat), ""))
    columns = style.extra.get("layout") == "columns"
    body: list[tuple[str, str]] = [("", "")]
    if columns:
        # a "tax invoice" till slip: document number, cashier, then one row per item
        body.append((center(ctx.t("RECHNUNG / QUITTUNG", "TAX INVOICE")), "bold"))
        body.append(
            (
                lr(
                    ctx.t(
                        f"Beleg-Nr.: {rng.randint(10000, 99999)}",
                        f"Invoice No: {rng.randint(10000, 99999)}",
                    ),
                    ctx.t(f"Kassierer: {rng.randint(1, 40)}", f"Cashier: {rng.randint(1, 40)}"),
                ),
                "",
            )
        )
        body.append(("-" * W, ""))
        qty_w, price_w, amount_w = 4, 8, 9
        desc_w = W - qty_w - price_w - amount_w
        body.append(
            (
                f"{ctx.t('Artikel', 'Item'):<{desc_w}}{ctx.t('Mg', 'Qty'):>{qty_w}}"
                f"{ctx.t('Preis', 'Price'):>{price_w}}{ctx.t('Betrag', 'Amount'):>{amount_w}}",
                "bold",
            )
        )
        body.append(("-" * W, ""))
    elif not ctx.de or rng.random() < 0.5:
        body.append((lr(ctx.t("", ""), currency), ""))
    for it in items:
        if columns:
            desc = it["description"][: desc_w - 1]
            body.append(
                (
                    f"{desc:<{desc_w}}{fmt.quantity(it['quantity'], loc):>{qty_w}}"
                    f"{num(it['unitPrice']):>{price_w}}{num(it['amount']):>{amount_w}}",
                    "",
                )
            )
            continue
        tag = "" if us else " " + letters[it["taxRate"]]
        if it["quantity"] > 1:
            body.append((it["description"][: W - 2], ""))
            body.append(
                (
                    lr(
                        f"  {fmt.quantity(it['quantity'], loc)} x {num(it['unitPrice'])}",
                        num(it["amount"]) + tag,
                    ),
                    "",
                )
            )
        else:
            body.append((lr(it["description"], num(it["amount"]) + tag), ""))
    body.append(("-" * W, ""))
    if columns:
        count = sum(int(i["quantity"]) for i in items)
        body.append((lr(ctx.t("Anzahl Artikel", "Total Qty"), str(count)), ""))
    if us:
        body.append((lr("SUBTOTAL", num(subtotal)), ""))
        body.append((lr(f"SALES TAX {fmt.percent(taxes[0]['rate'], loc)}", num(tax)), ""))
        body.append((lr("TOTAL", num(total)), "bold"))
    else:
        label = ctx.t(
            rng.choice(["SUMME", "Summe", "ZU ZAHLEN", "GESAMT"]),
            rng.choice(["TOTAL", "Total", "BALANCE DUE", "TO PAY"]),
        )
        body.append(
            (lr(f"{label} {currency}" if rng.random() < 0.5 else label, num(total)), "bold")
        )
    body.append(("=" * W, ""))
    if pay_kind == "cash":
        given = (total / 5).to_integral_value(rounding=ROUND_CEILING) * 5
        if given == total:
            given += 5
        body.append((lr(ctx.t("Gegeben Bar", "Cash tendered"), num(given)), ""))
        body.append((lr(ctx.t("Rückgeld", "Change"), num(given - total)), ""))
    else:
        body.append((lr(pay_label, num(total)), ""))
        body.append((ctx.t("Karte  ", "Card  ") + f"**** **** **** {rng.randint(1000, 9999)}", ""))
        body.append(
            (ctx.t("Genehmigungs-Nr. ", "Auth code ") + f"{rng.randint(100000, 999999)}", "")
        )
    if not us:
        body.append(("", ""))
        heads = ("MwSt", "Netto", "Steuer", "Brutto") if ctx.de else ("VAT", "Net", "VAT", "Gross")
        c0, c1, c2 = (8, 8, 9) if W >= 34 else (7, 8, 8)
        body.append((f"{heads[0]:<{c0}}{heads[1]:>{c1}}{heads[2]:>{c2}}{heads[3]:>{c2}}", ""))
        for t in taxes:
            rate_txt = f"{letters[t['rate']]} {fmt.percent(t['rate'], loc)}"
            body.append(
                (
                    f"{rate_txt:<{c0}}{num(t['base']):>{c1}}{num(t['amount']):>{c2}}"
                    f"{num(t['gross']):>{c2}}",
                    "",
                )
            )
    body.append(("", ""))
    date_txt = fmt.date(when.date(), loc, style=0 if rng.random() < 0.7 else 2)
    time_txt = when.strftime("%H:%M:%S" if rng.random() < 0.6 else "%H:%M")
    body.append((lr(date_txt, time_txt), ""))
    body.append(
        (
            lr(
                ctx.t(f"Bon-Nr. {rng.randint(1000, 9999)}", f"Receipt {rng.randint(1000, 9999)}"),
                ctx.t(f"Kasse {rng.randint(1, 9)}", f"Till {rng.randint(1, 9)}"),
            ),
            "",
        )
    )
    if kind == "cafe" and rng.random() < 0.6:
        body.append((ctx.t(f"Tisch {rng.randint(1, 30)}", f"Table {rng.randint(1, 30)}"), ""))
    body.append(("", ""))
    body.append(
        (
            center(
                ctx.pick(
                    [
                        "Vielen Dank für Ihren Einkauf!",
                        "Danke und bis bald!",
                        "Umtausch nur mit Bon",
                    ],
                    [
                        "Thank you for shopping with us!",
                        "Please keep your receipt",
                        "Have a nice day!",
                    ],
                )
            ),
            "",
        )
    )

    size = float(style.size)
    face = style.fam()
    lead = size * 1.18 / (72 / 25.4)
    char_w = size * 0.6 / (72 / 25.4)
    if face.regular not in ("Courier",):
        char_w = size * 0.602 / (72 / 25.4)
    paper_w = W * char_w + 10
    rows = head + body
    paper_h = len(rows) * lead + 30
    pen = Pen(style, ctx.lang, pagesize=(paper_w * mm, paper_h * mm), title=name)
    y = 10.0
    if style.logo != "none":
        pen.logo(paper_w / 2 - 5, 4, name, size=10)
        y = 20.0
    for text, kind_ in rows:
        if kind_ == "big":
            pen.text(
                paper_w / 2, y + 1, text.strip(), size=size * 1.35, weight="bold", align="center"
            )
            y += lead * 1.6
            continue
        pen.text(5, y, text, size=size, weight="bold" if kind_ == "bold" else "regular")
        y += lead
    pdf, pages = pen.finish()
    truth: dict[str, Any] = {
        "merchant": {"name": name, "address": ", ".join(addr), "vatId": vat},
        "date": when.date().isoformat(),
        "time": when.strftime("%H:%M"),
        "currency": currency,
        "items": [
            {
                "description": i["description"],
                "quantity": str(i["quantity"]),
                "unitPrice": dec(i["unitPrice"]),
                "amount": dec(i["amount"]),
                "taxRate": rate_str(i["taxRate"]),
            }
            for i in items
        ],
        "subtotal": dec(subtotal),
        "tax": dec(tax),
        "taxes": [
            {"rate": rate_str(t["rate"]), "base": dec(t["base"]), "amount": dec(t["amount"])}
            for t in taxes
        ],
        "total": dec(total),
        "paymentMethod": pay_kind,
        "paymentLabel": pay_label,
        "title": name,
    }
    return pdf, pages, truth


TEMPLATES: tuple[Template, ...] = (
    Template(
        "receipt-grocery-courier",
        "receipt",
        render,
        Style(font="courier", logo="none", size=8.5, extra={"kind": "grocery", "chars": 40}),
    ),
    Template(
        "receipt-cafe-dejavu",
        "receipt",
        render,
        Style(
            font="dejavu-mono",
            logo="circle",
            palette="black",
            size=8,
            extra={"kind": "cafe", "chars": 36},
        ),
    ),
    Template(
        "receipt-hardware",
        "receipt",
        render,
        Style(
            font="liberation-mono",
            logo="square",
            palette="orange",
            size=8,
            extra={"kind": "hardware", "chars": 42},
        ),
    ),
    Template(
        "receipt-kiosk-narrow",
        "receipt",
        render,
        Style(font="courier", logo="none", size=7.5, extra={"kind": "grocery", "chars": 32}),
    ),
    Template(
        "receipt-tax-invoice",
        "receipt",
        render,
        Style(
            font="liberation-mono",
            logo="none",
            size=7.5,
            extra={"kind": "grocery", "chars": 42, "layout": "columns"},
        ),
    ),
    Template(
        "receipt-hardware-columns",
        "receipt",
        render,
        Style(
            font="courier",
            logo="diamond",
            palette="grey",
            size=8,
            extra={"kind": "hardware", "chars": 46, "layout": "columns"},
        ),
        held_out=True,
    ),
    Template(
        "receipt-cafe-wide",
        "receipt",
        render,
        Style(
            font="liberation-mono",
            logo="ring",
            palette="grey",
            size=9,
            extra={"kind": "cafe", "chars": 44},
        ),
        held_out=True,
    ),
    Template(
        "receipt-grocery-dejavu",
        "receipt",
        render,
        Style(font="dejavu-mono", logo="none", size=7.5, extra={"kind": "grocery", "chars": 38}),
        held_out=True,
    ),
)
