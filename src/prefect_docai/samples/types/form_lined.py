"""Office forms in the older style: underlined "Label: ____" fields filled by typewriter,
numbered questions with dotted leaders and ( X ) marks, option grids, approval blocks with
signatures, file paths and Bates-like numbers in the margins."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from reportlab.lib import colors
from reportlab.pdfbase.pdfmetrics import stringWidth

from prefect_docai.samples import fmt, fonts
from prefect_docai.samples.core import Ctx, Template
from prefect_docai.samples.render import Pen, Style
from prefect_docai.samples.types.letter import signature

LEFT = 20.0
WIDTH = 170.0
TYPE = "Courier"
INK = colors.HexColor("#1a2a80")
MM = 72 / 25.4

TITLES = (
    ("ÄNDERUNG DER GENEHMIGTEN KOSTEN", "CHANGE OF AUTHORIZED COST"),
    ("PROJEKTANTRAG", "PROJECT REQUEST"),
    ("VORLÄUFIGES DATENBLATT", "PRELIMINARY FACT SHEET"),
    ("ANTRAG AUF KOSTENÜBERNAHME", "REQUEST FOR REIMBURSEMENT"),
    ("ÜBERMITTLUNGSFORMULAR", "TRANSMITTAL FORM"),
    ("FRAGEBOGEN ZUR LIEFERANTENBEWERTUNG", "SUPPLIER EVALUATION QUESTIONNAIRE"),
    ("PRÜFAUFTRAG", "TEST REQUEST FORM"),
)

# key, German label, English label
FIELDS = (
    ("date", "Datum", "Date"),
    ("name", "Name", "Name"),
    ("street", "Anschrift", "Address"),
    ("city", "PLZ / Ort", "City"),
    ("phone", "Telefon", "Telephone"),
    ("brand", "Produkt", "Brand Name"),
    ("supplier", "Lieferant", "Supplier"),
    ("project", "Projekt-Nr.", "Project No."),
    ("dept", "Abteilung", "Department"),
    ("requester", "Antragsteller", "Requested by"),
    ("amount", "Betrag", "Amount"),
    ("budget", "Budget gesamt", "Total Area Budget"),
    ("cost", "Kostenstelle", "Cost Center"),
    ("start", "Beginn", "Start Date"),
    ("end", "Fertigstellung", "Completion Date"),
    ("account", "Kontoname", "Account Name"),
    ("fax", "Fax", "Fax"),
    ("pages", "Seiten (inkl. Deckblatt)", "No. of Pages (incl. cover)"),
)
OPTION_SETS = (
    (
        ("Sofort", "Hoch", "Mittel", "Niedrig"),
        ("Immediate", "High", "Medium", "Low"),
        ("Priorität", "Priority"),
    ),
    (
        ("Neuentwicklung", "Wartung", "Sonderauswertung", "Notfall"),
        ("Enhancement", "Maintenance", "Special Processing", "Emergency"),
        ("Art der Anfrage", "Request Type"),
    ),
    (("Ja", "Nein"), ("Yes", "No"), ("Muster beigefügt", "Samples enclosed")),
    (
        ("Zur Kenntnis", "Zur Prüfung", "Bitte Rückruf", "Bitte antworten"),
        ("For your information", "For review", "Please call", "Please reply"),
        ("Hinweis", "Note"),
    ),
)
APPROVALS = (
    ("Eingereicht von", "Submitted By"),
    ("Geprüft von", "Reviewed By"),
    ("Genehmigt von", "Approved By"),
    ("Freigabe", "Authorized By"),
)


def _value(ctx: Ctx, key: str) -> str:
    fk, rng, loc = ctx.fake, ctx.rng, ctx.locale
    money = "EUR" if ctx.de else "USD"
    values: dict[str, Callable[[], str]] = {
        "date": lambda: fmt.date(
            ctx.today - dt.timedelta(days=rng.randint(0, 30)), loc, style=rng.randrange(3)
        ),
        "name": lambda: f"{fk.first_name()} {fk.last_name()}",
        "street": lambda: (
            f"{fk.street_name()} {rng.randint(1, 120)}"
            if ctx.de
            else f"{rng.randint(1, 9999)} {fk.street_name()}"
        ),
        "city": lambda: f"{fk.postcode()} {fk.city()}" if ctx.de else fk.city(),
        "phone": fk.phone_number,
        "brand": lambda: f"{fk.last_name().upper()} {rng.choice(['100', 'LIGHT', 'PLUS', 'MAX'])}",
        "supplier": fk.company,
        "project": lambda: f"{ctx.today.year}-{rng.randint(10, 999)}{rng.choice('ABX')}",
        "dept": lambda: rng.choice(
            ["Marketing", "Vertrieb", "Einkauf", "IT", "Forschung"]
            if ctx.de
            else ["Marketing", "Sales", "Purchasing", "MIS", "Research"]
        ),
        "requester": lambda: f"{fk.first_name()[0]}. {fk.last_name()}",
        "amount": lambda: fmt.money(Decimal(rng.randint(100, 900000)) / 10, money, loc),
        "budget": lambda: fmt.number(Decimal(rng.randint(10000, 9000000)), loc, 0),
        "cost": lambda: f"{rng.randint(1000, 9999)}",
        "start": lambda: fmt.date(ctx.today + dt.timedelta(days=rng.randint(1, 60)), loc),
        "end": lambda: fmt.date(ctx.today + dt.timedelta(days=rng.randint(61, 300)), loc),
        "account": fk.company,
        "fax": fk.phone_number,
        "pages": lambda: str(rng.randint(1, 12)),
    }
    return values[key]()


def _field(
    pen: Pen, x: float, y: float, label: str, value: str | None, width: float, face: str
) -> None:
    pen.text(x, y, label + ":", size=9, weight="bold" if pen.style.extra.get("bold") else "regular")
    start = x + pen.width(label + ":", 9) + 2
    pen.hline(start, x + width, y + 0.8, width=0.4)
    if value:
        hand = face != TYPE
        pen.text(
            start + 2,
            y - 0.3,
            value,
            size=12 if hand else 9.5,
            font=face,
            color=INK if hand else colors.black,
        )


def render(ctx: Ctx, style: Style) -> tuple[bytes, int, dict[str, Any]]:
    rng = ctx.rng
    title = rng.choice(TITLES)[0 if ctx.de else 1]
    hand = (
        fonts.hand_font(rng.randrange(16), need_umlauts=ctx.de) if style.extra.get("hand") else None
    )
    face = hand.name if hand else TYPE
    pen = Pen(style, ctx.lang, title=title)
    y = 22.0
    if style.extra.get("to_from"):
        for label_de, label_en in (("An", "TO"), ("Von", "FROM"), ("Betreff", "SUBJECT")):
            pen.text(LEFT, y, (label_de if ctx.de else label_en) + ":", size=9, weight="bold")
            pen.text(
                LEFT + 25,
                y,
                f"{ctx.fake.first_name()[0]}. {ctx.fake.last_name()}"
                if label_en != "SUBJECT"
                else title.title(),
                size=9.5,
                font=TYPE,
            )
            y += 6
        y += 4
    pen.text(pen.width_mm / 2, y, title, size=11, weight="bold", align="center")
    w = pen.width(title, 11, "bold")
    pen.hline(pen.width_mm / 2 - w / 2, pen.width_mm / 2 + w / 2, y + 1, width=0.6)
    y += 6
    if rng.random() < 0.5:
        sub = ctx.t(
            f"(Gemäß Richtlinie Nr. {rng.randint(2, 40)})",
            f"(See General Order No. {rng.randint(2, 40)})",
        )
        pen.text(pen.width_mm / 2, y, sub, size=9, align="center", font=TYPE)
        y += 5
    y += 6
    fields_out: list[dict[str, Any]] = []
    keys = list(FIELDS)
    rng.shuffle(keys)
    chosen = keys[: rng.randint(7, 11)]
    numbered = bool(style.extra.get("numbered"))
    pairs = bool(style.extra.get("pairs"))
    i = 0
    qn = 1
    while i < len(chosen):
        if numbered and i % 3 == 0:
            pen.text(LEFT, y, f"{qn}.", size=9.5, font=TYPE)
            q = (
                ctx.t("Bitte vollständig ausfüllen:", "Please complete in full:")
                if qn > 1
                else ctx.t("Angaben zum Antragsteller:", "Name, address and telephone number:")
            )
            pen.text(LEFT + 8, y, q, size=9.5, font=TYPE)
            y += 7
            qn += 1
        row = chosen[i : i + (2 if pairs else 1)]
        width = WIDTH / len(row) - 4
        for k, (key, de, en) in enumerate(row):
            value = _value(ctx, key) if rng.random() < 0.88 else None
            if value and hand:
                value = hand.fit(value)
            _field(
                pen,
                LEFT + (8 if numbered else 0) + k * (width + 4),
                y,
                de if ctx.de else en,
                value,
                width - (8 if numbered else 0),
                face,
            )
            fields_out.append({"label": de if ctx.de else en, "value": value})
        i += len(row)
        y += 8
    y += 4
    checks_out: list[dict[str, Any]] = []
    for options_de, options_en, (head_de, head_en) in rng.sample(OPTION_SETS, 2):
        options = options_de if ctx.de else options_en
        pen.text(
            LEFT,
            y,
            f"{qn}. "
            + (head_de if ctx.de else head_en)
            + ctx.t(" (Zutreffendes ankreuzen):", " (check appropriate boxes):"),
            size=9.5,
            font=TYPE,
        )
        qn += 1
        y += 6
        marked = rng.randrange(len(options))
        for k, option in enumerate(options):
            label = f"({'abcdefgh'[k]}) {option}"
            room = 117 - stringWidth(label, TYPE, 9.5) / MM
            dots = "." * max(3, int(room / (stringWidth(".", TYPE, 9.5) / MM)))
            pen.text(LEFT + 6, y, f"{label}{dots}", size=9.5, font=TYPE)
            mark = "X" if k == marked else " "
            pen.text(LEFT + 125, y, f"( {mark} )", size=9.5, font=TYPE)
            checks_out.append({"label": option, "checked": k == marked})
            y += 5
        y += 4
    y = max(y + 4, pen.height_mm - 70)
    approvals: list[str] = []
    for de, en in APPROVALS[: rng.randint(2, 4)]:
        label = de if ctx.de else en
        pen.text(LEFT, y, label, size=9)
        pen.hline(LEFT + 30, LEFT + 95, y + 0.8, width=0.4)
        pen.text(LEFT + 105, y, ctx.t("Datum", "Date"), size=9)
        pen.hline(LEFT + 117, LEFT + 150, y + 0.8, width=0.4)
        if rng.random() < 0.7:
            who = ctx.fake.last_name()
            signature(pen, ctx, LEFT + 34, y - 1, who)
            pen.text(
                LEFT + 119,
                y - 0.5,
                ctx.today.strftime("%d.%m.%y" if ctx.de else "%m/%d/%y"),
                size=10,
                font=hand.name if hand else TYPE,
                color=INK,
            )
            approvals.append(who)
        y += 9
    if style.extra.get("margins", True):
        path = f"K:\\{rng.choice(['CLIENTS', 'FORMS', 'PROJ'])}\\{title.split()[0][:8]}.DOC"
        pen.text(LEFT, pen.height_mm - 16, path, size=6.5)
        bates = f"{rng.randint(10**9, 10**10 - 1)}"
        c = pen.c
        c.saveState()
        c.translate((pen.width_mm - 10) * MM, pen.y(pen.height_mm * 0.55))
        c.rotate(90)
        c.setFont("Helvetica", 9)
        c.drawString(0, 0, bates)
        c.restoreState()
    pdf, pages = pen.finish()
    return (
        pdf,
        pages,
        {
            "title": title,
            "fields": fields_out,
            "checkboxes": checks_out,
            "signedBy": approvals,
            "filledBy": "hand" if hand else "typed",
        },
    )


TEMPLATES: tuple[Template, ...] = (
    Template(
        "form-lined-typewriter",
        "form",
        render,
        Style(font="courier", extra={"numbered": True}),
        en_locales=("en_US",),
    ),
    Template(
        "form-lined-pairs",
        "form",
        render,
        Style(font="helvetica", extra={"pairs": True, "bold": True, "to_from": True}),
    ),
    Template(
        "form-lined-hand",
        "form",
        render,
        Style(font="times", extra={"pairs": True, "hand": True, "margins": False}),
    ),
    Template(
        "form-lined-memo",
        "form",
        render,
        Style(font="liberation-serif", extra={"numbered": True, "to_from": True, "hand": True}),
        held_out=True,
    ),
)
