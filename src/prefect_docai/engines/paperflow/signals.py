"""Per-page evidence for where documents start and end in a page stream.

Everything here reads one page: its page-number marks, last-page cues, header and footer
text, text geometry and sentence ends, identifiers. The pair features (``pairs.py``) compare neighbours.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from prefect_docai.engines.doctype.views import PageView
from prefect_docai.engines.page.model import Word

_PN_KEYWORD = re.compile(
    r"\b(?:seite|page|blatt|pag\.?|pg\.?|s\.)\s*(\d{1,3})\s*(?:(?:von|of|/|aus|de)\s*(\d{1,3}))?\b",
    re.IGNORECASE,
)
_PN_SLASH = re.compile(r"^\s*(\d{1,3})\s*/\s*(\d{1,3})\s*$")
_PN_DASH = re.compile(r"^\s*[-–—]\s*(\d{1,3})\s*[-–—]\s*$")
_PN_BARE = re.compile(r"^\s*(\d{1,3})\s*$")

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
_SIGNATURE = re.compile(
    r"\b(unterschrift|signature|signed|gez\.|ort, datum|place, date)\b", re.IGNORECASE
)
_CONTINUED = re.compile(
    r"\b(fortsetzung|übertrag|uebertrag|continued|carried forward|brought forward|weiter auf)\b",
    re.IGNORECASE,
)
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
_NON_DIGIT = re.compile(r"\D")
_ROMAN = re.compile(r"^(x{0,3})(ix|iv|v?i{0,3})$")
_MARGIN_TOKEN = re.compile(r"^[-–—(\[]?(\d{1,3}|[ivxlIVXL]{1,7})[-–—)\].]?$")
_SENTENCE_END = re.compile(r"[.!?:;)\]\"”»]$")
_WORD_CHAR = re.compile(r"[^\W\d_]", re.UNICODE)
_NUMBER = re.compile(r"\d[\d.,/:-]*\d")
_NAME = re.compile(r"\b[^\W\d_][^\W\d_]{2,}\b", re.UNICODE)
MARGIN = 0.12
"""Top and bottom share of the page where running headers and footers sit."""
NUMBER_MARGIN = 0.09
"""Running page numbers sit closer to the edge than tables and address blocks."""


@dataclass(frozen=True)
class PageNumber:
    number: int
    total: int | None


@dataclass
class PageSignals:
    words: int
    page_number: PageNumber | None
    closing: bool
    total: bool
    signature: bool
    continued: bool
    header: str
    footer: str
    text_top: float
    text_bottom: float
    labelled_ids: frozenset[str] = field(default_factory=frozenset)
    ids: frozenset[str] = field(default_factory=frozenset)
    margin_numbers: frozenset[int] = field(default_factory=frozenset)
    """Every number that may be a running page number: a standalone (arabic or roman)
    number at either end of a line in the top or bottom margin ("REPORT 15", "xxiii",
    "16 FY 2011"). Several candidates per page are fine; pairs look for any n -> n + 1."""
    top_band: frozenset[str] = field(default_factory=frozenset)
    bottom_band: frozenset[str] = field(default_factory=frozenset)
    """Digit-masked words of the top and bottom margin (running headers and footers)."""
    open_end: bool = False
    """The body text ends mid-sentence (last body line without closing punctuation)."""
    lower_start: bool = False
    """The body text starts with a lowercase word (a sentence carried over)."""
    body_x0: float = 0.0
    body_x1: float = 0.0
    """Left and right edges of the body text (robust: 10th/90th percentile of the lines)."""
    font_median: float = 0.0
    numbers: frozenset[str] = field(default_factory=frozenset)
    """Numbers with three or more digits, separators dropped (dates, amounts, customer and
    document numbers): pages of one document repeat some of them, another document of the
    same kind carries its own."""
    names: frozenset[str] = field(default_factory=frozenset)
    """Capitalised words (lowercased): names of people, firms, places and products, which
    recur on a document's pages and differ between documents of one template."""


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


def _in_number_margin(y0: float, y1: float) -> bool:
    return y0 <= 0.1 or y1 >= 0.9


def _keyword_mark(text: str, alone: bool) -> PageNumber | None:
    """A keyword page mark in ``text``; with ``alone`` only one with a total ("Seite 2 von
    3") or one that is the whole line ("Seite 2"): "as shown on page 4" in a sentence is a
    reference, not the page's own number."""
    for match in _PN_KEYWORD.finditer(text):
        number = int(match.group(1))
        total = int(match.group(2)) if match.group(2) else None
        if number < 1 or (total is not None and not number <= total <= 500):
            continue
        if alone and total is None and len(text.strip()) > len(match.group(0)) + 2:
            continue
        return PageNumber(number, total)
    return None


def _bare_mark(text: str) -> PageNumber | None:
    for pattern in (_PN_SLASH, _PN_DASH, _PN_BARE):
        match = pattern.match(text)
        if not match:
            continue
        number = int(match.group(1))
        total = int(match.group(2)) if pattern is _PN_SLASH else None
        if 1 <= number <= 500 and (total is None or number <= total <= 500):
            return PageNumber(number, total)
    return None


def find_page_number(lines: list[tuple[str, float, float, float, float]]) -> PageNumber | None:
    """The page's own mark. A mark in the top or bottom margin, where running page numbers
    sit, wins: keyword forms ("Seite 2 von 3", "Page 2/3") before bare ones ("2/3", "- 2 -",
    "2"), the line nearest the page edge first. Else a keyword form in the body with its
    total or alone on its line; a mention inside a sentence ("see page 4") is no mark."""
    margin = [line for line in lines if _in_number_margin(line[2], line[4])]
    margin.sort(key=lambda line: -abs(line[2] + line[4] - 1.0))
    for read in (lambda text: _keyword_mark(text, alone=False), _bare_mark):
        for text, *_ in margin:
            mark = read(text)
            if mark is not None:
                return mark
    for text, _x0, y0, _x1, y1 in lines:
        if _in_number_margin(y0, y1):
            continue
        mark = _keyword_mark(text, alone=True)
        if mark is not None:
            return mark
    return None


def roman_value(token: str) -> int | None:
    """1..39 from a lowercase or uppercase roman numeral (front-matter page numbers)."""
    match = _ROMAN.match(token.lower())
    if not token or not match:
        return None
    tens, ones = match.groups()
    table = {
        "": 0,
        "i": 1,
        "ii": 2,
        "iii": 3,
        "iv": 4,
        "v": 5,
        "vi": 6,
        "vii": 7,
        "viii": 8,
        "ix": 9,
    }
    value = 10 * len(tens) + table[ones]
    return value or None


def margin_numbers(lines: list[tuple[str, float, float, float, float]]) -> frozenset[int]:
    found: set[int] = set()
    for text, _x0, y0, _x1, y1 in lines:
        if y0 > NUMBER_MARGIN and y1 < 1 - NUMBER_MARGIN:
            continue
        marked = find_page_number([(text, _x0, y0, _x1, y1)])
        if marked is not None:
            # "Seite 1 von 2": the total is no candidate of its own
            found.add(marked.number)
            continue
        tokens = text.split()
        if not tokens or len(tokens) > 8:
            continue
        edges = {tokens[0], tokens[-1]}
        if len(tokens) == 3 and tokens[0] in "-–—" and tokens[2] in "-–—":
            edges.add(tokens[1])
        for token in edges:
            match = _MARGIN_TOKEN.match(token)
            if not match:
                continue
            raw = match.group(1)
            # a roman numeral only alone on its line: "I" or "CV" inside a heading is a word
            value = int(raw) if raw.isdigit() else roman_value(raw) if len(tokens) == 1 else None
            if value is not None and 1 <= value <= 999:
                found.add(value)
    if len(found) > 3:
        # numbers all over the margin are a table or an address block, not page numbers
        found.clear()
    number = find_page_number(lines)
    if number is not None:
        found.add(number.number)
    return frozenset(found)


def _band_words(lines: list[tuple[str, float, float, float, float]], top: bool) -> frozenset[str]:
    picked = [line[0] for line in lines if (line[4] < MARGIN if top else line[2] > 1 - MARGIN)]
    return frozenset(_fold(" ".join(picked)).split())


def _body(lines: list[tuple[str, float, float, float, float]]) -> list[str]:
    """Body lines with words in them (no margins, no number-only rows)."""
    return [
        line[0]
        for line in lines
        if line[2] > MARGIN * 0.5 and line[4] < 1 - MARGIN * 0.6 and _WORD_CHAR.search(line[0])
    ]


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(int(q * len(ordered)), len(ordered) - 1)]


def _fold(text: str) -> str:
    return " ".join(_DIGIT.sub("0", text.lower()).split())


def page_signals(page: PageView) -> PageSignals:
    words = [w for w in page.words if w.text.strip()]
    lines = _lines(words)
    bottom_lines = [line for line in lines if line[2] > 0.55]
    body = "\n".join(line[0] for line in lines)
    bottom_text = "\n".join(line[0] for line in bottom_lines)
    sizes = [w.font_size or (w.bbox[3] - w.bbox[1]) * page.height_pt for w in words]
    median_size = sorted(sizes)[len(sizes) // 2] if sizes else 0.0
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
    body_lines = _body(lines)
    last_word = body_lines[-1].split()[-1] if body_lines else ""
    first_word = body_lines[0].split()[0] if body_lines else ""
    wide = [line for line in lines if line[3] - line[1] > 0.2]
    return PageSignals(
        words=len(words),
        page_number=find_page_number(lines),
        closing=bool(_CLOSING.search(bottom_text)),
        total=bool(_TOTAL.search(bottom_text)),
        signature=bool(_SIGNATURE.search(bottom_text)),
        continued=bool(_CONTINUED.search(body)),
        header=_fold(" ".join(line[0] for line in lines if line[4] < 0.1)),
        footer=_fold(" ".join(line[0] for line in lines if line[2] > 0.9)),
        text_top=min((line[2] for line in lines), default=1.0),
        text_bottom=max((line[4] for line in lines), default=0.0),
        labelled_ids=labelled,
        ids=ids,
        margin_numbers=margin_numbers(lines),
        top_band=_band_words(lines, top=True),
        bottom_band=_band_words(lines, top=False),
        open_end=bool(last_word)
        and not _SENTENCE_END.search(last_word)
        and bool(_WORD_CHAR.search(last_word[-1])),
        lower_start=bool(first_word) and first_word[0].islower(),
        body_x0=_percentile([line[1] for line in wide], 0.1),
        body_x1=_percentile([line[3] for line in wide], 0.9),
        font_median=median_size,
        numbers=frozenset(
            digits
            for m in _NUMBER.finditer(body)
            if len(digits := _NON_DIGIT.sub("", m.group(0))) >= 3
        ),
        names=frozenset(
            m.group(0).lower()
            for m in _NAME.finditer(body)
            if m.group(0)[0].isupper() and not m.group(0).isupper()
        ),
    )
