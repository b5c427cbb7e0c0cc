"""PaperFlow continuity evidence: running page numbers in headers/footers, band similarity,
sentence carry-over, and the scorer's monotonic feature directions."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import sparse

from prefect_docai.engines.doctype.views import PageView
from prefect_docai.engines.page.model import Word
from prefect_docai.engines.paperflow.pairs import (
    PAIR_DIRECTION,
    PAIR_FEATURES,
    StreamPage,
    pair_features,
)
from prefect_docai.engines.paperflow.signals import margin_numbers, page_signals, roman_value
from prefect_docai.engines.paperflow.splitter import default_boundary_model


def _line(text: str, y: float, x0: float = 0.12, x1: float = 0.88) -> tuple[str, float, float, float, float]:
    return (text, x0, y, x1, y + 0.012)


@pytest.mark.parametrize(
    ("lines", "expected"),
    [
        ([_line("FY 2011 GSA OCSIT ANNUAL REPORT 15", 0.93)], {15}),
        ([_line("16 FY 2011 GSA OCSIT ANNUAL REPORT", 0.93)], {16}),
        ([_line("xxiii", 0.94, 0.48, 0.52)], {23}),
        ([_line("- 7 -", 0.95, 0.45, 0.55)], {7}),
        ([_line("Chapter 3 Results 41", 0.04)], {41}),
        # the total of "Seite 1 von 2" is no page number of its own
        ([_line("Seite 1 von 2", 0.95)], {1}),
        # mid-page numbers and roman-looking words inside a heading are not page numbers
        ([_line("Total 15", 0.5)], set()),
        ([_line("PART II OVERVIEW", 0.03)], set()),
        # a table row reaching into the margin: numbers everywhere, none of them a page mark
        ([_line("1 2 3", 0.92), _line("4 5 6", 0.94), _line("7 8 9", 0.96)], set()),
    ],
)
def test_margin_numbers(lines: list[tuple[str, float, float, float, float]], expected: set[int]) -> None:
    assert set(margin_numbers(lines)) == expected


def test_roman_values() -> None:
    assert [roman_value(t) for t in ("i", "iv", "IX", "xiv", "xxxix", "ic", "")] == [
        1, 4, 9, 14, 39, None, None,
    ]


def _view(lines: list[tuple[str, float]], size: float = 10.0) -> PageView:
    words = []
    for index, (text, y) in enumerate(lines):
        x = 0.12
        for token in text.split():
            width = 0.012 * len(token)
            words.append(Word(token, (x, y, x + width, y + 0.012), 1.0, index, 0, size))
            x += width + 0.01
    return PageView(words, 595.0, 842.0, "text-layer")


BODY = [f"Paragraph line {k} about the regional survey results and their method." for k in range(20)]


def _page(header: str, footer: str, body: list[str], size: float = 10.0) -> StreamPage:
    lines = [(header, 0.03)] if header else []
    lines += [(text, 0.15 + 0.035 * k) for k, text in enumerate(body)]
    lines += [(footer, 0.95)] if footer else []
    signals = page_signals(_view(lines, size))
    return StreamPage(signals, np.full(3, 1 / 3), np.zeros(4), (595.0, 842.0), "text-layer")


def _pairs(pages: list[StreamPage]) -> dict[str, list[float]]:
    rows = sparse.csr_matrix(np.eye(len(pages)))
    x = pair_features(pages, rows)
    return {name: x[:, i].tolist() for i, name in enumerate(PAIR_FEATURES)}


def test_running_footer_numbers_chain_and_restart() -> None:
    pages = [
        _page("Annual Report", "Annual Report 2023 | 14", BODY),
        _page("Annual Report", "15 | Annual Report 2023", BODY),
        _page("Quarterly Letter", "Page 1", BODY),
        _page("Quarterly Letter", "Page 2", BODY),
        _page("", "- 41 -", BODY),  # an excerpt from another document's page 41
        _page("", "- 9 -", BODY),  # numbering falls back: another excerpt again
    ]
    features = _pairs(pages)
    assert features["margin_seq"] == [1.0, 0.0, 1.0, 0.0, 0.0]
    assert features["margin_restart"] == [0.0, 1.0, 0.0, 0.0, 0.0]
    assert features["margin_backwards"] == [0.0, 1.0, 0.0, 0.0, 1.0]
    # digits are masked: "2023 | 14" and "15 | 2023" are the same running footer
    assert features["bottom_band_jaccard"][0] == pytest.approx(1.0)
    assert features["top_band_jaccard"][:2] == pytest.approx([1.0, 0.0])


def test_sentence_carried_over_to_the_next_page() -> None:
    open_end = [*BODY[:-1], "the results of the survey were then compared with"]
    carried = ["the national figures of the previous year.", *BODY[1:]]
    closed = [*BODY[:-1], "The survey ends here."]
    pages = [_page("", "", open_end), _page("", "", carried), _page("", "", closed),
             _page("", "", BODY)]
    features = _pairs(pages)
    assert features["sentence_continues"] == [1.0, 0.0, 0.0]
    assert features["prev_open_end"] == [1.0, 0.0, 0.0]
    assert features["cur_lower_start"] == [1.0, 0.0, 0.0]


def test_body_geometry_and_font_change() -> None:
    narrow = [text[:30] for text in BODY]
    pages = [_page("", "", BODY), _page("", "", BODY), _page("", "", narrow, size=14.0)]
    features = _pairs(pages)
    assert features["x1_shift"][0] == pytest.approx(0.0)
    assert features["x1_shift"][1] > 0.1
    assert features["font_ratio"][0] == pytest.approx(0.0)
    assert features["font_ratio"][1] == pytest.approx(np.log(14 / 10), abs=0.01)


def test_shipped_scorer_respects_feature_directions() -> None:
    """Continuity evidence may only lower P(new document), discontinuity only raise it,
    whatever else the pair shows."""
    model = default_boundary_model()
    rng = np.random.default_rng(5)
    base = rng.uniform(0.0, 1.0, size=(300, len(PAIR_FEATURES)))
    base[:, PAIR_FEATURES.index("prev_words_log")] *= 7
    base[:, PAIR_FEATURES.index("cur_words_log")] *= 7
    for origin in (True, False):  # both scorers: with and without file-of-origin evidence
        before = model.score(base, origin)
        for name, direction in PAIR_DIRECTION.items():
            raised = base.copy()
            raised[:, PAIR_FEATURES.index(name)] += 1.0
            delta = (model.score(raised, origin) - before) * direction
            assert delta.min() >= -1e-9, name


def test_shared_numbers_and_names_between_pages() -> None:
    """A document repeats its numbers (customer number, date) and names from page to
    page; the next document of the same template carries its own. Too few of either on a
    page is no evidence (unknown, apart from "nothing shared")."""
    first = ["Invoice for Meyer Holzbau GmbH, customer 40-1177, dated 12.03.2021.",
             "Delivery to Hamburg warehouse, order 88213 as agreed."]
    second = ["Continued: Meyer Holzbau GmbH, customer 40-1177, 12.03.2021, page two.",
              "Items shipped from Hamburg on order 88213."]
    other = ["Invoice for Schulz Metallbau KG, customer 55-2093, dated 02.11.2022.",
             "Delivery to Bremen depot, order 90417 as agreed."]
    bare = ["the items are listed below without any further detail."]
    pages = [_page("", "", first), _page("", "", second), _page("", "", other),
             _page("", "", bare)]
    assert pages[0].signals.numbers == frozenset({"401177", "12032021", "88213"})
    assert {"meyer", "holzbau", "hamburg", "invoice"} <= pages[0].signals.names
    assert "GmbH".lower() in pages[0].signals.names
    features = _pairs(pages)
    assert features["number_overlap"][0] == pytest.approx(1.0)
    assert features["number_overlap"][1] == pytest.approx(0.0)
    assert features["name_overlap"][0] > 0.5
    assert features["name_overlap"][1] < 0.3
    assert features["number_overlap"][2] == pytest.approx(0.5)  # no numbers: unknown
    assert features["name_overlap"][2] == pytest.approx(0.5)


def test_number_and_name_overlap_steer_only_the_content_scorer() -> None:
    """With file-of-origin evidence the scorer ignores number and name overlap (they split
    long invoices there); without it they lower P(new document) for a continuing page."""
    model = default_boundary_model()
    rng = np.random.default_rng(11)
    base = rng.uniform(0.0, 1.0, size=(200, len(PAIR_FEATURES)))
    shared, apart = base.copy(), base.copy()
    for name in ("number_overlap", "name_overlap"):
        shared[:, PAIR_FEATURES.index(name)] = 1.0
        apart[:, PAIR_FEATURES.index(name)] = 0.0
    assert np.array_equal(model.score(shared, True), model.score(apart, True))
    assert (model.score(apart, False) - model.score(shared, False)).max() > 0.05
