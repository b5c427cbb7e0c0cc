"""What each document type is made of: its blocks, in the family's order and wording."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from reportlab.lib import colors

from prefect_docai.samples import catalog, fmt, fonts
from prefect_docai.samples.core import Ctx
from prefect_docai.samples.grammar import vocab
from prefect_docai.samples.grammar.layout import GREY, Family, Flow, bank_footer
from prefect_docai.samples.parties import Party, company, customer, person

Compose = Callable[[Ctx, Family], tuple[bytes, int, dict[str, Any]]]


def _words(ctx: Ctx, pair: vocab.Pair) -> tuple[str, ...]:
    return pair[0] if ctx.de else pair[1]


def _one(ctx: Ctx, pair: vocab.Pair) -> str:
    return str(ctx.rng.choice(_words(ctx, pair)))


def _family_word(ctx: Ctx, fam: Family, pair: vocab.Pair, slot: int = 0) -> str:
    """A wording the family fixes (its title, its labels), varied by slot."""
    words = _words(ctx, pair)
    return words[(fam.title_choice[slot % 2] + slot) % len(words)]


def _title(ctx: Ctx, fam: Family) -> str:
    # a family uses one or two of the type's titles; the document picks between them
    words = _words(ctx, vocab.TITLES[fam.doc_type])
    choices = {words[fam.title_choice[0] % len(words)], words[fam.title_choice[1] % len(words)]}
    return str(ctx.rng.choice(sorted(choices)))


def _currency(ctx: Ctx) -> str:
    return "EUR" if ctx.locale == "de_DE" else ("GBP" if ctx.locale == "en_GB" else "USD")


def _money(ctx: Ctx, value: Decimal, fam: Family) -> str:
    return fmt.money(fmt.q2(value), _currency(ctx), ctx.locale, style=fam.variant % 3)


def _amount(ctx: Ctx, fam: Family, low: int = 500, high: int = 250000) -> str:
    return _money(ctx, Decimal(ctx.rng.randint(low, high)) / 100, fam)


def _date(ctx: Ctx, fam: Family, day: dt.date | None = None) -> str:
    return fmt.date(day or ctx.today, ctx.locale, style=fam.date_style)


def _fill(ctx: Ctx, fam: Family, text: str) -> str:
    later = ctx.today + dt.timedelta(days=ctx.rng.randint(5, 60))
    return text.format(
        date=_date(ctx, fam, later),
        amount=_amount(ctx, fam),
        city=ctx.fake.city(),
        first=ctx.fake.first_name(),
        last=ctx.fake.last_name(),
        due=_date(ctx, fam, later),
        days=ctx.rng.choice((8, 10, 14, 30)),
        pct=fmt.percent(Decimal(ctx.rng.randint(2, 60)), ctx.locale),
        n=ctx.rng.randint(2, 40),
        code=f"{ctx.fake.lexify('????').upper()}{ctx.rng.randint(10, 99)}",
        old=_amount(ctx, fam, 2000, 90000),
        who=ctx.fake.company().split(",")[0],
    )


def _number(ctx: Ctx, fam: Family) -> str:
    rng = ctx.rng
    forms = (
        f"{rng.randint(10000, 999999)}",
        f"{ctx.today.year}-{rng.randint(1, 9999):04d}",
        f"{ctx.fake.lexify('??').upper()}{rng.randint(100000, 999999)}",
        f"{rng.randint(1, 99):02d}/{ctx.today.year % 100}",
    )
    return forms[fam.variant % len(forms)]


def _items(ctx: Ctx, n: int) -> list[tuple[str, Decimal, str, Decimal, str]]:
    """(description, quantity, unit, unit price, article no.) from the product catalogue."""
    out = []
    for _ in range(n):
        de, en, unit_key, (low, high), _reduced = ctx.rng.choice(catalog.PRODUCTS)
        qty = Decimal(ctx.rng.choice((1, 1, 2, 3, 4, 5, 10, 12, 20, 50)))
        price = Decimal(ctx.rng.randint(int(low * 100), int(high * 100))) / 100
        unit = catalog.UNITS[unit_key][0 if ctx.de else 1]
        sku = f"{ctx.rng.choice('ABCDEHKMRS')}{ctx.rng.randint(1000, 99999)}"
        out.append((de if ctx.de else en, qty, unit, price, sku))
    return out


def _sender_recipient(ctx: Ctx, *, private_share: float = 0.2) -> tuple[Party, Party]:
    sender = ctx.issuer(bank=True)
    recipient = (
        person(ctx.fake, ctx.rng, ctx.locale)
        if ctx.rng.random() < private_share
        else customer(ctx.fake, ctx.rng, ctx.locale)
    )
    return sender, recipient


def _opening(
    flow: Flow,
    ctx: Ctx,
    fam: Family,
    sender: Party,
    recipient: Party | None,
    title: str,
    meta: list[tuple[str, str]],
) -> None:
    """Letterhead, then address and title in the family's order, then reference data."""
    flow.letterhead(sender)
    if fam.title_first:
        flow.title(title)
    if recipient is not None:
        flow.address(sender, recipient)
    if not fam.title_first:
        flow.title(title)
    if meta and fam.meta != "none":
        flow.pairs(meta)


def _truth(fam: Family, title: str, **extra: Any) -> dict[str, Any]:
    return {"title": title, "family": fam.id, "generator": "grammar", **extra}


# -- business documents with item tables ---------------------------------------------------


def _item_table(
    flow: Flow,
    ctx: Ctx,
    fam: Family,
    items: list[tuple[str, Decimal, str, Decimal, str]],
    *,
    prices: bool,
) -> Decimal:
    h = {k: _family_word(ctx, fam, v, i) for i, (k, v) in enumerate(vocab.ITEM_HEADERS.items())}
    cols: list[tuple[str, float, str]] = []
    if fam.flags[2]:
        cols.append((h["pos"], 8, "left"))
    if fam.flags[3]:
        cols.append((h["sku"], 18, "left"))
    cols.append((h["desc"], 62, "left"))
    cols.append((h["qty"], 14, "right"))
    if fam.flags[4]:
        cols.append((h["unit"], 12, "left"))
    if prices:
        cols += [(h["price"], 20, "right"), (h["total"], 22, "right")]
    rows, net = [], Decimal(0)
    for i, (desc, qty, unit, price, sku) in enumerate(items, start=1):
        line = fmt.q2(qty * price)
        net += line
        cells = {
            h["pos"]: str(i),
            h["sku"]: sku,
            h["desc"]: desc,
            h["qty"]: fmt.quantity(qty, ctx.locale),
            h["unit"]: unit,
            h["price"]: fmt.number(price, ctx.locale),
            h["total"]: fmt.number(line, ctx.locale),
        }
        rows.append([cells[c[0]] for c in cols])
    flow.grid([c[0] for c in cols], rows, [c[1] for c in cols], [c[2] for c in cols])
    return net


def _tax_rows(
    ctx: Ctx, fam: Family, net: Decimal, gross_key: str
) -> tuple[list[tuple[str, str]], Decimal]:
    rate = Decimal("19") if ctx.de else (Decimal("20") if ctx.locale == "en_GB" else Decimal("8"))
    tax = fmt.q2(net * rate / 100)
    rows = [
        (_family_word(ctx, fam, vocab.TOTAL_WORDS["net"]), _money(ctx, net, fam)),
        (
            f"{_family_word(ctx, fam, vocab.TOTAL_WORDS['tax'])} {fmt.percent(rate, ctx.locale)}",
            _money(ctx, tax, fam),
        ),
        (_family_word(ctx, fam, vocab.TOTAL_WORDS[gross_key], 1), _money(ctx, net + tax, fam)),
    ]
    return rows, net + tax


def compose_invoice(ctx: Ctx, fam: Family) -> tuple[bytes, int, dict[str, Any]]:
    sender, recipient = _sender_recipient(ctx)
    title = _title(ctx, fam)
    number = _number(ctx, fam)
    flow = Flow(
        ctx,
        fam,
        title=f"{title} {number}",
        author=sender.name,
        footer=bank_footer(ctx, sender, fam),
    )
    meta = [
        (_family_word(ctx, fam, vocab.NUMBER_LABELS["invoice"]), number),
        (_family_word(ctx, fam, vocab.DATE_LABELS), _date(ctx, fam)),
    ]
    if fam.flags[5]:
        meta.append(
            (_family_word(ctx, fam, vocab.CUSTOMER_LABELS), str(ctx.rng.randint(10000, 99999)))
        )
    if fam.flags[6]:
        meta.append(
            (
                ctx.t("Leistungsdatum", "Supply date"),
                _date(ctx, fam, ctx.today - dt.timedelta(days=3)),
            )
        )
    _opening(
        flow, ctx, fam, sender, recipient, f"{title} {number}" if fam.flags[7] else title, meta
    )
    if ctx.rng.random() < 0.5:
        flow.para(
            _one(ctx, vocab.SALUTATIONS).format(
                first=ctx.fake.first_name(), last=ctx.fake.last_name()
            )
        )
        flow.para(
            ctx.t(
                "für unsere Leistungen berechnen wir Ihnen:",
                "we charge you for our services as follows:",
            )
        )
    n = ctx.rng.randint(16, 40) if ctx.rng.random() < 0.15 else ctx.rng.randint(1, 9)
    net = _item_table(flow, ctx, fam, _items(ctx, n), prices=True)
    rows, gross = _tax_rows(ctx, fam, net, "gross")
    flow.totals(rows)
    flow.para(_fill(ctx, fam, _one(ctx, vocab.INVOICE_TERMS)))
    if sender.iban and fam.footer != "bank":
        flow.para(f"IBAN {sender.iban}  BIC {sender.bic}  {sender.bank or ''}")
    pdf, pages = flow.finish()
    # the invoice fields the page prints, for the held-out invoice benchmark
    # (benchmarks/invoices_cv.py): issue date, issuer, net, VAT and gross
    return (
        pdf,
        pages,
        _truth(
            fam,
            title,
            number=number,
            date=ctx.today.isoformat(),
            seller=sender.name,
            net=fmt.dec(fmt.q2(net)),
            tax=fmt.dec(fmt.q2(gross - net)),
            gross=fmt.dec(gross),
        ),
    )


def compose_purchase_order(ctx: Ctx, fam: Family) -> tuple[bytes, int, dict[str, Any]]:
    buyer = ctx.issuer(bank=ctx.rng.random() < 0.5)
    supplier = company(ctx.fake, ctx.rng, ctx.locale, bank=False)
    title = _title(ctx, fam)
    number = _number(ctx, fam)
    flow = Flow(
        ctx, fam, title=f"{title} {number}", author=buyer.name, footer=bank_footer(ctx, buyer, fam)
    )
    meta = [
        (_family_word(ctx, fam, vocab.NUMBER_LABELS["purchase_order"]), number),
        (_family_word(ctx, fam, vocab.DATE_LABELS), _date(ctx, fam)),
    ]
    if fam.flags[5]:
        meta.append((ctx.t("Lieferantennr.", "Supplier no."), str(ctx.rng.randint(1000, 99999))))
    if fam.flags[6]:
        meta.append(
            (
                ctx.t("Liefertermin", "Delivery date"),
                _date(ctx, fam, ctx.today + dt.timedelta(days=14)),
            )
        )
    _opening(flow, ctx, fam, buyer, supplier, title, meta)
    flow.para(
        _one(ctx, vocab.SALUTATIONS).format(first=ctx.fake.first_name(), last=ctx.fake.last_name())
        if ctx.rng.random() < 0.6
        else ""
    )
    flow.para(_one(ctx, vocab.ORDER_INTRO))
    priced = ctx.rng.random() < 0.85
    net = _item_table(flow, ctx, fam, _items(ctx, ctx.rng.randint(1, 12)), prices=priced)
    if priced:
        if fam.flags[1]:
            rows, _gross = _tax_rows(ctx, fam, net, "order")
            flow.totals(rows)
        else:
            flow.totals(
                [(_family_word(ctx, fam, vocab.TOTAL_WORDS["order"]), _money(ctx, net, fam))]
            )
    if fam.flags[0] or ctx.rng.random() < 0.4:
        words = _words(ctx, vocab.DELIVERY_WORDS)
        flow.heading(words[0])
        flow.para(", ".join(buyer.address_lines(ctx.lang)))
    for term in ctx.rng.sample(_words(ctx, vocab.ORDER_TERMS), 2):
        flow.para(_fill(ctx, fam, term))
    flow.space(3)
    flow.para(_one(ctx, vocab.CLOSINGS))
    flow.signature(ctx.fake.name(), role=ctx.t("Einkauf", "Purchasing"))
    pdf, pages = flow.finish()
    return pdf, pages, _truth(fam, title, number=number)


def compose_delivery_note(ctx: Ctx, fam: Family) -> tuple[bytes, int, dict[str, Any]]:
    sender, recipient = _sender_recipient(ctx)
    title = _title(ctx, fam)
    number = _number(ctx, fam)
    words = _words(ctx, vocab.DELIVERY_WORDS)
    flow = Flow(
        ctx,
        fam,
        title=f"{title} {number}",
        author=sender.name,
        footer=bank_footer(ctx, sender, fam),
    )
    meta = [
        (_family_word(ctx, fam, vocab.NUMBER_LABELS["delivery_note"]), number),
        (_family_word(ctx, fam, vocab.DATE_LABELS), _date(ctx, fam)),
        (ctx.t("Ihre Bestellung", "Your order"), _number(ctx, fam)),
    ]
    if fam.flags[5]:
        meta.append((words[2], ctx.rng.choice(("DHL", "DPD", "UPS", "GLS", "FedEx"))))
    _opening(flow, ctx, fam, sender, recipient, title, meta)
    _item_table(flow, ctx, fam, _items(ctx, ctx.rng.randint(1, 14)), prices=False)
    flow.pairs(
        [
            (words[3], str(ctx.rng.randint(1, 9))),
            (words[4], f"{fmt.number(Decimal(ctx.rng.randint(5, 5000)) / 10, ctx.locale, 1)} kg"),
        ],
        kind="lines",
    )
    flow.space(6)
    flow.para(words[5])
    flow.space(10)
    flow.rule()
    flow.text(f"{words[6]}   /   {ctx.t('Datum', 'Date')}", size=flow.size - 1)
    pdf, pages = flow.finish()
    return pdf, pages, _truth(fam, title, number=number)


def compose_bank_statement(ctx: Ctx, fam: Family) -> tuple[bytes, int, dict[str, Any]]:
    bank = company(ctx.fake, ctx.rng, ctx.locale, bank=True)
    bank.name = ctx.rng.choice(
        (
            "Sparkasse " + ctx.fake.city(),
            "Volksbank " + ctx.fake.city(),
            "Stadtbank",
            "Direktbank AG",
        )
        if ctx.de
        else (
            "Northern Bank plc",
            ctx.fake.city() + " Building Society",
            "First City Bank",
            "Metro Savings",
        )
    )
    holder = (
        person(ctx.fake, ctx.rng, ctx.locale)
        if ctx.rng.random() < 0.7
        else customer(ctx.fake, ctx.rng, ctx.locale)
    )
    title = _title(ctx, fam)
    sw = _words(ctx, vocab.STATEMENT_WORDS)
    heads = _words(ctx, vocab.STATEMENT_HEADERS)
    own = company(ctx.fake, ctx.rng, ctx.locale, bank=True)
    iban = own.iban or bank.iban or ""
    flow = Flow(
        ctx,
        fam,
        title=title,
        author=bank.name,
        footer=bank_footer(ctx, bank, fam) if fam.flags[6] else None,
    )
    start = ctx.today - dt.timedelta(days=30)
    meta = [
        (sw[4], f"IBAN {iban}" if fam.flags[2] else iban),
        (sw[7] if ctx.de else sw[9], f"{_date(ctx, fam, start)} - {_date(ctx, fam)}"),
        (
            _family_word(ctx, fam, vocab.NUMBER_LABELS["bank_statement"]),
            str(ctx.rng.randint(1, 12)),
        ),
    ]
    if fam.flags[3] and own.bic:  # a German or British company always has its bank's BIC
        meta.append(("BIC", own.bic))
    _opening(flow, ctx, fam, bank, holder, title, meta)
    balance = Decimal(ctx.rng.randint(-50000, 900000)) / 100
    flow.pairs([(sw[0], _money(ctx, balance, fam))], kind="lines")
    rows = []
    n = ctx.rng.randint(25, 60) if ctx.rng.random() < 0.25 else ctx.rng.randint(4, 18)
    day = start
    for _ in range(n):
        day += dt.timedelta(days=ctx.rng.randint(0, 2))
        amount = Decimal(ctx.rng.randint(-180000, 90000)) / 100
        if ctx.rng.random() < 0.1:
            amount = Decimal(ctx.rng.randint(150000, 450000)) / 100
        balance += amount
        text = _fill(ctx, fam, _one(ctx, vocab.BOOKINGS))
        value = fmt.number(amount, ctx.locale)
        if fam.variant % 2 == 0:
            rows.append([_date(ctx, fam, day), text, value, fmt.number(balance, ctx.locale)])
        else:
            rows.append([_date(ctx, fam, day), _date(ctx, fam, day), text, value])
    if fam.variant % 2 == 0:
        hdr = [heads[0], heads[2], heads[3], ctx.t("Saldo", "Balance")]
        flow.grid(hdr, rows, [18, 62, 18, 20], ["left", "left", "right", "right"])
    else:
        hdr = [
            heads[0],
            heads[1],
            heads[5] if ctx.de else heads[8],
            heads[4] if ctx.de else heads[3],
        ]
        flow.grid(hdr, rows, [18, 18, 62, 20], ["left", "left", "left", "right"])
    flow.totals([(sw[1], _money(ctx, balance, fam))])
    if fam.flags[4]:
        flow.para(
            ctx.t(
                "Bitte prüfen Sie die Umsätze. Einwendungen sind innerhalb von sechs Wochen zu erheben.",
                "Please check your transactions and tell us about any errors promptly.",
            ),
            size=flow.size - 1,
        )
    pdf, pages = flow.finish()
    return pdf, pages, _truth(fam, title, iban=iban)


# -- correspondence ---------------------------------------------------------------------


def compose_letter(ctx: Ctx, fam: Family) -> tuple[bytes, int, dict[str, Any]]:
    private = fam.flags[5] and ctx.rng.random() < 0.7
    sender = (
        person(ctx.fake, ctx.rng, ctx.locale)
        if private
        else ctx.issuer(bank=ctx.rng.random() < 0.5)
    )
    recipient = customer(ctx.fake, ctx.rng, ctx.locale)
    subject = _fill(ctx, fam, _one(ctx, vocab.SUBJECTS))
    flow = Flow(
        ctx,
        fam,
        title=subject,
        author=sender.name,
        footer=None if private else bank_footer(ctx, sender, fam),
    )
    if private:
        flow.pen.lines(
            flow.right,
            16,
            sender.address_lines(ctx.lang),
            size=flow.size,
            align="right",
            leading=4.2,
        )
        flow.y = 34
    else:
        flow.letterhead(sender)
    flow.address(sender, recipient)
    place = f"{sender.city}, " if ctx.de and fam.flags[6] else ""
    flow.text(place + _date(ctx, fam), align="right" if fam.flags[4] else "left")
    if fam.flags[3]:
        flow.pairs(
            [
                (ctx.t("Ihr Zeichen", "Your ref."), ctx.fake.bothify("??-###").upper()),
                (ctx.t("Unser Zeichen", "Our ref."), ctx.fake.bothify("??/##").upper()),
            ],
            kind="inline",
        )
    flow.space(4)
    flow.text(_family_word(ctx, fam, vocab.SUBJECT_PREFIX) + subject, weight="bold")
    flow.space(3)
    flow.para(
        _one(ctx, vocab.SALUTATIONS).format(first=ctx.fake.first_name(), last=ctx.fake.last_name())
    )
    bodies = list(_words(ctx, vocab.LETTER_BODIES))
    n = ctx.rng.randint(2, 5)
    long_letter = ctx.rng.random() < 0.2
    for k in range(n + (12 if long_letter else 0)):
        sentences = ctx.rng.sample(bodies, ctx.rng.randint(1, 3))
        text = " ".join(_fill(ctx, fam, s) for s in sentences)
        flow.para(text[:1].upper() + text[1:] if k else text)
        flow.space(2)
    flow.space(2)
    flow.para(_one(ctx, vocab.CLOSINGS))
    flow.signature(sender.name if private else ctx.fake.name())
    if fam.flags[7]:
        flow.text(ctx.t("Anlagen", "Enclosures"), size=flow.size - 1)
    pdf, pages = flow.finish()
    return pdf, pages, _truth(fam, subject, subject=subject)


def compose_email(ctx: Ctx, fam: Family) -> tuple[bytes, int, dict[str, Any]]:
    sender = person(ctx.fake, ctx.rng, ctx.locale)
    to = person(ctx.fake, ctx.rng, ctx.locale)
    dom = ctx.fake.domain_name()

    def addr(p: Party) -> str:
        return f"{p.name.split()[0].lower()}.{p.name.split()[-1].lower()}@{dom}"

    subject = _fill(ctx, fam, _one(ctx, vocab.SUBJECTS))
    if fam.flags[1]:
        subject = ("AW: " if ctx.de else "RE: ") + subject
    heads = _words(ctx, vocab.EMAIL_HEADERS)
    flow = Flow(ctx, fam, title=subject, author=sender.name)
    when = dt.datetime.combine(ctx.today, dt.time(ctx.rng.randint(7, 19), ctx.rng.randint(0, 59)))
    stamp = f"{_date(ctx, fam)} {when:%H:%M}"
    if fam.variant % 3 == 0:  # printed from a web mail client: subject first, big
        flow.text(subject, size=flow.size + 5, weight="bold")
        flow.rule()
        flow.text(f"{sender.name} <{addr(sender)}>", weight="bold")
        flow.text(
            f"{heads[1].lower()} {to.name} <{addr(to)}>   {stamp}", size=flow.size - 1, color=GREY
        )
    else:
        if fam.variant % 3 == 1:
            flow.text(sender.name, size=flow.size + 3, weight="bold")
            flow.rule()
        rows = [
            (heads[0], f"{sender.name} <{addr(sender)}>"),
            (heads[2], stamp),
            (heads[1], f"{to.name} <{addr(to)}>"),
        ]
        if fam.flags[2]:
            rows.append((heads[4], addr(person(ctx.fake, ctx.rng, ctx.locale))))
        rows.append((heads[3], subject))
        if fam.flags[3]:
            rows.append((heads[6], f"{ctx.fake.word()}.pdf"))
        flow.pairs(rows, kind="table" if fam.flags[4] else "lines")
        flow.rule()
    flow.space(2)
    flow.para(
        (ctx.t("Hallo ", "Hi ") if fam.flags[5] else ctx.t("Guten Morgen ", "Dear "))
        + to.name.split()[0]
        + ","
    )
    for _ in range(ctx.rng.randint(1, 4)):
        flow.para(_fill(ctx, fam, ctx.rng.choice(_words(ctx, vocab.EMAIL_BODIES))).capitalize())
        flow.space(1.5)
    flow.para(_one(ctx, vocab.EMAIL_SIGNOFFS))
    flow.para(sender.name.split()[0])
    if fam.flags[6]:
        flow.space(2)
        flow.text("--", size=flow.size - 1)
        for row in (sender.name, ctx.fake.company(), f"Tel. {sender.phone}", f"www.{dom}"):
            flow.text(row, size=flow.size - 1.5, color=GREY)
    if fam.flags[7]:  # the quoted message below
        flow.space(3)
        flow.text(f"{heads[0]}: {to.name} <{addr(to)}>", size=flow.size - 1, color=GREY)
        flow.text(
            f"{heads[2]}: {_date(ctx, fam, ctx.today - dt.timedelta(days=1))}",
            size=flow.size - 1,
            color=GREY,
        )
        for _ in range(ctx.rng.randint(1, 3)):
            flow.para(
                "> " + _fill(ctx, fam, ctx.rng.choice(_words(ctx, vocab.EMAIL_BODIES))),
                size=flow.size - 1,
            )
    pdf, pages = flow.finish()
    return pdf, pages, _truth(fam, subject, subject=subject)


def compose_contract(ctx: Ctx, fam: Family) -> tuple[bytes, int, dict[str, Any]]:
    a = ctx.issuer(bank=False)
    b = (
        customer(ctx.fake, ctx.rng, ctx.locale)
        if ctx.rng.random() < 0.6
        else person(ctx.fake, ctx.rng, ctx.locale)
    )
    title = _title(ctx, fam)
    words = _words(ctx, vocab.CONTRACT_PARTIES)
    flow = Flow(ctx, fam, title=title, author=a.name)
    if fam.flags[1]:
        flow.letterhead(a)
    flow.y = max(flow.y, 30.0)
    flow.title(title, size=max(fam.title_size, 14))
    if fam.flags[2]:
        flow.pairs(
            [(_family_word(ctx, fam, vocab.NUMBER_LABELS["contract"]), _number(ctx, fam))],
            kind="inline",
        )
    flow.text(words[0], align="center" if fam.flags[3] else "left")
    flow.para(", ".join(a.address_lines(ctx.lang)))
    flow.text(words[2], size=flow.size - 1, color=GREY)
    flow.text(words[1], align="center" if fam.flags[3] else "left")
    flow.para(", ".join(b.address_lines(ctx.lang)))
    flow.text(words[3], size=flow.size - 1, color=GREY)
    flow.para(words[4])
    heads = list(_words(ctx, vocab.CLAUSE_HEADS))
    clauses = list(_words(ctx, vocab.CLAUSE_TEXT))
    n = ctx.rng.randint(4, 12)
    for i, head in enumerate(ctx.rng.sample(heads, min(n, len(heads))), start=1):
        mark = (
            (f"§ {i}" if ctx.de else f"Clause {i}")
            if fam.variant % 3 == 0
            else (f"{i}." if fam.variant % 3 == 1 else (f"Art. {i}" if ctx.de else f"Article {i}"))
        )
        flow.heading(f"{mark} {head}")
        for k, text in enumerate(ctx.rng.sample(clauses, ctx.rng.randint(1, 3)), start=1):
            body = _fill(ctx, fam, text)
            flow.para(f"({k}) {body}" if fam.flags[4] else body)
    flow.space(8)
    labels = _words(ctx, vocab.SIGN_LABELS)
    flow.ensure(30)
    mid = (flow.left + flow.right) / 2
    y = flow.y + 14
    for x, who in ((flow.left, labels[2]), (mid + 5, labels[3])):
        flow.pen.hline(x, x + 70 if x == flow.left else flow.right, y, width=0.4)
        flow.pen.text(x, y + 4, f"{labels[0]} / {who}", size=flow.size - 1.5, color=GREY)
    flow.y = y + 8
    pdf, pages = flow.finish()
    return pdf, pages, _truth(fam, title, parties=[a.name, b.name])


def compose_report(ctx: Ctx, fam: Family) -> tuple[bytes, int, dict[str, Any]]:
    org = ctx.issuer(bank=False)
    title = _title(ctx, fam)
    topic = ctx.rng.choice(catalog.PRODUCTS)[0 if ctx.de else 1]
    flow = Flow(ctx, fam, title=title, author=org.name)
    if fam.flags[1]:
        flow.letterhead(org)
    if fam.flags[2]:  # a cover block: title, subtitle, author, date
        flow.space(20)
        flow.title(title, size=max(fam.title_size, 18))
        flow.text(
            f"{ctx.t('zum Thema', 'on')} {topic} {ctx.today.year}",
            size=flow.size + 2,
            align=fam.title_align,
        )
        flow.space(8)
        flow.pairs(
            [
                (ctx.t("Erstellt von", "Prepared by"), ctx.fake.name()),
                (_family_word(ctx, fam, vocab.DATE_LABELS), _date(ctx, fam)),
                (
                    _family_word(ctx, fam, vocab.NUMBER_LABELS["report"]),
                    f"{ctx.rng.randint(1, 4)}.{ctx.rng.randint(0, 9)}",
                ),
            ],
            kind="lines",
        )
    else:
        flow.title(f"{title}: {topic}" if fam.flags[3] else title)
        flow.text(f"{org.name}, {_date(ctx, fam)}", size=flow.size - 1, color=GREY)
    heads = list(_words(ctx, vocab.REPORT_HEADS))
    texts = list(_words(ctx, vocab.REPORT_TEXT))
    sections = ctx.rng.sample(heads, ctx.rng.randint(3, 7))
    table_at = ctx.rng.randrange(len(sections))
    for i, head in enumerate(sections, start=1):
        flow.heading(f"{i}. {head}" if fam.flags[4] else head)
        for _ in range(ctx.rng.randint(1, 3)):
            flow.para(
                " ".join(_fill(ctx, fam, s) for s in ctx.rng.sample(texts, ctx.rng.randint(2, 4)))
            )
            flow.space(1.5)
        if i - 1 == table_at:
            first, cols, names = vocab.REPORT_TABLE[0 if ctx.de else 1]
            picked = ctx.rng.sample(names, ctx.rng.randint(3, 7))
            heads_row = [first[fam.variant % len(first)], *cols[: 2 + fam.variant % 3]]
            rows = []
            for name in picked:
                vals = [
                    fmt.number(Decimal(ctx.rng.randint(100, 999999)) / 10, ctx.locale, 1)
                    for _ in heads_row[1:]
                ]
                rows.append([name, *vals])
            flow.grid(
                heads_row,
                rows,
                [30] + [15] * (len(heads_row) - 1),
                ["left"] + ["right"] * (len(heads_row) - 1),
            )
            if fam.flags[5]:
                flow.text(
                    ctx.t(f"Tabelle {i}: Übersicht", f"Table {i}: Overview"),
                    size=flow.size - 1.5,
                    color=GREY,
                )
    pdf, pages = flow.finish()
    return pdf, pages, _truth(fam, title)


def compose_advertisement(ctx: Ctx, fam: Family) -> tuple[bytes, int, dict[str, Any]]:
    shop = ctx.issuer(bank=False)
    title = _title(ctx, fam)
    lines = list(_words(ctx, vocab.AD_LINES))
    flow = Flow(ctx, fam, title=title, author=shop.name)
    pen = flow.pen
    accent = pen.style.accent
    if fam.variant % 3 == 0:  # colour band with the headline
        pen.rect(0, 0, pen.width_mm, 60, fill=accent)
        pen.text(
            pen.width_mm / 2,
            32,
            title,
            size=min(34.0, fam.title_size * 1.7),
            weight="bold",
            color=colors.white,
            align="center",
            heading=True,
        )
        flow.y = 68
    else:
        flow.y = 24
        flow.title(title, size=min(36.0, fam.title_size * 1.8))
    flow.text(_fill(ctx, fam, lines[3]), size=flow.size + 6, weight="bold", align="center")
    flow.space(4)
    products = ctx.rng.sample(catalog.PRODUCTS, ctx.rng.randint(2, 6))
    grid = fam.variant % 2 == 0
    col_w = flow.width / 2
    for i, item in enumerate(products):
        name = item[0] if ctx.de else item[1]
        low, high = item[3]
        price = Decimal(ctx.rng.randint(int(low * 100), int(high * 100))) / 100
        old = fmt.q2(price * Decimal("1.3"))
        if grid:
            flow.ensure(30)
            x = flow.left + (i % 2) * col_w
            y = flow.y
            pen.rect(x + 1, y, col_w - 4, 26, stroke=accent, width=0.8, radius=2)
            pen.text(x + 4, y + 7, name[:34], size=flow.size + 1, weight="bold")
            pen.text(
                x + 4,
                y + 13,
                _fill(ctx, fam, lines[8]).replace("{old}", "") + " " + _money(ctx, old, fam),
                size=flow.size - 1,
                color=GREY,
            )
            pen.text(
                x + col_w - 6,
                y + 22,
                _money(ctx, price, fam),
                size=flow.size + 8,
                weight="bold",
                color=accent,
                align="right",
            )
            if i % 2 == 1 or i == len(products) - 1:
                flow.y = y + 30
        else:
            flow.text(f"{name}  -  {_money(ctx, price, fam)}", size=flow.size + 3, weight="bold")
            flow.text(
                f"{_fill(ctx, fam, lines[8])} {_money(ctx, old, fam)}",
                size=flow.size - 0.5,
                color=GREY,
            )
    flow.space(4)
    for k in ctx.rng.sample((0, 1, 2, 4, 5, 6, 9, 10, 11), 3):
        flow.text(_fill(ctx, fam, lines[k]), size=flow.size + 1.5, align="center")
    flow.space(4)
    flow.text(f"{shop.name}  |  {shop.street}, {shop.city_line()}", align="center", weight="bold")
    flow.text(
        f"{lines[7].rstrip(':')} {shop.web}  |  {shop.phone}", align="center", size=flow.size - 0.5
    )
    pdf, pages = flow.finish()
    return pdf, pages, _truth(fam, title)


def compose_form(ctx: Ctx, fam: Family) -> tuple[bytes, int, dict[str, Any]]:
    org = ctx.issuer(bank=False)
    title = _title(ctx, fam)
    fields = list(_words(ctx, vocab.FORM_FIELDS))
    choices = list(_words(ctx, vocab.FORM_CHOICES))
    hints = _words(ctx, vocab.FORM_HINTS)
    flow = Flow(ctx, fam, title=title, author=org.name)
    pen = flow.pen
    if fam.flags[1]:
        flow.letterhead(org)
    flow.title(title)
    flow.para(hints[fam.variant % len(hints)], size=flow.size - 1)
    if fam.flags[2]:
        flow.pairs([(_family_word(ctx, fam, vocab.NUMBER_LABELS["form"]), "")], kind="lines")
    picked = ctx.rng.sample(fields, ctx.rng.randint(7, 14))
    filled = fam.flags[3] and ctx.rng.random() < 0.7
    hand = fonts.hand_font(ctx.rng.randrange(16), need_umlauts=True) if filled else None
    for i, name in enumerate(picked):
        flow.ensure(11)
        y = flow.y + 4
        if fam.variant % 3 == 0:  # label above a box
            pen.text(flow.left, y, name, size=flow.size - 1.5, color=GREY)
            pen.rect(flow.left, y + 1.5, flow.width, 7, stroke=colors.black, width=0.5)
            value_y = y + 6.8
            flow.y = y + 10
        elif fam.variant % 3 == 1:  # label left, line right
            pen.text(flow.left, y + 3, flow.label(name), size=flow.size - 0.5)
            pen.hline(flow.left + 50, flow.right, y + 3.8, width=0.4)
            value_y = y + 2.8
            flow.y = y + 7
        else:  # comb of character boxes
            pen.text(flow.left, y + 3, name, size=flow.size - 1)
            for k in range(int((flow.width - 55) // 5)):
                pen.rect(flow.left + 55 + k * 5, y - 0.5, 5, 5, stroke=GREY, width=0.3)
            value_y = y + 3.3
            flow.y = y + 8
        if hand is not None and ctx.rng.random() < 0.8:
            value = (
                ctx.fake.name()
                if i % 3 == 0
                else (ctx.fake.city() if i % 3 == 1 else _date(ctx, fam))
            )
            pen.text(
                flow.left + (2 if fam.variant % 3 == 0 else 56),
                value_y,
                hand.fit(value),
                size=flow.size + 2,
                font=hand.name,
                color=colors.HexColor("#1a2a80"),
            )
        if i % 4 == 3 and fam.flags[4]:
            flow.ensure(8)
            y = flow.y + 3
            x = flow.left
            for choice in ctx.rng.sample(choices, 3):
                pen.rect(x, y - 3, 3.5, 3.5, stroke=colors.black, width=0.5)
                pen.text(x + 5, y, choice, size=flow.size - 1)
                x += 8 + pen.width(choice, flow.size - 1) + 6
            flow.y = y + 4
    flow.space(6)
    flow.para(
        hints[(fam.variant + 3) % len(hints)] + " " + ", ".join(org.address_lines(ctx.lang)),
        size=flow.size - 1,
    )
    pdf, pages = flow.finish()
    return pdf, pages, _truth(fam, title)


def compose_receipt(ctx: Ctx, fam: Family) -> tuple[bytes, int, dict[str, Any]]:
    shop = ctx.issuer(bank=False)
    words = _words(ctx, vocab.RECEIPT_WORDS)
    title = _title(ctx, fam)
    flow = Flow(ctx, fam, title=title, author=shop.name)
    mono = fam.flags[1]
    size = fam.size
    font = fonts.family("courier" if mono else fam.face).regular
    pen = flow.pen
    flow.text(shop.name, size=size + 2, weight="bold", align="center")
    for row in (shop.street, shop.city_line(), shop.phone):
        flow.text(row, size=size - 0.5, align="center")
    if shop.vat_id and fam.flags[2]:
        flow.text(f"{words[14]} {shop.vat_id}", size=size - 1, align="center")
    if fam.flags[3]:
        flow.text(title, size=size + 1, weight="bold", align="center")
    flow.space(2)
    total = Decimal(0)
    for desc, qty, _unit, price, _sku in _items(ctx, ctx.rng.randint(1, 12)):
        price = fmt.q2(price / (20 if price > 50 else 1))
        line = fmt.q2(qty * price)
        total += line
        name = desc[: int(flow.width * 0.7 / (size * 0.2))]
        flow.ensure(4)
        flow.y += size * 0.3528
        pen.text(
            flow.left,
            flow.y,
            name if qty == 1 else f"{fmt.quantity(qty, ctx.locale)} x {name}",
            size=size,
            font=font,
        )
        pen.text(
            flow.right,
            flow.y,
            fmt.number(line, ctx.locale) + (" A" if ctx.de else ""),
            size=size,
            font=font,
            align="right",
        )
        flow.y += size * 0.3528 * 0.4
    flow.rule()
    flow.y += (size + 2) * 0.3528
    pen.text(flow.left, flow.y, words[0], size=size + 2, weight="bold")
    pen.text(
        flow.right, flow.y, _money(ctx, total, fam), size=size + 2, weight="bold", align="right"
    )
    flow.space(3)
    paid = words[ctx.rng.choice((2, 5, 6))]
    flow.text(f"{paid}  {fmt.number(total, ctx.locale)}", size=size, x=flow.left)
    if fam.flags[4]:
        rate = Decimal("19") if ctx.de else Decimal("20")
        tax = fmt.q2(total * rate / (100 + rate))
        flow.text(
            f"{words[7]} {fmt.percent(rate, ctx.locale)}  {words[8]} {fmt.number(total - tax, ctx.locale)}"
            f"  {words[7]} {fmt.number(tax, ctx.locale)}",
            size=size - 1,
        )
    when = f"{_date(ctx, fam)} {ctx.rng.randint(7, 21):02d}:{ctx.rng.randint(0, 59):02d}"
    flow.text(f"{when}  {words[11]} {ctx.rng.randint(1000, 99999)}", size=size - 1)
    if fam.flags[5]:
        flow.text(
            f"{words[12]} {ctx.rng.randint(1, 9)}  {words[13]} {ctx.fake.first_name()}",
            size=size - 1,
        )
    flow.space(2)
    flow.text(words[10], size=size, align="center")
    pdf, pages = flow.finish()
    return pdf, pages, _truth(fam, title, total=fmt.dec(total), date=ctx.today.isoformat())


def compose_handwritten(ctx: Ctx, fam: Family) -> tuple[bytes, int, dict[str, Any]]:
    hand = fonts.hand_font(fam.index + ctx.rng.randrange(3), need_umlauts=ctx.de)
    title = _title(ctx, fam)
    flow = Flow(ctx, fam, title=title, author=ctx.fake.name())
    pen = flow.pen
    if fam.flags[1]:  # lined paper
        for k in range(int((pen.height_mm - 30) // 9)):
            pen.hline(
                10, pen.width_mm - 10, 25 + k * 9, color=colors.HexColor("#9bb7d4"), width=0.3
            )
    face = hand.name if hand is not None else fonts.family("times").italic
    fit = hand.fit if hand is not None else (lambda s: s)
    size = ctx.rng.uniform(15, 22)
    y = 24.0 + (1 if fam.flags[1] else 0)
    ink = colors.HexColor(ctx.rng.choice(("#1a2a80", "#111111", "#0b3d91", "#333366")))
    greeting = (
        title
        if title not in ("Liebe", "Dear", "Hallo", "Hi")
        else f"{title} {ctx.fake.first_name()},"
    )
    pen.text(flow.left, y, fit(greeting), size=size + 2, font=face, color=ink)
    y += 11
    lines = list(_words(ctx, vocab.NOTE_LINES))
    for text in ctx.rng.sample(lines, ctx.rng.randint(3, 8)):
        body = _fill(ctx, fam, text)
        bullet = "- " if fam.flags[2] else ""
        for row in pen.wrap(bullet + body, flow.width, size=size):
            if y > pen.height_mm - 20:
                break
            pen.c.saveState()
            pen.c.translate(flow.left * 2.8346, pen.y(y))
            pen.c.rotate(ctx.rng.uniform(-1.2, 1.2))
            pen.c.setFont(face, size)
            pen.c.setFillColor(ink)
            pen.c.drawString(0, 0, fit(row))
            pen.c.restoreState()
            y += 9
    pen.text(
        flow.left + 40,
        min(y + 6, pen.height_mm - 12),
        fit(ctx.fake.first_name()),
        size=size,
        font=face,
        color=ink,
    )
    pdf, pages = flow.finish()
    return pdf, pages, _truth(fam, title)


COMPOSERS: dict[str, Compose] = {
    "invoice": compose_invoice,
    "receipt": compose_receipt,
    "delivery_note": compose_delivery_note,
    "purchase_order": compose_purchase_order,
    "letter": compose_letter,
    "email": compose_email,
    "form": compose_form,
    "contract": compose_contract,
    "bank_statement": compose_bank_statement,
    "advertisement": compose_advertisement,
    "handwritten": compose_handwritten,
    "report": compose_report,
}
