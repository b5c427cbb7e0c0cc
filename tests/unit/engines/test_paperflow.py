"""ToolPaperFlow on generated page streams with known boundaries."""

from __future__ import annotations

import io

import numpy as np
import pikepdf
import pytest
from PIL import Image
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen.canvas import Canvas

from prefect_docai.engines.paperflow import PaperFlowEngine
from prefect_docai.engines.paperflow.decode import LengthPrior, decode, page_chains
from prefect_docai.engines.paperflow.signals import PageNumber, find_page_number
from prefect_docai.engines.pluginspec import EngineOptions
from prefect_docai.models.results import PaperFlowResult
from prefect_docai.samples import generate, make_stream, templates

SEED = 11


@pytest.fixture(scope="module")
def engine() -> PaperFlowEngine:
    return PaperFlowEngine()


def _line(text: str, y: float) -> tuple[str, float, float, float, float]:
    return (text, 0.4, y, 0.6, y + 0.015)


@pytest.mark.parametrize(
    ("text", "y", "expected"),
    [
        ("Seite 2 von 3", 0.5, PageNumber(2, 3)),
        ("Page 4/5", 0.95, PageNumber(4, 5)),
        ("page 1 of 12", 0.02, PageNumber(1, 12)),
        ("- 2 -", 0.96, PageNumber(2, None)),
        ("3/7", 0.03, PageNumber(3, 7)),
        ("7", 0.97, PageNumber(7, None)),
        ("7", 0.5, None),  # a bare number mid-page is a quantity, not a page number
        ("Seite 5 von 3", 0.95, None),  # impossible chain
        ("Total 12,50 EUR", 0.95, None),
    ],
)
def test_page_number_forms(text: str, y: float, expected: PageNumber | None) -> None:
    assert find_page_number([_line(text, y)]) == expected


def test_margin_mark_wins_over_body_mentions() -> None:
    body = [_line(f"as explained on page {k + 5}, line {k}", 0.2 + 0.03 * k) for k in range(5)]
    assert find_page_number([*body, _line("Seite 2 von 3", 0.95)]) == PageNumber(2, 3)
    assert find_page_number([*body, _line("- 4 -", 0.96)]) == PageNumber(4, None)
    # a reference inside a sentence is no mark of the page's own
    assert find_page_number(body) is None
    # a keyword mark beats a bare number in the other margin
    assert find_page_number([_line("12", 0.03), _line("Page 2/3", 0.96)]) == PageNumber(2, 3)


def test_page_chains_fix_starts_and_continuations() -> None:
    def mark(number: int, total: int | None) -> PageNumber:
        return PageNumber(number, total)

    marks = [
        None,
        mark(1, 3),
        None,
        mark(3, 3),  # a chain with one mark lost: whole, then closed
        None,
        mark(1, 2),
        mark(2, 2),
        mark(1, 1),
        mark(1, 3),
        mark(3, 3),
        None,  # broken (page 2 says 3): no constraint
        mark(1, 2),
        mark(2, 2),  # a chain at the end of the stream
    ]
    starts, joined = page_chains(marks)
    assert starts == [1, 4, 5, 7, 8, 11]
    assert joined == [2, 3, 6, 12]
    assert page_chains([mark(1, 4), mark(2, 4)]) == ([], [])  # runs past the stream
    assert page_chains([mark(1, 2), None]) == ([], [])  # nothing confirms it


def test_decode_keeps_joined_pages_and_forced_starts() -> None:
    prior = LengthPrior.from_lengths([1], weight=1.0)
    boundary = np.array([1.0, 0.99, 0.99, 0.01])
    spans = decode(boundary, prior, forced=[3], joined=[1, 2, 3])
    assert [(s.start, s.end) for s in spans] == [(0, 2), (3, 3)]
    assert spans[0].confidence > 0.99


def test_decode_follows_scores_and_forced_starts() -> None:
    prior = LengthPrior.from_lengths([1, 2, 3], weight=0.0)
    boundary = np.array([1.0, 0.1, 0.9, 0.2, 0.05, 0.95])
    assert [(s.start, s.end) for s in decode(boundary, prior)] == [(0, 1), (2, 4), (5, 5)]
    forced = decode(boundary, prior, forced=[4])
    assert [(s.start, s.end) for s in forced] == [(0, 1), (2, 3), (4, 4), (5, 5)]
    # a separator sheet makes its boundary certain; the weakest remaining call decides
    assert forced[1].confidence == pytest.approx(0.8)
    assert forced[2].confidence == pytest.approx(0.95)
    assert decode(np.zeros(0), prior) == []


def test_length_prior_tips_close_calls_only() -> None:
    # many one-page documents seen: a 50/50 call splits; a strong "continue" stays joined
    prior = LengthPrior.from_lengths([1] * 50 + [2] * 5, weight=1.0)
    assert len(decode(np.array([1.0, 0.5]), prior)) == 2
    assert len(decode(np.array([1.0, 0.02]), prior)) == 1


def _docs(kinds: list[tuple[str, str]], seed: int) -> list[bytes]:
    return [generate(t, seed=seed + i, lang=lang).pdf for i, (t, lang) in enumerate(kinds)]


def _run(engine: PaperFlowEngine, data: bytes) -> tuple[PaperFlowResult, list[int], list[bytes]]:
    out = engine.run(data, EngineOptions(file_name="stream.pdf"))
    assert isinstance(out.result, PaperFlowResult)
    starts = [d.start_page for d in out.result.documents]
    return out.result, starts, [f.data for f in out.files]


def _pages(pdf: bytes) -> int:
    with pikepdf.open(io.BytesIO(pdf)) as doc:
        return len(doc.pages)


def test_separator_sheets_split_and_are_left_out(engine: PaperFlowEngine) -> None:
    kinds = [("invoice", "de"), ("invoice", "de"), ("letter", "en"), ("receipt", "de")]
    docs = _docs(kinds, SEED)
    stream, truth = make_stream(docs, separators=["qr", "barcode", "blank"])
    result, starts, files = _run(engine, stream)
    assert starts == truth
    sizes = [_pages(d) for d in docs]
    assert [d.page_count for d in result.documents] == sizes
    assert [_pages(f) for f in files] == sizes
    assert all(0.0 <= d.confidence <= 1.0 for d in result.documents)
    assert [d.index for d in result.documents] == [1, 2, 3, 4]


def test_stream_without_separators(engine: PaperFlowEngine) -> None:
    kinds = [("invoice", "de"), ("letter", "de"), ("invoice", "en"), ("receipt", "en")]
    docs = _docs(kinds, SEED + 10)
    stream, truth = make_stream(docs)
    result, starts, files = _run(engine, stream)
    assert starts == truth
    assert [d.document_type for d in result.documents] == [k for k, _ in kinds]
    assert sum(_pages(f) for f in files) == _pages(stream)


def _numbered_doc(title: str, pages: int, style: str) -> bytes:
    """A plain multi-page document whose only continuity cue is its page-number chain."""
    buf = io.BytesIO()
    canvas = Canvas(buf, pagesize=A4, invariant=1)
    for page in range(1, pages + 1):
        canvas.setFont("Helvetica", 10)
        canvas.drawString(70, 780, title if page == 1 else "")
        for k in range(25):
            canvas.drawString(
                70, 740 - 18 * k, f"Line {k} of the text on page {page}, item {k * page}"
            )
        mark = {
            "de": f"Seite {page} von {pages}",
            "en": f"Page {page}/{pages}",
            "dash": f"- {page} -",
        }[style]
        canvas.drawCentredString(297, 40, mark)
        canvas.showPage()
    canvas.save()
    return buf.getvalue()


def test_page_number_chains(engine: PaperFlowEngine) -> None:
    docs = [
        _numbered_doc("Bericht A", 3, "de"),
        _numbered_doc("Report B", 2, "en"),
        _numbered_doc("Report C", 1, "en"),
        _numbered_doc("Bericht D", 4, "dash"),
    ]
    stream, truth = make_stream(docs)
    _, starts, files = _run(engine, stream)
    assert starts == truth
    assert [_pages(f) for f in files] == [3, 2, 1, 4]


def test_multi_page_generated_documents_stay_whole(engine: PaperFlowEngine) -> None:
    long_docs = []
    for doc_type in ("invoice", "letter", "contract", "report", "bank_statement"):
        if not templates(doc_type):
            continue
        for seed in range(40, 60):
            doc = generate(doc_type, seed=seed, lang="de")
            if doc.page_count > 1:
                long_docs.append(doc.pdf)
                break
    if len(long_docs) < 2:
        pytest.skip("the sample generator has fewer than two multi-page templates yet")
    stream, truth = make_stream(long_docs)
    _, starts, _ = _run(engine, stream)
    assert starts == truth


def test_tiff_stream_splits_into_pdfs(engine: PaperFlowEngine) -> None:
    frames = []
    for text in ("Seite 1 von 2", "Seite 2 von 2", "Seite 1 von 1"):
        image = Image.new("L", (600, 850), 255)
        from PIL import ImageDraw

        draw = ImageDraw.Draw(image)
        for k in range(12):
            draw.text((60, 80 + 40 * k), f"Zeile {k} Text {text}", fill=0)
        draw.text((260, 800), text, fill=0)
        frames.append(image)
    buf = io.BytesIO()
    frames[0].save(buf, format="TIFF", save_all=True, append_images=frames[1:], dpi=(72, 72))
    out = engine.run(buf.getvalue(), EngineOptions(file_name="scan.tif"))
    assert isinstance(out.result, PaperFlowResult)
    assert out.page_count == 3
    assert sum(d.page_count for d in out.result.documents) == 3
    assert sum(_pages(f.data) for f in out.files) == 3
    assert all(f.output_type is None and f.name.endswith(".pdf") for f in out.files)
