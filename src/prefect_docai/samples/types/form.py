"""Forms: titled sections of labelled boxes, comb fields, checkboxes and signature lines,
partly filled in by typewriter-like text or by hand."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from reportlab.lib import colors

from prefect_docai.samples import fmt, fonts
from prefect_docai.samples.core import Ctx, Template
from prefect_docai.samples.parties import bank_account, person
from prefect_docai.samples.render import Pen, Style

LEFT = 18.0
WIDTH = 174.0

FORMS = (
    ("Antrag auf Erstattung von Reisekosten", "Travel Expense Claim Form"),
    ("Anmeldung zum Sportverein", "Membership Application"),
    ("SEPA-Lastschriftmandat", "Direct Debit Instruction"),
    ("Änderungsmitteilung Adresse / Bankverbindung", "Change of Address and Bank Details"),
    ("Schadensmeldung Hausratversicherung", "Home Insurance Claim Form"),
    ("Antrag auf Urlaub", "Annual Leave Request"),
    ("Anmeldung Kinderbetreuung", "Childcare Registration Form"),
)
CHECKS = (
    ("Erstantrag", "First application"),
    ("Folgeantrag", "Renewal"),
    ("Ich bin mit der Speicherung meiner Daten einverstanden", "I consent to my data being stored"),
    ("Newsletter abonnieren", "Subscribe to newsletter"),
    ("per E-Mail", "by e-mail"),
    ("per Post", "by post"),
    ("Vollzeit", "Full-time"),
    ("Teilzeit", "Part-time"),
    ("Barzahlung", "Cash"),
    ("Überweisung", "Bank transfer"),
    ("Unterlagen liegen bei", "Documents enclosed"),
)


def _hand(ctx: Ctx) -> fonts.HandFont | None:
    return fonts.hand_font(ctx.rng.randrange(16), need_umlauts=ctx.de)


def render(ctx: Ctx, style: Style) -> tuple[bytes, int, dict[str, Any]]:
    rng = ctx.rng
    loc = ctx.locale
    title = rng.choice(FORMS)[0 if ctx.de else 1]
    who = person(ctx.fake, rng, ctx.locale)
    iban = bank_account(rng, "DE" if ctx.de else "GB")[0]
    birth = ctx.today - dt.timedelta(days=rng.randint(18 * 365, 75 * 365))
    fill_mode = str(style.extra.get("fill", "mixed"))  # typed | hand | mixed | blank
    hand = _hand(ctx) if fill_mode in ("hand", "mixed") else None
    hand_face = hand.name if hand else None
    fields = [
        (
            ctx.t("Name, Vorname", "Surname, first name"),
            f"{who.name.split()[-1]}, {' '.join(who.name.split()[:-1])}",
        ),
        (ctx.t("Geburtsdatum", "Date of birth"), fmt.date(birth, loc)),
        (ctx.t("Straße, Hausnummer", "Street address"), who.street),
        (
            ctx.t("PLZ, Ort", "Postcode, town") if ctx.de or loc == "en_GB" else "City, State, ZIP",
            who.city_line(),
        ),
        (ctx.t("Telefon", "Telephone"), who.phone),
        (
            ctx.t("E-Mail", "Email"),
            f"{who.name.split()[0].lower()}@example.{'de' if ctx.de else 'com'}",
        ),
    ]
    extra = [
        (ctx.t("Mitgliedsnummer", "Reference number"), f"{rng.randint(100000, 999999)}"),
        (
            ctx.t("Betrag", "Amount"),
            fmt.money(Decimal(rng.randint(1000, 90000)) / 100, "EUR" if ctx.de else "GBP", loc),
        ),
        (
            ctx.t("Beginn", "Start date"),
            fmt.date(ctx.today + dt.timedelta(days=rng.randint(5, 60)), loc),
        ),
        (ctx.t("Bemerkungen", "Comments"), ""),
    ]
    rng.shuffle(extra)
    fields += extra[: rng.randint(1, 4)]
    pen = Pen(style, ctx.lang, title=title)
    size = style.size
    # header: issuer block and form id
    issuer = ctx.fake.company()
    pen.logo(LEFT, 10, issuer, size=11)
    pen.text(LEFT + 14, 17, issuer, size=9, weight="bold")
    form_id = f"{ctx.t('Formular', 'Form')} {rng.choice('ABCFKMZ')}{rng.randint(10, 999)}"
    pen.text(LEFT + WIDTH, 14, form_id, size=7.5, align="right")
    pen.text(
        LEFT + WIDTH, 18, f"{ctx.t('Stand', 'Version')} {ctx.today:%m/%Y}", size=7.5, align="right"
    )
    band = style.extra.get("band", True)
    if band:
        pen.rect(LEFT, 25, WIDTH, 11, fill=style.accent)
        pen.text(LEFT + 3, 32.5, title, size=size + 4, weight="bold", color=colors.white)
    else:
        pen.text(LEFT, 33, title, size=size + 5, weight="bold")
        pen.hline(LEFT, LEFT + WIDTH, 36, width=1.5)
    y = 44.0
    pen.paragraph(
        LEFT,
        y,
        ctx.t(
            "Bitte in Druckbuchstaben ausfüllen und Zutreffendes ankreuzen.",
            "Please complete in BLOCK CAPITALS and tick where applicable.",
        ),
        WIDTH,
        size=size - 1,
    )
    y += 7
    pen.text(LEFT, y, ctx.t("1. Angaben zur Person", "1. Personal details"), weight="bold")
    y += 3
    filled: list[dict[str, Any]] = []
    box_h = 10.0
    two_col = bool(style.extra.get("two_col", False))
    col_w = WIDTH / 2 - 2 if two_col else WIDTH
    for i, (label, value) in enumerate(fields):
        x = LEFT + (i % 2) * (col_w + 4) if two_col else LEFT
        if two_col and i % 2 == 1:
            y -= box_h + 2
        pen.rect(
            x,
            y,
            col_w,
            box_h,
            stroke=colors.HexColor("#444444"),
            width=0.5,
            fill=style.tint if style.extra.get("shaded") else None,
        )
        pen.text(x + 1.5, y + 3, label, size=6.5, color=colors.HexColor("#333333"))
        show = value if (fill_mode != "blank" and value and rng.random() < 0.9) else ""
        if show:
            face = (
                hand_face if (hand_face and (fill_mode == "hand" or rng.random() < 0.5)) else None
            )
            if face and hand:
                show = hand.fit(show)
                pen.text(
                    x + 3 + rng.uniform(0, 4),
                    y + 8.3 + rng.uniform(-0.6, 0.4),
                    show,
                    size=size + 2.5,
                    font=face,
                    color=colors.HexColor("#1a2a80"),
                )
            else:
                pen.text(
                    x + 3,
                    y + 8,
                    show.upper() if rng.random() < 0.3 else show,
                    size=size,
                    font="Courier",
                )
        filled.append({"label": label, "value": show or None})
        y += box_h + 2
    # comb field for the IBAN
    y += 4
    pen.text(LEFT, y, ctx.t("2. Bankverbindung", "2. Bank details"), weight="bold")
    y += 3
    pen.text(LEFT, y + 3.5, "IBAN", size=7)
    cell = 4.6
    show_iban = fill_mode != "blank"
    for k in range(len(iban)):
        cx = LEFT + 12 + k * cell + (k // 4) * 1.5
        pen.rect(cx, y, cell, 6.5, stroke=colors.HexColor("#444444"), width=0.4)
        if show_iban:
            pen.text(
                cx + cell / 2,
                y + 5,
                iban[k],
                size=size,
                align="center",
                font=hand_face if hand_face and fill_mode == "hand" else "Courier",
            )
    filled.append({"label": "IBAN", "value": iban if show_iban else None})
    y += 14
    pen.text(LEFT, y, ctx.t("3. Angaben", "3. Details"), weight="bold")
    y += 6
    checks = rng.sample(CHECKS, rng.randint(4, 7))
    boxes = []
    for i, (de, en) in enumerate(checks):
        x = LEFT + (i % 2) * (WIDTH / 2)
        if i % 2 == 0 and i:
            y += 7
        pen.rect(x, y - 3.2, 3.8, 3.8, stroke=colors.black, width=0.6)
        checked = fill_mode != "blank" and rng.random() < 0.45
        if checked:
            c = pen.c
            c.setStrokeColor(colors.HexColor("#1a2a80" if hand_face else "#000000"))
            c.setLineWidth(1.1)
            c.line((x + 0.4) * 2.8346, pen.y(y - 2.8), (x + 3.4) * 2.8346, pen.y(y + 0.2))
            c.line((x + 0.4) * 2.8346, pen.y(y + 0.2), (x + 3.4) * 2.8346, pen.y(y - 2.8))
        pen.text(x + 6, y, de if ctx.de else en, size=size - 0.5)
        boxes.append({"label": de if ctx.de else en, "checked": checked})
    y += 14
    if y < pen.height_mm - 70:
        pen.text(
            LEFT, y, ctx.t("4. Begründung / Anmerkungen", "4. Reason / remarks"), weight="bold"
        )
        y += 4
        for _ in range(3):
            y += 7
            pen.hline(LEFT, LEFT + WIDTH, y, color=colors.HexColor("#888888"), width=0.4)
    y = max(y + 18, pen.height_mm - 45)
    pen.hline(LEFT, LEFT + 60, y, width=0.5)
    pen.hline(LEFT + 80, LEFT + WIDTH, y, width=0.5)
    pen.text(LEFT, y + 4, ctx.t("Ort, Datum", "Place, date"), size=7)
    pen.text(LEFT + 80, y + 4, ctx.t("Unterschrift", "Signature"), size=7)
    if fill_mode != "blank":
        place = f"{who.city}, {fmt.date(ctx.today, loc)}"
        pen.text(
            LEFT + 2,
            y - 2,
            hand.fit(place) if hand else place,
            size=size + 1,
            font=hand_face or "Courier",
            color=colors.HexColor("#1a2a80"),
        )
        if hand:
            pen.text(
                LEFT + 85,
                y - 2,
                hand.fit(who.name),
                size=size + 6,
                font=hand.name,
                color=colors.HexColor("#1a2a80"),
            )
    pen.text(
        LEFT,
        pen.height_mm - 12,
        ctx.t(
            "Hinweise zum Datenschutz finden Sie auf der Rückseite.",
            "See overleaf for our privacy notice.",
        ),
        size=6.5,
        color=colors.HexColor("#666666"),
    )
    pdf, pages = pen.finish()
    return (
        pdf,
        pages,
        {
            "title": title,
            "issuer": issuer,
            "formId": form_id,
            "fields": filled,
            "checkboxes": boxes,
            "filledBy": fill_mode if fill_mode != "mixed" else ("hand" if hand_face else "typed"),
        },
    )


TEMPLATES: tuple[Template, ...] = (
    Template(
        "form-band",
        "form",
        render,
        Style(font="helvetica", palette="navy", logo="square", size=9.5, extra={"fill": "typed"}),
    ),
    Template(
        "form-two-column",
        "form",
        render,
        Style(
            font="liberation-sans",
            palette="forest",
            logo="circle",
            size=9,
            extra={"fill": "mixed", "two_col": True, "shaded": True},
        ),
    ),
    Template(
        "form-handfilled",
        "form",
        render,
        Style(
            font="dejavu-sans",
            palette="crimson",
            logo="diamond",
            size=9,
            extra={"fill": "hand", "band": False},
        ),
    ),
    Template(
        "form-blank",
        "form",
        render,
        Style(
            font="times",
            palette="black",
            logo="wordmark",
            size=10,
            extra={"fill": "blank", "band": False},
        ),
    ),
    Template(
        "form-shaded-narrow",
        "form",
        render,
        Style(
            font="liberation-narrow",
            palette="purple",
            logo="bars",
            size=9.5,
            extra={"fill": "mixed", "shaded": True},
        ),
        held_out=True,
    ),
    Template(
        "form-two-column-serif",
        "form",
        render,
        Style(
            font="dejavu-serif",
            palette="teal",
            logo="ring",
            size=8.5,
            letter_size=True,
            extra={"fill": "hand", "two_col": True, "band": False},
        ),
        held_out=True,
    ),
)
