"""Seller and buyer: labelled address blocks, the sender line above the address window,
the address window itself, and company names with a legal form (letterhead, footer)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from prefect_docai.engines.extract import country_code
from prefect_docai.engines.extract.address import postcode_city, uk_postcode
from prefect_docai.engines.extract.candidates import Candidate, label_hits
from prefect_docai.engines.extract.labels import UK_POSTCODE
from prefect_docai.engines.extract.rows import PageLayout, Row, Segment, fold
from prefect_docai.engines.invoice import labels as L
from prefect_docai.engines.page.model import Word

_SENDER_SPLIT = re.compile(r"\s+[-–—·•●|∙/]\s+|\s*[·•●|∙]\s*|,\s+")
_STRONG_SPLIT = re.compile(r"\s+[-–—·•●|∙/]\s+|\s*[·•●|∙]\s*")


def _sender_parts(text: str) -> list[str]:
    """A sender line's parts: split at dots/dashes/bars, and at commas only when there
    are no such separators (commas also sit inside names and "City, ST 12345")."""
    splitter = _STRONG_SPLIT if _STRONG_SPLIT.search(text) else _SENDER_SPLIT
    return [p for p in splitter.split(text) if p and p.strip()]


@dataclass
class Party:
    name: Candidate | None = None
    street: Candidate | None = None
    postal_code: Candidate | None = None
    city: Candidate | None = None
    country: Candidate | None = None
    score: float = 0.0
    rows: frozenset[int] = frozenset()
    """Page-1 rows the party was read from as one line (a sender line OCR split)."""


@dataclass(frozen=True)
class _Piece:
    """One address line: its text and the tokens it came from."""

    text: str
    tokens: tuple[Word, ...]


def _pieces_from_segments(segments: Sequence[Segment]) -> list[_Piece]:
    return [_Piece(s.text, tuple(s.tokens)) for s in segments]


def _candidate(piece: _Piece, value: str, score: float) -> Candidate:
    return Candidate(value, piece.tokens, score, piece.text)


def _sub_piece(piece: _Piece, text: str) -> _Piece:
    """The tokens of ``piece`` that make up ``text`` (a part of its text)."""
    start = piece.text.find(text)
    if start < 0:
        return piece
    tokens: list[Word] = []
    position = 0
    for token in piece.tokens:
        begin = piece.text.find(token.text, position)
        if begin < 0:
            continue
        position = begin + len(token.text)
        if begin < start + len(text) and position > start:
            tokens.append(token)
    return _Piece(text, tuple(tokens) or piece.tokens)


def _printed_postcode(text: str, postcode: str) -> str:
    """``postcode`` as ``text`` prints it (a British one may print a 0 as the letter O)."""
    found = re.search(re.escape(postcode).replace("0", "[0O]"), text)
    return found.group(0) if found is not None else postcode


def parse_block(pieces: Sequence[_Piece], score: float) -> Party | None:
    """Name / street / postcode + city / country out of an address block's lines (lines
    with neither letter nor digit, specks OCR read as ``_`` or ``|``, left out: such a
    line between street and postcode would take the street's place)."""
    pieces = [p for p in pieces if re.search(r"[^\W_]", p.text)]
    postcode_at = None
    for index, piece in enumerate(pieces):
        if postcode_city(piece.text) is not None and index > 0:
            postcode_at = index
            break
    if postcode_at is None:
        return None
    found = postcode_city(pieces[postcode_at].text)
    assert found is not None
    postcode, city, prefix = found
    party = Party(score=score)
    postcode_piece = pieces[postcode_at]
    printed = _printed_postcode(postcode_piece.text, postcode)
    party.postal_code = _candidate(_sub_piece(postcode_piece, printed), postcode, score)
    party.city = _candidate(_sub_piece(postcode_piece, city), city, score)
    if prefix:
        country = country_code(prefix)
        if country is not None:
            party.country = _candidate(_sub_piece(postcode_piece, prefix), country, score * 0.9)
    if postcode_at + 1 < len(pieces):
        following = country_code(pieces[postcode_at + 1].text, allow_code=False)
        if following is not None:
            party.country = _candidate(pieces[postcode_at + 1], following, score)
    name_end = postcode_at
    above = pieces[postcode_at - 1]
    names = [p for p in pieces[: postcode_at - 1] if _name_line(p)]
    if (
        re.search(r"\d", above.text)
        or L.STREET_WORD.search(above.text)
        or (
            # name, then street, then postcode: a street without number or street word
            # ("Duncan Falls", "Bailey Spur") under the name still is the street
            names
            and not L.SALUTATION.match(names[-1].text.strip())
            and not L.LEGAL_FORM.search(above.text)
            and not L.SALUTATION.match(above.text.strip())
            and not _is_noise(above.text)
            and _name_line(above)
        )
    ):
        party.street = _candidate(above, _clean(above.text), score)
        name_end = postcode_at - 1
    name_lines = [p for p in pieces[:name_end] if _name_line(p)]
    if not name_lines:
        return party
    # The name is the line above the street; the line before it joins when it is a
    # salutation (``Herrn``) or the first half of a two-line company name.
    keep = [name_lines[-1]]
    if len(name_lines) >= 2:
        previous = name_lines[-2]
        if L.LEGAL_FORM.search(previous.text) and not L.LEGAL_FORM.search(keep[0].text):
            # "Kunden AG / Hans Muster / street": the company, not its contact person.
            keep = [previous]
        elif L.SALUTATION.match(previous.text.strip()) or (
            L.LEGAL_FORM.search(keep[0].text)
            and not L.LEGAL_FORM.search(previous.text)
            and not re.search(r"\d", previous.text)
            and _first_half(previous, keep[0])
        ):
            keep.insert(0, previous)
    tokens = tuple(t for p in keep for t in p.tokens)
    text = "\n".join(_clean(p.text) for p in keep)
    text = strip_junk(text)
    party.name = Candidate(re.sub(r"\s+", " ", text), tokens, score, text)
    return party


def _height(tokens: Sequence[Word]) -> float:
    return max((t.bbox[3] - t.bbox[1] for t in tokens), default=0.0)


def is_monogram(text: str, tokens: Sequence[Word], name: str, name_tokens: Sequence[Word]) -> bool:
    """A logo's letters above a company name ("TA" over "Täsche AG", OCR may misread them):
    one word of at most three characters, or the initials of the name's words, or glyphs
    far taller than the name's."""
    words = text.split()
    initials = "".join(w[0] for w in name.split() if w[:1].isalpha()).casefold()
    letters = re.sub(r"\W", "", text).casefold()
    height, name_height = _height(tokens), _height(name_tokens)
    return (
        (len(words) == 1 and len(letters) <= 3)
        or (len(letters) >= 2 and initials.startswith(letters))
        or (name_height > 0 and height > 1.6 * name_height)
    )


def _first_half(previous: _Piece, name: _Piece) -> bool:
    """Whether ``previous`` may be the first line of the two-line company name ``name``:
    not a logo's monogram, not a street (a street word, or a sender line's separated
    parts "Name - Street" OCR set as its own row above the recipient)."""
    text = previous.text.strip()
    return not (
        is_monogram(text, previous.tokens, name.text, name.tokens)
        or L.STREET_WORD.search(text)
        or _STRONG_SPLIT.search(f" {text} ")
    )


_JUNK_LEAD = re.compile(r"^(?:[^\w\s]+|[^\W_][)\]}>|»*~]+|[(\[{<|«*~]+[^\W_])\s+(?=[^\W\d_])")
"""A first token of one letter with brackets or bars, or of punctuation alone ("G)", "|",
"»"): a logo or a speck OCR read before a name."""


def strip_junk(name: str) -> str:
    """``name`` without a leading :data:`_JUNK_LEAD` ("G) Finanzas S.C.P" → "Finanzas
    S.C.P"); "A. Meier GmbH" keeps its initial."""
    return _JUNK_LEAD.sub("", name)


def _name_line(piece: _Piece) -> bool:
    """An address block's line that may name the party (no label, title, contact line).
    A name has a letter: a line of digits alone is a house number set apart or a speck OCR
    read as a digit ("5" between a company's name and its contact line), never the name."""
    return (
        ":" not in piece.text
        and re.search(r"[^\W\d_]", piece.text) is not None
        and not _is_noise(piece.text)
        and not is_party_label(fold(piece.text), L.SELLER_LABEL)
        and not is_party_label(fold(piece.text), L.BUYER_LABEL)
        and not L.INVOICE_TITLE.search(fold(piece.text))
        and not L.DELIVERY_ADDRESS.search(fold(piece.text))
    )


def _clean(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip(" ,;")


def _is_noise(text: str) -> bool:
    folded = fold(text)
    return bool(
        re.search(r"@|www\.|https?:|\btel\b|\bfax\b|phone|telefon|\+\d{2}", folded)
        or re.match(
            r"^(?:z\.\s?hd|attn|c/o|postfach|fao\b|for the attention|[aà] l['’]attention|"
            r"t\.\s?a\.\s?v\.|ter attentie|alla (?:cortese )?att|c\.a\.|a la atenci[oó]n|"
            r"att\.?(?:\s|:))",
            folded,
        )
    )


def is_party_label(folded: str, pattern: re.Pattern[str]) -> bool:
    """A party label stands alone (``Verkäufer:``, ``Bill to``), unlike a company name
    that merely starts with the same word (``Lieferant GmbH``)."""
    match = pattern.search(folded)
    if match is None:
        return False
    rest = folded[match.end() :].strip()
    if rest == "" or rest.startswith(":") or (rest.endswith(":") and len(rest) < 30):
        return True
    return (
        len(folded.split()) <= 3
        and not re.search(r"\d", folded)
        and L.LEGAL_FORM.search(folded) is None
    )


def _rows_below(layout: PageLayout, segment: Segment, limit: int = 9) -> list[_Piece]:
    """Address lines under a party label: the rows below in the label's column, with
    ``Name: X`` / ``Anschrift: Y`` rows reduced to their values and other key rows
    (``Nummer: 4711``) left out."""
    pieces: list[_Piece] = []
    x0 = segment.bbox[0]
    # the column ends where the next label of the label's row begins ("Client" beside
    # "Fournisseur": the blocks under them are two parties, not one)
    x1 = x0 + 0.42
    label_row = next((r for r in layout.rows if r.index == segment.row), None)
    if label_row is not None:
        right = [s.bbox[0] for s in label_row.segments if s.bbox[0] > segment.bbox[2]]
        x1 = min([x1, *(x - 0.01 for x in right)])
    bottom = segment.bbox[3]
    height = max(segment.bbox[3] - segment.bbox[1], 1e-3)
    for row in layout.rows[segment.row + 1 :]:
        # OCR boxes hug the glyphs, so blank space between lines measures up to ~2.5
        # glyph heights inside one block.
        if row.bbox[1] - bottom > 3.2 * height or len(pieces) >= limit:
            break
        column = [s for s in row.segments if x0 - 0.03 <= s.bbox[0] < x1]
        if not column:
            continue
        bottom = row.bbox[3]
        first = fold(column[0].text)
        if is_party_label(first, L.SELLER_LABEL) or is_party_label(first, L.BUYER_LABEL):
            break
        if ":" in column[0].text:
            key, _, value = column[0].text.partition(":")
            rest_tokens = [t for s in column[1:] for t in s.tokens]
            if not L.ADDRESS_KEY.match(fold(key) + ":"):
                continue
            if value.strip():
                whole = _Piece(column[0].text, tuple(column[0].tokens))
                pieces.append(_sub_piece(whole, value.strip()))
            elif rest_tokens:
                pieces.append(_Piece(" ".join(t.text for t in rest_tokens), tuple(rest_tokens)))
            continue
        tokens = tuple(t for s in column for t in s.tokens)
        pieces.append(_Piece(" ".join(t.text for t in tokens), tokens))
    return pieces


def labelled_parties(layouts: Sequence[PageLayout]) -> tuple[Party | None, Party | None]:
    seller: list[Party] = []
    buyer: list[Party] = []
    for pattern, sink in ((L.SELLER_LABEL, seller), (L.BUYER_LABEL, buyer)):
        for layout, _row, segment, end in label_hits(layouts, pattern):
            if not is_party_label(fold(segment.text), pattern):
                continue
            rest = segment.after(end)
            pieces = []
            text = " ".join(t.text for t in rest).strip(" :")
            if text and len(fold(segment.text)) < 60:
                pieces.append(_Piece(text, tuple(rest)))
            pieces.extend(_rows_below(layout, segment))
            party = parse_block(pieces, 0.85) or _misread_postcode_line(pieces, 0.75)
            if party is not None and pieces and rest and pieces[0].tokens == tuple(rest):
                # "Seller: Muster GmbH" names the party on the label's own line.
                party.name = _candidate(pieces[0], _clean(pieces[0].text), 0.85)
            if party is not None and party.name is not None:
                sink.append(party)
    return (
        max(seller, key=lambda p: p.score, default=None),
        max(buyer, key=lambda p: p.score, default=None),
    )


def _same_line(layout: PageLayout, row: Row) -> list[Segment]:
    """``row``'s segments with those of neighbouring rows on the same printed line: OCR
    boxes of a small line set with separators ("Name - Street 1 - 12345 City") straddle
    row boundaries (a dash's box sits lower than the letters), so one line may come as
    rows of a few segments each. A neighbour joins when it overlaps ``row`` vertically by
    half its height and none of its segments overlaps one of the line's horizontally."""
    segments = list(row.segments)
    top, bottom = row.bbox[1], row.bbox[3]
    for other in layout.rows[max(0, row.index - 3) : row.index + 4]:
        if other is row:
            continue
        height = min(other.bbox[3] - other.bbox[1], bottom - top)
        overlap = min(bottom, other.bbox[3]) - max(top, other.bbox[1])
        if height <= 0 or overlap < 0.5 * height:
            continue
        if any(
            s.bbox[0] < t.bbox[2] and t.bbox[0] < s.bbox[2]
            for s in other.segments
            for t in segments
        ):
            continue
        segments.extend(other.segments)
    return sorted(segments, key=lambda s: s.bbox[0])


_CONJUNCTION_END = re.compile(r"(?:,|\s&|\s(?:and|und|et|en|e|y))$", re.I)


def _joined_parts(pieces: list[_Piece]) -> list[_Piece]:
    """A sender line's parts put back together where a segment boundary cut them: a part
    ending in a comma or a conjunction runs on into the next ("Russell," / "O'Brien and
    Patel"), a compound legal form's tail joins the name before it ("Ladeck AG" / "& Co.
    KGaA"), and a house number alone joins its street ("90" / "Bailey Spur")."""
    out: list[_Piece] = []
    for piece in pieces:
        if out:
            last = out[-1]
            runs_on = (
                _CONJUNCTION_END.search(last.text)
                and not L.LEGAL_FORM.search(last.text)
                and not re.search(r"\d", last.text + piece.text)
            )
            if (
                runs_on
                or re.match(r"&\s*co\b", piece.text, re.I)
                or (
                    re.fullmatch(r"\d{1,4}[a-zA-Z]?", last.text)
                    and not re.search(r"\d", piece.text)
                )
            ):
                out[-1] = _Piece(f"{last.text} {piece.text}", (*last.tokens, *piece.tokens))
                continue
        out.append(piece)
    return [p for p in out if len(p.text) > 1]  # a lone digit no street took


def sender_line(layouts: Sequence[PageLayout]) -> Party | None:
    """``Firma GmbH · Straße 1 · 12345 Stadt`` above the address window on page 1 (the
    separators may be separate words, so the row's segments are split further; OCR may
    set the line as several rows: :func:`_same_line`)."""
    if not layouts:
        return None
    loose: Party | None = None  # a line whose postcode OCR misread, when no other parses
    for row in layouts[0].rows:
        if row.bbox[1] > 0.4:
            break
        segments = _same_line(layouts[0], row)
        pieces: list[_Piece] = []
        for segment in segments:
            whole = _Piece(segment.text, tuple(segment.tokens))
            for part in _sender_parts(segment.text):
                # a separator left at a segment's edge ("Benson-Price -", "- 12345 Stadt")
                text = part.strip(" -–—·•|")
                # A lone character between segments is a separator dot OCR read as a
                # letter ("●" → "e"); a lone digit is a house number (:func:`_joined_parts`).
                if (len(text) > 1 and re.search(r"\w", text)) or text.isdigit():
                    pieces.append(_sub_piece(whole, text))
        pieces = _joined_parts(pieces)
        separated = any(_STRONG_SPLIT.search(s.text) or len(s.text.strip()) <= 1 for s in segments)
        if len(pieces) < 3 or not separated:
            continue
        party = parse_block(pieces[:6], 0.8)
        if (
            party is not None
            and party.name is not None
            and party.city is not None
            and re.search(r"[^\W\d_]{3}", str(party.name.value))
        ):  # initials of a logo ("JB") are no name
            party.rows = frozenset(s.row for s in segments)
            return party
        if loose is None:
            loose = _misread_postcode_line(pieces, 0.7)
            if loose is not None:
                loose.rows = frozenset(s.row for s in segments)
    return loose


_MISREAD_UK_TAIL = re.compile(
    r"[^\W\d_]{3}.*\s[A-Z]{1,2}[\dO][A-Z\dO)\]}]?\s[\dOSZIl][A-Z\dOSZIl\]\[|(){}]{2}$"
)
"""A city and a British postcode OCR misread past :func:`uk_postcode` ("Katherineton KTO
OYR": both digits read as O; "West Eleanorhaven WR6 82]": "8ZJ" read as "82]"; "Juliashire
G2) 5D}": a J read as a bracket)."""


def _misread_postcode_line(pieces: Sequence[_Piece], score: float) -> Party | None:
    """Name, street, city: a sender line (or a labelled block) whose British postcode OCR
    misread, so that no postcode is found (:data:`_MISREAD_UK_TAIL`); the name stands
    first, the street after it has a house number or a street word."""
    if len(pieces) < 3:
        return None
    name, street, city = pieces[0], pieces[1], pieces[2]
    if (
        re.search(r"\d", name.text)
        or not re.search(r"[^\W\d_]{3}", name.text)
        or not _name_line(name)
        or L.SALUTATION.match(name.text.strip())
        or not (_STREET_PART.match(street.text.strip()) or L.STREET_WORD.search(street.text))
        or not _MISREAD_UK_TAIL.search(city.text.strip())
    ):
        return None
    return Party(
        name=_candidate(name, _clean(name.text), score),
        street=_candidate(street, _clean(street.text), score),
        score=score,
    )


def address_window(
    layouts: Sequence[PageLayout], sender: Party | None
) -> tuple[Party | None, Party | None]:
    """The recipient block in the left upper part of page 1 (DIN 5008 / C5 window), and
    the sender's block when one stands above it: (sender block, recipient block)."""
    if not layouts:
        return None, None
    layout = layouts[0]
    sender_rows = {t.bbox[1] for t in (sender.name.tokens if sender and sender.name else ())}
    column: list[Segment] = []
    for row in layout.rows:
        if row.bbox[1] > 0.45:
            break
        if row.bbox[1] < 0.02:
            continue
        first = row.segments[0]
        if first.bbox[0] > 0.45:
            continue
        if row.index in (sender.rows if sender else ()) or any(
            abs(t.bbox[1] - y) < 1e-4 for t in first.tokens for y in sender_rows
        ):
            continue  # the sender line, each of the rows OCR set it as
        column.append(first)
    blocks: list[Party] = []
    taken = -1
    for index, segment in enumerate(column):
        if index <= taken or postcode_city(segment.text) is None:
            continue
        start = index
        while start > taken + 1 and index - start < 5:
            prev, cur = column[start - 1], column[start]
            gap = cur.bbox[1] - prev.bbox[3]
            if gap > 2.2 * max(cur.bbox[3] - cur.bbox[1], 1e-3):
                break
            start -= 1
        block = column[start : index + 2]
        if len(_sender_parts(block[0].text)) >= 3 and _SENDER_SPLIT.search(block[0].text):
            block = block[1:]
        party = parse_block(_pieces_from_segments(block), 0.75)
        if party is not None and party.name is not None:
            blocks.append(party)
            taken = index
    if not blocks:
        return None, None
    first_name = str(blocks[0].name.value) if blocks[0].name else ""
    if len(blocks) == 1 or L.SALUTATION.match(first_name.split()[0] if first_name else ""):
        # A salutation ("Herrn Max Mustermann") marks the recipient.
        return None, blocks[0]
    # Two address blocks stacked on the left: the sender's letterhead, then the window.
    return blocks[0], blocks[1]


_NAME_SPLIT = re.compile(r"\s+[-–—·•●|∙/]\s+|\s*[·•●|∙]\s*")


def legal_names(layouts: Sequence[PageLayout]) -> list[Candidate]:
    """Company names carrying a legal form, scored by how often and where they appear
    (letterhead and footer are the seller's); a letterhead name set on two lines is
    joined with the line above it."""
    seen: Counter[str] = Counter()
    first: dict[str, Candidate] = {}
    for layout in layouts:
        for row in layout.rows:
            for segment in row.segments:
                for part in _NAME_SPLIT.split(segment.text):
                    text = strip_junk(part.strip())
                    match = L.LEGAL_FORM.search(text)
                    if match is None or ":" in text[: match.start()]:
                        continue
                    form = match.group().strip()
                    if form.islower() and len(form) <= 3:
                        continue  # "as follows", "se", "ab": words, not "AS", "SE", "AB"
                    before = text[: match.start()]
                    if not re.search(r"[^\W\d_]{2}", before) or re.match(
                        r"^\W*(?:\(c\)|©|\d)", text, re.I
                    ):
                        continue
                    if L.IBAN.search(before) or L.BIC.search(before) or re.search(r"\d{6}", before):
                        continue  # the bank's name after the account details
                    if _BANK_WORD.search(before) and _account_near(layout, row, segment):
                        continue  # the bank's name beside or above the account details
                    name = _clean(text[: match.end()])
                    if len(name) < 4 or len(name.split()) > 7 or _is_noise(name):
                        continue
                    piece = _sub_piece(_Piece(segment.text, tuple(segment.tokens)), name)
                    if text == segment.text.strip():
                        above = _line_above(layout, segment)
                        if above is not None:
                            name = f"{_clean(above.text)}\n{name}"
                            piece = _Piece(name, (*above.tokens, *piece.tokens))
                    key = fold(name)
                    seen[key] += 1
                    if key not in first:
                        y = row.bbox[1]
                        position_bonus = 0.15 if (layout.page == 1 and y < 0.2) or y > 0.8 else 0.0
                        first[key] = Candidate(
                            re.sub(r"\s+", " ", name), piece.tokens, 0.55 + position_bonus, name
                        )
    ranked = []
    for key, candidate in first.items():
        bonus = min(0.2, 0.07 * (seen[key] - 1))
        ranked.append(
            Candidate(candidate.value, candidate.tokens, candidate.score + bonus, candidate.raw)
        )
    return sorted(ranked, key=lambda c: -c.score)


_BANK_WORD = re.compile(
    r"\b(?:\w*bank(?:en)?|banque|banca|banco|bancaria|\w*sparkasse|raiffeisen\w*|"
    r"caisse|cr[ée]dit|kreditinstitut|girozentrale)\b",
    re.I,
)


def _account_near(layout: PageLayout, row: Row, segment: Segment) -> bool:
    """An IBAN or BIC in the same row as ``segment``, or in the two rows below it in
    its column (a bank's name printed over the account it holds)."""
    for other in layout.rows[row.index : row.index + 3]:
        for part in other.segments:
            same_column = abs(part.bbox[0] - segment.bbox[0]) < 0.12
            if (other is row or same_column) and (
                L.IBAN.search(fold(part.text)) or L.BIC.search(fold(part.text))
            ):
                return True
    return False


def _line_above(layout: PageLayout, segment: Segment) -> Segment | None:
    """The first half of a two-line name: just above, same left edge and size, only
    words (no digits, no label). Rows of other columns (a logo OCR read as text) may sit
    in between and are looked past."""
    height = segment.bbox[3] - segment.bbox[1]
    for row in reversed(layout.rows[max(0, segment.row - 3) : segment.row]):
        above = next((s for s in row.segments if abs(s.bbox[0] - segment.bbox[0]) < 0.01), None)
        if above is None:
            continue
        above_height = above.bbox[3] - above.bbox[1]
        if (
            abs(above_height - height) < 0.35 * height
            and segment.bbox[1] - above.bbox[3] < 1.1 * height
            and not re.search(r"[\d:@(]", above.text)
            and not L.LEGAL_FORM.search(above.text)
            and not L.SALUTATION.match(above.text.strip())
            and not L.INVOICE_TITLE.search(fold(above.text))
            and not is_monogram(above.text, above.tokens, segment.text, segment.tokens)
            # a party label over its block ("From" / "Wells PLC") is no half of the name
            and not is_party_label(fold(above.text), L.SELLER_LABEL)
            and not is_party_label(fold(above.text), L.BUYER_LABEL)
        ):
            return above
        return None
    return None


def parties(layouts: Sequence[PageLayout]) -> tuple[Party, Party]:
    labelled_seller, labelled_buyer = labelled_parties(layouts)
    sender = sender_line(layouts)
    letterhead, window = address_window(layouts, sender)
    # The page footer's imprint ("Name | street | city | VAT ...", or name, street and
    # city stacked in its left column) is the issuer's own: an address block at the top
    # carrying the same name is the seller's block (printed beside the buyer's, not in the
    # window), and a company name it repeats is the seller.
    imprint = footer_name(layouts, None) or footer_block(layouts, None)
    imprinted = fold(str(imprint.value)) if imprint is not None else None
    if (
        labelled_seller is None
        and sender is None
        and letterhead is None
        and window is not None
        and window.name is not None
        and imprinted is not None
        and fold(str(window.name.value)) == imprinted
    ):
        letterhead, window = window, labelled_buyer or _beside(layouts, window)
    seller = labelled_seller or sender or letterhead or Party()
    buyer = labelled_buyer or window or Party()
    buyer_name = fold(str(buyer.name.value)) if buyer.name else None
    if seller.name is None:
        candidates = legal_names(layouts)
        confirmed = [c for c in candidates if fold(str(c.value)) == imprinted]
        if imprint is not None and not confirmed and fold(str(imprint.value)) != buyer_name:
            confirmed = [imprint]  # the imprint over a company named elsewhere (the buyer's)
        for candidate in confirmed or candidates:
            if buyer_name is None or fold(str(candidate.value)) not in buyer_name:
                seller.name = candidate
                break
    if seller.name is None:
        seller.name = footer_name(layouts, buyer_name)
    if seller.name is None:
        seller.name = footer_block(layouts, buyer_name)
    if seller.name is None:
        seller.name = _account_holder(layouts, buyer_name)
    return seller, buyer


def _beside(layouts: Sequence[PageLayout], block: Party) -> Party | None:
    """The address block printed to the right of ``block`` on the same lines (the other
    party of two blocks side by side)."""
    if block.name is None or not block.name.tokens or not layouts:
        return None
    layout = layouts[0]
    top = min(t.bbox[1] for t in block.name.tokens)
    right_of = max(t.bbox[2] for t in block.name.tokens)
    column: list[Segment] = []
    x0: float | None = None
    for row in layout.rows:
        if row.bbox[3] < top - 0.005:
            continue
        if row.bbox[1] > 0.5 or len(column) >= 8:
            break
        side = [
            s
            for s in row.segments
            if s.bbox[0] > max(right_of, 0.35) and (x0 is None or abs(s.bbox[0] - x0) < 0.03)
        ]
        if not side:
            if column:
                break
            continue
        x0 = side[0].bbox[0] if x0 is None else x0
        column.append(side[0])
    if not column:
        return None
    party = parse_block(_pieces_from_segments(column), 0.7)
    return party if party is not None and party.name is not None else None


_FOOTER_SPLIT = re.compile(r"\s*[|·•●∙]\s*")
_CITY_LINE = re.compile(r"\b\d{4,5}(?:\s?[A-Z]{2})?\s+[^\W\d_]{2}")
_STREET_PART = re.compile(
    r"^\d{1,5}[a-zA-Z]?,?\s+[^\W\d_]{2,}(?:\s+[^\W\d_]+)*$"  # "150 Lewis Trail", "24, rue X"
    r"|^[^\W\d_]{3,}.*\s\d{1,5}\s?[a-zA-Z]?$"  # "Hauptstraße 12a", "Tijnlaan 083"
)
_POSTCODE_PART = re.compile(
    rf"\b(?P<uk>(?=\S+\s\S{{3}}$){UK_POSTCODE})$"  # British "L3T 1HQ"
    r"|\b[A-Z]{2}\s\d{5}(?:-\d{4})?$"  # American "CA 90210"
)


def _postcode_part(text: str) -> bool:
    """A footer part ending in a British or American postcode (a British one with a 0 read
    as the letter O: :func:`engines.extract.address.uk_postcode`)."""
    found = _POSTCODE_PART.search(text)
    return found is not None and (found["uk"] is None or uk_postcode(found["uk"]) is not None)


def footer_name(layouts: Sequence[PageLayout], buyer_name: str | None) -> Candidate | None:
    """The name opening a page footer of separated parts ("Dupuy | 83, chemin de Gallet |
    58838 Evrard | N° TVA ..."): the seller's, when the parts after it give its address."""
    for layout in layouts:
        for row in layout.rows:
            if row.bbox[1] < 0.8:
                continue
            # the whole row, then each segment: OCR splits a footer line into segments
            # at wide gaps ("Thomas | 896," / "rue de Samson" / "43208 Diallo | ...")
            whole = (
                [Segment(list(row.tokens), row.page, row.index)] if len(row.segments) > 1 else []
            )
            for segment in [*whole, *row.segments]:
                parts = [p for p in _FOOTER_SPLIT.split(segment.text.strip()) if p]
                if len(parts) < 3:
                    continue
                name = _clean(parts[0])
                address = " ".join(parts[1:4])
                if (
                    2 <= len(name) <= 60
                    and len(name.split()) <= 6
                    and not re.search(r"[\d:@]", name)
                    and re.search(r"[^\W\d_]{2}", name)
                    and (
                        _CITY_LINE.search(address)
                        or L.STREET_WORD.search(address)
                        or (
                            _STREET_PART.match(parts[1].strip())
                            and any(_postcode_part(p.strip()) for p in parts[2:4])
                        )
                    )
                    and fold(name) != buyer_name
                    and not _is_noise(name)
                ):
                    piece = _sub_piece(_Piece(segment.text, tuple(segment.tokens)), name)
                    return Candidate(name, piece.tokens, 0.5, name)
    return None


def footer_block(layouts: Sequence[PageLayout], buyer_name: str | None) -> Candidate | None:
    """The name over an address in a page footer's columns (name / street / postcode and
    city stacked in the left column of a letter footer): the issuer's."""
    for layout in layouts[:1]:
        columns: list[list[Segment]] = []
        for row in layout.rows:
            if row.bbox[1] < 0.82:
                continue
            for segment in row.segments:
                column = next(
                    (c for c in columns if abs(c[-1].bbox[0] - segment.bbox[0]) < 0.02), None
                )
                if column is None:
                    columns.append([segment])
                else:
                    column.append(segment)
        for column in sorted(columns, key=lambda c: c[0].bbox[0]):
            party = parse_block(_pieces_from_segments(column[:5]), 0.5)
            if party is None or party.name is None or party.street is None:
                continue
            name = str(party.name.value)
            if (
                fold(name) != buyer_name
                and not _BANK_WORD.search(name)
                and not re.search(r"[\d:@]", name)
                and re.search(r"[^\W\d_]{2}", name)
            ):
                return Candidate(name, party.name.tokens, 0.5, name)
    return None


def _account_holder(layouts: Sequence[PageLayout], buyer_name: str | None) -> Candidate | None:
    """The payee named with the bank details ("Titulaire du compte : NETPRESSE"): the
    seller when nothing better names it."""
    for _layout, _row, segment, end in label_hits(layouts, L.ACCOUNT_HOLDER):
        rest = segment.after(end)
        tokens = [t for t in rest if t.text not in (":", "-")]
        text = _clean(" ".join(t.text for t in tokens).lstrip(": "))
        if 2 <= len(text) <= 60 and not re.search(r"\d", text) and fold(text) != buyer_name:
            return Candidate(text, tuple(tokens), 0.5, text)
    return None
