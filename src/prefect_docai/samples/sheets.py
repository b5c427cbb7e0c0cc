"""Administrative sheets: a second, independent source of table pages with exact truth.

``sheet_page(seed)`` draws one page (reportlab, deterministic per seed) of the paperwork a
company files — data sheets, meeting plans, project sheets, order forms — and returns it
with the truth of its tables (``samples.tables.TableTruth``: page box, grid, cell
rectangles; boxes in PDF points, origin top left), so the table models can learn from pages
the table generator (``samples.tables``) never drew.

Why a second source: the region model ("is this candidate a table?") otherwise sees
unruled tables and look-alike blocks only on the table generator's pages; every other
source (ICDAR, tabula, invoices) has ruled tables and few non-tables, so rulings tell
tables from non-tables there and a model trained without the generator keeps key-value
blocks, lists and contents as tables (``benchmarks.tables_cv`` LOSO). These sheets carry
both, in their own words, typefaces and geometry:

* tables (a header row, then 2-14 rows; specifications, schedules, contact lists, price
  lists, milestones, measurements) drawn without rules, with a rule under the header, with
  top/header/bottom rules, a rule under every row, an outer box, a full grid or a shaded
  header; wrapped text cells; numbers aligned right; stretched to the column or not;
* look-alikes that are not tables: key-value blocks (colons, dot leaders, two pairs a
  line, two blocks side by side), bulleted, numbered and two-column lists, contents with
  and without dot leaders, form lines to fill in ("Name: ______"), signature lines,
  paragraphs in one to three columns;
* one to three blocks a band, bands stacked down the page; English, German or French;
  the typefaces of ``samples.fonts``; A4 or Letter; ``scanned=True`` rasterizes the page
  through ``samples.degrade`` (150-300 dpi, skew up to 0.7 degrees, blur, noise, JPEG).
"""

from __future__ import annotations

import io
import random
from collections.abc import Callable
from dataclasses import dataclass, field

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, LETTER
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from prefect_docai.samples import fonts
from prefect_docai.samples import sheet_words as W
from prefect_docai.samples.scan import degrade
from prefect_docai.samples.tables import TableCell, TablePage, TableTruth

SHEET_LANGS: tuple[str, ...] = ("en", "de", "fr")
TABLE_STYLES: tuple[str, ...] = ("plain", "underline", "toprule", "rows", "box", "grid", "shade")
Rect = tuple[float, float, float, float]
Draw = Callable[[float, float], None]
Block = tuple[float, Draw]


def _num(rng: random.Random, lang: str, lo: float, hi: float, places: int) -> str:
    text = f"{rng.uniform(lo, hi):,.{places}f}"
    if lang == "en":
        return text
    # German groups thousands with a period, French with a space
    sep = "." if lang == "de" else " "
    return text.replace(",", "_").replace(".", ",").replace("_", sep)


def _date(rng: random.Random, lang: str) -> str:
    d, m, y = rng.randint(1, 28), rng.randint(1, 12), rng.randint(2019, 2027)
    if lang == "en":
        return rng.choice((f"{y}-{m:02d}-{d:02d}", f"{d:02d}/{m:02d}/{y}"))
    return f"{d:02d}.{m:02d}.{y}" if lang == "de" else f"{d:02d}/{m:02d}/{y}"


def _value(rng: random.Random, lang: str) -> str:
    roll = rng.random()
    if roll < 0.2:
        return rng.choice(W.PEOPLE)
    if roll < 0.4:
        return _date(rng, lang)
    if roll < 0.55:
        return f"{rng.choice('ABCKMPRX')}{rng.randint(100, 99999)}"
    if roll < 0.65:
        return f"+{rng.choice((33, 44, 49))} {rng.randint(20, 899)} {rng.randint(10000, 999999)}"
    if roll < 0.72:
        return f"{rng.choice(('info', 'office', 'service', 'a.keller'))}@example.com"
    return rng.choice(W.WORDS[lang])


def _table_content(rng: random.Random, lang: str) -> tuple[list[str], list[list[str]], str]:
    """Header, body rows and the column alignments ("l"/"r") of one table."""
    kind = rng.choice(tuple(W.HEADS))
    head = list(W.HEADS[kind][lang])
    n = rng.randint(2, 14)
    rows: list[list[str]] = []
    if kind == "spec":
        picks = rng.sample(W.SPEC_ROWS[lang], min(n, len(W.SPEC_ROWS[lang])))
        with_unit = rng.random() < 0.6
        for name, unit in picks:
            value = _num(rng, lang, 0.5, 2000, rng.choice((0, 0, 1, 2)))
            rows.append([name, value, unit] if with_unit else [name, f"{value} {unit}".strip()])
        if not with_unit:
            head = head[:2]
        return head, rows, "lr" + "l" * (len(head) - 2)
    if kind == "schedule":
        hour, minute = rng.randint(7, 10), rng.choice((0, 15, 30))
        for _ in range(n):
            topic = rng.choice(W.PROSE[lang]).rstrip(".")
            words = topic.split()
            topic = " ".join(words[: rng.randint(2, min(len(words), 10))])
            rows.append(
                [
                    f"{hour:02d}:{minute:02d}",
                    topic,
                    rng.choice(W.PEOPLE),
                    f"{rng.choice('ABC')}{rng.randint(1, 4)}.{rng.randint(1, 30):02d}",
                ]
            )
            minute += rng.choice((15, 30, 45, 60))
            hour, minute = hour + minute // 60, minute % 60
        cols = rng.choice((4, 4, 3))
        return head[:cols], [r[:cols] for r in rows], "llll"[:cols]
    if kind == "contacts":
        roles = W.WORDS[lang] + tuple(W.SECTIONS[lang])
        for person in rng.sample(W.PEOPLE, min(n, len(W.PEOPLE))):
            rows.append(
                [
                    person,
                    rng.choice(roles),
                    f"+{rng.choice((33, 44, 49))} {rng.randint(20, 899)} {rng.randint(1000, 99999)}",
                    str(rng.randint(100, 999)),
                ]
            )
        return head, rows, "lllr"
    if kind == "prices":
        for item in rng.sample(W.ITEMS[lang], min(n, len(W.ITEMS[lang]))):
            qty = rng.randint(1, 60)
            price = rng.uniform(0.5, 900)
            rows.append(
                [
                    item,
                    str(qty),
                    _num(rng, lang, price, price, 2),
                    _num(rng, lang, qty * price, qty * price, 2),
                ]
            )
        return head, rows, "lrrr"
    if kind == "milestones":
        for _ in range(n):
            words = rng.choice(W.PROSE[lang]).rstrip(".").split()
            rows.append(
                [
                    _date(rng, lang),
                    " ".join(words[: rng.randint(2, 7)]),
                    rng.choice(W.PEOPLE),
                    rng.choice(W.WORDS[lang][:7]),
                ]
            )
        return head, rows, "llll"
    for k in range(n):
        rows.append(
            [
                f"{rng.choice('PSW')}-{k + 1:02d}",
                _num(rng, lang, 5.5, 8.9, 1),
                _num(rng, lang, 12, 35, 1),
                _num(rng, lang, 100, 2500, 0),
                rng.choice(W.RESULTS[lang]),
            ]
        )
    return head, rows, "lrrrl"


# --- drawing ---------------------------------------------------------------------------


@dataclass
class _Ctx:
    rng: random.Random
    lang: str
    canvas: Canvas
    page_h: float
    font: fonts.Family
    size: float
    tables: list[TableTruth] = field(default_factory=list)

    def top(self, y: float, size: float) -> float:
        """The baseline (reportlab's y) of a line whose top is ``y`` (points from the top)."""
        return self.page_h - (y + size * 0.8)


def _wrap(text: str, face: str, size: float, width: float) -> list[str]:
    lines = simpleSplit(text, face, size, width) if text else []
    return [str(line) for line in lines] or ([text] if text else [])


def _table(ctx: _Ctx, width: float) -> Block | None:
    rng, f = ctx.rng, ctx.font
    head, body, aligns = _table_content(rng, ctx.lang)
    size = ctx.size * rng.uniform(0.85, 1.0)
    style = rng.choice(TABLE_STYLES)
    pad_x = size * rng.uniform(0.35, 1.1)
    pad_y = size * rng.uniform(0.15, 0.5)
    head_face = f.bold if style != "shade" or rng.random() < 0.7 else f.regular
    n = len(head)
    natural = [
        max(
            [stringWidth(head[c], head_face, size)]
            + [stringWidth(r[c], f.regular, size) for r in body]
        )
        for c in range(n)
    ]
    inner = width - 2 * pad_x * n
    if inner <= 0:
        return None
    widths = list(natural)
    # text columns wrap (the widest first) until the table fits
    while sum(widths) > inner:
        widest = max(range(n), key=lambda c: widths[c] if aligns[c] == "l" else -1.0)
        longest_word = max(
            [stringWidth(w, head_face, size) for w in head[widest].split()]
            + [stringWidth(w, f.regular, size) for r in body for w in r[widest].split()]
        )
        shrink = min(sum(widths) - inner, widths[widest] - max(longest_word, 40.0))
        if shrink <= 0:
            return None
        widths[widest] -= shrink
    if rng.random() < 0.35:
        extra = (inner - sum(widths)) / n
        widths = [w + extra for w in widths]
    cols = [w + 2 * pad_x for w in widths]
    leading = size * rng.uniform(1.15, 1.3)
    grid = [head, *body]
    lines = [
        [
            _wrap(cell, head_face if r == 0 else f.regular, size, widths[c] + 0.5)
            for c, cell in enumerate(row)
        ]
        for r, row in enumerate(grid)
    ]
    heights = [max(1, *(len(x) for x in row)) * leading + 2 * pad_y for row in lines]
    total_w, total_h = sum(cols), sum(heights)

    def draw(x: float, y: float) -> None:
        c = ctx.canvas
        xs = [x]
        for w in cols:
            xs.append(xs[-1] + w)
        ys = [y]
        for h in heights:
            ys.append(ys[-1] + h)
        right, bottom = xs[-1], ys[-1]
        grey = rng.choice((0.0, 0.0, 0.35, 0.55))
        c.setStrokeColor(colors.Color(grey, grey, grey))
        c.setLineWidth(rng.choice((0.3, 0.5, 0.75, 1.0)))
        if style == "shade":
            c.setFillColor(colors.Color(0.85, 0.87, 0.9))
            c.rect(x, ctx.page_h - ys[1], total_w, heights[0], stroke=0, fill=1)
            if rng.random() < 0.5:
                for r in range(2, len(ys) - 1, 2):
                    c.rect(x, ctx.page_h - ys[r + 1], total_w, heights[r], stroke=0, fill=1)
            c.setFillColor(colors.black)

        def hline(yy: float) -> None:
            c.line(x, ctx.page_h - yy, right, ctx.page_h - yy)

        if style in ("underline", "toprule", "box"):
            hline(ys[1])
        if style in ("toprule", "rows"):
            hline(y)
            hline(bottom)
        if style == "rows":
            for yy in ys[1:-1]:
                hline(yy)
        if style in ("box", "grid"):
            c.rect(x, ctx.page_h - bottom, total_w, total_h, stroke=1, fill=0)
        if style == "grid":
            for yy in ys[1:-1]:
                hline(yy)
            for xx in xs[1:-1]:
                c.line(xx, ctx.page_h - y, xx, ctx.page_h - bottom)
        cells: list[TableCell] = []
        for r, row in enumerate(lines):
            face = head_face if r == 0 else f.regular
            c.setFont(face, size)
            for col, text_lines in enumerate(row):
                x0, x1 = xs[col], xs[col + 1]
                for k, line in enumerate(text_lines):
                    base = ctx.page_h - (ys[r] + pad_y + k * leading + size * 0.8)
                    if aligns[col] == "r":
                        c.drawRightString(x1 - pad_x, base, line)
                    else:
                        c.drawString(x0 + pad_x, base, line)
                cells.append(
                    TableCell(r, col, 1, 1, " ".join(text_lines), (x0, ys[r], x1, ys[r + 1]))
                )
        truth_grid = [[" ".join(cell) for cell in row] for row in lines]
        ctx.tables.append(TableTruth(1, (x, y, right, bottom), truth_grid, 1, style, cells))

    return total_h, draw


def _kv(ctx: _Ctx, width: float) -> Block:
    """Key-value pairs: one or two pairs a line, colons or dot leaders."""
    rng, f, size = ctx.rng, ctx.font, ctx.size
    keys = rng.sample(W.KEYS[ctx.lang], rng.randint(2, 8))
    values = [_value(rng, ctx.lang) for _ in keys]
    style = rng.choice(("colon", "colon", "leaders", "plain"))
    key_face = f.bold if rng.random() < 0.5 else f.regular
    leading = size * rng.uniform(1.25, 1.7)
    key_w = max(stringWidth(k + ":", key_face, size) for k in keys) + size * rng.uniform(0.6, 2.5)
    value_w = max(stringWidth(v, f.regular, size) for v in values)
    # two pairs a line where they fit; a value that does not fit beside its key goes under it
    pair_w = key_w + value_w + size * 2
    per_line = 2 if rng.random() < 0.3 and width >= 2 * pair_w else 1
    slot = width / per_line
    stacked = pair_w - size * 2 > slot
    if stacked:
        style = "colon"
    lines = (len(keys) + per_line - 1) // per_line * (2 if stacked else 1)
    lead_end = min(slot - size * 1.5, pair_w + size * rng.uniform(0, 8))  # values end here

    def draw(x: float, y: float) -> None:
        c = ctx.canvas
        for i, (key, value) in enumerate(zip(keys, values, strict=True)):
            row, slot_no = divmod(i, per_line)
            sx = x + slot_no * slot
            top = y + row * leading * (2 if stacked else 1)
            base = ctx.top(top, size)
            c.setFont(key_face, size)
            c.drawString(sx, base, key + (":" if style == "colon" else ""))
            c.setFont(f.regular, size)
            if stacked:
                c.drawString(sx + size, ctx.top(top + leading, size), value)
            elif style == "leaders":
                value_x = sx + lead_end - stringWidth(value, f.regular, size)
                start = sx + stringWidth(key, key_face, size) + 3
                dots = int((value_x - start - 3) / max(stringWidth(".", f.regular, size), 0.1))
                c.drawString(start, base, "." * max(dots, 0))
                c.drawString(value_x, base, value)
            else:
                c.drawString(sx + key_w, base, value)

    return lines * leading, draw


def _list(ctx: _Ctx, width: float) -> Block:
    """Bulleted or numbered items, short or sentences; one or two columns of them."""
    rng, f, size = ctx.rng, ctx.font, ctx.size
    mark = rng.choice(("•", "–", "-", "1.", "1)", "a)", "[ ]"))
    short = rng.random() < 0.5
    pool = W.ITEMS[ctx.lang] if short else W.PROSE[ctx.lang]
    items = rng.sample(pool, rng.randint(3, min(8, len(pool))))
    two = short and width > 300 and rng.random() < 0.4
    col_w = width / 2 if two else width
    indent = size * rng.uniform(1.2, 2.2)
    leading = size * rng.uniform(1.2, 1.5)
    wrapped = [_wrap(item, f.regular, size, col_w - indent - size) for item in items]
    per_col = (len(items) + 1) // 2 if two else len(items)
    gap = size * rng.uniform(0.0, 0.5)
    heights = [len(w) * leading + gap for w in wrapped]
    total = max(sum(heights[:per_col]), sum(heights[per_col:]))

    def label(k: int) -> str:
        if mark == "1.":
            return f"{k + 1}."
        if mark == "1)":
            return f"{k + 1})"
        if mark == "a)":
            return f"{'abcdefgh'[k]})"
        return mark

    def draw(x: float, y: float) -> None:
        c = ctx.canvas
        c.setFont(f.regular, size)
        yy, col = y, 0
        for k, lines in enumerate(wrapped):
            if two and k == per_col:
                yy, col = y, 1
            cx = x + col * col_w
            c.drawString(cx, ctx.top(yy, size), label(k))
            for j, line in enumerate(lines):
                c.drawString(cx + indent, ctx.top(yy + j * leading, size), line)
            yy += heights[k]

    return total, draw


def _contents(ctx: _Ctx, width: float) -> Block:
    rng, f, size = ctx.rng, ctx.font, ctx.size
    sections = rng.sample(W.SECTIONS[ctx.lang], rng.randint(3, 8))
    entries: list[tuple[str, int]] = []
    page = rng.randint(1, 4)
    for i, name in enumerate(sections, start=1):
        entries.append((f"{i}  {name}", page))
        page += rng.randint(1, 5)
        if rng.random() < 0.3:
            entries.append((f"    {i}.1  {rng.choice(W.SECTIONS[ctx.lang])}", page))
            page += rng.randint(1, 3)
    leaders = rng.random() < 0.6
    leading = size * rng.uniform(1.3, 1.8)
    w = width * rng.uniform(0.6, 1.0)

    def draw(x: float, y: float) -> None:
        c = ctx.canvas
        c.setFont(f.bold, size)
        c.drawString(x, ctx.top(y, size), W.CONTENTS[ctx.lang])
        c.setFont(f.regular, size)
        for i, (text, number) in enumerate(entries, start=1):
            base = ctx.top(y + i * leading + size * 0.5, size)
            c.drawString(x, base, text)
            num = str(number)
            num_x = x + w - stringWidth(num, f.regular, size)
            c.drawString(num_x, base, num)
            if leaders:
                start = x + stringWidth(text, f.regular, size) + 4
                dots = int((num_x - 4 - start) / max(stringWidth(" .", f.regular, size), 0.1))
                c.drawString(start, base, " ." * max(dots, 0))

    return (len(entries) + 1) * leading + size * 0.5, draw


def _form(ctx: _Ctx, width: float) -> Block:
    """Lines to fill in ("Name: ______") or signature lines with their labels below."""
    rng, f, size = ctx.rng, ctx.font, ctx.size
    c = ctx.canvas
    if rng.random() < 0.5 and width > 260:
        labels = list(W.SIGN[ctx.lang][: rng.randint(2, 3)])
        slot = width / len(labels)

        def draw_sign(x: float, y: float) -> None:
            c.setLineWidth(0.5)
            c.setStrokeColor(colors.black)
            c.setFont(f.regular, size * 0.85)
            for i, text in enumerate(labels):
                x0 = x + i * slot
                c.line(
                    x0,
                    ctx.page_h - (y + size * 2.5),
                    x0 + slot - size * 2,
                    ctx.page_h - (y + size * 2.5),
                )
                c.drawString(x0, ctx.top(y + size * 2.8, size * 0.85), text)

        return size * 4.0, draw_sign
    keys = rng.sample(W.KEYS[ctx.lang], rng.randint(2, 6))
    leading = size * rng.uniform(1.8, 2.4)
    key_face = f.bold if rng.random() < 0.4 else f.regular
    key_w = max(stringWidth(k + ":", key_face, size) for k in keys) + size

    def draw_form(x: float, y: float) -> None:
        c.setLineWidth(0.4)
        c.setStrokeColor(colors.black)
        for i, key in enumerate(keys):
            base = ctx.top(y + i * leading, size)
            c.setFont(key_face, size)
            c.drawString(x, base, key + ":")
            c.line(x + key_w, base - 2, x + width, base - 2)

    return len(keys) * leading, draw_form


def _prose(ctx: _Ctx, width: float) -> Block:
    rng, f, size = ctx.rng, ctx.font, ctx.size
    text = " ".join(rng.sample(W.PROSE[ctx.lang], rng.randint(2, 5)))
    lines = _wrap(text, f.regular, size, width)
    leading = size * rng.uniform(1.2, 1.45)
    justify = rng.random() < 0.5

    def draw(x: float, y: float) -> None:
        c = ctx.canvas
        c.setFont(f.regular, size)
        for k, line in enumerate(lines):
            base = ctx.top(y + k * leading, size)
            words = line.split()
            if justify and k < len(lines) - 1 and len(words) > 1:
                gap = (width - sum(stringWidth(w, f.regular, size) for w in words)) / (
                    len(words) - 1
                )
                tx = x
                for w in words:
                    c.drawString(tx, base, w)
                    tx += stringWidth(w, f.regular, size) + gap
            else:
                c.drawString(x, base, line)

    return len(lines) * leading, draw


_LOOKALIKES: tuple[Callable[[_Ctx, float], Block], ...] = (
    _kv,
    _kv,
    _list,
    _contents,
    _form,
    _prose,
)


def _heading(ctx: _Ctx, text: str, width: float) -> Block:
    size = ctx.size * ctx.rng.uniform(1.05, 1.3)
    face = ctx.font.bold

    def draw(x: float, y: float) -> None:
        ctx.canvas.setFont(face, size)
        ctx.canvas.drawString(x, ctx.top(y, size), text[: int(width / (size * 0.5))])

    return size * 1.4, draw


def _build(rng: random.Random, lang: str) -> tuple[bytes, float, float, list[TableTruth]]:
    page_w, page_h = A4 if rng.random() < 0.65 else LETTER
    buf = io.BytesIO()
    canvas = Canvas(buf, pagesize=(page_w, page_h), invariant=1, pageCompression=1)
    family = fonts.family(rng.choice(fonts.FAMILIES))
    ctx = _Ctx(rng, lang, canvas, float(page_h), family, rng.uniform(7.5, 10.5))
    margin = rng.uniform(36, 72)
    width = page_w - 2 * margin
    y = margin
    # letterhead: organisation, title, a rule under it on some sheets
    canvas.setFont(family.bold, ctx.size * 1.6)
    canvas.drawString(margin, ctx.top(y, ctx.size * 1.6), rng.choice(W.ORGS))
    y += ctx.size * 2.4
    canvas.setFont(family.regular, ctx.size * 1.2)
    canvas.drawString(margin, ctx.top(y, ctx.size * 1.2), rng.choice(W.TITLES[lang]))
    y += ctx.size * 1.8
    if rng.random() < 0.5:
        canvas.setLineWidth(0.8)
        canvas.line(margin, page_h - y, page_w - margin, page_h - y)
    y += ctx.size * 1.2
    bottom = page_h - margin
    table_share = rng.uniform(0.3, 0.6)
    contents_drawn = False  # one contents list a sheet at most
    while y < bottom - ctx.size * 4:
        n = rng.choice((1, 1, 1, 2, 2, 2, 3)) if width > 420 else rng.choice((1, 2))
        gutter = ctx.size * rng.uniform(2.0, 5.0)
        col_w = (width - gutter * (n - 1)) / n
        blocks: list[Block] = []
        for _ in range(n):
            block = _table(ctx, col_w) if rng.random() < table_share else None
            if block is None:
                kinds = [k for k in _LOOKALIKES if k is not _contents or not contents_drawn]
                kind = rng.choice(kinds)
                contents_drawn = contents_drawn or kind is _contents
                block = kind(ctx, col_w)
            blocks.append(block)
        heading = _heading(ctx, rng.choice(W.SECTIONS[lang]), width) if rng.random() < 0.4 else None
        need = max(h for h, _ in blocks) + (heading[0] if heading else 0.0)
        if y + need > bottom:
            break
        if heading is not None:
            heading[1](margin, y)
            y += heading[0]
        for k, (_, draw) in enumerate(blocks):
            draw(margin + k * (col_w + gutter), y)
        y += need - (heading[0] if heading else 0.0) + ctx.size * rng.uniform(1.2, 2.5)
    canvas.showPage()
    canvas.save()
    return buf.getvalue(), float(page_w), float(page_h), ctx.tables


def sheet_page(
    seed: int, *, scanned: bool = False, lang: str | None = None, dpi: int | None = None
) -> TablePage:
    """One sheet and the truth of its tables, deterministic per argument set (``lang`` one of
    ``SHEET_LANGS``, drawn from the seed when None; ``scanned=True``: an image-only scan at
    ``dpi``, 150-300 drawn from the seed when None, the truth boxes those of the drawing)."""
    rng = random.Random(f"sheets-{seed}")
    chosen = lang or rng.choice(SHEET_LANGS)
    if chosen not in SHEET_LANGS:
        raise ValueError(f"unknown language {chosen!r}")
    pdf, width, height, tables = _build(rng, chosen)
    page = TablePage(seed, chosen, "sheet", pdf, width, height, tables)
    if scanned:
        scan_rng = random.Random(f"sheets-scan-{seed}")
        page.dpi = dpi or scan_rng.choice((150, 200, 200, 250, 300))
        page.pdf = degrade(
            pdf,
            seed=seed,
            dpi=page.dpi,
            rotate=0.7,
            blur=scan_rng.uniform(0.3, 1.0),
            noise=scan_rng.uniform(3.0, 10.0),
            quality=scan_rng.randint(55, 85),
        )
        page.scanned = True
    return page
