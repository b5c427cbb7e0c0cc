"""The held-out invoice benchmark's scoring rules (benchmarks/invoices_cv.py)."""

from __future__ import annotations

from benchmarks.invoices_cv import Sample, shown_fields
from tests.unit.engines.word_pages import layout, words


def _sample(invoice_date: str) -> Sample:
    return Sample(
        "s", "grammar", "g", "en", {"invoice_date": invoice_date}, False, make_pdf=lambda: b""
    )


def test_a_month_first_invoice_date_counts_as_printed() -> None:
    """A US page prints 3 November 2017 as 11/03/2017: the benchmark must score that field
    (it used to read every numeric date day-first, so such fields went unscored and a
    wrong reading of them was never counted)."""
    page = layout(
        words(0.20, ("Invoice Date 11/03/2017", 0.08)),
        words(0.30, ("Payment received 11/17/2017", 0.08)),
    )
    assert "invoice_date" in shown_fields(_sample("2017-11-03"), [page])
    assert "invoice_date" in shown_fields(_sample("2017-03-11"), [page])
    assert "invoice_date" not in shown_fields(_sample("2017-03-12"), [page])
