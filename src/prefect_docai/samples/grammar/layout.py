"""Layout families and the block-flow that draws them.

A *family* is one seeded draw of layout choices for a document type: page size, margins,
typeface and size, where the letterhead, address, title and reference data sit, how tables
and totals look, page numbering, which optional blocks appear and in what order, and which
of the type's wordings it uses. Documents of one family share these choices and differ in
content, the way documents of one real-world sender do. Whole families are held out when
validating, so a model is scored on layouts it has never seen.
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, A5, LETTER

from prefect_docai.samples import fonts
from prefect_docai.samples.core import Ctx
from prefect_docai.samples.parties import Party
from prefect_docai.samples.render import NUMBERING, PALETTES, Column, Pen, Style, table

GREY = colors.HexColor("#505050")
FAMILIES = 24
"""Layout families per document type (ids ``0 .. FAMILIES - 1``)."""

_FACES = (
    "helvetica",
    "times",
    "courier",
    "dejavu-sans",
    "dejavu-serif",
    "dejavu-condensed",
    "liberation-sans",
    "liberation-serif",
    "liberation-narrow",
    "vera",
)
_PAGES: dict[str, tuple[str, str]] = {
    "fr": ("Page", "sur"),
    "nl": ("Pagina", "van"),
    "it": ("Pagina", "di"),
    "es": ("Página", "de"),
}


def page_label(label: str, lang: str) -> str:
    """An English page number (``Page 2 of 3``, ``Page 2/3``) in ``lang``'s words."""
    if lang not in _PAGES:
        return label
    word, of = _PAGES[lang]
    return label.replace("Page", word).replace(" of ", f" {of} ")


_HEADERS = ("logo-left", "logo-right", "centered", "band", "name-only", "none", "sender-line")


@dataclass(frozen=True)
class Family:
    """The layout choices one family makes (drawn once from its id)."""

    doc_type: str
    index: int
    pagesize: tuple[float, float]
    margin: float
    face: str
    head_face: str
    size: float
    palette: str
    logo: str
    table: str
    header: str
    address_right: bool
    title_first: bool
    title_size: float
    title_align: str
    title_upper: bool
    title_choice: tuple[int, int]
    meta: str  # block | strip | lines | inline | none
    colon: bool
    date_style: int
    numbering: str | None
    numbering_pos: str
    footer: str  # bank | line | none
    leading: float
    variant: int
    """A type-specific layout switch (0..5): column set, ad layout, e-mail client, ..."""
    flags: tuple[bool, ...]
    """Type-specific optional blocks, on or off for the whole family."""

    @property
    def id(self) -> str:
        return f"{self.doc_type}/{self.index:02d}"

    def style(self) -> Style:
        return Style(
            font=self.face,
            heading_font=self.head_face,
            palette=self.palette,
            logo=self.logo,
            table=self.table,
            size=self.size,
        )


def family(doc_type: str, index: int) -> Family:
    """Family ``index`` of ``doc_type``: the same id always gives the same layout."""
    rng = random.Random(zlib.crc32(f"grammar-family|{doc_type}|{index}".encode()))
    size_pick = rng.random()
    pagesize = A4 if size_pick < 0.7 else (LETTER if size_pick < 0.9 else A5)
    if doc_type == "receipt":
        width = rng.choice((58.0, 72.0, 80.0, 105.0))
        pagesize = (width * 2.8346, rng.choice((160.0, 200.0, 240.0)) * 2.8346)
    face = rng.choice(_FACES)
    numbering_key = rng.choice((None, None, *NUMBERING))
    return Family(
        doc_type=doc_type,
        index=index,
        pagesize=pagesize,
        margin=rng.uniform(4, 8) if doc_type == "receipt" else rng.uniform(14, 30),
        face=face,
        head_face=face if rng.random() < 0.6 else rng.choice(_FACES),
        size=(
            rng.uniform(7, 9)
            if doc_type == "receipt"
            else rng.uniform(8.5, 11.5) * (0.8 if pagesize == A5 else 1.0)
        ),
        palette=rng.choice(tuple(PALETTES)),
        logo=rng.choice(("circle", "square", "diamond", "bars", "triangle", "ring", "wordmark")),
        table=rng.choice(("grid", "zebra", "lines", "plain", "boxed")),
        header=rng.choice(_HEADERS),
        address_right=rng.random() < 0.25,
        title_first=rng.random() < 0.3,
        title_size=rng.uniform(11, 22),
        title_align=rng.choice(("left", "left", "center", "right")),
        title_upper=rng.random() < 0.25,
        title_choice=(rng.randrange(64), rng.randrange(64)),
        meta=rng.choice(("block", "strip", "lines", "inline", "table")),
        colon=rng.random() < 0.5,
        date_style=rng.randrange(3),
        numbering=numbering_key,
        numbering_pos=rng.choice(("bottom-center", "bottom-right", "top-right")),
        footer=rng.choice(("bank", "line", "none")),
        leading=rng.uniform(1.25, 1.6),
        variant=rng.randrange(6),
        flags=tuple(rng.random() < 0.5 for _ in range(8)),
    )


def held_out(index: int, fold: int = 0, folds: int = 4) -> bool:
    """Whether family ``index`` belongs to validation fold ``fold`` of ``folds``."""
    return index % folds == fold


class Flow:
    """A cursor over pages: blocks are drawn top to bottom and break onto new pages."""

    def __init__(
        self,
        ctx: Ctx,
        fam: Family,
        *,
        title: str,
        author: str,
        footer: Callable[[Pen, int, int], None] | None = None,
    ) -> None:
        self.ctx = ctx
        self.fam = fam
        self._footer = footer
        self.pen = Pen(
            fam.style(),
            ctx.lang,
            pagesize=fam.pagesize,
            decorate=self._decorate,
            title=title,
            author=author,
        )
        self.left = fam.margin
        self.right = self.pen.width_mm - fam.margin
        self.width = self.right - self.left
        self.top = 12.0 if fam.doc_type == "receipt" else 18.0
        self.bottom = self.pen.height_mm - (30.0 if fam.footer != "none" else 18.0)
        if fam.doc_type == "receipt":
            self.bottom = self.pen.height_mm - 6
        self.y = self.top

    def _decorate(self, pen: Pen, page: int, total: int) -> None:
        if self._footer is not None:
            self._footer(pen, page, total)
        key = self.fam.numbering
        if key is None or (total < 2 and self.fam.flags[7]):
            return
        label = NUMBERING[key].format(page=page, total=total)
        if key in ("seite-von", "seite-slash") and not self.ctx.de:
            label = label.replace("Seite", "Page").replace(" von ", " of ")
        if key in ("page-of", "page-slash") and self.ctx.de:
            label = label.replace("Page", "Seite").replace(" of ", " von ")
        if self.ctx.lang not in ("de", "en"):
            label = label.replace("Seite", "Page").replace(" von ", " of ")
            label = page_label(label, self.ctx.lang)
        pos = self.fam.numbering_pos
        y = 10.0 if pos == "top-right" else pen.height_mm - 10
        x, align = (self.right, "right") if pos != "bottom-center" else (pen.width_mm / 2, "center")
        pen.text(x, y, label, size=7.5, align=align)

    # -- flow ---------------------------------------------------------------------------
    @property
    def size(self) -> float:
        return self.fam.size

    @property
    def lead(self) -> float:
        return self.size * 0.3528 * self.fam.leading

    def space(self, mm: float) -> None:
        self.y += mm

    def ensure(self, mm: float) -> None:
        if self.y + mm > self.bottom:
            self.break_page()

    def break_page(self) -> None:
        self.pen.new_page()
        self.y = self.top + 4

    def text(
        self,
        s: str,
        *,
        size: float | None = None,
        weight: str = "regular",
        align: str = "left",
        color: colors.Color | None = None,
        heading: bool = False,
        x: float | None = None,
    ) -> None:
        sz = size or self.size
        self.ensure(sz * 0.3528 * self.fam.leading)
        self.y += sz * 0.3528
        if x is None:
            x = {"left": self.left, "right": self.right, "center": (self.left + self.right) / 2}[
                align
            ]
        self.pen.text(
            x, self.y, s, size=sz, weight=weight, align=align, color=color, heading=heading
        )
        self.y += sz * 0.3528 * (self.fam.leading - 1) + 0.6

    def para(
        self, s: str, *, size: float | None = None, indent: float = 0.0, weight: str = "regular"
    ) -> None:
        sz = size or self.size
        for row in self.pen.wrap(s, self.width - indent, size=sz, weight=weight):
            self.text(row, size=sz, weight=weight, x=self.left + indent)

    def title(self, s: str, *, size: float | None = None) -> None:
        text = s.upper() if self.fam.title_upper else s
        self.space(2)
        self.text(
            text,
            size=size or self.fam.title_size,
            weight="bold",
            heading=True,
            align=self.fam.title_align,
            color=self.pen.style.accent if self.fam.flags[0] else None,
        )
        self.space(2)

    def heading(self, s: str) -> None:
        self.ensure(12)
        self.space(2)
        self.text(s, size=self.size + 1.5, weight="bold", heading=True)

    def label(self, s: str) -> str:
        return f"{s}:" if self.fam.colon else s

    def pairs(self, rows: Sequence[tuple[str, str]], *, kind: str | None = None) -> None:
        """Reference data (number, date, customer no.) in the family's arrangement."""
        kind = kind or self.fam.meta
        sz = self.size - 0.5
        if kind == "strip" and len(rows) <= 5:
            self.ensure(12)
            col = self.width / max(len(rows), 1)
            self.pen.hline(self.left, self.right, self.y, color=self.pen.style.accent, width=0.5)
            for i, (k, v) in enumerate(rows):
                self.pen.text(
                    self.left + i * col, self.y + 4, self.label(k), size=sz - 1.5, color=GREY
                )
                self.pen.text(self.left + i * col, self.y + 8.5, v, size=sz, weight="bold")
            self.y += 11
            self.pen.hline(self.left, self.right, self.y, color=self.pen.style.accent, width=0.5)
            self.y += 3
        elif kind == "inline":
            self.para("  ".join(f"{self.label(k)} {v}" for k, v in rows), size=sz)
        elif kind == "block":
            x0 = self.left + self.width * 0.58
            for k, v in rows:
                self.ensure(5)
                self.y += sz * 0.3528
                self.pen.text(x0, self.y, self.label(k), size=sz)
                self.pen.text(self.right, self.y, v, size=sz, align="right")
                self.y += sz * 0.3528 * (self.fam.leading - 1) + 0.5
        else:  # lines / table: label then value, left
            tab = self.left + max(self.pen.width(self.label(k), sz) for k, _ in rows) + 4
            for k, v in rows:
                self.ensure(5)
                self.y += sz * 0.3528
                self.pen.text(
                    self.left,
                    self.y,
                    self.label(k),
                    size=sz,
                    weight="bold" if kind == "table" else "regular",
                )
                self.pen.text(tab, self.y, v, size=sz)
                self.y += sz * 0.3528 * (self.fam.leading - 1) + 0.5
        self.space(2)

    def grid(
        self,
        headers: Sequence[str],
        rows: Sequence[Sequence[str]],
        widths: Sequence[float],
        aligns: Sequence[str],
    ) -> None:
        """A table across the text width that continues on following pages."""
        scale = self.width / sum(widths)
        cols = [Column(h, w * scale, a) for h, w, a in zip(headers, widths, aligns, strict=True)]
        self.ensure(14)
        self.y = table(
            self.pen,
            self.left,
            self.y,
            cols,
            rows,
            bottom=self.bottom,
            restart=lambda: self.top + 4,
            size=self.size - 0.5,
        )
        self.space(2)

    def totals(self, rows: Sequence[tuple[str, str]], *, bold_last: bool = True) -> None:
        sz = self.size
        for i, (k, v) in enumerate(rows):
            last = bold_last and i == len(rows) - 1
            self.ensure(6)
            self.y += sz * 0.3528
            self.pen.text(
                self.right - 35,
                self.y,
                k,
                size=sz,
                align="right",
                weight="bold" if last else "regular",
            )
            self.pen.text(
                self.right, self.y, v, size=sz, align="right", weight="bold" if last else "regular"
            )
            self.y += sz * 0.3528 * (self.fam.leading - 1) + 0.8
        self.space(2)

    def rule(self) -> None:
        self.pen.hline(self.left, self.right, self.y, color=GREY, width=0.4)
        self.space(2)

    def finish(self) -> tuple[bytes, int]:
        return self.pen.finish()

    # -- parties ------------------------------------------------------------------------
    def letterhead(self, sender: Party) -> None:
        """The sender as the family prints it (logo, name, contact lines) or nothing."""
        kind = self.fam.header
        pen = self.pen
        accent = pen.style.accent
        contact = [c for c in (sender.phone, sender.email, sender.web) if c]
        if kind == "band":
            pen.rect(0, 0, pen.width_mm, 22, fill=accent)
            pen.text(
                self.left, 13, sender.name, size=15, weight="bold", color=colors.white, heading=True
            )
            pen.lines(self.right, 8, contact[:2], size=7, color=colors.white, align="right")
            self.y = 30
        elif kind in ("logo-left", "logo-right"):
            x = self.left if kind == "logo-left" else self.right - 14
            pen.logo(x, 10, sender.name, size=12)
            if kind == "logo-left":
                pen.text(self.left + 16, 16, sender.name, size=13, weight="bold", heading=True)
                pen.lines(
                    self.right,
                    11,
                    [sender.street, sender.city_line(), *contact[:1]],
                    size=7,
                    color=GREY,
                    align="right",
                )
            else:
                pen.text(self.left, 14, sender.name, size=14, weight="bold", heading=True)
                pen.text(
                    self.left, 19, f"{sender.street}, {sender.city_line()}", size=7.5, color=GREY
                )
            self.y = 28
        elif kind == "centered":
            mid = pen.width_mm / 2
            pen.text(mid, 14, sender.name, size=16, weight="bold", heading=True, align="center")
            pen.text(
                mid,
                19,
                " | ".join([sender.street, sender.city_line(), *contact[:1]]),
                size=7,
                color=GREY,
                align="center",
            )
            self.y = 26
        elif kind == "name-only":
            pen.text(self.right, 15, sender.name, size=12, weight="bold", align="right")
            self.y = 22
        elif kind == "sender-line":
            self.y = 16
        else:
            self.y = 14

    def address(self, sender: Party | None, recipient: Party, *, with_return: bool = True) -> None:
        """Recipient's postal address (window position), with a return-address line."""
        x = self.left + (self.width * 0.55 if self.fam.address_right else 0)
        y = max(self.y + 6, 40.0 if self.pen.height_mm > 200 else self.y + 4)
        if (
            sender is not None
            and with_return
            and (self.fam.header in ("sender-line", "none") or self.fam.flags[1])
        ):
            ret = f"{sender.name}, {sender.street}, {sender.city_line()}"
            self.pen.text(x, y, ret, size=6.5, color=GREY)
            self.pen.hline(
                x, x + min(80.0, self.pen.width(ret, 6.5)), y + 0.8, color=GREY, width=0.3
            )
            y += 5
        end = self.pen.lines(
            x,
            y,
            recipient.address_lines(self.ctx.lang),
            size=self.size + 0.3,
            leading=self.size * 0.3528 * 1.35,
        )
        self.y = end + 6

    def signature(self, name: str, *, role: str = "") -> None:
        """A handwritten-looking signature over the printed name."""
        self.ensure(22)
        hand = fonts.hand_font(self.ctx.rng.randrange(16), need_umlauts=True)
        y = self.y + 9
        if hand is not None:
            c = self.pen.c
            c.saveState()
            c.translate((self.left + 2) * 2.8346, self.pen.y(y))
            c.rotate(self.ctx.rng.uniform(0, 8))
            c.setFont(hand.name, self.ctx.rng.uniform(15, 21))
            c.setFillColor(colors.HexColor("#1a2a80"))
            c.drawString(0, 0, hand.fit(name.split()[-1]))
            c.restoreState()
        self.y = y + 3
        self.text(name)
        if role:
            self.text(role, size=self.size - 1, color=GREY)


def bank_footer(ctx: Ctx, sender: Party, fam: Family) -> Callable[[Pen, int, int], None] | None:
    """The sender's registered, contact and bank details at the foot of every page."""
    if fam.footer == "none":
        return None
    parts = [sender.name, sender.street, sender.city_line()]
    if fam.footer == "bank" and sender.iban:
        parts += [f"IBAN {sender.iban}", f"BIC {sender.bic}"]
    if sender.vat_id:
        parts.append(ctx.t("USt-IdNr. ", "VAT reg. ") + sender.vat_id)
    if sender.phone:
        parts.append(ctx.t("Tel. ", "Tel ") + sender.phone)

    return footer_drawer(fam, parts)


def footer_drawer(fam: Family, parts: list[str]) -> Callable[[Pen, int, int], None]:
    """Draws ``parts`` joined by bars under a rule at the foot of every page."""

    def draw(pen: Pen, page: int, total: int) -> None:
        del page, total
        left, right = fam.margin, pen.width_mm - fam.margin
        y = pen.height_mm - 22
        pen.hline(left, right, y, color=GREY, width=0.3)
        rows = pen.wrap("  |  ".join(parts), right - left, size=6.5)
        pen.lines(left, y + 4, rows[:3], size=6.5, leading=2.9, color=GREY)

    return draw
