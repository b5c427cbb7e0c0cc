"""Features of a page pair (previous page, current page): is the current page a new start?"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from rapidfuzz import fuzz
from scipy import sparse

from prefect_docai.engines.doctype.features import FloatArray
from prefect_docai.engines.paperflow.signals import PageSignals

# First-page cues of the current page (greeting, big title, address window, letterhead) are
# left out on purpose: on generated documents they mark a first page without exception, so
# the scorer learned them as certain, and cross-validation on real documents (families held
# out) lost 0.02-0.04 boundary F1 with each of them (continuation pages of real reports
# carry titles and headings; invoice pages carry addresses).
PAIR_FEATURES: tuple[str, ...] = (
    "blank_between",
    "pn_continues",
    "pn_same_total_next",
    "pn_cur_is_one",
    "pn_cur_gt_one",
    "pn_prev_is_last",
    "pn_prev_not_last",
    "pn_break",
    "pn_cur_none",
    "pn_prev_none",
    "cur_continued",
    "prev_closing",
    "prev_total",
    "prev_signature",
    "prev_continued",
    "header_sim",
    "footer_sim",
    "header_both_empty",
    "text_cosine",
    "layout_distance",
    "labelled_id_shared",
    "labelled_id_conflict",
    "id_jaccard",
    "type_agreement",
    "type_changed",
    "cur_type_confidence",
    "prev_text_bottom",
    "cur_text_top",
    "prev_words_log",
    "cur_words_log",
    "size_changed",
    "source_changed",
    "margin_seq",
    "margin_restart",
    "margin_backwards",
    "top_band_jaccard",
    "bottom_band_jaccard",
    "sentence_continues",
    "prev_open_end",
    "cur_lower_start",
    "x0_shift",
    "x1_shift",
    "font_ratio",
    "number_overlap",
    "name_overlap",
    "fp_disjoint",
    "fp_program_shared",
)


PAIR_DIRECTION: dict[str, int] = {
    "blank_between": 1,
    "pn_continues": -1,
    "pn_same_total_next": -1,
    "pn_cur_is_one": 1,
    "pn_prev_is_last": 1,
    "pn_prev_not_last": -1,
    "pn_break": 1,
    "cur_continued": -1,
    "prev_closing": 1,
    "prev_total": 1,
    "prev_signature": 1,
    "prev_continued": -1,
    "header_sim": -1,
    "footer_sim": -1,
    "text_cosine": -1,
    "layout_distance": 1,
    "labelled_id_shared": -1,
    "labelled_id_conflict": 1,
    "id_jaccard": -1,
    "type_agreement": -1,
    "type_changed": 1,
    "size_changed": 1,
    "source_changed": 1,
    "margin_seq": -1,
    "margin_restart": 1,
    "margin_backwards": 1,
    "top_band_jaccard": -1,
    "bottom_band_jaccard": -1,
    "sentence_continues": -1,
    "x0_shift": 1,
    "x1_shift": 1,
    "font_ratio": 1,
    "number_overlap": -1,
    "name_overlap": -1,
    "fp_disjoint": 1,
    "fp_program_shared": -1,
}
"""How each feature may move P(new document): +1 only up, -1 only down (monotonic
constraints of the scorer). Continuity evidence never argues for a boundary, whatever the
training streams happen to show; features without an entry are free."""


def monotonic_constraints() -> list[int]:
    return [PAIR_DIRECTION.get(name, 0) for name in PAIR_FEATURES]


@dataclass
class StreamPage:
    """One content page of the stream (separators removed) with everything pairs compare."""

    signals: PageSignals
    type_probs: FloatArray
    layout: FloatArray
    """Scaled dense classifier features (comparable across pages)."""
    size: tuple[float, float]
    source: str
    blanks_before: int = 0
    fingerprint: frozenset[str] = frozenset()
    """How the page's file was made (``engines.page.fingerprint``); empty when unknown."""


def _sim(a: str, b: str) -> float:
    if not a and not b:
        return 0.0
    return float(fuzz.token_set_ratio(a, b)) / 100.0


OVERLAP_UNKNOWN = 0.5
"""Number and name overlap when either page has fewer than ``OVERLAP_MIN`` of them (a
table page without numbers, a short receipt): no evidence either way, kept apart from
"nothing shared" (0), which argues for a new document."""
OVERLAP_MIN = 2
CONTENT_ONLY_FEATURES: tuple[str, ...] = ("number_overlap", "name_overlap")
"""Used by the content-only scorer only (``splitter.for_origin_model``)."""


def _overlap(a: frozenset[str], b: frozenset[str]) -> float:
    """Share of the smaller set found in the other: the numbers (dates, amounts, customer
    and document numbers) and names a document repeats from page to page, which another
    document of the same kind or template does not share (its own customer, dates and
    totals). Unknown when either page has too few of them."""
    smaller = min(len(a), len(b))
    if smaller < OVERLAP_MIN:
        return OVERLAP_UNKNOWN
    return len(a & b) / smaller


def _jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    union = a | b
    return len(a & b) / len(union) if union else 0.0


FP_UNKNOWN = 0.5
"""Both fingerprint features when either page has none: between the evidence for (1) and
against (0), so the scorer keeps "no evidence" apart from "evidence of the other kind"
and leans on its other signals there."""


FINGERPRINT_FEATURES: tuple[str, ...] = ("fp_disjoint", "fp_program_shared")


def origin_evidence(fingerprints: Sequence[frozenset[str]]) -> bool:
    """Whether the stream's pages say anything about their files of origin: every page has
    a fingerprint and they are not all the same. A scanner's single-source stream (one
    encoding on every page) or a source that gives none says nothing, and is split on
    content alone."""
    return all(fingerprints) and len(set(fingerprints)) > 1


def _fingerprint_features(
    a: frozenset[str], b: frozenset[str], set_: Callable[[str, float], None]
) -> None:
    """Same file or not.

    Only the two ends of the scale: nothing shared at all (no font name, font program or
    image encoding in common; never seen between pages of one corpus file) and a shared
    embedded font program (a subset is specific to the file that embeds it). Partial
    overlap is no evidence: real files draw a bold face or a per-page symbol subset on
    some pages only, and a graded overlap learned from generated documents (every page
    the same fonts) split such files (family-held-out cross-validation)."""
    if not a or not b:
        set_("fp_disjoint", FP_UNKNOWN)
        set_("fp_program_shared", FP_UNKNOWN)
        return
    common = a & b
    set_("fp_disjoint", float(not common))
    set_("fp_program_shared", float(any(t.startswith("p:") for t in common)))


def pair_features(pages: Sequence[StreamPage], text_rows: sparse.csr_matrix) -> FloatArray:
    """Row ``i - 1`` describes the pair (page ``i - 1``, page ``i``), for ``i = 1 .. n-1``.

    ``text_rows`` are the pages' L2-normalised hashed text vectors (one row per page).
    """
    n = len(pages)
    out = np.zeros((max(n - 1, 0), len(PAIR_FEATURES)), dtype=np.float64)
    if n < 2:
        return out
    cosines = np.asarray(
        text_rows[:-1].multiply(text_rows[1:]).sum(axis=1), dtype=np.float64
    ).ravel()
    index = {name: i for i, name in enumerate(PAIR_FEATURES)}
    for i in range(1, n):
        prev, cur = pages[i - 1], pages[i]
        p, c = prev.signals, cur.signals
        row = out[i - 1]

        def set_(name: str, value: float, row: FloatArray = row) -> None:
            row[index[name]] = value

        set_("blank_between", float(min(cur.blanks_before, 3)))
        pp, cp = p.page_number, c.page_number
        if pp is not None and cp is not None:
            follows = cp.number == pp.number + 1
            set_("pn_continues", float(follows))
            set_("pn_same_total_next", float(follows and pp.total is not None and pp.total == cp.total))
            set_("pn_break", float(not follows))
        if cp is not None:
            set_("pn_cur_is_one", float(cp.number == 1))
            set_("pn_cur_gt_one", float(cp.number > 1))
        else:
            set_("pn_cur_none", 1.0)
        if pp is not None and pp.total is not None:
            set_("pn_prev_is_last", float(pp.number == pp.total))
            set_("pn_prev_not_last", float(pp.number < pp.total))
        if pp is None:
            set_("pn_prev_none", 1.0)
        set_("cur_continued", float(c.continued))
        set_("prev_closing", float(p.closing))
        set_("prev_total", float(p.total))
        set_("prev_signature", float(p.signature))
        set_("prev_continued", float(p.continued))
        set_("header_sim", _sim(p.header, c.header))
        set_("footer_sim", _sim(p.footer, c.footer))
        set_("header_both_empty", float(not p.header and not c.header))
        set_("text_cosine", float(cosines[i - 1]))
        set_("layout_distance", float(np.mean(np.abs(prev.layout - cur.layout))))
        shared = p.labelled_ids & c.labelled_ids
        set_("labelled_id_shared", float(bool(shared)))
        set_("labelled_id_conflict", float(bool(p.labelled_ids and c.labelled_ids and not shared)))
        union = p.ids | c.ids
        set_("id_jaccard", len(p.ids & c.ids) / len(union) if union else 0.0)
        set_("type_agreement", float(np.dot(prev.type_probs, cur.type_probs)))
        set_("type_changed", float(np.argmax(prev.type_probs) != np.argmax(cur.type_probs)))
        set_("cur_type_confidence", float(np.max(cur.type_probs)))
        set_("prev_text_bottom", p.text_bottom)
        set_("cur_text_top", c.text_top)
        set_("prev_words_log", float(np.log1p(p.words)))
        set_("cur_words_log", float(np.log1p(c.words)))
        pw, ph = prev.size
        cw, ch = cur.size
        set_("size_changed", float(abs(pw - cw) > 0.05 * max(pw, 1) or abs(ph - ch) > 0.05 * max(ph, 1)))
        set_("source_changed", float(prev.source != cur.source))
        seq = any(number - 1 in p.margin_numbers for number in c.margin_numbers)
        set_("margin_seq", float(seq))
        set_("margin_restart", float(not seq and 1 in c.margin_numbers))
        # numbering that falls back (page 54, then page 41): another document's excerpt
        set_("margin_backwards", float(
            not seq and bool(p.margin_numbers) and bool(c.margin_numbers)
            and max(c.margin_numbers) < min(p.margin_numbers)
        ))
        set_("top_band_jaccard", _jaccard(p.top_band, c.top_band))
        set_("bottom_band_jaccard", _jaccard(p.bottom_band, c.bottom_band))
        set_("sentence_continues", float(p.open_end and c.lower_start))
        set_("prev_open_end", float(p.open_end))
        set_("cur_lower_start", float(c.lower_start))
        set_("x0_shift", abs(p.body_x0 - c.body_x0))
        set_("x1_shift", abs(p.body_x1 - c.body_x1))
        if p.font_median > 0 and c.font_median > 0:
            set_("font_ratio", abs(float(np.log(p.font_median / c.font_median))))
        set_("number_overlap", _overlap(p.numbers, c.numbers))
        set_("name_overlap", _overlap(p.names, c.names))
        _fingerprint_features(prev.fingerprint, cur.fingerprint, set_)
    return out
