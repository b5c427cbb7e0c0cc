"""Contracts: parties, numbered clauses (§ 1 …), sub-clauses, signature blocks."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from reportlab.lib import colors

from prefect_docai.samples import fmt, texts
from prefect_docai.samples.core import Ctx, Template
from prefect_docai.samples.parties import company, person
from prefect_docai.samples.render import Pen, Style

LEFT = 25.0
WIDTH = 160.0


def render(ctx: Ctx, style: Style) -> tuple[bytes, int, dict[str, Any]]:
    rng = ctx.rng
    kind = rng.choice(texts.CONTRACT_KINDS)
    title = kind[0] if ctx.de else kind[1]
    roles = kind[2] if ctx.de else kind[3]
    a = ctx.issuer(bank=False)
    b = (
        person(ctx.fake, rng, ctx.locale)
        if "Arbeit" in kind[0] or rng.random() < 0.3
        else (company(ctx.fake, rng, ctx.locale, bank=False))
    )
    currency = "EUR" if ctx.de else ("GBP" if ctx.locale == "en_GB" else "USD")
    values = {
        "date": fmt.date(ctx.today, ctx.locale, style=1),
        "amount": fmt.money(Decimal(rng.randint(8, 400)) * 50, currency, ctx.locale),
        "city": a.city,
    }
    clause_style = str(style.extra.get("clauses", "paragraph"))  # paragraph | numbered | article
    pen = Pen(style, ctx.lang, title=title, author=a.name)
    size = style.size
    bottom = pen.height_mm - 25

    def restart() -> float:
        if style.extra.get("running_head"):
            pen.text(LEFT, 12, title, size=7.5, color=colors.HexColor("#777777"))
        return 22.0

    y = 28.0
    pen.text(
        pen.width_mm / 2,
        y,
        title.upper() if rng.random() < 0.5 else title,
        size=size + 7,
        weight="bold",
        align="center",
        heading=True,
    )
    y += 14
    pen.text(LEFT, y, ctx.t("zwischen", "between"), size=size)
    y += 7
    party_rows: list[dict[str, str]] = []
    for party, role in ((a, roles[0]), (b, roles[1])):
        line = f"{party.name}, {party.street}, {party.city_line()}"
        y = pen.paragraph(LEFT + 8, y, line, WIDTH - 8, weight="bold")
        pen.text(
            LEFT + 8,
            y,
            ctx.t(f"– nachfolgend „{role}“ genannt –", f'(hereinafter the "{role}")'),
            size=size - 0.5,
        )
        y += 7
        if not party_rows:
            pen.text(LEFT, y, ctx.t("und", "and"))
            y += 7
        party_rows.append(
            {
                "name": party.name,
                "street": party.street,
                "postalCode": party.postal_code,
                "city": party.city,
                "role": role,
            }
        )
    y += 2
    if rng.random() < 0.5:
        pre = ctx.t("Präambel", "Recitals")
        pen.text(LEFT, y, pre, weight="bold", heading=True)
        y = (
            pen.paragraph(
                LEFT,
                y + 6,
                ctx.t(
                    "Die Parteien beabsichtigen, ihre Zusammenarbeit auf eine verlässliche vertragliche "
                    "Grundlage zu stellen. Vor diesem Hintergrund vereinbaren sie Folgendes:",
                    "The parties wish to put their cooperation on a reliable contractual footing. "
                    "Against this background they agree as follows:",
                ),
                WIDTH,
            )
            + 4
        )
    clauses = list(texts.CONTRACT_CLAUSES)
    last = clauses[-1]
    middle = clauses[:-1]
    rng.shuffle(middle)
    # the subject-matter clause opens and the final provisions close every contract
    rest = [c for c in middle if c is not clauses[0]]
    count = rng.randint(int(style.extra.get("min", 4)), len(middle) - 1)
    chosen = [clauses[0], *rest[:count], last]
    headings = []
    for n, (de_head, de_sents, en_head, en_sents) in enumerate(chosen, start=1):
        head_text = de_head if ctx.de else en_head
        if clause_style == "article":
            head = f"{ctx.t('Artikel', 'Article')} {n} – {head_text}"
        elif clause_style == "numbered":
            head = f"{n}. {head_text}"
        else:
            head = f"§ {n} {head_text}"
        headings.append(head)
        if y > bottom - 20:
            pen.new_page()
            y = restart()
        pen.text(
            LEFT if clause_style != "paragraph" else pen.width_mm / 2,
            y,
            head,
            weight="bold",
            heading=True,
            align="left" if clause_style != "paragraph" else "center",
        )
        y += 6
        sentences = [s.format(**values) for s in (de_sents if ctx.de else en_sents)]
        for k, sentence in enumerate(sentences, start=1):
            label = f"({k})" if clause_style == "paragraph" else f"{n}.{k}"
            if y > bottom:
                pen.new_page()
                y = restart()
            pen.text(LEFT, y, label)
            y = (
                pen.paragraph(
                    LEFT + 10,
                    y,
                    sentence,
                    WIDTH - 10,
                    bottom=bottom,
                    on_break=restart,
                    leading=size * 0.48,
                )
                + 1.5
            )
        y += 3
    if y > bottom - 45:
        pen.new_page()
        y = restart()
    y += 12
    for i, party in enumerate((a, b)):
        x = LEFT + i * (WIDTH / 2 + 5)
        pen.text(x, y, f"{a.city}, " + ctx.t("den ", "") + fmt.date(ctx.today, ctx.locale))
        pen.hline(x, x + WIDTH / 2 - 10, y + 20, width=0.5)
        pen.text(x, y + 25, f"{roles[i]}", size=size - 1)
        pen.text(x, y + 29.5, party.name, size=size - 1.5, color=colors.HexColor("#555555"))
    pdf, pages = pen.finish()
    return (
        pdf,
        pages,
        {
            "title": title,
            "contractType": kind[1],
            "parties": party_rows,
            "date": ctx.today.isoformat(),
            "clauses": headings,
        },
    )


TEMPLATES: tuple[Template, ...] = (
    Template(
        "contract-classic",
        "contract",
        render,
        Style(font="times", size=11, numbering="auto", extra={"clauses": "paragraph"}),
    ),
    Template(
        "contract-sans",
        "contract",
        render,
        Style(
            font="helvetica",
            size=10,
            numbering="dash",
            extra={"clauses": "paragraph", "running_head": True},
        ),
    ),
    Template(
        "contract-numbered",
        "contract",
        render,
        Style(
            font="dejavu-serif",
            size=9.5,
            numbering="page-of",
            numbering_pos="bottom-right",
            extra={"clauses": "numbered", "min": 5},
        ),
    ),
    Template(
        "contract-articles",
        "contract",
        render,
        Style(
            font="liberation-sans",
            size=10.5,
            numbering="auto-slash",
            extra={"clauses": "article", "running_head": True},
        ),
    ),
    Template(
        "contract-serif-long",
        "contract",
        render,
        Style(
            font="liberation-serif",
            size=12,
            numbering="seite-von",
            extra={"clauses": "paragraph", "min": 6},
        ),
        held_out=True,
    ),
    Template(
        "contract-condensed",
        "contract",
        render,
        Style(
            font="dejavu-condensed",
            size=10,
            numbering="slash",
            letter_size=True,
            extra={"clauses": "numbered", "running_head": True},
        ),
        held_out=True,
    ),
)
