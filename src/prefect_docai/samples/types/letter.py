"""Business and private letters (DIN 5008 / British and US layouts)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from reportlab.lib import colors

from prefect_docai.samples import business as biz
from prefect_docai.samples import fmt, fonts, texts
from prefect_docai.samples.core import Ctx, Template
from prefect_docai.samples.parties import Party, company, customer, person
from prefect_docai.samples.render import Pen, Style


def facts(ctx: Ctx) -> dict[str, str]:
    """Placeholder values for wording bank entries, fixed once per document."""
    rng = ctx.rng
    job = rng.choice(texts.JOBS)
    currency = "EUR" if ctx.de else ("GBP" if ctx.locale == "en_GB" else "USD")
    return {
        "company": ctx.fake.company(),
        "name": ctx.fake.name(),
        "date": fmt.date(ctx.today, ctx.locale, style=1),
        "number": f"{rng.randint(100000, 9999999)}",
        "amount": fmt.money(fmt.q2(Decimal(rng.randint(5000, 250000)) / 100), currency, ctx.locale),
        "city": ctx.fake.city(),
        "product": job[0] if ctx.de else job[1],
    }


def signature(pen: Pen, ctx: Ctx, x: float, y: float, name: str) -> None:
    """A scribbled signature: the name in a handwriting face, slanted, or a drawn squiggle."""
    hf = fonts.hand_font(ctx.rng.randrange(16), need_umlauts=True)
    c = pen.c
    if hf is not None and ctx.rng.random() < 0.8:
        c.saveState()
        c.translate(x * 2.8346, pen.y(y))
        c.rotate(ctx.rng.uniform(2, 9))
        c.setFont(hf.name, ctx.rng.uniform(16, 22))
        c.setFillColor(colors.HexColor(ctx.rng.choice(["#1a2a80", "#111111", "#0b3d91"])))
        c.drawString(0, 0, hf.fit(name.split()[-1] if ctx.rng.random() < 0.5 else name))
        c.restoreState()
        return
    c.saveState()
    c.setStrokeColor(colors.HexColor("#1a2a80"))
    c.setLineWidth(1)
    p = c.beginPath()
    px, py = x * 2.8346, pen.y(y)
    p.moveTo(px, py)
    for _ in range(8):
        p.curveTo(
            px + ctx.rng.uniform(2, 10),
            py + ctx.rng.uniform(-8, 12),
            px + ctx.rng.uniform(8, 16),
            py + ctx.rng.uniform(-10, 8),
            px + ctx.rng.uniform(10, 20),
            py + ctx.rng.uniform(-3, 3),
        )
        px += ctx.rng.uniform(8, 16)
    c.drawPath(p, stroke=1, fill=0)
    c.restoreState()


def render(ctx: Ctx, style: Style) -> tuple[bytes, int, dict[str, Any]]:
    rng = ctx.rng
    casual = rng.random() < 0.15
    private = bool(style.extra.get("private", False)) or (casual and ctx.seller_seed is None)
    sender: Party = (
        person(ctx.fake, rng, ctx.locale) if private else ctx.issuer(bank=rng.random() < 0.6)
    )
    recipient = (
        customer(ctx.fake, rng, ctx.locale)
        if not private
        else company(ctx.fake, rng, ctx.locale, bank=False)
    )
    topics = list(texts.LETTER_TOPICS)
    topic = rng.choice(topics)
    de_subj, de_pars, en_subj, en_pars = texts.LETTER_TOPICS[topic]
    values = facts(ctx)
    subject = (de_subj if ctx.de else en_subj).format(**values)
    paragraphs = [p.format(**values) for p in (de_pars if ctx.de else en_pars)]
    if rng.random() < float(style.extra.get("long", 0.15)):
        # a long letter takes up further matters, each once, so it runs onto a second page
        for name in rng.sample([t for t in topics if t != topic], 4):
            other = texts.LETTER_TOPICS[name]
            paragraphs += [p.format(**values) for p in (other[1] if ctx.de else other[3])]
    first, last = ctx.fake.first_name(), ctx.fake.last_name()
    greeting = rng.choice(texts.GREETINGS_DE if ctx.de else texts.GREETINGS_EN).format(
        first=first, last=last
    )
    closing = rng.choice(texts.CLOSINGS_DE if ctx.de else texts.CLOSINGS_EN)
    signer = ctx.fake.name() if not private else sender.name

    deco = None if private else biz.footer(ctx, sender)
    pen = Pen(style, ctx.lang, decorate=deco, title=subject, author=sender.name)
    bottom = pen.height_mm - (36 if deco else 22)
    if private:
        pen.lines(
            pen.width_mm - 20,
            18,
            [*sender.address_lines(ctx.lang), sender.phone],
            align="right",
            leading=4.4,
        )
        top = 40.0
    else:
        top = biz.letterhead(pen, ctx, sender)
    biz.address_window(pen, ctx, sender, recipient, y=max(45.0, top + 6))
    city = sender.city
    date_text = fmt.date(ctx.today, ctx.locale, style=rng.randrange(2))
    pen.text(
        pen.width_mm - 20,
        92,
        f"{city}, {date_text}" if ctx.de and rng.random() < 0.6 else date_text,
        align="right",
    )
    y = 103.0
    if not ctx.de and rng.random() < 0.5:
        pen.text(biz.LEFT, y, ctx.t("", "Re: ") + subject, weight="bold")
    else:
        pen.text(biz.LEFT, y, subject, weight="bold")
    y += 10
    y = pen.paragraph(biz.LEFT, y, greeting, 170) + 2

    def restart() -> float:
        return 25.0

    for par in paragraphs:
        y = (
            pen.paragraph(
                biz.LEFT, y, par, 168, bottom=bottom, on_break=restart, leading=pen.style.size * 0.5
            )
            + 2.5
        )
    if y > bottom - 25:
        pen.new_page()
        y = restart()
    y = pen.paragraph(biz.LEFT, y + 2, closing, 170)
    if not private and rng.random() < 0.5:
        y = pen.paragraph(biz.LEFT, y, sender.name, 170)
    signature(pen, ctx, biz.LEFT + 2, y + 10, signer)
    pen.text(biz.LEFT, y + 17, signer)
    if rng.random() < 0.4:
        pen.text(biz.LEFT, y + 27, ctx.t("Anlage", "Enclosure"), size=pen.style.size - 1)
    pdf, pages = pen.finish()
    return (
        pdf,
        pages,
        {
            "title": subject,
            "subject": subject,
            "topic": topic,
            "date": ctx.today.isoformat(),
            "sender": {
                "name": sender.name,
                "street": sender.street,
                "postalCode": sender.postal_code,
                "city": sender.city,
                "country": sender.country,
            },
            "recipient": {
                "name": recipient.name,
                "street": recipient.street,
                "postalCode": recipient.postal_code,
                "city": recipient.city,
                "country": recipient.country,
            },
            "greeting": greeting,
            "closing": closing,
            "signer": signer,
        },
    )


TEMPLATES: tuple[Template, ...] = (
    Template(
        "letter-din-left",
        "letter",
        render,
        Style(
            font="helvetica",
            palette="navy",
            logo="circle",
            header="left",
            numbering="dash",
            size=10.5,
        ),
    ),
    Template(
        "letter-serif-center",
        "letter",
        render,
        Style(
            font="times",
            palette="crimson",
            logo="diamond",
            header="center",
            numbering="auto",
            size=11,
        ),
    ),
    Template(
        "letter-band",
        "letter",
        render,
        Style(
            font="liberation-sans",
            palette="teal",
            logo="bars",
            header="band",
            numbering="auto-slash",
            size=10,
        ),
    ),
    Template(
        "letter-private",
        "letter",
        render,
        Style(font="dejavu-sans", palette="grey", header="plain", size=10, extra={"private": True}),
    ),
    Template(
        "letter-right-sans",
        "letter",
        render,
        Style(
            font="dejavu-condensed",
            palette="forest",
            logo="square",
            header="right",
            numbering="dash",
            size=10.5,
            extra={"long": 0.25},
        ),
    ),
    Template(
        "letter-sidebar",
        "letter",
        render,
        Style(
            font="liberation-serif",
            palette="purple",
            logo="ring",
            header="sidebar",
            numbering="page-of",
            size=11,
        ),
        held_out=True,
    ),
    Template(
        "letter-private-serif",
        "letter",
        render,
        Style(
            font="dejavu-serif",
            palette="black",
            header="plain",
            size=10,
            letter_size=True,
            extra={"private": True},
        ),
        held_out=True,
    ),
)
