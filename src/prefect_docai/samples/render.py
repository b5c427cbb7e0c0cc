"""Drawing helpers over a reportlab canvas: positions in millimetres from the top left.

The canvas defers pages until ``save`` so that footers can say "Seite 1 von 3": the total
is known only once every page is drawn.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from reportlab.lib import colors
from reportlab.lib.colors import Color
from reportlab.lib.pagesizes import A4, LETTER
from reportlab.lib.units import mm as _MM
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from prefect_docai.samples import fonts

mm: float = float(_MM)


PALETTES: dict[str, tuple[str, str]] = {
    # accent, light tint
    "navy": ("#1f3a5f", "#e3eaf3"),
    "teal": ("#00756f", "#dff1ef"),
    "crimson": ("#a4161a", "#f8e1e1"),
    "forest": ("#2d6a4f", "#e2f1e8"),
    "orange": ("#d9480f", "#fff0e6"),
    "purple": ("#5f3dc4", "#ece7fb"),
    "grey": ("#343a40", "#eceef0"),
    "black": ("#000000", "#eeeeee"),
    "sky": ("#1971c2", "#e3f0fb"),
    "gold": ("#9c6b00", "#fbf1d8"),
}

NUMBERING = {
    "seite-von": "Seite {page} von {total}",
    "seite-slash": "Seite {page}/{total}",
    "dash": "- {page} -",
    "page-of": "Page {page} of {total}",
    "page-slash": "Page {page}/{total}",
    "slash": "{page}/{total}",
    "bare": "{page}",
}


@dataclass(frozen=True)
class Style:
    """Visual parameters of one template."""

    font: str = "helvetica"
    heading_font: str | None = None
    palette: str = "navy"
    logo: str = "circle"
    header: str = "left"  # left | right | center | band | sidebar
    table: str = "grid"  # grid | zebra | lines | plain | boxed
    numbering: str | None = None  # key of NUMBERING, or a language-dependent pair
    numbering_pos: str = "bottom-center"  # bottom-center | bottom-right | top-right
    size: float = 9.5
    letter_size: bool = False
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def accent(self) -> Color:
        return colors.HexColor(PALETTES[self.palette][0])

    @property
    def tint(self) -> Color:
        return colors.HexColor(PALETTES[self.palette][1])

    def fam(self) -> fonts.Family:
        return fonts.family(self.font)

    def head(self) -> fonts.Family:
        return fonts.family(self.heading_font or self.font)


def numbering_format(style: Style, lang: str) -> str | None:
    """The page-number pattern of a style; ``de``/``en`` variants for language-neutral keys."""
    if style.numbering is None:
        return None
    key = style.numbering
    if key == "auto":
        key = "seite-von" if lang == "de" else "page-of"
    elif key == "auto-slash":
        key = "seite-slash" if lang == "de" else "page-slash"
    return NUMBERING[key]


class _DeferredCanvas(Canvas):  # type: ignore[misc]
    """Keeps page states until ``save`` so that footers can show the page total."""

    def __init__(
        self,
        buffer: io.BytesIO,
        *,
        pagesize: tuple[float, float],
        footer: Callable[[Canvas, int, int], None] | None,
    ) -> None:
        super().__init__(buffer, pagesize=pagesize, invariant=1, pageCompression=1)
        self._states: list[dict[str, Any]] = []
        self._footer = footer

    def showPage(self) -> None:
        self._states.append(dict(self.__dict__))
        self._startPage()

    def save(self) -> None:
        total = len(self._states)
        for number, state in enumerate(self._states, start=1):
            self.__dict__.update(state)
            if self._footer is not None:
                self._footer(self, number, total)
            Canvas.showPage(self)
        Canvas.save(self)


class Pen:
    """A document being drawn: text and shapes in mm from the top-left corner."""

    def __init__(
        self,
        style: Style,
        lang: str,
        *,
        pagesize: tuple[float, float] | None = None,
        decorate: Callable[[Pen, int, int], None] | None = None,
        title: str = "",
        author: str = "",
    ) -> None:
        self.style = style
        self.lang = lang
        self.size = pagesize or (LETTER if style.letter_size else A4)
        self.width_mm = self.size[0] / mm
        self.height_mm = self.size[1] / mm
        self.buffer = io.BytesIO()
        self.pages = 1
        self._numbering = numbering_format(style, lang)
        self._decorate = decorate
        self.c = _DeferredCanvas(self.buffer, pagesize=self.size, footer=self._draw_footer)
        if title:
            self.c.setTitle(title)
        if author:
            self.c.setAuthor(author)
        self.fam = style.fam()
        self.head = style.head()
        # every table drawn, as printed: the truth for table extraction
        self.tables: list[dict[str, Any]] = []

    # -- pages ---------------------------------------------------------------------------
    def _draw_footer(self, c: Canvas, page: int, total: int) -> None:
        if self._decorate is not None:
            self._decorate(self, page, total)
        if self._numbering is None:
            return
        label = self._numbering.format(page=page, total=total)
        c.setFont(self.fam.regular, 8)
        c.setFillColor(colors.black)
        pos = self.style.numbering_pos
        if pos == "top-right":
            c.drawRightString(self.size[0] - 15 * mm, self.size[1] - 10 * mm, label)
        elif pos == "bottom-right":
            c.drawRightString(self.size[0] - 18 * mm, 14 * mm, label)
        else:
            c.drawCentredString(self.size[0] / 2, 14 * mm, label)

    def new_page(self) -> None:
        self.c.showPage()
        self.pages += 1

    def finish(self) -> tuple[bytes, int]:
        self.c.showPage()
        self.c.save()
        return self.buffer.getvalue(), self.pages

    # -- primitives ----------------------------------------------------------------------
    def y(self, y_mm: float) -> float:
        return self.size[1] - y_mm * mm

    def font(self, weight: str = "regular", heading: bool = False) -> str:
        fam = self.head if heading else self.fam
        return str(getattr(fam, weight))

    def text(
        self,
        x: float,
        y: float,
        s: str,
        *,
        size: float | None = None,
        weight: str = "regular",
        color: Color | None = None,
        align: str = "left",
        heading: bool = False,
        font: str | None = None,
    ) -> None:
        name = font or self.font(weight, heading)
        self.c.setFont(name, size or self.style.size)
        self.c.setFillColor(color or colors.black)
        if align == "right":
            self.c.drawRightString(x * mm, self.y(y), s)
        elif align == "center":
            self.c.drawCentredString(x * mm, self.y(y), s)
        else:
            self.c.drawString(x * mm, self.y(y), s)

    def width(self, s: str, size: float | None = None, weight: str = "regular") -> float:
        """Width of ``s`` in mm."""
        return float(stringWidth(s, self.font(weight), size or self.style.size)) / mm

    def lines(
        self,
        x: float,
        y: float,
        rows: Sequence[str],
        *,
        size: float | None = None,
        leading: float | None = None,
        weight: str = "regular",
        color: Color | None = None,
        align: str = "left",
    ) -> float:
        """Draw one string per line; returns the y below the block."""
        sz = size or self.style.size
        lead = leading or sz * 0.42
        for row in rows:
            self.text(x, y, row, size=sz, weight=weight, color=color, align=align)
            y += lead
        return y

    def wrap(
        self, s: str, width_mm: float, *, size: float | None = None, weight: str = "regular"
    ) -> list[str]:
        return list(simpleSplit(s, self.font(weight), size or self.style.size, width_mm * mm))

    def paragraph(
        self,
        x: float,
        y: float,
        s: str,
        width_mm: float,
        *,
        size: float | None = None,
        leading: float | None = None,
        weight: str = "regular",
        bottom: float | None = None,
        on_break: Callable[[], float] | None = None,
    ) -> float:
        """Wrap and draw a paragraph, breaking the page at ``bottom``; returns the next y."""
        sz = size or self.style.size
        lead = leading or sz * 0.45
        limit = bottom if bottom is not None else self.height_mm - 25
        for row in self.wrap(s, width_mm, size=sz, weight=weight):
            if y > limit:
                self.new_page()
                y = on_break() if on_break else 25.0
            self.text(x, y, row, size=sz, weight=weight)
            y += lead
        return y

    def rect(
        self,
        x: float,
        y: float,
        w: float,
        h: float,
        *,
        fill: Color | None = None,
        stroke: Color | None = None,
        width: float = 0.5,
        radius: float = 0,
    ) -> None:
        """A rectangle whose top-left corner is at (x, y)."""
        c = self.c
        c.setLineWidth(width)
        if fill is not None:
            c.setFillColor(fill)
        if stroke is not None:
            c.setStrokeColor(stroke)
        args = (x * mm, self.y(y + h), w * mm, h * mm)
        if radius:
            c.roundRect(
                *args, radius * mm, stroke=int(stroke is not None), fill=int(fill is not None)
            )
        else:
            c.rect(*args, stroke=int(stroke is not None), fill=int(fill is not None))

    def hline(
        self, x0: float, x1: float, y: float, *, color: Color | None = None, width: float = 0.5
    ) -> None:
        self.c.setStrokeColor(color or colors.black)
        self.c.setLineWidth(width)
        self.c.line(x0 * mm, self.y(y), x1 * mm, self.y(y))

    def vline(
        self, x: float, y0: float, y1: float, *, color: Color | None = None, width: float = 0.5
    ) -> None:
        self.c.setStrokeColor(color or colors.black)
        self.c.setLineWidth(width)
        self.c.line(x * mm, self.y(y0), x * mm, self.y(y1))

    # -- composite -----------------------------------------------------------------------
    def logo(
        self,
        x: float,
        y: float,
        name: str,
        *,
        kind: str | None = None,
        size: float = 14,
        color: Color | None = None,
        text_color: Color | None = None,
    ) -> float:
        """A logo drawn from shapes plus initials; returns its width in mm."""
        c = self.c
        accent = color or self.style.accent
        kind = kind or self.style.logo
        initials = "".join(w[0] for w in name.replace("-", " ").split()[:2] if w[:1].isalpha())
        initials = initials.upper() or "X"
        cx, cy = (x + size / 2) * mm, self.y(y + size / 2)
        r = size / 2 * mm
        c.setFillColor(accent)
        c.setStrokeColor(accent)
        if kind == "circle":
            c.circle(cx, cy, r, stroke=0, fill=1)
        elif kind == "square":
            c.roundRect(x * mm, self.y(y + size), size * mm, size * mm, 2 * mm, stroke=0, fill=1)
        elif kind == "diamond":
            path = c.beginPath()
            path.moveTo(cx, cy + r)
            path.lineTo(cx + r, cy)
            path.lineTo(cx, cy - r)
            path.lineTo(cx - r, cy)
            path.close()
            c.drawPath(path, stroke=0, fill=1)
        elif kind == "bars":
            for i in range(3):
                h = size * (0.45 + 0.27 * i)
                c.rect(
                    (x + i * size / 3) * mm,
                    self.y(y + size),
                    size / 3.6 * mm,
                    h * mm,
                    stroke=0,
                    fill=1,
                )
            return size
        elif kind == "triangle":
            path = c.beginPath()
            path.moveTo(x * mm, self.y(y + size))
            path.lineTo((x + size) * mm, self.y(y + size))
            path.lineTo(cx, self.y(y))
            path.close()
            c.drawPath(path, stroke=0, fill=1)
        elif kind == "ring":
            c.setLineWidth(size * 0.12 * mm)
            c.circle(cx, cy, r * 0.8, stroke=1, fill=0)
            c.setFillColor(accent)
            c.setFont(self.head.bold, size * 1.1)
            c.drawCentredString(cx, cy - size * 0.38 * mm / 1.0 * 0.8, initials[:1])
            return size
        else:  # wordmark: no shape, only coloured initials
            c.setFont(self.head.bold, size * 2.0)
            c.drawString(x * mm, self.y(y + size * 0.85), initials)
            return float(stringWidth(initials, self.head.bold, size * 2.0)) / mm
        c.setFillColor(text_color or colors.white)
        fs = size * 1.1 if len(initials) > 1 else size * 1.6
        if kind == "triangle":
            fs *= 0.7
            c.setFont(self.head.bold, fs)
            c.drawCentredString(cx, self.y(y + size * 0.85), initials)
        else:
            c.setFont(self.head.bold, fs)
            c.drawCentredString(cx, cy - fs * 0.35, initials)
        return size


@dataclass
class Column:
    title: str
    width: float
    align: str = "left"


def table(
    pen: Pen,
    x: float,
    y: float,
    columns: Sequence[Column],
    rows: Sequence[Sequence[str]],
    *,
    bottom: float,
    restart: Callable[[], float],
    row_h: float | None = None,
    size: float | None = None,
    carry: Callable[[int], tuple[str, str]] | None = None,
) -> float:
    """Draw a table that continues on new pages; returns y below the last row.

    ``restart`` starts a continuation page and returns the y where the table resumes.
    ``carry(i)`` gives a (label, amount) line printed when breaking before row ``i``
    (e.g. "Übertrag"), so multi-page invoices look like real ones.
    """
    st = pen.style.table
    sz = size or pen.style.size - 0.5
    rh = row_h or sz * 0.55
    total_w = sum(col.width for col in columns)
    accent, tint = pen.style.accent, pen.style.tint

    def header(y0: float) -> float:
        if st in ("grid", "zebra", "boxed"):
            pen.rect(x, y0, total_w, rh + 1, fill=accent if st != "boxed" else tint)
            color = colors.white if st != "boxed" else colors.black
        else:
            color = accent if st == "lines" else colors.black
        cx = x
        for col in columns:
            tx = cx + 1.5 if col.align == "left" else cx + col.width - 1.5
            pen.text(
                tx,
                y0 + rh * 0.72,
                col.title,
                size=sz,
                weight="bold",
                color=color,
                align="left" if col.align == "left" else "right",
            )
            cx += col.width
        y1 = y0 + rh + 1
        if st in ("lines", "plain"):
            pen.hline(
                x, x + total_w, y1, color=accent if st == "lines" else colors.black, width=0.8
            )
        return y1

    start_page = pen.pages
    y = header(y)
    for i, row in enumerate(rows):
        wrapped = [
            pen.wrap(cell, col.width - 3, size=sz) if col.align == "left" else [cell]
            for cell, col in zip(row, columns, strict=True)
        ]
        n = max(len(w) for w in wrapped) or 1
        h = rh * n + (0.6 if n > 1 else 0)
        if y + h > bottom:
            if carry is not None:
                label, amount = carry(i)
                pen.text(x + total_w - 30, y + rh, label, size=sz, weight="bold", align="right")
                pen.text(x + total_w - 1.5, y + rh, amount, size=sz, weight="bold", align="right")
            pen.new_page()
            y = header(restart())
            if carry is not None:
                label, amount = carry(i)
                pen.text(x + total_w - 30, y + rh * 0.8, label, size=sz, align="right")
                pen.text(x + total_w - 1.5, y + rh * 0.8, amount, size=sz, align="right")
                y += rh + 0.5
        if st == "zebra" and i % 2 == 1:
            pen.rect(x, y, total_w, h, fill=tint)
        cx = x
        for lines_, col in zip(wrapped, columns, strict=True):
            for k, line in enumerate(lines_):
                ty = y + rh * 0.75 + k * rh
                if col.align == "left":
                    pen.text(cx + 1.5, ty, line, size=sz)
                elif col.align == "center":
                    pen.text(cx + col.width / 2, ty, line, size=sz, align="center")
                else:
                    pen.text(cx + col.width - 1.5, ty, line, size=sz, align="right")
            cx += col.width
        y += h
        if st in ("grid", "boxed"):
            pen.hline(x, x + total_w, y, color=colors.HexColor("#999999"), width=0.3)
        elif st == "lines":
            pen.hline(x, x + total_w, y, color=tint, width=0.6)
    if st in ("grid", "boxed"):
        pen.rect(x, y - 0.01, total_w, 0.01, stroke=colors.HexColor("#999999"))
    pen.tables.append(
        {
            "startPage": start_page,
            "endPage": pen.pages,
            "header": [col.title for col in columns],
            "rows": [list(row) for row in rows],
        }
    )
    return y + 1
