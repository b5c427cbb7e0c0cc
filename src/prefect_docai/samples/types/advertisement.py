"""Advertisements and flyers: large type, coloured blocks, prices, call to action."""

from __future__ import annotations

import datetime as dt
import math
from decimal import ROUND_FLOOR, Decimal
from typing import Any

from reportlab.lib import colors

from prefect_docai.samples import catalog, fmt
from prefect_docai.samples.core import Ctx, Template
from prefect_docai.samples.parties import ascii_name
from prefect_docai.samples.render import PALETTES, Pen, Style

HEADLINES = (
    ("GROSSER SOMMERSCHLUSSVERKAUF", "BIG SUMMER SALE"),
    ("Neueröffnung!", "Grand Opening!"),
    ("Nur diese Woche", "This Week Only"),
    ("Jetzt zugreifen!", "Don't miss out!"),
    ("Alles muss raus!", "Everything must go!"),
    ("Frühlingsangebote", "Spring Specials"),
    ("Black Friday Deals", "Black Friday Deals"),
)
CTAS = (
    ("Jetzt bestellen unter {web}", "Order now at {web}"),
    ("Rufen Sie uns an: {phone}", "Call us today: {phone}"),
    ("Besuchen Sie uns in {city}!", "Visit us in {city}!"),
    ("Gutschein ausschneiden und sparen!", "Cut out the coupon and save!"),
)


def _starburst(pen: Pen, x: float, y: float, r: float, color: colors.Color, text: str) -> None:
    c = pen.c
    cx, cy = x * 2.8346, pen.y(y)
    path = c.beginPath()
    points = 18
    for i in range(points * 2 + 1):
        angle = math.pi * i / points
        rad = (r if i % 2 == 0 else r * 0.78) * 2.8346
        px, py = cx + rad * math.cos(angle), cy + rad * math.sin(angle)
        if i == 0:
            path.moveTo(px, py)
        else:
            path.lineTo(px, py)
    path.close()
    c.setFillColor(color)
    c.drawPath(path, stroke=0, fill=1)
    pen.text(
        x,
        y + 3,
        text,
        size=r * 1.3,
        weight="bold",
        color=colors.white,
        align="center",
        heading=True,
    )


def render(ctx: Ctx, style: Style) -> tuple[bytes, int, dict[str, Any]]:
    rng = ctx.rng
    loc = ctx.locale
    currency = "EUR" if ctx.de else ("GBP" if loc == "en_GB" else "USD")
    shop = (
        ctx.fake.company()
        if rng.random() < 0.5
        else ctx.t(f"{ctx.fake.last_name()} Möbelhaus", f"{ctx.fake.last_name()} Home Store")
    )
    web = f"www.{ascii_name(shop.split()[0].lower())[:14] or 'shop'}.{'de' if ctx.de else 'com'}"
    phone = ctx.fake.phone_number()
    city = ctx.fake.city()
    headline = rng.choice(HEADLINES)[0 if ctx.de else 1]
    cta = rng.choice(CTAS)[0 if ctx.de else 1].format(web=web, phone=phone, city=city)
    discount = rng.choice([10, 15, 20, 25, 30, 40, 50, 70])
    valid = ctx.today + dt.timedelta(days=rng.randint(5, 30))
    pool = list(catalog.PRODUCTS) + [(a, b, "pc", r, red) for a, b, r, red in catalog.HARDWARE]
    products: list[tuple[str, Decimal, Decimal]] = []
    for de, en, _unit, (low, high), _red in rng.sample(pool, rng.randint(2, 6)):
        old = Decimal(rng.randint(int(low * 100), int(high * 100)) // 100 * 100 + 99) / 100
        exact = old * (100 - discount) / 100
        # shop prices end in .99 where the discount leaves room for it
        new = exact.to_integral_value(rounding=ROUND_FLOOR) - Decimal("0.01")
        if new < Decimal("0.5"):
            new = fmt.q2(exact)
        products.append((de if ctx.de else en, new, old))

    accent = style.accent
    second = colors.HexColor(PALETTES[str(style.extra.get("second", "gold"))][0])
    pen = Pen(style, ctx.lang, title=headline, author=shop)
    W, H = pen.width_mm, pen.height_mm
    layout = str(style.extra.get("layout", "poster"))
    if layout == "poster":
        pen.rect(0, 0, W, 80, fill=accent)
        pen.text(
            W / 2,
            38,
            headline,
            size=34 if len(headline) < 18 else 24,
            weight="bold",
            color=colors.white,
            align="center",
            heading=True,
        )
        pen.text(
            W / 2,
            56,
            ctx.t(f"bis zu {discount} % Rabatt auf alles", f"up to {discount}% off everything"),
            size=18,
            color=colors.white,
            align="center",
        )
        _starburst(pen, W - 35, 90, 20, second, f"-{discount}%")
        y = 100.0
    elif layout == "split":
        pen.rect(0, 0, 70, H, fill=accent)
        pen.text(8, 40, shop[:22], size=14, weight="bold", color=colors.white)
        for k, word in enumerate(headline.split()):
            pen.text(8, 70 + k * 14, word, size=22, weight="bold", color=colors.white, heading=True)
        _starburst(pen, 35, 190, 22, second, f"-{discount}%")
        y = 25.0
    else:  # "flyer": headline in coloured type, products in a grid of tinted cards
        pen.text(
            W / 2,
            30,
            headline.upper(),
            size=30,
            weight="bold",
            color=accent,
            align="center",
            heading=True,
        )
        pen.rect(20, 38, W - 40, 12, fill=second)
        pen.text(
            W / 2,
            46.5,
            ctx.t(f"Gültig bis {fmt.date(valid, loc)}", f"Valid until {fmt.date(valid, loc)}"),
            size=14,
            weight="bold",
            color=colors.white,
            align="center",
        )
        y = 60.0
    x0 = 80.0 if layout == "split" else 20.0
    avail = W - x0 - 20
    cols = 2
    card_w = (avail - 8) / cols
    card_h = 42.0
    shown = []
    for i, (name, price, old_price) in enumerate(products):
        cx = x0 + (i % cols) * (card_w + 8)
        cy = y + (i // cols) * (card_h + 8)
        if cy + card_h > H - 50:
            break
        shown.append((name, price, old_price))
        pen.rect(cx, cy, card_w, card_h, fill=style.tint, radius=3)
        for line_no, line in enumerate(pen.wrap(name, card_w - 8, size=11)[:2]):
            pen.text(cx + 4, cy + 9 + line_no * 5, line, size=11, weight="bold")
        pen.text(
            cx + 4,
            cy + 24,
            ctx.t("statt ", "was ") + fmt.money(old_price, currency, loc),
            size=9,
            color=colors.HexColor("#666666"),
        )
        pen.text(
            cx + card_w - 4,
            cy + 36,
            fmt.money(price, currency, loc),
            size=22,
            weight="bold",
            color=accent,
            align="right",
            heading=True,
        )
    if "oupon" in cta or "Gutschein" in cta:
        c = pen.c
        c.saveState()
        c.setDash(4, 3)
        pen.rect(x0 + avail / 2 - 45, H - 82, 90, 30, stroke=colors.black, width=1)
        c.restoreState()
        amount = fmt.money(Decimal(rng.choice([5, 10, 15, 20])), currency, loc, style=0)
        pen.text(
            x0 + avail / 2,
            H - 70,
            ctx.t("GUTSCHEIN", "COUPON"),
            size=16,
            weight="bold",
            align="center",
        )
        pen.text(
            x0 + avail / 2,
            H - 59,
            ctx.t(f"{amount} Rabatt ab 50 € Einkauf", f"{amount} off when you spend 50"),
            size=10,
            align="center",
        )
    pen.rect(x0, H - 45, avail, 16, fill=accent, radius=2)
    pen.text(
        x0 + avail / 2,
        H - 34.5,
        cta,
        size=15 if len(cta) < 40 else 12,
        weight="bold",
        color=colors.white,
        align="center",
    )
    pen.text(x0 + avail / 2, H - 20, f"{shop} · {city} · {phone} · {web}", size=8, align="center")
    pen.text(
        x0 + avail / 2,
        H - 15,
        ctx.t(
            f"Angebote gültig bis {fmt.date(valid, loc)}. Nur solange der Vorrat reicht. "
            "Abgabe in haushaltsüblichen Mengen.",
            f"Offers valid until {fmt.date(valid, loc)} while stocks last.",
        ),
        size=6.5,
        align="center",
        color=colors.HexColor("#666666"),
    )
    pdf, pages = pen.finish()
    return (
        pdf,
        pages,
        {
            "title": headline,
            "headline": headline,
            "advertiser": shop,
            "callToAction": cta,
            "discountPercent": discount,
            "validUntil": valid.isoformat(),
            "currency": currency,
            "products": [
                {"name": name, "price": fmt.dec(price), "oldPrice": fmt.dec(old)}
                for name, price, old in shown
            ],
        },
    )


TEMPLATES: tuple[Template, ...] = (
    Template(
        "ad-poster-red",
        "advertisement",
        render,
        Style(font="helvetica", palette="crimson", extra={"layout": "poster"}),
    ),
    Template(
        "ad-split-blue",
        "advertisement",
        render,
        Style(font="dejavu-sans", palette="sky", extra={"layout": "split", "second": "orange"}),
    ),
    Template(
        "ad-flyer-green",
        "advertisement",
        render,
        Style(font="liberation-sans", palette="forest", extra={"layout": "flyer"}),
    ),
    Template(
        "ad-poster-purple",
        "advertisement",
        render,
        Style(
            font="dejavu-condensed", palette="purple", extra={"layout": "poster", "second": "teal"}
        ),
    ),
    Template(
        "ad-flyer-orange",
        "advertisement",
        render,
        Style(
            font="liberation-narrow",
            heading_font="dejavu-serif",
            palette="orange",
            extra={"layout": "flyer", "second": "navy"},
        ),
        held_out=True,
    ),
    Template(
        "ad-split-black",
        "advertisement",
        render,
        Style(
            font="times",
            heading_font="helvetica",
            palette="black",
            letter_size=True,
            extra={"layout": "split", "second": "crimson"},
        ),
        held_out=True,
    ),
)
