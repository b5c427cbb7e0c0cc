"""Bank statements: account header, transaction table with running balance, old/new balance."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from babel.dates import format_date
from reportlab.lib import colors

from prefect_docai.samples import fmt
from prefect_docai.samples.core import Ctx, Template
from prefect_docai.samples.fmt import dec
from prefect_docai.samples.parties import bank_account, company, person
from prefect_docai.samples.render import Column, Pen, Style, table

LEFT = 18.0
WIDTH = 174.0

_DEBITS_DE = (
    "Kartenzahlung {shop}",
    "SEPA-Lastschrift {company} Strom",
    "Miete {month}",
    "Dauerauftrag Sparplan",
    "Bargeldauszahlung Geldautomat",
    "Überweisung an {person}",
    "SEPA-Lastschrift {company} Mobilfunk",
    "Kartenzahlung Tankstelle",
    "Lastschrift Versicherung {company}",
    "PayPal Europe S.a.r.l.",
)
_DEBITS_EN = (
    "Card payment {shop}",
    "Direct debit {company} Energy",
    "Rent {month}",
    "Standing order Savings",
    "Cash withdrawal ATM",
    "Transfer to {person}",
    "Direct debit {company} Mobile",
    "Card payment Petrol station",
    "Direct debit Insurance {company}",
    "PayPal payment",
)
_CREDITS_DE = (
    "Gehalt {month} {company}",
    "Gutschrift {person}",
    "Erstattung {company}",
    "Zinsgutschrift",
)
_CREDITS_EN = ("Salary {month} {company}", "Transfer from {person}", "Refund {company}", "Interest")
_SHOPS = (
    "REWE",
    "EDEKA",
    "ALDI",
    "LIDL",
    "dm-drogerie",
    "IKEA",
    "Amazon",
    "Tesco",
    "Sainsbury's",
    "Boots",
)


@dataclass
class _Tx:
    booking: dt.date
    value: dt.date
    description: str
    reference: str
    amount: Decimal
    balance: Decimal


def render(ctx: Ctx, style: Style) -> tuple[bytes, int, dict[str, Any]]:
    rng = ctx.rng
    loc = ctx.locale
    country = "DE" if ctx.de else "GB"
    holder = person(ctx.fake, rng, ctx.locale)
    iban, bic, bank_name = bank_account(rng, country)
    bank_branch = company(ctx.fake, rng, ctx.locale, bank=False)
    currency = "EUR" if country == "DE" else "GBP"
    period_end = ctx.today
    period_start = period_end - dt.timedelta(days=rng.choice([14, 30, 30, 91]))
    number = f"{rng.randint(1, 12)}/{period_end.year}"
    opening = Decimal(rng.randint(-50000, 800000)) / 100
    long_p = float(style.extra.get("long", 0.3))
    n = rng.randint(25, 70) if rng.random() < long_p else rng.randint(5, 18)
    days = sorted(
        period_start + dt.timedelta(days=rng.randint(0, (period_end - period_start).days))
        for _ in range(n)
    )
    month = str(format_date(period_start, format="MMMM", locale=loc))
    tx: list[_Tx] = []
    balance = opening
    for day in days:
        credit = rng.random() < 0.2
        bank_de = _CREDITS_DE if credit else _DEBITS_DE
        bank_en = _CREDITS_EN if credit else _DEBITS_EN
        text = str(rng.choice(bank_de if ctx.de else bank_en)).format(
            shop=rng.choice(_SHOPS),
            company=ctx.fake.last_name(),
            person=ctx.fake.name(),
            month=month,
        )
        amount = Decimal(rng.randint(150, 300000 if credit else 60000)) / 100
        amount = amount if credit else -amount
        balance += amount
        value_day = day + dt.timedelta(days=rng.choice([0, 0, 0, 1, 2]))
        ref = f"{ctx.t('Ref.', 'Ref')} {rng.randint(10**9, 10**10 - 1)}"
        tx.append(_Tx(day, value_day, text, ref, amount, balance))
    closing = balance

    pen = Pen(
        style, ctx.lang, title=f"{ctx.t('Kontoauszug', 'Statement')} {number}", author=bank_name
    )
    size = style.size
    bottom = pen.height_mm - 28

    def deco_head(y: float) -> float:
        pen.logo(LEFT, 10, bank_name, size=12)
        pen.text(LEFT + 16, 17, bank_name, size=12, weight="bold", color=style.accent)
        pen.text(
            pen.width_mm - 18,
            14,
            ctx.t("Kontoauszug", "Statement of account"),
            size=12,
            weight="bold",
            align="right",
        )
        pen.text(
            pen.width_mm - 18, 19, ctx.t(f"Nr. {number}", f"No. {number}"), size=9, align="right"
        )
        return y

    deco_head(0)
    pen.lines(LEFT, 45, holder.address_lines(ctx.lang), leading=4.6)
    info = [
        (ctx.t("Kontoinhaber", "Account holder"), holder.name),
        ("IBAN", " ".join(iban[i : i + 4] for i in range(0, len(iban), 4))),
        ("BIC", bic),
        (
            ctx.t("Zeitraum", "Period"),
            f"{fmt.date(period_start, loc)} – {fmt.date(period_end, loc)}",
        ),
        (ctx.t("Währung", "Currency"), currency),
    ]
    pen.rect(108, 40, WIDTH + LEFT - 108, len(info) * 5 + 4, fill=style.tint)
    yy = 45.0
    for label, value in info:
        pen.text(111, yy, label, size=size - 1)
        pen.text(pen.width_mm - 20, yy, value, size=size - 1, align="right")
        yy += 5
    y = 80.0
    pen.text(
        LEFT,
        y,
        ctx.t("Alter Kontostand", "Opening balance") + f" {fmt.date(period_start, loc)}",
        weight="bold",
    )
    pen.text(LEFT + WIDTH, y, fmt.money(opening, currency, loc), weight="bold", align="right")
    y += 6
    layout = str(style.extra.get("layout", "signed"))

    def restart() -> float:
        pen.text(
            LEFT,
            14,
            f"{bank_name} · {ctx.t('Kontoauszug', 'Statement')} {number} · IBAN {iban}",
            size=7.5,
            color=colors.HexColor("#666666"),
        )
        return 22.0

    if layout == "split":
        cols = [
            Column(ctx.t("Datum", "Date"), 22),
            Column(ctx.t("Buchungstext", "Description"), 78),
            Column(ctx.t("Belastung", "Paid out"), 25, "right"),
            Column(ctx.t("Gutschrift", "Paid in"), 24, "right"),
            Column(ctx.t("Saldo", "Balance"), 25, "right"),
        ]
        rows = [
            [
                fmt.date(t.booking, loc),
                t.description,
                fmt.number(-t.amount, loc) if t.amount < 0 else "",
                fmt.number(t.amount, loc) if t.amount > 0 else "",
                fmt.number(t.balance, loc),
            ]
            for t in tx
        ]
    else:
        cols = [
            Column(ctx.t("Buchung", "Booked"), 20),
            Column(ctx.t("Valuta", "Value"), 20),
            Column(ctx.t("Vorgang / Verwendungszweck", "Transaction / reference"), 104),
            Column(ctx.t("Betrag", "Amount"), 30, "right"),
        ]
        rows = []
        for t in tx:
            sign = "+" if t.amount > 0 else "-"
            rows.append(
                [
                    t.booking.strftime("%d.%m." if ctx.de else "%d/%m"),
                    t.value.strftime("%d.%m." if ctx.de else "%d/%m"),
                    f"{t.description} {t.reference}",
                    f"{sign}{fmt.number(abs(t.amount), loc)}",
                ]
            )
    y = table(pen, LEFT, y, cols, rows, bottom=bottom, restart=restart, size=size - 0.5)
    if y > bottom - 20:
        pen.new_page()
        y = restart()
    y += 4
    pen.hline(LEFT, LEFT + WIDTH, y - 3, width=0.8)
    pen.text(
        LEFT,
        y + 2,
        ctx.t("Neuer Kontostand", "Closing balance") + f" {fmt.date(period_end, loc)}",
        weight="bold",
    )
    pen.text(LEFT + WIDTH, y + 2, fmt.money(closing, currency, loc), weight="bold", align="right")
    y += 12
    pen.paragraph(
        LEFT,
        y,
        ctx.t(
            "Bitte prüfen Sie diesen Kontoauszug. Einwendungen gegen Rechnungsabschlüsse müssen "
            "innerhalb von sechs Wochen nach Zugang erhoben werden. Guthaben sind als Einlagen "
            "nach Maßgabe des Einlagensicherungsgesetzes entschädigungsfähig.",
            "Please check this statement carefully and tell us about any errors as soon as "
            "possible. Eligible deposits are protected by the Financial Services Compensation "
            "Scheme.",
        ),
        WIDTH,
        size=size - 1.5,
    )
    pen.text(
        LEFT,
        pen.height_mm - 8,
        f"{bank_name} · {bank_branch.street} · {bank_branch.city_line()} · BIC {bic}",
        size=6.5,
        color=colors.HexColor("#666666"),
    )
    pdf, pages = pen.finish()
    return (
        pdf,
        pages,
        {
            "title": ctx.t("Kontoauszug", "Statement"),
            "tables": pen.tables,
            "bankName": bank_name,
            "statementNumber": number,
            "accountHolder": holder.name,
            "iban": iban,
            "bic": bic,
            "currency": currency,
            "periodStart": period_start.isoformat(),
            "periodEnd": period_end.isoformat(),
            "openingBalance": dec(opening),
            "closingBalance": dec(closing),
            "transactions": [
                {
                    "bookingDate": t.booking.isoformat(),
                    "valueDate": t.value.isoformat(),
                    "description": t.description,
                    "reference": t.reference,
                    "amount": dec(t.amount),
                    "balance": dec(t.balance),
                }
                for t in tx
            ],
        },
    )


def _template(template_id: str, style: Style, *, held_out: bool = False) -> Template:
    # statements in English are British: IBAN, sort of bank and GBP only make sense there
    return Template(
        template_id, "bank_statement", render, style, held_out=held_out, en_locales=("en_GB",)
    )


TEMPLATES: tuple[Template, ...] = (
    _template(
        "statement-sparkasse-like",
        Style(
            font="helvetica",
            palette="crimson",
            logo="square",
            table="lines",
            numbering="auto",
            size=9,
            extra={"layout": "signed"},
        ),
    ),
    _template(
        "statement-split-columns",
        Style(
            font="liberation-sans",
            palette="navy",
            logo="circle",
            table="zebra",
            numbering="page-of",
            numbering_pos="bottom-right",
            size=9,
            extra={"layout": "split", "long": 0.4},
        ),
    ),
    _template(
        "statement-mono",
        Style(
            font="dejavu-mono",
            palette="grey",
            logo="bars",
            table="plain",
            numbering="slash",
            size=8,
            extra={"layout": "signed"},
        ),
    ),
    _template(
        "statement-green",
        Style(
            font="dejavu-sans",
            palette="forest",
            logo="diamond",
            table="grid",
            numbering="auto-slash",
            size=8.5,
            extra={"layout": "split"},
        ),
    ),
    _template(
        "statement-serif",
        Style(
            font="dejavu-serif",
            palette="sky",
            logo="ring",
            table="boxed",
            numbering="dash",
            size=8.5,
            extra={"layout": "split", "long": 0.4},
        ),
        held_out=True,
    ),
    _template(
        "statement-narrow",
        Style(
            font="liberation-narrow",
            palette="gold",
            logo="triangle",
            table="lines",
            numbering="seite-von",
            size=9.5,
            letter_size=True,
            extra={"layout": "signed"},
        ),
        held_out=True,
    ),
)
