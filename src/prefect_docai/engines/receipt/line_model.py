"""The merchant's name and address tagged line by line by a learned model.

Every row of the receipt's head (the first :data:`HEAD_ROWS`) is described by its layout
(rank and position from the top, type size against the receipt's median, centring, width)
and its text (shares of capitals, digits and punctuation; legal forms, shop and street words
in several languages, postcode-like numbers, phone / tax / registration / date / amount
cues, OCR confidence), beside the same cues on the rows around it. Two gradient-boosted
tree scorers trained on the SROIE training pool (``python -m training.receipts --write
lines``, folds by merchant) give each row P(part of the merchant's name) and P(part of
its address).

:func:`decode` then chooses the name as one contiguous block of one to
:data:`NAME_MAX_ROWS` rows and the address as one contiguous run of up to
:data:`ADDRESS_MAX_ROWS` rows after it (at most :data:`ADDRESS_GAP` rows between them):
the pair of blocks with the largest sum of the rows' log-odds, each row counted once. No
order of hand-set thresholds: a block is there because its rows are more likely in it than
out of it. The rows' text is assembled as the rules do (:mod:`.merchant`): OCR debris
cleaned, a trailing registration number dropped from the name, an address row cut where
its phone or fax begins; an address word one letter off a word of the model's lexicon
(address words that several merchants of the training keys print) takes its spelling.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from statistics import median

from prefect_docai.engines.calibration import clipped_logit
from prefect_docai.engines.extract.candidates import Candidate, date_in, money_tokens
from prefect_docai.engines.extract.rows import Row, Segment
from prefect_docai.engines.learned import TreeScorer
from prefect_docai.engines.page.model import Word
from prefect_docai.engines.receipt import merchant as M

MODEL_FILE = "receipt_lines.json"
REPORTED_FIELDS: tuple[str, ...] = ("address",)
"""The fields the engine takes from the tagger. The address beats the rules out of fold
(``training/receipts.py``, folds by merchant; strict F1 on the pool 0.360 against 0.316,
on merchants absent from the visible set 0.331 against 0.299) and on the visible receipts
(0.550 against 0.513). The tagger's name did not beat the rules (measured on Tesseract-only
OCR: pool 0.599 against 0.597, unseen merchants 0.530 against 0.537, visible 0.872 against
0.923), nor did it help where the rules find no name (tried: out of fold, pool 0.720 against
0.725); on the RapidOCR reading neither (pool 0.730 against the rules' 0.729, unseen merchants
0.647 against 0.645, visible 0.750 against 0.800; filling the rules' gaps 0.724), while the
name-row scorer (:mod:`.merchant_model`) gives 0.738 / 0.660 / 0.800, so it reads the name."""
HEAD_ROWS = 20
"""Rows of the receipt's top that may hold the name or the address."""
NAME_MAX_ROWS = 3
ADDRESS_MAX_ROWS = 6
ADDRESS_GAP = 3
"""Rows allowed between the name and the address (a registration number, a branch)."""

_I = re.IGNORECASE
LEGAL_FORM = re.compile(
    r"\b(?:sdn\.?\s*bhd\.?|s/b|bhd\.?|berhad|pte\.?\s*ltd\.?|ltd\.?|limited|llc|inc\.?|"
    r"corp\.?|plc|gmbh|ag|kg|ohg|e\.\s?k\.|ug|s\.?a\.?s?|s\.?a\.?r\.?l\.?|s\.?r\.?l\.?|"
    r"s\.?p\.?a\.?|b\.?v\.?|n\.?v\.?|s\.?l\.?|enterprise|trading|company|co\.)(?=$|[\s,.;()])",
    _I,
)
"""Company forms across the six languages' countries and Malaysia."""
ADDRESS_WORD = re.compile(
    r"\b(?:jalan|jln|taman|tmn|lorong|persiaran|lebuh|lebuhraya|bandar|kampung|kg|batu|"
    r"seksyen|kawasan|perindustrian|wisma|plaza|kompleks|bangunan|pusat|lot|no|blok|block|"
    r"floor|flr|level|ground|suite|unit|street|st|road|rd|avenue|ave|lane|drive|mall|"
    r"centre|center|stra(?:ß|ss)e|str|weg|platz|allee|gasse|ring|rue|avenue|boulevard|bd|"
    r"place|chemin|via|viale|piazza|corso|calle|avenida|plaza|paseo|straat|laan|plein|"
    r"gracht|kuala|lumpur|selangor|johor|darul|ehsan|takzim|bahru|shah|alam|petaling|"
    r"jaya|klang|puchong|cheras|kajang|penang|perak|kedah|melaka|pahang|sabah|sarawak|"
    r"negeri|sembilan|malaysia|singapore|deutschland|germany|france|italia|espa[ñn]a|"
    r"nederland)\b|(?:stra(?:ß|ss)e|weg|platz)\b",
    _I,
)
"""Street, building and place words (Malay, English, German, French, Italian, Spanish,
Dutch) and Malaysian states, the SROIE receipts' country."""
PHONE = re.compile(
    r"\b(?:tel|telefon|phone|ph|fax|hp|mobile|mob|hotline|careline|whatsapp)\b|\+\d{2}|"
    r"\b0\d{1,3}[- ]?\d{3,4}[- ]?\d{3,4}\b",
    _I,
)
TAX_ID = re.compile(
    r"\b(?:gst|sst|vat|tax|tin|ust|mwst|tva|btw|iva|uid|st\.?-?nr|steuer|reg|regn|"
    r"registration|company\s*no|co\.?\s*no|roc|siret|siren|kvk|p\.?\s?iva|cif|nif)\b",
    _I,
)
_POSTCODE_NUMBER = re.compile(r"(?<![\d-])\d{4,5}(?![\d-])")
_REGISTRATION = re.compile(r"\d{5,}\s?-\s?[A-Z]\b|\([A-Z]{0,3}\d{4,}", _I)
_DATE_TEXT = re.compile(r"\d{1,2}[./-]\d{1,2}[./-]\d{2,4}|\d{1,2}:\d{2}")
_PUNCT = re.compile(r"[^\w\s]")
_NAME_REGISTRATION = re.compile(
    r"[\[(]?\s*(?:co\.?[\s,.]*(?:reg\.?)?\s*no\.?\s*[:.]?\s*)?\d{5,}\s?-\s?[A-Z]\b", _I
)

ROW_CUES: tuple[str, ...] = (
    "height",
    "caps",
    "digits",
    "letters",
    "punct",
    "words",
    "legal_form",
    "shop",
    "address_words",
    "postcode",
    "five_digits",
    "phone",
    "tax_id",
    "registration",
    "date",
    "money",
    "noise",
    "colon",
    "commas",
    "confidence",
    "centre_offset",
    "form_only",
    "name_words",
)
"""Cues of a row, for the row itself and its neighbours."""
LINE_FEATURES: tuple[str, ...] = (
    "rank",
    "rank_share",
    "top",
    "top_in_head",
    "left",
    "width",
    "chars",
    "segments",
    "height_rank",
    "is_tallest",
    "first_legal_form_offset",
    "first_address_offset",
    "first_noise_offset",
    "rule_name_row",
    "rule_name",
    "rule_address",
    *ROW_CUES,
    *(f"prev_{c}" for c in ROW_CUES),
    *(f"next_{c}" for c in ROW_CUES),
    *(f"prev2_{c}" for c in ("height", "legal_form", "address_words", "postcode", "noise")),
    *(f"next2_{c}" for c in ("height", "legal_form", "address_words", "postcode", "noise")),
)


def name_words(text: str) -> list[str]:
    """Words a name could be made of: what is left of the (cleaned) text without legal
    forms, bracketed parts ("(M)", "(SETIA ALAM)") and registration numbers."""
    bare = re.sub(r"\([^)]*\)?", " ", LEGAL_FORM.sub(" ", _NAME_REGISTRATION.sub(" ", text)))
    return re.findall(r"[^\W\d_]{2,}", bare)


def row_cues(row: Row, median_height: float) -> dict[str, float]:
    text = row.text
    clean = M.clean_text(text)
    chars = max(len(text.replace(" ", "")), 1)
    letters = sum(c.isalpha() for c in text)
    box = row.bbox
    rest = name_words(clean)
    return {
        "height": M.row_height(row) / median_height,
        "caps": sum(c.isupper() for c in text) / max(letters, 1),
        "digits": sum(c.isdigit() for c in text) / chars,
        "letters": letters / chars,
        "punct": len(_PUNCT.findall(text)) / chars,
        "words": float(len(text.split())),
        "legal_form": float(bool(LEGAL_FORM.search(clean))),
        "shop": float(bool(M.SHOP.search(text))),
        "address_words": float(len(ADDRESS_WORD.findall(clean))),
        "postcode": float(M._has_postcode(text)),
        "five_digits": float(len(_POSTCODE_NUMBER.findall(text))),
        "phone": float(bool(PHONE.search(text))),
        "tax_id": float(bool(TAX_ID.search(text))),
        "registration": float(bool(_REGISTRATION.search(text))),
        "date": float(date_in(row.tokens) is not None or bool(_DATE_TEXT.search(text))),
        "money": float(bool(money_tokens(row.tokens, None))),
        "noise": float(bool(M.NOISE.search(text))),
        "colon": float(":" in text or "=" in text),
        "commas": float(text.count(",")),
        "confidence": sum(t.confidence for t in row.tokens) / max(len(row.tokens), 1),
        "centre_offset": abs((box[0] + box[2]) / 2 - 0.5),
        "form_only": float(bool(LEGAL_FORM.search(clean)) and not rest),
        "name_words": float(len(rest)),
    }


_EMPTY = dict.fromkeys(ROW_CUES, -1.0)


def line_features(rows: Sequence[Row]) -> list[list[float]]:
    """One vector of :data:`LINE_FEATURES` per row of the head (the first :data:`HEAD_ROWS`)."""
    head = list(rows[:HEAD_ROWS])
    if not head:
        return []
    median_height = median(M.row_height(r) for r in rows) or 1e-3
    cues = [row_cues(r, median_height) for r in head]
    if len(rows) > len(head):
        after = [row_cues(r, median_height) for r in rows[len(head) : len(head) + 2]]
    else:
        after = []
    heights = [c["height"] for c in cues[:12]]
    ordered = sorted(set(heights), reverse=True)
    tops = [r.bbox[1] for r in head]
    span = max(tops[-1] - tops[0], 1e-6)

    def first(key: str) -> int:
        return next((i for i, c in enumerate(cues) if c[key] > 0), len(cues))

    first_form, first_address, first_noise = (
        first("legal_form"),
        first("address_words"),
        first("noise"),
    )
    rule = M.rule_choice(M.name_candidates(rows))
    rule_row = rule[0] if rule is not None else None
    rule_name, rule_address, _ = M.merchant(rows)
    name_ids = {id(t) for t in rule_name.tokens} if rule_name is not None else set()
    address_ids = {id(t) for t in rule_address.tokens} if rule_address is not None else set()
    out = []
    for k, row in enumerate(head):
        box = row.bbox
        c = cues[k]

        def near(offset: int, k: int = k) -> dict[str, float]:
            j = k + offset
            if 0 <= j < len(cues):
                return cues[j]
            if j >= len(cues) and j - len(cues) < len(after):
                return after[j - len(cues)]
            return _EMPTY

        features = {
            "rank": float(k),
            "rank_share": k / len(head),
            "top": box[1],
            "top_in_head": (box[1] - tops[0]) / span,
            "left": box[0],
            "width": box[2] - box[0],
            "chars": float(len(row.text)),
            "segments": float(len(row.segments)),
            "height_rank": float(ordered.index(c["height"])) if k < 12 else 12.0,
            "is_tallest": float(k < 12 and c["height"] == ordered[0]),
            "first_legal_form_offset": float(k - first_form),
            "first_address_offset": float(k - first_address),
            "first_noise_offset": float(k - first_noise),
            "rule_name_row": float(row is rule_row),
            "rule_name": float(any(id(t) in name_ids for t in row.tokens)),
            "rule_address": float(any(id(t) in address_ids for t in row.tokens)),
            **c,
            **{f"prev_{n}": v for n, v in near(-1).items()},
            **{f"next_{n}": v for n, v in near(1).items()},
            **{f"prev2_{n}": near(-2)[n] for n in LINE_FEATURES_NEAR2},
            **{f"next2_{n}": near(2)[n] for n in LINE_FEATURES_NEAR2},
        }
        out.append([float(features[n]) for n in LINE_FEATURES])
    return out


LINE_FEATURES_NEAR2 = ("height", "legal_form", "address_words", "postcode", "noise")


# --- decoding ----------------------------------------------------------------------------


_P_CLIP = 1e-6
"""Probabilities are clipped into [_P_CLIP, 1 - _P_CLIP] before the logit."""


@dataclass(frozen=True)
class Blocks:
    """The chosen name rows and address rows (indices into the receipt's rows) and the
    mean probability of each block's rows."""

    name: tuple[int, ...]
    address: tuple[int, ...]
    name_p: float
    address_p: float


def decode(
    p_name: Sequence[float],
    p_address: Sequence[float],
    named: Sequence[bool] | None = None,
    numbered: Sequence[bool] | None = None,
) -> Blocks:
    """The name block and the address run after it with the largest summed log-odds.
    Every receipt prints its merchant's name: the best name block is taken even when its
    rows are more likely out of it (its probability is then low, and so its confidence);
    a block is a name only if one of its rows is ``named`` (holds a word besides legal
    forms: "(SEMENYIH) SDN BHD" alone is no name; all rows by default). The address is
    taken when a run after the name (within :data:`ADDRESS_GAP` rows) adds to the sum,
    else the best run anywhere when its sum is positive; a run is an address only if one
    of its rows is ``numbered`` (every street address carries a house, lot or postcode
    number; all rows by default)."""
    n = len(p_name)
    named = [True] * n if named is None else named
    numbered = [True] * n if numbered is None else numbered
    if n == 0:
        return Blocks((), (), 0.0, 0.0)
    ln = [clipped_logit(p, _P_CLIP) for p in p_name]
    la = [clipped_logit(p, _P_CLIP) for p in p_address]

    def spans(
        scores: list[float],
        longest: int,
        start: int = 0,
        stop: int | None = None,
        valid: Sequence[bool] | None = None,
    ) -> list[tuple[float, int, int]]:
        out = []
        for i in range(start, n if stop is None else min(stop, n)):
            total = 0.0
            for j in range(i, min(i + longest, n)):
                total += scores[j]
                if valid is None or any(valid[i : j + 1]):
                    out.append((total, i, j + 1))
        return out

    best: tuple[float, tuple[int, int], tuple[int, int]] | None = None
    for name_score, i, j in spans(ln, NAME_MAX_ROWS, valid=named):
        runs = [(0.0, 0, 0), *spans(la, ADDRESS_MAX_ROWS, j, j + ADDRESS_GAP + 1, numbered)]
        address_score, a, b = max(runs, key=lambda r: r[0])
        if best is None or name_score + address_score > best[0]:
            best = (name_score + address_score, (i, j), (a, b))
    if best is None:
        best = (0.0, (0, 0), (0, 0))
    _, (i, j), (a, b) = best
    if a == b:
        anywhere = max(
            spans(la, ADDRESS_MAX_ROWS, valid=numbered), key=lambda r: r[0], default=(0.0, 0, 0)
        )
        if anywhere[0] > 0 and not (anywhere[1] < j and anywhere[2] > i):
            a, b = anywhere[1], anywhere[2]
    name = tuple(range(i, j))
    address = tuple(range(a, b))

    def mean(ps: Sequence[float], idx: tuple[int, ...]) -> float:
        return sum(ps[k] for k in idx) / len(idx) if idx else 0.0

    return Blocks(name, address, mean(p_name, name), mean(p_address, address))


# --- text --------------------------------------------------------------------------------


def name_text(rows: Sequence[Row]) -> tuple[str | None, tuple[Word, ...]]:
    """The name printed on ``rows``: OCR debris cleaned, a trailing registration number
    ("(867388-U)") and a date or time segment beside it dropped."""
    tokens: list[Word] = []
    for row in rows:
        for segment in row.segments:
            if date_in(segment.tokens) is not None or _DATE_TEXT.search(segment.text):
                continue
            tokens.extend(segment.tokens)
    text = M.clean_text(" ".join(t.text for t in tokens))
    # A company registration number ends the name: "99 SPEED MART S/B 1519537-X)".
    reg = _NAME_REGISTRATION.search(text)
    if reg is not None and re.search(r"[^\W\d_]{2}", text[: reg.start()]):
        text = text[: reg.start()]
    # The name ends at its (last) legal form: "EIGHT OUNCE COFFEE CO. THE GARDENS MALL".
    forms = list(M.COMPANY.finditer(text))
    if forms and re.search(r"[^\W\d_]{2}", text[: forms[-1].start()]):
        text = text[: forms[-1].end()]
    text = M.repair_name(M._TRAILING_REG.sub("", text).strip(" ,;:-"))
    if not re.search(r"[^\W\d_]{2,}", M.COMPANY.sub(" ", re.sub(r"\([^)]*\)?", " ", text))):
        return None, tuple(tokens)  # "ENTERPRISE (5": a legal form alone names nobody
    return (text or None), tuple(tokens)


LEXICON_MIN_LENGTH = 5
"""Shorter words are not corrected from the lexicon ("SATU" is no misread "BATU")."""


def lexicon_words(addresses: Sequence[tuple[str, str]], min_sources: int = 2) -> dict[str, int]:
    """The address lexicon learned from annotated addresses ((merchant, address) pairs):
    every word of :data:`LEXICON_MIN_LENGTH` letters or more printed in the addresses of at
    least ``min_sources`` merchants (street, area, city and state names, not one shop's
    own), with the number of merchants that print it."""
    sources: dict[str, set[str]] = {}
    for merchant, address in addresses:
        for word in re.findall(r"[^\W\d_]+", address.upper()):
            if len(word) >= LEXICON_MIN_LENGTH:
                sources.setdefault(word, set()).add(merchant)
    return {w: len(m) for w, m in sorted(sources.items()) if len(m) >= min_sources}


def join_split_words(text: str, lexicon: dict[str, int]) -> str:
    """Two neighbouring pieces that OCR split a lexicon word into ("JAL AN", "Peta ling",
    "KUAL A L UMPUR") joined again, when neither piece is a lexicon word itself."""
    parts = text.split(" ")
    out: list[str] = []
    for part in parts:
        if out:
            head = re.search(r"[^\W\d_]+$", out[-1])
            tail = re.match(r"[^\W\d_]+", part)
            if (
                head is not None
                and tail is not None
                and head[0] == out[-1][head.start() :]
                and (head[0] + tail[0]).upper() in lexicon
                and head[0].upper() not in lexicon
                and tail[0].upper() not in lexicon
                and (head.start() == 0 or not out[-1][head.start() - 1].isalnum())
            ):
                out[-1] += part
                continue
        out.append(part)
    return " ".join(out)


LEXICON_MIN_KNOWN = 2
"""An address is corrected from the lexicon only when at least this many of its words are
lexicon words: the lexicon is one region's vocabulary ("GITTA-HÄNEL-RING" in Paderborn is
no misread "CITTA")."""


def correct_from_lexicon(text: str, lexicon: dict[str, int]) -> str:
    """Words one letter off a lexicon word of the same length ("Lunpur", "FETALING",
    "MALURT") take that word (the one most merchants print, when several are that
    near); words of the lexicon, shorter words and words two letters off stay. Words OCR
    split in two are joined first (:func:`join_split_words`). Only in an address that
    prints :data:`LEXICON_MIN_KNOWN` lexicon words or more."""
    words = re.findall(r"[^\W\d_]+", text.upper())
    if sum(w in lexicon for w in words) < LEXICON_MIN_KNOWN:
        return text
    text = join_split_words(text, lexicon)

    def one(match: re.Match[str]) -> str:
        word = match[0]
        upper = word.upper()
        if upper in lexicon or len(upper) != len(word):
            return word
        near = [
            (count, known)
            for known, count in lexicon.items()
            if len(known) == len(upper)
            and sum(a != b for a, b in zip(known, upper, strict=True)) == 1
        ]
        if not near:
            return word
        best = max(near)[1]
        return M._restore_case(best.lower(), word)

    return re.sub(rf"[^\W\d_]{{{LEXICON_MIN_LENGTH},}}", one, text)


def address_text(
    rows: Sequence[Row], lexicon: dict[str, int] | None = None
) -> tuple[str | None, tuple[Word, ...]]:
    """The address printed on ``rows``: each row cut where a phone, fax or tax id begins,
    lines joined by a blank with the keys' punctuation (:func:`.merchant.join_address_rows`:
    a row's closing period before the next row is a comma), OCR slips in digits and
    address words repaired (also from the learned ``lexicon``,
    :func:`correct_from_lexicon`)."""
    kept: list[Row] = []
    for row in rows:
        noise = M.NOISE.search(row.text)
        if noise is not None:
            head = M._tokens_before(row, noise.start())
            if head:
                kept.append(Row(row.page, row.index, [Segment(head, row.page, row.index)]))
            continue
        kept.append(row)
    tokens = tuple(t for r in kept for t in r.tokens)
    if not tokens:
        return None, ()
    text = M.unify_spellings(M.join_address_rows([M._clean_address(r.text) for r in kept]), tokens)
    text = M.correct_address_words(text)
    text = M.tidy_brackets(correct_from_lexicon(text, lexicon or {})).strip()
    return (text or None), tokens


@dataclass(frozen=True)
class LineModel:
    """The two row scorers: P(row is part of the name), P(row is part of the address).
    Each scorer's calibration maps a block's mean row probability to P(the block's text is
    exactly right), fitted on held-out inner folds of the training pool: the field's
    confidence."""

    name: TreeScorer
    address: TreeScorer
    min_p: tuple[float, float] = (0.0, 0.0)
    """Name, address: a block whose mean row probability is below this is not reported
    (the floor that gave the best F1 on held-out inner folds of the training pool)."""
    lexicon: dict[str, int] = field(default_factory=dict)
    """Address words learned from the training keys (:func:`lexicon_words`), used to repair
    OCR slips in the address (:func:`correct_from_lexicon`)."""

    def to_json(self) -> str:
        blob = {
            "kind": "receipt-lines",
            "name": json.loads(self.name.to_json()),
            "address": json.loads(self.address.to_json()),
            "min_p": [float(f"{v:.12g}") for v in self.min_p],
            "lexicon": dict(sorted(self.lexicon.items())),
        }
        return json.dumps(blob, separators=(",", ":")) + "\n"

    @classmethod
    def from_json(cls, text: str) -> LineModel:
        """The model from its JSON; refused unless it was trained on :data:`LINE_FEATURES`."""
        blob = json.loads(text)
        if blob.get("kind") != "receipt-lines":
            raise ValueError("not a receipt line model")
        floor = blob.get("min_p", (0.0, 0.0))
        return cls(
            TreeScorer.from_blob(blob["name"], LINE_FEATURES),
            TreeScorer.from_blob(blob["address"], LINE_FEATURES),
            (float(floor[0]), float(floor[1])),
            {str(k): int(v) for k, v in blob.get("lexicon", {}).items()},
        )

    def probabilities(self, rows: Sequence[Row]) -> tuple[list[float], list[float]]:
        vectors = line_features(rows)
        return (
            [self.name.probability(v) for v in vectors],
            [self.address.probability(v) for v in vectors],
        )


def read_blocks(rows: Sequence[Row], model: LineModel) -> Blocks:
    """The name and address blocks the model's row probabilities decode to."""
    p_name, p_address = model.probabilities(rows)
    head = rows[: len(p_name)]
    named = [bool(name_words(M.clean_text(r.text))) for r in head]
    numbered = [bool(re.search(r"\d", r.text)) for r in head]
    return decode(p_name, p_address, named, numbered)


def tag_merchant(
    rows: Sequence[Row], model: LineModel
) -> tuple[Candidate | None, Candidate | None, int]:
    """(name, address, index of the last row of the merchant block or -1), as
    :func:`.merchant.merchant` gives them, from the line model's blocks."""
    blocks = read_blocks(rows, model)
    name = address = None
    confidence = model.name.confidence(blocks.name_p)
    if blocks.name and blocks.name_p >= model.min_p[0]:
        value, tokens = name_text([rows[k] for k in blocks.name])
        if value is not None and tokens:
            raw = "\n".join(rows[k].text for k in blocks.name)
            name = Candidate(value, tokens, confidence, raw)
    confidence = model.address.confidence(blocks.address_p)
    if blocks.address and blocks.address_p >= model.min_p[1]:
        value, tokens = address_text([rows[k] for k in blocks.address], model.lexicon)
        if value is not None and tokens:
            raw = "\n".join(rows[k].text for k in blocks.address)
            address = Candidate(value, tokens, confidence, raw)
    last = max([*blocks.name, *blocks.address], default=-1)
    return name, address, last


_packaged: dict[str, LineModel | None] = {}


def shipped_model(folder: Path | None = None) -> LineModel | None:
    """The packaged line model (``engines/data/receipt_lines.json``), or ``None``."""
    if folder is not None:
        path = folder / MODEL_FILE
        return LineModel.from_json(path.read_text()) if path.is_file() else None
    if MODEL_FILE not in _packaged:
        ref = resources.files("prefect_docai.engines").joinpath("data", MODEL_FILE)
        _packaged[MODEL_FILE] = LineModel.from_json(ref.read_text()) if ref.is_file() else None
    return _packaged[MODEL_FILE]
