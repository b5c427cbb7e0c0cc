"""Reports: headings, paragraphs, data tables and charts drawn from shapes."""

from __future__ import annotations

import itertools
from decimal import Decimal
from typing import Any

from reportlab.lib import colors

from prefect_docai.samples import fmt, texts
from prefect_docai.samples.core import Ctx, Template
from prefect_docai.samples.render import Column, Pen, Style, table

LEFT = 22.0
WIDTH = 166.0


def _paragraph(ctx: Ctx, n: int) -> str:
    rng = ctx.rng
    bank = texts.REPORT_SENTENCES_DE if ctx.de else texts.REPORT_SENTENCES_EN
    out = []
    for sentence in rng.sample(bank, n):
        region = rng.choice(texts.REGIONS)
        amount = fmt.money(
            Decimal(rng.randint(20, 9000)) * 1000, "EUR" if ctx.de else "GBP", ctx.locale
        )
        out.append(
            sentence.format(
                pct=fmt.quantity(Decimal(rng.randint(5, 250)) / 10, ctx.locale),
                year=ctx.today.year,
                region=region[0] if ctx.de else region[1],
                amount=amount,
                n=rng.randint(12, 900),
            )
        )
    return " ".join(out)


def _data_table(ctx: Ctx) -> tuple[list[str], list[list[str]], list[list[int]]]:
    rng = ctx.rng
    kind = rng.randrange(3)
    loc = ctx.locale
    if kind == 0:
        header = [ctx.t("Region", "Region"), "Q1", "Q2", "Q3", "Q4", ctx.t("Summe", "Total")]
        names = [r[0] if ctx.de else r[1] for r in texts.REGIONS]
        rng.shuffle(names)
        raw = [[rng.randint(80, 2400) for _ in range(4)] for _ in range(rng.randint(3, 6))]
        rows = [
            [
                names[i],
                *(fmt.number(Decimal(v), loc, 0) for v in vals),
                fmt.number(Decimal(sum(vals)), loc, 0),
            ]
            for i, vals in enumerate(raw)
        ]
        return header, rows, raw
    if kind == 1:
        header = [
            ctx.t("Kennzahl", "Metric"),
            str(ctx.today.year - 2),
            str(ctx.today.year - 1),
            str(ctx.today.year),
            ctx.t("Veränderung", "Change"),
        ]
        names = ctx.t(
            "Umsatz|EBIT|Mitarbeiter|Kunden|Aufträge|Investitionen",
            "Revenue|EBIT|Employees|Customers|Orders|Capex",
        ).split("|")
        raw = [[rng.randint(100, 5000) for _ in range(3)] for _ in range(rng.randint(3, 6))]
        rows = []
        for name, vals in zip(names, raw, strict=False):
            change = Decimal(vals[2] - vals[1]) * 100 / Decimal(vals[1])
            rows.append(
                [
                    name,
                    *(fmt.number(Decimal(v), loc, 0) for v in vals),
                    f"{'+' if change >= 0 else ''}{fmt.number(change, loc, 1)} %",
                ]
            )
        return header, rows, raw[: len(rows)]
    header = [
        ctx.t("Prüfpunkt", "Check"),
        ctx.t("Soll", "Target"),
        ctx.t("Ist", "Actual"),
        ctx.t("Status", "Status"),
    ]
    names = ctx.t(
        "Brandschutz|Fluchtwege|Elektrik|Lüftung|Zugang|Beleuchtung|Dokumentation",
        "Fire safety|Escape routes|Electrics|Ventilation|Access|Lighting|Records",
    ).split("|")
    raw = [[rng.randint(60, 100), rng.randint(40, 100)] for _ in range(rng.randint(4, 7))]
    rows = [
        [n, f"{a} %", f"{b} %", ctx.t("OK", "OK") if b >= a else ctx.t("offen", "open")]
        for n, (a, b) in zip(names, raw, strict=False)
    ]
    return header, rows, raw[: len(rows)]


def _bar_chart(pen: Pen, ctx: Ctx, y: float, values: list[int], labels: list[str]) -> float:
    h = 45.0
    pen.rect(LEFT, y, WIDTH, h + 12, stroke=colors.HexColor("#cccccc"), width=0.4)
    top = max(values) or 1
    n = len(values)
    slot = (WIDTH - 20) / n
    base = y + h + 2
    for i, (v, label) in enumerate(zip(values, labels, strict=True)):
        bh = (h - 8) * v / top
        x = LEFT + 12 + i * slot
        pen.rect(
            x,
            base - bh,
            slot * 0.6,
            bh,
            fill=pen.style.accent if i % 2 == 0 else pen.style.tint,
            stroke=pen.style.accent,
            width=0.3,
        )
        pen.text(x + slot * 0.3, base + 4, label[:10], size=6.5, align="center")
    pen.hline(LEFT + 8, LEFT + WIDTH - 4, base, width=0.6)
    pen.vline(LEFT + 8, y + 4, base, width=0.6)
    return y + h + 16


def _line_chart(pen: Pen, ctx: Ctx, y: float, series: list[list[int]]) -> float:
    h = 42.0
    pen.rect(LEFT, y, WIDTH, h + 8, fill=colors.HexColor("#fafafa"))
    flat = [v for s in series for v in s] or [1]
    lo, hi = min(flat), max(flat)
    span = (hi - lo) or 1
    c = pen.c
    palette = [pen.style.accent, colors.HexColor("#888888"), colors.HexColor("#d9480f")]
    for k in range(5):
        pen.hline(
            LEFT + 6,
            LEFT + WIDTH - 4,
            y + 4 + k * (h - 4) / 4,
            color=colors.HexColor("#dddddd"),
            width=0.3,
        )
    for si, s in enumerate(series[:3]):
        c.setStrokeColor(palette[si])
        c.setLineWidth(1.2)
        pts = [
            (
                (LEFT + 8 + i * (WIDTH - 16) / max(1, len(s) - 1)) * 2.8346,
                pen.y(y + h - (v - lo) / span * (h - 8)),
            )
            for i, v in enumerate(s)
        ]
        for a, b in itertools.pairwise(pts):
            c.line(a[0], a[1], b[0], b[1])
    return y + h + 12


def render(ctx: Ctx, style: Style) -> tuple[bytes, int, dict[str, Any]]:
    rng = ctx.rng
    kind = rng.choice(texts.REPORT_KINDS)
    region = rng.choice(texts.REGIONS)
    title = (kind[0] if ctx.de else kind[1]).format(
        q=rng.randint(1, 4),
        year=ctx.today.year,
        region=region[0] if ctx.de else region[1],
        n=rng.randint(100, 9999),
    )
    org = ctx.fake.company()
    author = ctx.fake.name()
    pen = Pen(style, ctx.lang, title=title, author=author)
    bottom = pen.height_mm - 25
    cover = bool(style.extra.get("cover", False))
    if cover:
        pen.rect(0, 0, pen.width_mm, 95, fill=pen.style.accent)
        pen.text(LEFT, 60, title, size=24, weight="bold", color=colors.white, heading=True)
        pen.text(LEFT, 72, org, size=13, color=colors.white)
        pen.text(LEFT, 120, f"{ctx.t('Autor', 'Author')}: {author}", size=11)
        pen.text(LEFT, 127, fmt.date(ctx.today, ctx.locale, style=1), size=11)
        pen.text(
            LEFT,
            134,
            ctx.t(
                "Vertraulich – nur für den internen Gebrauch", "Confidential – internal use only"
            ),
            size=9,
            color=colors.HexColor("#777777"),
        )
        pen.new_page()
        y = 25.0
    else:
        pen.logo(pen.width_mm - 36, 10, org, size=12)
        pen.text(LEFT, 20, org, size=9, color=colors.HexColor("#666666"))
        pen.text(LEFT, 32, title, size=20, weight="bold", heading=True, color=style.accent)
        pen.text(LEFT, 40, f"{author} · {fmt.date(ctx.today, ctx.locale, style=1)}", size=9)
        pen.hline(LEFT, LEFT + WIDTH, 44, color=style.accent, width=1)
        y = 54.0

    def restart() -> float:
        pen.text(LEFT, 12, title, size=7.5, color=colors.HexColor("#777777"))
        pen.hline(LEFT, LEFT + WIDTH, 14, color=colors.HexColor("#bbbbbb"), width=0.3)
        return 24.0

    sections = list(texts.REPORT_SECTIONS)
    rng.shuffle(sections)
    n_sections = rng.randint(
        int(style.extra.get("min_sections", 3)), int(style.extra.get("max_sections", 6))
    )
    chosen = sections[:n_sections]
    tables_truth: list[dict[str, Any]] = []
    table_at = rng.randrange(n_sections)
    chart_at = rng.randrange(n_sections)
    numbered = rng.random() < 0.6
    size = pen.style.size
    for si, sec in enumerate(chosen, start=1):
        heading = (f"{si} " if numbered else "") + (sec[0] if ctx.de else sec[1])
        if y > bottom - 30:
            pen.new_page()
            y = restart()
        elif si > 1:
            y += 3
        pen.text(LEFT, y, heading, size=size + 4, weight="bold", heading=True, color=style.accent)
        y += 8
        for _ in range(rng.randint(1, 3)):
            par = _paragraph(ctx, rng.randint(3, 6))
            y = (
                pen.paragraph(
                    LEFT, y, par, WIDTH, bottom=bottom, on_break=restart, leading=size * 0.5
                )
                + 3
            )
        if si - 1 == table_at:
            header, rows, raw = _data_table(ctx)
            widths = [WIDTH * 0.3] + [WIDTH * 0.7 / (len(header) - 1)] * (len(header) - 1)
            cols = [
                Column(h, w, "left" if i == 0 else "right")
                for i, (h, w) in enumerate(zip(header, widths, strict=True))
            ]
            need = (len(rows) + 2) * size * 0.6 + 12
            if y + need > bottom:
                pen.new_page()
                y = restart()
            caption = ctx.t(
                f"Tabelle {len(tables_truth) + 1}: ", f"Table {len(tables_truth) + 1}: "
            )
            pen.text(LEFT, y, caption + heading.split(" ", 1)[-1], size=size - 1, weight="italic")
            y += 3
            y = table(pen, LEFT, y, cols, rows, bottom=bottom, restart=restart) + 4
            # "page" is kept as an alias of startPage for early readers of this truth
            tables_truth.append({**pen.tables[-1], "page": pen.tables[-1]["startPage"]})
        if si - 1 == chart_at:
            header, rows, raw = _data_table(ctx)
            if y + 62 > bottom:
                pen.new_page()
                y = restart()
            if rng.random() < 0.5:
                y = _bar_chart(pen, ctx, y, [sum(r) for r in raw], [r[0] for r in rows])
            else:
                y = _line_chart(pen, ctx, y, [list(col) for col in zip(*raw, strict=False)])
            pen.text(
                LEFT,
                y - 2,
                ctx.t(
                    "Abbildung 1: Entwicklung der Kennzahlen",
                    "Figure 1: Development of key figures",
                ),
                size=size - 1.5,
                weight="italic",
            )
            y += 5
    pdf, pages = pen.finish()
    return (
        pdf,
        pages,
        {
            "title": title,
            "organisation": org,
            "author": author,
            "date": ctx.today.isoformat(),
            "sections": [sec[0] if ctx.de else sec[1] for sec in chosen],
            "tables": tables_truth,
        },
    )


TEMPLATES: tuple[Template, ...] = (
    Template(
        "report-classic",
        "report",
        render,
        Style(
            font="times",
            heading_font="helvetica",
            palette="navy",
            table="grid",
            numbering="auto",
            size=10.5,
        ),
    ),
    Template(
        "report-cover",
        "report",
        render,
        Style(
            font="dejavu-sans",
            palette="teal",
            table="zebra",
            numbering="auto-slash",
            size=9.5,
            extra={"cover": True, "min_sections": 4, "max_sections": 8},
        ),
    ),
    Template(
        "report-modern",
        "report",
        render,
        Style(
            font="liberation-sans",
            palette="orange",
            logo="bars",
            table="lines",
            numbering="dash",
            size=10,
        ),
    ),
    Template(
        "report-serif-long",
        "report",
        render,
        Style(
            font="dejavu-serif",
            palette="forest",
            table="boxed",
            numbering="page-of",
            numbering_pos="bottom-right",
            size=10,
            extra={"min_sections": 5, "max_sections": 9},
        ),
    ),
    Template(
        "report-narrow",
        "report",
        render,
        Style(
            font="liberation-narrow",
            heading_font="liberation-serif",
            palette="purple",
            logo="diamond",
            table="zebra",
            numbering="bare",
            size=10.5,
            extra={"cover": True},
        ),
        held_out=True,
    ),
    Template(
        "report-letter",
        "report",
        render,
        Style(
            font="vera",
            palette="crimson",
            logo="ring",
            table="grid",
            numbering="page-slash",
            numbering_pos="top-right",
            size=9.5,
            letter_size=True,
        ),
        held_out=True,
    ),
)
