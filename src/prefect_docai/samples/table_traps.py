"""Unruled blocks that line up like tables and are none: the table generator's look-alikes.

Real pages are full of text set in columns that no one would call a table: a contents list
(entries on the left, page numbers right-aligned, dot leaders or none), a form to fill in
("Name: ______", "Date: ........"), two or three key-value blocks side by side, prose in
columns, a numbered list whose items end in an amount set flush right, address and
signature blocks side by side, paragraphs headed by a word in a margin column (and, drawn
only when asked for, ``MORE_KINDS``: short lists whose markers stand in a column of their
own). The table generator (``samples.tables``) draws them beside, between and instead of
its tables so that the region model sees unruled look-alikes as often as unruled tables:
with only ruled tables among the positives and few such blocks among the negatives, a rule
above a row read as the sign of a table.

Each block is ``block(kind, pen, width) -> (height, draw)``; ``draw(x, y)`` puts it at the
top-left corner ``(x, y)`` (points, origin top left) and all its variety (typeface sizes,
columns, alignment, leaders, blanks, wording in the generator's five languages) comes from
``pen.rng``. No block carries table truth.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from prefect_docai.samples import fonts
from prefect_docai.samples.table_records import OBJECTS, phrase

TRAP_KINDS: tuple[str, ...] = (
    "contents",
    "form",
    "kv_columns",
    "prose_columns",
    "amount_list",
    "addresses",
    "signatures",
    "headed",
)
"""The look-alikes a page draws by default."""
MORE_KINDS: tuple[str, ...] = ("checklist",)
"""Look-alikes drawn among the others only when asked for (``table_page(checklists=True)``):
measured in session 27 and not yet in the pages the shipped models are trained on."""
ALL_KINDS: tuple[str, ...] = (*TRAP_KINDS, *MORE_KINDS)

Draw = Callable[[float, float], None]
Block = tuple[float, Draw]


@dataclass
class Pen:
    """What a block draws with: the page's canvas and height, the body typeface and size,
    the language, the random stream of the block, and a sentence maker in that language."""

    canvas: Canvas
    page_h: float
    font: fonts.Family
    size: float
    lang: str
    rng: random.Random
    sentence: Callable[[random.Random], str]

    def text(self, x: float, top: float, text: str, face: str, size: float) -> None:
        """``text`` with its line's top at ``top`` (the baseline 0.78 em lower)."""
        self.canvas.setFont(face, size)
        self.canvas.drawString(x, self.page_h - (top + size * 0.78), text)

    def right(self, x1: float, top: float, text: str, face: str, size: float) -> None:
        """``text`` ending at ``x1``."""
        self.text(x1 - stringWidth(text, face, size), top, text, face, size)


# --- wording ---------------------------------------------------------------------------

_CONTENTS = {
    "en": "Contents",
    "de": "Inhalt",
    "fr": "Table des matières",
    "es": "Índice",
    "nl": "Inhoudsopgave",
}
_CHAPTERS = {
    "en": (
        "Introduction",
        "Scope and purpose",
        "Background",
        "Market overview",
        "Financial results",
        "Operations",
        "Staff and organisation",
        "Risk management",
        "Sustainability",
        "Outlook",
        "Annexes",
        "Glossary",
        "Methods and data sources",
        "Acknowledgements",
    ),
    "de": (
        "Einleitung",
        "Zweck und Umfang",
        "Ausgangslage",
        "Marktüberblick",
        "Finanzielle Ergebnisse",
        "Betrieb",
        "Personal und Organisation",
        "Risikomanagement",
        "Nachhaltigkeit",
        "Ausblick",
        "Anhänge",
        "Glossar",
        "Methoden und Datenquellen",
        "Danksagung",
    ),
    "fr": (
        "Introduction",
        "Objet et périmètre",
        "Contexte",
        "Aperçu du marché",
        "Résultats financiers",
        "Exploitation",
        "Personnel et organisation",
        "Gestion des risques",
        "Développement durable",
        "Perspectives",
        "Annexes",
        "Glossaire",
        "Méthodes et sources",
    ),
    "es": (
        "Introducción",
        "Objeto y alcance",
        "Antecedentes",
        "Panorama del mercado",
        "Resultados financieros",
        "Operaciones",
        "Personal y organización",
        "Gestión de riesgos",
        "Sostenibilidad",
        "Perspectivas",
        "Anexos",
        "Glosario",
        "Métodos y fuentes",
    ),
    "nl": (
        "Inleiding",
        "Doel en reikwijdte",
        "Achtergrond",
        "Marktoverzicht",
        "Financiële resultaten",
        "Bedrijfsvoering",
        "Personeel en organisatie",
        "Risicobeheer",
        "Duurzaamheid",
        "Vooruitzichten",
        "Bijlagen",
        "Verklarende woordenlijst",
        "Methoden en bronnen",
    ),
}
_FORM_LABELS = {
    "en": (
        "Name",
        "First name",
        "Surname",
        "Date of birth",
        "Address",
        "Postcode",
        "City",
        "Country",
        "Phone",
        "E-mail",
        "Employee no.",
        "Department",
        "Signature",
        "Date",
        "Place",
        "Reason",
        "Amount",
        "Account holder",
    ),
    "de": (
        "Name",
        "Vorname",
        "Nachname",
        "Geburtsdatum",
        "Anschrift",
        "PLZ",
        "Ort",
        "Land",
        "Telefon",
        "E-Mail",
        "Personalnummer",
        "Abteilung",
        "Unterschrift",
        "Datum",
        "Ort, Datum",
        "Begründung",
        "Betrag",
        "Kontoinhaber",
    ),
    "fr": (
        "Nom",
        "Prénom",
        "Date de naissance",
        "Adresse",
        "Code postal",
        "Ville",
        "Pays",
        "Téléphone",
        "Courriel",
        "Matricule",
        "Service",
        "Signature",
        "Date",
        "Lieu",
        "Motif",
        "Montant",
        "Titulaire du compte",
    ),
    "es": (
        "Nombre",
        "Apellidos",
        "Fecha de nacimiento",
        "Dirección",
        "Código postal",
        "Ciudad",
        "País",
        "Teléfono",
        "Correo electrónico",
        "N.º de empleado",
        "Departamento",
        "Firma",
        "Fecha",
        "Lugar",
        "Motivo",
        "Importe",
        "Titular de la cuenta",
    ),
    "nl": (
        "Naam",
        "Voornaam",
        "Achternaam",
        "Geboortedatum",
        "Adres",
        "Postcode",
        "Woonplaats",
        "Land",
        "Telefoon",
        "E-mail",
        "Personeelsnummer",
        "Afdeling",
        "Handtekening",
        "Datum",
        "Plaats",
        "Reden",
        "Bedrag",
        "Rekeninghouder",
    ),
}
_KEYS = {
    "en": (
        "Invoice no.",
        "Order date",
        "Customer",
        "Reference",
        "Contact person",
        "Phone",
        "E-mail",
        "VAT ID",
        "IBAN",
        "Due date",
        "Project",
        "Cost centre",
        "Amount due",
        "Prepared by",
        "Approved by",
        "Valid until",
    ),
    "de": (
        "Rechnungsnr.",
        "Bestelldatum",
        "Kunde",
        "Unser Zeichen",
        "Ansprechpartner",
        "Telefon",
        "E-Mail",
        "USt-IdNr.",
        "IBAN",
        "Fällig am",
        "Projekt",
        "Kostenstelle",
        "Offener Betrag",
        "Erstellt von",
        "Freigegeben von",
        "Gültig bis",
    ),
    "fr": (
        "N° de facture",
        "Date de commande",
        "Client",
        "Référence",
        "Interlocuteur",
        "Téléphone",
        "Courriel",
        "N° TVA",
        "IBAN",
        "Échéance",
        "Projet",
        "Centre de coûts",
        "Montant dû",
        "Établi par",
        "Approuvé par",
        "Valable jusqu'au",
    ),
    "es": (
        "N.º de factura",
        "Fecha de pedido",
        "Cliente",
        "Referencia",
        "Persona de contacto",
        "Teléfono",
        "Correo",
        "NIF",
        "IBAN",
        "Vencimiento",
        "Proyecto",
        "Centro de coste",
        "Importe pendiente",
        "Elaborado por",
        "Aprobado por",
        "Válido hasta",
    ),
    "nl": (
        "Factuurnr.",
        "Besteldatum",
        "Klant",
        "Kenmerk",
        "Contactpersoon",
        "Telefoon",
        "E-mail",
        "Btw-nummer",
        "IBAN",
        "Vervaldatum",
        "Project",
        "Kostenplaats",
        "Openstaand bedrag",
        "Opgesteld door",
        "Goedgekeurd door",
        "Geldig tot",
    ),
}
_BLOCK_HEADS = {
    "en": (
        "Customer",
        "Supplier",
        "Delivery address",
        "Bank details",
        "Contact",
        "Order",
        "Billing",
    ),
    "de": (
        "Kunde",
        "Lieferant",
        "Lieferanschrift",
        "Bankverbindung",
        "Kontakt",
        "Auftrag",
        "Rechnung",
    ),
    "fr": (
        "Client",
        "Fournisseur",
        "Adresse de livraison",
        "Coordonnées bancaires",
        "Contact",
        "Commande",
    ),
    "es": ("Cliente", "Proveedor", "Dirección de entrega", "Datos bancarios", "Contacto", "Pedido"),
    "nl": ("Klant", "Leverancier", "Afleveradres", "Bankgegevens", "Contact", "Bestelling"),
}
_PEOPLE = (
    "Hanna Kowalski",
    "Peter Lindqvist",
    "Claire Fontaine",
    "Javier Moreno",
    "Sanne Bakker",
    "Michael O'Brien",
    "Katrin Vogel",
    "Luca Bianchi",
    "Inès Garnier",
    "Ruud van Dijk",
    "Ana Ruiz",
    "Stefan Krüger",
)
_COMPANIES = (
    "Nordwind Logistik GmbH",
    "Atelier Lumière SARL",
    "Brightfield Consulting Ltd",
    "Hermanos Vidal S.L.",
    "De Groene Schuur B.V.",
    "Alpina Technik AG",
    "Meridian Supplies Inc.",
    "Quercus Engineering",
)
_STREETS = {
    "en": ("High Street", "Station Road", "Mill Lane", "Church Street", "Park Avenue"),
    "de": ("Hauptstraße", "Bahnhofstraße", "Lindenweg", "Gartenstraße", "Am Markt"),
    "fr": ("rue de la Paix", "avenue Victor Hugo", "boulevard Voltaire", "rue des Lilas"),
    "es": ("Calle Mayor", "Avenida de la Constitución", "Calle del Sol", "Paseo del Prado"),
    "nl": ("Kerkstraat", "Dorpsstraat", "Molenweg", "Stationsplein", "Herengracht"),
}
_CITIES = {
    "en": ("SW1A 1AA London", "M1 2AB Manchester", "EH1 1YZ Edinburgh", "BS1 4DJ Bristol"),
    "de": ("10115 Berlin", "80331 München", "50667 Köln", "20095 Hamburg", "04109 Leipzig"),
    "fr": ("75008 Paris", "69002 Lyon", "13001 Marseille", "31000 Toulouse"),
    "es": ("28013 Madrid", "08002 Barcelona", "41001 Sevilla", "46002 Valencia"),
    "nl": ("1012 AB Amsterdam", "3011 CD Rotterdam", "3511 EF Utrecht", "9711 GH Groningen"),
}
_COUNTRIES = {
    "en": ("United Kingdom", "Ireland", "Germany", "France"),
    "de": ("Deutschland", "Österreich", "Schweiz", "Niederlande"),
    "fr": ("France", "Belgique", "Suisse", "Luxembourg"),
    "es": ("España", "Portugal", "Francia", "México"),
    "nl": ("Nederland", "België", "Duitsland", "Luxemburg"),
}
_ROLES = {
    "en": (
        "Managing Director",
        "Head of Finance",
        "Project Manager",
        "Applicant",
        "Customer",
        "Witness",
    ),
    "de": (
        "Geschäftsführer",
        "Leiterin Finanzen",
        "Projektleiter",
        "Antragsteller",
        "Kunde",
        "Zeuge",
    ),
    "fr": ("Directeur général", "Responsable financière", "Chef de projet", "Demandeur", "Client"),
    "es": (
        "Director general",
        "Responsable financiera",
        "Jefe de proyecto",
        "Solicitante",
        "Cliente",
    ),
    "nl": ("Directeur", "Hoofd financiën", "Projectleider", "Aanvrager", "Klant", "Getuige"),
}
_PLACE_DATE = {
    "en": "Place, date",
    "de": "Ort, Datum",
    "fr": "Fait à, le",
    "es": "Lugar y fecha",
    "nl": "Plaats, datum",
}
_LIST_HEADS = {
    "en": ("Enclosures:", "Please bring:", "Checklist", "Required documents", "Handed over:"),
    "de": ("Anlagen:", "Bitte mitbringen:", "Checkliste", "Erforderliche Unterlagen", "Übergeben:"),
    "fr": ("Pièces jointes :", "À apporter :", "Liste de contrôle", "Documents requis"),
    "es": ("Anexos:", "Traer:", "Lista de control", "Documentos necesarios", "Entregado:"),
    "nl": ("Bijlagen:", "Meenemen:", "Checklist", "Benodigde documenten", "Overhandigd:"),
}
_TOTAL = {"en": "Total", "de": "Gesamt", "fr": "Total", "es": "Total", "nl": "Totaal"}
_CURRENCY = ("EUR", "€", "GBP", "£", "USD", "$", "CHF")


# --- small pieces ----------------------------------------------------------------------


def _mark(marker: str, k: int) -> str:
    """The ``k``-th (0-based) list marker of a list marked ``marker``: numbered ("1.", "1)"),
    lettered ("a)", "(a)") or one sign for every item."""
    if marker == "1.":
        return f"{k + 1}."
    if marker == "1)":
        return f"{k + 1})"
    if marker == "a)":
        return f"{'abcdefg'[k]})"
    if marker == "(a)":
        return f"({'abcdefg'[k]})"
    return marker


def _wrap(text: str, face: str, size: float, width: float) -> list[str]:
    return [str(line) for line in simpleSplit(text, face, size, max(width, 10.0))] or [text]


def _amount(rng: random.Random, lang: str, top: float = 50000.0) -> str:
    places = rng.choice((2, 2, 2, 0))
    text = f"{rng.uniform(5.0, top):,.{places}f}"
    if lang != "en":
        group = rng.choice((" ", ".")) if lang in ("fr", "nl") else "."
        text = text.replace(",", "\x00").replace(".", ",").replace("\x00", group)
    return text


def _money(rng: random.Random, lang: str, currency: str | None) -> str:
    value = _amount(rng, lang)
    if currency is None:
        return value
    if currency in ("£", "$") or (currency == "€" and lang == "en"):
        return currency + value
    if currency == "€" and lang == "nl":
        return f"€ {value}"
    return f"{value} {currency}"


def _date(rng: random.Random, lang: str) -> str:
    d, m, y = rng.randint(1, 28), rng.randint(1, 12), rng.randint(2015, 2027)
    if lang == "en":
        return rng.choice((f"{d:02d}/{m:02d}/{y}", f"{y}-{m:02d}-{d:02d}"))
    if lang == "de":
        return f"{d:02d}.{m:02d}.{y}"
    if lang == "nl":
        return f"{d:02d}-{m:02d}-{y}"
    return f"{d:02d}/{m:02d}/{y}"


def _value(rng: random.Random, lang: str, key: str) -> str:
    """A plausible value for a key-value line (a name, a date, an amount, an id...)."""
    roll = rng.random()
    if "IBAN" in key:
        return "DE" + " ".join(f"{rng.randint(0, 9999):04d}" for _ in range(5))
    if "mail" in key.lower() or "correo" in key.lower() or "courriel" in key.lower():
        name = rng.choice(_PEOPLE).split()[0].lower()
        return f"{name}@{rng.choice(('example.com', 'firma.de', 'societe.fr', 'bedrijf.nl'))}"
    if roll < 0.25:
        return rng.choice(_PEOPLE)
    if roll < 0.45:
        return _date(rng, lang)
    if roll < 0.6:
        return _money(rng, lang, rng.choice(_CURRENCY))
    if roll < 0.8:
        return f"{rng.choice('ABCKRX')}{rng.randint(100, 99999)}-{rng.randint(10, 99)}"
    return f"+{rng.randint(30, 49)} {rng.randint(10, 999)} {rng.randint(100000, 9999999)}"


def _blank(pen: Pen, style: str, x0: float, x1: float, top: float, size: float) -> None:
    """The space left to write in: a run of underscores or of dots. Never a drawn line or an
    outlined box: a look-alike with drawn rules or boxes is a small ruled grid that is no
    table, and fitted on those the region model dropped real small ruled tables (held-out
    ICDAR recall 0.975 → 0.942, session 24); the unruled look-alikes are what the models
    lacked."""
    face = pen.font.regular
    if x1 - x0 < size:
        return
    mark = "_" if style == "under" else "."
    count = int((x1 - x0) / stringWidth(mark, face, size))
    if count > 2:
        pen.text(x0, top, mark * count, face, size)


def _columns(rng: random.Random, width: float, least: float) -> int:
    """Two or three side-by-side parts, as many as ``width`` holds at ``least`` wide each
    (one when even two do not fit)."""
    fits = max(1, min(3, int(width // least)))
    return min(fits, rng.choice((2, 2, 3)))


# --- the blocks ------------------------------------------------------------------------


def _contents(pen: Pen, width: float) -> Block:
    """A contents list: numbered chapters with sections indented below them, page numbers
    set flush right, joined by dot leaders (close or spaced) or by nothing. The numbers lead
    their titles or stand in a column of their own, the titles set at a tab stop after them
    (which lines a contents list up like a table of three columns)."""
    rng, lang = pen.rng, pen.lang
    size = pen.size * rng.uniform(0.9, 1.1)
    leading = size * rng.uniform(1.25, 1.8)
    width *= rng.uniform(0.55, 1.0)
    numbered = rng.random() < 0.75
    leader = rng.choice(("", ".", ". ", ".", "…"))
    bold_chapters = rng.random() < 0.5
    indent = size * rng.uniform(1.2, 2.5)
    titles = rng.sample(_CHAPTERS[lang], rng.randint(4, min(9, len(_CHAPTERS[lang]))))
    entries: list[tuple[int, str, str, bool]] = []  # level, number, title, bold
    page = rng.randint(1, 5)
    pages: list[str] = []
    for i, title in enumerate(titles, start=1):
        mark = f"{i}{'.' if rng.random() < 0.3 else ''}" if numbered else ""
        entries.append((0, mark, title, bold_chapters))
        pages.append(str(page))
        page += rng.randint(1, 5)
        for j in range(rng.choice((0, 0, 1, 2, 3))):
            sub = rng.choice(_CHAPTERS[lang])
            entries.append((1, f"{i}.{j + 1}" if numbered else "", sub, False))
            pages.append(str(page))
            page += rng.randint(0, 3)
    tab = size * rng.uniform(1.8, 3.5) if numbered and rng.random() < 0.5 else 0.0
    heading = rng.random() < 0.8
    head_size = size * rng.uniform(1.1, 1.5)

    def draw(x: float, y: float) -> None:
        top = y
        if heading:
            pen.text(x, top, _CONTENTS[lang], pen.font.bold, head_size)
            top += head_size * 1.8
        for (level, mark, title, bold), number in zip(entries, pages, strict=True):
            face = pen.font.bold if bold else pen.font.regular
            left = x + level * indent
            if tab and mark:
                pen.text(left, top, mark, face, size)
                left += max(tab, stringWidth(mark, face, size) + size * 0.8)
                text = title
            else:
                text = f"{mark}  {title}" if mark else title
            pen.text(left, top, text, face, size)
            pen.right(x + width, top, number, face, size)
            if leader:
                start = left + stringWidth(text, face, size) + size * 0.5
                end = x + width - stringWidth(number, face, size) - size * 0.5
                count = int((end - start) / stringWidth(leader, face, size))
                if count > 2:
                    pen.text(start, top, leader * count, pen.font.regular, size)
            top += leading

    height = (head_size * 1.8 if heading else 0.0) + len(entries) * leading
    return height, draw


def _form(pen: Pen, width: float) -> Block:
    """A form to fill in: lines of one to three labelled blanks (underscores or dots, see
    :func:`_blank`), the label before its blank."""
    rng, lang = pen.rng, pen.lang
    size = pen.size * rng.uniform(0.9, 1.1)
    leading = size * rng.uniform(1.9, 2.8)
    style = rng.choice(("under", "under", "under", "dots", "dots"))
    colon = rng.random() < 0.7
    labels = list(_FORM_LABELS[lang])
    rng.shuffle(labels)
    lines: list[list[str]] = []
    for _ in range(rng.randint(3, 8)):
        per = rng.choice((1, 1, 2, 2, 3)) if width > size * 30 else 1
        lines.append([labels.pop() if labels else "" for _ in range(per)])

    def draw(x: float, y: float) -> None:
        face = pen.font.regular
        for k, fields in enumerate(lines):
            top = y + k * leading
            span = width / len(fields)
            for i, label in enumerate(fields):
                x0 = x + i * span
                x1 = x0 + span - (size * 1.5 if i < len(fields) - 1 else 0.0)
                text = label + (":" if colon else "")
                pen.text(x0, top, text, face, size)
                _blank(pen, style, x0 + stringWidth(text, face, size) + size * 0.5, x1, top, size)

    return len(lines) * leading, draw


def _kv_columns(pen: Pen, width: float) -> Block:
    """Two or three key-value blocks side by side, each perhaps under a heading: keys with or
    without colons, values after a common tab, right after their key or flush right."""
    rng, lang = pen.rng, pen.lang
    count = _columns(rng, width, pen.size * 18)
    gutter = width * rng.uniform(0.04, 0.15)
    block_w = (width - gutter * (count - 1)) / count
    size = pen.size * rng.uniform(0.85, 1.05)
    leading = size * rng.uniform(1.2, 1.7)
    colon = rng.random() < 0.7
    key_face = pen.font.bold if rng.random() < 0.4 else pen.font.regular
    place = rng.choice(("tab", "tab", "after", "right"))
    heads = rng.sample(_BLOCK_HEADS[lang], count) if rng.random() < 0.5 else None
    keys = list(_KEYS[lang])
    rng.shuffle(keys)
    blocks: list[list[tuple[str, str]]] = []
    n = rng.randint(3, 6)
    for _ in range(count):
        pairs = []
        for _ in range(n if rng.random() < 0.7 else rng.randint(2, 7)):
            key = keys.pop() if keys else rng.choice(_KEYS[lang])
            pairs.append((key + (":" if colon else ""), _value(rng, lang, key)))
        blocks.append(pairs)

    def draw(x: float, y: float) -> None:
        for b, pairs in enumerate(blocks):
            bx = x + b * (block_w + gutter)
            top = y
            if heads is not None:
                pen.text(bx, top, heads[b], pen.font.bold, size * 1.1)
                top += leading * 1.2
            tab = max(stringWidth(k, key_face, size) for k, _ in pairs) + size
            for key, value in pairs:
                pen.text(bx, top, key, key_face, size)
                after = bx + stringWidth(key, key_face, size) + size * 0.5
                vx = after
                if place == "right":
                    vx = bx + block_w - stringWidth(value, pen.font.regular, size)
                elif place == "tab":
                    vx = bx + min(tab, block_w * 0.55)
                # a value never runs into its key
                pen.text(max(vx, after), top, value, pen.font.regular, size)
                top += leading

    rows = max(len(p) for p in blocks) + (1.2 if heads is not None else 0.0)
    return rows * leading, draw


def _prose_columns(pen: Pen, width: float) -> Block:
    """Two or three columns of running text, justified or ragged, a heading over each
    column or none."""
    rng = pen.rng
    count = _columns(rng, width, pen.size * 16)
    gutter = pen.size * rng.uniform(1.0, 3.0)
    col_w = (width - gutter * (count - 1)) / count
    size = pen.size
    leading = size * rng.uniform(1.15, 1.4)
    justify = rng.random() < 0.5
    heads = rng.random() < 0.35
    face = pen.font.regular
    columns = []
    for _ in range(count):
        text = " ".join(pen.sentence(rng) for _ in range(rng.randint(2, 4)))
        lines = _wrap(text, face, size, col_w)[: rng.randint(4, 12)]
        columns.append((rng.choice(_CHAPTERS[pen.lang]) if heads else "", lines))

    def draw(x: float, y: float) -> None:
        for k, (head, lines) in enumerate(columns):
            cx = x + k * (col_w + gutter)
            top = y
            if head:
                pen.text(cx, top, head, pen.font.bold, size)
                top += leading * 1.3
            for i, line in enumerate(lines):
                words = line.split()
                if justify and i < len(lines) - 1 and len(words) > 1:
                    natural = sum(stringWidth(w, face, size) for w in words)
                    gap = (col_w - natural) / (len(words) - 1)
                    tx = cx
                    for w in words:
                        pen.text(tx, top, w, face, size)
                        tx += stringWidth(w, face, size) + gap
                else:
                    pen.text(cx, top, line, face, size)
                top += leading

    tallest = max(len(lines) + (1.3 if head else 0.0) for head, lines in columns)
    return tallest * leading, draw


def _amount_list(pen: Pen, width: float) -> Block:
    """A numbered or bulleted list of sentences, each ending in an amount set flush right on
    its last (or first) line; perhaps a total line under them."""
    rng, lang = pen.rng, pen.lang
    size = pen.size
    leading = size * rng.uniform(1.15, 1.45)
    gap = size * rng.uniform(0.2, 0.9)
    marker = rng.choice(("1.", "1)", "(a)", "•", "–"))
    indent = size * rng.uniform(1.5, 2.8)
    currency = rng.choice((None, *_CURRENCY))
    share = rng.uniform(0.6, 0.82)
    on_first = rng.random() < 0.35
    face = pen.font.regular
    items = []
    for _ in range(rng.randint(3, 7)):
        text = (
            pen.sentence(rng) if rng.random() < 0.7 else f"{pen.sentence(rng)} {pen.sentence(rng)}"
        )
        amount = _money(rng, lang, currency)
        # the text stops short of the amount set flush right
        room = width - indent - stringWidth(amount, face, size) - size * 1.5
        items.append((_wrap(text, face, size, min((width - indent) * share, room)), amount))
    total = _money(rng, lang, currency) if rng.random() < 0.3 else None

    def draw(x: float, y: float) -> None:
        top = y
        for k, (lines, amount) in enumerate(items):
            pen.text(x, top, _mark(marker, k), face, size)
            for i, line in enumerate(lines):
                pen.text(x + indent, top + i * leading, line, face, size)
            row = 0 if on_first else len(lines) - 1
            pen.right(x + width, top + row * leading, amount, face, size)
            top += len(lines) * leading + gap
        if total is not None:
            pen.text(x + indent, top, _TOTAL[lang], pen.font.bold, size)
            pen.right(x + width, top, total, pen.font.bold, size)

    height = sum(len(lines) * leading + gap for lines, _ in items) + (leading if total else 0.0)
    return height, draw


def _items(rng: random.Random, lang: str, count: int) -> list[str]:
    """``count`` different short list items: things to hand over (the record tables'
    objects, so the same words stand in tables and in lists) or things to do."""
    items: list[str] = []
    while len(items) < count:
        if rng.random() < 0.6:
            thing = rng.choice(OBJECTS[lang])
            item = thing[:1].upper() + thing[1:]
        else:
            item = phrase(rng, lang)
        if item not in items:
            items.append(item)
    return items


def _checklist(pen: Pen, width: float) -> Block:
    """One to three short lists side by side (enclosures, things to bring, steps): a marker
    in a column of its own, then a short item on one line, perhaps under a heading. Two
    columns that line up, and no table."""
    rng, lang = pen.rng, pen.lang
    count = _columns(rng, width, pen.size * 16) if rng.random() < 0.4 else 1
    gutter = width * rng.uniform(0.05, 0.15)
    part_w = (width - gutter * (count - 1)) / count
    size = pen.size * rng.uniform(0.9, 1.05)
    leading = size * rng.uniform(1.2, 1.7)
    marker = rng.choice(("–", "-", "•", "*", "1.", "1)", "a)", "(a)", "o"))
    indent = size * rng.uniform(1.2, 3.0)
    heads = [rng.choice(_LIST_HEADS[lang]) for _ in range(count)] if rng.random() < 0.6 else None
    parts = [_items(rng, lang, rng.randint(2, 6)) for _ in range(count)]

    def draw(x: float, y: float) -> None:
        for b, items in enumerate(parts):
            bx = x + b * (part_w + gutter)
            top = y
            if heads is not None:
                pen.text(bx, top, heads[b], pen.font.bold, size)
                top += leading * 1.2
            marks = [_mark(marker, k) for k in range(len(items))]
            # the items at one tab stop past the widest marker
            tab = max(indent, *(stringWidth(m, pen.font.regular, size) + size * 0.5 for m in marks))
            face = pen.font.regular
            for m, item in zip(marks, items, strict=True):
                pen.text(bx, top, m, face, size)
                # one line an item: a long one is cut at the column's edge
                pen.text(bx + tab, top, _wrap(item, face, size, part_w - tab)[0], face, size)
                top += leading

    rows = max(len(p) for p in parts) + (1.2 if heads is not None else 0.0)
    return rows * leading, draw


def _address(rng: random.Random, lang: str) -> list[str]:
    lines = [rng.choice(_PEOPLE)]
    if rng.random() < 0.6:
        lines.insert(0 if rng.random() < 0.5 else 1, rng.choice(_COMPANIES))
    number = rng.randint(1, 180)
    street = rng.choice(_STREETS[lang])
    lines.append(f"{number} {street}" if lang in ("en", "fr") else f"{street} {number}")
    lines.append(rng.choice(_CITIES[lang]))
    if rng.random() < 0.4:
        lines.append(rng.choice(_COUNTRIES[lang]))
    if rng.random() < 0.3:
        lines.append(_value(rng, lang, "Phone"))
    return lines


def _addresses(pen: Pen, width: float) -> Block:
    """Two or three address blocks side by side (sender, recipient, delivery, bank), each
    perhaps under a small heading, set left or flush right."""
    rng, lang = pen.rng, pen.lang
    count = _columns(rng, width, pen.size * 14)
    size = pen.size * rng.uniform(0.85, 1.05)
    leading = size * rng.uniform(1.15, 1.4)
    spread = rng.random() < 0.5  # the last block flush right
    heads = rng.sample(_BLOCK_HEADS[lang], count) if rng.random() < 0.5 else None
    blocks = [_address(rng, lang) for _ in range(count)]
    if heads is not None:
        blocks = [[head, *lines] for head, lines in zip(heads, blocks, strict=True)]
    face = pen.font.regular
    widths = [max(stringWidth(t, pen.font.bold, size) for t in lines) for lines in blocks]
    while len(blocks) > 1 and sum(widths) + size * 2 * (len(blocks) - 1) > width:
        blocks, widths = blocks[:-1], widths[:-1]  # fewer blocks than would overlap
    lefts = [width * b / len(blocks) for b in range(len(blocks))]
    if spread and len(blocks) > 1:
        lefts[-1] = width - widths[-1]
    for b in range(1, len(blocks)):
        lefts[b] = max(lefts[b], lefts[b - 1] + widths[b - 1] + size * 2)

    def draw(x: float, y: float) -> None:
        for b, lines in enumerate(blocks):
            top = y
            for k, line in enumerate(lines):
                bold = heads is not None and k == 0
                pen.text(x + lefts[b], top, line, pen.font.bold if bold else face, size)
                top += leading * (1.3 if bold else 1.0)

    rows = max(len(lines) for lines in blocks) + (0.3 if heads is not None else 0.0)
    return rows * leading, draw


def _signatures(pen: Pen, width: float) -> Block:
    """A place-and-date line, then two or three signature lines of underscores side by side
    with a name and a role under each (no drawn rule, see :func:`_blank`)."""
    rng, lang = pen.rng, pen.lang
    count = _columns(rng, width, pen.size * 13)
    size = pen.size * rng.uniform(0.85, 1.0)
    gutter = width * rng.uniform(0.06, 0.15)
    col_w = (width - gutter * (count - 1)) / count
    place = rng.random() < 0.6
    people = rng.sample(_PEOPLE, count)
    roles = [rng.choice(_ROLES[lang]) for _ in range(count)]
    room = size * rng.uniform(2.5, 4.0)
    leading = size * 1.3

    def draw(x: float, y: float) -> None:
        face = pen.font.regular
        top = y
        if place:
            label = _PLACE_DATE[lang] + ":"
            pen.text(x, top, label, face, size)
            x0 = x + stringWidth(label, face, size) + size * 0.5
            _blank(pen, "under", x0, x + col_w, top, size)
            top += leading * 1.5
        top += room
        for k in range(count):
            cx = x + k * (col_w + gutter)
            _blank(pen, "under", cx, cx + col_w, top - size, size)
            pen.text(cx, top + size * 0.4, people[k], face, size)
            pen.text(cx, top + size * 0.4 + leading, roles[k], pen.font.italic, size * 0.9)

    height = (leading * 1.5 if place else 0.0) + room + size * 0.4 + 2 * leading
    return height, draw


def _headed(pen: Pen, width: float) -> Block:
    """Paragraphs headed by a word or two (or a span of years) in a margin column, the head
    on the paragraph's first line."""
    rng, lang = pen.rng, pen.lang
    size = pen.size
    leading = size * rng.uniform(1.15, 1.4)
    margin = max(width * rng.uniform(0.18, 0.35), size * 7)
    years = rng.random() < 0.3
    head_face = pen.font.bold if rng.random() < 0.7 else pen.font.italic
    face = pen.font.regular
    entries = []
    start = rng.randint(1995, 2015)
    for _ in range(rng.randint(3, 6)):
        if years:
            end = start + rng.randint(1, 4)
            head = f"{start} – {end}" if rng.random() < 0.7 else f"{start}–{end}"
            start = end
        else:
            head = rng.choice(_CHAPTERS[lang])
        text = " ".join(pen.sentence(rng) for _ in range(rng.randint(1, 3)))
        entries.append(
            (_wrap(head, head_face, size, margin - size), _wrap(text, face, size, width - margin))
        )
    gap = size * rng.uniform(0.4, 1.2)

    def draw(x: float, y: float) -> None:
        top = y
        for head, lines in entries:
            for i, line in enumerate(head):
                pen.text(x, top + i * leading, line, head_face, size)
            for i, line in enumerate(lines):
                pen.text(x + margin, top + i * leading, line, face, size)
            top += max(len(head), len(lines)) * leading + gap

    height = sum(max(len(h), len(t)) * leading + gap for h, t in entries) - gap
    return height, draw


_BLOCKS: dict[str, Callable[[Pen, float], Block]] = {
    "contents": _contents,
    "form": _form,
    "kv_columns": _kv_columns,
    "prose_columns": _prose_columns,
    "amount_list": _amount_list,
    "addresses": _addresses,
    "signatures": _signatures,
    "headed": _headed,
    "checklist": _checklist,
}


def block(kind: str, pen: Pen, width: float) -> Block:
    """The look-alike ``kind`` (one of ``ALL_KINDS``) drawn ``width`` points wide."""
    return _BLOCKS[kind](pen, width)
