"""Invoices of the grammar generator in French, Dutch, Italian and Spanish (and English).

The same layout families as the German and English documents (:mod:`.layout`), filled with
each language's own wordings (several per field), locale number and date formats, and the
things that make real invoices hard to read (issue #14): delivery dates, service periods,
due dates and order dates next to the invoice date; the seller's block printed beside the
buyer's, or the seller named only in a logo line or the footer; a place-and-date line
instead of a labelled date; totals in the thousands with the locale's grouping.

    compose_invoice_intl(ctx, fam) -> (pdf, pages, truth)

``truth`` holds ``number``, ``date``, ``seller``, ``net``, ``tax`` and ``gross`` (as the
German and English invoices do), and the distractor dates it printed (``delivery``,
``period``, ``due``, ``order_date``), all as ISO dates / plain decimals.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from babel.dates import format_date
from babel.numbers import get_decimal_symbol

from prefect_docai.samples import fmt
from prefect_docai.samples.core import Ctx
from prefect_docai.samples.grammar.layout import GREY, Family, Flow, footer_drawer
from prefect_docai.samples.parties import Party, customer, person

INTL_LANGS: tuple[str, ...] = ("fr", "nl", "it", "es")
RICH_LANGS: tuple[str, ...] = ("en", *INTL_LANGS)
"""Languages this composer writes: English too (British or American locale), on request
(``generate_varied(..., composer="intl")``), beside the plainer English invoices of
:mod:`.kinds`."""

Words = dict[str, tuple[str, ...]]
"""Language → wordings."""

TITLES: Words = {
    "en": ("Invoice", "INVOICE", "Tax Invoice", "Invoice No.", "Sales Invoice",
           "VAT Invoice", "Commercial Invoice"),
    "fr": ("Facture", "FACTURE", "Facture n°", "Facture de vente", "Facture définitive",
           "Note d'honoraires", "Facture d'acompte"),
    "nl": ("Factuur", "FACTUUR", "Factuur nr.", "Verkoopfactuur", "Eindfactuur", "Nota",
           "Voorschotfactuur"),
    "it": ("Fattura", "FATTURA", "Fattura n.", "Fattura di vendita", "Fattura immediata",
           "Parcella", "Fattura differita"),
    "es": ("Factura", "FACTURA", "Factura nº", "Factura de venta", "Factura ordinaria",
           "Minuta de honorarios", "Factura n.º"),
}  # fmt: skip
NUMBER_LABELS: Words = {
    "en": ("Invoice No.", "Invoice number", "Invoice #", "Inv. No.", "Invoice Number",
           "Document no."),
    "fr": ("Facture n°", "N° de facture", "Numéro de facture", "Facture N°", "N° facture",
           "Réf. facture"),
    "nl": ("Factuurnummer", "Factuurnr.", "Factuur nr.", "Nummer", "Factuur nummer"),
    "it": ("Fattura n.", "Numero fattura", "N. fattura", "Fattura nr.", "Numero documento",
           "Documento n."),
    "es": ("Factura nº", "Nº de factura", "Número de factura", "Factura n.º", "Nº factura",
           "Num. factura"),
}  # fmt: skip
DATE_LABELS: Words = {
    "en": ("Invoice date", "Date", "Date of issue", "Issue date", "Tax point date",
           "Invoice Date"),
    "fr": ("Date de facture", "Date", "Date de facturation", "Date d'émission", "Émise le",
           "Date facture"),
    "nl": ("Factuurdatum", "Datum", "Datum factuur", "Factuur datum"),
    "it": ("Data fattura", "Data", "Data documento", "Data emissione", "Data di emissione"),
    "es": ("Fecha de factura", "Fecha", "Fecha factura", "Fecha de emisión",
           "Fecha de expedición"),
}  # fmt: skip
DELIVERY_LABELS: Words = {
    "en": ("Delivery date", "Date of supply", "Service date", "Ship date"),
    "fr": ("Date de livraison", "Date de prestation", "Livré le", "Date d'exécution"),
    "nl": ("Leverdatum", "Leveringsdatum", "Datum levering", "Prestatiedatum"),
    "it": ("Data consegna", "Data di consegna", "Data DDT", "Data spedizione"),
    "es": ("Fecha de entrega", "Fecha de servicio", "Fecha de envío", "Fecha de operación"),
}
PERIOD_LABELS: Words = {
    "en": ("Period", "Billing period", "Service period"),
    "fr": ("Période", "Période de facturation", "Période de prestation"),
    "nl": ("Periode", "Factuurperiode", "Leveringsperiode"),
    "it": ("Periodo", "Periodo di riferimento", "Competenza"),
    "es": ("Periodo", "Periodo de facturación", "Período de servicio"),
}
PERIOD_FORMS: Words = {
    "en": ("{a} to {b}", "{a} - {b}", "from {a} to {b}"),
    "fr": ("du {a} au {b}", "{a} - {b}"),
    "nl": ("{a} t/m {b}", "van {a} tot {b}", "{a} - {b}"),
    "it": ("dal {a} al {b}", "{a} - {b}"),
    "es": ("del {a} al {b}", "{a} - {b}"),
}
DUE_LABELS: Words = {
    "en": ("Due date", "Payment due", "Pay by", "Due"),
    "fr": ("Date d'échéance", "Échéance", "À payer avant le", "Date limite de paiement"),
    "nl": ("Vervaldatum", "Uiterste betaaldatum", "Te betalen voor"),
    "it": ("Scadenza", "Data scadenza", "Scadenza pagamento"),
    "es": ("Fecha de vencimiento", "Vencimiento", "Fecha límite de pago"),
}
ORDER_LABELS: Words = {
    "en": ("PO number", "Your order", "Order no."),
    "fr": ("Commande n°", "Votre commande", "Bon de commande"),
    "nl": ("Ordernummer", "Uw order", "Bestelnummer"),
    "it": ("Ordine n.", "Rif. ordine", "Vs. ordine"),
    "es": ("Pedido nº", "Su pedido", "Nº de pedido"),
}
ORDER_DATE_LABELS: Words = {
    "en": ("Order date", "Date ordered"),
    "fr": ("Date de commande", "Commande du"),
    "nl": ("Orderdatum", "Besteldatum"),
    "it": ("Data ordine", "Ordine del"),
    "es": ("Fecha de pedido", "Fecha pedido"),
}
CUSTOMER_LABELS: Words = {
    "en": ("Customer no.", "Account no.", "Customer ID"),
    "fr": ("N° client", "Code client", "Réf. client"),
    "nl": ("Klantnummer", "Debiteurnummer", "Klantnr."),
    "it": ("Codice cliente", "Cod. cliente", "Cliente n."),
    "es": ("Nº cliente", "Código cliente", "Cliente nº"),
}
NET_WORDS: Words = {
    "en": ("Subtotal", "Net total", "Total excl. VAT", "Net amount", "Sub-total"),
    "fr": ("Total HT", "Montant HT", "Sous-total HT", "Total hors taxes", "Base HT"),
    "nl": ("Subtotaal", "Totaal excl. BTW", "Bedrag excl. btw", "Netto bedrag"),
    "it": ("Imponibile", "Totale imponibile", "Totale merce", "Subtotale"),
    "es": ("Base imponible", "Subtotal", "Importe neto", "Total sin IVA"),
}
TAX_WORDS: Words = {
    "en": ("VAT", "Tax", "VAT amount"),
    "fr": ("TVA", "Montant TVA", "Total TVA"),
    "nl": ("BTW", "Btw", "BTW-bedrag"),
    "it": ("IVA", "Imposta", "Totale IVA"),
    "es": ("IVA", "Cuota IVA", "Impuestos"),
}
GROSS_WORDS: Words = {
    "en": ("Total", "Amount due", "Total due", "Invoice total", "Grand total", "Balance due"),
    "fr": ("Total TTC", "Montant TTC", "Net à payer", "Total à payer", "Montant total TTC"),
    "nl": ("Totaal incl. BTW", "Totaal", "Te betalen", "Totaalbedrag", "Factuurbedrag"),
    "it": ("Totale documento", "Totale fattura", "Totale", "Netto a pagare", "Totale da pagare"),
    "es": ("Total factura", "Total", "Total a pagar", "Importe total", "Total (IVA incl.)"),
}
DUE_WORDS: Words = {
    "en": ("Amount due", "Balance due"),
    "fr": ("Net à payer", "Reste à payer"),
    "nl": ("Te betalen", "Openstaand bedrag"),
    "it": ("Netto a pagare", "Totale da pagare"),
    "es": ("Total a pagar", "Importe a pagar"),
}
"""A last totals row repeating the gross amount (the amount due)."""
SELLER_LABELS: Words = {
    "en": ("From", "Supplier", "Seller"),
    "fr": ("Émetteur", "Fournisseur", "Vendeur"),
    "nl": ("Leverancier", "Verkoper", "Van"),
    "it": ("Cedente", "Fornitore", "Mittente"),
    "es": ("Emisor", "Proveedor", "Vendedor"),
}
BUYER_LABELS: Words = {
    "en": ("Bill to", "Invoice to", "Customer", "Sold to"),
    "fr": ("Client", "Destinataire", "Facturé à", "Adresse de facturation"),
    "nl": ("Klant", "Factuuradres", "Aan"),
    "it": ("Cliente", "Cessionario", "Destinatario", "Spett.le"),
    "es": ("Cliente", "Destinatario", "Facturar a"),
}
VAT_LABELS: Words = {
    "en": ("VAT Reg. No.", "VAT No.", "Tax ID"),
    "fr": ("N° TVA intracom.", "TVA intracommunautaire", "N° TVA"),
    "nl": ("BTW-nr.", "Btw-nummer", "BTW nummer"),
    "it": ("P. IVA", "Partita IVA", "P.IVA"),
    "es": ("NIF", "CIF", "NIF/CIF"),
}
PHONE: dict[str, str] = {"en": "Tel.", "fr": "Tél.", "nl": "Tel.", "it": "Tel.", "es": "Tel."}
PLACE_DATE: dict[str, str] = {
    "en": "{city}, {date}",
    "fr": "{city}, le {date}",
    "nl": "{city}, {date}",
    "it": "{city}, {date}",
    "es": "{city}, a {date}",
}
"""A place-and-date line standing for the invoice date (no date label)."""
SALUTATIONS: Words = {
    "en": ("Dear Sir or Madam,", "Dear customer,"),
    "fr": ("Madame, Monsieur,", "Cher client,"),
    "nl": ("Geachte heer/mevrouw,", "Beste klant,"),
    "it": ("Gentile cliente,", "Spettabile ditta,"),
    "es": ("Estimado cliente:", "Muy señores nuestros:"),
}
INTROS: Words = {
    "en": ("Please find below the details of our services.",
           "Thank you for your business."),
    "fr": ("Veuillez trouver ci-dessous le détail de nos prestations.",
           "Nous vous remercions de votre confiance."),
    "nl": ("Hierbij ontvangt u de factuur voor de geleverde diensten.",
           "Bedankt voor uw bestelling."),
    "it": ("Vi inviamo la fattura relativa alla fornitura in oggetto.",
           "Grazie per averci scelto."),
    "es": ("Le remitimos la factura correspondiente a los servicios prestados.",
           "Gracias por su confianza."),
}  # fmt: skip
TERMS: Words = {
    "en": ("Payment due within {days} days of the invoice date.", "Please pay by {due}.",
           "Please quote the invoice number with your payment.",
           "Interest may be charged on late payments."),
    "fr": ("Paiement à {days} jours date de facture.", "Merci de régler avant le {due}.",
           "Pas d'escompte pour paiement anticipé.",
           "Indemnité forfaitaire pour frais de recouvrement en cas de retard : 40 €."),
    "nl": ("Gelieve het bedrag binnen {days} dagen over te maken.",
           "Betaling vóór {due} op onderstaand rekeningnummer.",
           "Vermeld bij betaling het factuurnummer."),
    "it": ("Pagamento a {days} giorni data fattura.", "Bonifico bancario entro il {due}.",
           "Si prega di indicare il numero di fattura nella causale."),
    "es": ("Forma de pago: transferencia bancaria a {days} días.",
           "Vencimiento del pago: {due}.",
           "Indique el número de factura en la transferencia."),
}  # fmt: skip
HEADERS: dict[str, Words] = {
    "pos": {
        "en": ("No.", "#"),
        "fr": ("N°", "Réf."),
        "nl": ("Nr.", "#"),
        "it": ("Pos.", "Cod."),
        "es": ("Ref.", "Nº"),
    },
    "desc": {
        "en": ("Description", "Item", "Details"),
        "fr": ("Désignation", "Description", "Libellé"),
        "nl": ("Omschrijving", "Artikel", "Beschrijving"),
        "it": ("Descrizione", "Articolo", "Prodotto"),
        "es": ("Descripción", "Concepto", "Artículo"),
    },
    "qty": {
        "en": ("Qty", "Quantity", "Units"),
        "fr": ("Qté", "Quantité"),
        "nl": ("Aantal", "Aant."),
        "it": ("Q.tà", "Quantità"),
        "es": ("Cant.", "Cantidad", "Uds."),
    },
    "unit": {
        "en": ("Unit",),
        "fr": ("Unité", "U."),
        "nl": ("Eenheid",),
        "it": ("U.M.",),
        "es": ("Unidad", "Ud."),
    },
    "price": {
        "en": ("Unit price", "Rate", "Price"),
        "fr": ("Prix unitaire HT", "P.U. HT", "Prix unit."),
        "nl": ("Prijs", "Stukprijs", "Eenheidsprijs"),
        "it": ("Prezzo unitario", "Prezzo", "Prezzo unit."),
        "es": ("Precio unitario", "Precio", "P. unitario"),
    },
    "total": {
        "en": ("Amount", "Total", "Line total"),
        "fr": ("Montant HT", "Total HT", "Montant"),
        "nl": ("Bedrag", "Totaal", "Regeltotaal"),
        "it": ("Importo", "Totale", "Valore"),
        "es": ("Importe", "Total", "Importe neto"),
    },
}
PRODUCTS: dict[str, tuple[str, ...]] = {
    "en": ("Consulting services", "IT maintenance", "Annual software licence",
           "Travel expenses", "A4 copier paper (box)", "Ink cartridge",
           "On-site installation", "Training (day)", "Web development",
           "Cat6 network cable", "27-inch monitor", "Labour hours"),
    "fr": ("Prestation de conseil", "Maintenance informatique", "Licence logicielle annuelle",
           "Frais de déplacement", "Papier A4 (carton)", "Cartouche d'encre",
           "Installation sur site", "Formation (journée)", "Développement web",
           "Câble réseau Cat6", "Écran 27 pouces", "Heures de main-d'œuvre"),
    "nl": ("Adviesuren", "Onderhoudscontract", "Softwarelicentie (jaar)", "Reiskosten",
           "Kopieerpapier A4 (doos)", "Inktcartridge", "Installatie op locatie",
           "Training (dag)", "Webontwikkeling", "Netwerkkabel Cat6", "Beeldscherm 27 inch",
           "Arbeidsuren"),
    "it": ("Consulenza tecnica", "Canone di manutenzione", "Licenza software annuale",
           "Spese di trasferta", "Carta A4 (risma)", "Cartuccia inchiostro",
           "Installazione in sede", "Corso di formazione", "Sviluppo sito web",
           "Cavo di rete Cat6", "Monitor 27 pollici", "Ore di manodopera"),
    "es": ("Servicios de consultoría", "Mantenimiento informático",
           "Licencia de software anual", "Gastos de desplazamiento", "Papel A4 (caja)",
           "Cartucho de tinta", "Instalación in situ", "Curso de formación", "Desarrollo web",
           "Cable de red Cat6", "Monitor de 27 pulgadas", "Horas de mano de obra"),
}  # fmt: skip
PRICES: tuple[tuple[int, int], ...] = (
    (400, 1500), (150, 900), (300, 2400), (40, 400), (20, 60), (15, 90),
    (200, 1200), (500, 1600), (600, 4800), (3, 25), (160, 650), (45, 95),
)  # fmt: skip
"""Unit-price range (whole currency units) of each product, in :data:`PRODUCTS` order."""
UNITS: Words = {
    "en": ("pcs", "hrs", "each", "day"),
    "fr": ("pce", "h", "forfait", "jour"),
    "nl": ("st", "uur", "stuks"),
    "it": ("pz", "h", "nr"),
    "es": ("ud", "h", "uds"),
}
TAX_RATES: dict[str, Decimal] = {
    "en": Decimal(20),
    "fr": Decimal(20),
    "nl": Decimal(21),
    "it": Decimal(22),
    "es": Decimal(21),
}
NUMBER_FORMS: dict[str, tuple[str, ...]] = {
    "en": ("INV-{y}-{n4}", "{n6}", "INV{n5}", "{y}/{n4}", "SI-{n5}"),
    "fr": ("FA{y}-{n4}", "F-{y}-{n5}", "{y}/{n4}", "{n6}", "FAC{y}{n4}"),
    "nl": ("F{y}.{n4}", "{y}-{n4}", "{y}{n4}", "{n6}", "INV{y}{n3}"),
    "it": ("{n3}/{y}", "{y}/FE/{n4}", "{n2}/A", "{n6}", "FT{y}-{n4}"),
    "es": ("F{y}-{n4}", "A/{y}/{n6}", "{y}-{n3}", "{n6}", "FRA{n5}"),
}
_NUMERIC_DATES: dict[str, tuple[str, ...]] = {
    "fr": ("%d/%m/%Y", "%d.%m.%Y", "%d/%m/%y"),
    "nl": ("%d-%m-%Y", "%d/%m/%Y", "%d.%m.%Y"),
    "it": ("%d/%m/%Y", "%d.%m.%Y", "%d-%m-%Y"),
    "es": ("%d/%m/%Y", "%d-%m-%Y", "%d/%m/%y"),
    "en_GB": ("%d/%m/%Y", "%d %b %Y", "%d.%m.%Y"),
    "en_US": ("%m/%d/%Y", "%b %d, %Y", "%m/%d/%y"),
}
"""Numeric (and short-month) date forms per language, English per locale."""


def _lang(ctx: Ctx) -> str:
    if ctx.lang not in RICH_LANGS:
        raise ValueError(f"no {ctx.lang!r} wordings; use one of {RICH_LANGS}")
    return ctx.lang


def _fixed(ctx: Ctx, fam: Family, words: Words, slot: int) -> str:
    """The wording the family fixes for this slot (its labels, like one real sender's)."""
    choices = words[_lang(ctx)]
    return choices[(fam.title_choice[slot % 2] + slot) % len(choices)]


def _any(ctx: Ctx, words: Words) -> str:
    return str(ctx.rng.choice(words[_lang(ctx)]))


class Formats:
    """One document's number and date print forms (fixed by the family and the language)."""

    def __init__(self, ctx: Ctx, fam: Family) -> None:
        self.ctx = ctx
        self.lang = _lang(ctx)
        self.decimal = str(get_decimal_symbol(ctx.locale))
        # French: a blank, a no-break space (as word processors and babel print them),
        # a point, or none
        groups = {
            "en": (",", ",", ",", ""),
            "fr": (" ", "\u00a0", ".", ""),
            "nl": (".", ".", ".", ""),
        }
        group_choices = groups.get(self.lang, (".", ".", ".", ""))
        self.group = group_choices[(fam.variant + fam.index) % len(group_choices)]
        self.money_style = (fam.variant + 2 * fam.index) % 3
        self.date_style = (fam.date_style + fam.index) % 4

    def number(self, value: Decimal) -> str:
        """``1 234,56`` / ``1.234,56`` / ``1234,56``: the locale's decimal comma, grouping
        by the family (French with a blank or a point; sometimes none)."""
        text = f"{fmt.q2(value):,.2f}"  # 1,234.56
        whole, cents = text.split(".")
        return whole.replace(",", self.group) + self.decimal + cents

    def money(self, value: Decimal) -> str:
        amount = self.number(value)
        sign, code = ("$", "USD") if self.ctx.locale == "en_US" else ("£", "GBP")
        forms = {
            "en": (f"{sign}{amount}", f"{amount} {code}", f"{code} {amount}"),
            "fr": (f"{amount} €", f"{amount} EUR", f"{amount} €"),
            "nl": (f"€ {amount}", f"EUR {amount}", f"{amount}"),
            "it": (f"€ {amount}", f"{amount} €", f"EUR {amount}"),
            "es": (f"{amount} €", f"{amount} EUR", f"{amount}€"),
        }[self.lang]
        return forms[self.money_style]

    def date(self, day: dt.date) -> str:
        if self.date_style == 3:
            return str(format_date(day, format="long", locale=self.ctx.locale))
        key = self.ctx.locale if self.lang == "en" else self.lang
        return day.strftime(_NUMERIC_DATES[key][self.date_style])


def _invoice_number(ctx: Ctx, fam: Family) -> str:
    rng = ctx.rng
    form = NUMBER_FORMS[_lang(ctx)][(fam.variant + fam.index) % len(NUMBER_FORMS[ctx.lang])]
    return form.format(
        y=ctx.today.year,
        n2=rng.randint(1, 99),
        n3=f"{rng.randint(1, 999):03d}",
        n4=f"{rng.randint(1, 9999):04d}",
        n5=f"{rng.randint(1, 99999):05d}",
        n6=f"{rng.randint(100000, 999999)}",
    )


_WIDTHS = {"pos": 8.0, "desc": 62.0, "qty": 14.0, "unit": 12.0, "price": 20.0, "total": 22.0}


def _items(
    ctx: Ctx, fam: Family, forms: Formats
) -> tuple[list[str], list[str], list[list[str]], Decimal]:
    """The item table's columns, header, rows and net sum (mostly in the thousands)."""
    lang = _lang(ctx)
    rng = ctx.rng
    n = rng.randint(12, 24) if rng.random() < 0.1 else rng.randint(1, 7)
    keys = ["desc", "qty", "price", "total"]
    if fam.flags[2]:
        keys.insert(0, "pos")
    if fam.flags[4]:
        keys.insert(keys.index("price"), "unit")
    header = [_fixed(ctx, fam, HEADERS[k], i) for i, k in enumerate(keys)]
    rows, net = [], Decimal(0)
    for i in range(1, n + 1):
        product = rng.randrange(len(PRODUCTS[lang]))
        low, high = PRICES[product]
        price = Decimal(rng.randint(low * 100, high * 100)) / 100
        qty = Decimal(rng.choice((1, 1, 2, 3, 4, 5, 8, 10, 12, 20)))
        line = fmt.q2(qty * price)
        net += line
        cells = {
            "pos": str(i),
            "desc": PRODUCTS[lang][product],
            "qty": fmt.quantity(qty, "de_DE"),
            "unit": rng.choice(UNITS[lang]),
            "price": forms.number(price),
            "total": forms.number(line),
        }
        rows.append([cells[k] for k in keys])
    return keys, header, rows, net


def _dates(ctx: Ctx, fam: Family, forms: Formats) -> tuple[list[tuple[str, str]], dict[str, str]]:
    """The reference data besides number and invoice date: other dates that are not the
    invoice's (delivery, service period, due, order date), customer and order numbers."""
    rng = ctx.rng
    today = ctx.today
    rows: list[tuple[str, str]] = []
    truth: dict[str, str] = {}
    if rng.random() < 0.5:
        day = today - dt.timedelta(days=rng.randint(1, 25))
        rows.append((_fixed(ctx, fam, DELIVERY_LABELS, 3), forms.date(day)))
        truth["delivery"] = day.isoformat()
    if rng.random() < 0.35:
        end = today - dt.timedelta(days=rng.randint(0, 10))
        start = end - dt.timedelta(days=rng.choice((6, 13, 29, 30)))
        form = _fixed(ctx, fam, PERIOD_FORMS, 4)
        rows.append(
            (
                _fixed(ctx, fam, PERIOD_LABELS, 5),
                form.format(a=forms.date(start), b=forms.date(end)),
            )
        )
        truth["period"] = f"{start.isoformat()}/{end.isoformat()}"
    if rng.random() < 0.3:
        day = today - dt.timedelta(days=rng.randint(5, 60))
        rows.append((_fixed(ctx, fam, ORDER_LABELS, 6), f"{rng.randint(1000, 99999)}"))
        rows.append((_fixed(ctx, fam, ORDER_DATE_LABELS, 7), forms.date(day)))
        truth["order_date"] = day.isoformat()
    if rng.random() < 0.5:
        rows.append((_fixed(ctx, fam, CUSTOMER_LABELS, 8), f"{rng.randint(10000, 99999)}"))
    if rng.random() < 0.45:
        day = today + dt.timedelta(days=rng.choice((10, 14, 15, 30, 45, 60)))
        rows.append((_fixed(ctx, fam, DUE_LABELS, 9), forms.date(day)))
        truth["due"] = day.isoformat()
    rng.shuffle(rows)
    return rows, truth


def _party_lines(ctx: Ctx, fam: Family, party: Party, *, ids: bool) -> list[str]:
    lines = [party.name]
    if party.contact:
        lines.append(party.contact)
    lines += [party.street, party.city_line()]
    if ids and party.vat_id:
        lines.append(f"{_fixed(ctx, fam, VAT_LABELS, 10)} {party.vat_id}")
    if ids and party.phone and ctx.rng.random() < 0.5:
        lines.append(f"{PHONE[ctx.lang]} {party.phone}")
    return lines


def _side_by_side(flow: Flow, ctx: Ctx, fam: Family, sender: Party, buyer: Party) -> None:
    """Seller's block and buyer's block on the same lines (left/right by the family), each
    under its own label or none: the text layer runs them together line by line."""
    labelled = fam.flags[1]
    seller = _party_lines(ctx, fam, sender, ids=True)
    buyer_lines = buyer.address_lines(ctx.lang)
    if labelled:
        seller = [_fixed(ctx, fam, SELLER_LABELS, 11), *seller]
        buyer_lines = [_fixed(ctx, fam, BUYER_LABELS, 12), *buyer_lines]
    left, right = (buyer_lines, seller) if fam.address_right else (seller, buyer_lines)
    y = flow.y + 4
    lead = flow.size * 0.3528 * 1.35
    end_left = flow.pen.lines(flow.left, y, left, size=flow.size, leading=lead)
    end_right = flow.pen.lines(
        flow.left + flow.width * 0.52, y, right, size=flow.size, leading=lead
    )
    flow.y = max(end_left, end_right) + 4


def _logo_line(flow: Flow, ctx: Ctx, sender: Party) -> None:
    """The seller named only beside a logo (no address at the top)."""
    pen = flow.pen
    width = pen.logo(flow.left, 10, sender.name, size=12)
    pen.text(flow.left + width + 3, 18, sender.name, size=15, weight="bold", heading=True)
    if ctx.rng.random() < 0.5 and sender.web:
        pen.text(flow.right, 18, sender.web, size=7.5, color=GREY, align="right")
    flow.y = 28


def _footer(ctx: Ctx, fam: Family, sender: Party, *, forced: bool) -> Any:
    """The seller's registered, contact and bank details at the foot of every page."""
    if fam.footer == "none" and not forced:
        return None
    parts = [sender.name, sender.street, sender.city_line()]
    if sender.vat_id:
        parts.append(f"{_fixed(ctx, fam, VAT_LABELS, 10)} {sender.vat_id}")
    if sender.iban and (fam.footer == "bank" or forced):
        parts += [f"IBAN {sender.iban}", f"BIC {sender.bic}"]
    if sender.phone:
        parts.append(f"{PHONE[ctx.lang]} {sender.phone}")

    return footer_drawer(fam, parts)


def compose_invoice_intl(ctx: Ctx, fam: Family) -> tuple[bytes, int, dict[str, Any]]:
    lang = _lang(ctx)
    rng = ctx.rng
    forms = Formats(ctx, fam)
    sender = ctx.issuer(bank=True)
    buyer = (
        person(ctx.fake, rng, ctx.locale)
        if rng.random() < 0.2
        else customer(ctx.fake, rng, ctx.locale)
    )
    # where the seller's name stands: the family's letterhead, a block beside the buyer's,
    # a logo line only, or the footer only
    seats = ("letterhead", "blocks", "logo", "letterhead", "blocks", "footer")
    seat = seats[fam.variant] if rng.random() < 0.8 else rng.choice(seats)
    titles = TITLES[lang]
    title = titles[(fam.title_choice[rng.randrange(2)]) % len(titles)]
    number = _invoice_number(ctx, fam)
    flow = Flow(
        ctx,
        fam,
        title=f"{title} {number}",
        author=sender.name,
        footer=_footer(ctx, fam, sender, forced=seat in ("logo", "footer")),
    )
    place_date = rng.random() < 0.2
    meta: list[tuple[str, str]] = []
    number_in_title = fam.flags[7]
    if not number_in_title or rng.random() < 0.5:
        meta.append((_fixed(ctx, fam, NUMBER_LABELS, 0), number))
    if not place_date:
        meta.append((_fixed(ctx, fam, DATE_LABELS, 1), forms.date(ctx.today)))
    others, distractors = _dates(ctx, fam, forms)
    # the other dates after the invoice's or (other families) before them
    meta = [*meta, *others] if fam.flags[6] else [*others, *meta]
    if seat == "letterhead":
        flow.letterhead(sender)
    elif seat == "logo":
        _logo_line(flow, ctx, sender)
    else:
        flow.y = 16
    heading = f"{title} {number}" if number_in_title else title
    if fam.title_first:
        flow.title(heading)
    if seat == "blocks":
        _side_by_side(flow, ctx, fam, sender, buyer)
    else:
        flow.address(sender if seat == "letterhead" else None, buyer)
    if place_date:
        city = sender.city
        flow.text(PLACE_DATE[lang].format(city=city, date=forms.date(ctx.today)), align="right")
    if not fam.title_first:
        flow.title(heading)
    if meta:
        flow.pairs(meta, kind="lines" if fam.meta == "none" else None)
    if rng.random() < 0.4:
        flow.para(_any(ctx, SALUTATIONS))
        flow.para(_any(ctx, INTROS))
    keys, header, rows, net = _items(ctx, fam, forms)
    sizes = [_WIDTHS[k] for k in keys]
    aligns = ["left" if k in ("pos", "desc", "unit") else "right" for k in keys]
    flow.grid(header, rows, sizes, aligns)
    rate = Decimal(8) if ctx.locale == "en_US" else TAX_RATES[lang]
    tax = fmt.q2(net * rate / 100)
    gross = net + tax
    tax_word = _fixed(ctx, fam, TAX_WORDS, 13)
    tax_label = f"{tax_word} {fmt.quantity(rate, 'de_DE')} %" if rng.random() < 0.7 else tax_word
    totals = [
        (_fixed(ctx, fam, NET_WORDS, 14), forms.money(net)),
        (tax_label, forms.money(tax)),
        (_fixed(ctx, fam, GROSS_WORDS, 15), forms.money(gross)),
    ]
    if rng.random() < 0.25:
        totals.append((_any(ctx, DUE_WORDS), forms.money(gross)))
    flow.totals(totals)
    due = ctx.today + dt.timedelta(days=30)
    flow.para(_any(ctx, TERMS).format(days=rng.choice((15, 30, 45, 60)), due=forms.date(due)))
    if sender.iban and fam.footer != "bank" and seat not in ("logo", "footer"):
        flow.para(f"IBAN {sender.iban}  BIC {sender.bic}  {sender.bank or ''}")
    pdf, pages = flow.finish()
    truth: dict[str, Any] = {
        "title": title,
        "family": fam.id,
        "generator": "grammar",
        "seat": seat,
        "number": number,
        "date": ctx.today.isoformat(),
        "seller": sender.name,
        "net": fmt.dec(fmt.q2(net)),
        "tax": fmt.dec(tax),
        "gross": fmt.dec(gross),
        **distractors,
    }
    return pdf, pages, truth
