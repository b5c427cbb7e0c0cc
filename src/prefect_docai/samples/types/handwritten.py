"""Handwritten pages: notes, lists, messages and letters in handwriting faces, drawn glyph by
glyph with baseline wobble, size jitter, slant and drift, on plain, ruled or squared paper."""

from __future__ import annotations

import math
import random
from typing import Any

from reportlab.lib import colors
from reportlab.pdfbase.pdfmetrics import stringWidth

from prefect_docai.samples import catalog, fmt, fonts
from prefect_docai.samples.core import Ctx, Template
from prefect_docai.samples.render import Pen, Style

MM = 72 / 25.4
# some faces have a small x-height; scale them so all write at a similar visual size
_FACE_SCALE = {"Hand-Breip": 1.3, "Hand-Kristi": 1.45, "Hand-Femke": 1.1, "Hand-Humor": 0.9}
INKS = ("#1b2a8a", "#0d1b5e", "#222222", "#3b3b3b", "#123f8c")


def _content(ctx: Ctx, kind: str) -> list[str]:
    rng, fk = ctx.rng, ctx.fake
    first = fk.first_name()
    me = fk.first_name()
    day = fmt.date(ctx.today, ctx.locale, style=0)
    time = f"{rng.randint(8, 18)}:{rng.choice(['00', '15', '30', '45'])}"
    if kind == "list":
        items = rng.sample(catalog.GROCERIES, rng.randint(5, 11))
        head = ctx.pick(
            ["Einkaufsliste", "Einkaufen:", "Nicht vergessen!"],
            ["Shopping list", "To buy:", "Don't forget!"],
        )
        return [head] + [
            f"- {(a if ctx.de else b).split(' ')[0] if rng.random() < 0.3 else (a if ctx.de else b)}"
            for a, b, _p, _r in items
        ]
    if kind == "phone":
        caller = f"{fk.first_name()} {fk.last_name()}"
        return [
            ctx.t("Telefonnotiz", "Phone message"),
            f"{day}, {time}",
            ctx.t(f"Anruf von {caller}", f"{caller} called"),
            ctx.t("bittet um Rückruf unter", "please call back on"),
            fk.phone_number(),
            ctx.t("Es geht um die Rechnung vom letzten Monat.", "It's about last month's invoice."),
            f"- {me}",
        ]
    if kind == "todo":
        tasks_de = [
            "Angebot an Kunden schicken",
            "Reisekosten abrechnen",
            "Termin Zahnarzt",
            "Auto in die Werkstatt",
            "Geburtstagsgeschenk kaufen",
            "Steuererklärung",
            "Müll rausbringen",
            "Paket zur Post",
            "Hausverwaltung anrufen",
        ]
        tasks_en = [
            "Send quote to client",
            "Submit expenses",
            "Dentist appointment",
            "Car to the garage",
            "Buy birthday present",
            "Tax return",
            "Take the bins out",
            "Post the parcel",
            "Ring the landlord",
        ]
        tasks = rng.sample(tasks_de if ctx.de else tasks_en, rng.randint(4, 7))
        return [ctx.t("To-do", "To do") + f" ({day})"] + [f"[ ] {t}" for t in tasks]
    if kind == "letter":
        body_de = [
            f"Liebe/r {first},",
            "vielen Dank für deinen Brief und die schönen Fotos!",
            "Bei uns ist alles in Ordnung, die Kinder sind gesund",
            "und der Garten blüht.",
            "Wir freuen uns schon sehr auf euren Besuch",
            "im Sommer. Meldet euch, wenn",
            "ihr wisst, wann ihr kommt.",
            "",
            "Herzliche Grüße",
            me,
        ]
        body_en = [
            f"Dear {first},",
            "Thank you so much for your letter and the photos!",
            "All is well here, the children are fine",
            "and the garden is in bloom.",
            "We are really looking forward to your visit",
            "this summer. Let us know",
            "when you are coming.",
            "",
            "With love,",
            me,
        ]
        return [day] + (body_de if ctx.de else body_en)
    # note
    note_de = [
        f"Hallo {first},",
        f"bin um {time} zurück.",
        "Der Schlüssel liegt beim Nachbarn.",
        "Bitte die Blumen gießen und",
        "den Brief unten einwerfen.",
        "Danke! :)",
        me,
    ]
    note_en = [
        f"Hi {first},",
        f"back at {time}.",
        "The key is with the neighbours.",
        "Please water the plants and",
        "post the letter downstairs.",
        "Thanks! :)",
        me,
    ]
    return note_de if ctx.de else note_en


def _paper(pen: Pen, kind: str, pitch: float) -> None:
    """Draw the paper; ruled lines follow the writing pitch so text sits on them."""
    W, H = pen.width_mm, pen.height_mm
    if kind == "cream":
        pen.rect(0, 0, W, H, fill=colors.HexColor("#fbf6e6"))
    elif kind == "ruled":
        for k in range(int((H - 30) / pitch) + 1):
            pen.hline(0, W, 30 + k * pitch, color=colors.HexColor("#a9c4e8"), width=0.5)
        pen.vline(25, 0, H, color=colors.HexColor("#e88a8a"), width=0.7)
    elif kind == "squared":
        for k in range(int(H / 5) + 1):
            pen.hline(0, W, k * 5, color=colors.HexColor("#b8cce0"), width=0.3)
        for k in range(int(W / 5) + 1):
            pen.vline(k * 5, 0, H, color=colors.HexColor("#b8cce0"), width=0.3)
    elif kind == "sticky":
        pen.rect(0, 0, W, H, fill=colors.HexColor("#fff59d"))


def _write_line(
    pen: Pen,
    rng: random.Random,
    font: str,
    x: float,
    y: float,
    text: str,
    size: float,
    slant: float,
    ink: colors.Color,
) -> None:
    """One line of text, glyph by glyph: the pen wobbles, sizes vary, the line drifts."""
    c = pen.c
    c.saveState()
    c.translate(x * MM, pen.y(y))
    c.rotate(rng.uniform(-1.2, 1.2))
    c.skew(0, slant)
    c.setFillColor(ink)
    cx = 0.0
    drift = rng.uniform(-0.015, 0.015)
    wobble_phase = rng.uniform(0, 6.28)
    for i, ch in enumerate(text):
        s = size * rng.uniform(0.93, 1.07)
        dy = (
            0.35 * MM * rng.uniform(-1, 1)
            + drift * cx
            + 0.5 * MM * math.sin(wobble_phase + i * 0.45)
        )
        c.setFont(font, s)
        c.drawString(cx, dy, ch)
        cx += stringWidth(ch, font, s) * rng.uniform(0.96, 1.08)
        if ch == " ":
            cx += rng.uniform(0, 0.8) * MM
    c.restoreState()


def render(ctx: Ctx, style: Style) -> tuple[bytes, int, dict[str, Any]]:
    rng = ctx.rng
    kind = str(style.extra.get("kind") or rng.choice(["note", "list", "phone", "todo", "letter"]))
    paper = str(style.extra.get("paper", "plain"))
    lines = _content(ctx, kind)
    need_umlauts = any(ch in "".join(lines) for ch in "äöüÄÖÜß")
    hf = fonts.hand_font(
        int(style.extra.get("font", 0)) + rng.randrange(2), need_umlauts=need_umlauts
    )
    font = hf.name if hf else style.fam().italic
    if hf is not None:
        lines = [hf.fit(line) for line in lines]
    size = float(style.extra.get("size", 17)) * rng.uniform(0.9, 1.1) * _FACE_SCALE.get(font, 1)
    if paper == "sticky":
        pagesize = (100 * MM, 100 * MM)
        size *= 0.75
    elif paper == "a5":
        pagesize = (148 * MM, 210 * MM)
    else:
        pagesize = None
    pen = Pen(style, ctx.lang, pagesize=pagesize, title=lines[0])
    pitch = size / MM * rng.uniform(1.3, 1.5)
    if paper == "squared":
        pitch = 5.0 * max(2, round(pitch / 5))
    _paper(pen, paper, pitch)
    ink = colors.HexColor(rng.choice(INKS))
    slant = rng.uniform(-12, 8) + float(style.extra.get("slant", 0))
    margin = 30.0 if paper == "ruled" else rng.uniform(8, 20)
    y = 30.0 + pitch - 1.2 if paper == "ruled" else rng.uniform(14, 28)
    room = (pen.width_mm - margin - 8) * MM
    wrapped: list[str] = []
    for line in lines:
        # wrap greedily at word boundaries; glyph jitter widens a line by up to ~8 %
        words, current = line.split(" "), ""
        for word in words:
            trial = f"{current} {word}".strip()
            if current and stringWidth(trial, font, size) * 1.08 > room:
                wrapped.append(current)
                current = word
            else:
                current = trial
        wrapped.append(current)
    written = []
    for line in wrapped:
        if y > pen.height_mm - 12:
            break
        if line:
            indent = rng.uniform(-1.5, 2.5)
            if line.startswith("[ ]"):
                pen.c.setStrokeColor(ink)
                pen.c.rect((margin + indent) * MM, pen.y(y), 3.5 * MM, 3.5 * MM)
                line_text = line[4:]
                _write_line(pen, rng, font, margin + indent + 6, y, line_text, size, slant, ink)
                if rng.random() < 0.35:
                    pen.c.line(
                        (margin + indent) * MM,
                        pen.y(y - 1),
                        (margin + indent + 3.5) * MM,
                        pen.y(y - 4),
                    )
                written.append(line_text)
            else:
                _write_line(pen, rng, font, margin + indent, y, line, size, slant, ink)
                written.append(line)
        y += pitch
    pdf, pages = pen.finish()
    return (
        pdf,
        pages,
        {
            "title": written[0] if written else "",
            "kind": kind,
            "lines": written,
            "font": font,
            "paper": paper,
            "date": ctx.today.isoformat(),
        },
    )


TEMPLATES: tuple[Template, ...] = (
    Template(
        "hand-note-plain",
        "handwritten",
        render,
        Style(extra={"paper": "plain", "font": 0, "size": 24}),
    ),
    Template(
        "hand-ruled", "handwritten", render, Style(extra={"paper": "ruled", "font": 2, "size": 20})
    ),
    Template(
        "hand-squared-list",
        "handwritten",
        render,
        Style(extra={"paper": "squared", "font": 4, "size": 19, "kind": "list"}),
    ),
    Template(
        "hand-sticky",
        "handwritten",
        render,
        Style(extra={"paper": "sticky", "font": 1, "size": 16}),
    ),
    Template(
        "hand-letter-cream",
        "handwritten",
        render,
        Style(extra={"paper": "cream", "font": 3, "size": 20, "kind": "letter"}),
    ),
    Template(
        "hand-a5-slanted",
        "handwritten",
        render,
        Style(extra={"paper": "a5", "font": 5, "size": 17, "slant": 8}),
        held_out=True,
    ),
    Template(
        "hand-ruled-todo",
        "handwritten",
        render,
        Style(extra={"paper": "ruled", "font": 1, "size": 21, "kind": "todo", "slant": -6}),
        held_out=True,
    ),
)
