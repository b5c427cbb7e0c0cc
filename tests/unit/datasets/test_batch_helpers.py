"""The batch flow's plain helpers (no Prefect run): options, sources, page cutting, budget."""

from __future__ import annotations

import asyncio
import io
import time
import uuid
from pathlib import Path

import pikepdf
import pytest
import typer
from PIL import Image
from pydantic import ValidationError
from reportlab.pdfgen import canvas

from prefect_docai.cli.run import parse_routes
from prefect_docai.files.cut import cut_pages
from prefect_docai.flows.options import BatchOptions
from prefect_docai.flows.pipeline import Budget, estimate_credits
from prefect_docai.flows.sources import Source


def make_pdf(pages: int) -> bytes:
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer)
    for page in range(1, pages + 1):
        pdf.drawString(72, 720, f"page {page}")
        pdf.showPage()
    pdf.save()
    return buffer.getvalue()


def page_texts(data: bytes) -> list[str]:
    with pikepdf.open(io.BytesIO(data)) as pdf:
        return [bytes(p.Contents.read_bytes()).decode("latin-1") for p in pdf.pages]


def test_options_routing_and_validation() -> None:
    options = BatchOptions()
    assert options.tools_for("invoice") == ["Invoice"]
    assert options.tools_for("letter") == ["ICR"]
    assert options.tools_for("unknown") == ["ICR"]
    assert options.max_tools_per_segment == 2  # reports: tables and text
    wide = BatchOptions(tables_for_all=True, routing={"letter": ["ICR"]})
    assert wide.tools_for("letter") == ["ICR", "TableExtraction"]
    assert wide.tools_for("invoice") == ["ICR", "TableExtraction"]  # not routed: defaults
    with pytest.raises(ValidationError):
        BatchOptions(routing={"recipe": ["ICR"]})
    with pytest.raises(ValidationError):
        BatchOptions(routing={"invoice": ["Translate"]})  # type: ignore[list-item]
    with pytest.raises(ValidationError):
        BatchOptions(language_hint="deu")
    # The Prefect UI renders the model from its JSON schema.
    schema = BatchOptions.model_json_schema()
    assert {"patterns", "split", "routing", "credit_budget", "dry_run"} <= set(schema["properties"])


def test_parse_routes() -> None:
    assert parse_routes(["letter=ICR,TableExtraction", "form = ICR"]) == {
        "letter": ["ICR", "TableExtraction"],
        "form": ["ICR"],
    }
    with pytest.raises(typer.BadParameter):
        parse_routes(["letter"])


def test_credit_estimates_bound_the_real_cost() -> None:
    options = BatchOptions()
    # One page, no split: classify 1 + at most two tools on one page.
    assert estimate_credits(1, options) == (2, 3)
    # Five pages: split 5, classify 1..5, tools 5..10.
    assert estimate_credits(5, options) == (11, 20)
    assert estimate_credits(5, BatchOptions(split=False)) == (6, 11)


def test_budget_never_promises_more_than_the_limit() -> None:
    async def scenario() -> tuple[bool, bool, bool, int]:
        budget = Budget(10)
        first = await budget.reserve(6)
        second = await budget.reserve(5)  # 6 + 5 > 10
        await budget.settle(6, 3)  # the document cost less than feared
        third = await budget.reserve(5)  # 3 + 5 <= 10
        return first, second, third, budget.used

    assert asyncio.run(scenario()) == (True, False, True, 3)


def test_cut_pages_pdf_and_tiff() -> None:
    pdf = make_pdf(3)
    assert cut_pages(pdf, "application/pdf", 1, 3, 3) is pdf  # whole file: untouched bytes
    middle = cut_pages(pdf, "application/pdf", 2, 3, 3)
    texts = page_texts(middle)
    assert len(texts) == 2 and "page 2" in texts[0] and "page 3" in texts[1]
    assert "page 1" in page_texts(cut_pages(pdf, "application/pdf", 1, 1, 3))[0]
    # Deterministic, also a second later (qpdf's default /ID mixes in the clock): the
    # Idempotency-Key of a segment's upload is bound to these bytes.
    time.sleep(1.1)
    assert cut_pages(pdf, "application/pdf", 2, 3, 3) == middle
    with pytest.raises(ValueError):
        cut_pages(pdf, "application/pdf", 2, 4, 3)

    frames = [Image.new("L", (20, 10), color=shade) for shade in (0, 128, 255)]
    buffer = io.BytesIO()
    frames[0].save(buffer, format="TIFF", save_all=True, append_images=frames[1:])
    cut = cut_pages(buffer.getvalue(), "image/tiff", 2, 3, 3)
    with Image.open(io.BytesIO(cut)) as image:
        assert image.n_frames == 2
        assert image.getpixel((0, 0)) == 128
    assert cut_pages(buffer.getvalue(), "image/tiff", 2, 3, 3) == cut


def test_source_listing(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "one.PDF").write_bytes(b"x")
    (tmp_path / "a" / "two.png").write_bytes(b"xy")
    (tmp_path / "a" / "notes.txt").write_text("no")
    (tmp_path / ".hidden.pdf").write_bytes(b"x")
    (tmp_path / "lake" / "_docai" / "staging").mkdir(parents=True)
    (tmp_path / "lake" / "_docai" / "staging" / "x.pdf").write_bytes(b"x")

    folder = Source(str(tmp_path), ["*.pdf", "*.png"])
    files = folder.list()
    assert [f.name for f in files] == ["one.PDF", "two.png"]
    assert files[0].url == f"file://{tmp_path}/a/one.PDF"
    assert files[1].size == 2
    assert folder.read(files[1]) == b"xy"

    assert [f.name for f in Source(f"{tmp_path}/**/*.png", ["*.pdf"]).list()] == ["two.png"]
    assert [f.name for f in Source(str(tmp_path / "a" / "notes.txt"), []).list()] == ["notes.txt"]
    with pytest.raises(FileNotFoundError):
        Source(str(tmp_path / "missing"), ["*"]).list()

    root = f"memory://src-{uuid.uuid4().hex}"
    memory = Source(root, ["*.pdf"])
    memory.fs.pipe(f"{memory.path}/in/x.pdf", b"pdf")
    (listed,) = memory.list()
    assert listed.url.startswith("memory://") and memory.read(listed) == b"pdf"


def test_batch_incomplete_survives_pickling() -> None:
    """A Dask or Ray worker sends the flow's exception back pickled."""
    import pickle

    from prefect_docai.flows import BatchIncomplete, BatchSummary

    summary = BatchSummary(run_id="r", source="s", destination="d", deferred=3)
    again = pickle.loads(pickle.dumps(BatchIncomplete(summary)))
    assert isinstance(again, BatchIncomplete)
    assert again.summary.deferred == 3 and "3 document(s) deferred" in str(again)
