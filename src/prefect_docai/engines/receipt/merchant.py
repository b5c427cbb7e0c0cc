"""The merchant's name and address from the head of a till receipt.

The name is the company line near the top: the one with a legal form ("Sdn Bhd", "GmbH",
"Enterprise") or a shop word, else the tallest text-only line among the first ones. A
legal form ends the name (a branch printed after it on the same line is not part of it);
a name whose own line holds little more than the legal form continues the line above. The
address is the block after the name, skipping a registration number or date between them,
up to phone/fax/tax-id lines, a date or an amount, and ending with the postcode line (and
a state name printed under it). A learned scorer (:mod:`.merchant_model`) can pick the name
row instead of that order of preference (``extract_receipt(..., name_model=...)``; none is
shipped: it did not beat the rules out of fold).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from prefect_docai.engines.extract.address import postcode_city
from prefect_docai.engines.extract.candidates import Candidate, date_in, money_tokens
from prefect_docai.engines.extract.rows import Row, Segment, fold
from prefect_docai.engines.page.model import Word
from prefect_docai.engines.receipt import labels as L

_I = re.IGNORECASE
NOISE = re.compile(
    r"\btel\b|telefon|phone|\bfax\b|www\.|@|gst\s*(?:ref\.?\s*)?(?:id|reg|no)|reg\.?\s*no|"
    r"\bco\.?\s*(?:no|reg)\b|company\s*no|invoice|receipt|rechnung|\bbeleg|kassenbon|"
    r"quittung|\bbon\b|bon-?nr|cashier|\bkasse\b|welcome|willkommen|thank|danke|\bdate\b|"
    r"\bdatum\b|\btime\b|uhrzeit|\btable\b|\btisch\b|st\.?-?nr|ust-?id|\buid\b|steuer|"
    r"salesperson|\bcounter\b|terminal|\bmember\b",
    _I,
)
_HEADER_WORDS = re.compile(
    r"\b(?:item|items|qty|quantity|description|desc|price|amount|amt|total|menu|disc|uom|"
    r"unit|u/?p|code|artikel|menge|preis|betrag)\b",
    _I,
)
COMPANY = re.compile(
    r"\b(?:sdn\.?\s*bhd\.?|s/b|bhd\.?|berhad|enterprise|trading|company|co\.|ltd\.?|limited|"
    r"inc\.?|llc|plc|corp\.?|gmbh(?:\s*&\s*co\.?\s*kg)?|ohg|e\.\s?k\.|kg\b|ag\b)(?=$|[\s,.;)])",
    _I,
)
"""Legal forms that end a company name on a receipt."""
SHOP = re.compile(
    r"\b(?:restaurant|restoran|shop|store|stores|mart|market|bakery|bakeries|caf[eé]|coffee|"
    r"hotel|pharmacy|farmasi|apotheke|markt|bäckerei|baeckerei|tankstelle|supermarkt|"
    r"superstore|drogerie|drogeriemarkt|kiosk|hardware|stationery|kedai|syarikat|perniagaan|"
    r"trading|enterprise|kopitiam|bookstore|petrol)\b|(?:markt|mart|shop)\b",
    _I,
)
REGISTRATION = re.compile(
    r"^\(?\s*(?:co\.?\s*(?:reg\.?)?\s*no\.?:?\s*)?\d{5,}\s*-?\s*[A-Z]?\s*\)?\.?$|"
    r"^\(?\s*[A-Z]{0,3}\d{4,}-[A-Z]\s*\)?$",
    _I,
)
_REG_IN_ROW = re.compile(r"\(?(?<![\w-])[A-Z]{0,3}\d{5,12}\s?-\s?[A-Z]\b\)?")
_STREET = re.compile(
    r"^(?:no\.?\s*\d|lot\b)|\b(?:jalan|jln|taman|tmn|lorong|persiaran|lebuh|straße|strasse|"
    r"str\.|street|road|avenue|weg|platz|allee|gasse|ring)\b|(?:straße|strasse|weg|platz)\b",
    _I,
)
"""Street words: an address line, never the merchant's name."""
_TRAILING_REG = re.compile(r"\s*\(\s*[\w -]*\d[\w -]*\)?\s*$|\s+\d{5,12}-[A-Z]\s*$")
_STRAY = '‚‘’“”„«»›‹`´"'
_REGIONS = re.compile(
    r"^(?:johor|kedah|kelantan|melaka|malacca|negeri\s+sembilan|pahang|perak|perlis|"
    r"pulau\s+pinang|penang|sabah|sarawak|selangor|terengganu|kuala\s+lumpur|labuan|"
    r"putrajaya|wilayah\s+persekutuan|w\.?\s*p\.?|selangor\s+darul\s+ehsan|"
    r"johor\s+darul\s+ta'?zim|kedah\s+darul\s+aman|perak\s+darul\s+ridzuan|"
    r"pahang\s+darul\s+makmur|kelantan\s+darul\s+naim|terengganu\s+darul\s+iman|"
    r"negeri\s+sembilan\s+darul\s+khusus|singapore|malaysia)[.,]?$",
    _I,
)
"""State lines printed under a Malaysian postcode line (SROIE receipts)."""


_POSTCODE = re.compile(r"\b\d{5}\b,?\s+[^\W\d_]{2}")
_LOT = re.compile(r"\b(?:lot|pt|p\.?\s?t|no|plot|batu|jalan|jln)\W*$", _I)


def _has_postcode(text: str) -> bool:
    """A postcode line ("81300 Skudai", "Fremont CA 94538"); a 5-digit lot or house number
    ("LOT P.T. 33198, BATU 4", "LOT PT 1138 PT 33122,") is not one."""
    value = clean_text(text)
    if any(not _LOT.search(value[: m.start()]) for m in _POSTCODE.finditer(value)):
        return True
    found = postcode_city(value)
    if found is None:
        return False
    head = value[: value.rfind(found[0])] if found[0] in value else value
    return not re.search(r"\d", found[1]) and not _LOT.search(head)


_SDN_BHD = re.compile(r"\b([S5][O0D][NH])(\.?\s*)([B8][HN][DO0])\b", _I)


def _spell_legal_form(match: re.Match[str]) -> str:
    """An OCR-garbled "SON BHD" or "5DN. 8HD": the legal form's letters repaired, its dot
    and blank kept as printed ("SDN. BHD." is not "SDN BHD")."""
    sdn, bhd = ("Sdn", "Bhd") if match[1][1:].islower() else ("SDN", "BHD")
    return sdn + (match[2] or " ") + bhd


def clean_text(text: str) -> str:
    """Printed text with OCR debris removed: stray quote marks at word edges, a bracket
    read for "l" after a lowercase letter, legal forms the OCR garbled ("SON BHD", "5/8")."""
    words = []
    for word in text.split():
        word = word.strip(_STRAY)
        word = re.sub(r"(?<=[a-z])[\]|]", "l", word)
        # "WATSON’S": a typographic apostrophe inside a word is the plain one.
        word = re.sub(r"(?<=\w)[’‘`´](?=\w)", "'", word)
        if word and not re.fullmatch(r"[|¦]+", word):
            words.append(word)
    value = _SDN_BHD.sub(_spell_legal_form, " ".join(words))
    value = re.sub(r"(?<=\s)[S5$]/[B8]\b", "S/B", value)
    return value


_CONFUSED_DIGITS = {"0": ("o", "O"), "5": ("s", "S"), "8": ("b", "B"), "1": ("l", "")}
"""Digits OCR reads for a letter of the same shape, and the letter (lower, upper case):
"1" inside capitals may be an I or an L, so it is left alone there."""


def repair_letter_digits(text: str) -> str:
    """Words whose letters OCR read as look-alike digits: a run of 0, 1, 5 or 8 between
    letters ("L0T", "Ja1an", "F00DICI0US", "GEM8ILANG") or ending a word of three or more
    letters, the last two lowercase ("Leve1", "Mal1"), is the letter of that shape in the
    word's case. A word that starts with a digit ("1l8B") or holds any other digit is a
    number or a code ("SS21/39", "U13/BG", "1A/3") and stays as printed."""

    def word(match: re.Match[str]) -> str:
        token = match[0]
        if (
            not token[0].isalpha()
            or re.search(r"[2-46-79]", token)
            or sum(c.isalpha() for c in token) < 2
        ):
            return token
        out = list(token)
        for run in re.finditer(r"[0158]+", token):
            before, after = token[: run.start()], token[run.end() :]
            inside = before[-1:].isalpha() and after[:1].isalpha()
            # "Leve1", "Mal1": after lowercase letters only ("UPTOWN3" is a code).
            ending = not after and len(before) >= 3 and before[-3:].isalpha()
            ending = ending and before[-2:].islower()
            if not (inside or ending):
                continue
            lower = (before[-1:] + after[:1]).islower()
            letters = [_CONFUSED_DIGITS[d][0 if lower else 1] for d in run[0]]
            if not all(letters):
                continue
            out[run.start() : run.end()] = letters
        return "".join(out)

    # A British postcode's outward part ("SA0H 5HR") is a code too.
    return re.sub(r"\b[^\W_]+\b(?!\s+\d[A-Z]{2}\b)", word, text)


def tidy_brackets(text: str) -> str:
    """Blanks around brackets as names and addresses print them: "BAKERIES(KL)SDN" →
    "BAKERIES (KL) SDN", "( SUNGAI RENGIT )" → "(SUNGAI RENGIT)"."""
    text = re.sub(r"(?<=[^\W_]|[.])\((?=[^\W_])", " (", text)
    text = re.sub(r"(?<=[^\W_]|[.])\)(?=[^\W_])", ") ", text)
    text = re.sub(r"\(\s+(?=\S)", "(", text)
    return re.sub(r"(?<=\S)\s+\)", ")", text)


def _clean_address(text: str) -> str:
    value = repair_letter_digits(clean_text(text))
    # "F.KO6": a capital O between a letter and a digit is a zero in a unit number;
    # "33O98", "411S0": letters inside a run of digits are misread digits (a leading S
    # starts a unit code: "S100").
    value = re.sub(r"(?<=[A-Z])O(?=\d)", "0", value)
    # "$$21/39", "LOT $25": a dollar sign inside an address word is an S.
    value = re.sub(
        r"\$+(?=[A-Za-z0-9])|(?<=[A-Za-z0-9])\$+",
        lambda m: ("s" if m.string[max(m.start() - 1, 0)].islower() else "S") * len(m[0]),
        value,
    )
    # "J1n", "Bik G": the abbreviations "Jln" (jalan) and "Blk" (block) with the l misread.
    # ("Jin" is left alone: 49 of the 50 SROIE training keys with either spell "JLN", but
    # the one that prints "JIN" is a visible receipt's, so the repair is not proven.)
    value = re.sub(
        r"\b([Jj])1([nN])\b(?=\.?\s+\w)|\b([Bb])[iI1]([kK])\b(?=\.?\s+\w)",
        lambda m: (m[1] or m[3]) + ("L" if (m[2] or m[4]).isupper() else "l") + (m[2] or m[4]),
        value,
    )
    return re.sub(
        r"\b(?=[\dOoIlSs]*\d[\dOoIlSs]*\d[\dOoIlSs]*\d)(?![Ss])[\dOoIlSs]{4,6}\b",
        lambda m: m[0].translate(str.maketrans("OoIlSs", "001155")),
        value,
    )


_DOUBLED_COMMA = re.compile(r",(?:\s*,)+")
_ROW_END_PERIOD = re.compile(r"(?<![^\s,])([^\W_][^\s.,]*[^\W_]|\d)\s*[.,]*\.[.,]*\s*$")


def join_address_rows(texts: Sequence[str]) -> str:
    """The cleaned address rows joined by a blank, their punctuation as SROIE keys write
    it across line ends: a period ending a row that another address row follows is a comma
    ("TAMAN SRI PUTRA." / "81200 JOHOR BAHRU" → "TAMAN SRI PUTRA, 81200 JOHOR BAHRU"; in
    the training pool's annotated lines 16 of 23 such periods are commas in the key), and
    a doubled comma is one ("53200,, KUALA"; one key of 456 prints two). A period closing
    an abbreviation of one or two letters ("NO.", "D.E.") and the last row's stop stay; one
    after a number ("SEKSYEN 9.", "U3/G.") is a comma like any other."""
    rows = [_DOUBLED_COMMA.sub(",", text).strip() for text in texts]
    out = []
    for k, text in enumerate(rows):
        if k < len(rows) - 1:
            end = _ROW_END_PERIOD.search(text)
            # Only a word of three or more letters or one with a digit ("U3/G.", "11."):
            # a short word's period abbreviates it.
            if end is not None and (len(end[1]) >= 3 or re.search(r"\d", end[1])):
                text = text[: end.end(1)] + ","
            text = re.sub(r"\s*,[.,]+$", ",", text)
        out.append(text)
    return " ".join(t for t in out if t)


_ADDRESS_WORDS = (
    "jalan",
    "taman",
    "bandar",
    "utama",
    "kawasan",
    "perindustrian",
    "seksyen",
    "lorong",
    "batu",
    "kampung",
    "mukim",
    "persiaran",
    "lebuh",
    "lebuhraya",
    "pusat",
    "bangunan",
    "wisma",
    "plaza",
    "kompleks",
    "medan",
    "desa",
    "indah",
    "jaya",
    "baru",
    "bukit",
    "sungai",
    "seri",
    "darul",
    "ehsan",
    "takzim",
    "kuala",
    "lumpur",
    "petaling",
    "shah",
    "alam",
    "klang",
    "bahru",
    "floor",
    "ground",
    "first",
    "street",
    "road",
    "straße",
    "strasse",
    "platz",
    "weg",
    "allee",
)
_STATES = (
    "johor",
    "kedah",
    "kelantan",
    "melaka",
    "pahang",
    "perak",
    "perlis",
    "penang",
    "sabah",
    "sarawak",
    "selangor",
    "terengganu",
    "labuan",
    "putrajaya",
    "sembilan",
    "negeri",
)
_FOLDED_ADDRESS_WORDS = {L.confusion_fold(w): w for w in (*_ADDRESS_WORDS, *_STATES)}


def unify_spellings(text: str, tokens: Sequence[Word]) -> str:
    """A word read twice with a confusable glyph ("Tampoi" … "Tampol"): every reading
    takes the spelling of the one OCR was surest of."""
    best: dict[str, tuple[float, str]] = {}
    for token in tokens:
        for word in re.findall(r"[^\W\d_]{4,}", token.text):
            key = L.confusion_fold(word)
            if key not in best or token.confidence > best[key][0]:
                best[key] = (token.confidence, word)

    def spell(match: re.Match[str]) -> str:
        word = match[0]
        found = best.get(L.confusion_fold(word))
        if found is None or found[1].lower() == word.lower():
            return word
        return _restore_case(found[1].lower(), word)

    return re.sub(r"[^\W\d_]{4,}", spell, text)


def _restore_case(word: str, like: str) -> str:
    if like.isupper():
        return word.upper()
    return word.capitalize() if like[:1].isupper() else word


def correct_address_words(text: str) -> str:
    """Address words OCR garbled back to the word they fold onto ("Utarna" → "Utama",
    "Jaian" → "Jalan"); the state at the end of the address also within one letter
    ("Joher" → "Johor", "Selangoı" → "Selangor")."""
    from rapidfuzz import fuzz, process

    words = text.split(" ")
    out: list[str] = []
    for position, word in enumerate(words):
        match = re.fullmatch(r"(\W*)([^\W\d_]{4,})(\W*)", word)
        if match is None:
            out.append(word)
            continue
        lead, core, trail = match.groups()
        lower = core.lower()
        known = lower in _FOLDED_ADDRESS_WORDS.values()
        fixed = None if known else _FOLDED_ADDRESS_WORDS.get(L.confusion_fold(core))
        if fixed is None and not known and position >= len(words) - 3 and len(core) >= 5:
            # One letter misread, none lost or added: "Kelana" and "Selatan" are places
            # of their own, not "Kelantan".
            states = [s for s in _STATES if len(s) == len(core)]
            best = process.extractOne(lower, states, scorer=fuzz.ratio, score_cutoff=80)
            fixed = best[0] if best is not None else None
        out.append(lead + _restore_case(fixed, core) + trail if fixed else word)
    return " ".join(out)


def is_header(text: str) -> bool:
    return len(_HEADER_WORDS.findall(text)) >= 2


def _textual(row: Row) -> bool:
    return bool(re.search(r"[^\W\d_]{3}", row.text))


def _is_name_row(row: Row, colon: bool = False) -> bool:
    """A text line that may print a name: no contact, header, date or amount cue. A ``:``
    rules the line out unless ``colon`` ("Dimiliki Oleh : Kestrel Holdings Sdn Bhd" and
    "Hartono Realties Sdn Bhd (Co. No:31877-K)" print the name beside one)."""
    text = row.text
    return (
        _textual(row)
        and not NOISE.search(_NAME_REG.sub(" ", text) if colon else text)
        and not is_header(text)
        and len(text) <= 60
        and not re.search(r"=" if colon else r"[=:]", text)
        and date_in(row.tokens) is None
        and not money_tokens(row.tokens, None)
    )


_NAME_REG = re.compile(r"\(\s*co\.?\s*(?:reg\.?)?\s*no\.?\s*:?\s*\d{5,}\s?-?\s?[A-Z]?\s*\)", _I)
"""A bracketed registration number beside the name ("(Co. No:31877-K)"): no contact line."""


def row_height(row: Row) -> float:
    """The median height of a row's words (0 for a row without words)."""
    heights = sorted(t.height for t in row.tokens)
    return heights[len(heights) // 2] if heights else 0.0


def _name_tokens(rows: Sequence[Row], chosen: Row) -> list[Word]:
    segment = next(
        (s for s in chosen.segments if COMPANY.search(s.text) or SHOP.search(s.text)), None
    )
    if segment is None:
        tokens = list(chosen.tokens)
    else:
        # A gap wide enough to split the row may fall inside the name: "GOLDEN LEAF FAMILY
        # | MART SDN BHD". Word-only pieces before the legal form's piece are its start.
        at = chosen.segments.index(segment)
        start = at
        while start > 0 and re.fullmatch(r"[^\W\d_][^\d]*", chosen.segments[start - 1].text):
            start -= 1
        tokens = [t for piece in chosen.segments[start : at + 1] for t in piece.tokens]
    text = " ".join(t.text for t in tokens)
    # The name ends at its legal form: "EIGHT OUNCE COFFEE CO. THE GARDENS MALL".
    # "(Co. No:31877-K)" beside the name is no legal form "Co.": blanked, same length.
    cleaned_text = _NAME_REG.sub(lambda m: " " * len(m[0]), clean_text(text))
    forms = list(COMPANY.finditer(cleaned_text))
    if forms:
        end = forms[-1].end()
        kept: list[Word] = []
        position = 0
        cleaned = [clean_text(t.text) for t in tokens]
        for token, word in zip(tokens, cleaned, strict=True):
            if position >= end:
                break
            kept.append(token)
            position += len(word) + 1
        tokens = kept or tokens
    index = rows.index(chosen)
    rest = COMPANY.sub(" ", _TRAILING_REG.sub("", clean_text(" ".join(t.text for t in tokens))))
    rest = re.sub(r"\([^)]*\)", " ", rest)
    if not re.search(r"[^\W\d_]{2,}", rest) and index > 0 and _is_name_row(rows[index - 1]):
        # "(SETIA ALAM) SDN BHD" under "AIK HUAT HARDWARE ENTERPRISE": one name, two lines.
        tokens = [*rows[index - 1].tokens, *tokens]
    elif (
        len(re.findall(r"[^\W\d_]{2,}", rest)) == 1
        and SHOP.search(rest)
        and index > 0
        and _continues_name(chosen, rows[index - 1], longest=6)
    ):
        # "GOLDEN LEAF FAMILY" over "MART SDN BHD": a line of a shop word and the legal
        # form ends a name that starts on the text line above it, in the same type size.
        tokens = [*rows[index - 1].tokens, *tokens]
    elif index + 1 < len(rows):
        # "AIK HUAT HARDWARE ENTERPRISE" over "(SETIA ALAM) SDN BHD" or "(M) SDN BHD".
        following = rows[index + 1]
        below = re.sub(r"\([^)]*\)", " ", clean_text(following.text)).strip()
        if below and COMPANY.fullmatch(below):
            tokens = [*tokens, *following.tokens]
        elif not forms and _continues_name(chosen, following):
            # "SYARIKAT PERNIAGAAN" over "GIN KEE": a name without a legal form continues
            # on a short text-only line in the same type size.
            tokens = [*tokens, *following.tokens]
    return tokens


def _continues_name(name: Row, row: Row, longest: int = 3) -> bool:
    """``row`` (of at most ``longest`` words) is another line of the name on ``name``."""
    text = clean_text(row.text)
    return (
        _is_name_row(row)
        and not re.search(r"\d", text)
        and len(text.split()) <= longest
        and not _STREET.search(text)
        and not _REGIONS.match(text)
        and 0.85 <= row_height(row) / max(row_height(name), 1e-6) <= 1.2
        and abs(row.bbox[0] + row.bbox[2] - name.bbox[0] - name.bbox[2]) / 2 < 0.08
    )


def head_rows(rows: Sequence[Row]) -> list[Row]:
    """The merchant block: the rows before the first table header or amount (at most 12).
    A number before the first text line ("050.20" read from a logo or a stamp) ends
    nothing: the block has not begun."""
    head: list[Row] = []
    for row in rows[:12]:
        if (is_header(row.text) or money_tokens(row.tokens, None)) and any(
            _textual(r) for r in head
        ):
            break
        head.append(row)
    return head


def name_candidates(rows: Sequence[Row]) -> list[Row]:
    """Rows that may hold the merchant's name: text lines among the first of the head,
    lines with a colon among them (the learned scorer weighs the colon, see
    :mod:`.merchant_model`; :func:`rule_choice` passes them over)."""
    top = [r for r in head_rows(rows) if _textual(r)]
    return [r for r in top[:8] if _is_name_row(r, colon=True)]


NameChooser = Callable[[Sequence[Row], list[Row]], "tuple[Row, float] | None"]
"""(rows, name candidates) → the name row and its probability (a learned scorer), or None."""


def merchant(
    rows: Sequence[Row], choose: NameChooser | None = None
) -> tuple[Candidate | None, Candidate | None, int]:
    """(name, address, index of the name row or -1). ``choose``: a learned scorer picks the
    name row among :func:`name_candidates` instead of the rules' order of preference."""
    candidates = name_candidates(rows)
    if not candidates:
        return None, None, -1
    if choose is not None:
        picked = choose(rows, candidates)
        if picked is None:
            return None, None, -1
        return _from_row(rows, picked[0], picked[1], learned=True)
    chosen = rule_choice(candidates)
    if chosen is None:
        return None, None, -1
    return _from_row(rows, chosen[0], chosen[1], learned=False)


def rule_choice(candidates: Sequence[Row]) -> tuple[Row, float] | None:
    """The rules' name row and strength: the first with a legal form, with a registration
    number, with a shop word, else the tallest of the first text-only lines (a line with a
    colon is no name to the rules)."""
    candidates = [r for r in candidates if _is_name_row(r)]
    chosen = next((r for r in candidates[:5] if COMPANY.search(clean_text(r.text))), None)
    strength = 0.75
    if chosen is None:
        # "99 SPEED WART 5/5 (519537-X": a company registration number marks the name line
        # even when OCR garbled the legal form.
        chosen = next(
            (
                r
                for r in candidates[:5]
                if _REG_IN_ROW.search(r.text)
                and re.search(r"[^\W\d_]{3}.*" + _REG_IN_ROW.pattern, r.text)
            ),
            None,
        )
    if chosen is None:
        chosen = next((r for r in candidates[:5] if SHOP.search(r.text)), None)
        strength = 0.7
    if chosen is None:
        # Without a company word, the name is a text-only line (address lines carry
        # house numbers and postcodes): the tallest of the first such lines.
        plain = [
            r
            for r in candidates[:5]
            if not _STREET.search(clean_text(r.text)) and not _has_postcode(r.text)
        ]
        first = [r for r in plain[:4] if not re.search(r"\d", r.text)] or plain[:3]
        if not first:
            return None
        chosen = first[0]
        for row in first[1:3]:
            if row_height(row) > 1.3 * row_height(chosen):
                chosen = row
        strength = 0.55
    return chosen, strength


def name_of(rows: Sequence[Row], chosen: Row) -> tuple[str | None, tuple[Word, ...]]:
    """The name read from a name row (legal form cut, continued lines joined, OCR debris
    removed) and its tokens."""
    name_tokens = tuple(_name_tokens(rows, chosen))
    raw = " ".join(t.text for t in name_tokens)
    name = _TRAILING_REG.sub("", clean_text(raw)).strip(" ,;:-")
    return repair_name(name) or None, name_tokens


def repair_name(text: str) -> str:
    """A name's OCR slips repaired: look-alike digits in words, blanks around brackets."""
    return tidy_brackets(repair_letter_digits(text))


LEARNED_MIN_P = 0.2
"""Below this probability the learned scorer's best name row names nobody."""


def _from_row(
    rows: Sequence[Row], chosen: Row, strength: float, *, learned: bool
) -> tuple[Candidate | None, Candidate | None, int]:
    name, name_tokens = name_of(rows, chosen)
    raw = " ".join(t.text for t in name_tokens)
    last_name_token = name_tokens[-1]
    start = (
        next((i for i, row in enumerate(rows) if last_name_token in row.tokens), rows.index(chosen))
        + 1
    )
    address = _address(rows, start, name or "")
    if name is not None and not re.search(
        r"[^\W\d_]{2,}", COMPANY.sub(" ", re.sub(r"\([^)]*\)?", " ", name))
    ):
        name = None  # "ENTERPRISE (5": a legal form alone names nobody
    confidence = sum(t.confidence for t in name_tokens) / len(name_tokens)
    if learned:
        # The probability already weighs OCR confidence and the address under the row.
        if name is None or strength < LEARNED_MIN_P:
            return None, address, start - 1
        return Candidate(name, name_tokens, strength, raw), address, start - 1
    if strength < 0.7 and confidence < 0.6:
        # A logo read as letters ("Siombst anole" for ALDI): without a company word, a
        # line OCR itself doubts is no name.
        name = None
    if name is None or (address is None and strength < 0.7):
        # A lone line without a company word and no address under it is more likely a
        # heading or OCR debris than the merchant: report nothing rather than guess.
        return None, address, start - 1
    return Candidate(name, name_tokens, strength, raw), address, start - 1


def _tokens_before(row: Row, end: int) -> list[Word]:
    """The row's tokens that start before character ``end`` of :attr:`Row.text`."""
    kept: list[Word] = []
    position = 0
    for segment in row.segments:
        for token in segment.tokens:
            if position + len(token.text) > end:
                return kept
            kept.append(token)
            position += len(token.text) + 1
        position += 1  # segments are joined with two blanks
    return kept


def _address(rows: Sequence[Row], start: int, name: str) -> Candidate | None:
    address_rows: list[Row] = []
    for position in range(start, min(len(rows), start + 7)):
        row = rows[position]
        text = row.text.strip()
        if (
            REGISTRATION.match(clean_text(text))
            or re.fullmatch(r"\(.*\)", text)
            or (_REG_IN_ROW.search(text) and not _has_postcode(text))
        ):
            # "Company y No : SA0099552-P": a registration number is no address line.
            if address_rows:
                break
            continue
        noise = NOISE.search(text)
        head_text = text[: noise.start()] if noise is not None else ""
        if (
            noise is not None
            and noise.start() > 0
            and (
                _has_postcode(head_text)
                or (
                    (address_rows or _STREET.search(head_text))
                    and len(re.findall(r"[^\W\d_]{2,}", head_text)) >= 2
                )
            )
        ):
            # "81300 SKUDAI, JOHOR. TEL: 07-5212": the address ends where the phone begins.
            head = _tokens_before(row, noise.start())
            if head:
                address_rows.append(Row(row.page, row.index, [Segment(head, row.page, row.index)]))
            break
        if (
            noise
            or date_in(row.tokens) is not None
            or re.search(r"\d{1,2}[./-]\d{1,2}[./-]\d{2,4}", text)
        ):
            if address_rows:
                break
            continue
        if not address_rows and fold(clean_text(text)).startswith(fold(name)) and name:
            continue
        if money_tokens(row.tokens, None) or is_header(text) or text.endswith(":"):
            break
        if not re.search(r"\w", text):
            continue  # specks of punctuation between address lines
        if len(re.findall(r"[^\W\d_]{2,}", text)) == 0 and not re.search(r"\d{5}", text):
            if address_rows:
                break
            continue
        address_rows.append(row)
        after = rows[position + 1].text if position + 1 < len(rows) else ""
        if _has_postcode(after):
            continue  # "4210 Romero Mountain" above "Port Michaelaburgh, NJ 35496"
        if _has_postcode(text):
            following = rows[position + 1] if position + 1 < len(rows) else None
            if following is not None and _REGIONS.match(clean_text(following.text).strip()):
                address_rows.append(following)
            break
    if not address_rows or not any(re.search(r"\d", r.text) for r in address_rows):
        # Every street address carries a number (house, lot, postcode); text without one
        # is a slogan or OCR debris.
        return None
    tokens = tuple(t for r in address_rows for t in r.tokens)
    text = unify_spellings(
        join_address_rows([_clean_address(r.text) for r in address_rows]), tokens
    )
    text = tidy_brackets(correct_address_words(text))
    return Candidate(text, tokens, 0.6, "\n".join(r.text for r in address_rows))
