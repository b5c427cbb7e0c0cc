"""Meaning-level page cues for the document-type classifier, German and English.

Templates and generators differ in fonts, spacing and layout; what stays is what a reader
goes by: the title ("Bestellung", "Account statement"), the vocabulary of the type, and
the structure (a table of dated transactions, item lines where quantity times price gives
the line total, a salutation and a closing). These cues are computed from the page's words
alone, so they carry over between layouts and between born-digital and OCR text.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from prefect_docai.engines.doctype.views import PageView
from prefect_docai.engines.page.model import Word

FloatArray = npt.NDArray[np.float64]

# Word prefixes per type (matched at word starts on lower-cased text). Common domain
# words only: each list names what such a document says of itself, not one sender's words.
LEXICON: dict[str, tuple[str, ...]] = {
    "invoice": ("rechnung", "faktura", "invoice", "zahlbar", "zahlungsziel", "fällig",
                "skonto", "amount due", "balance due", "payment due", "please pay",
                "leistungszeitraum", "leistungsdatum", "tax invoice", "überweisen sie"),
    "receipt": ("kassenbon", "quittung", "kassenbeleg", "receipt", "rückgeld", "gegeben",
                "tendered", "change due", "bar ", "cash", "ec-karte", "kartenzahlung",
                "contactless", "kasse", "till", "tse", "ihren einkauf", "shopping"),
    "delivery_note": ("lieferschein", "packliste", "packstück", "versandart", "versand",
                      "delivery note", "packing", "dispatch", "shipped", "consignment",
                      "carrier", "spediteur", "received by", "erhalten", "empfänger",
                      "packages", "gewicht", "weight"),
    "purchase_order": ("bestellung", "bestellen", "bestellnummer", "bestell-nr", "auftrag",
                       "einkauf", "purchase order", "purchase", "p.o.", "po number", "po #",
                       "we order", "please supply", "please deliver", "liefertermin",
                       "delivery date", "confirm this order", "bestätigen sie", "lieferadresse",
                       "ship to", "supplier", "lieferant"),
    "letter": ("sehr geehrte", "dear ", "mit freundlichen", "freundliche grüße", "yours sincerely",
               "yours faithfully", "kind regards", "best wishes", "betreff", "betr.", "re:",
               "ihr schreiben", "your letter", "anlage", "enclos", "hochachtungsvoll",
               "ihr zeichen", "your ref"),
    "email": ("von:", "an:", "gesendet:", "betreff:", "from:", "to:", "sent:", "subject:",
              "cc:", "aw:", "wg:", "fwd:", "wrote:", "schrieb:", "attachments:", "anlagen:",
              "viele grüße", "cheers", "lg"),
    "form": ("antrag", "formular", "ankreuzen", "ausfüllen", "ausgefüllt", "unterschrift",
             "pflichtfeld", "form", "application", "please complete", "tick", "signature",
             "block capitals", "required", "druckbuchstaben", "geburtsdatum", "date of birth"),
    "contract": ("vertrag", "vereinbarung", "§", "vertragspartner", "kündigung", "haftung",
                 "agreement", "contract", "clause", "parties", "hereinafter", "nachfolgend",
                 "termination", "liability", "governing law", "gerichtsstand", "provision",
                 "bestimmung", "schriftform", "in writing"),
    "bank_statement": ("kontoauszug", "kontostand", "saldo", "buchung", "valuta", "umsätze",
                       "lastschrift", "gutschrift", "überweisung", "dauerauftrag", "statement",
                       "balance", "brought forward", "carried forward", "direct debit",
                       "transaction", "sort code", "opening", "closing", "standing order",
                       "kontoinhaber", "account holder", "iban"),
    "advertisement": ("angebot", "sale", "rabatt", "sparen", "gratis", "jetzt", "aktion",
                      "nur ", "offer", "save", "free", "only", "limited", "deal", "discount",
                      "voucher", "gutschein", "statt", "was ", "bestellen unter", "order now",
                      "vorrat", "stocks last"),
    "handwritten": ("notiz", "einkaufsliste", "note", "reminder", "vergessen", "forget",
                    "bitte", "please", "danke", "thanks"),
    "report": ("bericht", "analyse", "zusammenfassung", "ergebnis", "einleitung", "methodik",
               "fazit", "report", "summary", "results", "introduction", "conclusion",
               "analysis", "figure", "table", "abbildung", "tabelle", "kennzahl", "study",
               "untersuchung", "empfehlung", "recommend"),
}

CUE_TYPES: tuple[str, ...] = tuple(LEXICON)
CUE_FEATURES: tuple[str, ...] = (
    *(f"lex_{t}" for t in CUE_TYPES),
    *(f"title_{t}" for t in CUE_TYPES),
    "date_line_share",
    "signed_amount_share",
    "item_line_share",
)

_NUM = re.compile(r"[-+]?\d{1,3}(?:[.,\s]\d{3})*(?:[.,]\d{1,3})?-?")
_DATE_START = re.compile(r"^\d{1,2}[./-]\d{1,2}(?:[./-]\d{2,4})?\b|^\d{4}-\d{2}-\d{2}\b")
_SIGNED = re.compile(r"^[-+−]\s?\d[\d.,]*$|^\d[\d.,]*-$|^\(\d[\d.,]*\)$")
_TOKEN = re.compile(r"\w+", re.UNICODE)
TITLE_PREFIX = "ttl"


def _lines(words: Sequence[Word]) -> list[list[Word]]:
    lines: dict[int, list[Word]] = {}
    for word in words:
        if word.text.strip():
            lines.setdefault(word.line, []).append(word)
    return [sorted(ws, key=lambda w: w.bbox[0]) for _, ws in sorted(lines.items())]


def _height(word: Word, page: PageView) -> float:
    if word.font_size:
        return float(word.font_size)
    return max(word.bbox[3] - word.bbox[1], 1e-4) * page.height_pt


def title_lines(page: PageView, limit: int = 3) -> list[str]:
    """The page's largest-type lines in its upper half: where a document names itself."""
    lines = _lines(page.words)
    if not lines:
        return []
    heights = [_height(w, page) for line in lines for w in line]
    median = float(np.median(heights))
    scored = []
    for index, line in enumerate(lines):
        top = min(w.bbox[1] for w in line)
        size = float(np.median([_height(w, page) for w in line]))
        letters = sum(c.isalpha() for w in line for c in w.text)
        if top < 0.55 and size >= 1.2 * median and letters >= 2 and len(line) <= 8:
            scored.append((-size, index, " ".join(w.text for w in line)))
    return [text for _, _, text in sorted(scored)[:limit]]


def title_tokens(page: PageView) -> list[str]:
    """Title words marked with a prefix, for the hashed text features."""
    out = []
    for text in title_lines(page):
        out += [f"{TITLE_PREFIX}{t}" for t in _TOKEN.findall(text.lower()) if not t.isdigit()]
    return out


TITLE_WORDS: dict[str, tuple[str, ...]] = {"purchase_order": ("po", "order")}
"""Short title words that name a type only as a whole word (``PO``, not ``report``)."""


def _hits(text: str, terms: Sequence[str]) -> int:
    return sum(text.count(" " + term) for term in terms)


def _title_hit(title: str, doc_type: str) -> bool:
    """German titles are compounds (Abrufauftrag, Girokonto-Kontoauszug): long terms match
    anywhere in a title word, short ones only as whole words."""
    tokens = set(_TOKEN.findall(title))
    return any(
        (len(term.strip()) >= 5 and term.strip() in title) or term.strip() in tokens
        for term in (*LEXICON[doc_type], *TITLE_WORDS.get(doc_type, ()))
    )


def cue_features(page: PageView) -> FloatArray:
    out = np.zeros(len(CUE_FEATURES), dtype=np.float64)
    text = " " + " ".join(page.text.lower().split()) + " "
    titles = " " + " ".join(title_lines(page)).lower() + " "
    n = len(CUE_TYPES)
    for i, doc_type in enumerate(CUE_TYPES):
        out[i] = math.log1p(_hits(text, LEXICON[doc_type]))
        out[n + i] = 1.0 if _title_hit(titles, doc_type) else 0.0
    lines = _lines(page.words)
    if not lines:
        return out
    texts = [" ".join(w.text for w in line) for line in lines]
    out[2 * n] = sum(bool(_DATE_START.match(t)) for t in texts) / len(lines)
    amounts = [w.text for line in lines for w in line if any(c.isdigit() for c in w.text)]
    if amounts:
        out[2 * n + 1] = sum(bool(_SIGNED.match(a)) for a in amounts) / len(amounts)
    out[2 * n + 2] = sum(_item_line(t) for t in texts) / len(lines)
    return out


def _number(token: str) -> float | None:
    token = token.strip().rstrip("-")
    if not token or not any(c.isdigit() for c in token):
        return None
    if "," in token and "." in token:
        token = token.replace(".", "").replace(",", ".") if token.rfind(",") > token.rfind(".") \
            else token.replace(",", "")
    elif "," in token:
        head, _, tail = token.rpartition(",")
        token = f"{head.replace(',', '')}.{tail}" if len(tail) != 3 else token.replace(",", "")
    try:
        return float(token)
    except ValueError:
        return None


def _item_line(text: str) -> bool:
    """A priced item line: two of its numbers multiply to a third (quantity x price = total)."""
    values = [v for v in (_number(m.group()) for m in _NUM.finditer(text)) if v]
    if len(values) < 3 or len(values) > 8:
        return False
    for i, a in enumerate(values):
        for j, b in enumerate(values):
            if j <= i or a == 1 or b == 1:
                continue
            product = a * b
            if any(k not in (i, j) and abs(product - c) <= max(0.011, 0.001 * c)
                   for k, c in enumerate(values)):
                return True
    return False
