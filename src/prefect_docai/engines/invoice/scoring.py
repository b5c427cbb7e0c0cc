"""Learned candidate scorers for invoice header fields (issue #14): every date, every
id-shaped token of the pages is a candidate; a scorer shipped in ``engines/data/`` (read
by :mod:`prefect_docai.engines.learned`, trained by ``training/invoices.py``) gives each
the probability of being the field, over layout and text features: label words nearby in
German, English, French, Dutch, Italian and Spanish (in the candidate's segment before it,
in the segment to its left, in the one above it), position, font size, the candidate's
shape and how often it recurs, and whether the rules picked it. The most probable candidate
is the field; its calibrated probability is the field's confidence.

Features name only words and geometry: nothing is keyed to a seller, file or template.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from statistics import median

from prefect_docai.engines.extract.candidates import Candidate, date_in
from prefect_docai.engines.extract.labels import rx
from prefect_docai.engines.extract.rows import PageLayout, Row, Segment, fold
from prefect_docai.engines.learned import Scorer, packaged
from prefect_docai.engines.page.model import Word

# --- label words, six languages ----------------------------------------------------------

INVOICE_WORD = rx(
    r"rechnung",
    r"invoice",
    r"factur",
    r"factuur",
    r"fattura",
    r"gutschrift",
    r"credit\s*note",
    r"avoir",
    r"bill\b",
    r"nota\s+de\s+cr[ée]dito",
    r"nota\s+di\s+credito",
    r"creditnota",
    r"honorar",
    r"honoraires",
    r"honorarios",
    r"parcella",
    r"\bnota\b",
)
NUMBER_WORD = rx(
    r"\bnr\b",
    r"\bnr\.",
    r"\bno\b",
    r"\bno\.",
    r"n[°º]",
    r"#",
    r"number",
    r"nummer",
    r"num[ée]ro",
    r"n[úu]mero",
    r"\bnum\b",
    r"\bref\b",
    r"\bref\.",
    r"r[ée]f[ée]rence",
    r"referenz",
    r"referentie",
    r"riferimento",
    r"referencia",
    r"\bbeleg",
    r"\bdoc(?:ument)?\b",
    r"\bid\b",
)
INVOICE_NUMBER_LABEL = rx(
    r"rechnungs?[\s-]*(?:nummer|nr|no)",
    r"rechnung\s*(?:nr|#|no|n[°o])",
    r"invoice\s*(?:number|no|#|nr|n[°o]|id|ref)",
    r"\binv\.?\s*(?:no|#)",
    r"(?:num[ée]ro|n[°o])\s*(?:de\s*)?(?:la\s*)?facture",
    r"facture\s*(?:n[°o]|num|#)",
    r"factuur\s*(?:nummer|nr|no)",
    r"factuurnummer",
    r"(?:numero|n\.?|nr\.?)\s*(?:di\s*|della\s*)?fattura",
    r"fattura\s*(?:n|nr|numero)\b",
    r"(?:n[úu]mero|n[°º])\s*(?:de\s*)?factura",
    r"factura\s*(?:n|no|nr|n[úu]m)",
    r"beleg[\s-]*(?:nummer|nr)",
    r"gutschrift[\s-]*(?:nummer|nr)",
    r"credit\s*note\s*(?:no|number|#)",
    r"bill\s*(?:no|number)",
    r"document\s*(?:no|number)",
)
OTHER_ID_LABEL = rx(
    r"kunde",
    r"customer",
    r"client",
    r"klant",
    r"cliente",
    r"debitor",
    r"account",
    r"konto",
    r"compte",
    r"rekening",
    r"conto",
    r"cuenta",
    r"bestell",
    r"order",
    r"commande",
    r"auftrag",
    r"ordine",
    r"pedido",
    r"bestelling",
    r"liefer",
    r"delivery",
    r"livraison",
    r"levering",
    r"consegna",
    r"entrega",
    r"albar[áa]n",
    r"\bddt\b",
    r"ust",
    r"\bvat\b",
    r"\btva\b",
    r"\biva\b",
    r"\bbtw\b",
    r"steuer",
    r"\btax\b",
    r"siret",
    r"siren",
    r"\bnif\b",
    r"\bcif\b",
    r"partita",
    r"\bkvk\b",
    r"handelsregister",
    r"\bhrb?\b",
    r"registr",
    r"\btel",
    r"phone",
    r"fax",
    r"mobil",
    r"\biban\b",
    r"\bbic\b",
    r"swift",
    r"\bblz\b",
    r"seite",
    r"page",
    r"pagina",
    r"p[áa]gina",
    r"artikel",
    r"article",
    r"articolo",
    r"art[íi]culo",
    r"\bsku\b",
    r"\bitem\b",
    r"\bpos\b",
    r"projekt",
    r"project",
    r"projet",
    r"vertrag",
    r"contract",
    r"contrat",
    r"police",
    r"policy",
    r"versicherungs",
    r"\bzip\b",
    r"\bplz\b",
    r"postcode",
    r"code\s*postal",
)
INVOICE_DATE_LABEL = rx(
    r"rechnungsdatum",
    r"invoice\s*date",
    r"date\s*of\s*invoice",
    r"datum\s*der\s*rechnung",
    r"belegdatum",
    r"ausstellungsdatum",
    r"date\s*de\s*(?:la\s*)?facture?",
    r"date\s*d['’]?[ée]mission",
    r"factuurdatum",
    r"issue\s*date",
    r"date\s*issued",
    r"issued\s*on",
    r"gutschriftsdatum",
    r"tax\s*point",
    r"data\s*(?:della\s*|di\s*)?fattura",
    r"data\s*(?:di\s*)?emissione",
    r"fecha\s*(?:de\s*)?(?:la\s*)?factura",
    r"fecha\s*(?:de\s*)?emisi[óo]n",
    r"invoice\s*issued",
    r"erstellt\s*am",
    r"created",
    r"date\s*of\s*issue",
    r"[ée]mise?\s*le\b",
    r"[ée]tablie?\s*le\b",
    r"data\s*documento",
    r"fecha\s*(?:de\s*)?expedici[óo]n",
)
GENERIC_DATE_LABEL = rx(
    r"\bdatum\b",
    r"\bdate\b",
    r"\bdated\b",
    r"\bdata\b",
    r"\bfecha\b",
    r"\bvom\b",
    r"\bden\b",
    r"\bdu\b",
    r"\ble\b",
    r"\bvan\b",
    r"\bdel\b",
    r"\bon\b",
    r"\bam\b",
)
DUE_DATE_LABEL = rx(
    r"f[äa]llig",
    r"zahlbar",
    r"zahlungsziel",
    r"\bdue\b",
    r"pay(?:able)?\s*by",
    r"payment\s*date",
    r"bis\s*zum",
    r"[ée]ch[ée]ance",
    r"vervaldatum",
    r"betaal",
    r"date\s*limite",
    r"[àa]\s*payer\s*avant",
    r"scadenza",
    r"vencimiento",
    r"pagar\s*antes",
    r"skonto",
    r"valuta",
)
DELIVERY_DATE_LABEL = rx(
    r"liefer",
    r"leistung",
    r"zeitraum",
    r"delivery",
    r"supply",
    r"service",
    r"shipp",
    r"\bship(?:ment)?\b",
    r"versand",
    r"ausf[üu]hrung",
    r"fulfil",
    r"performance",
    r"verzend",
    r"esecuzione",
    r"prestaci[óo]n",
    r"dispatch",
    r"period",
    r"livraison",
    r"prestation",
    r"p[ée]riode",
    r"exp[ée]dition",
    r"levering",
    r"lever",
    r"periode",
    r"consegna",
    r"prestazione",
    r"periodo",
    r"entrega",
    r"servicio",
    r"abrechnungs",
    r"billing",
    r"bestell",
    r"order",
    r"commande",
    r"auftrag",
    r"ordine",
    r"pedido",
    r"vertrag",
    r"contract",
    r"\bvon\b",
    r"\bbis\b",
    r"\bfrom\b",
    r"\bto\b",
    r"\bau\b",
    r"\bal\b",
    r"\btot\b",
)
"""Dates that belong to something else: delivery, service period, order, contract."""
RANGE_DASH = re.compile(r"^[-–—]$|^(?:bis|to|au|al|tot|a|until|till)$", re.IGNORECASE)

_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9/_.\-]*[A-Za-z0-9]$")
_AMOUNT_SHAPE = re.compile(r"^-?\d{1,3}(?:[.,' ]\d{3})*[.,]\d{2}$|^-?\d+[.,]\d{2}$")
_DATE_SHAPE = re.compile(r"^\d{1,2}[./-]\d{1,2}[./-]\d{2,4}$|^\d{4}-\d{2}-\d{2}$")
_FRACTION = re.compile(r"^\d{1,2}/\d{1,2}$")
_SKIP = {"nr", "nr.", "no", "no.", "n°", "number", "nummer", "num", "ref", "ref."}


@dataclass(frozen=True)
class Spot:
    """A candidate's place: its tokens, row and segment on a page layout."""

    value: str
    tokens: tuple[Word, ...]
    layout: PageLayout
    row: Row
    segment: Segment
    start: int
    """Index of the first token in ``segment.tokens``."""


def _above(layout: PageLayout, row: Row, segment: Segment) -> Segment | None:
    """The nearest segment above ``segment`` overlapping it horizontally."""
    x0, y0, x1, y1 = segment.bbox
    height = max(y1 - y0, 1e-3)
    for other_row in reversed(layout.rows[: row.index]):
        if y0 - other_row.bbox[3] > 3.0 * height:
            return None
        for other in other_row.segments:
            ox0, _, ox1, _ = other.bbox
            if ox0 < x1 and ox1 > x0:
                return other
    return None


def _own_label(tokens: Sequence[Word]) -> Sequence[Word]:
    """The words before a candidate back to the previous value (the last token with a
    digit): a line of several labelled values ("Ref. 4711 Created 06/09/2026 Supply date
    06/06/2026") gives each value its own label, not its neighbours'."""
    last = max((i for i, t in enumerate(tokens) if any(c.isdigit() for c in t.text)), default=-1)
    return tokens[last + 1 :]


def contexts(spot: Spot) -> tuple[str, str, str, str]:
    """Folded text before the candidate in its segment (back to the previous value: its
    own label), of the segment to its left, of the segment above, and of the whole row."""
    own = _own_label(spot.segment.tokens[: spot.start])
    before = fold(" ".join(t.text for t in own))[-48:]
    position = next((i for i, s in enumerate(spot.row.segments) if s is spot.segment), 0)
    left = fold(spot.row.segments[position - 1].text)[-48:] if position > 0 else ""
    above_segment = _above(spot.layout, spot.row, spot.segment)
    above = fold(above_segment.text) if above_segment is not None else ""
    return before, left, above, fold(spot.row.text)


_LETTERS = re.compile(r"[^\W\d_]{2}")


def _near(pattern: re.Pattern[str], before: str, left: str, above: str) -> float:
    """The candidate's own label: the words before it in its segment (1), else the
    segment to its left when that has words (0.9), else the segment above (0.8, a value
    printed under its column header)."""
    if _LETTERS.search(before):
        return 1.0 if pattern.search(before) else 0.0
    if _LETTERS.search(left):
        return 0.9 if pattern.search(left) else 0.0
    return 0.8 if pattern.search(above) else 0.0


def _font_ratio(tokens: Sequence[Word], typical: float) -> float:
    sizes = [t.font_size for t in tokens if t.font_size]
    if not sizes or typical <= 0:
        return 1.0
    return min(max(sizes) / typical, 4.0)


def _typical_font(layouts: Sequence[PageLayout]) -> float:
    sizes = [
        t.font_size for layout in layouts for row in layout.rows for t in row.tokens if t.font_size
    ]
    return float(median(sizes)) if sizes else 0.0


def _common(spots: Sequence[Spot], layouts: Sequence[PageLayout]) -> list[list[float]]:
    """Page, position, font size, row and segment shape, word confidence of each spot."""
    pages = max(len(layouts), 1)
    typical = _typical_font(layouts)
    out: list[list[float]] = []
    for spot in spots:
        x0, y0, _, _ = spot.tokens[0].bbox
        out.append(
            [
                min(spot.layout.page - 1, 3) / 3 if pages > 1 else 0.0,
                y0,
                x0,
                _font_ratio(spot.tokens, typical),
                float(len(spot.row.segments)),
                float(len(spot.segment.text) > 60),
                sum(t.confidence for t in spot.tokens) / len(spot.tokens),
            ]
        )
    return out


# --- dates -------------------------------------------------------------------------------

DATE_FEATURES: tuple[str, ...] = (
    "page",
    "y",
    "x",
    "font_ratio",
    "row_segments",
    "prose",
    "word_confidence",
    "invoice_label",
    "generic_label",
    "due_label",
    "delivery_label",
    "invoice_word_row",
    "invoice_label_row",
    "delivery_label_row",
    "due_label_row",
    "range",
    "dates_in_row",
    "order",
    "first",
    "earliest",
    "latest",
    "same_value_share",
    "days_after_earliest",
    "rules_pick",
)


def date_spots(layouts: Sequence[PageLayout], month_first: bool = False) -> list[Spot]:
    """Every date printed on the pages (numeric in one token or written with a month name,
    Italian and Spanish ones too); numeric ones month-first when ``month_first`` (the
    page's own order, :func:`.fields.dates`)."""
    spots: list[Spot] = []
    for layout in layouts:
        for row in layout.rows:
            for segment in row.segments:
                tokens = segment.tokens
                index = 0
                while index < len(tokens):
                    hit = date_in(tokens[index : index + 4], month_first, every_language=True)
                    if hit is None or hit[1][0] is not tokens[index]:
                        index += 1
                        continue
                    value, used = hit
                    spots.append(Spot(value.isoformat(), used, layout, row, segment, index))
                    index += len(used)
    return spots


def _in_range(spot: Spot) -> float:
    """Whether the date is one end of a range (``01.03. - 31.03.2024``, ``du … au …``)."""
    tokens = spot.row.tokens
    first = next((i for i, t in enumerate(tokens) if t is spot.tokens[0]), None)
    if first is None:
        return 0.0
    last = first + len(spot.tokens) - 1
    neighbours = [tokens[i].text for i in (first - 1, last + 1) if 0 <= i < len(tokens)]
    if any(RANGE_DASH.match(text) for text in neighbours):
        return 1.0
    return 1.0 if re.search(r"\d[-–]\s*$", tokens[first].text) else 0.0


def date_features(
    layouts: Sequence[PageLayout], spots: Sequence[Spot], rules_value: str | None
) -> list[list[float]]:
    common = _common(spots, layouts)
    values = [date.fromisoformat(s.value) for s in spots]
    earliest, latest = (min(values), max(values)) if values else (None, None)
    distinct: list[str] = []
    for spot in spots:
        if spot.value not in distinct:
            distinct.append(spot.value)
    rows: list[list[float]] = []
    for index, spot in enumerate(spots):
        before, left, above, row_text = contexts(spot)
        in_row = sum(1 for s in spots if s.row is spot.row)
        value = values[index]
        rank = distinct.index(spot.value)
        rows.append(
            [
                *common[index],
                _near(INVOICE_DATE_LABEL, before, left, above),
                _near(GENERIC_DATE_LABEL, before, left, above),
                _near(DUE_DATE_LABEL, before, left, above),
                _near(DELIVERY_DATE_LABEL, before, left, above),
                float(bool(INVOICE_WORD.search(row_text))),
                float(bool(INVOICE_DATE_LABEL.search(row_text))),
                float(bool(DELIVERY_DATE_LABEL.search(row_text))),
                float(bool(DUE_DATE_LABEL.search(row_text))),
                _in_range(spot),
                float(min(in_row, 4)),
                min(rank, 5) / 5,
                float(rank == 0),
                float(value == earliest),
                float(value == latest),
                sum(1 for s in spots if s.value == spot.value) / len(spots),
                min((value - earliest).days, 400) / 400 if earliest is not None else 0.0,
                float(rules_value is not None and spot.value == rules_value),
            ]
        )
    return rows


# --- invoice numbers -----------------------------------------------------------------------

NUMBER_FEATURES: tuple[str, ...] = (
    "page",
    "y",
    "x",
    "font_ratio",
    "row_segments",
    "prose",
    "word_confidence",
    "invoice_number_label",
    "number_word",
    "invoice_word",
    "other_id_label",
    "invoice_word_row",
    "other_id_row",
    "length",
    "digit_share",
    "has_letter",
    "has_separator",
    "all_digits",
    "five_digits",
    "fraction",
    "occurrences",
    "rules_pick",
)


def number_spots(layouts: Sequence[PageLayout]) -> list[Spot]:
    """Every id-shaped token: letters, digits, ``/ - . _``, with at least one digit, 3 to 30
    characters, neither a date nor an amount."""
    spots: list[Spot] = []
    for layout in layouts:
        for row in layout.rows:
            for segment in row.segments:
                for index, token in enumerate(segment.tokens):
                    text = token.text.strip().strip(":,;()[]").lstrip("#").rstrip(".")
                    if (
                        not 3 <= len(text) <= 30
                        or not _ID.match(text)
                        or not any(c.isdigit() for c in text)
                        or text.lower() in _SKIP
                        or _AMOUNT_SHAPE.match(text)
                        or _DATE_SHAPE.match(text)
                        or date_in([token]) is not None
                    ):
                        continue
                    spots.append(Spot(text, (token,), layout, row, segment, index))
    return spots


def number_features(
    layouts: Sequence[PageLayout], spots: Sequence[Spot], rules_value: str | None
) -> list[list[float]]:
    common = _common(spots, layouts)
    counts: dict[str, int] = {}
    for spot in spots:
        counts[spot.value.upper()] = counts.get(spot.value.upper(), 0) + 1
    rows: list[list[float]] = []
    for index, spot in enumerate(spots):
        before, left, above, row_text = contexts(spot)
        text = spot.value
        digits = sum(c.isdigit() for c in text)
        rows.append(
            [
                *common[index],
                _near(INVOICE_NUMBER_LABEL, before, left, above),
                _near(NUMBER_WORD, before, left, above),
                _near(INVOICE_WORD, before, left, above),
                _near(OTHER_ID_LABEL, before, left, above),
                float(bool(INVOICE_WORD.search(row_text))),
                float(bool(OTHER_ID_LABEL.search(row_text))),
                min(len(text), 30) / 30,
                digits / len(text),
                float(any(c.isalpha() for c in text)),
                float(bool(re.search(r"[-/._]", text))),
                float(text.isdigit()),
                float(bool(re.fullmatch(r"\d{5}", text))),
                float(bool(_FRACTION.match(text))),
                float(min(counts[text.upper()], 5)),
                float(rules_value is not None and re.sub(r"\s", "", text).upper() == rules_value),
            ]
        )
    return rows


# --- seller name -----------------------------------------------------------------------------

SELLER_LABEL = rx(
    r"verk[äa]ufer",
    r"lieferant",
    r"rechnungssteller",
    r"absender",
    r"leistungserbringer",
    r"seller",
    r"supplier",
    r"vendor",
    r"\bfrom\b",
    r"\bvon\b",
    r"vendeur",
    r"fournisseur",
    r"[ée]metteur",
    r"verkoper",
    r"leverancier",
    r"fornitore",
    r"mittente",
    r"cedente",
    r"emisor",
    r"proveedor",
    r"vendedor",
    r"remitente",
    r"issued\s*by",
    r"payee",
    r"kontoinhaber",
    r"account\s*(?:holder|name)",
    r"titulaire",
    r"beneficiary",
    r"intestat",
)
BUYER_LABEL = rx(
    r"k[äa]ufer",
    r"kunde",
    r"empf[äa]nger",
    r"rechnungsadresse",
    r"rechnung\s+an",
    r"\ban\b",
    r"bill(?:ed)?\s+to",
    r"invoice\s+to",
    r"customer",
    r"buyer",
    r"sold\s+to",
    r"ship\s+to",
    r"client",
    r"destinataire",
    r"factur[ée]\s+[àa]",
    r"facturation",
    r"klant",
    r"afnemer",
    r"factuuradres",
    r"cessionario",
    r"committente",
    r"destinatario",
    r"cliente",
    r"facturar\s+a",
    r"\bto\b",
    r"\battn\b",
    r"z\.\s*hd",
    r"lieferadresse",
    r"delivery\s+address",
)
SALUTATION = rx(
    r"^(?:herrn?|frau|mr\.?|mrs\.?|ms\.?|dr\.?|monsieur|madame|mme|m\.|dhr\.?|mevr\.?|sig\.?|"
    r"sig\.ra|sr\.?|sra\.?|attn:?|z\.\s*hd\.?)\s",
)
CONTACT = rx(
    r"\btel",
    r"phone",
    r"\bfon\b",
    r"\bfax\b",
    r"e-?mail",
    r"www\.",
    r"@",
    r"\bust",
    r"\bvat\b",
    r"\btva\b",
    r"\biva\b",
    r"\bbtw\b",
    r"\biban\b",
    r"steuer",
    r"siret",
    r"handelsregister",
    r"\bhrb?\b",
    r"\bkvk\b",
    r"registered",
    r"geschäftsführ",
    r"director",
)
PROSE = rx(
    r"\b(?:we|wir|nous|wij|noi|nosotros|you|sie|vous|your|ihre?|bitte|please|thank|danke|merci|"
    r"dear|sehr|geehrte|cher|chère|beste|gentile|estimad[oa])\b",
)
NOT_A_NAME = rx(
    r"rechnung",
    r"invoice",
    r"factur",
    r"fattura",
    r"datum",
    r"\bdate\b",
    r"total",
    r"summe",
    r"betrag",
    r"amount",
    r"seite",
    r"page",
    r"\bnr\b",
    r"\bno\b",
    r"number",
    r"nummer",
    r"\bqty\b",
    r"order\b",
    r"bestell",
    r"auftrag",
    r"commande",
    r"ordine",
    r"pedido",
    r"lieferschein",
    r"delivery\s*note",
    r"angebot",
    r"quot(?:e|ation)",
    r"offerte",
    r"devis",
    r"preventivo",
    r"presupuesto",
    r"gutschrift",
    r"credit\s*note",
    r"\bavoir\b",
    r"menge",
    r"preis",
    r"price",
    r"beschreibung",
    r"description",
)
_COMMA_SPLIT = re.compile(r"\s*(?:,|\s[-–—·•|]\s|[·•|])\s*")


def _name_value(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip(" :;,|·•-–")


def _cut_tokens(segment: Segment, text: str) -> tuple[Word, ...]:
    """The segment's tokens covering its first ``len(text)`` characters."""
    out: list[Word] = []
    for token, begin in zip(segment.tokens, segment.starts, strict=True):
        if begin >= len(text):
            break
        out.append(token)
    return tuple(out) or tuple(segment.tokens[:1])


def _below(layout: PageLayout, row: Row, segment: Segment) -> Segment | None:
    """The segment in the next row overlapping ``segment`` horizontally, close below it."""
    x0, y0, x1, y1 = segment.bbox
    height = max(y1 - y0, 1e-3)
    for other_row in layout.rows[row.index + 1 : row.index + 2]:
        if other_row.bbox[1] - y1 > 1.2 * height:
            return None
        for other in other_row.segments:
            if other.bbox[0] < x1 and other.bbox[2] > x0 and abs(other.bbox[0] - x0) < 0.02:
                return other
    return None


def seller_spots(layouts: Sequence[PageLayout]) -> list[Spot]:
    """Name-like texts of page 1: every segment of 1 to 8 words with letters, its part
    before the first comma or bullet (a sender line ``Name, Street 1, 12345 City``), and a
    short segment joined with the one right below it (a name printed on two lines)."""
    if not layouts:
        return []
    layout = layouts[0]
    spots: list[Spot] = []
    seen: set[tuple[int, int, str]] = set()

    def add(
        value: str, tokens: tuple[Word, ...], row: Row, segment: Segment, start: int = 0
    ) -> None:
        value = _name_value(value)
        words = value.split()
        if not 1 <= len(words) <= 8 or len(value) > 70 or not _LETTERS.search(value):
            return
        if ":" in value:
            # "Label: Name" — the name after the colon is its own candidate
            return
        key = (row.index, id(segment), value.casefold())
        if key in seen:
            return
        seen.add(key)
        spots.append(Spot(value, tokens, layout, row, segment, start))

    for row in layout.rows:
        for segment in row.segments:
            text = segment.text
            add(text, tuple(segment.tokens), row, segment)
            colon = next((i for i, t in enumerate(segment.tokens) if t.text.endswith(":")), None)
            if colon is not None and colon + 1 < len(segment.tokens):
                # "Seller: Name" — the value after its label, the label its context
                rest = segment.tokens[colon + 1 :]
                add(" ".join(t.text for t in rest), tuple(rest), row, segment, colon + 1)
            parts = _COMMA_SPLIT.split(text)
            for count in (1, 2):
                if len(parts) > count and parts[0]:
                    # the text up to the first or second separator, as printed
                    separators = list(_COMMA_SPLIT.finditer(text))
                    prefix = text[: separators[count - 1].start()]
                    add(prefix, _cut_tokens(segment, prefix), row, segment)
            below = _below(layout, row, segment)
            if (
                below is not None
                and len(text.split()) <= 5
                and len(below.text.split()) <= 5
                and not re.search(r"\d", text + below.text)
            ):
                add(f"{text} {below.text}", (*segment.tokens, *below.tokens), row, segment)
    return spots


SELLER_FEATURES: tuple[str, ...] = (
    "page",
    "y",
    "x",
    "font_ratio",
    "row_segments",
    "prose",
    "word_confidence",
    "largest_font",
    "words",
    "chars",
    "digit_share",
    "upper_share",
    "title_share",
    "legal_form",
    "two_lines",
    "comma_cut",
    "repeats",
    "seller_label",
    "buyer_label",
    "salutation",
    "salutation_above",
    "contact_near",
    "prose_words",
    "not_a_name",
    "top_quarter",
    "footer",
    "sender_line_above",
    "label_inside",
    "country",
    "rules_pick",
)


def seller_features(
    layouts: Sequence[PageLayout], spots: Sequence[Spot], rules_value: str | None
) -> list[list[float]]:
    from prefect_docai.engines.extract.countries import country_code
    from prefect_docai.engines.invoice.labels import LEGAL_FORM

    common = _common(spots, layouts)
    rows_text = [fold(row.text) for layout in layouts[:1] for row in layout.rows]
    largest = max((s.tokens[0].font_size or 0.0 for s in spots), default=0.0)
    out: list[list[float]] = []
    for index, spot in enumerate(spots):
        value = spot.value
        folded = fold(value)
        letters = [c for c in value if c.isalpha()]
        words = value.split()
        before, left, above, _ = contexts(spot)
        row = spot.row
        layout = spot.layout
        near_rows = layout.rows[max(0, row.index - 3) : row.index + 5]
        x0, _, x1, _ = spot.segment.bbox
        block_text = " ".join(
            fold(seg.text)
            for r in near_rows
            for seg in r.segments
            if seg.bbox[0] < x1 + 0.05 and seg.bbox[2] > x0 - 0.05
        )
        above_rows = layout.rows[max(0, row.index - 4) : row.index]
        sender_above = any(
            len(_COMMA_SPLIT.split(r.text)) >= 3
            and re.search(r"\d{4,5}", r.text)
            and r.bbox[1] > row.bbox[1] - 0.08
            for r in above_rows
        )
        repeats = sum(1 for t in rows_text if folded in t) - 1
        size = spot.tokens[0].font_size or 0.0
        out.append(
            [
                *common[index],
                float(largest > 0 and size >= largest - 0.01),
                float(min(len(words), 8)),
                min(len(value), 70) / 70,
                sum(c.isdigit() for c in value) / len(value),
                sum(c.isupper() for c in letters) / max(len(letters), 1),
                sum(w[:1].isupper() for w in words) / len(words),
                float(bool(LEGAL_FORM.search(value))),
                float(spot.row is not None and len(spot.tokens) > len(spot.segment.tokens)),
                float(len(spot.tokens) < len(spot.segment.tokens)),
                float(min(max(repeats, 0), 4)),
                max(
                    _near(SELLER_LABEL, before, left, above), 0.8 * bool(SELLER_LABEL.search(above))
                ),
                max(_near(BUYER_LABEL, before, left, above), 0.8 * bool(BUYER_LABEL.search(above))),
                float(bool(SALUTATION.search(folded + " "))),
                float(bool(SALUTATION.search(above + " "))),
                float(bool(CONTACT.search(block_text))),
                float(bool(PROSE.search(folded))),
                float(bool(NOT_A_NAME.search(folded))),
                float(row.bbox[1] < 0.25),
                float(row.bbox[1] > 0.85),
                float(sender_above),
                float(
                    ":" in value or bool(BUYER_LABEL.search(folded) or SELLER_LABEL.search(folded))
                ),
                float(country_code(value, allow_code=False) is not None),
                float(rules_value is not None and folded == rules_value),
            ]
        )
    return out


# --- choosing -------------------------------------------------------------------------------

MODEL_FILES = {
    "invoice_date": "invoice_date.json",
    "invoice_number": "invoice_number.json",
    "seller_name": "seller_name.json",
}
FEATURES = {
    "invoice_date": DATE_FEATURES,
    "invoice_number": NUMBER_FEATURES,
    "seller_name": SELLER_FEATURES,
}


MIN_CONFIDENCE = 0.5
"""Under this calibrated probability the model's pick is more likely wrong than right;
then the rules' candidate stands, or no value when the rules have none (a wrong value is
a false positive and a false negative, a missing one only a false negative)."""


def shipped(field: str) -> Scorer | None:
    """The scorer shipped for ``field``, or ``None`` (then the rules decide)."""
    return packaged(MODEL_FILES[field], FEATURES[field])


def spots_and_features(
    field: str,
    layouts: Sequence[PageLayout],
    rules: Candidate | None,
    month_first: bool = False,
) -> tuple[list[Spot], list[list[float]]]:
    """Candidates of ``field`` and their features; ``month_first``: the page's numeric
    dates are month-first (decided by the rules from all its dates, which one candidate
    cannot see)."""
    rules_value = None if rules is None else str(rules.value)
    if field == "invoice_date":
        spots = date_spots(layouts, month_first)
        return spots, date_features(layouts, spots, rules_value)
    if field == "seller_name":
        spots = seller_spots(layouts)
        folded = None if rules_value is None else fold(rules_value)
        return spots, seller_features(layouts, spots, folded)
    spots = number_spots(layouts)
    if rules_value is not None:
        rules_value = re.sub(r"\s", "", rules_value).upper()
    return spots, number_features(layouts, spots, rules_value)


def choose(
    field: str,
    model: Scorer,
    layouts: Sequence[PageLayout],
    rules: Candidate | None,
    month_first: bool = False,
) -> Candidate | None:
    """The model's most probable candidate for ``field``, scored by its calibrated
    probability; the rules' candidate when that probability is under
    :data:`MIN_CONFIDENCE`; ``None`` when the pages have no candidate."""
    spots, features = spots_and_features(field, layouts, rules, month_first)
    if not spots:
        return rules
    probabilities = [model.probability(vector) for vector in features]
    best = max(range(len(spots)), key=lambda i: (probabilities[i], -i))
    spot = spots[best]
    confidence = model.confidence(probabilities[best])
    if confidence < MIN_CONFIDENCE:
        # more likely wrong than right: the rules' reading (or none) stands
        return rules
    raw = " ".join(t.text for t in spot.tokens)
    return Candidate(spot.value, spot.tokens, confidence, raw)
