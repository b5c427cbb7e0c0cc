"""The speed benchmark's documents: each group holds the scans it names, nothing else."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
from benchmarks.tables_speed import documents, summary


def test_sheet_scans_are_their_own_group_of_image_only_pages(tmp_path: Path) -> None:
    groups = documents(0, 0, tmp_path, sheets=2)
    assert list(groups) == ["sheets"]
    assert [Path(p).name for p in groups["sheets"]] == ["sheet-0-scan.pdf", "sheet-1-scan.pdf"]
    for path in groups["sheets"]:
        pdf = pdfium.PdfDocument(path)
        try:
            # a scan: the page is a picture, no text layer for the tool to take instead of OCR
            assert len(pdf) == 1
            assert pdf[0].get_textpage().get_text_range().strip() == ""
        finally:
            pdf.close()


def test_summary_counts_pages_per_group() -> None:
    run = {"sheets": [["a", 6.0, 1, "x"], ["b", 10.0, 2, "y"]]}
    report = summary([run, run])
    assert report["sheets"]["pages"] == 3
    assert report["sheets"]["cpu_s_per_page_mean"] == round(16.0 / 3, 2)
    assert report["sheets"]["cpu_s_per_page_slowest_document"] == 6.0
