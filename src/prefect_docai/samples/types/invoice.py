"""Invoice templates: DIN letter layout, info strip, modern two-column, compact."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from prefect_docai.samples import business as biz
from prefect_docai.samples import fmt
from prefect_docai.samples.core import Ctx, Template
from prefect_docai.samples.invoicing import Invoice, make_invoice
from prefect_docai.samples.render import Column, Pen, Style, table


def _labels(ctx: Ctx) -> dict[str, str]:
    if ctx.de:
        return {
            "title": ctx.rng.choice(["Rechnung", "RECHNUNG", "Rechnung", "Handwerkerrechnung"]),
            "number": ctx.rng.choice(["Rechnungsnummer", "Rechnungs-Nr.", "Rechnung Nr."]),
            "date": ctx.rng.choice(["Rechnungsdatum", "Datum"]),
            "delivery": ctx.rng.choice(["Lieferdatum", "Leistungsdatum", "Leistungszeitraum"]),
            "customer": ctx.rng.choice(["Kundennummer", "Kunden-Nr."]),
            "order": ctx.rng.choice(["Ihre Bestellung", "Auftragsnummer", "Bestell-Nr."]),
            "pos": "Pos.",
            "desc": "Bezeichnung",
            "qty": "Menge",
            "unit": "Einheit",
            "price": "Einzelpreis",
            "amount": "Gesamt",
            "rate": "USt.",
            "net": ctx.rng.choice(["Nettobetrag", "Summe netto", "Zwischensumme"]),
            "tax": "zzgl. {rate} USt. auf {base}",
            "gross": ctx.rng.choice(
                ["Rechnungsbetrag", "Gesamtbetrag", "Bruttobetrag", "Zu zahlender Betrag"]
            ),
            "carry": "Übertrag",
        }
    return {
        "title": ctx.rng.choice(["Invoice", "INVOICE", "Tax Invoice", "Invoice"]),
        "number": ctx.rng.choice(["Invoice No.", "Invoice number", "Invoice #"]),
        "date": ctx.rng.choice(["Invoice date", "Date", "Tax point"]),
        "delivery": ctx.rng.choice(["Delivery date", "Date of supply", "Service date"]),
        "customer": ctx.rng.choice(["Customer No.", "Account No.", "Customer ID"]),
        "order": ctx.rng.choice(["Your order", "PO number", "Order ref."]),
        "pos": "#",
        "desc": "Description",
        "qty": "Qty",
        "unit": "Unit",
        "price": "Unit price",
        "amount": "Amount",
        "rate": "VAT",
        "net": ctx.rng.choice(["Subtotal", "Net total", "Total excl. VAT"]),
        "tax": "VAT {rate} on {base}",
        "gross": ctx.rng.choice(["Total", "Amount due", "Total due", "Invoice total"]),
        "carry": "Carried forward",
    }


def _rows(
    inv: Invoice, ctx: Ctx, lb: dict[str, str], *, with_rate: bool, with_sku: bool
) -> tuple[list[Column], list[list[str]]]:
    loc = ctx.locale
    cols = [Column(lb["pos"], 9, "right")]
    if with_sku:
        cols.append(Column(ctx.t("Art.-Nr.", "Item"), 18))
    desc_w = 170 - 9 - (18 if with_sku else 0) - 15 - 14 - 24 - 26 - (12 if with_rate else 0)
    cols += [
        Column(lb["desc"], desc_w),
        Column(lb["qty"], 15, "right"),
        Column(lb["unit"], 14),
        Column(lb["price"], 24, "right"),
    ]
    if with_rate:
        cols.append(Column(lb["rate"], 12, "right"))
    cols.append(Column(lb["amount"], 26, "right"))
    rows = []
    for i, line in enumerate(inv.lines, start=1):
        row = [str(i)]
        if with_sku:
            row.append(line.sku)
        row += [
            line.description,
            fmt.quantity(line.quantity, loc),
            line.unit,
            fmt.number(line.unit_price, loc),
        ]
        if with_rate:
            row.append(fmt.percent(line.rate, loc))
        row.append(fmt.number(line.net, loc))
        rows.append(row)
    return cols, rows


def _totals(
    pen: Pen, ctx: Ctx, inv: Invoice, lb: dict[str, str], y: float, *, boxed: bool
) -> float:
    loc, cur = ctx.locale, inv.currency
    money_style = ctx.rng.randrange(3)
    x_label, x_val = 150.0, 190.0
    rows: list[tuple[str, str, str]] = [
        (lb["net"], fmt.money(inv.net, cur, loc, style=money_style), "regular")
    ]
    for t in inv.taxes:
        if inv.sales_tax:
            label = ctx.t(
                f"Umsatzsteuer {fmt.percent(t.rate, loc)}", f"Sales tax {fmt.percent(t.rate, loc)}"
            )
        else:
            label = lb["tax"].format(rate=fmt.percent(t.rate, loc), base=fmt.number(t.base, loc))
        rows.append((label, fmt.money(t.amount, cur, loc, style=money_style), "regular"))
    if len(inv.taxes) > 1:
        rows.append(
            (
                ctx.t("Summe USt.", "Total VAT"),
                fmt.money(inv.tax, cur, loc, style=money_style),
                "regular",
            )
        )
    rows.append((lb["gross"], fmt.money(inv.gross, cur, loc, style=money_style), "bold"))
    if boxed:
        pen.rect(100, y - 4.5, 92, len(rows) * 5.2 + 3, fill=pen.style.tint)
    for i, (label, value, weight) in enumerate(rows):
        if i == len(rows) - 1:
            pen.hline(105, x_val, y - 3.8, width=0.8)
        pen.text(x_label, y, label, weight=weight, align="right")
        pen.text(x_val, y, value, weight=weight, align="right")
        y += 5.2
    return y + 3


def _payment(pen: Pen, ctx: Ctx, inv: Invoice, y: float) -> float:
    loc = ctx.locale
    due = fmt.date(inv.due, loc, style=ctx.rng.randrange(2))
    gross = fmt.money(inv.gross, inv.currency, loc)
    if ctx.de:
        text = ctx.rng.choice(
            [
                f"Bitte überweisen Sie den Betrag von {gross} innerhalb von {inv.terms_days} Tagen "
                f"bis zum {due} ohne Abzug unter Angabe der Rechnungsnummer {inv.number}.",
                f"Zahlbar bis {due} ohne Abzug. Vielen Dank für Ihren Auftrag!",
                f"Zahlungsziel: {inv.terms_days} Tage netto ({due}). Verwendungszweck: {inv.number}",
            ]
        )
    else:
        text = ctx.rng.choice(
            [
                f"Please pay {gross} within {inv.terms_days} days (by {due}) quoting invoice "
                f"number {inv.number}.",
                f"Payment due by {due}. Thank you for your business!",
                f"Terms: net {inv.terms_days} days, due {due}. Reference: {inv.number}",
            ]
        )
    y = pen.paragraph(biz.LEFT, y, text, 170)
    s = inv.seller
    if s.iban:
        iban = biz.group_iban(s.iban) if ctx.rng.random() < 0.7 else s.iban
        y += 1.5
        pen.text(biz.LEFT, y, f"{s.bank} · IBAN: {iban} · BIC: {s.bic}", size=pen.style.size - 0.5)
        y += 5
    return y


def _head_rows(ctx: Ctx, inv: Invoice, lb: dict[str, str]) -> list[tuple[str, str]]:
    loc = ctx.locale
    ds = ctx.rng.randrange(3)
    rows = [
        (lb["number"], inv.number),
        (lb["date"], fmt.date(inv.date, loc, style=ds)),
        (lb["customer"], inv.customer_no),
    ]
    if ctx.rng.random() < 0.7:
        rows.append((lb["delivery"], fmt.date(inv.delivery, loc, style=ds)))
    if ctx.rng.random() < 0.5:
        rows.append((lb["order"], inv.order_ref))
    if inv.buyer.vat_id and ctx.rng.random() < 0.6:
        rows.append((ctx.t("Ihre USt-IdNr.", "Your VAT No."), inv.buyer.vat_id))
    return rows


def render(ctx: Ctx, style: Style) -> tuple[bytes, int, dict[str, Any]]:
    rng = ctx.rng
    long_p = float(style.extra.get("long", 0.2))
    n = rng.randint(14, 48) if rng.random() < long_p else rng.randint(1, 9)
    inv = make_invoice(ctx, n_lines=n)
    layout = str(style.extra.get("layout", "din"))
    # labels are chosen once per document so every page uses the same wording
    lb = _labels(ctx)
    s = inv.seller
    deco = biz.footer(
        ctx,
        s,
        register=_register(ctx) if ctx.de else None,
        manager=ctx.fake.name() if rng.random() < 0.5 else None,
    )
    pen = Pen(style, ctx.lang, decorate=deco, title=f"{lb['title']} {inv.number}", author=s.name)
    bottom = pen.height_mm - 34

    def restart() -> float:
        pen.text(biz.LEFT, 16, s.name, size=9, weight="bold", color=style.accent)
        pen.text(pen.width_mm - 20, 16, f"{lb['title']} {inv.number}", size=8, align="right")
        return 24.0

    if layout == "modern":
        pen.text(
            pen.width_mm - 20,
            22,
            lb["title"].upper(),
            size=26,
            weight="bold",
            color=style.accent,
            align="right",
            heading=True,
        )
        pen.logo(biz.LEFT, 10, s.name, size=14)
        pen.text(biz.LEFT, 30, s.name, size=11, weight="bold")
        pen.lines(biz.LEFT, 35, [s.street, s.city_line(), s.email], size=8)
        pen.text(
            biz.LEFT, 55, ctx.t("Rechnung an", "Bill to"), size=8, weight="bold", color=style.accent
        )
        pen.lines(biz.LEFT, 60, inv.buyer.address_lines(ctx.lang), leading=4.5)
        head = _head_rows(ctx, inv, lb)
        biz.info_block(pen, head, x=120, y=55, boxed=True)
        y = 92.0
    elif layout == "strip":
        top = biz.letterhead(pen, ctx, s)
        biz.address_window(pen, ctx, s, inv.buyer, y=max(45.0, top + 6))
        pen.text(biz.LEFT, 92, f"{lb['title']}", size=16, weight="bold", heading=True)
        head = _head_rows(ctx, inv, lb)[:5]
        y = biz.info_strip(pen, head, y=102)
    elif layout == "compact":
        pen.text(biz.LEFT, 18, s.name, size=12, weight="bold", heading=True)
        pen.lines(biz.LEFT, 23, [s.street, s.city_line()], size=8)
        pen.text(
            pen.width_mm - 20,
            18,
            f"{lb['title']} {inv.number}",
            size=12,
            weight="bold",
            align="right",
            heading=True,
        )
        pen.lines(biz.LEFT, 40, inv.buyer.address_lines(ctx.lang), leading=4.3)
        head = _head_rows(ctx, inv, lb)
        biz.info_block(pen, head, x=125, y=40)
        y = 72.0
    else:  # din
        top = biz.letterhead(pen, ctx, s)
        biz.address_window(pen, ctx, s, inv.buyer, y=max(45.0, top + 6))
        head = _head_rows(ctx, inv, lb)
        biz.info_block(
            pen,
            head,
            y=max(50.0, top + 10),
            boxed=bool(style.extra.get("boxed")),
        )
        y = 100.0
        pen.text(
            biz.LEFT,
            y,
            f"{lb['title']} {inv.number}" if rng.random() < 0.5 else lb["title"],
            size=14,
            weight="bold",
            heading=True,
        )
        y += 8
        if rng.random() < 0.6:
            greet = ctx.pick(
                ["Sehr geehrte Damen und Herren,", "Guten Tag,"],
                ["Dear Sir or Madam,", "Dear customer,"],
            )
            y = pen.paragraph(biz.LEFT, y, greet, 170) + 1
            y = (
                pen.paragraph(
                    biz.LEFT,
                    y,
                    ctx.pick(
                        [
                            "für die erbrachten Leistungen berechnen wir Ihnen wie folgt:",
                            "vielen Dank für Ihren Auftrag. Wir erlauben uns, folgende Positionen in "
                            "Rechnung zu stellen:",
                        ],
                        [
                            "for the goods and services supplied we invoice you as follows:",
                            "thank you for your order. Please find the charges below.",
                        ],
                    ),
                    170,
                )
                + 3
            )

    multi_rate = len({line.rate for line in inv.lines}) > 1
    cols, rows = _rows(
        inv, ctx, lb, with_rate=multi_rate or rng.random() < 0.3, with_sku=rng.random() < 0.4
    )
    running: list[str] = []
    acc = Decimal(0)
    for line in inv.lines:
        running.append(fmt.number(acc, ctx.locale))
        acc += line.net

    y = table(
        pen,
        biz.LEFT,
        y,
        cols,
        rows,
        bottom=bottom,
        restart=restart,
        carry=lambda i: (lb["carry"], running[i]),
    )
    if y > bottom - 40:
        pen.new_page()
        y = restart()
    y = _totals(pen, ctx, inv, lb, y + 5, boxed=layout in ("modern", "strip"))
    if y > bottom - 18:
        pen.new_page()
        y = restart()
    y = _payment(pen, ctx, inv, y + 3)
    if s.tax_number and rng.random() < 0.5:
        pen.text(biz.LEFT, y + 2, f"Steuernummer: {s.tax_number}", size=pen.style.size - 1)
    pdf, pages = pen.finish()
    truth = inv.truth()
    truth["title"] = lb["title"]
    truth["tables"] = pen.tables
    # facts that this rendering left off the page are unknown to a reader: null in the truth
    shown = {label for label, _ in head}
    if lb["delivery"] not in shown:
        truth["deliveryDate"] = None
    if lb["order"] not in shown:
        truth["orderReference"] = None
    if ctx.t("Ihre USt-IdNr.", "Your VAT No.") not in shown:
        truth["buyer"]["vatId"] = None
    return pdf, pages, truth


def _register(ctx: Ctx) -> str:
    court = ctx.rng.choice(["München", "Berlin-Charlottenburg", "Hamburg", "Köln", "Stuttgart"])
    return f"Amtsgericht {court} HRB {ctx.rng.randint(1000, 250000)}"


TEMPLATES: tuple[Template, ...] = (
    Template(
        "invoice-din-blue",
        "invoice",
        render,
        Style(
            font="helvetica",
            palette="navy",
            logo="circle",
            header="left",
            table="grid",
            numbering="auto",
            extra={"layout": "din", "long": 0.25},
        ),
    ),
    Template(
        "invoice-din-serif",
        "invoice",
        render,
        Style(
            font="dejavu-serif",
            palette="crimson",
            logo="diamond",
            header="center",
            table="lines",
            numbering="dash",
            extra={"layout": "din", "boxed": True},
        ),
    ),
    Template(
        "invoice-strip-band",
        "invoice",
        render,
        Style(
            font="liberation-sans",
            palette="teal",
            logo="bars",
            header="band",
            table="zebra",
            numbering="auto-slash",
            extra={"layout": "strip", "long": 0.3},
        ),
    ),
    Template(
        "invoice-modern",
        "invoice",
        render,
        Style(
            font="dejavu-sans",
            palette="orange",
            logo="square",
            header="right",
            table="zebra",
            numbering="page-of",
            numbering_pos="bottom-right",
            extra={"layout": "modern"},
        ),
    ),
    Template(
        "invoice-compact",
        "invoice",
        render,
        Style(
            font="liberation-narrow",
            palette="grey",
            logo="wordmark",
            header="plain",
            table="plain",
            numbering="slash",
            size=8.5,
            extra={"layout": "compact"},
        ),
    ),
    Template(
        "invoice-din-sidebar",
        "invoice",
        render,
        Style(
            font="times",
            palette="forest",
            logo="triangle",
            header="sidebar",
            table="boxed",
            numbering=None,
            size=10,
            extra={"layout": "din"},
        ),
    ),
    # held out: layouts recombined with faces, colours and logos no training template uses
    Template(
        "invoice-modern-serif",
        "invoice",
        render,
        Style(
            font="liberation-serif",
            palette="purple",
            logo="ring",
            header="center",
            table="lines",
            numbering="auto",
            extra={"layout": "modern", "long": 0.3},
        ),
        held_out=True,
    ),
    Template(
        "invoice-strip-sky",
        "invoice",
        render,
        Style(
            font="vera",
            palette="sky",
            logo="circle",
            header="sidebar",
            table="grid",
            numbering="dash",
            numbering_pos="top-right",
            extra={"layout": "strip"},
        ),
        held_out=True,
    ),
    Template(
        "invoice-compact-gold",
        "invoice",
        render,
        Style(
            font="dejavu-condensed",
            palette="gold",
            logo="bars",
            header="left",
            table="zebra",
            numbering="bare",
            size=9,
            letter_size=True,
            extra={"layout": "compact", "long": 0.3},
        ),
        held_out=True,
    ),
)
