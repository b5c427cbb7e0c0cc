"""Delivery notes and purchase orders: item lists in business-letter layouts."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from prefect_docai.samples import business as biz
from prefect_docai.samples import fmt
from prefect_docai.samples.core import Ctx, Template
from prefect_docai.samples.invoicing import make_invoice
from prefect_docai.samples.parties import Party, company, de_vat_id, person
from prefect_docai.samples.render import Column, Pen, Style, table


def _sign_lines(pen: Pen, ctx: Ctx, y: float, labels: list[str]) -> float:
    width = 170 / len(labels)
    for i, label in enumerate(labels):
        x = biz.LEFT + i * width
        pen.hline(x, x + width - 10, y + 12, width=0.4)
        pen.text(x, y + 16, label, size=7.5, color=biz.GREY)
    return y + 20


def render_delivery_note(ctx: Ctx, style: Style) -> tuple[bytes, int, dict[str, Any]]:
    rng = ctx.rng
    long_p = float(style.extra.get("long", 0.2))
    n = rng.randint(14, 45) if rng.random() < long_p else rng.randint(1, 10)
    inv = make_invoice(ctx, n_lines=n)
    sender, recipient = inv.seller, inv.buyer
    ship_to: Party = recipient
    if rng.random() < 0.3:
        ship_to = person(ctx.fake, rng, ctx.locale)
        ship_to.name = f"{recipient.name}"
        ship_to.contact = ctx.t("Lager / Wareneingang", "Goods in / Warehouse")
    number = f"{ctx.t('LS', 'DN')}-{ctx.today.year}-{rng.randint(1, 99999):05d}"
    title = ctx.pick(
        ["Lieferschein", "LIEFERSCHEIN", "Lieferschein / Packliste"],
        ["Delivery Note", "DELIVERY NOTE", "Packing Slip"],
    )
    carrier = rng.choice(
        [
            "DHL",
            "DPD",
            "UPS",
            "GLS",
            ctx.t("Spedition", "Haulier"),
            ctx.t("Eigene Zustellung", "Own delivery"),
        ]
    )
    packages = rng.randint(1, 12)
    weight = Decimal(rng.randint(5, 9000)) / 10
    ds = rng.randrange(3)
    rows = [
        (ctx.t("Lieferschein-Nr.", "Delivery note no."), number),
        (ctx.t("Datum", "Date"), fmt.date(ctx.today, ctx.locale, style=ds)),
        (ctx.t("Auftrag", "Order no."), inv.order_ref),
        (ctx.t("Kunden-Nr.", "Customer no."), inv.customer_no),
        (ctx.t("Versandart", "Shipped via"), carrier),
    ]
    deco = biz.footer(ctx, sender)
    pen = Pen(style, ctx.lang, decorate=deco, title=f"{title} {number}", author=sender.name)
    bottom = pen.height_mm - 34
    top = biz.letterhead(pen, ctx, sender)
    biz.address_window(pen, ctx, sender, ship_to, y=max(45.0, top + 6))
    biz.info_block(pen, rows, y=max(50.0, top + 10), boxed=style.table == "boxed")
    y = 100.0
    pen.text(
        biz.LEFT,
        y,
        f"{title} {number}" if rng.random() < 0.5 else title,
        size=14,
        weight="bold",
        heading=True,
    )
    y += 7
    y = (
        pen.paragraph(
            biz.LEFT,
            y,
            ctx.pick(
                [
                    "Wir liefern Ihnen gemäß Ihrer Bestellung folgende Artikel:",
                    "Folgende Waren wurden heute an Sie versandt:",
                ],
                [
                    "We are delivering the following items as per your order:",
                    "The following goods have been dispatched today:",
                ],
            ),
            170,
        )
        + 2
    )

    def restart() -> float:
        pen.text(biz.LEFT, 16, sender.name, size=9, weight="bold", color=style.accent)
        pen.text(pen.width_mm - 20, 16, f"{title} {number}", size=8, align="right")
        return 24.0

    cols = [
        Column(ctx.t("Pos.", "#"), 10, "right"),
        Column(ctx.t("Art.-Nr.", "Item no."), 24),
        Column(ctx.t("Bezeichnung", "Description"), 86),
        Column(ctx.t("Menge", "Qty"), 20, "right"),
        Column(ctx.t("Einheit", "Unit"), 18),
        Column(ctx.t("Geliefert", "Shipped"), 12, "center"),
    ]
    items = []
    rows_t = []
    for i, line in enumerate(inv.lines, start=1):
        rows_t.append(
            [
                str(i),
                line.sku,
                line.description,
                fmt.quantity(line.quantity, ctx.locale),
                line.unit,
                "✓" if style.font.startswith("dejavu") else "x",
            ]
        )
        items.append(
            {
                "sku": line.sku,
                "description": line.description,
                "quantity": str(line.quantity),
                "unit": line.unit,
            }
        )
    y = table(pen, biz.LEFT, y, cols, rows_t, bottom=bottom, restart=restart)
    if y > bottom - 45:
        pen.new_page()
        y = restart()
    y += 4
    pen.text(
        biz.LEFT,
        y,
        ctx.t(
            f"Anzahl Packstücke: {packages}    Gesamtgewicht: "
            f"{fmt.number(weight, ctx.locale, 1)} kg",
            f"Packages: {packages}    Total weight: {fmt.number(weight, ctx.locale, 1)} kg",
        ),
    )
    y += 6
    y = pen.paragraph(
        biz.LEFT,
        y,
        ctx.pick(
            [
                "Bitte prüfen Sie die Ware sofort nach Erhalt auf Vollständigkeit und Transportschäden. "
                "Die Rechnung erhalten Sie separat.",
                "Ware vollständig und in einwandfreiem Zustand erhalten.",
            ],
            [
                "Please check the goods for completeness and transport damage on receipt. The invoice "
                "will follow separately.",
                "Goods received complete and in good condition.",
            ],
        ),
        170,
    )
    _sign_lines(
        pen,
        ctx,
        y,
        [
            ctx.t("Datum", "Date"),
            ctx.t("Unterschrift Empfänger", "Recipient's signature"),
            ctx.t("Name in Druckbuchstaben", "Name (block capitals)"),
        ],
    )
    pdf, pages = pen.finish()
    return (
        pdf,
        pages,
        {
            "title": title,
            "tables": pen.tables,
            "deliveryNoteNumber": number,
            "date": ctx.today.isoformat(),
            "orderReference": inv.order_ref,
            "customerNumber": inv.customer_no,
            "sender": sender.truth(),
            # the window shows the delivery address; the billing address is not on the page
            "recipient": {
                "name": ship_to.name,
                "street": ship_to.street,
                "postalCode": ship_to.postal_code,
                "city": ship_to.city,
                "country": ship_to.country,
            },
            "shipTo": {
                "name": ship_to.name,
                "street": ship_to.street,
                "postalCode": ship_to.postal_code,
                "city": ship_to.city,
            },
            "carrier": carrier,
            "packages": packages,
            "items": items,
        },
    )


def render_purchase_order(ctx: Ctx, style: Style) -> tuple[bytes, int, dict[str, Any]]:
    rng = ctx.rng
    long_p = float(style.extra.get("long", 0.15))
    n = rng.randint(12, 35) if rng.random() < long_p else rng.randint(1, 8)
    # the ordering company is the "buyer" of an invoice turned around: it writes the letter
    data = make_invoice(ctx, n_lines=n)
    supplier, orderer = data.seller, data.buyer
    if ctx.seller_seed is not None:
        # a fixed issuer means the same company orders again: it writes this letter
        orderer, supplier = supplier, company(ctx.fake, rng, ctx.locale, bank=False)
    if orderer.vat_id is None and orderer.country == "DE":
        orderer.vat_id = de_vat_id(rng)
    if not orderer.phone:
        orderer.phone = ctx.fake.phone_number()
    number = rng.choice(
        [
            f"PO-{rng.randint(10000, 99999)}",
            f"B{ctx.today:%y}-{rng.randint(100, 9999)}",
            f"{rng.randint(4500000000, 4599999999)}",
        ]
    )
    title = ctx.pick(
        ["Bestellung", "BESTELLUNG", "Auftrag", "Einkaufsbestellung"],
        ["Purchase Order", "PURCHASE ORDER", "Order", "Purchase order"],
    )
    wanted = ctx.today + dt.timedelta(days=rng.randint(5, 40))
    ds = rng.randrange(3)
    cur, loc = data.currency, ctx.locale
    rows = [
        (ctx.t("Bestellnummer", "PO number"), number),
        (ctx.t("Bestelldatum", "Order date"), fmt.date(ctx.today, loc, style=ds)),
        (ctx.t("Lieferantennr.", "Supplier no."), f"{rng.randint(70000, 79999)}"),
        (ctx.t("Liefertermin", "Delivery date"), fmt.date(wanted, loc, style=ds)),
        (ctx.t("Ansprechpartner", "Buyer"), ctx.fake.name()),
    ]
    deco = biz.footer(ctx, orderer)
    pen = Pen(style, ctx.lang, decorate=deco, title=f"{title} {number}", author=orderer.name)
    bottom = pen.height_mm - 34
    top = biz.letterhead(pen, ctx, orderer)
    biz.address_window(pen, ctx, orderer, supplier, y=max(45.0, top + 6))
    biz.info_block(pen, rows, y=max(50.0, top + 10), boxed=style.table in ("boxed", "zebra"))
    y = 100.0
    pen.text(biz.LEFT, y, f"{title} {number}", size=14, weight="bold", heading=True)
    y += 7
    y = (
        pen.paragraph(
            biz.LEFT,
            y,
            ctx.pick(
                [
                    "Sehr geehrte Damen und Herren, hiermit bestellen wir zu den vereinbarten "
                    "Konditionen:",
                    "Bitte liefern Sie uns folgende Artikel:",
                ],
                [
                    "Dear Sir or Madam, please supply the following items on the agreed terms:",
                    "Please deliver the following goods:",
                ],
            ),
            170,
        )
        + 2
    )

    def restart() -> float:
        pen.text(biz.LEFT, 16, orderer.name, size=9, weight="bold", color=style.accent)
        pen.text(pen.width_mm - 20, 16, f"{title} {number}", size=8, align="right")
        return 24.0

    cols = [
        Column(ctx.t("Pos.", "#"), 9, "right"),
        Column(ctx.t("Art.-Nr.", "Item no."), 20),
        Column(ctx.t("Bezeichnung", "Description"), 67),
        Column(ctx.t("Menge", "Qty"), 16, "right"),
        Column(ctx.t("ME", "Unit"), 14),
        Column(ctx.t("Preis", "Price"), 20, "right"),
        Column(ctx.t("Betrag", "Amount"), 24, "right"),
    ]
    rows_t = [
        [
            str(i),
            line.sku,
            line.description,
            fmt.quantity(line.quantity, loc),
            line.unit,
            fmt.number(line.unit_price, loc),
            fmt.number(line.net, loc),
        ]
        for i, line in enumerate(data.lines, start=1)
    ]
    y = table(pen, biz.LEFT, y, cols, rows_t, bottom=bottom, restart=restart)
    if y > bottom - 50:
        pen.new_page()
        y = restart()
    y += 4
    pen.text(150, y, ctx.t("Bestellwert netto", "Order total (net)"), align="right", weight="bold")
    pen.text(190, y, fmt.money(data.net, cur, loc), align="right", weight="bold")
    y += 9
    terms = ctx.pick(
        [
            f"Lieferbedingungen: frei Haus. Zahlungsbedingungen: {data.terms_days} Tage netto. "
            "Bitte senden Sie uns eine Auftragsbestätigung und geben Sie die Bestellnummer auf "
            "allen Lieferpapieren und Rechnungen an.",
            "Es gelten unsere Allgemeinen Einkaufsbedingungen. Teillieferungen nur nach "
            "Absprache. Bitte bestätigen Sie Liefertermin und Preise umgehend.",
        ],
        [
            f"Delivery terms: carriage paid. Payment terms: net {data.terms_days} days. Please "
            "send an order confirmation and quote the PO number on all delivery notes and "
            "invoices.",
            "Our general terms of purchase apply. Partial deliveries only by arrangement. "
            "Please confirm delivery date and prices without delay.",
        ],
    )
    y = pen.paragraph(biz.LEFT, y, terms, 170) + 3
    pen.text(biz.LEFT, y + 3, ctx.t("Lieferanschrift:", "Deliver to:"), weight="bold")
    pen.lines(biz.LEFT, y + 8, [orderer.name, orderer.street, orderer.city_line()])
    _sign_lines(
        pen, ctx, y + 18, [ctx.t("Einkauf", "Purchasing"), ctx.t("Freigabe", "Approved by")]
    )
    pdf, pages = pen.finish()
    return (
        pdf,
        pages,
        {
            "title": title,
            "tables": pen.tables,
            "orderNumber": number,
            "orderDate": ctx.today.isoformat(),
            "deliveryDate": wanted.isoformat(),
            "currency": cur,
            "buyer": orderer.truth(),
            "seller": {k: v for k, v in supplier.truth().items() if k != "taxNumber"},
            "net": fmt.dec(data.net),
            "lineItems": [
                {k: v for k, v in line.truth().items() if k != "taxRate"} for line in data.lines
            ],
        },
    )


TEMPLATES: tuple[Template, ...] = (
    Template(
        "delivery-din-left",
        "delivery_note",
        render_delivery_note,
        Style(
            font="helvetica",
            palette="sky",
            logo="circle",
            header="left",
            table="grid",
            numbering="auto",
            extra={"long": 0.3},
        ),
    ),
    Template(
        "delivery-band",
        "delivery_note",
        render_delivery_note,
        Style(
            font="dejavu-sans",
            palette="forest",
            logo="bars",
            header="band",
            table="zebra",
            numbering="auto-slash",
        ),
    ),
    Template(
        "delivery-serif",
        "delivery_note",
        render_delivery_note,
        Style(
            font="times",
            palette="black",
            logo="wordmark",
            header="center",
            table="lines",
            numbering="dash",
            size=10,
        ),
    ),
    Template(
        "delivery-plain-mono",
        "delivery_note",
        render_delivery_note,
        Style(
            font="liberation-mono",
            palette="grey",
            logo="square",
            header="plain",
            table="plain",
            numbering="slash",
            size=8.5,
        ),
    ),
    Template(
        "delivery-sidebar",
        "delivery_note",
        render_delivery_note,
        Style(
            font="liberation-narrow",
            palette="orange",
            logo="triangle",
            header="sidebar",
            table="boxed",
            numbering="page-of",
            extra={"long": 0.3},
        ),
        held_out=True,
    ),
    Template(
        "delivery-right",
        "delivery_note",
        render_delivery_note,
        Style(
            font="dejavu-serif",
            palette="teal",
            logo="ring",
            header="right",
            table="grid",
            numbering="bare",
            letter_size=True,
        ),
        held_out=True,
    ),
    Template(
        "po-din",
        "purchase_order",
        render_purchase_order,
        Style(
            font="liberation-sans",
            palette="navy",
            logo="diamond",
            header="left",
            table="grid",
            numbering="auto",
            extra={"long": 0.25},
        ),
    ),
    Template(
        "po-band",
        "purchase_order",
        render_purchase_order,
        Style(
            font="helvetica",
            palette="purple",
            logo="circle",
            header="band",
            table="zebra",
            numbering="page-slash",
        ),
    ),
    Template(
        "po-serif",
        "purchase_order",
        render_purchase_order,
        Style(
            font="dejavu-serif",
            palette="crimson",
            logo="square",
            header="center",
            table="lines",
            numbering="dash",
        ),
    ),
    Template(
        "po-compact",
        "purchase_order",
        render_purchase_order,
        Style(
            font="dejavu-condensed",
            palette="gold",
            logo="bars",
            header="right",
            table="boxed",
            size=8.5,
        ),
    ),
    Template(
        "po-sidebar",
        "purchase_order",
        render_purchase_order,
        Style(
            font="vera",
            palette="teal",
            logo="wordmark",
            header="sidebar",
            table="plain",
            numbering="auto-slash",
            extra={"long": 0.3},
        ),
        held_out=True,
    ),
    Template(
        "po-plain",
        "purchase_order",
        render_purchase_order,
        Style(
            font="times",
            palette="grey",
            logo="triangle",
            header="plain",
            table="grid",
            numbering="seite-von",
            size=10.5,
        ),
        held_out=True,
    ),
)
