"""Receipt keywords and their OCR-damaged spellings.

Till receipts are printed in thin thermal fonts and photographed: "TOTAL" comes back as
"TOTAI", "T0TAL" or "T OT Al", "GST" as "6ST". Keywords are matched after a repair step that
compares words in a confusion-folded form (glyphs OCR mixes up map to one class), so the
keyword patterns stay plain.
"""

from __future__ import annotations

import re

from prefect_docai.engines.extract.rows import Row, fold

_I = re.IGNORECASE

TOTAL = re.compile(
    r"\b(?:grand\s*total|total\s*(?:amount|due|sales|incl|inc|\(incl|rm|eur)|nett?\s*total|"
    r"rounded\s*total|total|summe|gesamt(?:summe|betrag)?|zu\s*zahlen|endbetrag|betrag|"
    r"amount\s*due|balance\s*due|to\s*pay|payable|total\s*ttc|totaal|te\s*betalen)\b|"
    r"^nett?\b(?=\W*(?:\(?(?:rm|eur|myr)\)?)?\W*[-\d.,\s]*$)",
    _I,
)
STRONG_TOTAL = re.compile(
    r"zu\s*zahlen|to\s*pay|due|payable|te\s*betalen|grand|incl|inc\b|inclusive|summe|"
    r"rounded|nett?\b|endbetrag",
    _I,
)
NOT_TOTAL = re.compile(
    r"sub\s*-?total|zwischensumme|total\s*(?:qty|quantity|items?|excl|gst|tax|vat|discount|"
    r"saving|disc)|excl|qty|quantity|anzahl|artikel|items?\b|rounding|rundung|netto|mwst|ust\b|"
    r"steuer|gst\s|tax\s|(?:gst|tax|vat)\s*total|supplies|change|wechselgeld|rückgeld|"
    r"r[uü]ckgeld|cash\b|tendered|gegeben|points?|saving",
    _I,
)
_INCLUDED_TAX = re.compile(
    r"\b(?:incl(?:usive|uding)?|inc)\b\.?\s*(?:of\s*)?(?:\d+(?:[.,]\d+)?\s*%\s*)?"
    r"(?:gst|tax|vat|mwst|ust)\b",
    _I,
)


def not_total(label: str) -> bool:
    """A keyword line that is not the total ("Total Qty", "Total GST", "Sub-Total");
    "Total Inclusive GST" still is one."""
    return bool(NOT_TOTAL.search(_INCLUDED_TAX.sub("incl", label)))
SUBTOTAL = re.compile(r"sub\s*-?\s*(?:total|ttl)?\b|zwischensumme|subtotaal|sous[\s-]*total", _I)
TAX = re.compile(r"\b(?:total\s*)?(?:gst|vat|mwst|ust|tax|tva|btw|steuer)\b", _I)
ROUNDING = re.compile(r"round(?:ing)?\s*(?:adj)?|rundung", _I)
CHANGE = re.compile(r"\bchange\b|balance\b|wechselgeld|r(?:[uü]|ii|ue)ckgeld|zur[uü]ck", _I)
TENDERED = re.compile(
    r"\b(?:cash|tender(?:ed)?|paid|payment|bar(?:geld)?|gegeben|esp[eè]ces|contant)\b", _I
)
CASH = re.compile(r"\b(?:bar(?:geld|zahlung)?|cash|esp[eè]ces|contant)\b", _I)
CARD = re.compile(
    r"\b(?:ec[\s-]*karte|ec-cash|girocard|karte|kartenzahlung|visa|master\s*card|mastercard|"
    r"maestro|amex|american\s*express|credit\s*card|credit|debit|card|kontaktlos|contactless|carte|"
    r"lastschrift|elv)\b",
    _I,
)
DISCOUNT = re.compile(r"discount|disc\b|rabatt|coupon|voucher|nachlass", _I)
TAX_TABLE = re.compile(
    r"(?:g[s5o]t|tax|vat|mwst)\s*(?:summary|analysis)|netto.*brutto|brutto.*netto|"
    r"tax\s*code|mwst\s*%|^(?:mwst|ust|vat)\b.*\bnetto\b|netto\s+(?:steuer|mwst)|"
    r"^(?:vat|gst|tax)\s+(?:net|amount)\b|\bnet\b.*\bgross\b",
    _I,
)
"""A header over the tax summary: its "Total" rows restate bases and taxes, not the total."""

KEYWORDS = (
    "total", "subtotal", "amount", "rounding", "change", "tender", "payable", "summe",
    "zahlen", "gesamt", "betrag", "balance", "quantity", "discount", "summary", "inclusive",
    "including", "cash", "gst", "tax", "nett", "net", "sales", "datum", "date", "rechnung",
    "invoice", "receipt",
)

_CONFUSED = str.maketrans(
    {"0": "o", "1": "l", "i": "l", "|": "l", "!": "l", "]": "l", "[": "l", "5": "s",
     "$": "s", "8": "b", "6": "g", "2": "z", "7": "t", "€": "e"}
)


def confusion_fold(word: str) -> str:
    """A word with the glyphs OCR confuses mapped to one representative each."""
    return word.lower().replace("rn", "m").replace("vv", "w").translate(_CONFUSED)


_FOLDED_KEYWORDS = {confusion_fold(k): k for k in KEYWORDS}


def repair_words(text: str) -> str:
    """Folded text with OCR-damaged keywords restored ("T OT Al" → "total", "6ST" → "gst").
    Only words that fold onto a keyword change; everything else is kept as read."""
    words = fold(text).split(" ")
    out: list[str] = []
    index = 0
    while index < len(words):
        replaced = False
        # Letters spread out by a wide-spaced font: join short fragments into a keyword.
        for width in (4, 3, 2):
            piece = words[index : index + width]
            if len(piece) == width and all(1 <= len(w) <= 3 for w in piece):
                joined = _FOLDED_KEYWORDS.get(confusion_fold("".join(piece)))
                if joined is not None and len(joined) >= 4:
                    out.append(joined)
                    index += width
                    replaced = True
                    break
        if replaced:
            continue
        word = words[index]
        core = word.strip(".,:;()*")
        keyword = _FOLDED_KEYWORDS.get(confusion_fold(core)) if len(core) >= 3 else None
        out.append(word.replace(core, keyword) if keyword is not None and core else word)
        index += 1
    return " ".join(out)


def row_label(row: Row) -> str:
    return repair_words(row.text)


def leads(pattern: re.Pattern[str], label: str, words: int = 2) -> bool:
    """The keyword within the first words of a label: "Milk chocolate bar 2.19" is an item,
    "Bar 20,00" a payment."""
    return bool(pattern.search(" ".join(label.split(" ")[:words])))
