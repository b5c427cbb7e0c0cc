"""Parts shared by business documents: letterhead, address window, info block, footer."""

from __future__ import annotations

from collections.abc import Callable

from reportlab.lib import colors

from prefect_docai.samples.core import Ctx
from prefect_docai.samples.parties import COUNTRY_NAMES, Party
from prefect_docai.samples.render import Pen

GREY = colors.HexColor("#555555")
LEFT = 20.0
RIGHT = 190.0


def letterhead(pen: Pen, ctx: Ctx, sender: Party) -> float:
    """Draw the sender's letterhead in the style's layout; returns the y below it."""
    st = pen.style
    kind = st.header
    accent = st.accent
    right = pen.width_mm - 20
    if kind == "band":
        pen.rect(0, 0, pen.width_mm, 26, fill=accent)
        pen.logo(LEFT, 6, sender.name, size=14, color=colors.white, text_color=accent)
        pen.text(
            LEFT + 18, 15, sender.name, size=16, weight="bold", color=colors.white, heading=True
        )
        pen.lines(
            right,
            9,
            [sender.phone, sender.email, sender.web],
            size=7.5,
            color=colors.white,
            align="right",
        )
        return 36.0
    if kind == "sidebar":
        pen.rect(0, 0, 9, pen.height_mm, fill=accent)
        pen.logo(LEFT, 10, sender.name, size=12)
        pen.text(LEFT + 16, 16, sender.name, size=15, weight="bold", heading=True)
        pen.text(LEFT + 16, 21, f"{sender.street} · {sender.city_line()}", size=7.5, color=GREY)
        return 32.0
    if kind == "center":
        w = pen.logo(pen.width_mm / 2 - 6, 8, sender.name, size=12)
        del w
        pen.text(
            pen.width_mm / 2, 27, sender.name, size=15, weight="bold", align="center", heading=True
        )
        pen.text(
            pen.width_mm / 2,
            32,
            f"{sender.street} · {sender.city_line()} · {sender.phone}",
            size=7.5,
            align="center",
            color=GREY,
        )
        pen.hline(LEFT, right, 35, color=accent, width=1.2)
        return 40.0
    if kind == "right":
        w = pen.logo(right - 16, 10, sender.name, size=16)
        pen.text(
            right - w - 4, 17, sender.name, size=14, weight="bold", align="right", heading=True
        )
        pen.lines(
            right - w - 4,
            22,
            [sender.street, sender.city_line()],
            size=7.5,
            color=GREY,
            align="right",
        )
        return 34.0
    if kind == "plain":
        pen.text(LEFT, 18, sender.name, size=13, weight="bold", heading=True)
        pen.lines(LEFT, 23, [sender.street, sender.city_line(), sender.phone], size=8)
        return 36.0
    # "left"
    w = pen.logo(LEFT, 10, sender.name, size=16)
    pen.text(LEFT + w + 4, 17, sender.name, size=14, weight="bold", color=accent, heading=True)
    pen.text(
        LEFT + w + 4,
        22,
        ctx.t("Ihr Partner seit ", "Trusted since ") + str(ctx.rng.randint(1950, 2015)),
        size=7.5,
        color=GREY,
    )
    pen.lines(
        right,
        12,
        [sender.street, sender.city_line(), sender.phone, sender.email],
        size=7.5,
        align="right",
        color=GREY,
    )
    return 34.0


def address_window(
    pen: Pen,
    ctx: Ctx,
    sender: Party,
    recipient: Party,
    *,
    y: float = 45.0,
    x: float = 25.0,
    country: bool = False,
) -> float:
    """DIN 5008-style window: small return-address line, then the recipient's address."""
    ret = f"{sender.name} · {sender.street} · {sender.city_line()}"
    pen.text(x, y, ret, size=6.5, color=GREY)
    pen.hline(x, x + min(85.0, pen.width(ret, 6.5)), y + 0.8, color=GREY, width=0.3)
    rows = recipient.address_lines(ctx.lang, with_country=country)
    return pen.lines(x, y + 6, rows, size=pen.style.size + 0.5, leading=4.6)


def info_block(
    pen: Pen, rows: list[tuple[str, str]], *, x: float = 125.0, y: float = 50.0, boxed: bool = False
) -> float:
    """Label/value pairs (number, date, customer no.) right of the address window."""
    if boxed:
        pen.rect(
            x - 2, y - 4.5, pen.width_mm - 20 - x + 4, len(rows) * 4.6 + 3, fill=pen.style.tint
        )
    for label, value in rows:
        pen.text(x, y, label, size=pen.style.size - 1)
        pen.text(pen.width_mm - 20, y, value, size=pen.style.size - 1, align="right")
        y += 4.6
    return y


def info_strip(pen: Pen, rows: list[tuple[str, str]], *, y: float) -> float:
    """Label/value pairs side by side in one strip across the page."""
    width = (pen.width_mm - 40) / max(1, len(rows))
    pen.hline(LEFT, pen.width_mm - 20, y - 4, color=pen.style.accent, width=0.6)
    for i, (label, value) in enumerate(rows):
        pen.text(LEFT + i * width, y, label, size=7, color=GREY)
        pen.text(LEFT + i * width, y + 4.5, value, size=pen.style.size - 0.5, weight="bold")
    pen.hline(LEFT, pen.width_mm - 20, y + 7, color=pen.style.accent, width=0.6)
    return y + 12


def footer(
    ctx: Ctx, sender: Party, *, register: str | None = None, manager: str | None = None
) -> Callable[[Pen, int, int], None]:
    """A page decorator printing the sender's legal/bank footer on every page."""
    cols: list[list[str]] = [[sender.name, sender.street, sender.city_line()]]
    contact = [c for c in (sender.phone, sender.email, sender.web) if c]
    cols.append([ctx.t("Tel. ", "Phone ") + contact[0], *contact[1:]] if contact else [])
    bank = []
    if sender.iban:
        bank = [sender.bank or "", "IBAN " + _group(sender.iban), "BIC " + (sender.bic or "")]
    cols.append(bank)
    legal = []
    if sender.vat_id:
        legal.append(ctx.t("USt-IdNr. ", "VAT No. ") + sender.vat_id)
    if sender.tax_number:
        legal.append("St.-Nr. " + sender.tax_number)
    if register:
        legal.append(register)
    if manager:
        legal.append(ctx.t("Geschäftsführer: ", "Director: ") + manager)
    cols.append(legal)
    cols = [c for c in cols if c]

    def draw(pen: Pen, page: int, total: int) -> None:
        del page, total
        top = pen.height_mm - 24
        pen.hline(LEFT, pen.width_mm - 20, top - 4, color=colors.HexColor("#999999"), width=0.3)
        size = 6.5
        widths = [max(pen.width(row, size) for row in col) for col in cols]
        room = pen.width_mm - 40
        while sum(widths) + 4 * (len(cols) - 1) > room and size > 5:
            size -= 0.5
            widths = [max(pen.width(row, size) for row in col) for col in cols]
        gap = (room - sum(widths)) / max(1, len(cols) - 1)
        x = LEFT
        for col, width in zip(cols, widths, strict=True):
            pen.lines(x, top, col, size=size, leading=2.9, color=GREY)
            x += width + gap

    return draw


def _group(iban: str) -> str:
    return " ".join(iban[i : i + 4] for i in range(0, len(iban), 4))


def group_iban(iban: str) -> str:
    """IBAN in print form (groups of four)."""
    return _group(iban)


def country_name(ctx: Ctx, code: str) -> str:
    return COUNTRY_NAMES[ctx.lang][code]
