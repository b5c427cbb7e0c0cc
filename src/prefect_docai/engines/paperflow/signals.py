"""Per-page evidence for where documents start and end in a page stream.

Everything here reads one page: its page-number mark, first- and last-page cues, header
and footer text, identifiers. The pair features (``pairs.py``) compare neighbours.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from prefect_docai.engines.classify.pageview import PageView
from prefect_docai.engines.document import Word

_PN_KEYWORD = re.compile(
    r"\b(?:seite|page|blatt|pag\.?|pg\.?|s\.)\s*(\d{1,3})\s*(?:(?:von|of|/|aus|de)\s*(\d{1,3}))?\b",
    re.IGNORECASE,
)
_PN_SLASH = re.compile(r"^\s*(\d{1,3})\s*/\s*(\d{1,3})\s*$")
_PN_DASH = re.compile(r"^\s*[-–—]\s*(\d{1,3})\s*[-–—]\s*$")
_PN_BARE = re.compile(r"^\s*(\d{1,3})\s*$")

_GREETING = re.compile(
    r"\b(sehr geehrte[rn]?|liebe[rs]?|hallo|guten tag|dear|hello|hi|to whom it may concern)\b",
    re.IGNORECASE,
)
_CLOSING = re.compile(
    r"(mit freundlichen gr[üu](ß|ss)en|freundliche gr[üu](ß|ss)e|beste gr[üu](ß|ss)e|"
    r"viele gr[üu](ß|ss)e|hochachtungsvoll|best regards|kind regards|yours sincerely|"
    r"yours faithfully|sincerely|regards|cheers)",
    re.IGNORECASE,
)
_TOTAL = re.compile(
    r"\b(gesamtbetrag|endbetrag|gesamtsumme|rechnungsbetrag|zu zahlen|zahlbetrag|"
    r"summe|total|amount due|balance due|grand total|saldo|endsaldo|closing balance)\b",
    re.IGNORECASE,
)
_SIGNATURE = re.compile(r"\b(unterschrift|signature|signed|gez\.|ort, datum|place, date)\b", re.IGNORECASE)
_CONTINUED = re.compile(
    r"\b(fortsetzung|übertrag|uebertrag|continued|carried forward|brought forward|weiter auf)\b",
    re.IGNORECASE,
)
_TITLE = re.compile(
    r"\b(rechnung|invoice|gutschrift|credit note|lieferschein|delivery note|bestellung|"
    r"purchase order|auftragsbestätigung|order confirmation|angebot|quotation|vertrag|"
    r"contract|agreement|kontoauszug|bank statement|statement|quittung|receipt|bon|"
    r"formular|antrag|application|report|bericht|memo|mahnung|reminder)\b",
    re.IGNORECASE,
)
_POSTCODE = re.compile(r"\b(?:D-)?\d{5}\b|\b[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}\b")
_ID_LABEL = re.compile(
    r"(?:rechnungs?-?(?:nr|nummer)|invoice\s*(?:no|number|#)|kunden-?(?:nr|nummer)|"
    r"customer\s*(?:no|number|id)|bestell-?(?:nr|nummer)|order\s*(?:no|number)|"
    r"auftrags?-?(?:nr|nummer)|beleg-?(?:nr|nummer)|lieferschein-?(?:nr|nummer)|"
    r"vertrags?-?(?:nr|nummer)|contract\s*(?:no|number)|konto-?(?:nr|nummer)|account\s*(?:no|number)|"
    r"iban|referenz|reference|ref\.?)\s*[.:#]?\s*([A-Z0-9][A-Z0-9./\-]{2,})",
    re.IGNORECASE,
)
_ID_TOKEN = re.compile(r"^[A-Z0-9][A-Z0-9./\-]{4,}$", re.IGNORECASE)
_DIGIT = re.compile(r"\d")


@dataclass(frozen=True)
class PageNumber:
    number: int
    total: int | None


@dataclass
class PageSignals:
    words: int
    page_number: PageNumber | None
    greeting: bool
    closing: bool
    total: bool
    signature: bool
    continued: bool
    title_top: bool
    address_window: bool
    letterhead: bool
    header: str
    footer: str
    text_top: float
    text_bottom: float
    labelled_ids: frozenset[str] = field(default_factory=frozenset)
    ids: frozenset[str] = field(default_factory=frozenset)


def _lines(words: list[Word]) -> list[tuple[str, float, float, float, float]]:
    """(text, x0, y0, x1, y1) per line, in reading order."""
    grouped: dict[int, list[Word]] = {}
    for word in words:
        grouped.setdefault(word.line, []).append(word)
    out = []
    for _, ws in sorted(grouped.items()):
        out.append(
            (
                " ".join(w.text for w in ws),
                min(w.bbox[0] for w in ws),
                min(w.bbox[1] for w in ws),
                max(w.bbox[2] for w in ws),
                max(w.bbox[3] for w in ws),
            )
        )
    return out


def find_page_number(lines: list[tuple[str, float, float, float, float]]) -> PageNumber | None:
    """A page mark: keyword forms anywhere ("Seite 2 von 3"); bare forms ("2/3", "- 2 -",
    "2") only in the top or bottom margin, where running page numbers sit."""
    for text, *_ in lines:
        match = _PN_KEYWORD.search(text)
        if match:
            number = int(match.group(1))
            total = int(match.group(2)) if match.group(2) else None
            if number >= 1 and (total is None or number <= total <= 500):
                return PageNumber(number, total)
    for text, _x0, y0, _x1, y1 in lines:
        if y0 > 0.1 and y1 < 0.9:
            continue
        for pattern in (_PN_SLASH, _PN_DASH, _PN_BARE):
            match = pattern.match(text)
            if not match:
                continue
            number = int(match.group(1))
            total = int(match.group(2)) if pattern is _PN_SLASH else None
            if 1 <= number <= 500 and (total is None or number <= total <= 500):
                return PageNumber(number, total)
    return None


def _fold(text: str) -> str:
    return " ".join(_DIGIT.sub("0", text.lower()).split())


def page_signals(page: PageView) -> PageSignals:
    words = [w for w in page.words if w.text.strip()]
    lines = _lines(words)
    top_lines = [line for line in lines if line[2] < 0.4]
    bottom_lines = [line for line in lines if line[2] > 0.55]
    body = "\n".join(line[0] for line in lines)
    top_text = "\n".join(line[0] for line in top_lines)
    bottom_text = "\n".join(line[0] for line in bottom_lines)
    sizes = [w.font_size or (w.bbox[3] - w.bbox[1]) * page.height_pt for w in words]
    median_size = sorted(sizes)[len(sizes) // 2] if sizes else 0.0
    title_top = any(
        _TITLE.search(w.text) and (w.font_size or (w.bbox[3] - w.bbox[1]) * page.height_pt) >= 1.25 * median_size
        for w in words
        if w.bbox[1] < 0.45
    )
    window = [line for line in lines if line[1] < 0.55 and 0.08 < line[2] < 0.4]
    address_window = any(_POSTCODE.search(line[0]) for line in window) and len(window) >= 3
    labelled = frozenset(
        m.group(1).upper().rstrip(".-/")
        for m in _ID_LABEL.finditer(body)
        if _DIGIT.search(m.group(1))
    )
    ids = frozenset(
        w.text.upper().strip(".,;:")
        for w in words
        if _ID_TOKEN.match(w.text.strip(".,;:")) and len(_DIGIT.findall(w.text)) >= 3
    )
    return PageSignals(
        words=len(words),
        page_number=find_page_number(lines),
        greeting=bool(_GREETING.search(top_text) or _GREETING.search(body[:600])),
        closing=bool(_CLOSING.search(bottom_text)),
        total=bool(_TOTAL.search(bottom_text)),
        signature=bool(_SIGNATURE.search(bottom_text)),
        continued=bool(_CONTINUED.search(body)),
        title_top=title_top,
        address_window=address_window,
        letterhead=any(line[2] < 0.08 for line in lines),
        header=_fold(" ".join(line[0] for line in lines if line[4] < 0.1)),
        footer=_fold(" ".join(line[0] for line in lines if line[2] > 0.9)),
        text_top=min((line[2] for line in lines), default=1.0),
        text_bottom=max((line[4] for line in lines), default=0.0),
        labelled_ids=labelled,
        ids=ids,
    )
