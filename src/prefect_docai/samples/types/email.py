"""Printed e-mails: mail-client print layouts with a From/To/Subject/Date header block."""

from __future__ import annotations

import datetime as dt
from typing import Any

from reportlab.lib import colors

from prefect_docai.samples import fmt, texts
from prefect_docai.samples.core import Ctx, Template
from prefect_docai.samples.parties import ascii_name
from prefect_docai.samples.render import Pen, Style

LEFT = 18.0
WIDTH = 174.0
GREY = colors.HexColor("#666666")


def _address(ctx: Ctx, name: str, domain: str) -> str:
    first, *rest = name.split()
    last = rest[-1] if rest else "x"
    local = ctx.rng.choice([f"{first}.{last}", f"{first[0]}.{last}", f"{last}"])
    parts = [ascii_name(part) for part in local.lower().split(".")]
    return f"{'.'.join(p for p in parts if p) or 'info'}@{domain}"


def _domain(ctx: Ctx, company: str) -> str:
    tld = {"de_DE": "de", "en_GB": "co.uk", "en_US": "com"}[ctx.locale]
    return f"{ascii_name(company.split()[0].lower())[:16] or 'mail'}.{tld}"


def render(ctx: Ctx, style: Style) -> tuple[bytes, int, dict[str, Any]]:
    rng = ctx.rng
    client = str(style.extra.get("client", "outlook"))
    de_subj, de_body, en_subj, en_body = rng.choice(texts.EMAIL_TOPICS)
    number = f"{rng.randint(10000, 999999)}"
    values = {
        "number": number,
        "date": fmt.date(ctx.today + dt.timedelta(days=rng.randint(2, 20)), ctx.locale, style=0),
        "name": ctx.fake.name(),
    }
    subject = (de_subj if ctx.de else en_subj).format(**values)
    body = [p.format(**values) for p in (de_body if ctx.de else en_body)]
    sender_co, recipient_co = ctx.fake.company(), ctx.fake.company()
    sender = f"{ctx.fake.first_name()} {ctx.fake.last_name()}"
    recipient = f"{ctx.fake.first_name()} {ctx.fake.last_name()}"
    s_addr = _address(ctx, sender, _domain(ctx, sender_co))
    r_addr = _address(ctx, recipient, _domain(ctx, recipient_co))
    cc = f"{ctx.fake.first_name()} {ctx.fake.last_name()}" if rng.random() < 0.4 else None
    sent = dt.datetime.combine(ctx.today, dt.time(rng.randint(7, 19), rng.randint(0, 59)))
    attachments = []
    if rng.random() < 0.4:
        attachments.append(
            rng.choice(
                [
                    f"{ctx.t('Angebot', 'Quote')}_{number}.pdf",
                    "Protokoll.docx" if ctx.de else "minutes.docx",
                    f"IMG_{rng.randint(1000, 9999)}.jpg",
                ]
            )
        )
    if ctx.de:
        sent_text = (
            f"{fmt.date(sent.date(), ctx.locale, style=1)} {sent:%H:%M}"
            if client != "gmail"
            else f"{sent:%d.%m.%Y, %H:%M}"
        )
        labels = {
            "from": "Von",
            "sent": "Gesendet" if client == "outlook" else "Datum",
            "to": "An",
            "cc": "Cc",
            "subject": "Betreff",
            "att": "Anlagen",
        }
    else:
        sent_text = (
            f"{fmt.date(sent.date(), ctx.locale, style=1)} {sent:%H:%M}"
            if client != "gmail"
            else f"{sent:%a, %d %b %Y at %H:%M}"
        )
        labels = {
            "from": "From",
            "sent": "Sent" if client == "outlook" else "Date",
            "to": "To",
            "cc": "Cc",
            "subject": "Subject",
            "att": "Attachments",
        }
    header = [
        (labels["from"], f"{sender} <{s_addr}>"),
        (labels["sent"], sent_text),
        (labels["to"], f"{recipient} <{r_addr}>"),
    ]
    if cc:
        header.append((labels["cc"], cc))
    header.append((labels["subject"], subject))
    if attachments:
        header.append((labels["att"], ", ".join(attachments)))

    def deco(pen: Pen, page: int, total: int) -> None:
        if client == "gmail":
            pen.text(LEFT - 8, 8, f"{sent:%d.%m.%y, %H:%M}", size=7.5)
            pen.text(pen.width_mm / 2, 8, f"Gmail - {subject}"[:70], size=7.5, align="center")
            pen.text(
                LEFT - 8,
                pen.height_mm - 8,
                f"https://mail.google.com/mail/u/0/?ik={rng.randint(10**9, 10**10)}",
                size=7,
            )
            pen.text(
                pen.width_mm - 10, pen.height_mm - 8, f"{page}/{total}", size=7.5, align="right"
            )

    pen = Pen(style, ctx.lang, decorate=deco, title=subject, author=sender)
    size = style.size
    y = 20.0
    if client == "outlook":
        pen.text(LEFT, y, recipient, size=14, weight="bold")
        pen.hline(LEFT, LEFT + WIDTH, y + 3, width=2.2)
        y += 11
    elif client == "gmail":
        pen.text(LEFT, y, "Gmail", size=16, color=colors.HexColor("#c5221f"))
        pen.text(LEFT + WIDTH, y, f"{recipient} <{r_addr}>", size=8.5, align="right")
        pen.hline(LEFT, LEFT + WIDTH, y + 3, color=colors.HexColor("#bbbbbb"))
        y += 12
        pen.text(LEFT, y, subject, size=14)
        y += 9
    elif client == "thunderbird":
        pen.rect(LEFT - 2, y - 5, WIDTH + 4, len(header) * 5 + 4, fill=colors.HexColor("#eef1f5"))
    label_w = max(pen.width(lbl + ":", size, "bold") for lbl, _ in header) + 4
    if client == "gmail":
        pen.text(LEFT, y, sender, weight="bold")
        pen.text(LEFT + pen.width(sender, size, "bold") + 2, y, f"<{s_addr}>", color=GREY)
        pen.text(LEFT + WIDTH, y, sent_text, align="right", size=size - 1)
        y += 5
        pen.text(
            LEFT, y, ctx.t("An: ", "To: ") + f"{recipient} <{r_addr}>", size=size - 1, color=GREY
        )
        y += 9
    else:
        for lbl, value in header:
            pen.text(LEFT, y, lbl + ":", weight="bold")
            pen.text(LEFT + label_w, y, value)
            y += 5
        y += 4
        if client != "thunderbird":
            pen.hline(LEFT, LEFT + WIDTH, y - 3, color=colors.HexColor("#aaaaaa"), width=0.4)
    y += 3
    bottom = pen.height_mm - 22
    first = recipient.split()[0]
    greeting = rng.choice(
        [f"Hallo {first},", f"Guten Tag {recipient},", "Sehr geehrte Damen und Herren,"]
        if ctx.de
        else [f"Hi {first},", f"Dear {recipient},", f"Hello {first},"]
    )
    y = pen.paragraph(LEFT, y, greeting, WIDTH) + 2
    for par in body:
        y = pen.paragraph(LEFT, y, par, WIDTH, bottom=bottom, on_break=lambda: 20.0) + 2
    signoff = rng.choice(texts.EMAIL_SIGNOFFS_DE if ctx.de else texts.EMAIL_SIGNOFFS_EN)
    y = pen.lines(LEFT, y + 2, [signoff, sender], leading=size * 0.45)
    y += 3
    sig = [
        "--",
        sender,
        sender_co,
        ctx.t("Tel.: ", "Tel: ") + ctx.fake.phone_number(),
        f"www.{s_addr.split('@')[1]}",
    ]
    y = pen.lines(LEFT, y, sig, size=size - 1.5, color=GREY, leading=size * 0.4)
    if rng.random() < float(style.extra.get("quote", 0.5)):
        y += 6
        old_sent = sent - dt.timedelta(days=rng.randint(1, 5), hours=rng.randint(0, 8))
        if ctx.de:
            intro = [
                "-----Ursprüngliche Nachricht-----",
                f"Von: {recipient} <{r_addr}>",
                f"Gesendet: {fmt.date(old_sent.date(), ctx.locale, style=1)} {old_sent:%H:%M}",
                f"An: {sender} <{s_addr}>",
                f"Betreff: {subject}",
            ]
        else:
            intro = [
                f"On {fmt.date(old_sent.date(), ctx.locale, style=1)} at {old_sent:%H:%M}, "
                f"{recipient} <{r_addr}> wrote:"
            ]
        if y > bottom - 30:
            pen.new_page()
            y = 20.0
        y = pen.lines(LEFT, y, intro, size=size - 0.5, leading=size * 0.45)
        y += 2
        old = rng.choice(texts.EMAIL_TOPICS)
        for par in old[1] if ctx.de else old[3]:
            quoted = "> " + par.format(**values)
            y = (
                pen.paragraph(
                    LEFT + 3,
                    y,
                    quoted,
                    WIDTH - 3,
                    size=size - 0.5,
                    bottom=bottom,
                    on_break=lambda: 20.0,
                )
                + 1
            )
    pdf, pages = pen.finish()
    return (
        pdf,
        pages,
        {
            "title": subject,
            "subject": subject,
            "from": {"name": sender, "address": s_addr},
            "to": [{"name": recipient, "address": r_addr}],
            "cc": [cc] if cc else [],
            "sent": sent.isoformat(timespec="minutes"),
            "attachments": attachments,
            "client": client,
        },
    )


TEMPLATES: tuple[Template, ...] = (
    Template(
        "email-outlook",
        "email",
        render,
        Style(font="liberation-sans", size=10, extra={"client": "outlook"}),
    ),
    Template(
        "email-gmail",
        "email",
        render,
        Style(font="dejavu-sans", size=9.5, extra={"client": "gmail"}),
    ),
    Template(
        "email-thunderbird",
        "email",
        render,
        Style(
            font="dejavu-sans",
            size=9.5,
            numbering="auto-slash",
            numbering_pos="bottom-right",
            extra={"client": "thunderbird"},
        ),
    ),
    Template(
        "email-plain-mono",
        "email",
        render,
        Style(font="courier", size=9.5, numbering="auto", extra={"client": "plain", "quote": 0.7}),
    ),
    Template(
        "email-outlook-serif",
        "email",
        render,
        Style(
            font="times", size=11, numbering="page-slash", extra={"client": "outlook", "quote": 0.7}
        ),
        held_out=True,
    ),
    Template(
        "email-thunderbird-narrow",
        "email",
        render,
        Style(
            font="liberation-narrow", size=10.5, letter_size=True, extra={"client": "thunderbird"}
        ),
        held_out=True,
    ),
)
